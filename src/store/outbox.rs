//! The outbox: replies waiting to be sent, their attempts, and their
//! delivery.

use super::*;

/// A reply to mark sent ([`Store::mark_all_sent`]): its id and when.
pub type SentMark = (i64, DateTime<Utc>);

impl Store {
    /// Replies due for a delivery attempt at `now`, oldest first.
    pub fn due_mail(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<OutMail>> {
        let mut st = self.conn.prepare_cached(
            "SELECT o.id, o.message_id, o.envelope_from, o.recipients, o.raw, o.attempts, p.owed
             FROM outbox o LEFT JOIN outbox_pictures p ON p.message_id = o.message_id
             WHERE o.sent_at IS NULL AND o.next_attempt_at <= ?1 ORDER BY o.id LIMIT ?2",
        )?;
        let rows = st.query_map(params![ms(now), limit as i64], |r| {
            let rcpt: String = r.get(3)?;
            Ok(OutMail {
                id: r.get(0)?,
                message_id: r.get(1)?,
                envelope_from: r.get(2)?,
                recipients: rcpt
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                raw: r.get(4)?,
                attempts: r.get::<_, i64>(5)? as u32,
                owed: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The earliest pending delivery attempt, if any reply is unsent.
    pub fn next_mail_due(&self) -> Result<Option<DateTime<Utc>>> {
        let v: Option<i64> = self
            .conn
            .prepare_cached("SELECT min(next_attempt_at) FROM outbox WHERE sent_at IS NULL")?
            .query_row([], |r| r.get(0))?;
        Ok(v.map(from_ms))
    }

    /// Records that delivery attempts are starting, for every reply of a
    /// batch about to be sent one after another, in one transaction (one
    /// fsync for the batch): should the process die before
    /// [`Store::mark_sent`], a reply is known to be unconfirmed. After a crash in the middle of it, every reply of the batch
    /// still unsent is unconfirmed, deferred by [`Store::defer_unconfirmed`]
    /// and then sent (or confirmed by its echo), never lost.
    pub fn begin_attempts(&mut self, ids: &[i64], now: DateTime<Utc>) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "UPDATE outbox SET attempt_started_at = ?2 WHERE id = ?1 AND sent_at IS NULL",
            )?;
            for id in ids {
                st.execute(params![id, ms(now)])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Takes back [`Store::begin_attempts`] for replies of a batch that
    /// were not tried after all (a failure or a stop cut the batch short):
    /// they are due as before, not unconfirmed.
    pub fn end_attempts(&mut self, ids: &[i64]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "UPDATE outbox SET attempt_started_at = NULL WHERE id = ?1 AND sent_at IS NULL",
            )?;
            for id in ids {
                st.execute(params![id])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// At start-up: replies whose last attempt was cut short by a crash may
    /// have been delivered. Their retry waits until `until`, so that their
    /// copy can confirm them first: a lounge post coming back through the
    /// list, a private mail's blind copy in mornbot's own mailbox (see
    /// [`Commit::echoed`]). They stay marked as attempted, which is what
    /// lets a copy confirm them. Returns how many were deferred.
    pub fn defer_unconfirmed(&mut self, until: DateTime<Utc>) -> Result<usize> {
        Ok(self.conn.execute(
            "UPDATE outbox SET next_attempt_at = max(next_attempt_at, ?1)
             WHERE sent_at IS NULL AND attempt_started_at IS NOT NULL",
            params![ms(until)],
        )?)
    }

    /// Marks a reply delivered.
    ///
    /// Not fsynced on its own (`synchronous = NORMAL` for this commit
    /// only): it is in the write-ahead log, so it survives the process
    /// being killed, and the next fsync'd commit (any judged message)
    /// makes it durable. A power loss before that leaves the reply as a
    /// crash between sending and this mark does: its attempt mark
    /// ([`Store::begin_attempts`], fsynced) makes it unconfirmed, deferred
    /// until its echo confirms it or it is sent again with the same
    /// Message-ID. An fsync here would hold the database's write lock for
    /// one disk flush a reply, which the judging waits behind.
    ///
    /// A reply that was owed a picture keeps its text and the scene its
    /// picture was drawn from, not the picture: the message as sent is
    /// [`crate::daemon::referee::Painter::finish`] of them (the same bytes
    /// while the drawing and `[limits]` are unchanged), and the outbox does
    /// not grow by a PNG (about 100 KB) a verdict. Both are dropped after
    /// `[outbox] keep_sent_days` ([`Store::prune_sent`]).
    pub fn mark_sent(&mut self, id: i64, now: DateTime<Utc>) -> Result<()> {
        self.mark_all_sent(&[(id, now)])
    }

    /// [`Store::mark_sent`] for several replies, in one commit: the
    /// sender's marks that were waiting together.
    pub fn mark_all_sent(&mut self, marks: &[SentMark]) -> Result<()> {
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        let done = self.mark_sent_tx(marks);
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        done
    }

    fn mark_sent_tx(&mut self, marks: &[SentMark]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut st = tx.prepare_cached(
                "UPDATE outbox SET sent_at = ?2, attempts = attempts + 1, last_error = NULL,
                 attempt_started_at = NULL WHERE id = ?1 AND sent_at IS NULL",
            )?;
            for &(id, now) in marks {
                st.execute(params![id, ms(now)])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Drops the text (and owed picture scene) of replies delivered before
    /// `before`, keeping their rows (a Message-ID is never queued twice):
    /// the text is kept only for looking at what went out. Each call looks
    /// only at replies delivered since the last call's `before` (kept in
    /// `meta`), so a daily call costs the day's replies. Returns how many
    /// were dropped.
    pub fn prune_sent(&mut self, before: DateTime<Utc>) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let since: i64 = tx
            .query_row(
                "SELECT value FROM meta WHERE key = 'outbox_pruned_before'",
                [],
                |r| r.get::<_, String>(0),
            )
            .optional()?
            .and_then(|v| v.parse().ok())
            .unwrap_or(i64::MIN);
        let before = ms(before);
        if before <= since {
            return Ok(0);
        }
        tx.execute(
            "DELETE FROM outbox_pictures WHERE message_id IN
             (SELECT message_id FROM outbox WHERE sent_at >= ?1 AND sent_at < ?2)",
            params![since, before],
        )?;
        let dropped = tx.execute(
            "UPDATE outbox SET raw = x'' WHERE sent_at >= ?1 AND sent_at < ?2 AND length(raw) > 0",
            params![since, before],
        )?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('outbox_pruned_before', ?1)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![before.to_string()],
        )?;
        tx.commit()?;
        Ok(dropped)
    }

    /// Records a failed attempt and when to retry.
    pub fn mark_failed(&mut self, id: i64, error: &str, retry_at: DateTime<Utc>) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_attempt_at = ?3,
             attempt_started_at = NULL WHERE id = ?1",
            params![id, error, ms(retry_at)],
        )?;
        Ok(())
    }

    /// Counts of unsent and sent replies.
    pub fn outbox_counts(&self) -> Result<(u64, u64)> {
        Ok(self.conn.query_row(
            "SELECT count(*) FILTER (WHERE sent_at IS NULL), count(*) FILTER (WHERE sent_at IS NOT NULL) FROM outbox",
            [],
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )?)
    }

    /// The recipients of each reply queued in the last `window` of wall
    /// time, one entry a reply (the rate of replies to strangers).
    pub fn recent_recipients(&self, window: chrono::Duration) -> Result<Vec<String>> {
        let since = ms(Utc::now() - window);
        let mut st = self
            .conn
            .prepare_cached("SELECT recipients FROM outbox WHERE created_at >= ?1")?;
        let rows = st.query_map([since], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every reply ever queued, in order (tests and `HISTORY`).
    pub fn all_mail(&self) -> Result<Vec<OutMail>> {
        let mut st = self.conn.prepare_cached(
            "SELECT o.id, o.message_id, o.envelope_from, o.recipients, o.raw, o.attempts, p.owed
             FROM outbox o LEFT JOIN outbox_pictures p ON p.message_id = o.message_id ORDER BY o.id",
        )?;
        let rows = st.query_map([], |r| {
            let rcpt: String = r.get(3)?;
            Ok(OutMail {
                id: r.get(0)?,
                message_id: r.get(1)?,
                envelope_from: r.get(2)?,
                recipients: rcpt.split(',').map(str::to_string).collect(),
                raw: r.get(4)?,
                attempts: r.get::<_, i64>(5)? as u32,
                owed: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
