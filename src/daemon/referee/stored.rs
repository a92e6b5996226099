//! A stored game rebuilt from its rows: its definition, its state (from
//! its snapshot, or the fold of its turn log) and its Speaker events. The
//! referee loads games this way, and the game archive
//! ([`crate::archive`]) reads games the same way, so there is one rebuild.

use chrono::{DateTime, Utc};

use super::{snapshot, start_state, Definition, Event, GameConfigDef, RefereeError};
use crate::kinds::vol1::{parse_play, Game, GameState, Play};
use crate::map::Map;
use crate::store::{GameRow, Snapshot, Store, TurnRow};

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

/// A game's rows, read and decoded, before its plays are folded.
struct Rows {
    def: GameConfigDef,
    start: GameState,
    turns: Vec<TurnRow>,
    plays: Vec<Play>,
    events: Vec<(DateTime<Utc>, Event)>,
    last_event: i64,
    resigned: Vec<(usize, String)>,
    judged: Vec<usize>,
    acks: Vec<String>,
    ended: bool,
}

/// Rebuilds the game `row` of `store` by replay: its definition, every
/// turn of its log folded (each must replay as legal, or as Legal by
/// Judgment) and its events decoded.
///
/// # Errors
///
/// [`RefereeError::Store`] when the database fails; [`RefereeError::Game`]
/// when the definition, a turn or an event does not read back, or the log
/// no longer replays.
pub fn rebuild(map: &Map, store: &Store, row: &GameRow) -> Result<Stored, RefereeError> {
    let rows = read(map, store, row)?;
    fold(map, row, rows)
}

/// Restores the game `row` of `store` from `snap`, its snapshot, when the
/// snapshot decodes and still folds exactly the log (its turns and
/// events): the plays are parsed, not replayed. Otherwise rebuilds it by
/// replay, logging why. Returns the game and whether it was replayed.
///
/// # Errors
///
/// As [`rebuild`].
pub(super) fn restore(
    map: &Map,
    store: &Store,
    row: &GameRow,
    snap: Option<&Snapshot>,
) -> Result<(Stored, bool), RefereeError> {
    let rows = read(map, store, row)?;
    let Some(snap) = snap else {
        return Ok((fold(map, row, rows)?, true));
    };
    let last_turn = rows.turns.last().map_or(0, |t| t.n);
    let why = if snap.row.version != snapshot::VERSION {
        format!("its snapshot's version is {}", snap.row.version)
    } else if (snap.turns, snap.last_event) != (last_turn, rows.last_event) {
        format!(
            "its snapshot folds turn {} and event {}, the log has {last_turn} and {}",
            snap.turns, snap.last_event, rows.last_event
        )
    } else {
        match snapshot::decode(&snap.row.state) {
            Ok(mut state) => {
                // Gambits declared since in other games (Rule 1.18.2).
                state.gambits.lounge = rows.start.gambits.lounge.clone();
                let game = Game {
                    tag: row.tag.clone(),
                    start: rows.start,
                    plays: rows.plays,
                    state,
                    resigned: rows.resigned,
                    judged: rows.judged,
                };
                return Ok((
                    Stored {
                        def: rows.def,
                        game,
                        turns: rows.turns,
                        events: rows.events,
                        created_at: row.created_at,
                        acks: rows.acks,
                        ended: rows.ended,
                    },
                    false,
                ));
            }
            Err(e) => format!("its snapshot does not decode ({e})"),
        }
    };
    tracing::warn!(game = %row.tag, "rebuilt by replay: {why}");
    Ok((fold(map, row, rows)?, true))
}

/// The Gambits declared in the lounge's other games (Rule 1.18.2, RULINGS
/// E111): this game's own come back as its log replays.
///
/// # Errors
///
/// [`RefereeError::Store`] when the database fails; a stored Gambit that
/// does not decode is an error, never skipped.
pub(super) fn lounge(
    store: &Store,
    tag: &str,
) -> Result<Vec<crate::kinds::vol1::Gambit>, RefereeError> {
    store
        .gambits(tag)?
        .into_iter()
        .map(|g| {
            serde_json::from_str(&g.data).map_err(|e| RefereeError::Game {
                tag: g.game.clone(),
                detail: format!(
                    "the {} Gambit of turn {} does not decode: {e}",
                    g.name, g.turn
                ),
            })
        })
        .collect()
}

/// Reads and decodes the rows of game `row`.
fn read(map: &Map, store: &Store, row: &GameRow) -> Result<Rows, RefereeError> {
    let bad = |detail: String| RefereeError::Game {
        tag: row.tag.clone(),
        detail,
    };
    let def: Definition = serde_json::from_str(&row.definition).map_err(|e| bad(e.to_string()))?;
    let mut start = start_state(&def.config, map).map_err(bad)?;
    start.gambits.lounge = lounge(store, &row.tag)?;
    let turns = store.turns(&row.tag)?;
    let n_turns = turns.len();
    let mut plays = Vec::with_capacity(turns.len());
    for t in &turns {
        plays.push(parse_play(&t.play, map).map_err(|e| bad(format!("turn {}: {e}", t.n)))?);
    }
    let event_rows = store.events(&row.tag)?;
    let last_event = event_rows.last().map_or(0, |e| e.id);
    // An event that does not decode is an error, never skipped:
    // a game rebuilt without it would be another game.
    let events = Event::decode_all(&event_rows).map_err(bad)?;
    let mut rows = Rows {
        def: def.config,
        start,
        turns,
        plays,
        events: Vec::new(),
        last_event,
        resigned: Vec::new(),
        judged: Vec::new(),
        acks: Vec::new(),
        ended: false,
    };
    for (_, e) in &events {
        match e {
            Event::Resigned(n, who) => rows.resigned.push((*n, who.clone())),
            Event::Judged(j) if j.legal && j.turn >= 1 && j.turn as usize <= n_turns => {
                rows.judged.push(j.turn as usize - 1)
            }
            Event::NoBuzz(n, who) if *n == n_turns => rows.acks.push(who.clone()),
            Event::Ended(n) => rows.ended |= *n == n_turns,
            _ => {}
        }
    }
    rows.events = events;
    Ok(rows)
}

/// Folds the plays of `rows`: the replay.
fn fold(map: &Map, row: &GameRow, rows: Rows) -> Result<Stored, RefereeError> {
    let game = Game::from_log_judged(
        map,
        &row.tag,
        rows.start,
        rows.plays,
        rows.resigned,
        rows.judged,
    )
    .map_err(|b| RefereeError::Game {
        tag: row.tag.clone(),
        detail: format!(
            "turn {} no longer replays as legal: {:?}",
            b.index + 1,
            b.outcome.violations
        ),
    })?;
    Ok(Stored {
        def: rows.def,
        game,
        turns: rows.turns,
        events: rows.events,
        created_at: row.created_at,
        acks: rows.acks,
        ended: rows.ended,
    })
}
