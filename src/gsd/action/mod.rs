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
    /// The rule that defines and prices the Action: the one verdicts cite.
    pub rule: &'static str,
    /// The index's Rule cell as written, where it is not [`Self::rule`]
    /// (a placeholder such as `1.7.x`, or another rule).
    pub rule_written: Option<&'static str>,
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

impl<'de> serde::Deserialize<'de> for TokenList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        let bad = || serde::de::Error::custom(format!("not a token list: {text:?}"));
        let mut list = Vec::new();
        for part in text.split(',').filter(|p| !p.is_empty()) {
            let digits = part.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
            let n = part[..digits].parse().map_err(|_| bad())?;
            list.push((n, Colour::parse(&part[digits..]).ok_or_else(bad)?));
        }
        Ok(TokenList(list))
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

mod parse;
pub use parse::{parse_action, parse_token_list, ActionError};
