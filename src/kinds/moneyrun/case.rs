//! The Money Run rule-case format of `fixtures/cases-moneyrun/**/*.toml`:
//! a state, one or more mails (orders with their draws, or a Timeout), and
//! what the reader and the judge must say of the last. Keys this version
//! does not know are reported (and ignored). The format is
//! `fixtures/cases-moneyrun/README.md`'s.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::board::{Coin, Square, Stack, TOTAL_COINS};
use super::judge::{judge, timeout, Verdict};
use super::read::read;
use super::rulings::Rulings;
use super::state::{same_player, State};
use crate::engine::case::CaseResult;

/// The `kind` of a Money Run case.
pub const KIND: &str = "money-run";

/// A case file.
#[derive(Debug, Deserialize)]
pub struct MrCase {
    /// Unique id, the file's stem.
    pub id: String,
    /// `money-run`.
    pub kind: String,
    /// The seed's rules the case exercises ("H2", "C3", "E1").
    pub rules: Vec<String>,
    /// The rulings of RULINGS.md it exercises ("MR8").
    #[serde(default)]
    pub rulings: Vec<String>,
    /// One line on what it shows.
    pub summary: String,
    /// The state before the first mail.
    pub state: CaseState,
    /// The mails, in order: all but the last must stand.
    pub turn: Vec<CaseTurn>,
    /// What must come of the last mail.
    pub expect: Expect,
    /// Keys of the file this version does not know (ignored).
    #[serde(skip)]
    pub unknown_keys: Vec<String>,
}

/// `[state]`.
#[derive(Debug, Deserialize)]
pub struct CaseState {
    /// The players in seat order (seat 1 first).
    pub players: Vec<String>,
    /// Draw values for the setup (`bag-1` - `bag-5`, then `first-player`):
    /// the state is then `State::start`'s, and the keys below but
    /// `rulings` must be absent.
    pub start: Option<Vec<u32>>,
    /// Who plays first (default: seat 1); order of play runs clockwise
    /// from there (MR4).
    pub first: Option<String>,
    /// Whose turn it is (default: `first`).
    pub to_play: Option<String>,
    /// The table, as letters (default `LMSPP`).
    pub table: Option<String>,
    /// The bag, as `L4 M9 S11 P14` (default: what the board and the
    /// table leave of the 42 coins).
    pub bag: Option<String>,
    /// Stacks, each `"e4 LMS"`: a square and its coins bottom to top.
    #[serde(default)]
    pub board: Vec<String>,
    /// Pawns not on their start squares: `{ Ann = "e2" }`.
    #[serde(default)]
    pub pawns: BTreeMap<String, String>,
    /// An open turn with this many actions taken (MR14).
    pub open: Option<u8>,
    /// Turns closed in a row without an action.
    #[serde(default)]
    pub passes: u32,
    /// Turns closed in a row with `stalemate`.
    #[serde(default)]
    pub agreed: u32,
    /// Turns closed so far.
    #[serde(default)]
    pub turns: u64,
    /// The game's rulings (`shared_squares = false`).
    #[serde(default)]
    pub rulings: BTreeMap<String, toml::Value>,
}

/// `[[turn]]`: one mail.
#[derive(Debug, Deserialize)]
pub struct CaseTurn {
    /// Who sent it (default: the player to act).
    pub sender: Option<String>,
    /// The mail body.
    pub orders: Option<String>,
    /// A Timeout instead of a mail (MR13).
    #[serde(default)]
    pub timeout: bool,
    /// The oracle's values, in the order the judge asks.
    #[serde(default)]
    pub draws: Vec<u32>,
}

/// `[expect]`.
#[derive(Debug, Deserialize)]
pub struct Expect {
    /// `legal`, `illegal`, `unreadable` or `won`.
    pub verdict: String,
    /// Legal: whether the turn is left open.
    pub open: Option<bool>,
    /// Illegal: the set of rules cited, exactly.
    pub violations: Option<Vec<String>>,
    /// A substring of the read error, of a violation or of a change.
    pub message: Option<String>,
    /// Won: the winners.
    pub winners: Option<Vec<String>>,
    /// Won: `goal`, `passes`, `no-action` or `agreement`.
    pub ending: Option<String>,
    /// Who acts next.
    pub to_play: Option<String>,
    /// `turn` or `second action`.
    pub step: Option<String>,
    /// The table after, as letters.
    pub table: Option<String>,
    /// The bag after, as `L4 M9 S11 P14`.
    pub bag: Option<String>,
    /// Stacks after, each `"e4 LMS"` (`"e4"`: empty).
    #[serde(default)]
    pub squares: Vec<String>,
    /// Pawns after: `{ Ann = "e3" }`.
    #[serde(default)]
    pub pawns: BTreeMap<String, String>,
    /// The names of the draws the last mail made, in order.
    pub draws: Option<Vec<String>>,
}

/// Whether a case file's text is a Money Run case (`kind = "money-run"`).
pub fn is_moneyrun(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| t.get("kind").and_then(|k| k.as_str().map(|k| k == KIND)))
        .unwrap_or(false)
}

fn square(t: &str) -> Result<Square, String> {
    Square::parse(t.trim()).ok_or_else(|| format!("{t:?} is not a square"))
}

fn coins(t: &str) -> Result<Vec<Coin>, String> {
    t.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| Coin::parse(&c.to_string()).ok_or_else(|| format!("{c:?} is not a coin")))
        .collect()
}

/// `"e4 LMS"` as a square and its stack.
fn stack_line(t: &str) -> Result<(Square, Stack), String> {
    let (sq, rest) = t.trim().split_once(' ').unwrap_or((t.trim(), ""));
    let stack = Stack::parse(rest).ok_or_else(|| format!("{rest:?} is not a stack"))?;
    Ok((square(sq)?, stack))
}

/// `"L4 M9 S11 P14"` as counts.
fn bag(t: &str) -> Result<[u32; 4], String> {
    let mut out = [0; 4];
    for w in t.split_whitespace() {
        let (c, n) = w.split_at(1);
        let c = Coin::parse(c).ok_or_else(|| format!("{w:?}: not L, M, S or P"))?;
        out[c.index()] = n.parse().map_err(|_| format!("{w:?}: not a count"))?;
    }
    Ok(out)
}

impl MrCase {
    /// Parses a case file, noting keys it does not know.
    pub fn from_toml(text: &str) -> Result<MrCase, String> {
        let de = toml::Deserializer::parse(text).map_err(|e| e.to_string())?;
        let mut unknown = Vec::new();
        let mut case: MrCase =
            serde_ignored::deserialize(de, |path| unknown.push(path.to_string()))
                .map_err(|e| e.to_string())?;
        case.unknown_keys = unknown;
        if case.kind != KIND {
            return Err(format!("kind = {:?}, not {KIND:?}", case.kind));
        }
        if case.turn.is_empty() {
            return Err("no [[turn]]".into());
        }
        Ok(case)
    }

    /// The state the case describes.
    pub fn state(&self) -> Result<State, String> {
        let s = &self.state;
        let pairs: Vec<(String, String)> = s
            .rulings
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.as_str().map_or_else(|| v.to_string(), str::to_string),
                )
            })
            .collect();
        let rulings = Rulings::from_pairs(pairs).map_err(|e| e.to_string())?;
        if let Some(values) = &s.start {
            let mut it = values.iter();
            let mut oracle = |_: u64, _: &str, _: u32| it.next().copied().unwrap_or(0);
            return State::start(&s.players, rulings, &mut oracle)
                .map(|(state, _)| state)
                .map_err(|e| e.to_string());
        }
        let mut state = State::empty(&s.players, rulings).map_err(|e| e.to_string())?;
        for line in &s.board {
            let (sq, stack) = stack_line(line)?;
            *state.stack_mut(sq) = stack;
        }
        state.table.clear();
        for c in coins(s.table.as_deref().unwrap_or("LMSPP"))? {
            state.put_on_table(c);
        }
        state.bag = match &s.bag {
            Some(b) => bag(b)?,
            None => {
                let mut left = Coin::ALL.map(Coin::count);
                let used = state
                    .board
                    .iter()
                    .flat_map(|st| st.coins())
                    .chain(state.table.clone());
                for c in used {
                    left[c.index()] = left[c.index()]
                        .checked_sub(1)
                        .ok_or_else(|| format!("more than {} {} coins", c.count(), c.name()))?;
                }
                left
            }
        };
        state.bag_draws = TOTAL_COINS.saturating_sub(state.bag_total());
        for (name, at) in &s.pawns {
            let i = state
                .player(name)
                .ok_or_else(|| format!("pawn of {name:?}: no such player"))?;
            state.pawns[i].at = square(at)?;
        }
        let who = |st: &State, n: &str| st.player(n).ok_or_else(|| format!("{n:?} is no player"));
        if let Some(f) = &s.first {
            let i = who(&state, f)?;
            let k = state.order.iter().position(|&p| p == i).unwrap_or(0);
            state.order.rotate_left(k);
        }
        state.to_play = match s.to_play.as_ref().or(s.first.as_ref()) {
            Some(n) => who(&state, n)?,
            None => state.order[0],
        };
        state.open = s.open.map(|actions| super::state::OpenTurn { actions });
        state.passes = s.passes;
        state.agreed = s.agreed;
        state.turns = s.turns;
        Ok(state)
    }

    /// Runs the case.
    pub fn run(&self) -> CaseResult {
        let mut why = Vec::new();
        self.check(&mut why);
        CaseResult {
            id: self.id.clone(),
            pass: why.is_empty(),
            why,
            verdict: None,
            ignored: self.unknown_keys.clone(),
        }
    }

    /// Judges one mail; `Err` holds the read error's text.
    fn mail(&self, state: &State, t: &CaseTurn, why: &mut Vec<String>) -> Result<Verdict, String> {
        if t.timeout {
            return Ok(timeout(state).1);
        }
        let orders = read(t.orders.as_deref().unwrap_or("")).map_err(|e| e.to_string())?;
        let sender = t
            .sender
            .clone()
            .unwrap_or_else(|| state.current().name.clone());
        let mut values = t.draws.iter();
        let mut short = false;
        let mut oracle = |_: u64, _: &str, _: u32| {
            values.next().copied().unwrap_or_else(|| {
                short = true;
                0
            })
        };
        let v = judge(state, &orders, &sender, &mut oracle);
        let left = values.len();
        if short {
            why.push("the judge asked for a draw the case does not give".into());
        } else if left > 0 && !matches!(v, Verdict::Illegal(_)) {
            why.push(format!("{left} draw value(s) left unused"));
        }
        Ok(v)
    }

    fn check(&self, why: &mut Vec<String>) {
        let mut state = match self.state() {
            Ok(s) => s,
            Err(e) => return why.push(format!("bad state: {e}")),
        };
        let want = self.expect.verdict.as_str();
        let last = self.turn.len() - 1;
        for (k, t) in self.turn.iter().enumerate() {
            let verdict = match (self.mail(&state, t, why), k == last, want) {
                (Err(e), true, "unreadable") => return self.check_message(&[e], why),
                (Err(e), ..) => return why.push(format!("mail {}: unreadable: {e}", k + 1)),
                (Ok(v), false, _) => match v.state() {
                    Some(s) => {
                        state = s.clone();
                        continue;
                    }
                    None => return why.push(format!("mail {} does not stand: {v:?}", k + 1)),
                },
                (Ok(v), true, _) => v,
            };
            self.check_verdict(&verdict, why);
        }
    }

    fn check_verdict(&self, verdict: &Verdict, why: &mut Vec<String>) {
        let want = self.expect.verdict.as_str();
        let got = match verdict {
            Verdict::Legal { .. } => "legal",
            Verdict::Illegal(_) => "illegal",
            Verdict::Won { .. } => "won",
        };
        if got != want {
            let detail = match verdict {
                Verdict::Illegal(v) => v
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
                Verdict::Legal { changes, .. } | Verdict::Won { changes, .. } => changes.join("; "),
            };
            return why.push(format!("expected {want}, got {got}: {detail}"));
        }
        match verdict {
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
            Verdict::Legal {
                state,
                changes,
                draws,
                open,
            } => {
                if let Some(o) = self.expect.open.filter(|o| o != open) {
                    why.push(format!("expected open = {o}, got {open}"));
                }
                self.check_message(changes, why);
                self.check_draws(draws.iter().map(|d| d.name.as_str()).collect(), why);
                self.check_state(state, why);
            }
            Verdict::Won {
                state,
                changes,
                draws,
            } => {
                self.check_message(changes, why);
                self.check_draws(draws.iter().map(|d| d.name.as_str()).collect(), why);
                self.check_state(state, why);
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

    fn check_draws(&self, got: Vec<&str>, why: &mut Vec<String>) {
        if let Some(want) = &self.expect.draws {
            if *want != got {
                why.push(format!("expected draws {want:?}, got {got:?}"));
            }
        }
    }

    fn check_state(&self, after: &State, why: &mut Vec<String>) {
        let e = &self.expect;
        if let Some(w) = &e.winners {
            let got: Vec<&str> = after
                .winners
                .iter()
                .map(|&i| after.pawns[i].name.as_str())
                .collect();
            if got != w.iter().map(String::as_str).collect::<Vec<_>>() {
                why.push(format!("expected winners {w:?}, got {got:?}"));
            }
        }
        if let Some(want) = &e.ending {
            let got = after.ending.map_or("none".to_string(), |x| {
                serde_json::to_string(&x)
                    .unwrap_or_default()
                    .replace('"', "")
            });
            if &got != want {
                why.push(format!("expected ending {want}, got {got}"));
            }
        }
        if let Some(p) = &e.to_play {
            if !same_player(&after.current().name, p) {
                why.push(format!(
                    "expected {p} to act next, got {}",
                    after.current().name
                ));
            }
        }
        if let Some(step) = &e.step {
            let got = if after.open.is_some() {
                "second action"
            } else {
                "turn"
            };
            if step != got {
                why.push(format!("expected step {step:?}, got {got:?}"));
            }
        }
        self.check_coins(after, why);
        for (name, at) in &e.pawns {
            match (after.player(name), square(at)) {
                (Some(i), Ok(sq)) if after.pawns[i].at == sq => {}
                (Some(i), Ok(_)) => why.push(format!(
                    "{name}'s pawn is on {}, not {at}",
                    after.pawns[i].at
                )),
                (None, _) => why.push(format!("expect.pawns: no player {name:?}")),
                (_, Err(x)) => why.push(format!("expect.pawns: {x}")),
            }
        }
    }

    fn check_coins(&self, after: &State, why: &mut Vec<String>) {
        let e = &self.expect;
        if let Some(t) = &e.table {
            match coins(t) {
                Ok(mut want) => {
                    want.sort();
                    if want != after.table {
                        why.push(format!(
                            "the table is {:?}, not {t:?}",
                            super::judge::table_words(&after.table)
                        ));
                    }
                }
                Err(x) => why.push(format!("expect.table: {x}")),
            }
        }
        if let Some(b) = &e.bag {
            match bag(b) {
                Ok(want) if want == after.bag => {}
                Ok(_) => why.push(format!("the bag is {:?}, not {b:?}", after.bag)),
                Err(x) => why.push(format!("expect.bag: {x}")),
            }
        }
        for line in &e.squares {
            match stack_line(line) {
                Ok((sq, want)) if after.stack(sq) == want => {}
                Ok((sq, _)) => why.push(format!(
                    "{sq} holds {:?}, not {line:?}",
                    after.stack(sq).to_string()
                )),
                Err(x) => why.push(format!("expect.squares: {x}")),
            }
        }
        if after.coins_total() != TOTAL_COINS {
            why.push(format!("{} coins in the game, not 42", after.coins_total()));
        }
    }
}

/// Reads and runs one case file's text (`origin` names it when it cannot
/// be read).
pub fn run_text(text: &str, origin: &str) -> CaseResult {
    match MrCase::from_toml(text) {
        Ok(c) => c.run(),
        Err(e) => CaseResult {
            id: origin.to_string(),
            pass: false,
            why: vec![format!("{origin}: {}", e.trim())],
            verdict: None,
            ignored: vec![],
        },
    }
}
