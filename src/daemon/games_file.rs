//! The games file (`[bot] games_file`, `<data_dir>/game.toml` on the
//! embedded default): `[[game]]` tables the daemon records in the database
//! (issue 20). It is imported when it changed since its last import, known
//! by a digest of its bytes kept in the database, so a start with an
//! unchanged file of 100,000 games parses nothing.

use std::path::Path;

use super::{io, DaemonError, Setup};
use crate::config::GameConfig;
use crate::store::Store;

/// The `meta` key of the last import's stamp.
const KEY: &str = "games_file";

/// Reads a games file.
///
/// # Errors
///
/// When it cannot be read or is not a file of `[[game]]` tables.
pub fn read(file: &Path) -> Result<Vec<GameConfig>, DaemonError> {
    let text = std::fs::read_to_string(file).map_err(io(file))?;
    let games: crate::config::GamesFile = toml::from_str(&text)
        .map_err(|e| DaemonError::Config(format!("{}: {e}", file.display())))?;
    crate::config::check_players(&games.games)
        .map_err(|e| DaemonError::Config(format!("{}: {e}", file.display())))?;
    Ok(games.games)
}

/// The games file's stamp and games when it changed since its last import
/// (or was never imported); `None` when there is no file or it did not
/// change.
///
/// # Errors
///
/// As [`read`], and when the database fails.
pub fn changed(
    setup: &Setup,
    store: &Store,
) -> Result<Option<(String, Vec<GameConfig>)>, DaemonError> {
    let Some(file) = &setup.games_file else {
        return Ok(None);
    };
    let bytes = std::fs::read(file).map_err(io(file))?;
    let stamp = format!("{} {:016x}", file.display(), fnv1a(&bytes));
    if store.meta(KEY)?.as_deref() == Some(stamp.as_str()) {
        return Ok(None);
    }
    drop(bytes);
    Ok(Some((stamp, read(file)?)))
}

/// Records that the games file with `stamp` was imported (after its games
/// were recorded: a crash before this imports it again, which records
/// nothing twice).
///
/// # Errors
///
/// When the database fails.
pub fn imported(store: &mut Store, stamp: &str) -> Result<(), DaemonError> {
    Ok(store.set_meta(KEY, stamp)?)
}

/// FNV-1a, 64 bits: a change detector, not a defence (the file is the
/// operator's own).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn the_digest_tells_files_apart() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(
            fnv1a(b"[[game]]\ntag = \"MN1\""),
            fnv1a(b"[[game]]\ntag = \"MN2\"")
        );
    }
}
