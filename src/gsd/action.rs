//! Actions (Rule 1.7.2): the typed [`Action`] enum generated from
//! `grammar/actions.toml`, and the matcher that reads an action's text
//! against the forms of that table.
//!
//! A form such as `[Shunting <Player> to <Station>]` is a sequence of literal
//! words and typed placeholders. Literals match ignoring case and spacing;
//! each placeholder's text is then read as its type (a station through the
//! map, a colour, a line code, a number...). When several forms match, the
//! most specific (most literal text) wins; a tie is refused as ambiguous.

use std::fmt;

use chrono::Weekday;
use serde::{Serialize, Serializer};

use super::model::{day_name, parse_day, Colour, Item, Target};
use crate::map::{LineCode, Map};

include!(concat!(env!("OUT_DIR"), "/actions.rs"));

/// When an Action may be played (Rule 1.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Only before the Move.
    Pre,
    /// Only after the Move.
    Post,
    /// Before or after.
    Neutral,
}

/// How long an Action takes (Rule 1.13.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Duration {
    /// The default ten minutes (the table's cell is blank).
    Default,
    /// A stated number of minutes.
    Minutes(u32),
    /// Depends on the play (e.g. `[Waiting]`).
    Varies,
}

impl Duration {
    /// Minutes, where fixed (the default is ten).
    pub fn minutes(self) -> Option<u32> {
        match self {
            Duration::Default => Some(10),
            Duration::Minutes(m) => Some(m),
            Duration::Varies => None,
        }
    }
}

/// Whether mornbot adjudicates an Action (`status` in `grammar/actions.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Judged by the engine.
    Adjudicated,
    /// A play with it needs a human ruling.
    Ruling,
}

/// An Action's Cost or Gain as `grammar/actions.toml` states it, typed by
/// `build.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Price {
    /// Nothing.
    None,
    /// A fixed list of Tokens: `1Go,2Gr`.
    Tokens(&'static [(u32, Colour)]),
    /// A fixed list and N Tokens of the Action's own `<Colour>`: `3Bu,1<Colour>`.
    TokensAndArg(&'static [(u32, Colour)], u32),
    /// x Tokens of one colour, x set by the play: `xBr`, `1Bu per unpegged Station`.
    PerUnit(Colour),
    /// N Plastic Tokens of one colour the player chooses: `10Plastic`.
    Plastic(u32),
    /// N Tokens of one of these colours: `4Re/Bu/Bk`.
    OneOf(u32, &'static [Colour]),
    /// N Tokens of any colours: `5 any`.
    Any(u32),
    /// An expression the Action's rule computes: `(7-Zone)Bu`, `varies`.
    Varies(&'static str),
}

impl Price {
    /// The Tokens, where the table fixes them (an Action's own `<Colour>`
    /// filled in).
    pub fn tokens(self, arg: Option<Colour>) -> Option<Vec<(u32, Colour)>> {
        match (self, arg) {
            (Price::None, _) => Some(Vec::new()),
            (Price::Tokens(t), _) => Some(t.to_vec()),
            (Price::TokensAndArg(t, n), Some(c)) => {
                let mut v = t.to_vec();
                v.push((n, c));
                Some(v)
            }
            _ => None,
        }
    }
}

/// One entry of `grammar/actions.toml`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ActionSpec {
    /// Stable identifier.
    pub id: &'static str,
    /// The [`Action`] variant's name.
    pub variant: &'static str,
    /// The written form with `<placeholders>`.
    pub form: &'static str,
    /// Pre, Post or Neutral.
    pub phase: Phase,
    /// The rule whose words fix the phase: the Action's own when it says
    /// "pre-Move" or "post-Move", else Rule 1.7.1 with the index.
    pub phase_rule: &'static str,
    /// The defining rule.
    pub rule: &'static str,
    /// Adjudicated, or needs a human ruling.
    pub status: Status,
    /// Duration.
    pub duration: Duration,
    /// Cost, typed.
    pub cost: Price,
    /// Gain, typed.
    pub gain: Price,
    /// Cost as in the table.
    pub cost_text: Option<&'static str>,
    /// Gain as in the table.
    pub gain_text: Option<&'static str>,
    /// Fosdyke Requirement as in the table.
    pub fosdyke: Option<&'static str>,
    /// A concrete example.
    pub example: &'static str,
    /// Other accepted forms.
    pub aliases: &'static [&'static str],
    /// Judgment calls made restoring the entry.
    pub note: Option<&'static str>,
    /// Listed in the index of Rule 1.7.2 (false: defined only in its rule).
    pub in_index: bool,
}

/// A list of tokens such as `2Re,1Bu`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenList(pub Vec<(u32, Colour)>);

impl fmt::Display for TokenList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(n, c)| format!("{n}{}", c.code()))
            .collect();
        f.write_str(&parts.join(","))
    }
}

impl Serialize for TokenList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// A parsed placeholder value (the matcher's output).
#[derive(Clone, Debug)]
pub(crate) enum Arg {
    Target(Target),
    Text(String),
    Line(LineCode),
    Colour(Colour),
    Number(i64),
    Zone(u8),
    // No form of the table uses <Day> today; the reader is kept for one that does.
    #[allow(dead_code)]
    Day(Weekday),
    Tokens(TokenList),
    Item(Item),
}

impl Arg {
    fn target(self) -> Option<Target> {
        match self {
            Arg::Target(t) => Some(t),
            _ => None,
        }
    }
    fn text(self) -> Option<String> {
        match self {
            Arg::Text(t) => Some(t),
            _ => None,
        }
    }
    fn line(self) -> Option<LineCode> {
        match self {
            Arg::Line(l) => Some(l),
            _ => None,
        }
    }
    fn colour(self) -> Option<Colour> {
        match self {
            Arg::Colour(c) => Some(c),
            _ => None,
        }
    }
    fn number(self) -> Option<i64> {
        match self {
            Arg::Number(n) => Some(n),
            _ => None,
        }
    }
    fn zone(self) -> Option<u8> {
        match self {
            Arg::Zone(z) => Some(z),
            _ => None,
        }
    }
    #[allow(dead_code)]
    fn day(self) -> Option<Weekday> {
        match self {
            Arg::Day(d) => Some(d),
            _ => None,
        }
    }
    fn tokens(self) -> Option<TokenList> {
        match self {
            Arg::Tokens(t) => Some(t),
            _ => None,
        }
    }
    fn item(self) -> Option<Item> {
        match self {
            Arg::Item(i) => Some(i),
            _ => None,
        }
    }
}

/// A borrowed argument of an [`Action`], for rendering.
#[derive(Clone, Copy, Debug)]
pub enum ArgRef<'a> {
    /// A station (and line).
    Target(&'a Target),
    /// Free text (player, possession, gambit, place, direction...).
    Text(&'a str),
    /// A Line Code.
    Line(LineCode),
    /// A colour.
    Colour(Colour),
    /// A number.
    Number(i64),
    /// A zone.
    Zone(u8),
    /// A day.
    Day(Weekday),
    /// A token list.
    Tokens(&'a TokenList),
    /// A Possession.
    Item(&'a Item),
}

impl ActionSpec {
    /// The table entry of an id (`"maelberging"`).
    pub fn by_id(id: &str) -> Option<&'static ActionSpec> {
        SPECS.iter().find(|s| s.id == id)
    }
}

impl Action {
    /// This action's table entry.
    pub fn spec(&self) -> &'static ActionSpec {
        &SPECS[self.index()]
    }

    /// The Player an Action targets: its `<Player>` argument, if its form
    /// has one (`[Shunting <Player> to <Station>]`).
    pub fn target_player(&self) -> Option<&str> {
        let holes = parts(self.spec().form).into_iter().filter_map(|p| match p {
            Part::Hole(h) => Some(h),
            Part::Lit(_) => None,
        });
        holes.zip(self.args()).find_map(|(h, a)| match (h, a) {
            ("Player", ArgRef::Text(t)) => Some(t),
            _ => None,
        })
    }

    /// The canonical text, e.g. `[Shunting Garden to Moorgate (NT)]`.
    pub fn render(&self) -> String {
        render_form(self.spec().form, &self.args())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

fn render_form(form: &'static str, args: &[ArgRef<'_>]) -> String {
    static PARTS: std::sync::OnceLock<std::collections::HashMap<&'static str, Vec<Part<'static>>>> =
        std::sync::OnceLock::new();
    let cache = PARTS.get_or_init(|| SPECS.iter().map(|s| (s.form, parts(s.form))).collect());
    let owned;
    let form_parts = match cache.get(form) {
        Some(p) => p,
        None => {
            owned = parts(form);
            &owned
        }
    };
    let mut out = String::with_capacity(form.len() + 24);
    let mut args = args.iter();
    for part in form_parts {
        match part {
            Part::Lit(l) => out.push_str(l),
            Part::Hole(_) => match args.next() {
                Some(ArgRef::Target(t)) => {
                    out.push_str(&t.station);
                    if let Some(l) = t.line {
                        out.push_str(" (");
                        out.push_str(l.code());
                        out.push(')');
                    }
                }
                Some(ArgRef::Text(s)) => out.push_str(s),
                Some(ArgRef::Line(l)) => out.push_str(l.code()),
                Some(ArgRef::Colour(c)) => out.push_str(c.name()),
                Some(ArgRef::Number(n)) => out.push_str(&n.to_string()),
                Some(ArgRef::Zone(z)) => out.push_str(&z.to_string()),
                Some(ArgRef::Day(d)) => out.push_str(day_name(*d)),
                Some(ArgRef::Tokens(t)) => out.push_str(&t.to_string()),
                Some(ArgRef::Item(i)) => out.push_str(&super::render::item_name(i)),
                None => {}
            },
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part<'a> {
    Lit(&'a str),
    Hole(&'a str),
}

fn parts(form: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(start) = rest.find('<') {
        if start > 0 {
            out.push(Part::Lit(&rest[..start]));
        }
        let end = start + rest[start..].find('>').unwrap_or(rest.len() - start - 1);
        out.push(Part::Hole(&rest[start + 1..end]));
        rest = &rest[end + 1..];
    }
    if !rest.is_empty() {
        out.push(Part::Lit(rest));
    }
    out
}

/// Folds text for literal matching: lower case, single spaces, and no spaces
/// around `+ - : , / ( ) [ ]`, so `[LV + 1]` reads as `[lv+1]`.
fn fold(s: &str) -> String {
    fold_map(s).0
}

/// `hay.find(needle)` for the short needles of forms: a first-byte scan
/// beats setting up the general string searcher for every try.
fn find_short(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    if n.len() > h.len() {
        return None;
    }
    (0..=h.len() - n.len())
        .find(|&i| h[i] == first && h[i..i + n.len()].iter().zip(n).all(|(a, b)| a == b))
}

/// Folds a literal of a form, keeping a space at either end where it marks
/// a word boundary (`" to "` must not match inside "Stockton").
fn fold_literal(l: &str) -> String {
    let tight = |c: char| matches!(c, '+' | '-' | ':' | ',' | '/' | '(' | ')' | '[' | ']');
    let mut f = fold(l);
    if f.is_empty() {
        return if l.is_empty() { f } else { " ".to_string() };
    }
    if l.starts_with(char::is_whitespace) && !f.starts_with(tight) {
        f.insert(0, ' ');
    }
    if l.ends_with(char::is_whitespace) && !f.ends_with(tight) {
        f.push(' ');
    }
    f
}

/// [`fold`], with the original byte offset of every folded byte (and one
/// past the end), so that captures can be read back in their own spelling.
fn fold_map(s: &str) -> (String, Vec<usize>) {
    let tight = |c: char| matches!(c, '+' | '-' | ':' | ',' | '/' | '(' | ')' | '[' | ']');
    let mut out = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len() + 1);
    let mut pending_space: Option<usize> = None;
    let mut last: Option<char> = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if last.is_some() && pending_space.is_none() {
                pending_space = Some(i);
            }
            continue;
        }
        if let Some(at) = pending_space.take() {
            if !tight(c) && !last.is_some_and(tight) {
                out.push(' ');
                map.push(at);
            }
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            map.push(i);
        } else {
            for l in c.to_lowercase() {
                let before = out.len();
                out.push(l);
                map.extend(std::iter::repeat_n(i, out.len() - before));
            }
        }
        last = Some(c);
    }
    map.push(s.len());
    (out, map)
}

/// Why an action's text was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    /// What is wrong, in words.
    pub message: String,
    /// The nearest station names, where a station was not recognised.
    pub suggestions: Vec<String>,
}

struct Template {
    index: usize,
    parts: Vec<(bool, String)>, // (is_hole, folded literal or hole kind)
    literal_len: usize,
}

/// The forms, and an index from the first folded character after `[` to
/// the forms that can start with it (forms starting with a placeholder are
/// candidates for every action).
struct Forms {
    all: Vec<Template>,
    by_first: std::collections::HashMap<char, Vec<usize>>,
    open: Vec<usize>,
}

fn forms() -> &'static Forms {
    static F: std::sync::OnceLock<Forms> = std::sync::OnceLock::new();
    F.get_or_init(|| {
        let all = build_templates();
        let mut by_first: std::collections::HashMap<char, Vec<usize>> =
            std::collections::HashMap::new();
        let mut open = Vec::new();
        for (i, t) in all.iter().enumerate() {
            match t.parts.first() {
                Some((false, lit)) if lit.chars().nth(1).is_some_and(|c| c != ' ') => by_first
                    .entry(lit.chars().nth(1).unwrap())
                    .or_default()
                    .push(i),
                _ => open.push(i),
            }
        }
        Forms {
            all,
            by_first,
            open,
        }
    })
}

fn build_templates() -> Vec<Template> {
    let mut out = Vec::new();
    {
        for (index, spec) in SPECS.iter().enumerate() {
            for form in std::iter::once(&spec.form).chain(spec.aliases.iter()) {
                // Forms that differ only in placeholder names (the table's two
                // "Fire at" rows) parse as the first; see RULINGS.md.
                let parts: Vec<(bool, String)> = parts(form)
                    .into_iter()
                    .map(|p| match p {
                        Part::Lit(l) => (false, fold_literal(l)),
                        Part::Hole(h) => (true, h.to_string()),
                    })
                    .filter(|(h, l)| *h || !l.is_empty())
                    .collect();
                let literal_len = parts.iter().filter(|p| !p.0).map(|p| p.1.len()).sum();
                if out.iter().any(|t: &Template| t.parts == parts) {
                    continue;
                }
                out.push(Template {
                    index,
                    parts,
                    literal_len,
                });
            }
        }
    }
    out
}

/// Reads the text of one action, brackets included (`[Blocking Euston]`).
pub fn parse_action(text: &str, map: &Map) -> Result<Action, ActionError> {
    let (folded, offsets) = fold_map(text);
    let mut best: Option<(usize, usize, Action)> = None; // (literal_len, index, action)
    let mut ambiguous = false;
    let mut arg_errors: Vec<(usize, ActionError)> = Vec::new();
    let forms = forms();
    let first = folded.chars().nth(1).unwrap_or(' ');
    let candidates = forms
        .by_first
        .get(&first)
        .into_iter()
        .flatten()
        .chain(forms.open.iter());
    for t in candidates.map(|&i| &forms.all[i]) {
        let mut args = Vec::new();
        let mut err = None;
        let reader = Reader {
            folded: &folded,
            offsets: &offsets,
            original: text,
            map,
        };
        if !reader.matches(&t.parts, 0, &mut args, &mut err) {
            if let Some(e) = err {
                arg_errors.push((t.literal_len, e));
            }
            continue;
        }
        let Some(action) = Action::from_args(t.index, args) else {
            continue;
        };
        match &best {
            Some((len, idx, _))
                if *len > t.literal_len || (*len == t.literal_len && *idx == t.index) => {}
            Some((len, _, _)) if *len == t.literal_len => ambiguous = true,
            _ => {
                ambiguous = false;
                best = Some((t.literal_len, t.index, action));
            }
        }
    }
    if let Some((_, _, action)) = best {
        // The table's two "Fire at" rows share one form; the station decides
        // (Rule 1.9.2 and the Inter/Other rows of Rule 1.7.2).
        let action = match action {
            Action::FireAtInterchange { station } | Action::FireAtOther { station } => {
                let interchange = map
                    .find(&station.station)
                    .is_some_and(|id| map.station(id).kind == crate::map::StationKind::Interchange);
                if interchange {
                    Action::FireAtInterchange { station }
                } else {
                    Action::FireAtOther { station }
                }
            }
            other => other,
        };
        if ambiguous {
            return Err(ActionError {
                message: format!(
                    "ambiguous action {text}: it matches more than one form of Rule 1.7.2"
                ),
                suggestions: vec![],
            });
        }
        return Ok(action);
    }
    if let Some((_, e)) = arg_errors.into_iter().max_by_key(|(len, _)| *len) {
        return Err(e);
    }
    Err(ActionError {
        message: format!(
            "an Action of Rule 1.7.2 (grammar/actions.toml){}",
            nearest_forms(&folded)
        ),
        suggestions: vec![],
    })
}

fn nearest_forms(folded: &str) -> String {
    let words: Vec<&str> = folded
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(' ')
        .collect();
    let mut scored: Vec<(usize, &str)> = SPECS
        .iter()
        .filter_map(|s| {
            let lit = fold(
                s.form
                    .trim_start_matches('[')
                    .split('<')
                    .next()
                    .unwrap_or(""),
            );
            let lit = lit.trim_end_matches(']').trim().to_string();
            let n = lit.split(' ').filter(|w| !w.is_empty()).count();
            if n == 0 {
                return None;
            }
            let head = words.iter().take(n).copied().collect::<Vec<_>>().join(" ");
            Some((crate::map::names::edit_distance(&head, &lit), s.form))
        })
        .collect();
    scored.sort();
    let near: Vec<&str> = scored
        .iter()
        .filter(|(d, _)| *d <= 2)
        .take(3)
        .map(|(_, f)| *f)
        .collect();
    if near.is_empty() {
        String::new()
    } else {
        format!("; nearest: {}", near.join(" or "))
    }
}

/// Matches an action's folded text against a form, reading each
/// placeholder as its type as soon as it is captured, and trying the next
/// split when it does not read (so `<Station> <Line>` finds where a
/// two-word station ends).
struct Reader<'t> {
    folded: &'t str,
    offsets: &'t [usize],
    original: &'t str,
    map: &'t Map,
}

impl Reader<'_> {
    fn matches(
        &self,
        parts: &[(bool, String)],
        pos: usize,
        args: &mut Vec<Arg>,
        err: &mut Option<ActionError>,
    ) -> bool {
        let text = self.folded;
        let Some((is_hole, lit)) = parts.first() else {
            return pos == text.len();
        };
        if !is_hole {
            return text[pos..].starts_with(lit.as_str())
                && self.matches(&parts[1..], pos + lit.len(), args, err);
        }
        let try_capture = |end: usize,
                           rest: &[(bool, String)],
                           args: &mut Vec<Arg>,
                           err: &mut Option<ActionError>|
         -> bool {
            let folded = text[pos..end].trim();
            let spelled = self.original[self.offsets[pos]..self.offsets[end]].trim();
            if folded.is_empty() {
                return false;
            }
            match read_arg(lit, folded, spelled, self.map) {
                Ok(arg) => {
                    args.push(arg);
                    if self.matches(rest, end, args, err) {
                        return true;
                    }
                    args.pop();
                    false
                }
                Err(e) => {
                    *err = Some(e);
                    false
                }
            }
        };
        match parts.get(1) {
            None => try_capture(text.len(), &[], args, err),
            Some((true, _)) => false, // two holes in a row are not in the table
            Some((false, next)) => {
                // A placeholder holds at least one character, which may be
                // several bytes.
                let mut from = pos + text[pos..].chars().next().map_or(1, char::len_utf8);
                while from <= text.len() {
                    let Some(off) = text.get(from..).and_then(|t| find_short(t, next)) else {
                        return false;
                    };
                    let at = from + off;
                    if try_capture(at, &parts[1..], args, err) {
                        return true;
                    }
                    from = at + 1;
                    while from < text.len() && !text.is_char_boundary(from) {
                        from += 1;
                    }
                }
                false
            }
        }
    }
}

fn err(message: String) -> ActionError {
    ActionError {
        message,
        suggestions: vec![],
    }
}

fn read_arg(kind: &str, folded: &str, original: &str, map: &Map) -> Result<Arg, ActionError> {
    Ok(match kind {
        "Station" => {
            Arg::Target(
                super::parse::read_target(original, map).map_err(|e| ActionError {
                    message: e.0,
                    suggestions: e.1,
                })?,
            )
        }
        "Line" => Arg::Line(super::parse::read_line_code(original).ok_or_else(|| {
            err(format!(
                "expected a Line Code (Rule 1.17.4), found {original:?}"
            ))
        })?),
        "Colour" => Arg::Colour(
            Colour::parse(original)
                .ok_or_else(|| err(format!("expected a token colour, found {original:?}")))?,
        ),
        "N" => Arg::Number(
            original
                .parse()
                .map_err(|_| err(format!("expected a number, found {original:?}")))?,
        ),
        "Zone" => Arg::Zone(
            original
                .parse()
                .ok()
                .filter(|z| (1..=7).contains(z))
                .ok_or_else(|| err(format!("expected a zone 1-7, found {original:?}")))?,
        ),
        "Day" => Arg::Day(
            parse_day(original)
                .ok_or_else(|| err(format!("expected a day, found {original:?}")))?,
        ),
        "Possession" => Arg::Item(super::parse::item(original, map).map_err(|e| ActionError {
            message: e.0,
            suggestions: e.1,
        })?),
        "Tokens" => Arg::Tokens(parse_token_list(folded).ok_or_else(|| {
            err(format!(
                "expected tokens such as 2Re,1Bu, found {original:?}"
            ))
        })?),
        "Direction" => {
            const DIRS: [&str; 6] = ["N-S", "S-N", "E-W", "W-E", "Clockwise", "Anti-Clockwise"];
            let d = DIRS.iter().find(|d| fold(d) == folded).ok_or_else(|| {
                err(format!(
                    "expected a Line Direction ({}), found {original:?}",
                    DIRS.join(", ")
                ))
            })?;
            Arg::Text(d.to_string())
        }
        "Compass" => {
            const C: [&str; 4] = ["North", "South", "East", "West"];
            let c = C
                .iter()
                .find(|c| c.eq_ignore_ascii_case(folded))
                .ok_or_else(|| {
                    err(format!(
                        "expected North, South, East or West, found {original:?}"
                    ))
                })?;
            Arg::Text(c.to_string())
        }
        "Time" => {
            if original.is_empty() || original.len() > 5 {
                return Err(err(format!(
                    "expected a time such as 0130, found {original:?}"
                )));
            }
            Arg::Text(original.to_string())
        }
        _ => {
            if original.is_empty() {
                return Err(err(format!("expected <{kind}>")));
            }
            Arg::Text(original.to_string())
        }
    })
}

/// Parses `2Re,1Bu` (also `2 Re, 1 Bu`, `Re` for one) into counts.
pub fn parse_token_list(s: &str) -> Option<TokenList> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let part: String = part.chars().filter(|c| !c.is_whitespace()).collect();
        if part.is_empty() {
            return None;
        }
        let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
        // At most 999 of a colour: no Action costs more, and sums of such
        // counts cannot overflow.
        let n = if digits.is_empty() {
            1
        } else {
            digits.parse().ok().filter(|n| *n <= 999)?
        };
        out.push((n, Colour::parse(&part[digits.len()..])?));
    }
    Some(TokenList(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_ignores_spacing_and_case() {
        assert_eq!(fold("[LV + 1]"), "[lv+1]");
        assert_eq!(
            fold("[Shunting  Garden to   Moorgate (NT)]"),
            "[shunting garden to moorgate(nt)]"
        );
    }

    #[test]
    fn token_lists() {
        assert_eq!(parse_token_list("2Re,1Bu").unwrap().to_string(), "2Re,1Bu");
        assert_eq!(
            parse_token_list("2 re, gold").unwrap().to_string(),
            "2Re,1Go"
        );
        assert!(parse_token_list("2Xx").is_none());
    }
}
