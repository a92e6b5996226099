//! The games' records: games, the turn log, processed messages, the mailbox
//! high-water mark, timers and events, and [`Store::commit`].

use super::*;

impl Store {
    /// Records a game if it is not yet known; returns whether it was new.
    pub fn ensure_game(&mut self, tag: &str, definition: &str, now: DateTime<Utc>) -> Result<bool> {
        Ok(self.ensure_games(&[(tag.to_string(), definition.to_string())], now)? == 1)
    }

    /// Records the games not yet known, `(tag, definition)`, in one
    /// transaction (start-up's configured games: one fsync, not one each);
    /// returns how many were new.
    pub fn ensure_games(
        &mut self,
        games: &[(String, String)],
        now: DateTime<Utc>,
    ) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let mut new = 0;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR IGNORE INTO games (tag, definition, created_at) VALUES (?1, ?2, ?3)",
            )?;
            for (tag, definition) in games {
                new += st.execute(params![tag, definition, ms(now)])?;
            }
        }
        tx.commit()?;
        Ok(new)
    }

    /// A value of the `meta` table.
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
            .query_row(params![key], |r| r.get(0))
            .optional()?)
    }

    /// Sets a value of the `meta` table.
    pub fn set_meta(&mut self, key: &str, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = ?2",
            params![key, value],
        )?;
        Ok(())
    }

    /// Replaces games' definitions, `(tag, definition)`, in one transaction.
    pub fn set_definitions(&mut self, games: &[(String, String)]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached("UPDATE games SET definition = ?2 WHERE tag = ?1")?;
            for (tag, definition) in games {
                st.execute(params![tag, definition])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Every stored game, by tag.
    pub fn games(&self) -> Result<Vec<GameRow>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT tag, definition, created_at FROM games ORDER BY tag")?;
        let rows = st.query_map([], |r| {
            Ok(GameRow {
                tag: r.get(0)?,
                definition: r.get(1)?,
                created_at: from_ms(r.get(2)?),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The turn log of a game, in order.
    pub fn turns(&self, game: &str) -> Result<Vec<TurnRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT n, player, play, message_id, submitted_at FROM turns WHERE game = ?1 ORDER BY n",
        )?;
        let rows = st.query_map(params![game], |r| {
            Ok(TurnRow {
                n: r.get::<_, i64>(0)? as u64,
                player: r.get(1)?,
                play: r.get(2)?,
                message_id: r.get(3)?,
                submitted_at: from_ms(r.get(4)?),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Whether a message (by Message-ID) was already processed.
    pub fn is_processed(&self, message_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM processed WHERE message_id = ?1")?
            .exists(params![message_id])?)
    }

    /// Whether the message at this IMAP position was already processed.
    pub fn is_processed_uid(&self, source: &str, uidvalidity: u32, uid: u32) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT 1 FROM processed WHERE source = ?1 AND uidvalidity = ?2 AND uid = ?3",
            )?
            .exists(params![source, uidvalidity, uid])?)
    }

    /// The UIDVALIDITY and highest processed UID of a mailbox.
    pub fn mailbox(&self, source: &str) -> Result<Option<(u32, u32)>> {
        Ok(self
            .conn
            .prepare_cached("SELECT uidvalidity, last_uid FROM mailboxes WHERE source = ?1")?
            .query_row(params![source], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    /// Sets a mailbox's UIDVALIDITY and high-water UID (after a resync).
    pub fn set_mailbox(&mut self, source: &str, uidvalidity: u32, last_uid: u32) -> Result<()> {
        self.conn.execute(
            "INSERT INTO mailboxes (source, uidvalidity, last_uid) VALUES (?1, ?2, ?3)
             ON CONFLICT (source) DO UPDATE SET uidvalidity = ?2, last_uid = ?3",
            params![source, uidvalidity, last_uid],
        )?;
        Ok(())
    }

    /// Commits everything one message causes, in one transaction.
    pub fn commit(&mut self, c: &Commit) -> Result<()> {
        let now = c.received_at.unwrap_or_else(Utc::now);
        let tx = self.conn.transaction()?;
        for (game, keep) in &c.truncate {
            tx.execute(
                "DELETE FROM turns WHERE game = ?1 AND n > ?2",
                params![game, *keep as i64],
            )?;
        }
        for (game, t) in &c.turns {
            tx.execute(
                "INSERT INTO turns (game, n, player, play, message_id, submitted_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    game,
                    t.n as i64,
                    t.player,
                    t.play,
                    t.message_id,
                    ms(t.submitted_at)
                ],
            )?;
        }
        for (game, kind, data) in &c.events {
            tx.execute(
                "INSERT INTO events (game, at, kind, data) VALUES (?1, ?2, ?3, ?4)",
                params![game, ms(now), kind, data],
            )?;
        }
        for m in &c.outbox {
            tx.execute(
                "INSERT OR IGNORE INTO outbox (message_id, envelope_from, recipients, raw, created_at, next_attempt_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
                // Delivery runs on the wall clock, whatever clock the game
                // runs on (tests speed the Speaker's up).
                params![m.message_id, m.envelope_from, m.recipients.join(","), m.raw, ms(Utc::now())],
            )?;
        }
        for (id, owed) in &c.pictures {
            tx.execute(
                "INSERT OR IGNORE INTO outbox_pictures (message_id, owed) VALUES (?1, ?2)",
                params![id, owed],
            )?;
        }
        for (game, kind, key) in &c.timers {
            tx.execute(
                "INSERT OR IGNORE INTO timers (game, kind, key, due_at, done_at) VALUES (?1, ?2, ?3, ?4, ?4)",
                params![game, kind, key, ms(now)],
            )?;
        }
        // Only a reply whose delivery began (and was not refused) is
        // confirmed: a mail forged From mornbot with a Message-ID it will
        // use cannot stop a reply that is not yet on its way.
        for id in &c.echoed {
            tx.execute(
                "UPDATE outbox SET sent_at = ?2, attempt_started_at = NULL
                 WHERE message_id = ?1 AND sent_at IS NULL AND attempt_started_at IS NOT NULL",
                params![id, ms(now)],
            )?;
        }
        super::lobby::commit(&tx, c, now)?;
        dice::commit(&tx, c, now)?;
        super::gambits::commit(&tx, c, now)?;
        super::ending::commit(&tx, c, now)?;
        for snap in &c.snapshots {
            snapshots::put(&tx, snap)?;
        }
        if let Some(p) = &c.processed {
            let origin = &p.origin;
            tx.execute(
                "INSERT OR IGNORE INTO processed (message_id, source, uidvalidity, uid, received_at, game, kind, summary)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![p.message_id, origin.source, origin.uidvalidity, origin.uid, ms(now), p.game, p.kind, p.summary],
            )?;
            if let (Some(v), Some(u)) = (origin.uidvalidity, origin.uid) {
                tx.execute(
                    "INSERT INTO mailboxes (source, uidvalidity, last_uid) VALUES (?1, ?2, ?3)
                     ON CONFLICT (source) DO UPDATE SET uidvalidity = ?2, last_uid = max(last_uid, ?3)",
                    params![origin.source, v, u],
                )?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Whether a Speaker act was done (see [`Commit::timers`]).
    pub fn timer_done(&self, game: &str, kind: &str, key: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM timers WHERE game = ?1 AND kind = ?2 AND key = ?3")?
            .exists(params![game, kind, key])?)
    }

    /// The Speaker events of a game, oldest first.
    pub fn events(&self, game: &str) -> Result<Vec<EventRow>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT id, at, kind, data FROM events WHERE game = ?1 ORDER BY id")?;
        let rows = st.query_map(params![game], |r| {
            Ok(EventRow {
                id: r.get(0)?,
                at: from_ms(r.get(1)?),
                kind: r.get(2)?,
                data: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
