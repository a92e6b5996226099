//! The rack cases of `fixtures/cases-oneday/` (format in its README): a
//! rack, the rulings in force, and the expected verdict: a journey, or its
//! first break (the slot and the reason's code).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::deck::{CardId, Deck, StationIdx};
use super::journey::{check_rack, JourneyError, Reason};
use super::rulings::JourneyRulings;
use crate::engine::case::CaseResult;

/// The `kind` key of a One Day in London case.
pub const KIND: &str = "oneday";

/// A case file.
#[derive(Debug, Deserialize)]
pub struct OdCase {
    /// Unique id, the file's stem.
    pub id: String,
    /// `oneday`.
    pub kind: String,
    /// Where the case comes from: the seed's words quoted, or what it tests.
    pub source: String,
    /// The rulings of RULINGS.md it exercises ("OD10").
    #[serde(default)]
    pub rulings: Vec<String>,
    /// The rack, left to right, by station name (each station's copies
    /// taken in turn); or see `cards`.
    #[serde(default)]
    pub rack: Vec<String>,
    /// The rack by card number instead (for a rack that is no rack).
    #[serde(default)]
    pub cards: Vec<u32>,
    /// Rulings in force: `hop_change`, `concurrent_back` = `allow` (the
    /// default, the seed's text) or `forbid` (Boardspace's code).
    #[serde(default)]
    pub journey: BTreeMap<String, String>,
    /// The expected verdict.
    pub expect: Expect,
    /// Keys the case has that the format does not (reported, not fatal).
    #[serde(skip)]
    pub unknown_keys: Vec<String>,
}

/// A case's expected verdict.
#[derive(Debug, Deserialize)]
pub struct Expect {
    /// Whether the rack is a continuous journey.
    pub valid: bool,
    /// For a valid rack: the fewest line changes, if checked.
    pub changes: Option<usize>,
    /// For a broken one: the slot before the first break, from 1.
    #[serde(rename = "break")]
    pub break_at: Option<usize>,
    /// For a broken one: the reason's code (`same-station`,
    /// `no-common-line`, `goes-back`, `hop-change`, `concurrent-back`,
    /// `blocked`), or the rack's error (`wrong-length`, `unknown-card`,
    /// `card-twice`).
    pub reason: Option<String>,
    /// The lines (Line Codes) that were blocked, if checked.
    #[serde(default)]
    pub lines: Vec<String>,
}

/// Whether a case file's text is a One Day in London case.
pub fn is_oneday(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| t.get("kind").and_then(|k| k.as_str().map(|k| k == KIND)))
        .unwrap_or(false)
}

impl OdCase {
    /// Parses a case file, noting keys it does not know.
    pub fn from_toml(text: &str) -> Result<OdCase, String> {
        let de = toml::Deserializer::parse(text).map_err(|e| e.to_string())?;
        let mut unknown = Vec::new();
        let mut case: OdCase =
            serde_ignored::deserialize(de, |path| unknown.push(path.to_string()))
                .map_err(|e| e.to_string())?;
        case.unknown_keys = unknown;
        if case.kind != KIND {
            return Err(format!("kind = {:?}, not {KIND:?}", case.kind));
        }
        if case.rack.is_empty() == case.cards.is_empty() {
            return Err("give the rack either as `rack` (names) or as `cards`".into());
        }
        Ok(case)
    }

    /// The rulings in force.
    pub fn rulings(&self) -> Result<JourneyRulings, String> {
        let mut r = JourneyRulings::default();
        for (k, v) in &self.journey {
            r.set(k, v).map_err(|e| e.to_string())?;
        }
        Ok(r)
    }

    /// The rack as card numbers: names resolved, each station's copies
    /// taken left to right.
    pub fn card_ids(&self, deck: &Deck) -> Result<Vec<CardId>, String> {
        if !self.cards.is_empty() {
            return self
                .cards
                .iter()
                .map(|&n| u8::try_from(n).map(CardId).map_err(|_| format!("card {n}")))
                .collect();
        }
        let mut used: BTreeMap<StationIdx, u8> = BTreeMap::new();
        self.rack
            .iter()
            .map(|name| {
                let s = deck
                    .find(name)
                    .ok_or_else(|| format!("{name:?} is no station of the deck"))?;
                let n = used.entry(s).or_default();
                *n += 1;
                deck.cards_of(s)
                    .nth(usize::from(*n) - 1)
                    .map(|c| c.id)
                    .ok_or_else(|| format!("{name:?}: the deck has {} copies", *n - 1))
            })
            .collect()
    }

    /// Runs the case against `deck`.
    pub fn run(&self, deck: &Deck) -> CaseResult {
        let mut why = Vec::new();
        if let Err(e) = self.check(deck, &mut why) {
            why.push(e);
        }
        CaseResult {
            id: self.id.clone(),
            pass: why.is_empty(),
            why,
            verdict: None,
            ignored: self.unknown_keys.clone(),
        }
    }

    fn check(&self, deck: &Deck, why: &mut Vec<String>) -> Result<(), String> {
        let rulings = self.rulings()?;
        let ids = self.card_ids(deck)?;
        let e = &self.expect;
        match (check_rack(deck, &ids, &rulings), e.valid) {
            (Ok(j), true) => {
                if let Some(c) = e.changes.filter(|&c| c != j.changes()) {
                    why.push(format!("{} changes, not {c}", j.changes()));
                }
            }
            (Ok(j), false) => why.push(format!(
                "a valid journey ({} changes), not a break",
                j.changes()
            )),
            (Err(err), true) => why.push(match &err {
                JourneyError::Break(b) => b.explain(deck),
                other => other.to_string(),
            }),
            (Err(err), false) => self.check_break(deck, &err, why),
        }
        Ok(())
    }

    fn check_break(&self, deck: &Deck, err: &JourneyError, why: &mut Vec<String>) {
        let e = &self.expect;
        let (slot, code, lines) = match err {
            JourneyError::WrongLength(_) => (None, "wrong-length", vec![]),
            JourneyError::UnknownCard(_) => (None, "unknown-card", vec![]),
            JourneyError::CardTwice(_) => (None, "card-twice", vec![]),
            JourneyError::Break(b) => {
                let mut lines: Vec<String> = match &b.reason {
                    Reason::Blocked(x) => x
                        .iter()
                        .map(|x| deck.line(x.line).code.to_string())
                        .collect(),
                    _ => vec![],
                };
                lines.dedup();
                (Some(b.slot), b.reason.code(), lines)
            }
        };
        if e.break_at != slot {
            why.push(format!(
                "breaks at {slot:?}, not {:?}: {}",
                e.break_at,
                explain(deck, err)
            ));
        }
        if e.reason.as_deref() != Some(code) {
            why.push(format!(
                "reason {code}, not {:?}: {}",
                e.reason,
                explain(deck, err)
            ));
        }
        if !e.lines.is_empty() && e.lines != lines {
            why.push(format!("blocked lines {lines:?}, not {:?}", e.lines));
        }
    }
}

fn explain(deck: &Deck, err: &JourneyError) -> String {
    match err {
        JourneyError::Break(b) => b.explain(deck),
        other => other.to_string(),
    }
}

/// Reads and runs one case file's text against the embedded deck
/// (`origin` names it when it cannot be read).
pub fn run_text(text: &str, origin: &str) -> CaseResult {
    if super::game_case::is_game(text) {
        return super::game_case::run_text(text, origin);
    }
    match OdCase::from_toml(text) {
        Ok(c) => c.run(Deck::zone1()),
        Err(e) => CaseResult {
            id: origin.to_string(),
            pass: false,
            why: vec![format!("{origin}: {}", e.trim())],
            verdict: None,
            ignored: vec![],
        },
    }
}
