//! A game as the daemon keeps it: a starting state and the log of legal
//! plays, the current state being their fold (rollback is a replay).

use crate::engine::{adjudicate, replay, GameState, Outcome, Verdict};
use crate::gsd::{Gsd, Luggage, Play, PlayerRow, Stack};
use crate::map::Map;

/// A game: its tag, its starting state and the legal plays so far.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's tag (Rule 1.1.7), e.g. `MN12`.
    pub tag: String,
    /// The state before the first play (Rules 1.1.2, 1.1.8).
    pub start: GameState,
    /// Every legal play, in order.
    pub plays: Vec<Play>,
    /// The fold of `plays` over `start`.
    pub state: GameState,
}

/// A log that does not replay: the index of the first play that is not
/// Legal, and its outcome.
#[derive(Debug)]
pub struct BadLog {
    /// 0-based index into the log.
    pub index: usize,
    /// What the engine said about it.
    pub outcome: Outcome,
}

impl Game {
    /// A game with no plays yet.
    pub fn new(tag: &str, start: GameState) -> Game {
        Game {
            tag: tag.to_string(),
            state: start.clone(),
            start,
            plays: Vec::new(),
        }
    }

    /// Rebuilds a game from its log: every play must be Legal.
    pub fn from_log(
        map: &Map,
        tag: &str,
        start: GameState,
        plays: Vec<Play>,
    ) -> Result<Game, Box<BadLog>> {
        let (state, stop) = replay(map, start.clone(), &plays);
        if let Some((index, outcome)) = stop {
            return Err(Box::new(BadLog { index, outcome }));
        }
        Ok(Game {
            tag: tag.to_string(),
            start,
            plays,
            state,
        })
    }

    /// Judges a play against the current state without changing the game.
    pub fn judge(&self, map: &Map, play: &Play) -> Outcome {
        adjudicate(map, &self.state, play)
    }

    /// Judges a play and, when it is Legal, appends it to the log.
    pub fn play(&mut self, map: &Map, play: Play) -> Outcome {
        let out = self.judge(map, &play);
        if let (Verdict::Legal, Some(next)) = (out.verdict, &out.state) {
            self.state = next.clone();
            self.plays.push(play);
        }
        out
    }

    /// Removes plays `n..` and recomputes the state from the log: the
    /// rollback after an Illegal judgment (Rule 1.16.4) is a replay.
    pub fn truncate(&mut self, map: &Map, n: usize) {
        self.plays.truncate(n);
        let (state, _) = replay(map, self.start.clone(), &self.plays);
        self.state = state;
    }

    /// The name of the player whose Turn it is.
    pub fn to_play(&self) -> &str {
        &self.state.players[self.state.to_play].name
    }

    /// The canonical GSD of the game as it stands.
    pub fn gsd(&self, map: &Map) -> Gsd {
        let s = &self.state;
        let players = s
            .players
            .iter()
            .map(|p| PlayerRow {
                name: p.name.clone(),
                active: p.active,
                home: p.home.map(|h| map.station(h).name.clone()),
                lv: p.lv,
                charge: p.charge,
                tokens: p.tokens,
            })
            .collect();
        let luggage = s
            .players
            .iter()
            .filter(|p| !p.possessions.is_empty())
            .map(|p| Luggage {
                player: p.name.clone(),
                items: p.possessions.clone(),
            })
            .collect();
        let stacks = s
            .stacks
            .iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(id, tokens)| {
                let st = map.station(*id);
                Stack {
                    station: st.name.clone(),
                    quadrants: st.quadrants.clone(),
                    tokens: tokens.clone(),
                }
            })
            .collect();
        Gsd {
            game: Some(self.tag.clone()),
            players,
            disruptions: s.disruptions.clone(),
            time: Some(s.time),
            wild: s
                .wild
                .iter()
                .map(|w| map.station(*w).name.clone())
                .collect(),
            courier: None,
            stacks,
            luggage,
            lost_and_found: Vec::new(),
            plays: self.plays.clone(),
        }
    }
}
