//! SQLite storage: games, the turn log, processed messages, the outbox and
//! timers.
//!
//! Exactly once: everything a message causes (turns appended or removed,
//! replies queued, the message marked processed, the mailbox high-water
//! mark) is written by one [`Store::commit`], one SQLite transaction. Only
//! after it returns is the message flagged on the server, and a message
//! already recorded is never judged again, so a crash at any point replays
//! to the same state and the same mails.

mod health;

use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use rusqlite::{params, Connection, OptionalExtension};

pub use health::{backup, check, Health};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The database file exists but is empty: truncated or replaced.
    #[error(
        "{}: the database is empty (0 bytes), but it should hold the games: it was truncated or \
         replaced. mornbot will not start on it, so that no game silently restarts from turn 0. \
         Restore your last backup (see README, \"Back up and restore\"), or, to start every game \
         afresh, delete the file.",
        path.display()
    )]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// SQLite's check found damage.
    #[error(
        "{}: the database is damaged ({}{}). mornbot will not start on it. Copy it aside, restore \
         your last backup (see README, \"Back up and restore\"); `mornbot check-db` lists every \
         problem.",
        path.display(),
        problems.first().map_or("", String::as_str),
        if problems.len() > 1 { format!("; {} problems", problems.len()) } else { String::new() }
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What `PRAGMA quick_check` or `integrity_check` reported.
        problems: Vec<String>,
    },
    /// A file that cannot be read or written.
    #[error("{}: {detail}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
    /// A stored value that cannot be read back.
    #[error("database: corrupt value in {table}: {detail}")]
    Corrupt {
        /// The table.
        table: &'static str,
        /// What was wrong.
        detail: String,
    },
}

/// Store results.
pub type Result<T> = std::result::Result<T, StoreError>;

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    tag TEXT PRIMARY KEY,
    definition TEXT NOT NULL,        -- JSON: start time and players
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    game TEXT NOT NULL REFERENCES games(tag),
    n INTEGER NOT NULL,              -- 1-based turn number
    player TEXT NOT NULL,
    play TEXT NOT NULL,              -- the canonical play line
    message_id TEXT NOT NULL,
    submitted_at INTEGER NOT NULL,   -- ms since the epoch, when the server received it
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,            -- mailbox name, or "maildir"
    uidvalidity INTEGER,
    uid INTEGER,
    received_at INTEGER NOT NULL,
    game TEXT,
    kind TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS processed_uid ON processed (source, uidvalidity, uid);
CREATE TABLE IF NOT EXISTS mailboxes (
    source TEXT PRIMARY KEY,
    uidvalidity INTEGER NOT NULL,
    last_uid INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    envelope_from TEXT NOT NULL,
    recipients TEXT NOT NULL,        -- comma-separated
    raw BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    attempt_started_at INTEGER,      -- set while a delivery is under way
    sent_at INTEGER,
    last_error TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (sent_at, next_attempt_at);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL               -- JSON
);
CREATE TABLE IF NOT EXISTS timers (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    done_at INTEGER,
    UNIQUE (game, kind, key)
);
"#;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 1;

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The tag.
    pub tag: String,
    /// The definition, as JSON.
    pub definition: String,
    /// When the game was first stored: its first player's clock starts.
    pub created_at: DateTime<Utc>,
}

/// A turn of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRow {
    /// 1-based turn number.
    pub n: u64,
    /// Who played it.
    pub player: String,
    /// The canonical play line.
    pub play: String,
    /// The message that carried it.
    pub message_id: String,
    /// When the server received it.
    pub submitted_at: DateTime<Utc>,
}

/// A reply waiting in (or sent from) the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutMail {
    /// Row id.
    pub id: i64,
    /// The stable Message-ID (without angle brackets).
    pub message_id: String,
    /// SMTP envelope sender.
    pub envelope_from: String,
    /// SMTP envelope recipients.
    pub recipients: Vec<String>,
    /// The whole message, RFC 5322.
    pub raw: Vec<u8>,
    /// Delivery attempts so far.
    pub attempts: u32,
}

/// A reply to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMail {
    /// The stable Message-ID (without angle brackets).
    pub message_id: String,
    /// SMTP envelope sender.
    pub envelope_from: String,
    /// SMTP envelope recipients.
    pub recipients: Vec<String>,
    /// The whole message.
    pub raw: Vec<u8>,
}

/// Where a message came from, for the processed-messages table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Mailbox name (IMAP folder) or `maildir`.
    pub source: String,
    /// IMAP UIDVALIDITY, if any.
    pub uidvalidity: Option<u32>,
    /// IMAP UID, if any.
    pub uid: Option<u32>,
}

/// A processed message, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processed {
    /// Its Message-ID (without angle brackets).
    pub message_id: String,
    /// Where it came from.
    pub origin: Origin,
    /// The game it concerned, if any.
    pub game: Option<String>,
    /// What it was (`turn`, `buzz`, `command`, `chatter`, ...).
    pub kind: String,
    /// What came of it, in a few words.
    pub summary: String,
}

/// Everything one message causes, committed atomically.
#[derive(Clone, Debug, Default)]
pub struct Commit {
    /// The message, where it came from and what it was.
    pub processed: Option<Processed>,
    /// When it was received.
    pub received_at: Option<DateTime<Utc>>,
    /// Turns to remove first: `(game, keep)` keeps turns `1..=keep`.
    pub truncate: Vec<(String, u64)>,
    /// Turns to append: `(game, turn)`.
    pub turns: Vec<(String, TurnRow)>,
    /// Replies to queue.
    pub outbox: Vec<NewMail>,
    /// Speaker events: `(game, kind, data JSON)`.
    pub events: Vec<(String, String, String)>,
    /// Speaker acts done: `(game, kind, key)` (a reminder for a turn...),
    /// so that none is done twice.
    pub timers: Vec<(String, String, String)>,
    /// Message-IDs of our own replies seen coming back through the list:
    /// delivered, whatever the outbox recorded.
    pub echoed: Vec<String>,
}

/// A stored Speaker event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Row id, increasing.
    pub id: i64,
    /// When.
    pub at: DateTime<Utc>,
    /// What kind.
    pub kind: String,
    /// Its data, JSON.
    pub data: String,
}

fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

fn from_ms(v: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(v).single().unwrap_or_default()
}

/// The database.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the database at `path`, after
    /// `PRAGMA quick_check` (a new database is made whole, then renamed into
    /// place; see [`check`] and [`backup`]).
    ///
    /// # Errors
    ///
    /// [`StoreError::Empty`] for an existing empty file,
    /// [`StoreError::Damaged`] when the check finds damage (or the file is
    /// not a database).
    pub fn open(path: &Path) -> Result<Store> {
        health::prepare(path)?;
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let found = health::problems(&conn, false);
        if !found.is_empty() {
            return Err(StoreError::Damaged {
                path: path.to_path_buf(),
                problems: found,
            });
        }
        Store::init(conn)
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<Store> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store> {
        // WAL: readers never block the writer; FULL: a commit survives power
        // loss, not just a killed process.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        conn.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?1)",
            params![SCHEMA_VERSION.to_string()],
        )?;
        Ok(Store { conn })
    }

    /// Records a game if it is not yet known; returns whether it was new.
    pub fn ensure_game(&mut self, tag: &str, definition: &str, now: DateTime<Utc>) -> Result<bool> {
        let n = self.conn.execute(
            "INSERT OR IGNORE INTO games (tag, definition, created_at) VALUES (?1, ?2, ?3)",
            params![tag, definition, ms(now)],
        )?;
        Ok(n == 1)
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
        for (game, kind, key) in &c.timers {
            tx.execute(
                "INSERT OR IGNORE INTO timers (game, kind, key, due_at, done_at) VALUES (?1, ?2, ?3, ?4, ?4)",
                params![game, kind, key, ms(now)],
            )?;
        }
        for id in &c.echoed {
            tx.execute(
                "UPDATE outbox SET sent_at = ?2, attempt_started_at = NULL
                 WHERE message_id = ?1 AND sent_at IS NULL",
                params![id, ms(now)],
            )?;
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

    /// Replies due for a delivery attempt at `now`, oldest first.
    pub fn due_mail(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<OutMail>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, message_id, envelope_from, recipients, raw, attempts FROM outbox
             WHERE sent_at IS NULL AND next_attempt_at <= ?1 ORDER BY id LIMIT ?2",
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

    /// Records that a delivery attempt is starting: should the process die
    /// before [`Store::mark_sent`], the reply is known to be unconfirmed.
    pub fn begin_attempt(&mut self, id: i64, now: DateTime<Utc>) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET attempt_started_at = ?2 WHERE id = ?1",
            params![id, ms(now)],
        )?;
        Ok(())
    }

    /// At start-up: replies whose last attempt was cut short by a crash may
    /// have been delivered. Their retry waits until `until`, so that a
    /// lounge post coming back through the list can confirm it first
    /// (see [`Commit::echoed`]). Returns how many were deferred.
    pub fn defer_unconfirmed(&mut self, until: DateTime<Utc>) -> Result<usize> {
        Ok(self.conn.execute(
            "UPDATE outbox SET next_attempt_at = max(next_attempt_at, ?1), attempt_started_at = NULL
             WHERE sent_at IS NULL AND attempt_started_at IS NOT NULL",
            params![ms(until)],
        )?)
    }

    /// Marks a reply delivered.
    pub fn mark_sent(&mut self, id: i64, now: DateTime<Utc>) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET sent_at = ?2, attempts = attempts + 1, last_error = NULL,
             attempt_started_at = NULL WHERE id = ?1 AND sent_at IS NULL",
            params![id, ms(now)],
        )?;
        Ok(())
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

    /// Every reply ever queued, in order (tests and `HISTORY`).
    pub fn all_mail(&self) -> Result<Vec<OutMail>> {
        let mut st = self.conn.prepare_cached(
            "SELECT id, message_id, envelope_from, recipients, raw, attempts FROM outbox ORDER BY id",
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
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn turn(n: u64) -> TurnRow {
        TurnRow {
            n,
            player: "Alice".into(),
            play: format!("Alice : Pass {n}"),
            message_id: format!("m{n}@x"),
            submitted_at: t("2026-11-20T10:00:00Z"),
        }
    }

    #[test]
    fn a_commit_is_all_or_nothing() {
        let mut s = Store::in_memory().unwrap();
        s.ensure_game("MN1", "{}", t("2026-11-20T09:00:00Z"))
            .unwrap();
        let origin = Origin {
            source: "INBOX".into(),
            uidvalidity: Some(7),
            uid: Some(3),
        };
        let mut c = Commit {
            processed: Some(Processed {
                message_id: "m1@x".into(),
                origin: origin.clone(),
                game: Some("MN1".into()),
                kind: "turn".into(),
                summary: "legal".into(),
            }),
            turns: vec![("MN1".into(), turn(1))],
            ..Commit::default()
        };
        s.commit(&c).unwrap();
        assert!(s.is_processed("m1@x").unwrap());
        assert!(s.is_processed_uid("INBOX", 7, 3).unwrap());
        assert_eq!(s.mailbox("INBOX").unwrap(), Some((7, 3)));
        // The same turn number again violates the primary key: nothing of
        // the second commit may remain, not even its processed row.
        c.processed = Some(Processed {
            message_id: "m2@x".into(),
            origin: Origin {
                uid: Some(4),
                ..origin
            },
            game: None,
            kind: "turn".into(),
            summary: "x".into(),
        });
        c.outbox = vec![NewMail {
            message_id: "r2@bot".into(),
            envelope_from: "bot@x".into(),
            recipients: vec!["l@x".into()],
            raw: b"x".to_vec(),
        }];
        assert!(s.commit(&c).is_err());
        assert!(!s.is_processed("m2@x").unwrap());
        assert_eq!(s.outbox_counts().unwrap(), (0, 0));
        assert_eq!(s.mailbox("INBOX").unwrap(), Some((7, 3)));
        assert_eq!(s.turns("MN1").unwrap(), vec![turn(1)]);
    }

    #[test]
    fn truncate_then_append_replaces_the_tail() {
        let mut s = Store::in_memory().unwrap();
        s.ensure_game("MN1", "{}", Utc::now()).unwrap();
        let c = Commit {
            turns: (1..=4).map(|n| ("MN1".to_string(), turn(n))).collect(),
            ..Commit::default()
        };
        s.commit(&c).unwrap();
        let c = Commit {
            truncate: vec![("MN1".into(), 2)],
            turns: vec![("MN1".into(), turn(3))],
            ..Commit::default()
        };
        s.commit(&c).unwrap();
        let n: Vec<u64> = s.turns("MN1").unwrap().iter().map(|t| t.n).collect();
        assert_eq!(n, vec![1, 2, 3]);
    }

    #[test]
    fn outbox_retries_and_dedupes_by_message_id() {
        // The outbox runs on the wall clock.
        let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
        let mut s = Store::in_memory().unwrap();
        let mail = NewMail {
            message_id: "r1@bot".into(),
            envelope_from: "bot@x".into(),
            recipients: vec!["a@x".into(), "b@x".into()],
            raw: b"Subject: x\r\n\r\nhi\r\n".to_vec(),
        };
        let c = Commit {
            received_at: Some(base),
            outbox: vec![mail.clone(), mail],
            ..Commit::default()
        };
        s.commit(&c).unwrap();
        let due = s.due_mail(base, 10).unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].recipients, vec!["a@x", "b@x"]);
        s.mark_failed(due[0].id, "refused", base + chrono::Duration::seconds(60))
            .unwrap();
        assert!(s
            .due_mail(base + chrono::Duration::seconds(30), 10)
            .unwrap()
            .is_empty());
        assert_eq!(
            s.next_mail_due().unwrap(),
            Some(base + chrono::Duration::seconds(60))
        );
        let due = s
            .due_mail(base + chrono::Duration::seconds(60), 10)
            .unwrap();
        assert_eq!(due[0].attempts, 1);
        s.mark_sent(due[0].id, base + chrono::Duration::seconds(61))
            .unwrap();
        assert_eq!(s.outbox_counts().unwrap(), (0, 1));
        assert_eq!(s.next_mail_due().unwrap(), None);
    }

    #[test]
    fn an_unconfirmed_reply_waits_and_an_echo_confirms_it() {
        let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
        let mut s = Store::in_memory().unwrap();
        let c = Commit {
            received_at: Some(base),
            outbox: vec![NewMail {
                message_id: "r1@bot".into(),
                envelope_from: "bot@x".into(),
                recipients: vec!["lounge@x".into()],
                raw: b"x".to_vec(),
            }],
            ..Commit::default()
        };
        s.commit(&c).unwrap();
        let id = s.due_mail(base, 1).unwrap()[0].id;
        // The process dies during delivery...
        s.begin_attempt(id, base + chrono::Duration::seconds(1))
            .unwrap();
        // ...and on restart the retry is held back.
        assert_eq!(
            s.defer_unconfirmed(base + chrono::Duration::seconds(31))
                .unwrap(),
            1
        );
        assert!(s
            .due_mail(base + chrono::Duration::seconds(30), 1)
            .unwrap()
            .is_empty());
        // Our own post comes back through the list: delivered after all.
        s.commit(&Commit {
            echoed: vec!["r1@bot".into()],
            ..Commit::default()
        })
        .unwrap();
        assert!(s
            .due_mail(base + chrono::Duration::seconds(60), 1)
            .unwrap()
            .is_empty());
        assert_eq!(s.outbox_counts().unwrap(), (0, 1));
        assert_eq!(
            s.defer_unconfirmed(base + chrono::Duration::seconds(120))
                .unwrap(),
            0
        );
    }

    #[test]
    fn reopening_keeps_everything() {
        let dir = std::env::temp_dir().join(format!("mornbot-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("db.sqlite");
        let _ = std::fs::remove_file(&path);
        {
            let mut s = Store::open(&path).unwrap();
            s.ensure_game("MN1", "{\"a\":1}", Utc::now()).unwrap();
            s.commit(&Commit {
                turns: vec![("MN1".into(), turn(1))],
                ..Commit::default()
            })
            .unwrap();
        }
        let mut s = Store::open(&path).unwrap();
        assert!(!s.ensure_game("MN1", "{}", Utc::now()).unwrap());
        assert_eq!(s.games().unwrap()[0].definition, "{\"a\":1}");
        assert_eq!(s.turns("MN1").unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
