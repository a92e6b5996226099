//! Archive benchmark (issue 18): `mornbot archive build` of 50 games x 200
//! legal turns from a SQLite store, into an empty directory (a full
//! build), and again over an up-to-date site (nothing to write). Target:
//! the full build < 10 s. Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

#[path = "../tests/archive_support/games.rs"]
mod games;

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use mornbot::map::Map;
use mornbot::store::Store;

const GAMES: usize = 50;
const TURNS: usize = 200;

/// Bytes and files under `dir`.
fn size(dir: &Path) -> (u64, usize) {
    let (mut bytes, mut files) = (0, 0);
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let m = e.metadata().unwrap();
            if m.is_dir() {
                dirs.push(e.path());
            } else {
                bytes += m.len();
                files += 1;
            }
        }
    }
    (bytes, files)
}

fn archive(c: &mut Criterion) {
    let map = Map::london_1999();
    let dir = std::env::temp_dir().join(format!("mornbot-bench-archive-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut store = Store::open(&dir.join("mornbot.db")).unwrap();
    let t = Instant::now();
    for g in 1..=GAMES {
        games::write_game(
            &mut store,
            map,
            &format!("MN{g}"),
            &["Rushton", "Warren", "Acton"],
            TURNS,
        );
    }
    eprintln!(
        "archive: {GAMES} games x {TURNS} legal turns stored in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let site = dir.join("site");
    let report =
        mornbot::archive::build(map, &store, &site, &mornbot::daemon::ArchiveSource).unwrap();
    let (bytes, files) = size(&site);
    eprintln!(
        "archive: {report}; {files} files, {:.1} MB",
        bytes as f64 / 1e6
    );

    let mut group = c.benchmark_group("archive");
    // Seconds per build: ten builds, one per sample.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("full_build_50x200", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let _ = std::fs::remove_dir_all(&site);
                let t = Instant::now();
                mornbot::archive::build(map, &store, &site, &mornbot::daemon::ArchiveSource)
                    .unwrap();
                total += t.elapsed();
            }
            total
        })
    });
    group.bench_function("rebuild_unchanged_50x200", |b| {
        b.iter(|| {
            mornbot::archive::build(map, &store, &site, &mornbot::daemon::ArchiveSource).unwrap()
        })
    });
    group.finish();
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, archive);
criterion_main!(benches);
