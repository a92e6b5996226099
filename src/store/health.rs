//! The database's health: refusing an empty or damaged file at start,
//! `mornbot check-db`, and `mornbot backup` (SQLite's online backup API).
//!
//! # Judgment calls
//!
//! - **A new database is made whole, then put in place.** It is created
//!   under a temporary name, given its schema, closed and renamed to its
//!   path. So a database file that exists but is empty (0 bytes) was never
//!   made by mornbot: it was truncated or replaced, and starting on it would
//!   silently start every game from turn 0. [`super::Store::open`] refuses
//!   it ([`StoreError::Empty`]).
//! - **`PRAGMA quick_check` at every open** (O(pages), milliseconds for a
//!   lounge's database) catches a damaged page before anything is written;
//!   `check-db` runs the full `PRAGMA integrity_check` (which also compares
//!   indexes with their tables). Either way a damaged database is refused
//!   ([`StoreError::Damaged`]), with the first problems SQLite reports.
//! - **Backups are whole, checked and atomic**: one backup step copies
//!   every page under one read lock (a consistent snapshot while the daemon
//!   runs), the copy is switched to a rollback journal (one self-contained
//!   file), checked with `integrity_check`, synced, and renamed over the
//!   target, so an interrupted backup never leaves a half-written file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::{Result, StoreError};

/// The most problems kept from a check.
const MAX_PROBLEMS: usize = 20;

/// What [`check`] and [`backup`] found in a database.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Health {
    /// What `integrity_check` (or `quick_check`) reported; empty when "ok".
    pub problems: Vec<String>,
    /// Stored games.
    pub games: u64,
    /// Turns in every game's log.
    pub turns: u64,
    /// Processed messages.
    pub processed: u64,
    /// Replies not yet delivered.
    pub unsent: u64,
}

impl std::fmt::Display for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} game(s), {} turn(s), {} message(s) processed, {} repl(ies) waiting",
            self.games, self.turns, self.processed, self.unsent
        )
    }
}

/// Before opening `path` for the daemon: refuses an empty file, and
/// creates a missing database whole (see the module docs).
pub(super) fn prepare(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() == 0 => Err(StoreError::Empty {
            path: path.to_path_buf(),
        }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => create(path),
        Err(e) => Err(io(path, e)),
    }
}

fn io(path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Io {
        path: path.to_path_buf(),
        detail: e.to_string(),
    }
}

/// A sibling of `path` named `<name>.<suffix>`.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    path.with_file_name(name)
}

fn create(path: &Path) -> Result<()> {
    let tmp = sibling(path, "creating");
    for stale in [tmp.clone(), sibling(&tmp, "wal"), sibling(&tmp, "shm")] {
        let _ = std::fs::remove_file(stale);
    }
    {
        let conn = Connection::open(&tmp)?;
        super::Store::init(conn)?;
    }
    sync_file(&tmp)?;
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))?;
    sync_dir(path)
}

fn sync_file(path: &Path) -> Result<()> {
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| io(path, e))
}

fn sync_dir(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Directories cannot be opened for syncing everywhere: best effort.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Runs `PRAGMA quick_check` (or `integrity_check` when `full`) on an
/// open connection: the problems reported, empty when "ok". A file that
/// is not a database, or too damaged to read, is one problem.
pub(super) fn problems(conn: &Connection, full: bool) -> Vec<String> {
    let sql = if full {
        format!("PRAGMA integrity_check({MAX_PROBLEMS})")
    } else {
        format!("PRAGMA quick_check({MAX_PROBLEMS})")
    };
    let rows = conn.prepare(&sql).and_then(|mut st| {
        st.query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()
    });
    match rows {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => Vec::new(),
        Ok(rows) => rows,
        Err(e) => vec![e.to_string()],
    }
}

/// Opens an existing database without creating one, for checking.
fn open_existing(path: &Path) -> Result<Connection> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() == 0 => {
            return Err(StoreError::Empty {
                path: path.to_path_buf(),
            })
        }
        Ok(_) => {}
        Err(e) => return Err(io(path, e)),
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(5))?;
    Ok(conn)
}

fn count(conn: &Connection, sql: &str) -> u64 {
    conn.query_row(sql, [], |r| r.get::<_, i64>(0))
        .map_or(0, |n| n.max(0) as u64)
}

fn health(conn: &Connection, full: bool) -> Health {
    let problems = problems(conn, full);
    if !problems.is_empty() {
        return Health {
            problems,
            ..Health::default()
        };
    }
    Health {
        problems,
        games: count(conn, "SELECT count(*) FROM games"),
        turns: count(conn, "SELECT count(*) FROM turns"),
        processed: count(conn, "SELECT count(*) FROM processed"),
        unsent: count(conn, "SELECT count(*) FROM outbox WHERE sent_at IS NULL"),
    }
}

/// `mornbot check-db`: the full `integrity_check` of the database at
/// `path`, and what it holds. A damaged database is a [`Health`] with
/// problems, not an error.
///
/// # Errors
///
/// [`StoreError::Empty`] for an empty file; [`StoreError::Io`] when there
/// is no file.
pub fn check(path: &Path) -> Result<Health> {
    let conn = open_existing(path)?;
    Ok(health(&conn, true))
}

/// `mornbot backup FILE`: copies the database at `db` to `to` with
/// SQLite's online backup API while the daemon may be running (see the
/// module docs), and returns what the copy holds.
///
/// # Errors
///
/// [`StoreError::Damaged`] when the source or the copy fails its check;
/// [`StoreError::Empty`], [`StoreError::Io`] or [`StoreError::Sql`] when
/// either file cannot be used. `to` is left untouched on any error.
pub fn backup(db: &Path, to: &Path) -> Result<Health> {
    let src = open_existing(db)?;
    let found = problems(&src, false);
    if !found.is_empty() {
        return Err(StoreError::Damaged {
            path: db.to_path_buf(),
            problems: found,
        });
    }
    let tmp = sibling(to, "partial");
    let _ = std::fs::remove_file(&tmp);
    let result = (|| {
        {
            let mut dst = Connection::open(&tmp)?;
            {
                use rusqlite::backup::StepResult;
                let b = rusqlite::backup::Backup::new(&src, &mut dst)?;
                // -1: every page in one step, under one read lock. Busy
                // (the daemon writing): wait and try again, for a while.
                let mut tries = 0;
                loop {
                    match b.step(-1)? {
                        StepResult::Done => break,
                        StepResult::More => {}
                        _ if tries < 500 => {
                            tries += 1;
                            std::thread::sleep(Duration::from_millis(10));
                        }
                        _ => {
                            return Err(StoreError::Io {
                                path: db.to_path_buf(),
                                detail: "the database stayed locked for 5 s".into(),
                            })
                        }
                    }
                }
            }
            dst.pragma_update(None, "journal_mode", "DELETE")?;
            let h = health(&dst, true);
            if !h.problems.is_empty() {
                return Err(StoreError::Damaged {
                    path: to.to_path_buf(),
                    problems: h.problems,
                });
            }
        }
        sync_file(&tmp)?;
        std::fs::rename(&tmp, to).map_err(|e| io(to, e))?;
        sync_dir(to)?;
        let conn = open_existing(to)?;
        Ok(health(&conn, false))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{Commit, Store, TurnRow};
    use super::*;
    use chrono::TimeZone;

    /// A fresh directory for test `name` (also `gate`'s tests).
    pub(in crate::store) fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mornbot-health-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A database with one game of `n` turns, closed (checkpointed).
    pub(in crate::store) fn filled(path: &Path, n: u64) {
        let mut s = Store::open(path).unwrap();
        let t0 = chrono::Utc.timestamp_opt(1_700_000_000, 0).unwrap();
        s.ensure_game("MN1", "{}", t0).unwrap();
        let turns = (1..=n)
            .map(|i| {
                let turn = TurnRow {
                    n: i,
                    player: "Rushton".into(),
                    play: format!("Rushton : Euston (NT) [Blocking Warren Street] {i:0>200}"),
                    message_id: format!("t{i}@example.org"),
                    submitted_at: t0,
                };
                ("MN1".to_string(), turn)
            })
            .collect();
        s.commit(&Commit {
            turns,
            ..Commit::default()
        })
        .unwrap();
    }

    #[test]
    fn an_empty_database_file_is_refused() {
        let d = dir("empty");
        let db = d.join("mornbot.db");
        std::fs::write(&db, b"").unwrap();
        let e = Store::open(&db).err().unwrap();
        assert!(matches!(e, StoreError::Empty { .. }), "{e}");
        let msg = e.to_string();
        assert!(
            msg.contains("empty (0 bytes)") && msg.contains("backup"),
            "{msg}"
        );
        // Nothing was written into it.
        assert_eq!(std::fs::metadata(&db).unwrap().len(), 0);
        assert!(matches!(check(&db), Err(StoreError::Empty { .. })));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_new_database_is_made_whole_then_put_in_place() {
        let d = dir("new");
        let db = d.join("mornbot.db");
        drop(Store::open(&db).unwrap());
        assert!(std::fs::metadata(&db).unwrap().len() > 0);
        assert!(!sibling(&db, "creating").exists());
        // A stale half-made one (a crash during creation) is not in the way.
        std::fs::remove_file(&db).unwrap();
        std::fs::write(sibling(&db, "creating"), b"junk").unwrap();
        drop(Store::open(&db).unwrap());
        assert_eq!(check(&db).unwrap(), Health::default());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_damaged_middle_page_is_refused_at_start_and_reported_by_check() {
        let d = dir("damaged");
        let db = d.join("mornbot.db");
        filled(&db, 400);
        let healthy = check(&db).unwrap();
        assert_eq!((healthy.games, healthy.turns), (1, 400));
        assert!(healthy.problems.is_empty());
        // Overwrite a page in the middle of the file.
        let bytes = std::fs::read(&db).unwrap();
        let page = 4096;
        let pages = bytes.len() / page;
        assert!(pages > 10, "{pages} pages");
        let mut bad = bytes.clone();
        let at = (pages / 2) * page;
        for (i, b) in bad[at..at + page].iter_mut().enumerate() {
            *b = (i * 7 % 251) as u8;
        }
        std::fs::write(&db, &bad).unwrap();
        let e = Store::open(&db).err().unwrap();
        assert!(matches!(e, StoreError::Damaged { .. }), "{e}");
        assert!(e.to_string().contains("check-db"), "{e}");
        let h = check(&db).unwrap();
        assert!(!h.problems.is_empty(), "{h:?}");
        // A backup of it is refused, and makes no file.
        let to = d.join("backup.db");
        assert!(matches!(backup(&db, &to), Err(StoreError::Damaged { .. })));
        assert!(!to.exists() && !sibling(&to, "partial").exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_backup_while_the_daemon_holds_the_database_is_whole() {
        let d = dir("backup");
        let db = d.join("mornbot.db");
        filled(&db, 50);
        // The daemon's connection stays open, with a write in its WAL.
        let mut live = Store::open(&db).unwrap();
        live.ensure_game("MN2", "{}", chrono::Utc::now()).unwrap();
        let to = d.join("copy.db");
        std::fs::write(&to, b"an older backup").unwrap();
        let h = backup(&db, &to).unwrap();
        assert_eq!((h.games, h.turns), (2, 50), "{h}");
        assert!(h.problems.is_empty());
        // One self-contained file: no WAL beside it, and it opens as a store.
        assert!(!sibling(&to, "wal").exists());
        let restored = Store::open(&to).unwrap();
        assert_eq!(restored.turns("MN1").unwrap().len(), 50);
        assert_eq!(check(&to).unwrap(), h);
        let _ = std::fs::remove_dir_all(&d);
    }
}
