//! `mornbot check-db` and `mornbot backup`: the database's health and its
//! online backup (see [`crate::store::check`] and [`crate::store::backup`]).

use std::path::{Path, PathBuf};

use super::{daemon_cmd, Exit};
use crate::store::StoreError;

/// The database a command works on: `--db`, else the one in the data
/// directory of `--config` (or of the embedded default).
fn database(config: Option<&Path>, db: Option<&Path>) -> anyhow::Result<Result<PathBuf, String>> {
    if let Some(db) = db {
        return Ok(Ok(db.to_path_buf()));
    }
    Ok(daemon_cmd::load_config(config)?.map(|cfg| {
        crate::daemon::DataDir {
            root: cfg.bot.data_dir,
        }
        .db()
    }))
}

/// `mornbot check-db [--config FILE] [--db FILE]`: `PRAGMA
/// integrity_check`; exit 0 when sound, 1 when damaged or unusable.
pub(super) fn check_db(config: Option<&Path>, db: Option<&Path>) -> anyhow::Result<Exit> {
    let path = match database(config, db)? {
        Ok(p) => p,
        Err(e) => {
            eprintln!("mornbot check-db: {e}");
            return Ok(Exit::BadInput);
        }
    };
    match crate::store::check(&path) {
        Ok(h) if h.problems.is_empty() => {
            println!("{}: ok (integrity_check): {h}", path.display());
            Ok(Exit::Ok)
        }
        Ok(h) => {
            println!(
                "{}: DAMAGED: integrity_check reports {} problem(s):",
                path.display(),
                h.problems.len()
            );
            for p in &h.problems {
                println!("  {p}");
            }
            println!(
                "mornbot will not start on it. Copy it aside and restore your last backup \
                 (README, \"Back up and restore\")."
            );
            Ok(Exit::Failure)
        }
        Err(e @ StoreError::Empty { .. }) => {
            println!("{e}");
            Ok(Exit::Failure)
        }
        Err(e) => {
            eprintln!("mornbot check-db: {e}");
            Ok(Exit::Failure)
        }
    }
}

/// `mornbot backup [--config FILE] [--db FILE] TARGET`: an online backup,
/// checked, put in place atomically.
pub(super) fn backup(
    config: Option<&Path>,
    db: Option<&Path>,
    target: &Path,
) -> anyhow::Result<Exit> {
    let path = match database(config, db)? {
        Ok(p) => p,
        Err(e) => {
            eprintln!("mornbot backup: {e}");
            return Ok(Exit::BadInput);
        }
    };
    if same_file(target, &path) {
        eprintln!("mornbot backup: the backup cannot be the database itself");
        return Ok(Exit::BadInput);
    }
    match crate::store::backup(&path, target) {
        Ok(h) => {
            println!(
                "{} -> {}: backed up and checked: {h}",
                path.display(),
                target.display()
            );
            Ok(Exit::Ok)
        }
        Err(e) => {
            eprintln!("mornbot backup: {e}");
            Ok(Exit::Failure)
        }
    }
}

/// Whether two paths name the same file (the target may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    let canonical = |p: &Path| {
        p.canonicalize().ok().or_else(|| {
            let parent = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            Some(parent.canonicalize().ok()?.join(p.file_name()?))
        })
    };
    match (canonical(a), canonical(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}
