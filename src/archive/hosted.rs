//! Games of other kinds than Volume 1 in the web archive (issue 41): read
//! from the store through [`crate::kinds`] alone (the definition's kind,
//! players and rulings, the log folded by the kind), each with one page:
//! the state document, the picture and the log. Nothing here reaches the
//! daemon.

use serde::Deserialize;

use super::html::{escape, hosted_page};
use super::model::{GameSummary, Status};
use crate::kinds::{Kind, Next, Viewer};
use crate::store::{GameRow, Store};

/// What the archive reads of a stored definition (the daemon writes it).
#[derive(Deserialize)]
struct Stored {
    config: Config,
}

#[derive(Deserialize)]
struct Config {
    #[serde(default)]
    kind: Kind,
    players: Vec<(String, String)>,
    #[serde(default)]
    kind_rulings: Vec<(String, String)>,
}

/// A hosted game's page and its summary for the index.
pub(super) struct Hosted {
    /// Its line in the index.
    pub(super) summary: GameSummary,
    /// Its page.
    pub(super) page: String,
}

/// Whether `row` is a game of another kind than Volume 1.
pub(super) fn is_hosted(row: &GameRow) -> bool {
    serde_json::from_str::<Stored>(&row.definition).is_ok_and(|d| d.config.kind != Kind::MnVol1)
}

/// The page and summary of hosted game `row`, its directory `slug`.
///
/// # Errors
///
/// A sentence when its definition does not read or its log does not fold.
pub(super) fn read(store: &Store, row: &GameRow, slug: String) -> Result<Hosted, String> {
    let def: Stored = serde_json::from_str(&row.definition).map_err(|e| e.to_string())?;
    let Config {
        kind,
        players,
        kind_rulings,
    } = def.config;
    let turns = store.turns(&row.tag).map_err(|e| e.to_string())?;
    let log: Vec<(String, String)> = turns
        .iter()
        .map(|t| (t.player.clone(), t.play.clone()))
        .collect();
    // A late joiner is in the log (`#join`), whether or not the definition
    // kept eir address: the fold adds em.
    let names: Vec<String> = players.into_iter().map(|p| p.0).collect();
    // Draws inside the game (a bag's coins) come back from their records:
    // the archive never needs the seed (`Recorded` answers a recorded
    // face k as the index k - 1, as the daemon gave it).
    let mut draws = crate::kinds::Recorded(
        store
            .draws(&row.tag)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|d| (d.turn, d.name, d.sides, d.value))
            .collect(),
    );
    let position = kind
        .fold_drawing(&names, &kind_rulings, &log, &mut draws)
        .map_err(|e| e.to_string())?;
    let (status, to_play) = match position.next() {
        Next::Over { winners } => (
            Status::Ended {
                winner: winners.into_iter().next(),
            },
            None,
        ),
        Next::Act { players, .. } => (Status::Running, players.into_iter().next()),
    };
    let last = turns.last().map_or(row.created_at, |t| t.submitted_at);
    let summary = GameSummary {
        tag: row.tag.clone(),
        slug,
        players: position.players(),
        status,
        to_play,
        turns: position.turns() as usize,
        started: row.created_at,
        last_activity: last,
        resigned: Vec::new(),
    };
    let mut history = String::new();
    for t in &turns {
        let timeout = if t.message_id.starts_with("timeout-") {
            " (Timeout)"
        } else {
            ""
        };
        history.push_str(&format!(
            "<li><b>{}</b>{timeout}<pre>{}</pre></li>\n",
            escape(&t.player),
            escape(&t.play)
        ));
    }
    let page = hosted_page(
        &row.tag,
        kind.title(),
        &position.render(&Viewer::Public, None),
        // A picture that cannot be drawn leaves the page without one.
        &position.picture_svg().unwrap_or_default(),
        &history,
    );
    Ok(Hosted { summary, page })
}
