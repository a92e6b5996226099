//! Money Run (`money-run`, issue 42) as the interface sees it: the pure
//! core of [`super::moneyrun`] answering in [`Position`]s, [`Order`]s and
//! [`Judged`]s, its draws bridged from the game's [`Draws`]. A draw the
//! game's source cannot give is never guessed: the order needs a person
//! and the start does not happen.

use super::draws::Draws;
use super::kind::KindError;
use super::moneyrun::{self, Oracle};
use super::outcome::{Breach, Judged, Next};
use super::position::{Order, Position};

/// The version of Money Run's encoded position.
pub const ENCODING: &str = "money-run/1";

/// Runs `f` with an oracle answering from `draws`; the name of the first
/// draw `draws` could not give, if any (its stand-in value is thrown away
/// with `f`'s result).
fn bridged<R>(draws: &mut dyn Draws, f: impl FnOnce(&mut Oracle<'_>) -> R) -> (R, Option<String>) {
    let mut missing = None;
    let r = {
        let mut oracle = |turn: u64, name: &str, sides: u32| {
            draws.draw(turn, name, sides).unwrap_or_else(|| {
                missing.get_or_insert_with(|| name.to_string());
                0
            })
        };
        f(&mut oracle)
    };
    (r, missing)
}

fn no_dice(name: &str) -> String {
    format!("the draw {name:?} needs the game's dice (its committed seed), and this game has none")
}

/// The start: seats in `players`' order, the opening five and the first
/// player drawn (RULINGS MR2, MR4).
pub(super) fn start(
    players: &[String],
    rulings: &[(String, String)],
    draws: &mut dyn Draws,
) -> Result<Position, KindError> {
    let r = moneyrun::Rulings::from_pairs(rulings.iter().map(|(k, v)| (k, v)))
        .map_err(|e| KindError::Ruling(e.to_string()))?;
    let (started, missing) = bridged(draws, |o| moneyrun::State::start(players, r, o));
    if let Some(name) = missing {
        return Err(KindError::Players(no_dice(&name)));
    }
    started
        .map(|(s, _)| Position::MoneyRun(Box::new(s)))
        .map_err(|e| KindError::Players(e.to_string()))
}

/// Checks `rulings` against Money Run's.
pub(super) fn check_rulings(rulings: &[(String, String)]) -> Result<(), KindError> {
    moneyrun::Rulings::from_pairs(rulings.iter().map(|(k, v)| (k, v)))
        .map(|_| ())
        .map_err(|e| KindError::Ruling(e.to_string()))
}

/// The orders in a mail body.
pub(super) fn read(body: &str) -> Result<(Order, Vec<String>), KindError> {
    moneyrun::read(body)
        .map(|o| (Order::MoneyRun(o), Vec::new()))
        .map_err(|e| KindError::Read {
            line: e.line,
            text: e.to_string(),
        })
}

/// Whether a body holds what Money Run reads as orders: a line of the
/// sender's own starting with one of its words (any case).
pub(super) fn holds_order(body: &str) -> bool {
    super::words::a_line_starts_with(body, &moneyrun::read::VERBS)
}

/// Judges `orders` by `sender`, refills drawn from `draws`.
pub(super) fn judge(
    s: &moneyrun::State,
    orders: &moneyrun::Orders,
    sender: &str,
    draws: &mut dyn Draws,
) -> Judged {
    let (v, missing) = bridged(draws, |o| moneyrun::judge(s, orders, sender, o));
    if let Some(name) = missing {
        return Judged::NeedsRuling(vec![Breach {
            rule: "H3".into(),
            ruling: None,
            text: no_dice(&name),
        }]);
    }
    judged(v)
}

/// The interface's verdict of the core's.
pub(super) fn judged(v: moneyrun::Verdict) -> Judged {
    match v {
        moneyrun::Verdict::Legal { state, changes, .. } => Judged::Legal {
            position: Position::MoneyRun(Box::new(state)),
            changes,
        },
        moneyrun::Verdict::Won { state, changes, .. } => Judged::Over {
            position: Position::MoneyRun(Box::new(state)),
            changes,
        },
        moneyrun::Verdict::Illegal(v) => Judged::Illegal(
            v.into_iter()
                .map(|v| Breach::of(v.rule, v.ruling, v.text))
                .collect(),
        ),
    }
}

/// Who acts next: an open turn's player for its second action has one
/// line of the log in the turn already (RULINGS MR14).
pub(super) fn next(s: &moneyrun::State) -> Next {
    match s.next() {
        moneyrun::Next::Act { player, step } => Next::Act {
            players: vec![player],
            step: step.as_str(),
            lines_in: usize::from(s.open.is_some()),
        },
        moneyrun::Next::Over { winners } => Next::Over { winners },
    }
}

/// A Timeout: a pass on a fresh turn, `end` on an open one (RULINGS MR13).
pub(super) fn timeout(s: &moneyrun::State) -> (Order, Judged) {
    let (orders, v) = moneyrun::timeout(s);
    (Order::MoneyRun(orders), judged(v))
}

/// RULES: each rule of the seed, with how many of its sentences mornbot
/// judges as they stand, by a ruling, or not at all.
pub(super) fn rules_text() -> String {
    use moneyrun::coverage::{coverage, Status};
    let mut s = String::from(
        "Rules of Money Run and what mornbot does with them (the start squares and goal \
         lines are a house ruling, MR2: the seed's picture of them is lost):\n\n",
    );
    for r in coverage(None) {
        let count = |st: Status| r.sentences.iter().filter(|x| x.status == st).count();
        s.push_str(&format!(
            "  Rule {} ({}): {} adjudicated, {} by ruling, {} judge no turn\n",
            r.rule,
            r.section,
            count(Status::Adjudicated),
            count(Status::ByRuling),
            count(Status::NotApplicable),
        ));
    }
    s
}
