//! Judging one mail of One Day in London: a pure function of (state,
//! order, sender, draws) to a [`Verdict`] (RULINGS OD5 - OD13).
//!
//! A refused order changes nothing; its violations go to the sender only,
//! so their texts may name the sender's own cards but never another
//! player's hidden card or the draw pile's. The `changes` of a verdict are
//! public: they name only cards everyone may see (a card going from the
//! draw pile into a rack is never named).
//!
//! `play.rs` judges the orders of a turn (TAKE, DRAW and the rest of a
//! turn after it, the discard rule, the reshuffle).

mod play;

use std::fmt;

use super::deck::RACK;
use super::order::Order;
use super::state::{Phase, State};
use crate::kinds::Draws;

pub use play::forced_pile;

/// The seed's headings, the rules a violation cites.
pub mod rule {
    /// "Setup": drawing and placing the ten cards.
    pub const SETUP: &str = "Setup";
    /// "The Play": a turn.
    pub const PLAY: &str = "The Play";
    /// "Game End": a journey ends the game.
    pub const END: &str = "Game End";
}

/// One way an order breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The seed's heading whose words the order breaks ("The Play").
    pub rule: &'static str,
    /// The ruling of RULINGS.md that reads those words, if one does
    /// ("OD7").
    pub ruling: Option<&'static str>,
    /// What is wrong, for the sender only.
    pub text: String,
}

impl Violation {
    pub(crate) fn new(rule: &'static str, ruling: Option<&'static str>, text: String) -> Self {
        Violation { rule, ruling, text }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ruling {
            Some(r) => write!(f, "Rule {} ({r}): {}", self.rule, self.text),
            None => write!(f, "Rule {}: {}", self.rule, self.text),
        }
    }
}

/// What an order comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It stands; the game goes on.
    Legal {
        /// The state after it.
        state: State,
        /// What changed, one public line each.
        changes: Vec<String>,
    },
    /// It stands and the game is over: a journey (OD9), or a stalemate
    /// agreed by all (OD13, no winner); `state.next()` names the winners.
    Won {
        /// The final state.
        state: State,
        /// What changed, one public line each.
        changes: Vec<String>,
    },
    /// Refused whole: every violation.
    Illegal(Vec<Violation>),
    /// A draw needed (a reshuffle) is not available: the order is referred
    /// to a person.
    NoDraw(String),
}

pub(crate) fn illegal(rule: &'static str, ruling: Option<&'static str>, text: String) -> Verdict {
    Verdict::Illegal(vec![Violation::new(rule, ruling, text)])
}

/// The verdict for a state reached: Won when it is over.
pub(crate) fn verdict(state: State, changes: Vec<String>) -> Verdict {
    if matches!(state.phase, Phase::Over { .. }) {
        Verdict::Won { state, changes }
    } else {
        Verdict::Legal { state, changes }
    }
}

/// Judges `sender`'s order against `state`.
pub fn judge(state: &State, order: &Order, sender: &str, draws: &mut dyn Draws) -> Verdict {
    let Some(seat) = state.seat(sender) else {
        // The rule of the phase the stranger tried to play in.
        let r = if matches!(state.phase, Phase::Setup) {
            rule::SETUP
        } else {
            rule::PLAY
        };
        return illegal(
            r,
            None,
            format!("{} is not a player of this game", sender.trim()),
        );
    };
    if let Phase::Over { .. } = state.phase {
        return illegal(rule::END, None, "the game is over".into());
    }
    match order {
        Order::Timeout => timeout(state, sender).unwrap_or_else(|| {
            illegal(
                rule::PLAY,
                Some("OD11"),
                "you are not awaited: nothing of yours has timed out".into(),
            )
        }),
        Order::Stalemate => stalemate(state, seat),
        Order::Place(slot) => place(state, seat, *slot, false),
        _ if state.phase == Phase::Setup => {
            let text = if state.seats[seat].deal.is_empty() {
                "the others are still placing their cards: play starts when every rack is full"
            } else {
                "the players are placing their cards: send PLACE <slot> (an empty slot, 1 - 10)"
            };
            illegal(rule::SETUP, Some("OD5"), text.into())
        }
        _ => play::play(state, seat, order, draws),
    }
}

/// What OD11 plays for `player`'s missed step: None when `player` is not
/// awaited. A missed placement puts the card in the leftmost empty slot (one
/// card); a missed turn passes; a missed rest of a turn after `DRAW`
/// discards the drawn card (onto the pile the discard rule forces, else
/// pile 1).
pub fn timeout(state: &State, player: &str) -> Option<Verdict> {
    let seat = state.seat(player)?;
    match state.phase {
        Phase::Setup => {
            let s = &state.seats[seat];
            if s.deal.is_empty() {
                return None;
            }
            let slot = s.rack.iter().position(Option::is_none)? as u8 + 1;
            Some(place(state, seat, slot, true))
        }
        Phase::Play { mover, drawn } if mover == seat => Some(match drawn {
            None => {
                let mut next = state.clone();
                let changes = vec![format!(
                    "{} missed the turn: it passes (OD11)",
                    state.name(seat)
                )];
                let changes = play::end_turn(&mut next, seat, changes);
                verdict(next, changes)
            }
            Some(card) => play::discard_drawn(state, seat, card),
        }),
        _ => None,
    }
}

/// `STALEMATE` (OD13): an agreement kept to the end; when every player has
/// agreed, the game ends with no winner.
fn stalemate(state: &State, seat: usize) -> Verdict {
    if state.seats[seat].stalemate {
        return illegal(
            rule::END,
            Some("OD13"),
            "you have agreed to a stalemate already: it stands until the end".into(),
        );
    }
    let mut next = state.clone();
    next.seats[seat].stalemate = true;
    let agreed = next.seats.iter().filter(|s| s.stalemate).count();
    let n = next.seats.len();
    let mut changes = vec![format!(
        "{} agrees to a stalemate ({agreed} of {n})",
        state.name(seat)
    )];
    if agreed == n {
        if let Phase::Play {
            drawn: Some(card), ..
        } = next.phase
        {
            // the drawn card goes back on top of the draw pile
            next.draw.push(card);
        }
        next.phase = Phase::Over {
            winners: Vec::new(),
        };
        changes.push("Every player agrees: the game ends in a stalemate, with no winner".into());
    }
    verdict(next, changes)
}

/// `PLACE <slot>` (OD5), or a missed placement (`missed`, OD11).
fn place(state: &State, seat: usize, slot: u8, missed: bool) -> Verdict {
    if state.phase != Phase::Setup {
        return illegal(
            rule::SETUP,
            Some("OD5"),
            "set-up is over: PLACE is no order of play".into(),
        );
    }
    let s = &state.seats[seat];
    if s.deal.is_empty() {
        return illegal(
            rule::SETUP,
            Some("OD5"),
            "you have placed all your ten cards: play starts when every rack is full".into(),
        );
    }
    if !(1..=RACK as u8).contains(&slot) {
        return illegal(
            rule::SETUP,
            None,
            format!("there is no slot {slot}: the slots are 1 - 10"),
        );
    }
    let k = slot as usize - 1;
    if let Some(card) = s.rack[k] {
        return illegal(
            rule::SETUP,
            None,
            format!(
                "slot {slot} holds {} already: once placed, a card cannot be moved; place into an empty slot",
                state.card_name(card)
            ),
        );
    }
    let mut next = state.clone();
    let seat_now = &mut next.seats[seat];
    let card = seat_now.deal.remove(0);
    seat_now.rack[k] = Some(card);
    let placed = seat_now.rack.iter().flatten().count();
    let mut changes = Vec::new();
    if missed {
        changes.push(format!(
            "{} missed a placement: the card goes to the leftmost empty slot (OD11)",
            state.name(seat)
        ));
    }
    changes.push(format!(
        "{} placed a card in slot {slot} ({placed} of 10)",
        state.name(seat)
    ));
    if next.seats.iter().all(|s| s.deal.is_empty()) {
        play::deal_piles(&mut next, &mut changes);
    }
    verdict(next, changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::oneday::deck::CardId;

    fn start() -> State {
        let players = vec!["Ann".to_string(), "Bob".to_string()];
        let mut d = |_: u64, _: &str, s: u32| Some(s - 1);
        State::start(&players, Default::default(), &mut d).unwrap()
    }

    #[test]
    fn the_forced_pile_is_the_lowest_empty_one() {
        let c = CardId(1);
        assert_eq!(forced_pile(&[vec![c], vec![c], vec![c]]), None);
        assert_eq!(forced_pile(&[vec![c], vec![], vec![]]), Some(2));
        assert_eq!(forced_pile(&[vec![], vec![c], vec![]]), Some(1));
    }

    #[test]
    fn stalemate_in_set_up_and_timeouts_of_the_unawaited() {
        let s = start();
        let mut none = crate::kinds::NoDraws;
        let Verdict::Legal { state, changes } = judge(&s, &Order::Stalemate, "ann", &mut none)
        else {
            panic!()
        };
        assert_eq!(changes, ["Ann agrees to a stalemate (1 of 2)"]);
        let v = judge(&state, &Order::Stalemate, "Bob", &mut none);
        assert!(matches!(v, Verdict::Won { .. }), "{v:?}");
        assert!(timeout(&s, "Zed").is_none());
        let v = judge(&s, &Order::Place(1), "Zed", &mut none);
        assert_eq!(
            v,
            illegal(rule::SETUP, None, "Zed is not a player of this game".into())
        );
    }
}
