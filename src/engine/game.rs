//! A game as the daemon keeps it: a starting state and the log of legal
//! plays, the current state being their fold (rollback is a replay).

use crate::engine::adjudicate::adjudicate_judged;
use crate::engine::{adjudicate, GameState, Outcome, Verdict};
use crate::gsd::{Gsd, Play};
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
    /// Resignations (Rules 1.1.3, 1.1.10): `(n, player)`, the player left
    /// after the first `n` plays.
    pub resigned: Vec<(usize, String)>,
    /// 0-based indices of the plays a Judgment made Legal: folded as far as
    /// the engine can play them, whatever its verdict (RULINGS S11).
    pub judged: Vec<usize>,
}

/// One play of a game's log as the fold met it (see [`Game::steps`]).
#[derive(Debug)]
pub struct Step<'a> {
    /// 0-based index into the log.
    pub index: usize,
    /// The play.
    pub play: &'a Play,
    /// Whether a Judgment made it Legal (RULINGS S11).
    pub judged: bool,
    /// The engine's outcome: what changed, and the state after the play.
    pub outcome: &'a Outcome,
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
            resigned: Vec::new(),
            judged: Vec::new(),
        }
    }

    /// Rebuilds a game from its log: every play must be Legal.
    pub fn from_log(
        map: &Map,
        tag: &str,
        start: GameState,
        plays: Vec<Play>,
    ) -> Result<Game, Box<BadLog>> {
        Game::from_log_with(map, tag, start, plays, Vec::new())
    }

    /// [`Game::from_log`], with the resignations made along the way.
    pub fn from_log_with(
        map: &Map,
        tag: &str,
        start: GameState,
        plays: Vec<Play>,
        resigned: Vec<(usize, String)>,
    ) -> Result<Game, Box<BadLog>> {
        let mut g = Game {
            tag: tag.to_string(),
            state: start.clone(),
            start,
            plays,
            resigned,
            judged: Vec::new(),
        };
        g.refold(map)?;
        Ok(g)
    }

    /// [`Game::from_log_with`], with the plays made Legal by Judgment.
    pub fn from_log_judged(
        map: &Map,
        tag: &str,
        start: GameState,
        plays: Vec<Play>,
        resigned: Vec<(usize, String)>,
        judged: Vec<usize>,
    ) -> Result<Game, Box<BadLog>> {
        let mut g = Game {
            tag: tag.to_string(),
            state: start.clone(),
            start,
            plays,
            resigned,
            judged,
        };
        g.refold(map)?;
        Ok(g)
    }

    fn refold(&mut self, map: &Map) -> Result<(), Box<BadLog>> {
        let (state, stop) = fold(map, &self.start, &self.plays, &self.resigned, &self.judged);
        if let Some((index, outcome)) = stop {
            return Err(Box::new(BadLog { index, outcome }));
        }
        self.state = state;
        Ok(())
    }

    /// Appends a play a Judgment made Legal (the Speaker's or a Referee's
    /// word stands), played as far as the engine can; `None` when it is
    /// not the Turn of the player to move.
    pub fn play_by_judgment(&mut self, map: &Map, play: Play) -> Option<Outcome> {
        let out = adjudicate_judged(map, &self.state, &play);
        let next = out.state.clone()?;
        self.state = next;
        self.judged.push(self.plays.len());
        self.plays.push(play);
        Some(out)
    }

    /// A player Resigns (Rule 1.1.3; Rule 1.1.10 after two months without
    /// a move): gone from the Token Table with eir Tokens and Possessions,
    /// eir Home ownerless; a last non-Drone player Wins.
    pub fn resign(&mut self, name: &str) -> bool {
        if resign(&mut self.state, name) {
            self.resigned.push((self.plays.len(), name.to_string()));
            true
        } else {
            false
        }
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
        self.resigned.retain(|(k, _)| *k <= n);
        self.judged.retain(|k| *k < n);
        let (state, _) = fold(map, &self.start, &self.plays, &self.resigned, &self.judged);
        self.state = state;
    }

    /// Folds the log again from the start, calling `each` with every play
    /// and its outcome in order (the state after each play, for a record
    /// of the game turn by turn). The same fold as the game's own.
    pub fn steps(&self, map: &Map, mut each: impl FnMut(Step<'_>)) -> Result<(), Box<BadLog>> {
        let (_, stop) = fold_each(
            map,
            &self.start,
            &self.plays,
            &self.resigned,
            &self.judged,
            &mut each,
        );
        match stop {
            Some((index, outcome)) => Err(Box::new(BadLog { index, outcome })),
            None => Ok(()),
        }
    }

    /// The name of the player whose Turn it is.
    pub fn to_play(&self) -> &str {
        &self.state.players[self.state.to_play].name
    }

    /// The canonical GSD of the game as it stands.
    pub fn gsd(&self, map: &Map) -> Gsd {
        self.state.to_gsd(map, Some(&self.tag), &self.plays)
    }
}

/// Removes a player from a state (Rule 1.1.3); false if e is not in it.
pub fn resign(state: &mut GameState, name: &str) -> bool {
    let Some(i) = state.player_index(name) else {
        return false;
    };
    let was_to_play = state.to_play == i;
    state.players.remove(i);
    state.blocks.retain(|b| !b.by.eq_ignore_ascii_case(name));
    // What the fold kept of eir Turns and Clamps goes with em.
    state.began.retain(|b| !b.player.eq_ignore_ascii_case(name));
    state.toffs.retain(|t| !t.player.eq_ignore_ascii_case(name));
    state
        .tithes
        .retain(|t| !t.player.eq_ignore_ascii_case(name));
    state.blasted.retain(|b| !b.eq_ignore_ascii_case(name));
    state
        .received
        .retain(|r| !r.player.eq_ignore_ascii_case(name));
    state
        .prisons
        .retain(|p| !p.player.eq_ignore_ascii_case(name));
    // The Drone Stick leaves with its carrier, idling the Drone (Rule 1.15.1).
    state.refresh_drone();
    if state.players.is_empty() {
        state.to_play = 0;
        return true;
    }
    if state.to_play > i {
        state.to_play -= 1;
    } else if was_to_play {
        // The next player in order takes the turn.
        let j = state.to_play % state.players.len();
        state.to_play = if state.players[j].active {
            j
        } else {
            state.next_active(j)
        };
    }
    if !state.players[state.to_play].active {
        state.to_play = state.next_active(state.to_play);
    }
    let left: Vec<&str> = state
        .players
        .iter()
        .filter(|p| !crate::engine::is_drone(&p.name))
        .map(|p| p.name.as_str())
        .collect();
    if left.len() == 1 && state.winner.is_none() {
        state.winner = Some(left[0].to_string());
    }
    true
}

/// Folds plays and resignations; stops at the first play not Legal.
fn fold(
    map: &Map,
    start: &GameState,
    plays: &[Play],
    resigned: &[(usize, String)],
    judged: &[usize],
) -> (GameState, Option<(usize, Outcome)>) {
    fold_each(map, start, plays, resigned, judged, &mut |_| {})
}

/// [`fold`], calling `each` with every Legal play and its outcome.
fn fold_each(
    map: &Map,
    start: &GameState,
    plays: &[Play],
    resigned: &[(usize, String)],
    judged: &[usize],
    each: &mut dyn FnMut(Step<'_>),
) -> (GameState, Option<(usize, Outcome)>) {
    let mut state = start.clone();
    for i in 0..=plays.len() {
        for (_, name) in resigned.iter().filter(|(k, _)| *k == i) {
            resign(&mut state, name);
        }
        let Some(play) = plays.get(i) else { break };
        let out = if judged.contains(&i) {
            let mut o = adjudicate_judged(map, &state, play);
            o.verdict = Verdict::Legal;
            o
        } else {
            adjudicate(map, &state, play)
        };
        match (&out.verdict, &out.state) {
            (Verdict::Legal, Some(next)) => {
                state = next.clone();
                each(Step {
                    index: i,
                    play,
                    judged: judged.contains(&i),
                    outcome: &out,
                });
            }
            _ => return (state, Some((i, out))),
        }
    }
    (state, None)
}
