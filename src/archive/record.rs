//! A stored game as the archive's records: its summary, and each turn
//! with its verdict, the GSD after it and the picture's overlay. Pure: a
//! function of the map and the rebuilt game ([`crate::daemon::referee::rebuild`]).

use super::model::{GameSummary, Refusal, Status, TurnRecord, Verdict};
use super::ArchiveError;
use crate::daemon::referee::{Event, Stored};
use crate::map::Map;
use crate::picture::{overlay_svg, Scene};

/// The summary of a stored game, its pages in directory `slug`.
pub fn summary(stored: &Stored, slug: String) -> GameSummary {
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
        .chain(stored.events.iter().map(|(at, _)| *at))
        .fold(started, |a, b| a.max(b));
    GameSummary {
        tag: game.tag.clone(),
        slug,
        players: stored.def.players.iter().map(|(n, _)| n.clone()).collect(),
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

/// The attempts at turn `n` the bot refused, from the events.
fn refusals(stored: &Stored, n: usize) -> Vec<Refusal> {
    stored
        .events
        .iter()
        .filter_map(|(_, e)| match e {
            Event::BotBuzz(r) if r.turn == n => Some(Refusal {
                play: r.play.clone(),
                ruling: false,
                rules: r.violations.clone(),
            }),
            Event::NeedsRuling(r) if r.turn == n => Some(Refusal {
                play: r.play.clone(),
                ruling: true,
                rules: r.rulings.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// Every turn of a stored game in order, each with the overlay SVG of the
/// game after it: the game's own fold ([`crate::engine::Game::steps`]).
///
/// # Errors
///
/// [`ArchiveError::Replay`] if the log no longer replays (it did when the
/// game was rebuilt, so only for a map that changed under it), and
/// [`ArchiveError::Picture`] if a state names a station the map lacks.
pub fn turns(map: &Map, stored: &Stored) -> Result<Vec<(TurnRecord, String)>, ArchiveError> {
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
