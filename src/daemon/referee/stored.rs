//! A stored game rebuilt from its rows: its definition, the fold of its
//! turn log and its Speaker events. The referee loads every game this way
//! at start, and the game archive ([`crate::archive`]) reads games the same
//! way, so there is one rebuild.

use chrono::{DateTime, Utc};

use super::{start_state, Definition, Event, GameConfigDef, RefereeError};
use crate::engine::Game;
use crate::gsd::parse_play;
use crate::map::Map;
use crate::store::{GameRow, Store, TurnRow};

/// A game as the store holds it, rebuilt.
#[derive(Clone, Debug)]
pub struct Stored {
    /// Its definition.
    pub def: GameConfigDef,
    /// The game: start state, the legal plays, resignations and Judgments.
    pub game: Game,
    /// The turn log as stored (who, when, which message).
    pub turns: Vec<TurnRow>,
    /// Its Speaker events, decoded, oldest first.
    pub events: Vec<(DateTime<Utc>, Event)>,
    /// When the game was first stored: the first player's clock starts.
    pub created_at: DateTime<Utc>,
    /// Players who acknowledged not buzzing the winning turn.
    pub acks: Vec<String>,
    /// Whether the game has ended (a win acknowledged or unbuzzed).
    pub ended: bool,
}

/// Rebuilds the game `row` of `store`: its definition, every turn of its
/// log folded (each must replay as legal, or as Legal by Judgment) and
/// its events decoded.
///
/// # Errors
///
/// [`RefereeError::Store`] when the database fails; [`RefereeError::Game`]
/// when the definition, a turn or an event does not read back, or the log
/// no longer replays.
pub fn rebuild(map: &Map, store: &Store, row: &GameRow) -> Result<Stored, RefereeError> {
    let bad = |detail: String| RefereeError::Game {
        tag: row.tag.clone(),
        detail,
    };
    let def: Definition = serde_json::from_str(&row.definition).map_err(|e| bad(e.to_string()))?;
    let start = start_state(&def.config, map).map_err(bad)?;
    let turns = store.turns(&row.tag)?;
    let n_turns = turns.len();
    let mut plays = Vec::with_capacity(turns.len());
    for t in &turns {
        plays.push(parse_play(&t.play, map).map_err(|e| bad(format!("turn {}: {e}", t.n)))?);
    }
    // An event that does not decode is an error, never skipped:
    // a game rebuilt without it would be another game.
    let events = Event::decode_all(&store.events(&row.tag)?).map_err(bad)?;
    let mut resigned = Vec::new();
    let mut judged = Vec::new();
    let mut acks = Vec::new();
    let mut ended = false;
    for (_, e) in &events {
        match e {
            Event::Resigned(n, who) => resigned.push((*n, who.clone())),
            Event::Judged(j) if j.legal && j.turn >= 1 && j.turn as usize <= n_turns => {
                judged.push(j.turn as usize - 1)
            }
            Event::NoBuzz(n, who) if *n == n_turns => acks.push(who.clone()),
            Event::Ended(n) => ended |= *n == n_turns,
            _ => {}
        }
    }
    let game =
        Game::from_log_judged(map, &row.tag, start, plays, resigned, judged).map_err(|b| {
            bad(format!(
                "turn {} no longer replays as legal: {:?}",
                b.index + 1,
                b.outcome.violations
            ))
        })?;
    Ok(Stored {
        def: def.config,
        game,
        turns,
        events,
        created_at: row.created_at,
        acks,
        ended,
    })
}
