//! What the Speaker needs to know who is late (issue 17, item 6): when
//! each standing Stalemate agreement was made, and which waiting notices
//! went out.

use super::*;
use crate::speaker::stalemate::Agreement;

impl Store {
    /// A game's Stalemate agreements with when each was made, oldest
    /// first.
    pub fn stalemate_agreements_at(&self, game: &str) -> Result<Vec<(Agreement, DateTime<Utc>)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT player, turns, last, at FROM stalemate WHERE game = ?1 ORDER BY at, player",
        )?;
        let rows = st.query_map(params![game], |r| {
            Ok((
                Agreement {
                    player: r.get(0)?,
                    turns: r.get::<_, i64>(1)? as usize,
                    last: r.get(2)?,
                },
                from_ms(r.get(3)?),
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The keys of a game's Speaker acts of `kind` (see
    /// [`Commit::timers`]) that begin with `prefix`.
    pub fn timer_keys(&self, game: &str, kind: &str, prefix: &str) -> Result<Vec<String>> {
        let mut st = self.conn.prepare_cached(
            "SELECT key FROM timers WHERE game = ?1 AND kind = ?2
             AND substr(key, 1, length(?3)) = ?3 ORDER BY key",
        )?;
        let rows = st.query_map(params![game, kind, prefix], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
