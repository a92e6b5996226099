//! Games' snapshots (issue 20): each game's state after its last committed
//! change, so that start-up and a cache miss replay nothing. A snapshot is
//! derived data: written in the same transaction as the change it
//! follows, stamped there with the log's position, and trusted only while
//! that position is still the log's.

use super::*;

/// The columns of a snapshot, without its state (start-up reads these).
const HEAD: &str = "s.version, s.turns, s.last_event, s.due_key, s.due_at";

impl Store {
    /// Every game with its snapshot's header and its log's position, by tag:
    /// what start-up needs to schedule each game without loading it.
    pub fn index(&self) -> Result<Vec<IndexRow>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT g.tag, g.definition, g.created_at, {HEAD},
                    (SELECT coalesce(max(n), 0) FROM turns t WHERE t.game = g.tag),
                    (SELECT coalesce(max(id), 0) FROM events e WHERE e.game = g.tag)
             FROM games g LEFT JOIN snapshots s INDEXED BY snapshots_head ON s.game = g.tag
             ORDER BY g.tag"
        ))?;
        let rows = st.query_map([], |r| {
            let game = GameRow {
                tag: r.get(0)?,
                definition: r.get(1)?,
                created_at: from_ms(r.get(2)?),
            };
            let snapshot = head(r, &game.tag, 3)?;
            Ok(IndexRow {
                game,
                snapshot,
                turns: r.get::<_, i64>(8)? as u64,
                last_event: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// One game's row, if stored.
    pub fn game(&self, tag: &str) -> Result<Option<GameRow>> {
        Ok(self
            .conn
            .prepare_cached("SELECT tag, definition, created_at FROM games WHERE tag = ?1")?
            .query_row(params![tag], |r| {
                Ok(GameRow {
                    tag: r.get(0)?,
                    definition: r.get(1)?,
                    created_at: from_ms(r.get(2)?),
                })
            })
            .optional()?)
    }

    /// A game's snapshot, state included, if it has one.
    pub fn snapshot(&self, game: &str) -> Result<Option<Snapshot>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {HEAD}, s.state FROM snapshots s WHERE s.game = ?1"
        ))?;
        let found = st
            .query_row(params![game], |r| {
                let mut s = head(r, game, 0)?.expect("the row exists");
                s.row.state = r.get(5)?;
                Ok(s)
            })
            .optional()?;
        Ok(found)
    }

    /// Writes snapshots in a transaction of their own (start-up's rebuilds).
    pub fn put_snapshots(&mut self, rows: &[SnapshotRow]) -> Result<()> {
        let tx = self.conn.transaction()?;
        for s in rows {
            put(&tx, s)?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// Writes `s` inside a transaction, stamped with the game's log position as
/// the transaction sees it (after the commit's own turns and events).
pub(super) fn put(tx: &rusqlite::Transaction<'_>, s: &SnapshotRow) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO snapshots (game, version, turns, last_event, due_key, due_at, state)
         VALUES (?1, ?2,
                 (SELECT coalesce(max(n), 0) FROM turns WHERE game = ?1),
                 (SELECT coalesce(max(id), 0) FROM events WHERE game = ?1),
                 ?3, ?4, ?5)
         ON CONFLICT (game) DO UPDATE SET version = excluded.version, turns = excluded.turns,
             last_event = excluded.last_event, due_key = excluded.due_key,
             due_at = excluded.due_at, state = excluded.state",
        params![s.game, s.version, s.due_key, s.due_at.map(ms), s.state],
    )?;
    Ok(())
}

/// A snapshot's header from columns `at..at + 5` (none when the left join
/// found no snapshot); its state left empty.
fn head(r: &rusqlite::Row<'_>, game: &str, at: usize) -> rusqlite::Result<Option<Snapshot>> {
    let Some(version) = r.get::<_, Option<String>>(at)? else {
        return Ok(None);
    };
    Ok(Some(Snapshot {
        row: SnapshotRow {
            game: game.to_string(),
            version,
            due_key: r.get(at + 3)?,
            due_at: r.get::<_, Option<i64>>(at + 4)?.map(from_ms),
            state: String::new(),
        },
        turns: r.get::<_, i64>(at + 1)? as u64,
        last_event: r.get(at + 2)?,
    }))
}
