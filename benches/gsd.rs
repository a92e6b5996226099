//! GSD benchmarks: parse + render of a 2,000-play GSD (about 150 KB), and
//! one play line. Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::gsd::{parse_gsd, parse_play, render};
use mornbot::map::Map;

const PLAYS: [&str; 8] = [
    "Rushton : [LV+1] Euston (VC via: CN,NT) [Blocking Warren Street] {a fine move}",
    "Cryer : [LV-2] Edgware Road (BL) [Purchasing Overpriced Baguette] [Blue to Gold]",
    "Garden : Amersham (MP) [Red Token on Amersham] [Blocking Chalfont and Latimer]",
    "Brooke-Taylor : Holborn (CN via: PD,NT) [Shunting Rushton to Moorgate (NT)]",
    "Rushton : Pass (Euston (VC)) [Visiting Crewe] {back soon}",
    "Cryer : [Walking] Marylebone (BL) [Bridges Up] [Fire at Baker Street]",
    "Garden : Monument (for Bank) [Claiming a Gold Token from Bank]",
    "Brooke-Taylor : [Rebounding] Kensington (Olympia) (DS via: CL,PD) [Bulkheading Earl's Court]",
];

/// A realistic GSD of `n` plays.
pub fn big_gsd(n: usize) -> String {
    let mut s = String::from(include_str!(
        "../fixtures/gsd/valid/00-rule-1.2.0-example.txt"
    ));
    let cut = s.find("Brooke-Taylor : Holborn").unwrap();
    s.truncate(cut);
    for i in 0..n {
        s.push_str(PLAYS[i % PLAYS.len()]);
        s.push('\n');
    }
    s
}

fn gsd(c: &mut Criterion) {
    let map = Map::london_1999();
    let text = big_gsd(2000);
    eprintln!("2,000-play GSD: {} bytes", text.len());
    c.bench_function("gsd/parse_render_2000_plays", |b| {
        b.iter(|| render(&parse_gsd(black_box(&text), map).unwrap()))
    });
    let g = parse_gsd(&text, map).unwrap();
    c.bench_function("gsd/render_2000_plays", |b| {
        b.iter(|| render(black_box(&g)))
    });
    let line = PLAYS[0];
    c.bench_function("gsd/parse_play_line", |b| {
        b.iter(|| parse_play(black_box(line), map).unwrap())
    });
    let simple = "Rushton : Euston (VC via: CN,NT)";
    c.bench_function("gsd/parse_play_line_no_actions", |b| {
        b.iter(|| parse_play(black_box(simple), map).unwrap())
    });
}

criterion_group!(benches, gsd);
criterion_main!(benches);
