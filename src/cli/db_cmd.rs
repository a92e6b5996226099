//! `mornbot check-db` and `mornbot backup`: the database's health and its
//! online backup (see [`crate::store::check`] and [`crate::store::backup`]);
//! `mornbot verify-dice`, a game's dice rechecked ([`crate::dice::verify`]).

use std::path::{Path, PathBuf};

use super::{daemon_cmd, Exit};
use crate::store::StoreError;

/// The database a command works on: `--db`, else the one in the data
/// directory of `--config` (or of the embedded default).
pub(super) fn database(
    config: Option<&Path>,
    db: Option<&Path>,
) -> anyhow::Result<Result<PathBuf, String>> {
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

/// `mornbot status [--config FILE] [--db FILE] [--show ID]`: games, replies
/// waiting, and quarantined mail; exit 0, or 1 when mail is quarantined
/// (so a monitoring check can alert on it).
pub(super) fn status(
    config: Option<&Path>,
    db: Option<&Path>,
    show: Option<i64>,
) -> anyhow::Result<Exit> {
    let path = match database(config, db)? {
        Ok(p) => p,
        Err(e) => {
            eprintln!("mornbot status: {e}");
            return Ok(Exit::BadInput);
        }
    };
    if !path.exists() {
        eprintln!("mornbot status: {}: no database yet", path.display());
        return Ok(Exit::BadInput);
    }
    let store = crate::store::Store::open(&path)?;
    let quarantined = store.quarantined()?;
    if let Some(id) = show {
        let Some(q) = quarantined.iter().find(|q| q.id == id) else {
            eprintln!("mornbot status: no quarantined mail {id}");
            return Ok(Exit::BadInput);
        };
        use std::io::Write;
        std::io::stdout().write_all(&q.raw)?;
        return Ok(Exit::Ok);
    }
    println!("{}", path.display());
    for g in store.games()? {
        println!("  game {}: {} turn(s)", g.tag, store.turns(&g.tag)?.len());
    }
    let (waiting, sent) = store.outbox_counts()?;
    println!("  replies: {waiting} waiting, {sent} sent");
    if quarantined.is_empty() {
        println!("  quarantined: none");
        return Ok(Exit::Ok);
    }
    println!(
        "  quarantined: {} message(s), not judged (`mornbot status --show ID` prints one):",
        quarantined.len()
    );
    for q in &quarantined {
        println!(
            "    {}  {}  {}{}  {}\n      {}",
            q.id,
            q.at.format("%Y-%m-%d %H:%M UTC"),
            q.origin.source,
            q.origin
                .uid
                .map(|u| format!(" UID {u}"))
                .unwrap_or_default(),
            q.message_id,
            q.reason
        );
    }
    Ok(Exit::Failure)
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

/// `mornbot verify-dice GAME [--config FILE] [--db FILE]`: the game's
/// recorded draws recomputed from its revealed seed ([`crate::dice::verify`]);
/// exit 0 when all agree (or the seed is still secret), 1 on a mismatch, 2
/// for no such database or game.
pub(super) fn verify_dice(
    game: &str,
    config: Option<&Path>,
    db: Option<&Path>,
) -> anyhow::Result<Exit> {
    let path = match database(config, db)? {
        Ok(p) if p.is_file() => p,
        Ok(p) => {
            eprintln!("mornbot verify-dice: {}: no database there", p.display());
            return Ok(Exit::BadInput);
        }
        Err(e) => {
            eprintln!("mornbot verify-dice: {e}");
            return Ok(Exit::BadInput);
        }
    };
    let store = crate::store::Store::open(&path)?;
    let tag = game.trim().to_uppercase();
    let Some(row) = store.dice(&tag)? else {
        eprintln!(
            "mornbot verify-dice: {}: no dice recorded for game {tag:?} (no such game, or the \
             daemon has not started since it was configured)",
            path.display()
        );
        return Ok(Exit::BadInput);
    };
    let draws: Vec<crate::dice::Draw> = store
        .draws(&tag)?
        .into_iter()
        .map(|d| crate::dice::Draw {
            game: d.game,
            turn: d.turn,
            name: d.name,
            sides: d.sides,
            value: d.value,
        })
        .collect();
    let seed = row.revealed_at.map(|_| row.seed.as_str());
    let report = crate::dice::verify::verify(&tag, &row.commitment, seed, &draws);
    print!("{}", report.render());
    let mut ok = report.ok();
    // One Day in London: its deck recomputed and each reshuffle checked
    // whole (RULINGS OD5, OD8).
    let kind = store
        .game(&tag)?
        .and_then(|g| serde_json::from_str::<serde_json::Value>(&g.definition).ok())
        .and_then(|v| v["config"]["kind"].as_str().map(str::to_string));
    let parsed = seed.and_then(|h| crate::dice::Seed::from_hex(h).ok());
    if let (Some("one-day"), Some(s)) = (kind.as_deref(), parsed) {
        let mut from_seed = |turn: u64, name: &str, sides: u32| {
            crate::dice::draw(&s, &tag, turn, name, sides)
                .ok()
                .and_then(|d| d.value.checked_sub(1))
        };
        let recorded: Vec<(u64, String, u32, u32)> = draws
            .iter()
            .map(|d| (d.turn, d.name.clone(), d.sides, d.value))
            .collect();
        let (text, whole) = crate::kinds::oneday::verify::shuffles(&mut from_seed, &recorded);
        print!("{text}");
        ok &= whole;
    }
    Ok(if ok { Exit::Ok } else { Exit::Failure })
}
