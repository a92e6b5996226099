//! Picture benchmarks (issue 18): drawing one game's picture, SVG and PNG,
//! for a verdict mail. Target: < 30 ms median. Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::gsd::parse_gsd;
use mornbot::map::Map;
use mornbot::picture::{self, Scene};

fn pictures(c: &mut Criterion) {
    let map = Map::london_1999();
    let text = include_str!("../fixtures/gsd/valid/25-full-gsd-all-boxes.txt");
    let scene = Scene::from_gsd(map, &parse_gsd(text, map).unwrap()).unwrap();
    let svg = picture::svg(map, &scene).unwrap();
    eprintln!(
        "picture: {} bytes of SVG, {} bytes of PNG",
        svg.len(),
        picture::draw_png(map, &scene).unwrap().len()
    );
    c.bench_function("picture/png", |b| {
        b.iter(|| picture::draw_png(map, black_box(&scene)).unwrap())
    });
    c.bench_function("picture/png_from_svg", |b| {
        b.iter(|| picture::png(&picture::svg(map, black_box(&scene)).unwrap()).unwrap())
    });
    c.bench_function("picture/svg_only", |b| {
        b.iter(|| picture::svg(map, black_box(&scene)).unwrap())
    });
}

criterion_group!(benches, pictures);
criterion_main!(benches);
