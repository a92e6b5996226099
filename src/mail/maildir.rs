//! The embedded default's mail source: a Maildir spool.
//!
//! Anything dropped into `new/` (or `cur/` without the Seen flag) is a
//! message to judge, oldest first. After its effects are committed it is
//! moved to `cur/` with the `S` flag (the Maildir convention for "seen"), so
//! a restart neither loses nor re-reads it; should the daemon die between
//! the commit and the move, the store's processed-messages table catches
//! the duplicate.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{DateTime, Utc};

/// A Maildir directory (`new/`, `cur/`, `tmp/`).
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
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
        })
    }

    /// The spool's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Messages not yet seen, oldest first (by delivery time, then name).
    pub fn waiting(&self) -> std::io::Result<Vec<Waiting>> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
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
                out.push(Waiting {
                    path: entry.path(),
                    received: DateTime::<Utc>::from(t),
                });
            }
        }
        out.sort_by(|a, b| a.received.cmp(&b.received).then(a.path.cmp(&b.path)));
        Ok(out)
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

    #[test]
    fn waiting_then_seen() {
        let dir = std::env::temp_dir().join(format!("mornbot-maildir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let md = Maildir::create(&dir).unwrap();
        md.deliver(b"a", "1.a").unwrap();
        md.deliver(b"b", "2.b").unwrap();
        std::fs::write(dir.join("cur/3.c:2,"), b"c").unwrap();
        std::fs::write(dir.join("cur/4.d:2,RS"), b"d").unwrap();
        let w = md.waiting().unwrap();
        let names: Vec<String> = w
            .iter()
            .map(|w| w.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(!names.iter().any(|n| n.starts_with('4')));
        for x in &w {
            md.mark_seen(&x.path).unwrap();
        }
        assert!(md.waiting().unwrap().is_empty());
        assert!(dir.join("cur/1.a:2,S").exists());
        assert!(dir.join("cur/3.c:2,S").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
