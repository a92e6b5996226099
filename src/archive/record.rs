//! A stored game as the archive's records: its summary, and each turn
//! with its verdict, the GSD after it and the picture's overlay. Pure: a
//! function of the map and the game as read ([`Archived`], which a
//! [`Source`] gives).

use chrono::{DateTime, Utc};

use super::model::{GameSummary, Refusal, Status, TurnRecord, Verdict};
use super::ArchiveError;
use crate::kinds::vol1::Game;
use crate::map::Map;
use crate::picture::{overlay_svg, Scene};
use crate::store::{GameRow, Store, TurnRow};

/// A Volume 1 game as the archive reads it: its players, the fold of its
/// log, its turn rows, the attempts the bot refused and when its events
/// were stored. No type of the daemon's: a [`Source`] makes it.
#[derive(Clone, Debug)]
pub struct Archived {
    /// Its players as defined, in order.
    pub players: Vec<String>,
    /// The game: start, legal plays, resignations, Judgments, the fold.
    pub game: Game,
    /// The turn log as stored.
    pub turns: Vec<TurnRow>,
    /// The attempts the bot refused (buzzed, or sent for a ruling), each
    /// with the turn number it was for.
    pub refusals: Vec<(usize, Refusal)>,
    /// When each of its Speaker events was stored.
    pub event_times: Vec<DateTime<Utc>>,
    /// When the game was first stored.
    pub created_at: DateTime<Utc>,
    /// Whether it has ended.
    pub ended: bool,
}

/// Where the archive reads a Volume 1 game from: the fold of its rows,
/// as the daemon reads it on a restart (`daemon::ArchiveSource`), so that
/// the archive never judges a game otherwise than the referee did.
pub trait Source {
    /// The game of `row`, read from `store` and folded on `map`.
    ///
    /// # Errors
    ///
    /// Why it does not read or fold.
    fn volume1(&self, map: &Map, store: &Store, row: &GameRow) -> Result<Archived, String>;
}

/// The summary of a stored game, its pages in directory `slug`.
pub fn summary(stored: &Archived, slug: String) -> GameSummary {
    let game = &stored.game;
    let winner = game.state.winner.clone();
    let status = match (stored.ended, winner) {
        (true, winner) => Status::Ended { winner },
        (false, Some(winner)) => Status::Won { winner },
        (false, None) => Status::Running,
    };
    let started = stored.created_at;
    let last_activity = stored
        .turns
        .iter()
        .map(|t| t.submitted_at)
        .chain(stored.event_times.iter().copied())
        .fold(started, |a, b| a.max(b));
    GameSummary {
        tag: game.tag.clone(),
        slug,
        players: stored.players.clone(),
        to_play: (status == Status::Running)
            .then(|| game.state.players.get(game.state.to_play))
            .flatten()
            .map(|p| p.name.clone()),
        status,
        turns: stored.turns.len(),
        started,
        last_activity,
        resigned: game.resigned.clone(),
    }
}

/// The directory name for a game's pages: its tag when that is a safe file
/// name, else `game-{index}` (the game's place in the index).
pub fn slug(tag: &str, index: usize) -> String {
    let safe = !tag.is_empty()
        && tag.len() <= 64
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if safe {
        tag.to_string()
    } else {
        format!("game-{}", index + 1)
    }
}

/// The attempts at turn `n` the bot refused.
fn refusals(stored: &Archived, n: usize) -> Vec<Refusal> {
    stored
        .refusals
        .iter()
        .filter(|(t, _)| *t == n)
        .map(|(_, r)| r.clone())
        .collect()
}

/// Every turn of a stored game in order, each with the overlay SVG of the
/// game after it: the game's own fold (`Game::steps`).
///
/// # Errors
///
/// [`ArchiveError::Replay`] if the log no longer replays (it did when the
/// game was rebuilt, so only for a map that changed under it), and
/// [`ArchiveError::Picture`] if a state names a station the map lacks.
pub fn turns(map: &Map, stored: &Archived) -> Result<Vec<(TurnRecord, String)>, ArchiveError> {
    let game = &stored.game;
    let mut out = Vec::with_capacity(stored.turns.len());
    let mut failed = None;
    let mut won = game.start.winner.is_some();
    let replayed = game.steps(map, |step| {
        if failed.is_some() {
            return;
        }
        let Some(state) = step.outcome.state.clone() else {
            return;
        };
        let Some(row) = stored.turns.get(step.index) else {
            return;
        };
        let n = step.index + 1;
        let plays = &game.plays[..n];
        // The tables alone: the Plays so far are the game page's, so a
        // turn page is sized by the game, not by its square (issue 40).
        let gsd = crate::kinds::vol1::tables(&state, &game.tag, map);
        let record = TurnRecord {
            n,
            player: row.player.clone(),
            play: row.play.clone(),
            submitted_at: row.submitted_at,
            verdict: Verdict {
                judged: step.judged,
                changes: step.outcome.changes.clone(),
                // Only the turn that won says so.
                winner: state.winner.clone().filter(|_| !won),
                refused: refusals(stored, n),
            },
            next: state
                .winner
                .is_none()
                .then(|| state.players.get(state.to_play).map(|p| p.name.clone()))
                .flatten(),
            time: state.time.to_string(),
            gsd,
        };
        won |= state.winner.is_some();
        let scene = Scene::after_plays(map, &game.tag, state, plays);
        match overlay_svg(map, &scene) {
            Ok(svg) => out.push((record, svg)),
            Err(e) => failed = Some(e),
        }
    });
    if let Some(e) = failed {
        return Err(ArchiveError::Picture {
            tag: game.tag.clone(),
            source: e,
        });
    }
    replayed.map_err(|b| ArchiveError::Replay {
        tag: game.tag.clone(),
        turn: b.index + 1,
    })?;
    Ok(out)
}
