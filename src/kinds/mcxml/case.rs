//! The mc-xml rule-case format of `fixtures/cases-mcxml/**/*.toml`: a state,
//! a turn as the mail's XML, and what the reader and the judge must say.
//! Keys this version does not know are reported (and ignored). The format
//! is `fixtures/cases-mcxml/README.md`'s.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::actions::Part;
use super::facts::Facts;
use super::judge::{judge, Verdict};
use super::read::read;
use super::rulings::Rulings;
use super::state::{Closure, Parts, State, Train};
use crate::engine::case::CaseResult;
use crate::map::StationId;

/// The `kind` of an mc-xml case.
pub const KIND: &str = "mc-xml";

/// A case file.
#[derive(Debug, Deserialize)]
pub struct McCase {
    /// Unique id, the file's stem.
    pub id: String,
    /// `mc-xml`.
    pub kind: String,
    /// The rules of the seed the case exercises ("1" - "7").
    pub rules: Vec<String>,
    /// The rulings of RULINGS.md it exercises ("MX6").
    #[serde(default)]
    pub rulings: Vec<String>,
    /// One line on what it shows.
    pub summary: String,
    /// The state before the turn.
    pub state: CaseState,
    /// The turn.
    pub turn: CaseTurn,
    /// What must come of it.
    pub expect: Expect,
    /// Keys of the file this version does not know (ignored).
    #[serde(skip)]
    pub unknown_keys: Vec<String>,
}

/// `[state]`.
#[derive(Debug, Deserialize)]
pub struct CaseState {
    /// The players in order of play.
    pub players: Vec<String>,
    /// Whose turn it is (default: the first player).
    pub to_play: Option<String>,
    /// Trains not at the start (default: at Tottenham Court Road, nothing held).
    #[serde(default)]
    pub trains: Vec<CaseTrain>,
    /// Stations closed by Blocks (Mornington Crescent's rebuilding is implied).
    #[serde(default)]
    pub closed: Vec<CaseClosed>,
    /// Parts bought so far per kind (default: the sum held).
    pub bought: Option<CaseParts>,
    /// The game's rulings (`build_at = "on"`).
    #[serde(default)]
    pub rulings: BTreeMap<String, toml::Value>,
}

/// `[[state.trains]]` and `[[expect.trains]]`.
#[derive(Debug, Deserialize)]
pub struct CaseTrain {
    /// The player.
    pub name: String,
    /// The station.
    pub at: Option<String>,
    /// Tokens.
    pub tokens: Option<u32>,
    /// Parts held.
    pub parts: Option<CaseParts>,
}

/// `{ platform = 1, lift = 0, ticket = 2, announcer = 0 }`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseParts {
    /// Platforms.
    pub platform: Option<u32>,
    /// Lifts.
    pub lift: Option<u32>,
    /// Ticket machines.
    pub ticket: Option<u32>,
    /// Station announcers.
    pub announcer: Option<u32>,
}

impl CaseParts {
    fn get(&self, p: Part) -> Option<u32> {
        match p {
            Part::Platform => self.platform,
            Part::Lift => self.lift,
            Part::Ticket => self.ticket,
            Part::Announcer => self.announcer,
        }
    }
}

/// `[[state.closed]]`.
#[derive(Debug, Deserialize)]
pub struct CaseClosed {
    /// The station.
    pub station: String,
    /// Its strength.
    pub strength: u32,
}

/// `[turn]`.
#[derive(Debug, Deserialize)]
pub struct CaseTurn {
    /// Who sent it (default: the player to play).
    pub sender: Option<String>,
    /// The mail body holding the turn.
    pub xml: String,
}

/// `[expect]`.
#[derive(Debug, Deserialize)]
pub struct Expect {
    /// `legal`, `illegal`, `unreadable` or `won`.
    pub verdict: String,
    /// Illegal: the set of rules cited.
    pub violations: Option<Vec<String>>,
    /// A substring of the read error, of a violation, or (legal) of a change.
    pub message: Option<String>,
    /// The winner after the turn (`""`: none).
    pub winner: Option<String>,
    /// Trains after the turn (only those listed, only the fields given).
    #[serde(default)]
    pub trains: Vec<CaseTrain>,
    /// The whole list of Blocks after the turn, in any order.
    pub closed: Option<Vec<CaseClosed>>,
    /// Whose turn it is after (an extension of the format).
    pub to_play: Option<String>,
    /// Substrings each of which some repair must contain (an extension).
    pub repairs: Option<Vec<String>>,
}

/// Whether a case file's text is an mc-xml case (`kind = "mc-xml"`).
pub fn is_mcxml(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| t.get("kind").and_then(|k| k.as_str().map(|k| k == KIND)))
        .unwrap_or(false)
}

fn station(facts: &Facts, name: &str) -> Result<StationId, String> {
    facts.map().lookup(name).map_err(|e| e.to_string())
}

impl McCase {
    /// Parses a case file, noting keys it does not know.
    pub fn from_toml(text: &str) -> Result<McCase, String> {
        let de = toml::Deserializer::parse(text).map_err(|e| e.to_string())?;
        let mut unknown = Vec::new();
        let mut case: McCase =
            serde_ignored::deserialize(de, |path| unknown.push(path.to_string()))
                .map_err(|e| e.to_string())?;
        case.unknown_keys = unknown;
        if case.kind != KIND {
            return Err(format!("kind = {:?}, not {KIND:?}", case.kind));
        }
        Ok(case)
    }

    /// The state the case describes.
    pub fn state(&self, facts: &Facts) -> Result<State, String> {
        let s = &self.state;
        let pairs: Vec<(String, String)> = s
            .rulings
            .iter()
            .map(|(k, v)| {
                let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                (k.clone(), v)
            })
            .collect();
        let rulings = Rulings::from_pairs(pairs).map_err(|e| e.to_string())?;
        let mut state = State::start_on(facts, &s.players, rulings).map_err(|e| e.to_string())?;
        for t in &s.trains {
            let i = state
                .player(&t.name)
                .ok_or_else(|| format!("train {:?} is no player's", t.name))?;
            let train: &mut Train = &mut state.trains[i];
            if let Some(at) = &t.at {
                train.at = station(facts, at)?;
            }
            train.tokens = t.tokens.unwrap_or(0);
            let parts = t.parts.unwrap_or_default();
            for p in Part::ALL {
                *train.parts.get_mut(p) = parts.get(p).unwrap_or(0);
            }
        }
        let held = state
            .trains
            .iter()
            .fold(Parts::default(), |sum, t| sum.plus(t.parts));
        let bought = s.bought.unwrap_or_default();
        for p in Part::ALL {
            *state.bought.get_mut(p) = bought.get(p).unwrap_or(held.get(p));
        }
        for c in &s.closed {
            let id = station(facts, &c.station)?;
            if id == facts.mornington() {
                return Err("Mornington Crescent is closed for rebuilding already".into());
            }
            state.closed.push(Closure {
                station: id,
                strength: c.strength,
            });
        }
        if let Some(p) = &s.to_play {
            state.to_play = state
                .player(p)
                .ok_or_else(|| format!("to_play {p:?} is no player"))?;
        }
        Ok(state)
    }

    /// Runs the case.
    pub fn run(&self, facts: &Facts) -> CaseResult {
        let mut why = Vec::new();
        self.check(facts, &mut why);
        CaseResult {
            id: self.id.clone(),
            pass: why.is_empty(),
            why,
            verdict: None,
            ignored: self.unknown_keys.clone(),
        }
    }

    fn check(&self, facts: &Facts, why: &mut Vec<String>) {
        let state = match self.state(facts) {
            Ok(s) => s,
            Err(e) => return why.push(format!("bad state: {e}")),
        };
        let want = self.expect.verdict.as_str();
        let read = match (read(facts, &self.turn.xml), want) {
            (Err(e), "unreadable") => return self.check_message(&[e.to_string()], why),
            (Err(e), _) => {
                return why.push(format!("expected {want}, the turn is unreadable: {e}"))
            }
            (Ok(r), _) => r,
        };
        if let Some(want) = &self.expect.repairs {
            let got: Vec<String> = read.repairs.iter().map(|r| r.to_string()).collect();
            for w in want {
                if !got.iter().any(|g| g.contains(w.as_str())) {
                    why.push(format!("no repair says {w:?}; the repairs: {got:?}"));
                }
            }
        }
        let sender = self
            .turn
            .sender
            .clone()
            .unwrap_or_else(|| state.current().name.clone());
        let verdict = judge(facts, &state, &read.turn, &sender);
        let got = match &verdict {
            Verdict::Legal { .. } => "legal",
            Verdict::Illegal(_) => "illegal",
            Verdict::Won { .. } => "won",
        };
        if got != want {
            let detail = match &verdict {
                Verdict::Illegal(v) => v
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
                Verdict::Legal { changes, .. } | Verdict::Won { changes, .. } => changes.join("; "),
            };
            return why.push(format!("expected {want}, got {got}: {detail}"));
        }
        match &verdict {
            Verdict::Illegal(v) => {
                let texts: Vec<String> = v.iter().map(|v| v.to_string()).collect();
                if let Some(rules) = &self.expect.violations {
                    let mut cited: Vec<&str> = v.iter().map(|v| v.rule).collect();
                    cited.sort();
                    cited.dedup();
                    let mut expected: Vec<&str> = rules.iter().map(String::as_str).collect();
                    expected.sort();
                    expected.dedup();
                    if cited != expected {
                        why.push(format!(
                            "expected rules {expected:?} cited, got {cited:?}: {}",
                            texts.join("; ")
                        ));
                    }
                }
                self.check_message(&texts, why);
            }
            Verdict::Legal { state, changes } | Verdict::Won { state, changes } => {
                self.check_message(changes, why);
                self.check_state(facts, state, why);
            }
        }
    }

    fn check_message(&self, texts: &[String], why: &mut Vec<String>) {
        if let Some(m) = &self.expect.message {
            if !texts.iter().any(|t| t.contains(m.as_str())) {
                why.push(format!("nothing says {m:?}: {}", texts.join("; ")));
            }
        }
    }

    fn check_state(&self, facts: &Facts, after: &State, why: &mut Vec<String>) {
        let e = &self.expect;
        if let Some(w) = &e.winner {
            let got = after.winner.map_or("", |i| after.trains[i].name.as_str());
            if got != w {
                why.push(format!("expected winner {w:?}, got {got:?}"));
            }
        }
        if let Some(p) = &e.to_play {
            if !super::state::same_player(&after.current().name, p) {
                why.push(format!(
                    "expected {p} to play next, got {}",
                    after.current().name
                ));
            }
        }
        for t in &e.trains {
            let Some(i) = after.player(&t.name) else {
                why.push(format!("expect.trains: no player {:?}", t.name));
                continue;
            };
            let got = &after.trains[i];
            if let Some(at) = &t.at {
                match station(facts, at) {
                    Ok(id) if id == got.at => {}
                    Ok(_) => why.push(format!("{} is at {}, not {at}", t.name, facts.name(got.at))),
                    Err(e) => why.push(format!("expect.trains: {e}")),
                }
            }
            if let Some(n) = t.tokens.filter(|&n| n != got.tokens) {
                why.push(format!("{} holds {} tokens, not {n}", t.name, got.tokens));
            }
            let parts = t.parts.unwrap_or_default();
            for p in Part::ALL {
                if let Some(n) = parts.get(p).filter(|&n| n != got.parts.get(p)) {
                    why.push(format!(
                        "{} holds {}, not {n}",
                        t.name,
                        p.count(got.parts.get(p))
                    ));
                }
            }
        }
        if let Some(closed) = &e.closed {
            let mut want = Vec::new();
            for c in closed {
                match station(facts, &c.station) {
                    Ok(id) => want.push((id, c.strength)),
                    Err(e) => why.push(format!("expect.closed: {e}")),
                }
            }
            let mut got: Vec<(StationId, u32)> = after
                .closed
                .iter()
                .map(|c| (c.station, c.strength))
                .collect();
            want.sort();
            got.sort();
            if want != got {
                let show = |l: &[(StationId, u32)]| {
                    l.iter()
                        .map(|(s, x)| format!("{} ({x})", facts.name(*s)))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                why.push(format!(
                    "closed after: {}, expected {}",
                    show(&got),
                    show(&want)
                ));
            }
        }
    }
}

/// Reads and runs one case file's text (`origin` names it when it cannot
/// be read).
pub fn run_text(facts: &Facts, text: &str, origin: &str) -> CaseResult {
    match McCase::from_toml(text) {
        Ok(c) => c.run(facts),
        Err(e) => CaseResult {
            id: origin.to_string(),
            pass: false,
            why: vec![format!("{origin}: {}", e.trim())],
            verdict: None,
            ignored: vec![],
        },
    }
}
