//! `mornbot archive build DIR`: the game archive as static web pages (see
//! [`crate::archive`]).

use std::path::Path;

use super::{daemon_cmd, db_cmd, Exit};

/// `mornbot archive build [--config FILE] [--db FILE] DIR`: writes the
/// site; exit 0 when built, 1 when a game cannot be rebuilt or a file
/// written, 2 when there is no database.
pub(super) fn build(config: Option<&Path>, db: Option<&Path>, dir: &Path) -> anyhow::Result<Exit> {
    let path = match db_cmd::database(config, db)? {
        Ok(p) => p,
        Err(e) => {
            eprintln!("mornbot archive build: {e}");
            return Ok(Exit::BadInput);
        }
    };
    if !path.exists() {
        eprintln!("mornbot archive build: {}: no database yet", path.display());
        return Ok(Exit::BadInput);
    }
    // The map the config names (the embedded one by default).
    let map = match daemon_cmd::load_config(config)?.map(|cfg| daemon_cmd::map_of(&cfg)) {
        Ok(Ok(Ok(map))) => map,
        Ok(Err(e)) => return Err(e),
        Ok(Ok(Err(e))) | Err(e) => {
            eprintln!("mornbot archive build: {e}");
            return Ok(Exit::BadInput);
        }
    };
    let store = crate::store::Store::open(&path)?;
    match crate::archive::build(map, &store, dir, &crate::daemon::ArchiveSource) {
        Ok(report) => {
            println!("{}: {report}", dir.display());
            Ok(Exit::Ok)
        }
        Err(e) => {
            eprintln!("mornbot archive build: {e}");
            Ok(Exit::Failure)
        }
    }
}
