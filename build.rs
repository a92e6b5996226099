//! Generates the typed `Action` enum from `grammar/actions.toml` (the index of
//! Actions of Rule 1.7.2), so that the parser, the enum and the table can
//! never disagree: one variant per table entry, one typed field per
//! `<placeholder>` of its written form.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

#[derive(serde::Deserialize)]
struct Table {
    action: Vec<Row>,
}

/// A row as written: a `same_as` row is another written form of the row it
/// names, whose phase, rule, status, duration and price it takes (written
/// once, there).
#[derive(Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    id: String,
    form: String,
    same_as: Option<String>,
    phase: Option<String>,
    phase_rule: Option<String>,
    rule: Option<String>,
    rule_written: Option<String>,
    duration: Option<toml::Value>,
    status: Option<String>,
    cost: Option<String>,
    cost_written: Option<String>,
    gain: Option<String>,
    fosdyke: Option<String>,
    example: String,
    #[serde(default)]
    aliases: Vec<String>,
    note: Option<String>,
    #[serde(default = "yes")]
    in_index: bool,
}

/// A row with its `same_as` resolved.
struct Entry {
    id: String,
    form: String,
    phase: String,
    phase_rule: Option<String>,
    rule: String,
    rule_written: Option<String>,
    duration: Option<toml::Value>,
    status: String,
    cost: Option<String>,
    gain: Option<String>,
    fosdyke: Option<String>,
    example: String,
    aliases: Vec<String>,
    note: Option<String>,
    in_index: bool,
}

/// Resolves each row's `same_as`: the row named (itself no `same_as`)
/// gives what the row may not write again.
fn resolve(rows: &[Row]) -> Vec<Entry> {
    rows.iter()
        .map(|r| {
            let from = match &r.same_as {
                Some(other) => {
                    let o = rows
                        .iter()
                        .find(|o| &o.id == other && o.same_as.is_none())
                        .unwrap_or_else(|| {
                            panic!("grammar/actions.toml: {}: same_as {other:?} is no row with its own price", r.id)
                        });
                    let written = [
                        r.phase.is_some(),
                        r.phase_rule.is_some(),
                        r.rule.is_some(),
                        r.rule_written.is_some(),
                        r.duration.is_some(),
                        r.status.is_some(),
                        r.cost.is_some(),
                        r.cost_written.is_some(),
                        r.gain.is_some(),
                        r.fosdyke.is_some(),
                    ];
                    assert!(
                        !written.contains(&true),
                        "grammar/actions.toml: {}: a same_as row takes its phase, rule, status, duration and price from {other}, once",
                        r.id
                    );
                    o
                }
                None => r,
            };
            let need = |v: &Option<String>, what: &str| {
                v.clone()
                    .unwrap_or_else(|| panic!("grammar/actions.toml: {}: no {what}", r.id))
            };
            Entry {
                id: r.id.clone(),
                form: r.form.clone(),
                phase: need(&from.phase, "phase"),
                phase_rule: from.phase_rule.clone(),
                rule: need(&from.rule, "rule"),
                rule_written: from.rule_written.clone(),
                duration: from.duration.clone(),
                status: need(&from.status, "status"),
                cost: from.cost.clone(),
                gain: from.gain.clone(),
                fosdyke: from.fosdyke.clone(),
                example: r.example.clone(),
                aliases: r.aliases.clone(),
                note: r.note.clone(),
                in_index: r.in_index,
            }
        })
        .collect()
}

fn yes() -> bool {
    true
}

/// Placeholder -> (field base name, Rust type, Arg conversion method).
fn placeholder(kind: &str) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        "Station" => ("station", "Target"),
        "Player" => ("player", "String"),
        "Line" => ("line", "LineCode"),
        "Colour" => ("colour", "Colour"),
        "N" => ("n", "i64"),
        "Zone" => ("zone", "u8"),
        "Day" => ("day", "Weekday"),
        "Time" => ("time", "String"),
        "Tokens" => ("tokens", "TokenList"),
        "Possession" => ("possession", "Item"),
        "Gambit" => ("gambit", "String"),
        "Place" => ("place", "String"),
        "Direction" => ("direction", "String"),
        "Compass" => ("compass", "String"),
        "Text" => ("text", "String"),
        _ => return None,
    })
}

fn holes(form: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("unclosed placeholder") + start;
        out.push(rest[start + 1..end].to_string());
        rest = &rest[end + 1..];
    }
    out
}

fn camel(id: &str) -> String {
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            let first = c.next().unwrap().to_ascii_uppercase();
            let mut s = String::new();
            s.push(first);
            s.extend(c);
            s
        })
        .collect()
}

fn lit(s: &str) -> String {
    format!("{s:?}")
}

fn opt(s: &Option<String>) -> String {
    match s {
        Some(v) => format!("Some({})", lit(v)),
        None => "None".into(),
    }
}

/// The Rust value of a Cost or Gain cell (`Price`): a token list, a list
/// plus the Action's `<Colour>`, x of one colour, Plastic, one of several
/// colours, any colours, or an expression the rule computes (`Varies`).
fn price(id: &str, what: &str, cell: Option<&str>) -> String {
    let Some(cell) = cell
        .map(str::trim)
        .filter(|c| *c != "none" && !c.is_empty())
    else {
        return "Price::None".into();
    };
    let colour = |code: &str| -> Option<&'static str> {
        Some(match code {
            "Bk" => "Colour::Black",
            "Bu" => "Colour::Blue",
            "Br" => "Colour::Bronze",
            "Go" => "Colour::Gold",
            "Gr" => "Colour::Green",
            "Re" => "Colour::Red",
            "Si" => "Colour::Silver",
            _ => return None,
        })
    };
    let count_colour = |part: &str| -> Option<(u32, &'static str)> {
        let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
        let n = digits.parse().ok()?;
        Some((n, colour(&part[digits.len()..])?))
    };
    assert!(
        !cell.starts_with('-'),
        "grammar/actions.toml: {id}: {what} {cell:?}: write the cost as read (a ruling) and keep the index's text in {what}_written"
    );
    let list = |parts: &[&str]| -> Option<String> {
        let items: Option<Vec<String>> = parts
            .iter()
            .map(|p| count_colour(p.trim()).map(|(n, c)| format!("({n}, {c})")))
            .collect();
        items.map(|v| format!("&[{}]", v.join(", ")))
    };
    let parts: Vec<&str> = cell.split(',').collect();
    if let Some(l) = list(&parts) {
        return format!("Price::Tokens({l})");
    }
    if let Some((last, rest)) = parts.split_last() {
        if let Some(n) = last
            .trim()
            .strip_suffix("<Colour>")
            .and_then(|n| n.parse::<u32>().ok())
        {
            if let Some(l) = list(rest) {
                return format!("Price::TokensAndArg({l}, {n})");
            }
        }
    }
    if let Some(c) = cell.strip_prefix('x').and_then(colour) {
        return format!("Price::PerUnit({c})");
    }
    if let Some(rest) = cell.strip_suffix(" per unpegged Station") {
        if let Some((1, c)) = count_colour(rest) {
            return format!("Price::PerUnit({c})");
        }
    }
    if let Some(n) = cell
        .trim_start_matches('+')
        .strip_suffix("Plastic")
        .and_then(|n| n.parse::<u32>().ok())
    {
        return format!("Price::Plastic({n})");
    }
    if let Some(n) = cell
        .strip_suffix(" any")
        .and_then(|n| n.parse::<u32>().ok())
    {
        return format!("Price::Any({n})");
    }
    if cell.contains('/') && !cell.contains('(') {
        let digits: String = cell.chars().take_while(|c| c.is_ascii_digit()).collect();
        let cols: Option<Vec<&str>> = cell[digits.len()..].split('/').map(colour).collect();
        if let (Ok(n), Some(cols)) = (digits.parse::<u32>(), cols) {
            return format!("Price::OneOf({n}, &[{}])", cols.join(", "));
        }
    }
    format!("Price::Varies({})", lit(cell))
}

/// Counts the rule cases of `fixtures/cases/` (Volume 1) and of
/// `fixtures/cases-mcxml/` (mc-xml) and of `fixtures/cases-moneyrun/` (Money
/// Run) citing each rule (their `rules` lists),
/// for `mornbot rules --coverage`.
fn case_counts() {
    count_cases("fixtures/cases", "case_rules.rs");
    count_cases("fixtures/cases-mcxml", "mcxml_case_rules.rs");
    count_cases("fixtures/cases-moneyrun", "moneyrun_case_rules.rs");
}

fn count_cases(dir: &str, out: &str) {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    #[derive(serde::Deserialize)]
    struct Rules {
        #[serde(default)]
        rules: Vec<String>,
    }
    let root = Path::new(dir);
    println!("cargo::rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if let Ok(r) = toml::from_str::<Rules>(&text) {
            for rule in r.rules {
                *counts.entry(rule).or_default() += 1;
            }
        }
    }
    let body: Vec<String> = counts
        .iter()
        .map(|(r, n)| format!("    ({}, {n}),", lit(r)))
        .collect();
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join(out);
    std::fs::write(dest, format!("&[\n{}\n]\n", body.join("\n"))).unwrap();
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PossessionTable {
    possession: Vec<PossessionRow>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PossessionRow {
    id: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    form: Option<String>,
    rule: String,
    price: Option<u32>,
    #[serde(default)]
    qualities: Vec<String>,
    size: Option<String>,
    note: Option<String>,
}

/// Generates the typed `Good` enum and its `GOODS` table from
/// `grammar/possessions.toml`.
fn goods() {
    let path = Path::new("grammar/possessions.toml");
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).expect("grammar/possessions.toml");
    let table: PossessionTable =
        toml::from_str(&text).unwrap_or_else(|e| panic!("grammar/possessions.toml: {e}"));
    const QUALITIES: [&str; 14] = [
        "Small",
        "Big",
        "Large",
        "Huge",
        "Edible",
        "Papery",
        "Dispensable",
        "Musical",
        "Garment",
        "Woolen",
        "Electrical",
        "Unique",
        "Cursed",
        "Clamp",
    ];
    let mut variants = String::new();
    let mut specs = String::new();
    let mut seen = HashSet::new();
    for row in &table.possession {
        let variant = camel(&row.id);
        assert!(
            seen.insert(variant.clone()),
            "grammar/possessions.toml: duplicate id {}",
            row.id
        );
        let qs: Vec<String> = row
            .qualities
            .iter()
            .map(|q| {
                assert!(
                    QUALITIES.contains(&q.as_str()),
                    "grammar/possessions.toml: {}: quality {q:?} is not in the vocabulary",
                    row.id
                );
                format!("Quality::{q}")
            })
            .collect();
        let size = match row.size.as_deref().unwrap_or("medium") {
            "small" => "Size::Small",
            "medium" => "Size::Medium",
            "big" => "Size::Big",
            "huge" => "Size::Huge",
            s => panic!("grammar/possessions.toml: {}: size {s:?}", row.id),
        };
        let _ = writeln!(
            variants,
            "    /// {} (Rule {}).",
            row.name.replace('`', "'"),
            row.rule
        );
        let _ = writeln!(variants, "    {variant},");
        let aliases: Vec<String> = row.aliases.iter().map(|a| lit(a)).collect();
        let _ = writeln!(
            specs,
            "    GoodSpec {{ good: Good::{variant}, id: {}, name: {}, aliases: &[{}], form: {}, rule: {}, price: {}, qualities: Qualities::of(&[{}]), size: {size}, note: {} }},",
            lit(&row.id),
            lit(&row.name),
            aliases.join(", "),
            opt(&row.form),
            lit(&row.rule),
            row.price.map_or("None".to_string(), |p| format!("Some({p})")),
            qs.join(", "),
            opt(&row.note),
        );
    }
    let out = format!(
        "/// A kind of Possession of Volume 1, one per row of `grammar/possessions.toml`.\n\
         /// Generated by `build.rs`.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]\n\
         pub enum Good {{\n{variants}}}\n\n\
         /// The table of `grammar/possessions.toml`, one entry per [`Good`], same order.\n\
         pub static GOODS: &[GoodSpec] = &[\n{specs}];\n"
    );
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("goods.rs");
    std::fs::write(dest, out).unwrap();
}

fn main() {
    case_counts();
    goods();
    let path = Path::new("grammar/actions.toml");
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).expect("grammar/actions.toml");
    let table: Table =
        toml::from_str(&text).unwrap_or_else(|e| panic!("grammar/actions.toml: {e}"));
    let mut ids = HashSet::new();
    let mut variants = HashSet::new();
    let mut enum_src = String::new();
    let mut specs = String::new();
    let mut index_arms = String::new();
    let mut from_arms = String::new();
    let mut args_arms = String::new();
    let entries = resolve(&table.action);
    for (i, e) in entries.iter().enumerate() {
        assert!(
            ids.insert(e.id.clone()),
            "grammar/actions.toml: duplicate id {:?}",
            e.id
        );
        let variant = camel(&e.id);
        assert!(
            variants.insert(variant.clone()),
            "grammar/actions.toml: id {:?} collides as {variant}",
            e.id
        );
        assert!(
            e.form.starts_with('[') && e.form.ends_with(']'),
            "grammar/actions.toml: {}: form must be one [bracketed] action",
            e.id
        );
        // The rule verdicts cite: a rule's number, never the index's
        // placeholders ("1.7.x"), which stay in `rule_written`.
        for (what, r) in [
            ("rule", Some(&e.rule)),
            ("phase_rule", e.phase_rule.as_ref()),
        ] {
            let Some(r) = r else { continue };
            assert!(
                r.split('.').count() == 3
                    && r.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())),
                "grammar/actions.toml: {}: {what} {r:?} is not a rule number: cite the defining rule and keep the index's text in rule_written",
                e.id
            );
        }
        assert!(
            e.rule_written.as_ref() != Some(&e.rule),
            "grammar/actions.toml: {}: rule_written is kept only where the index's Rule cell is not the defining rule",
            e.id
        );
        let hs = holes(&e.form);
        let mut fields = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for h in &hs {
            let (base, ty) = placeholder(h).unwrap_or_else(|| {
                panic!("grammar/actions.toml: {}: unknown placeholder <{h}>", e.id)
            });
            let count = seen.iter().filter(|b| **b == base).count();
            seen.push(base);
            let name = if count == 0 {
                base.to_string()
            } else {
                format!("{base}_{}", count + 1)
            };
            fields.push((name, ty, h.clone()));
        }
        let phase = match e.phase.as_str() {
            "pre" => "Phase::Pre",
            "post" => "Phase::Post",
            "neutral" => "Phase::Neutral",
            p => panic!("grammar/actions.toml: {}: phase {p:?}", e.id),
        };
        let duration = match &e.duration {
            None => "Duration::Default".to_string(),
            Some(toml::Value::Integer(n)) => format!("Duration::Minutes({n})"),
            Some(toml::Value::String(s)) if s == "varies" => "Duration::Varies".to_string(),
            Some(toml::Value::String(s)) if s == "none" => "Duration::Minutes(0)".to_string(),
            Some(v) => panic!("grammar/actions.toml: {}: duration {v}", e.id),
        };
        let phase_word = &e.phase;
        let status = match e.status.as_str() {
            "adjudicated" => "Status::Adjudicated",
            "ruling" => "Status::Ruling",
            st => panic!(
                "grammar/actions.toml: {}: status {st:?} (adjudicated or ruling)",
                e.id
            ),
        };
        let cost = price(&e.id, "cost", e.cost.as_deref());
        let gain = price(&e.id, "gain", e.gain.as_deref());
        let _ = writeln!(
            enum_src,
            "    /// `{}`: Rule {}, {phase_word}.",
            e.form.replace('`', "'"),
            e.rule
        );
        if fields.is_empty() {
            let _ = writeln!(enum_src, "    {variant},");
            let _ = writeln!(index_arms, "            Action::{variant} => {i},");
            let _ = writeln!(from_arms, "            {i} => Action::{variant},");
            let _ = writeln!(args_arms, "            Action::{variant} => vec![],");
        } else {
            let _ = writeln!(enum_src, "    {variant} {{");
            for (name, ty, h) in &fields {
                let _ = writeln!(enum_src, "        /// `<{h}>`.");
                if *ty == "Weekday" {
                    let _ = writeln!(
                        enum_src,
                        "        #[serde(serialize_with = \"crate::gsd::model::ser_day\")]"
                    );
                }
                let _ = writeln!(enum_src, "        {name}: {ty},");
            }
            let _ = writeln!(enum_src, "    }},");
            let names: Vec<&str> = fields.iter().map(|f| f.0.as_str()).collect();
            let _ = writeln!(index_arms, "            Action::{variant} {{ .. }} => {i},");
            let _ = writeln!(from_arms, "            {i} => Action::{variant} {{");
            for (name, ty, _) in &fields {
                let conv = match *ty {
                    "Target" => "target",
                    "String" => "text",
                    "LineCode" => "line",
                    "Colour" => "colour",
                    "i64" => "number",
                    "u8" => "zone",
                    "Weekday" => "day",
                    "TokenList" => "tokens",
                    "Item" => "item",
                    _ => unreachable!(),
                };
                let _ = writeln!(from_arms, "                {name}: args.next()?.{conv}()?,");
            }
            let _ = writeln!(from_arms, "            }},");
            let refs: Vec<String> = fields
                .iter()
                .map(|(name, ty, _)| match *ty {
                    "Target" => format!("ArgRef::Target({name})"),
                    "String" => format!("ArgRef::Text({name})"),
                    "LineCode" => format!("ArgRef::Line(*{name})"),
                    "Colour" => format!("ArgRef::Colour(*{name})"),
                    "i64" => format!("ArgRef::Number(*{name})"),
                    "u8" => format!("ArgRef::Zone(*{name})"),
                    "Weekday" => format!("ArgRef::Day(*{name})"),
                    "TokenList" => format!("ArgRef::Tokens({name})"),
                    "Item" => format!("ArgRef::Item({name})"),
                    _ => unreachable!(),
                })
                .collect();
            let _ = writeln!(
                args_arms,
                "            Action::{variant} {{ {} }} => vec![{}],",
                names.join(", "),
                refs.join(", ")
            );
        }
        for a in &e.aliases {
            assert!(
                holes(a) == hs,
                "grammar/actions.toml: {}: alias {a} must have the placeholders of {} (an alias builds the same variant)",
                e.id,
                e.form
            );
        }
        let aliases: Vec<String> = e.aliases.iter().map(|a| lit(a)).collect();
        let _ = writeln!(
            specs,
            "    ActionSpec {{ id: {}, variant: {}, form: {}, phase: {phase}, phase_rule: {}, rule: {}, rule_written: {}, status: {status}, duration: {duration}, cost: {cost}, gain: {gain}, cost_text: {}, gain_text: {}, fosdyke: {}, example: {}, aliases: &[{}], note: {}, in_index: {} }},",
            lit(&e.id),
            lit(&variant),
            lit(&e.form),
            lit(e.phase_rule.as_deref().unwrap_or("1.7.1")),
            lit(&e.rule),
            opt(&e.rule_written),
            opt(&e.cost),
            opt(&e.gain),
            opt(&e.fosdyke),
            lit(&e.example),
            aliases.join(", "),
            opt(&e.note),
            e.in_index
        );
    }
    let out = format!(
        "/// An Action of the index of Rule 1.7.2, with its typed arguments.\n\
         /// Generated from `grammar/actions.toml` by `build.rs`.\n\
         #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]\n\
         #[serde(tag = \"action\")]\n\
         pub enum Action {{\n{enum_src}}}\n\n\
         /// The table of `grammar/actions.toml`, one entry per [`Action`] variant, same order.\n\
         pub static SPECS: &[ActionSpec] = &[\n{specs}];\n\n\
         impl Action {{\n\
         \x20   /// Position of this action's entry in [`SPECS`].\n\
         \x20   pub fn index(&self) -> usize {{\n        match self {{\n{index_arms}        }}\n    }}\n\n\
         \x20   /// Builds the variant of table entry `index` from its parsed arguments.\n\
         \x20   pub(crate) fn from_args(index: usize, args: Vec<Arg>) -> Option<Action> {{\n\
         \x20       #[allow(unused_mut, unused_variables)]\n\
         \x20       let mut args = args.into_iter();\n\
         \x20       Some(match index {{\n{from_arms}            _ => return None,\n        }})\n    }}\n\n\
         \x20   /// The arguments in the order of the form's placeholders.\n\
         \x20   pub fn args(&self) -> Vec<ArgRef<'_>> {{\n        match self {{\n{args_arms}        }}\n    }}\n}}\n"
    );
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("actions.rs");
    std::fs::write(dest, out).unwrap();
}
