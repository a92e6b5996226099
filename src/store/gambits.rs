//! Gambits declared by legal Declaractions (Rule 1.18.2, RULINGS E111):
//! kept after the game that declared them ends, and given to every game
//! of the lounge. A turn taken back takes its Gambit with it.

use super::*;

/// One declared Gambit as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GambitRow {
    /// The game it was declared in.
    pub game: String,
    /// The turn (1-based) that declared it.
    pub turn: u64,
    /// Its name.
    pub name: String,
    /// The Gambit, JSON of [`crate::engine::gambit::Gambit`].
    pub data: String,
}

impl Store {
    /// Every Gambit declared in a game other than `except`, oldest first.
    pub fn gambits(&self, except: &str) -> Result<Vec<GambitRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, turn, name, data FROM gambits WHERE game <> ?1 ORDER BY at, game, turn",
        )?;
        let rows = st.query_map(params![except], |r| {
            Ok(GambitRow {
                game: r.get(0)?,
                turn: r.get::<_, i64>(1)? as u64,
                name: r.get(2)?,
                data: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Writes a [`Commit`]'s Gambits, after dropping those of turns it takes
/// back.
pub(super) fn commit(tx: &rusqlite::Transaction<'_>, c: &Commit, now: DateTime<Utc>) -> Result<()> {
    for (game, keep) in &c.truncate {
        tx.execute(
            "DELETE FROM gambits WHERE game = ?1 AND turn > ?2",
            params![game, *keep as i64],
        )?;
    }
    for g in &c.gambits {
        tx.execute(
            "INSERT OR IGNORE INTO gambits (game, turn, name, data, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![g.game, g.turn as i64, g.name, g.data, ms(now)],
        )?;
    }
    Ok(())
}
