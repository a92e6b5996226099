//! A game of One Day in London as data: the racks, the three discard piles,
//! the draw pile, whose step it is, and the end (RULINGS OD4 - OD13).
//!
//! # The shuffle (`oneday-shuffle/1`, RULINGS OD5)
//!
//! The deck starts in card order, `#1` to `#72`. For `i` from 71 down to 1,
//! the draw `deck-<i>` at turn 0 with `i + 1` sides answers an index `j`
//! in `0..=i`, and positions `i` and `j` of the deck are swapped (a
//! Fisher-Yates shuffle made of named draws). The order never depends on
//! the players or on when mail arrives. Seat `k` (0-based, order of play)
//! is dealt positions `10k .. 10k + 9`, one card at a time; when every rack
//! is full the next three cards start piles 1, 2 and 3, face up, and the
//! rest is the draw pile, the next card of the deck on top.
//!
//! A reshuffle (OD8) gathers every discard pile but its top card (pile 1
//! bottom to top, then 2, then 3), and shuffles those `n` cards the same
//! way: for `i` from `n - 1` down to 1 the draw `reshuffle-<k>-<i>` with
//! `i + 1` sides (`k` counts the game's reshuffles from 1), at turn
//! [`State::turns`]` + 1`; the first card of the result is the new draw
//! pile's top.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::deck::{CardId, Deck, RACK};
use super::rulings::{JourneyRulings, RulingError};
use crate::kinds::Draws;

/// The name and version of the shuffle (the module's notes).
pub const SHUFFLE_VERSION: &str = "oneday-shuffle/1";

/// Cards in the deck.
pub const CARDS: usize = 72;

/// The contested readings a game may choose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulings {
    /// The journey rule's readings (OD10).
    pub journey: JourneyRulings,
}

impl Rulings {
    /// Rulings from `(name, value)` pairs; the names are
    /// [`JourneyRulings::NAMES`], the values `allow` or `forbid`.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Rulings, RulingError> {
        let mut r = Rulings::default();
        for (name, value) in pairs {
            r.journey.set(name, value)?;
        }
        Ok(r)
    }
}

/// Why a game cannot start.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    /// Not 2 - 4 players with distinct names.
    #[error("{0}")]
    Players(String),
    /// The shuffle's draws are not available.
    #[error("{0}")]
    NoDraw(String),
}

/// One player's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The player's name.
    pub(crate) name: String,
    /// The rack, slot 1 first.
    pub(crate) rack: [Option<CardId>; RACK],
    /// Whether each slot's card came from a face-up pile (public, OD4).
    pub(crate) exposed: [bool; RACK],
    /// The cards still to place in set-up, the next first.
    pub(crate) deal: Vec<CardId>,
    /// Whether the player agreed to a stalemate (OD13).
    pub(crate) stalemate: bool,
}

/// Where the game is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The players place their dealt cards (OD5).
    Setup,
    /// Seat `mover` plays; `drawn` is the card it drew, its turn open (OD6).
    Play {
        /// The seat to move.
        mover: usize,
        /// The card drawn from the draw pile, awaiting the rest of the turn.
        drawn: Option<CardId>,
    },
    /// The end: the winning seats (none: a stalemate, OD13).
    Over {
        /// The winners' seats.
        winners: Vec<usize>,
    },
}

/// A game of One Day in London.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The readings chosen.
    pub(crate) rulings: Rulings,
    /// The seats in order of play.
    pub(crate) seats: Vec<Seat>,
    /// The deck not dealt yet (set-up only), the next card first.
    pub(crate) stock: Vec<CardId>,
    /// The discard piles, each bottom to top.
    pub(crate) piles: [Vec<CardId>; 3],
    /// The draw pile, bottom to top (its last card is the top).
    pub(crate) draw: Vec<CardId>,
    /// Where the game is.
    pub(crate) phase: Phase,
    /// Complete turns of play, timeouts included.
    pub turns: u32,
    /// Reshuffles made so far (OD8).
    pub(crate) reshuffles: u32,
}

/// Who is awaited and for what, or the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// These players are awaited for this step.
    Act {
        /// The players awaited (all at once in set-up).
        players: Vec<String>,
        /// The step awaited.
        step: Step,
    },
    /// The game is over; no winner is a stalemate.
    Over {
        /// The winners.
        winners: Vec<String>,
    },
}

/// The kind of step awaited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Placing a dealt card (set-up).
    Placement,
    /// A turn of play.
    Turn,
    /// The rest of a turn after `DRAW`.
    SecondStep,
}

impl Step {
    /// The step's name: "placement", "turn", "rest of the turn".
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Placement => "placement",
            Step::Turn => "turn",
            Step::SecondStep => "rest of the turn",
        }
    }
}

/// Shuffles `cards` in place by named draws (`<prefix><i>`, the module's
/// notes); the name of the first draw missing on failure.
pub(crate) fn shuffle(
    cards: &mut [CardId],
    turn: u64,
    prefix: &str,
    draws: &mut dyn Draws,
) -> Result<(), String> {
    for i in (1..cards.len()).rev() {
        let name = format!("{prefix}{i}");
        let sides = i as u32 + 1;
        match draws.draw(turn, &name, sides) {
            Some(j) if j < sides => cards.swap(i, j as usize),
            Some(j) => return Err(format!("the draw {name} answered {j}, not below {sides}")),
            None => return Err(format!("no draw {name} (turn {turn}, {sides} sides)")),
        }
    }
    Ok(())
}

/// Checks the players: 2 - 4, distinct names in any case.
fn check_players(players: &[String]) -> Result<(), StartError> {
    if !(2..=4).contains(&players.len()) {
        return Err(StartError::Players(format!(
            "One Day in London is for 2 - 4 players, not {}",
            players.len()
        )));
    }
    for (k, p) in players.iter().enumerate() {
        if p.trim().is_empty() {
            return Err(StartError::Players("a player has no name".into()));
        }
        if players[..k].iter().any(|q| same(q, p)) {
            return Err(StartError::Players(format!("{p} is a player twice")));
        }
    }
    Ok(())
}

/// Whether two player names are the same (any case).
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

impl State {
    /// A new game: the deck shuffled (`oneday-shuffle/1`) and dealt, set-up
    /// awaiting every player.
    pub fn start(
        players: &[String],
        rulings: Rulings,
        draws: &mut dyn Draws,
    ) -> Result<State, StartError> {
        check_players(players)?;
        let order = State::deck_order(draws).map_err(StartError::NoDraw)?;
        State::start_with_order(players, rulings, &order)
    }

    /// The deck in the order `draws` shuffle it (oneday-shuffle/1), top
    /// first: what [`State::start`] deals, and what `mornbot verify-dice`
    /// and `scripts/verify_dice.py ... deck` recompute from a revealed
    /// seed.
    ///
    /// # Errors
    ///
    /// The draw that could not be made.
    pub fn deck_order(draws: &mut dyn Draws) -> Result<Vec<CardId>, String> {
        let mut order: Vec<CardId> = (1..=CARDS as u8).map(CardId).collect();
        shuffle(&mut order, 0, "deck-", draws)?;
        Ok(order)
    }

    /// A new game dealt from a deck in the given order (the first card
    /// first): what [`State::start`] does after its shuffle; for cases and
    /// tests.
    pub fn start_with_order(
        players: &[String],
        rulings: Rulings,
        order: &[CardId],
    ) -> Result<State, StartError> {
        check_players(players)?;
        let sorted: BTreeSet<CardId> = order.iter().copied().collect();
        if order.len() != CARDS || sorted != (1..=CARDS as u8).map(CardId).collect() {
            return Err(StartError::Players(
                "the deck order must hold each card #1 - #72 once".into(),
            ));
        }
        let seats = players
            .iter()
            .enumerate()
            .map(|(k, p)| Seat {
                name: p.trim().to_string(),
                rack: [None; RACK],
                exposed: [false; RACK],
                deal: order[RACK * k..RACK * (k + 1)].to_vec(),
                stalemate: false,
            })
            .collect();
        Ok(State {
            rulings,
            seats,
            stock: order[RACK * players.len()..].to_vec(),
            piles: Default::default(),
            draw: Vec::new(),
            phase: Phase::Setup,
            turns: 0,
            reshuffles: 0,
        })
    }

    /// A game in play arranged by hand (for cases and tests): full racks in
    /// order of play, the piles bottom to top, the draw pile top first;
    /// seat `mover` to move. Every card must appear once (not checked here:
    /// see [`State::all_cards`]).
    pub fn arranged(
        players: &[String],
        rulings: Rulings,
        racks: &[[CardId; RACK]],
        piles: [Vec<CardId>; 3],
        draw_top_first: &[CardId],
        mover: usize,
    ) -> State {
        let seats = players
            .iter()
            .zip(racks)
            .map(|(p, r)| Seat {
                name: p.clone(),
                rack: r.map(Some),
                exposed: [false; RACK],
                deal: Vec::new(),
                stalemate: false,
            })
            .collect();
        State {
            rulings,
            seats,
            stock: Vec::new(),
            piles,
            draw: draw_top_first.iter().rev().copied().collect(),
            phase: Phase::Play { mover, drawn: None },
            turns: 0,
            reshuffles: 0,
        }
    }

    /// The deck (always the zone 1 deck).
    pub fn deck(&self) -> &'static Deck {
        Deck::zone1()
    }

    /// A card's name: its station's (OD2).
    pub fn card_name(&self, card: CardId) -> &'static str {
        let deck = self.deck();
        deck.card(card)
            .map_or("an unknown card", |c| deck.station(c.station).name.as_str())
    }

    /// The game's rulings.
    pub fn rulings(&self) -> &Rulings {
        &self.rulings
    }

    /// The players, in order of play.
    pub fn players(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    /// The seat of a player (any case).
    pub fn seat(&self, player: &str) -> Option<usize> {
        self.seats.iter().position(|s| same(&s.name, player))
    }

    /// A player's name by seat.
    pub(crate) fn name(&self, seat: usize) -> &str {
        &self.seats[seat].name
    }

    /// Where the game is.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// A player's rack, slot 1 first (None: no such player).
    pub fn rack(&self, player: &str) -> Option<[Option<CardId>; RACK]> {
        self.seat(player).map(|k| self.seats[k].rack)
    }

    /// Which of a player's slots hold an exposed card (OD4).
    pub fn exposed(&self, player: &str) -> Option<[bool; RACK]> {
        self.seat(player).map(|k| self.seats[k].exposed)
    }

    /// Discard pile `k` (1 - 3), bottom to top.
    pub fn pile(&self, k: u8) -> &[CardId] {
        &self.piles[(k as usize).clamp(1, 3) - 1]
    }

    /// The draw pile, top first.
    pub fn draw_pile(&self) -> Vec<CardId> {
        self.draw.iter().rev().copied().collect()
    }

    /// Reshuffles made so far.
    pub fn reshuffles(&self) -> u32 {
        self.reshuffles
    }

    /// The card a player has drawn and not yet placed or discarded.
    pub fn drawn(&self) -> Option<CardId> {
        match self.phase {
            Phase::Play { drawn, .. } => drawn,
            _ => None,
        }
    }

    /// The card a player is to place next in set-up.
    pub fn to_place(&self, player: &str) -> Option<CardId> {
        let k = self.seat(player)?;
        match self.phase {
            Phase::Setup => self.seats[k].deal.first().copied(),
            _ => None,
        }
    }

    /// Cards a player still has to place in set-up.
    pub fn placements_left(&self, player: &str) -> usize {
        match (self.seat(player), &self.phase) {
            (Some(k), Phase::Setup) => self.seats[k].deal.len(),
            _ => 0,
        }
    }

    /// Who agreed to a stalemate so far (OD13).
    pub fn stalemate_agreed(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter(|s| s.stalemate)
            .map(|s| s.name.clone())
            .collect()
    }

    /// Every card of the game, wherever it is: racks, still to place,
    /// undealt, piles, draw pile, the card drawn (72 distinct in a sound
    /// state).
    pub fn all_cards(&self) -> Vec<CardId> {
        let mut out: Vec<CardId> = Vec::new();
        for s in &self.seats {
            out.extend(s.rack.iter().flatten());
            out.extend(&s.deal);
        }
        out.extend(&self.stock);
        out.extend(self.piles.iter().flatten());
        out.extend(&self.draw);
        out.extend(self.drawn());
        out
    }

    /// Who is awaited and for what, or the end.
    pub fn next(&self) -> Next {
        match &self.phase {
            Phase::Setup => Next::Act {
                players: self
                    .seats
                    .iter()
                    .filter(|s| !s.deal.is_empty())
                    .map(|s| s.name.clone())
                    .collect(),
                step: Step::Placement,
            },
            Phase::Play { mover, drawn } => Next::Act {
                players: vec![self.seats[*mover].name.clone()],
                step: if drawn.is_some() {
                    Step::SecondStep
                } else {
                    Step::Turn
                },
            },
            Phase::Over { winners } => Next::Over {
                winners: winners
                    .iter()
                    .map(|&k| self.seats[k].name.clone())
                    .collect(),
            },
        }
    }

    /// The cards `viewer` may see now (None: the public, OD4): every card
    /// in a discard pile, every exposed rack card; a player also sees eir
    /// own rack, eir card to place and the card ey drew. After the end
    /// everyone sees everything.
    pub fn visible(&self, viewer: Option<&str>) -> BTreeSet<CardId> {
        if matches!(self.phase, Phase::Over { .. }) {
            return self.all_cards().into_iter().collect();
        }
        let mut out: BTreeSet<CardId> = self.piles.iter().flatten().copied().collect();
        for s in &self.seats {
            for k in 0..RACK {
                if let (Some(c), true) = (s.rack[k], s.exposed[k]) {
                    out.insert(c);
                }
            }
        }
        if let Some(k) = viewer.and_then(|v| self.seat(v)) {
            let seat = &self.seats[k];
            out.extend(seat.rack.iter().flatten());
            if let Phase::Setup = self.phase {
                out.extend(seat.deal.first());
            }
            if let Phase::Play {
                mover,
                drawn: Some(c),
            } = self.phase
            {
                if mover == k {
                    out.insert(c);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        ["Ann", "Bob", "Cy", "Di"][..n]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn start_shuffles_by_named_draws_and_deals() {
        let mut asked = Vec::new();
        let mut d = |turn: u64, name: &str, sides: u32| {
            asked.push((turn, name.to_string(), sides));
            Some(sides - 1)
        };
        let s = State::start(&names(3), Rulings::default(), &mut d).unwrap();
        assert_eq!(asked.len(), 71);
        assert_eq!(asked[0], (0, "deck-71".to_string(), 72));
        assert_eq!(asked[70], (0, "deck-1".to_string(), 2));
        // every draw answers i: nothing moves
        assert_eq!(s.to_place("ann"), Some(CardId(1)));
        assert_eq!(s.to_place("Cy"), Some(CardId(21)));
        assert_eq!(s.placements_left("Bob"), 10);
        assert_eq!(s.all_cards().len(), 72);
        assert_eq!(
            s.next(),
            Next::Act {
                players: names(3),
                step: Step::Placement
            }
        );
    }

    #[test]
    fn start_refuses_bad_players_and_missing_draws() {
        let mut d = |_: u64, _: &str, s: u32| Some(s - 1);
        assert!(matches!(
            State::start(&names(1), Rulings::default(), &mut d),
            Err(StartError::Players(_))
        ));
        let twice = vec!["Ann".to_string(), "ANN".to_string()];
        assert!(matches!(
            State::start(&twice, Rulings::default(), &mut d),
            Err(StartError::Players(_))
        ));
        assert!(matches!(
            State::start(&names(2), Rulings::default(), &mut crate::kinds::NoDraws),
            Err(StartError::NoDraw(_))
        ));
    }

    #[test]
    fn shuffle_swaps_as_drawn() {
        let mut cards: Vec<CardId> = (1..=4).map(CardId).collect();
        let mut d = |_: u64, _: &str, _: u32| Some(0);
        shuffle(&mut cards, 0, "x-", &mut d).unwrap();
        // i=3: swap 3,0 -> 4 2 3 1; i=2: swap 2,0 -> 3 2 4 1; i=1: swap 1,0 -> 2 3 4 1
        assert_eq!(cards, [2, 3, 4, 1].map(CardId));
    }

    #[test]
    fn rulings_from_pairs() {
        let r = Rulings::from_pairs([("hop_change", "forbid")]).unwrap();
        assert!(r.journey.forbid_hop_change);
        assert!(Rulings::from_pairs([("nope", "forbid")]).is_err());
    }
}
