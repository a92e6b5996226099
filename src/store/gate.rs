//! The daemon's start-up check, run beside its start rather than before it
//! ([`super::Store::open_checking`]).
//!
//! `PRAGMA quick_check` reads every page in use: 1.1 s of a 529 MB
//! database of 100,000 games, a third of the start-up (issue 20). What it
//! guards against is writing into a damaged file, not reading one (reading
//! a damaged page is an error anyway). So the check runs on a connection of
//! its own, in a thread, while start-up reads, and a commit hook on the
//! store's connection holds every commit until the check is done: a commit
//! goes through only when the check found nothing, and is rolled back
//! otherwise. In WAL mode the checker's reads and the store's reads do not
//! wait for each other, and the checker's snapshot is the file as found
//! (nothing is committed before it ends).
//!
//! A start on the very file the last clean stop left skips the check, as a
//! file system is not checked after a clean unmount: the stop records the
//! file's size, modification time and inode once every connection has
//! closed (no write-ahead log left), and the next start uses that record up
//! (`mornbot.db.clean`). At 100,000 games a start reads the database from
//! disk, and the check, every page of it, took 4 s of a 4.3 s start. After
//! a crash, a restore, or anything else that touched the file, the check
//! runs; `[bot] check_db_every_start` runs it always.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use rusqlite::{Connection, OpenFlags};

use super::{Result, StoreError};

/// A check running (or done) beside start-up; shared by the checker
/// thread, the commit hook and [`super::Store::checked`].
#[derive(Clone)]
pub(super) struct Gate {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    /// Whether the check was skipped ([`Gate::skipped`]).
    skipped: bool,
    /// `None` while the check runs; then the problems it found.
    found: Mutex<Option<Vec<String>>>,
    done: Condvar,
}

impl Gate {
    /// A check not run: the database is the file the last clean stop left
    /// ([`left_clean`]).
    pub(super) fn skipped(path: &Path) -> Gate {
        Gate {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                skipped: true,
                found: Mutex::new(Some(Vec::new())),
                done: Condvar::new(),
            }),
        }
    }

    /// Starts `PRAGMA quick_check` of the database at `path` in a thread.
    pub(super) fn start(path: &Path) -> Gate {
        Gate::start_with(path, check)
    }

    /// Starts `check` of the database at `path` in a thread.
    fn start_with(path: &Path, check: fn(&Path) -> Vec<String>) -> Gate {
        let gate = Gate {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                skipped: false,
                found: Mutex::new(None),
                done: Condvar::new(),
            }),
        };
        let checker = gate.clone();
        let path = path.to_path_buf();
        let spawned = std::thread::Builder::new()
            .name("mornbot-check".into())
            .spawn(move || {
                // A panic in the check is a problem found, never a check
                // that does not end: every commit waits for its end.
                let found = std::panic::catch_unwind(|| check(&path)).unwrap_or_else(|p| {
                    vec![format!(
                        "the check failed: {}",
                        crate::panic_text(p.as_ref())
                    )]
                });
                checker.finish(found);
            });
        if let Err(e) = spawned {
            gate.finish(vec![format!("the check could not start: {e}")]);
        }
        gate
    }

    /// Whether the check was skipped.
    pub(super) fn was_skipped(&self) -> bool {
        self.inner.skipped
    }

    fn finish(&self, found: Vec<String>) {
        *self.inner.found.lock().unwrap_or_else(|e| e.into_inner()) = Some(found);
        self.inner.done.notify_all();
    }

    /// Waits for the check; the problems it found (empty: none).
    pub(super) fn wait(&self) -> Vec<String> {
        let mut found = self.inner.found.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(f) = &*found {
                return f.clone();
            }
            found = self
                .inner
                .done
                .wait(found)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Whether the check is done and found nothing, without waiting.
    fn passed(&self) -> bool {
        matches!(
            &*self.inner.found.lock().unwrap_or_else(|e| e.into_inner()),
            Some(f) if f.is_empty()
        )
    }

    /// Holds every commit of `conn` until the check is done; rolls it back
    /// when the check found damage.
    pub(super) fn guard(&self, conn: &Connection) {
        let gate = self.clone();
        conn.commit_hook(Some(move || {
            // `true` rolls the commit back.
            !(gate.passed() || gate.wait().is_empty())
        }));
    }

    /// Waits for the check: an error naming what it found, if anything.
    pub(super) fn result(&self) -> Result<()> {
        let problems = self.wait();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(StoreError::Damaged {
                path: self.inner.path.clone(),
                problems,
            })
        }
    }
}

/// The file beside the database naming the database file a clean stop
/// left: `mornbot.db.clean`.
fn marker(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".clean");
    path.with_file_name(name)
}

/// The database file as found: its size, modification time and inode; none
/// while it has a write-ahead log (a connection still open, or a crash).
fn identity(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let mut wal = path.as_os_str().to_os_string();
    wal.push("-wal");
    if Path::new(&wal).exists() {
        return None;
    }
    let m = std::fs::metadata(path).ok()?;
    Some(format!(
        "{} {}.{:09} {} {}",
        m.len(),
        m.mtime(),
        m.mtime_nsec(),
        m.dev(),
        m.ino()
    ))
}

/// After a clean stop, every connection closed: records the database file
/// as left, so that the next start on that same file may skip its check.
/// False (and nothing recorded) when the file still has a write-ahead log.
///
/// # Errors
///
/// When the record cannot be written.
pub(super) fn mark_clean(path: &Path) -> Result<bool> {
    let Some(id) = identity(path) else {
        return Ok(false);
    };
    let to = marker(path);
    let mut tmp = to.as_os_str().to_os_string();
    tmp.push(".tmp");
    let io = |e: std::io::Error| StoreError::Io {
        path: to.clone(),
        detail: e.to_string(),
    };
    std::fs::write(&tmp, id).map_err(io)?;
    std::fs::rename(&tmp, &to).map_err(io)?;
    Ok(true)
}

/// Whether the database is the file the last clean stop left (see
/// [`mark_clean`]). The record is used up either way: from now on the
/// file is this run's, and only this run's clean stop records it again.
pub(super) fn left_clean(path: &Path) -> bool {
    let at = marker(path);
    let recorded = std::fs::read_to_string(&at).ok();
    let _ = std::fs::remove_file(&at);
    recorded.is_some() && recorded == identity(path)
}

/// `PRAGMA quick_check` of the database at `path`, on a read-only
/// connection of its own: the problems it found.
fn check(path: &Path) -> Vec<String> {
    match Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) {
        Ok(conn) => super::health::problems(&conn, false),
        Err(e) => vec![e.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::super::health::tests::{dir, filled};
    use super::super::Store;
    use super::*;

    #[test]
    fn a_healthy_database_commits_once_checked() {
        let d = dir("gate-healthy");
        let db = d.join("mornbot.db");
        filled(&db, 50);
        let mut s = Store::open_checking(&db, false).unwrap();
        assert_eq!(s.turns("MN1").unwrap().len(), 50);
        s.ensure_game("MN2", "{}", chrono::Utc::now()).unwrap();
        s.checked().unwrap();
        drop(s);
        let s = Store::open(&db).unwrap();
        assert_eq!(s.games().unwrap().len(), 2);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_check_that_panics_is_a_problem_found_not_a_wait_for_ever() {
        let d = dir("gate-panic");
        let gate = Gate::start_with(&d.join("mornbot.db"), |_| panic!("boom"));
        assert_eq!(gate.wait(), ["the check failed: boom"]);
        assert!(gate.result().is_err());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn damage_found_beside_the_start_rolls_every_commit_back() {
        let d = dir("gate-damaged");
        let db = d.join("mornbot.db");
        filled(&db, 600);
        // A page of the turn log, past the tables' first pages (the turns
        // come last): the schema reads, the check does not pass.
        let mut bytes = std::fs::read(&db).unwrap();
        let page = 4096;
        let at = (bytes.len() / page * 3 / 4) * page;
        for (i, b) in bytes[at..at + page].iter_mut().enumerate() {
            *b = (i * 7 % 251) as u8;
        }
        std::fs::write(&db, &bytes).unwrap();
        let mut s = Store::open_checking(&db, false).unwrap();
        // A write is held for the check, then rolled back.
        let e = s.ensure_game("MN2", "{}", chrono::Utc::now()).unwrap_err();
        assert!(e.to_string().contains("constraint"), "{e}");
        let e = s.checked().unwrap_err();
        assert!(matches!(e, StoreError::Damaged { .. }), "{e}");
        assert!(e.to_string().contains("check-db"), "{e}");
        drop(s);
        // Nothing reached the file or its log.
        let wal = db.with_file_name("mornbot.db-wal");
        let logged = std::fs::metadata(&wal).map_or(0, |m| m.len());
        assert_eq!(std::fs::read(&db).unwrap(), bytes);
        assert!(logged == 0, "{logged} bytes in the WAL");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_at_open() {
        let d = dir("gate-junk");
        let db = d.join("mornbot.db");
        std::fs::write(&db, vec![0x5Au8; 8192]).unwrap();
        let e = Store::open_checking(&db, false).err().unwrap();
        assert!(matches!(e, StoreError::Damaged { .. }), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_clean_stop_lets_the_next_start_on_that_file_skip_the_check() {
        let d = dir("gate-clean");
        let db = d.join("mornbot.db");
        filled(&db, 20);
        let s = Store::open_checking(&db, false).unwrap();
        assert!(!s.check_skipped(), "no record: checked");
        s.checked().unwrap();
        // Still open: a write-ahead log, no record.
        assert!(!Store::mark_clean(&db).unwrap());
        drop(s);
        assert!(Store::mark_clean(&db).unwrap());
        let s = Store::open_checking(&db, false).unwrap();
        assert!(s.check_skipped());
        s.checked().unwrap();
        drop(s);
        // The record was used up: a crash now (no clean stop) means a check.
        // (Each check is waited for, as the daemon's start does: until it
        // ends its own connection keeps the write-ahead log.)
        let s = Store::open_checking(&db, false).unwrap();
        assert!(!s.check_skipped());
        s.checked().unwrap();
        drop(s);
        // `every_start` checks whatever the record says.
        assert!(Store::mark_clean(&db).unwrap());
        let s = Store::open_checking(&db, true).unwrap();
        assert!(!s.check_skipped());
        s.checked().unwrap();
        drop(s);
        // A file changed since the record (a restore, a copy): checked.
        assert!(Store::mark_clean(&db).unwrap());
        let bytes = std::fs::read(&db).unwrap();
        std::fs::remove_file(&db).unwrap();
        std::fs::write(&db, &bytes).unwrap();
        let s = Store::open_checking(&db, false).unwrap();
        assert!(!s.check_skipped());
        s.checked().unwrap();
        drop(s);
        let _ = std::fs::remove_dir_all(&d);
    }
}
