//! The game cases of `fixtures/cases-oneday/games/` (format in the
//! directory's README): a position (a set-up dealt from the deck in card
//! order, or a game in play arranged by hand), orders played in turn (each
//! but the last must stand), maybe a Timeout, and the expected verdict of
//! the last step: legal, won, or illegal with the rule and the ruling it
//! cites (RULINGS OD4 - OD13).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::deck::{CardId, Deck, StationIdx, RACK};
use super::judge::{judge, timeout, Verdict};
use super::read::read;
use super::state::{Rulings, State};
use crate::engine::case::CaseResult;

/// A game case file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameCase {
    /// Unique id, the file's stem.
    pub id: String,
    /// `oneday`.
    pub kind: String,
    /// Where the case comes from: the seed's words quoted.
    pub source: String,
    /// The rulings of RULINGS.md it exercises.
    #[serde(default)]
    pub rulings: Vec<String>,
    /// The game.
    pub game: Game,
    /// The last step's expected verdict.
    pub expect: GameExpect,
}

/// A case's game: its players, its position, and what is played.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// The players in order of play.
    pub players: Vec<String>,
    /// In play: each rack, ten station names (each station's copies taken
    /// in turn across the racks, the piles and the draw pile). None: the
    /// set-up, dealt from the deck in card order.
    #[serde(default)]
    pub racks: Option<Vec<Vec<String>>>,
    /// The discard piles, bottom to top.
    #[serde(default)]
    pub piles: [Vec<String>; 3],
    /// The draw pile, top first.
    #[serde(default)]
    pub draw: Vec<String>,
    /// The seat to move (0-based).
    #[serde(default)]
    pub mover: usize,
    /// The orders, `[player, mail text]`, in turn.
    #[serde(default)]
    pub orders: Vec<[String; 2]>,
    /// A Timeout of this player after the orders.
    #[serde(default)]
    pub timeout: Option<String>,
}

/// The expected verdict of the last step.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameExpect {
    /// `legal`, `won`, `illegal`, or `unreadable` (the reader refuses
    /// the last order's text).
    pub verdict: String,
    /// For an illegal one: the rule its first violation cites.
    #[serde(default)]
    pub rule: Option<String>,
    /// For an illegal one: the ruling it cites.
    #[serde(default)]
    pub ruling: Option<String>,
    /// Words the verdict's text (violations, or changes) must hold.
    #[serde(default)]
    pub text: Option<String>,
}

/// Whether a case file's text is a game case (it has a `[game]` table).
pub fn is_game(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("game"))
}

/// Cards by station name, each station's copies taken in turn.
struct Names<'d> {
    deck: &'d Deck,
    used: BTreeMap<StationIdx, usize>,
}

impl Names<'_> {
    fn card(&mut self, name: &str) -> Result<CardId, String> {
        let s = self
            .deck
            .find(name)
            .ok_or_else(|| format!("{name:?} is no station of the deck"))?;
        let n = self.used.entry(s).or_default();
        *n += 1;
        self.deck
            .cards_of(s)
            .nth(*n - 1)
            .map(|c| c.id)
            .ok_or_else(|| format!("{name:?}: the deck has {} copies", *n - 1))
    }

    fn cards(&mut self, names: &[String]) -> Result<Vec<CardId>, String> {
        names.iter().map(|n| self.card(n)).collect()
    }
}

impl GameCase {
    /// The position the case starts from.
    fn start(&self, deck: &Deck) -> Result<State, String> {
        let g = &self.game;
        let Some(racks) = &g.racks else {
            let order: Vec<CardId> = deck.cards().iter().map(|c| c.id).collect();
            return State::start_with_order(&g.players, Rulings::default(), &order)
                .map_err(|e| e.to_string());
        };
        let mut names = Names {
            deck,
            used: BTreeMap::new(),
        };
        let mut full = Vec::new();
        for r in racks {
            let ids = names.cards(r)?;
            full.push(<[CardId; RACK]>::try_from(ids).map_err(|_| "a rack of ten".to_string())?);
        }
        let piles = [
            names.cards(&g.piles[0])?,
            names.cards(&g.piles[1])?,
            names.cards(&g.piles[2])?,
        ];
        let draw = names.cards(&g.draw)?;
        Ok(State::arranged(
            &g.players,
            Rulings::default(),
            &full,
            piles,
            &draw,
            g.mover,
        ))
    }

    /// The verdict of the last step, every step before it standing (or
    /// why the reader refused its text).
    fn last(&self, deck: &Deck) -> Result<Result<Verdict, String>, String> {
        let mut s = self.start(deck)?;
        // A reshuffle shuffles nothing: each draw keeps its card in place.
        let mut draws = |_: u64, _: &str, sides: u32| Some(sides - 1);
        let mut last = None;
        let steps = self.game.orders.len() + usize::from(self.game.timeout.is_some());
        for (k, [player, text]) in self.game.orders.iter().enumerate() {
            let order = match read(text) {
                Ok(o) => o,
                // The last order may be one the reader refuses.
                Err(e) if k + 1 == steps => return Ok(Err(e.to_string())),
                Err(e) => return Err(format!("order {}: {e}", k + 1)),
            };
            let v = judge(&s, &order, player, &mut draws);
            if k + 1 == steps {
                last = Some(v);
                break;
            }
            s = stood(v).map_err(|e| format!("order {} does not stand: {e}", k + 1))?;
        }
        if let Some(p) = &self.game.timeout {
            last = Some(timeout(&s, p).ok_or_else(|| format!("{p} is not awaited"))?);
        }
        last.map(Ok)
            .ok_or_else(|| "no order and no timeout".to_string())
    }

    /// Runs the case against `deck`.
    pub fn run(&self, deck: &Deck) -> CaseResult {
        let mut why = Vec::new();
        match self.last(deck) {
            Ok(Ok(v)) => self.check(&v, &mut why),
            Ok(Err(read)) => {
                if self.expect.verdict != "unreadable" {
                    why.push(format!("unreadable, not {}: {read}", self.expect.verdict));
                }
                if let Some(t) = self.expect.text.as_deref().filter(|t| !read.contains(t)) {
                    why.push(format!("{t:?} not in: {read}"));
                }
            }
            Err(e) => why.push(e),
        }
        CaseResult {
            id: self.id.clone(),
            pass: why.is_empty(),
            why,
            verdict: None,
            ignored: Vec::new(),
        }
    }

    fn check(&self, v: &Verdict, why: &mut Vec<String>) {
        let e = &self.expect;
        let (verdict, text) = match v {
            Verdict::Legal { changes, .. } => ("legal", changes.join("; ")),
            Verdict::Won { changes, .. } => ("won", changes.join("; ")),
            Verdict::Illegal(vs) => {
                let first = vs.first();
                if e.rule.as_deref() != first.map(|v| v.rule) {
                    why.push(format!(
                        "rule {:?}, not {:?}",
                        first.map(|v| v.rule),
                        e.rule
                    ));
                }
                if e.ruling.as_deref() != first.and_then(|v| v.ruling) {
                    why.push(format!(
                        "ruling {:?}, not {:?}",
                        first.and_then(|v| v.ruling),
                        e.ruling
                    ));
                }
                let all: Vec<String> = vs.iter().map(ToString::to_string).collect();
                ("illegal", all.join("; "))
            }
            Verdict::NoDraw(n) => ("no draw", n.clone()),
        };
        if verdict != e.verdict {
            why.push(format!("{verdict}, not {}: {text}", e.verdict));
        }
        if let Some(t) = e.text.as_deref().filter(|t| !text.contains(t)) {
            why.push(format!("{t:?} not in: {text}"));
        }
    }
}

fn stood(v: Verdict) -> Result<State, String> {
    match v {
        Verdict::Legal { state, .. } | Verdict::Won { state, .. } => Ok(state),
        Verdict::Illegal(vs) => Err(vs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")),
        Verdict::NoDraw(n) => Err(format!("no draw {n}")),
    }
}

/// Reads and runs one game case's text (`origin` names it when it cannot
/// be read).
pub fn run_text(text: &str, origin: &str) -> CaseResult {
    match toml::from_str::<GameCase>(text) {
        Ok(c) if c.kind == super::case::KIND => c.run(Deck::zone1()),
        Ok(c) => CaseResult {
            id: c.id,
            pass: false,
            why: vec![format!("kind = {:?}, not {:?}", c.kind, super::case::KIND)],
            verdict: None,
            ignored: vec![],
        },
        Err(e) => CaseResult {
            id: origin.to_string(),
            pass: false,
            why: vec![format!("{origin}: {}", e.to_string().trim())],
            verdict: None,
            ignored: vec![],
        },
    }
}
