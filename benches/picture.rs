//! Picture benchmarks (issue 18): drawing one game's picture, SVG and PNG,
//! for a verdict mail. Target: < 30 ms median. Figures go in the README.
//! `MORNBOT_PICTURE_CPU=N` draws N pictures and prints the CPU time of
//! one instead (for a machine too busy for wall times).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::gsd::parse_gsd;
use mornbot::map::Map;
use mornbot::picture::{self, Scene};

/// CPU seconds this process has used (user and system), from
/// /proc/self/stat (clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

/// The scenes drawn: the heaviest GSD of the fixtures (every box, many
/// labels), and a lounge game as the mailstack bench plays it (the demo
/// game after 23 turns: three Pieces, their Homes, one Move).
const SCENES: [(&str, &str); 2] = [
    (
        "full",
        include_str!("../fixtures/gsd/valid/25-full-gsd-all-boxes.txt"),
    ),
    ("lounge", include_str!("scenes/lounge-turn-23.txt")),
];

fn pictures(c: &mut Criterion) {
    let map = Map::london_1999();
    let scene_of = |text| Scene::from_gsd(map, &parse_gsd(text, map).unwrap()).unwrap();
    if let Some(n) = std::env::var("MORNBOT_PICTURE_CPU")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        // CPU time a picture, for a machine too busy for wall times.
        // `MORNBOT_PICTURE_SCENE` names one scene only (for valgrind).
        let only = std::env::var("MORNBOT_PICTURE_SCENE").ok();
        for (name, text) in SCENES {
            if only.as_deref().is_some_and(|o| o != name) {
                continue;
            }
            let scene = scene_of(text);
            let bytes = picture::draw_png(map, &scene).unwrap().len();
            let start = cpu_seconds();
            for _ in 0..n {
                black_box(picture::draw_png(map, black_box(&scene)).unwrap());
            }
            let ms = (cpu_seconds() - start) * 1000.0 / n as f64;
            eprintln!(
                "picture/png/{name}: {ms:.2} ms of CPU a picture ({n} pictures), {bytes} bytes"
            );
        }
        return;
    }
    for (name, text) in SCENES {
        let scene = scene_of(text);
        c.bench_function(&format!("picture/png/{name}"), |b| {
            b.iter(|| picture::draw_png(map, black_box(&scene)).unwrap())
        });
    }
    let scene = scene_of(SCENES[0].1);
    let svg = picture::svg(map, &scene).unwrap();
    eprintln!(
        "picture: {} bytes of SVG, {} bytes of PNG",
        svg.len(),
        picture::draw_png(map, &scene).unwrap().len()
    );
    c.bench_function("picture/png_from_svg", |b| {
        b.iter(|| picture::png(&picture::svg(map, black_box(&scene)).unwrap()).unwrap())
    });
    c.bench_function("picture/svg_only", |b| {
        b.iter(|| picture::svg(map, black_box(&scene)).unwrap())
    });
}

criterion_group!(benches, pictures);
criterion_main!(benches);
