//! The archive's edge: read every game from the store, render its pages on
//! every core, and write the files that changed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::html::{self, Size};
use super::model::GameSummary;
use super::record::{Archived, Source};
use super::{record, ArchiveError};
use crate::map::Map;
use crate::picture::{self, Projection};
use crate::store::Store;

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games in the archive.
    pub games: usize,
    /// Turn pages in the archive.
    pub turns: usize,
    /// Files written (new or changed).
    pub written: usize,
    /// Files already up to date, left alone.
    pub unchanged: usize,
    /// Turn files of turns no longer in a log (taken back, judged
    /// Illegal), removed.
    pub removed: usize,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} game(s), {} turn page(s): {} file(s) written, {} unchanged, {} removed",
            self.games, self.turns, self.written, self.unchanged, self.removed
        )
    }
}

/// The site's directory, and what was done to it.
struct Site {
    root: PathBuf,
    written: AtomicUsize,
    unchanged: AtomicUsize,
    removed: AtomicUsize,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Site {
    /// Writes `bytes` to `rel` (under the root) unless the file holds them
    /// already; a new file is written beside it and renamed into place, so
    /// a web server never serves half a page.
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<(), ArchiveError> {
        let path = self.root.join(rel);
        let same = std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64)
            && std::fs::read(&path).is_ok_and(|old| old == bytes);
        if same {
            self.unchanged.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
        let tmp = path.with_file_name(format!(".{name}.tmp"));
        std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(io(&path))?;
        self.written.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Creates the directory `rel` (under the root) if it is missing:
    /// once a game, not once a file.
    fn dir(&self, rel: &str) -> Result<(), ArchiveError> {
        let path = self.root.join(rel);
        std::fs::create_dir_all(&path).map_err(io(&path))
    }

    /// Removes the turn files in `dir` that this build did not write.
    fn prune(&self, dir: &str, keep: &BTreeSet<String>) -> Result<(), ArchiveError> {
        let path = self.root.join(dir);
        for entry in std::fs::read_dir(&path).map_err(io(&path))? {
            let entry = entry.map_err(io(&path))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let ours =
                name.starts_with("turn-") && (name.ends_with(".html") || name.ends_with(".svg"));
            if ours && !keep.contains(&name) {
                std::fs::remove_file(entry.path()).map_err(io(&entry.path()))?;
                self.removed.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }
}

/// Writes one game's directory: its index, its current picture, and a
/// page per turn (its picture's overlay inline). Returns how many turns it
/// has.
fn write_game(
    site: &Site,
    map: &Map,
    stored: &Archived,
    summary: &GameSummary,
    size: Size,
) -> Result<usize, ArchiveError> {
    let turns = record::turns(map, stored)?;
    let dir = &summary.slug;
    let last = turns.len();
    let mut keep = BTreeSet::new();
    site.dir(dir)?;
    for (t, overlay) in &turns {
        let name = html::turn_file(t.n);
        site.put(
            &format!("{dir}/{name}"),
            html::turn_page(summary, t, overlay, last, size).as_bytes(),
        )?;
        keep.insert(name);
    }
    let game = &stored.game;
    let scene = picture::Scene::after_plays(map, &game.tag, game.state.clone(), &game.plays);
    let current = picture::overlay_svg(map, &scene).map_err(|source| ArchiveError::Picture {
        tag: game.tag.clone(),
        source,
    })?;
    site.put(
        &format!("{dir}/{}", html::CURRENT_OVERLAY),
        current.as_bytes(),
    )?;
    let gsd = crate::kinds::vol1::document(game, map);
    site.put(
        &format!("{dir}/{}", html::GSD_FILE),
        html::gsd_page(summary, &gsd).as_bytes(),
    )?;
    let records: Vec<_> = turns.into_iter().map(|(t, _)| t).collect();
    site.put(
        &format!("{dir}/index.html"),
        html::game_page(summary, &records, size).as_bytes(),
    )?;
    site.prune(dir, &keep)?;
    Ok(last)
}

/// Builds the archive of every game in `store` into `dir` (created if
/// needed): see the module documentation for what it writes. Games are
/// rendered on every core; only files whose bytes changed are written.
///
/// # Errors
///
/// The first game that cannot be rebuilt or drawn, the database failing,
/// or a file that cannot be written ([`ArchiveError`]).
pub fn build(
    map: &Map,
    store: &Store,
    dir: &Path,
    source: &dyn Source,
) -> Result<Report, ArchiveError> {
    let rows = store.games()?;
    let mut games = Vec::with_capacity(rows.len());
    let mut others = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        // Games of other kinds than Volume 1 (issue 41): read through
        // their kind, one page each.
        if super::hosted::is_hosted(row) {
            let h =
                super::hosted::read(store, row, record::slug(&row.tag, i)).map_err(|detail| {
                    ArchiveError::Hosted {
                        tag: row.tag.clone(),
                        detail,
                    }
                })?;
            others.push(h);
            continue;
        }
        let stored = source
            .volume1(map, store, row)
            .map_err(|detail| ArchiveError::Game {
                tag: row.tag.clone(),
                detail,
            })?;
        let summary = record::summary(&stored, record::slug(&row.tag, i));
        games.push((stored, summary));
    }
    let site = Site {
        root: dir.to_path_buf(),
        written: AtomicUsize::new(0),
        unchanged: AtomicUsize::new(0),
        removed: AtomicUsize::new(0),
    };
    let size = Size {
        width: picture::WIDTH,
        height: Projection::fit(map, picture::WIDTH, picture::MARGIN).height(),
    };
    let mut summaries: Vec<GameSummary> = games.iter().map(|(_, s)| s.clone()).collect();
    summaries.extend(others.iter().map(|h| h.summary.clone()));
    site.dir("")?;
    site.put("style.css", html::STYLE.as_bytes())?;
    site.put(html::NETWORK, picture::network_svg(map).as_bytes())?;
    site.put("index.html", html::index_page(&summaries).as_bytes())?;
    for h in &others {
        site.dir(&h.summary.slug)?;
        site.put(&format!("{}/index.html", h.summary.slug), h.page.as_bytes())?;
    }
    site.put(
        "points.html",
        html::points_page(&store.points()?).as_bytes(),
    )?;

    let next = AtomicUsize::new(0);
    let turns = AtomicUsize::new(0);
    let failed: Mutex<Option<(usize, ArchiveError)>> = Mutex::new(None);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(games.len())
        .max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((stored, summary)) = games.get(i) else {
                    break;
                };
                match write_game(&site, map, stored, summary, size) {
                    Ok(n) => {
                        turns.fetch_add(n, Ordering::Relaxed);
                    }
                    Err(e) => {
                        // Report the first game in order, whatever thread
                        // met its error first.
                        let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
                        if f.as_ref().is_none_or(|(j, _)| i < *j) {
                            *f = Some((i, e));
                        }
                        break;
                    }
                }
            });
        }
    });
    if let Some((_, e)) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(Report {
        games: games.len(),
        turns: turns.into_inner(),
        written: site.written.into_inner(),
        unchanged: site.unchanged.into_inner(),
        removed: site.removed.into_inner(),
    })
}
