//! `mornbot case`, `mornbot adjudicate`.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::Exit;
use crate::engine::case::{Case, CaseResult};
use crate::engine::{adjudicate as judge, GameState, Verdict};
use crate::gsd::{parse_gsd, parse_play, render};
use crate::kinds::{mcxml, moneyrun, oneday};
use crate::map::Map;

/// The case files under `path`: a file named on the command line as is,
/// and in a directory only `*.toml` (a README beside the cases is not one).
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("reading {}", path.display()))?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "toml") {
                collect(&e, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// `mornbot case FILE_OR_DIR... [--json]`.
pub(super) fn case(paths: &[PathBuf], json: bool) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            eprintln!("mornbot: {}: no such file or directory", p.display());
            return Ok(Exit::BadInput);
        }
        collect(p, &mut files)?;
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        let result = match Case::from_toml(&text) {
            // A directory may mix kinds: an mc-xml case says so in its `kind`.
            _ if mcxml::case::is_mcxml(&text) => {
                mcxml::case::run_text(mcxml::Facts::london(), &text, &f.display().to_string())
            }
            _ if moneyrun::case::is_moneyrun(&text) => {
                moneyrun::case::run_text(&text, &f.display().to_string())
            }
            _ if oneday::case::is_oneday(&text) => {
                oneday::case::run_text(&text, &f.display().to_string())
            }
            Ok(c) => c.run(map),
            Err(e) => CaseResult {
                id: f.display().to_string(),
                pass: false,
                why: vec![format!("{}: {}", f.display(), e.trim())],
                verdict: None,
                ignored: vec![],
            },
        };
        if result.pass {
            passed += 1;
        } else {
            failed += 1;
        }
        if json {
            println!("{}", serde_json::to_string(&result)?);
        } else if result.pass {
            if result.ignored.is_empty() {
                println!("PASS {}", result.id);
            } else {
                println!(
                    "PASS {} (ignored keys: {})",
                    result.id,
                    result.ignored.join(", ")
                );
            }
        } else {
            println!("FAIL {}: {}", result.id, result.why.join("; "));
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { Exit::Ok } else { Exit::Failure })
}

/// `mornbot adjudicate --gsd FILE --play LINE [--json]`.
pub(super) fn adjudicate(gsd: &Path, line: &str, json: bool) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    let text =
        std::fs::read_to_string(gsd).with_context(|| format!("reading {}", gsd.display()))?;
    let g = match parse_gsd(&text, map) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}:{e}", gsd.display());
            return Ok(Exit::BadInput);
        }
    };
    let play = match parse_play(line, map) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("play:{e}");
            return Ok(Exit::BadInput);
        }
    };
    let state = match GameState::from_gsd(&g, map) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", gsd.display());
            return Ok(Exit::BadInput);
        }
    };
    let out = judge(map, &state, &play);
    let next = out.state.as_ref().map(|after| {
        let mut plays = g.plays.clone();
        plays.push(play.clone());
        // The state holds every box (the Courier and the Lost & Found Box
        // are folded too): the GSD is the state's.
        after.to_gsd(map, g.game.as_deref(), &plays)
    });
    if json {
        println!(
            "{}",
            serde_json::json!({"verdict": out.verdict, "violations": out.violations, "rulings": out.rulings, "changes": out.changes, "gsd": next.as_ref().map(render)})
        );
    } else {
        println!(
            "{}",
            match out.verdict {
                Verdict::Legal => "LEGAL",
                Verdict::Illegal => "ILLEGAL",
                Verdict::NeedsRuling => "NEEDS A HUMAN RULING",
            }
        );
        for v in out.violations.iter().chain(&out.rulings) {
            println!("  Rule {}: {}", v.rule, v.message);
        }
        for c in &out.changes {
            println!("  {c}");
        }
        if let Some(next) = &next {
            println!();
            print!("{}", render(next));
        }
    }
    Ok(match out.verdict {
        Verdict::Legal => Exit::Ok,
        _ => Exit::Failure,
    })
}

/// `mornbot rules --coverage [--cases DIR] [--json]`.
pub(super) fn rules(cases: Option<&Path>, json: bool) -> anyhow::Result<Exit> {
    use crate::engine::coverage::{coverage, Status};
    let mut case_rules = Vec::new();
    if let Some(dir) = cases {
        if !dir.exists() {
            eprintln!("mornbot: {}: no such directory", dir.display());
            return Ok(Exit::BadInput);
        }
        let mut files = Vec::new();
        collect(dir, &mut files)?;
        for f in files {
            let text =
                std::fs::read_to_string(&f).with_context(|| format!("reading {}", f.display()))?;
            if let Ok(c) = Case::from_toml(&text) {
                case_rules.push(c.rules);
            }
        }
    }
    let report = coverage(cases.map(|_| case_rules.as_slice()));
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(Exit::Ok);
    }
    let width = report
        .iter()
        .map(|c| c.title.chars().count())
        .max()
        .unwrap_or(0);
    let cases = |n: usize| {
        if n == 1 {
            "1 case".to_string()
        } else {
            format!("{n} cases")
        }
    };
    for c in &report {
        let status = match c.status {
            Status::Adjudicated => format!("adjudicated, {}: {}", cases(c.cases), c.note),
            Status::Partly => format!("partly adjudicated, {}: {}", cases(c.cases), c.note),
            Status::Data => format!("map/grammar data: {}", c.note),
            Status::Speaker => format!("by the Speaker: {}", c.note),
            Status::Definition => format!("a definition, judges no play: {}", c.note),
            Status::Ruling => format!("needs a human ruling: {}", c.note),
        };
        println!("{:<7} {:<width$}  {status}", c.rule, c.title);
    }
    let count = |s: Status| report.iter().filter(|c| c.status == s).count();
    println!(
        "{} rules: {} adjudicated, {} partly, {} applied as map or grammar data, {} run by the Speaker, {} definitions, {} need a human ruling",
        report.len(),
        count(Status::Adjudicated),
        count(Status::Partly),
        count(Status::Data),
        count(Status::Speaker),
        count(Status::Definition),
        count(Status::Ruling)
    );
    Ok(Exit::Ok)
}

/// `mornbot rules --coverage --kind KIND [--cases DIR] [--json]`.
pub(super) fn rules_of_kind(kind: &str, cases: Option<&Path>, json: bool) -> anyhow::Result<Exit> {
    use crate::kinds::mcxml::coverage::Status;
    let (report, rules): (serde_json::Value, Vec<RuleLines>) = if kind == moneyrun::case::KIND {
        let Some(lists) = case_rules(cases, |t| {
            moneyrun::case::MrCase::from_toml(t).ok().map(|c| c.rules)
        })?
        else {
            return Ok(Exit::BadInput);
        };
        let report = moneyrun::coverage::coverage(cases.map(|_| lists.as_slice()));
        let rules = report
            .iter()
            .map(|r| RuleLines {
                heading: format!("Rule {} ({}): {} cases", r.rule, r.section, r.cases),
                sentences: r
                    .sentences
                    .iter()
                    .map(|s| (s.text.clone(), s.status, s.ruling.clone(), s.note.clone()))
                    .collect(),
            })
            .collect();
        (serde_json::to_value(&report)?, rules)
    } else if kind == mcxml::case::KIND {
        let Some(lists) = case_rules(cases, |t| {
            mcxml::case::McCase::from_toml(t).ok().map(|c| c.rules)
        })?
        else {
            return Ok(Exit::BadInput);
        };
        let report = mcxml::coverage::coverage(cases.map(|_| lists.as_slice()));
        let rules = report
            .iter()
            .map(|r| RuleLines {
                heading: format!("Rule {} - {}: {} cases", r.rule, r.title, r.cases),
                sentences: r
                    .sentences
                    .iter()
                    .map(|s| (s.text.clone(), s.status, s.ruling.clone(), s.note.clone()))
                    .collect(),
            })
            .collect();
        (serde_json::to_value(&report)?, rules)
    } else {
        eprintln!("mornbot: unknown kind {kind:?}: the kinds are mn, mc-xml and money-run");
        return Ok(Exit::BadInput);
    };
    if json {
        println!("{report}");
        return Ok(Exit::Ok);
    }
    let mut counts = [0usize; 3];
    for r in &rules {
        println!("{}", r.heading);
        for (text, status, ruling, note) in &r.sentences {
            let (k, status) = match status {
                Status::Adjudicated => (0, "adjudicated"),
                Status::ByRuling => (1, "by ruling"),
                Status::NotApplicable => (2, "not applicable"),
            };
            counts[k] += 1;
            let ruling = ruling.as_deref().map_or(String::new(), |r| format!(" {r}"));
            let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            println!("  {text}");
            println!("    {status}{ruling}: {note}");
        }
    }
    println!(
        "{} sentences: {} adjudicated, {} by ruling, {} not applicable",
        counts.iter().sum::<usize>(),
        counts[0],
        counts[1],
        counts[2]
    );
    Ok(Exit::Ok)
}

/// One rule of a kind's coverage as printed: its heading, and each
/// sentence's text, status, ruling and note.
struct RuleLines {
    heading: String,
    sentences: Vec<(
        String,
        crate::kinds::mcxml::coverage::Status,
        Option<String>,
        String,
    )>,
}

/// The `rules` lists of the cases under `cases` (none: the corpus built
/// in), each read by `rules_of`; `None` when the directory does not exist
/// (said on stderr).
fn case_rules(
    cases: Option<&Path>,
    rules_of: impl Fn(&str) -> Option<Vec<String>>,
) -> anyhow::Result<Option<Vec<Vec<String>>>> {
    let mut lists = Vec::new();
    if let Some(dir) = cases {
        if !dir.exists() {
            eprintln!("mornbot: {}: no such directory", dir.display());
            return Ok(None);
        }
        let mut files = Vec::new();
        collect(dir, &mut files)?;
        for f in files {
            let text =
                std::fs::read_to_string(&f).with_context(|| format!("reading {}", f.display()))?;
            lists.extend(rules_of(&text));
        }
    }
    Ok(Some(lists))
}

/// `mornbot check FILE`.
pub(super) fn check(file: &Path) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let g = match parse_gsd(&text, map) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}:{e}", file.display());
            return Ok(Exit::BadInput);
        }
    };
    let start = match GameState::start_of(&g, map) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(Exit::BadInput);
        }
    };
    // A player the Plays show and the Token Table does not resigned
    // (Rule 1.1.3; RULINGS S26).
    let resigned = crate::engine::resignations(&g);
    for (n, name) in &resigned {
        println!("{name} is in the Plays, not the Token Table: resigned after play {n}");
    }
    let tag = g.game.clone().unwrap_or_default();
    let replayed = crate::engine::Game::from_log_with(map, &tag, start, g.plays.clone(), resigned);
    let mut clean = true;
    match &replayed {
        Err(bad) => {
            clean = false;
            let p = &g.plays[bad.index];
            let kind = match bad.outcome.verdict {
                Verdict::Illegal => "ILLEGAL",
                _ => "NEEDS A HUMAN RULING",
            };
            println!(
                "play {} ({}): {kind}: {}",
                bad.index + 1,
                crate::gsd::render_play(p),
                p.player
            );
            for v in bad.outcome.violations.iter().chain(&bad.outcome.rulings) {
                println!("  Rule {}: {}", v.rule, v.message);
            }
            println!("the tables are not compared: the replay stops there");
        }
        Ok(_) => println!("all {} plays replay as legal", g.plays.len()),
    }
    // Rule 1.16.5: the tables at the top must tally with the plays.
    let diffs = match &replayed {
        Ok(r) => crate::gsd::table_diffs(&g, &r.gsd(map), ("the GSD says", "the replay gives")),
        Err(_) => Vec::new(),
    };
    for d in &diffs {
        clean = false;
        println!("Rule 1.16.5: {d}");
    }
    Ok(if clean { Exit::Ok } else { Exit::Failure })
}
