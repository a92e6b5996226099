//! The embedded default's mail source: a Maildir spool.
//!
//! A message is delivered the Maildir way: written in `tmp/`, then renamed
//! into `new/` ([`Maildir::deliver`] does it; so must anything else that
//! drops mail in, e.g. `printf ... > tmp/x && mv tmp/x new/`). After its
//! effects are committed it is moved to `cur/` with the `S` flag (the
//! Maildir convention for "seen"), so a restart neither loses nor re-reads
//! it; should the daemon die between the commit and the move, the store's
//! processed-messages table catches the duplicate.
//!
//! # Judgment calls
//!
//! - **A file still being written is left alone.** A file in `new/` whose
//!   modification time is less than [`SETTLE`] ago is skipped until a
//!   later pass, in case a writer that ignores `tmp/` is still at it.
//! - **Idle cost does not grow with the spool.** Each pass reads `new/`
//!   only; `cur/` (where MUAs and earlier runs leave mail) is read once, on
//!   the first pass, for messages without the `S` flag.
//! - **Seen mail is pruned by age.** Seen files in `cur/` older than the
//!   retention ([`Maildir::keep_seen_for`], `[bot] spool_keep_days`) are
//!   deleted, at most once an hour: the turn log keeps what was judged.
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, Utc};

/// How long a file in `new/` must have been left unmodified to be read.
pub const SETTLE: Duration = Duration::from_secs(1);

/// How often seen mail is pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// A Maildir directory (`new/`, `cur/`, `tmp/`).
#[derive(Debug)]
pub struct Maildir {
    root: PathBuf,
    /// Whether `cur/` was read for unseen mail (the first pass).
    cur_read: AtomicBool,
    /// How long seen mail is kept (`None`: for ever).
    keep_seen: Option<Duration>,
    /// When seen mail was last pruned.
    pruned: Mutex<Option<Instant>>,
}

/// A message waiting in the spool.
#[derive(Clone, Debug)]
pub struct Waiting {
    /// Its file.
    pub path: PathBuf,
    /// When it was delivered (the file's modification time).
    pub received: DateTime<Utc>,
}

impl Maildir {
    /// Opens (creating if needed) the Maildir at `root`.
    pub fn create(root: &Path) -> std::io::Result<Maildir> {
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
            cur_read: AtomicBool::new(false),
            keep_seen: None,
            pruned: Mutex::new(None),
        })
    }

    /// Keeps seen mail in `cur/` for `days` days (0: for ever).
    pub fn keep_seen_for(mut self, days: u32) -> Maildir {
        self.keep_seen = (days > 0).then(|| Duration::from_secs(u64::from(days) * 24 * 3600));
        self
    }

    /// The spool's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Messages not yet seen, oldest first (by delivery time, then name):
    /// those in `new/` that have settled (see the module docs), and on the
    /// first call those in `cur/` without the `S` flag. Prunes old seen
    /// mail when it is time.
    pub fn waiting(&self) -> std::io::Result<Vec<Waiting>> {
        self.waiting_at(SystemTime::now())
    }

    fn waiting_at(&self, now: SystemTime) -> std::io::Result<Vec<Waiting>> {
        let mut out = Vec::new();
        let first = !self.cur_read.swap(true, Ordering::SeqCst);
        let subs: &[&str] = if first { &["new", "cur"] } else { &["new"] };
        for sub in subs {
            for entry in std::fs::read_dir(self.root.join(sub))? {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || seen(&name) {
                    continue;
                }
                let meta = entry.metadata()?;
                if !meta.is_file() {
                    continue;
                }
                let t = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                // Still being written (or written a moment ago): next pass.
                if *sub == "new" && now.duration_since(t).map_or(true, |age| age < SETTLE) {
                    continue;
                }
                out.push(Waiting {
                    path: entry.path(),
                    received: DateTime::<Utc>::from(t),
                });
            }
        }
        out.sort_by(|a, b| a.received.cmp(&b.received).then(a.path.cmp(&b.path)));
        self.prune_if_due(now);
        Ok(out)
    }

    fn prune_if_due(&self, now: SystemTime) {
        let Some(keep) = self.keep_seen else {
            return;
        };
        let mut last = self.pruned.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < PRUNE_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        match self.prune_seen(keep, now) {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!("pruned {n} seen message(s) older than {keep:?} from the spool")
            }
            Err(e) => tracing::warn!("pruning the spool: {e}"),
        }
    }

    /// Deletes seen messages in `cur/` last modified more than `keep`
    /// before `now`; returns how many.
    pub fn prune_seen(&self, keep: Duration, now: SystemTime) -> std::io::Result<usize> {
        let mut n = 0;
        for entry in std::fs::read_dir(self.root.join("cur"))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !seen(&name) {
                continue;
            }
            let meta = entry.metadata()?;
            let old = meta
                .modified()
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > keep);
            if meta.is_file() && old {
                std::fs::remove_file(entry.path())?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// Marks a message seen: moves it to `cur/` with the `S` flag.
    pub fn mark_seen(&self, path: &Path) -> std::io::Result<()> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = name.split(":2,").next().unwrap_or(&name).to_string();
        let flags: String = name
            .split_once(":2,")
            .map(|(_, f)| f.to_string())
            .unwrap_or_default();
        let mut flags: Vec<char> = flags.chars().filter(|c| *c != 'S').collect();
        flags.push('S');
        flags.sort_unstable();
        let target = self.root.join("cur").join(format!(
            "{base}:2,{}",
            flags.into_iter().collect::<String>()
        ));
        std::fs::rename(path, target)
    }

    /// Moves a message that could not be judged out of the spool, into
    /// `quarantine/` beside `new/` and `cur/` (made when first needed), by
    /// its own file name: the operator finds it there, and no pass reads it
    /// again.
    pub fn set_aside(&self, path: &Path) -> std::io::Result<()> {
        let dir = self.root.join("quarantine");
        std::fs::create_dir_all(&dir)?;
        let name = path.file_name().unwrap_or_default();
        std::fs::rename(path, dir.join(name))
    }

    /// Delivers `raw` into `new/` the Maildir way (write in `tmp/`, then
    /// rename), returning its path. Used by `mornbot demo` and tests.
    pub fn deliver(&self, raw: &[u8], unique: &str) -> std::io::Result<PathBuf> {
        let tmp = self.root.join("tmp").join(unique);
        std::fs::write(&tmp, raw)?;
        let new = self.root.join("new").join(unique);
        std::fs::rename(&tmp, &new)?;
        Ok(new)
    }
}

fn seen(name: &str) -> bool {
    name.split_once(":2,")
        .is_some_and(|(_, flags)| flags.contains('S'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(w: &[Waiting]) -> Vec<String> {
        w.iter()
            .map(|w| w.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    fn tmpdir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mornbot-maildir-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn later() -> SystemTime {
        SystemTime::now() + SETTLE * 2
    }

    #[test]
    fn waiting_then_seen() {
        let dir = tmpdir("seen");
        let md = Maildir::create(&dir).unwrap();
        md.deliver(b"a", "1.a").unwrap();
        md.deliver(b"b", "2.b").unwrap();
        std::fs::write(dir.join("cur/3.c:2,"), b"c").unwrap();
        std::fs::write(dir.join("cur/4.d:2,RS"), b"d").unwrap();
        let w = md.waiting_at(later()).unwrap();
        let n = names(&w);
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(!n.iter().any(|n| n.starts_with('4')));
        for x in &w {
            md.mark_seen(&x.path).unwrap();
        }
        assert!(md.waiting_at(later()).unwrap().is_empty());
        assert!(dir.join("cur/1.a:2,S").exists());
        assert!(dir.join("cur/3.c:2,S").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_still_being_written_waits_for_the_next_pass() {
        let dir = tmpdir("settle");
        let md = Maildir::create(&dir).unwrap();
        // Written straight into new/ (as the old README hint did).
        std::fs::write(dir.join("new/t1.eml"), b"From: a@b\nSubject: half").unwrap();
        assert!(md.waiting().unwrap().is_empty());
        assert_eq!(names(&md.waiting_at(later()).unwrap()), ["t1.eml"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_the_first_pass_reads_cur() {
        let dir = tmpdir("cur");
        let md = Maildir::create(&dir).unwrap();
        std::fs::write(dir.join("cur/old:2,"), b"x").unwrap();
        assert_eq!(names(&md.waiting_at(later()).unwrap()), ["old:2,"]);
        // A later arrival in cur/ (an MUA moved it) waits for a restart.
        std::fs::write(dir.join("cur/mua:2,"), b"x").unwrap();
        assert!(md.waiting_at(later()).unwrap().is_empty());
        let again = Maildir::create(&dir).unwrap();
        assert_eq!(again.waiting_at(later()).unwrap().len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn seen_mail_is_pruned_by_age() {
        let dir = tmpdir("prune");
        let md = Maildir::create(&dir).unwrap().keep_seen_for(30);
        std::fs::write(dir.join("cur/a:2,S"), b"x").unwrap();
        std::fs::write(dir.join("cur/b:2,"), b"x").unwrap();
        let day = Duration::from_secs(24 * 3600);
        // Nothing is old yet.
        assert_eq!(md.prune_seen(day * 30, SystemTime::now()).unwrap(), 0);
        // Forty days on, the seen one goes, the unseen one stays.
        let then = SystemTime::now() + day * 40;
        assert_eq!(md.prune_seen(day * 30, then).unwrap(), 1);
        assert!(!dir.join("cur/a:2,S").exists());
        assert!(dir.join("cur/b:2,").exists());
        // waiting() prunes, at most once an hour.
        std::fs::write(dir.join("cur/c:2,S"), b"x").unwrap();
        md.waiting_at(then).unwrap();
        assert!(!dir.join("cur/c:2,S").exists());
        std::fs::write(dir.join("cur/d:2,S"), b"x").unwrap();
        md.waiting_at(then).unwrap();
        assert!(dir.join("cur/d:2,S").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
