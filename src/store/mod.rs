//! SQLite storage: games, the turn log, processed messages, the outbox and
//! timers.
//!
//! Exactly once: everything a message causes (turns appended or removed,
//! replies queued, the message marked processed, the mailbox high-water
//! mark) is written by one [`Store::commit`], one SQLite transaction. Only
//! after it returns is the message flagged on the server, and a message
//! already recorded is never judged again, so a crash at any point replays
//! to the same state and the same mails.

mod dice;
mod ending;
mod gambits;
mod games;
mod gate;
mod health;
mod late;
mod lobby;
mod outbox;
pub use outbox::SentMark;
mod quarantine;
mod rows;
mod schema;
mod snapshots;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use rusqlite::{params, Connection, OptionalExtension};

pub use ending::{EndedRow, Ending, EndingOp, PointsRow};
pub use gambits::GambitRow;
pub use health::{backup, check, Health};
pub use lobby::{Closed, ClosedJoin, JoinRow, LobbyOp, LobbyRow};
pub use quarantine::Quarantined;
use rows::{from_ms, ms};
pub use rows::{
    Commit, DiceRow, DrawRow, EventRow, GameRow, IndexRow, NewMail, Origin, OutMail, Processed,
    Snapshot, SnapshotRow, TurnRow,
};
use schema::SCHEMA;
pub use schema::SCHEMA_VERSION;

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

/// The database.
pub struct Store {
    conn: Connection,
    /// The start-up check running beside the daemon's start
    /// ([`Store::open_checking`]).
    gate: Option<gate::Gate>,
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

    /// [`Store::open`] for the daemon's start: the same check, run beside
    /// the start rather than before it (see `gate.rs`), and not at all on
    /// the file the last clean stop left ([`Store::mark_clean`]) unless
    /// `every_start`. Every commit waits
    /// for the check and is rolled back if it found damage, so nothing is
    /// written into a damaged file; [`Store::checked`] waits for it and says
    /// what it found. A file that is not a database is refused here.
    ///
    /// # Errors
    ///
    /// As [`Store::open`], except that damage past the first page is
    /// reported by [`Store::checked`] (and by the commits held).
    pub fn open_checking(path: &Path, every_start: bool) -> Result<Store> {
        // Before anything opens it (an open makes a write-ahead log).
        let clean = gate::left_clean(path) && !every_start;
        health::prepare(path)?;
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // The first page (the header and the schema) read now: a file that
        // is not a database is refused at once, as by `open`.
        if let Err(e) = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        }) {
            return Err(StoreError::Damaged {
                path: path.to_path_buf(),
                problems: vec![e.to_string()],
            });
        }
        let gate = if clean {
            tracing::info!(
                "{}: the file the last clean stop left; its check skipped (`mornbot check-db` \
                 runs the full one)",
                path.display()
            );
            gate::Gate::skipped(path)
        } else {
            let gate = gate::Gate::start(path);
            gate.guard(&conn);
            gate
        };
        // A schema that cannot be read is damage the check names.
        let mut store = Store::init(conn).map_err(|e| gate.result().err().unwrap_or(e))?;
        store.gate = Some(gate);
        Ok(store)
    }

    /// After a clean stop, every connection to the database at `path`
    /// closed: records the file as left, so that the next
    /// [`Store::open_checking`] on that same file may skip its check (as a
    /// file system is not checked after a clean unmount). False when the
    /// file still has a write-ahead log (a connection still open).
    ///
    /// # Errors
    ///
    /// When the record cannot be written.
    pub fn mark_clean(path: &Path) -> Result<bool> {
        gate::mark_clean(path)
    }

    /// Whether [`Store::open_checking`] skipped the check (a start on the
    /// file the last clean stop left).
    pub fn check_skipped(&self) -> bool {
        self.gate.as_ref().is_some_and(gate::Gate::was_skipped)
    }

    /// Waits for the check started by [`Store::open_checking`] (at once
    /// for any other store).
    ///
    /// # Errors
    ///
    /// [`StoreError::Damaged`] with what the check found.
    pub fn checked(&self) -> Result<()> {
        match &self.gate {
            Some(g) => g.result(),
            None => Ok(()),
        }
    }

    /// Another connection to the database at `path`, which this process
    /// has opened with [`Store::open`], and so checked, already: the
    /// daemon's sender, its marking thread and its IMAP adapter each have
    /// one, and checking again for each would read the whole file again at
    /// start-up. Never creates the file.
    pub fn connect(path: &Path) -> Result<Store> {
        let flags =
            rusqlite::OpenFlags::default().difference(rusqlite::OpenFlags::SQLITE_OPEN_CREATE);
        Store::init(Connection::open_with_flags(path, flags)?)
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
        // Written once, when the database is made: a write at every open
        // would wait for the check of `open_checking`.
        let recorded: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if recorded.is_none() {
            conn.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?1)",
                params![SCHEMA_VERSION.to_string()],
            )?;
        }
        Ok(Store { conn, gate: None })
    }
}
