//! The bot's dice (RULINGS S14): each game's seed and commitment, and the
//! draws made from it. The seed is read only by the referee (to draw, and to
//! reveal it when the game ends) and by `mornbot verify-dice` after that.

use super::*;

impl Store {
    /// Records a seed for each game `(tag, seed hex, commitment)` that has
    /// none yet, in one transaction; returns how many were new. A game's
    /// seed never changes once recorded.
    pub fn ensure_dice(
        &mut self,
        seeds: &[(String, String, String)],
        now: DateTime<Utc>,
    ) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let mut new = 0;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR IGNORE INTO dice (game, seed, commitment, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (tag, seed, commitment) in seeds {
                new += st.execute(params![tag, seed, commitment, ms(now)])?;
            }
        }
        tx.commit()?;
        Ok(new)
    }

    /// The games recorded without dice, by tag.
    pub fn games_without_dice(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare_cached(
            "SELECT g.tag FROM games g LEFT JOIN dice d ON d.game = g.tag
             WHERE d.game IS NULL ORDER BY g.tag",
        )?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The games whose commitment is not yet published: `(tag,
    /// commitment)`, by tag.
    pub fn dice_unpublished(&self) -> Result<Vec<(String, String)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, commitment FROM dice WHERE published_at IS NULL ORDER BY game",
        )?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Game `tag`'s dice, if it has any.
    pub fn dice(&self, tag: &str) -> Result<Option<DiceRow>> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT game, seed, commitment, published_at, revealed_at FROM dice WHERE game = ?1",
            )?
            .query_row(params![tag], |r| {
                Ok(DiceRow {
                    game: r.get(0)?,
                    seed: r.get(1)?,
                    commitment: r.get(2)?,
                    published_at: r.get::<_, Option<i64>>(3)?.map(from_ms),
                    revealed_at: r.get::<_, Option<i64>>(4)?.map(from_ms),
                })
            })
            .optional()?;
        Ok(row)
    }

    /// Every draw of game `tag`, by turn and then name.
    pub fn draws(&self, tag: &str) -> Result<Vec<DrawRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT game, turn, name, sides, value FROM draws WHERE game = ?1 ORDER BY turn, name",
        )?;
        let rows = st.query_map(params![tag], |r| {
            Ok(DrawRow {
                game: r.get(0)?,
                turn: r.get::<_, i64>(1)?.max(0) as u64,
                name: r.get(2)?,
                sides: u32::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
                value: u32::try_from(r.get::<_, i64>(4)?).unwrap_or(0),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Writes a [`Commit`]'s draws, publications and reveals.
pub(super) fn commit(tx: &rusqlite::Transaction<'_>, c: &Commit, now: DateTime<Utc>) -> Result<()> {
    for d in &c.draws {
        tx.execute(
            "INSERT OR IGNORE INTO draws (game, turn, name, sides, value, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![d.game, d.turn as i64, d.name, d.sides, d.value, ms(now)],
        )?;
    }
    for tag in &c.dice_published {
        tx.execute(
            "UPDATE dice SET published_at = ?2 WHERE game = ?1 AND published_at IS NULL",
            params![tag, ms(now)],
        )?;
    }
    for tag in &c.dice_revealed {
        tx.execute(
            "UPDATE dice SET revealed_at = ?2 WHERE game = ?1 AND revealed_at IS NULL",
            params![tag, ms(now)],
        )?;
    }
    Ok(())
}
