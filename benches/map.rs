//! Map benchmarks: start-up load (parse, validate, all-pairs distances),
//! station lookup, and distance queries. Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::map::{LineCode, Map, LONDON_1999};

fn load(c: &mut Criterion) {
    c.bench_function("map/load_validate_all_pairs", |b| {
        b.iter(|| Map::from_toml(black_box(LONDON_1999), "maps/london-1999.toml").unwrap())
    });
}

fn queries(c: &mut Criterion) {
    let map = Map::london_1999();
    c.bench_function("map/lookup_exact", |b| {
        b.iter(|| map.lookup(black_box("Mornington Crescent")).unwrap())
    });
    c.bench_function("map/lookup_alias", |b| {
        b.iter(|| {
            map.lookup(black_box("heathrow terminals 1, 2 & 3"))
                .unwrap()
        })
    });
    let (a, z) = (
        map.lookup("Amersham").unwrap(),
        map.lookup("Island Gardens").unwrap(),
    );
    c.bench_function("map/fosdyke", |b| {
        b.iter(|| map.fosdyke(black_box(a), black_box(z)))
    });
    let (h, e) = (
        map.lookup("Holborn").unwrap(),
        map.lookup("Euston").unwrap(),
    );
    c.bench_function("map/portion_distance_two_lines", |b| {
        b.iter(|| map.portion_distance(black_box(h), &[LineCode::CN, LineCode::NT], black_box(e)))
    });
}

criterion_group!(benches, load, queries);
criterion_main!(benches);
