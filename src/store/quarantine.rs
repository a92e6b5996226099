//! Messages set aside because judging them failed or panicked: recorded
//! with the mail itself, and as processed (so that no restart reads them
//! again), so one poison message can never stop the daemon twice.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::{from_ms, ms, Origin, Result, Store};

/// A quarantined message, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quarantined {
    /// Row id.
    pub id: i64,
    /// Its Message-ID (or the one mornbot made up for it).
    pub message_id: String,
    /// Where it came from.
    pub origin: Origin,
    /// When it was set aside.
    pub at: DateTime<Utc>,
    /// Why: the error or the panic's message.
    pub reason: String,
    /// The mail as received (its head only, when it was too large to
    /// download).
    pub raw: Vec<u8>,
}

impl Store {
    /// Sets a message aside: records it, and records it as processed (kind
    /// `quarantined`), in one transaction.
    pub fn quarantine(
        &mut self,
        message_id: &str,
        origin: &Origin,
        reason: &str,
        raw: &[u8],
        now: DateTime<Utc>,
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO quarantine (message_id, source, uidvalidity, uid, at, reason, raw)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                message_id,
                origin.source,
                origin.uidvalidity,
                origin.uid,
                ms(now),
                reason,
                raw
            ],
        )?;
        tx.execute(
            "INSERT OR IGNORE INTO processed (message_id, source, uidvalidity, uid, received_at, game, kind, summary)
             VALUES (?1, ?2, ?3, ?4, ?5, NULL, 'quarantined', ?6)",
            params![message_id, origin.source, origin.uidvalidity, origin.uid, ms(now), reason],
        )?;
        if let (Some(v), Some(u)) = (origin.uidvalidity, origin.uid) {
            tx.execute(
                "INSERT INTO mailboxes (source, uidvalidity, last_uid) VALUES (?1, ?2, ?3)
                 ON CONFLICT (source) DO UPDATE SET uidvalidity = ?2, last_uid = max(last_uid, ?3)",
                params![origin.source, v, u],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every quarantined message, oldest first.
    pub fn quarantined(&self) -> Result<Vec<Quarantined>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, message_id, source, uidvalidity, uid, at, reason, raw
             FROM quarantine ORDER BY id",
        )?;
        let rows = st.query_map([], |r| {
            Ok(Quarantined {
                id: r.get(0)?,
                message_id: r.get(1)?,
                origin: Origin {
                    source: r.get(2)?,
                    uidvalidity: r.get(3)?,
                    uid: r.get(4)?,
                },
                at: from_ms(r.get(5)?),
                reason: r.get(6)?,
                raw: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }
}
