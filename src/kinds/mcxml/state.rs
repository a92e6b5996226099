//! The state of an mc-xml game: trains, tokens, parts, closed stations,
//! whose turn it is, and the winner. Everything is public (the seed has no
//! hidden information).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::actions::Part;
use super::facts::Facts;
use super::rulings::Rulings;
use crate::map::StationId;

/// Held or bought counts of each part, indexed by [`Part::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parts(pub [u32; 4]);

impl Parts {
    /// How many of `p`.
    pub fn get(&self, p: Part) -> u32 {
        self.0[p.index()]
    }

    /// A mutable count of `p`.
    pub fn get_mut(&mut self, p: Part) -> &mut u32 {
        &mut self.0[p.index()]
    }

    /// The sum of two counts, part by part.
    pub fn plus(self, other: Parts) -> Parts {
        let mut out = self;
        for p in Part::ALL {
            *out.get_mut(p) = out.get(p).saturating_add(other.get(p));
        }
        out
    }

    /// Whether every count is 0.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }
}

/// A player's train and holdings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Train {
    /// The player's name, as given when the game began.
    pub name: String,
    /// Where the train stands.
    pub at: StationId,
    /// Tokens held (never below 0, Rule 4).
    pub tokens: u32,
    /// Station parts held.
    pub parts: Parts,
}

/// A station closed by a Block (Rule 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Closure {
    /// The station.
    pub station: StationId,
    /// The strength it was blocked with (its Unblock costs twice this).
    pub strength: u32,
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The trains in order of play.
    pub trains: Vec<Train>,
    /// Parts bought so far in the game, per kind (RULINGS MX11: parts never
    /// leave the game, so the maxima count purchases).
    pub bought: Parts,
    /// Stations closed by Blocks, in the order they were closed.
    pub closed: Vec<Closure>,
    /// Whether Mornington Crescent is still closed for rebuilding (Rule 1):
    /// no Block put it there and no Unblock lifts it; only Build does.
    pub rebuilding: bool,
    /// The index into `trains` of the player whose turn it is.
    pub to_play: usize,
    /// The index of the winner, once a Build has ended the game.
    pub winner: Option<usize>,
    /// Turns played so far (Timeouts included).
    pub turns: u32,
    /// The game's choices on contested rulings.
    pub rulings: Rulings,
}

/// A game that cannot start as asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    /// Rule 1: "The game may be played by 2 or more players."
    #[error("mc-xml needs 2 or more players (Rule 1), not {0}")]
    TooFew(usize),
    /// Two players of the same name (compared as Volume 1 compares them).
    #[error("two players are named {0:?}")]
    SameName(String),
    /// An empty name.
    #[error("a player's name is empty")]
    EmptyName,
}

/// Whether two player names are the same name (trimmed, ASCII case
/// ignored: as Volume 1 matches them).
pub fn same_player(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

impl State {
    /// The state at the start (Rule 1): every train at Tottenham Court
    /// Road, nothing held, Mornington Crescent closed for rebuilding, the
    /// first player to play.
    pub fn start(players: &[String], rulings: Rulings) -> Result<State, StartError> {
        Self::start_on(Facts::london(), players, rulings)
    }

    /// [`State::start`] on the given map facts.
    pub fn start_on(
        facts: &Facts,
        players: &[String],
        rulings: Rulings,
    ) -> Result<State, StartError> {
        if players.len() < 2 {
            return Err(StartError::TooFew(players.len()));
        }
        for (i, p) in players.iter().enumerate() {
            if p.trim().is_empty() {
                return Err(StartError::EmptyName);
            }
            if players[..i].iter().any(|q| same_player(p, q)) {
                return Err(StartError::SameName(p.clone()));
            }
        }
        Ok(State {
            trains: players
                .iter()
                .map(|p| Train {
                    name: p.clone(),
                    at: facts.tottenham(),
                    tokens: 0,
                    parts: Parts::default(),
                })
                .collect(),
            bought: Parts::default(),
            closed: Vec::new(),
            rebuilding: true,
            to_play: 0,
            winner: None,
            turns: 0,
            rulings,
        })
    }

    /// The index of the player named `name`, if any.
    pub fn player(&self, name: &str) -> Option<usize> {
        self.trains.iter().position(|t| same_player(&t.name, name))
    }

    /// The train whose turn it is.
    pub fn current(&self) -> &Train {
        &self.trains[self.to_play]
    }

    /// The strength of the Block closing `s`, if one does.
    pub fn block(&self, s: StationId) -> Option<u32> {
        self.closed
            .iter()
            .find(|c| c.station == s)
            .map(|c| c.strength)
    }

    /// Whether `s` is closed, by a Block or for rebuilding.
    pub fn is_closed(&self, facts: &Facts, s: StationId) -> bool {
        self.block(s).is_some() || (self.rebuilding && s == facts.mornington())
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// How many of `p` are left to buy (`None`: unlimited), never below 0.
    pub fn supply(&self, p: Part) -> Option<u32> {
        p.maximum(self.trains.len())
            .map(|m| m.saturating_sub(self.bought.get(p)))
    }

    /// The index of the player after `i` in order of play.
    pub fn next_after(&self, i: usize) -> usize {
        (i + 1) % self.trains.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_start_is_rule_1s() {
        let f = Facts::london();
        let s = State::start(&names(&["Alice", "Bob"]), Rulings::default()).unwrap();
        assert!(s.trains.iter().all(|t| t.at == f.tottenham()));
        assert!(s.trains.iter().all(|t| t.tokens == 0 && t.parts.is_empty()));
        assert!(s.is_closed(f, f.mornington()));
        assert!(s.closed.is_empty());
        assert_eq!(s.current().name, "Alice");
        assert_eq!(s.supply(Part::Platform), Some(3));
        assert_eq!(s.supply(Part::Ticket), None);
    }

    #[test]
    fn a_start_needs_two_distinct_players() {
        let r = Rulings::default();
        assert_eq!(
            State::start(&names(&["Alice"]), r),
            Err(StartError::TooFew(1))
        );
        assert_eq!(
            State::start(&names(&["Alice", "alice "]), r),
            Err(StartError::SameName("alice ".into()))
        );
    }
}
