//! The web archive's reader of Volume 1 games: the referee's own fold of a
//! game's rows ([`rebuild`]), handed to the archive as plain records, so
//! that the archive knows nothing of the loop and never judges a game
//! otherwise than the referee did.

use crate::archive::model::Refusal;
use crate::archive::record::{Archived, Source};
use crate::map::Map;
use crate::store::{GameRow, Store};

use super::referee::{rebuild, Event};

/// The [`Source`] `mornbot archive build` reads Volume 1 games with.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArchiveSource;

impl Source for ArchiveSource {
    fn volume1(&self, map: &Map, store: &Store, row: &GameRow) -> Result<Archived, String> {
        let stored = rebuild(map, store, row).map_err(|e| e.to_string())?;
        let refusals = stored
            .events
            .iter()
            .filter_map(|(_, e)| match e {
                Event::BotBuzz(r) => Some((
                    r.turn,
                    Refusal {
                        play: r.play.clone(),
                        ruling: false,
                        rules: r.violations.clone(),
                    },
                )),
                Event::NeedsRuling(r) => Some((
                    r.turn,
                    Refusal {
                        play: r.play.clone(),
                        ruling: true,
                        rules: r.rulings.clone(),
                    },
                )),
                _ => None,
            })
            .collect();
        Ok(Archived {
            players: stored.def.players.iter().map(|(n, _)| n.clone()).collect(),
            event_times: stored.events.iter().map(|(at, _)| *at).collect(),
            refusals,
            game: stored.game,
            turns: stored.turns,
            created_at: stored.created_at,
            ended: stored.ended,
        })
    }
}
