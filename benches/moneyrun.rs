//! Money Run benchmarks (issue 42): judging one action (a placement with
//! its refill, the turn closing and the no-legal-action check; and a
//! three-square pawn descent) on a mid-game board (< 50 us median), the
//! state document, and the board picture as SVG and PNG (< 10 ms).
//! Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::kinds::moneyrun::{document, judge, read, Rulings, Square, Stack, State, Verdict};
use mornbot::picture::{moneyrun_png, moneyrun_svg};

/// Four players, 20 coins on the board, the pawns on their way.
fn mid_game() -> State {
    let players: Vec<String> = ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut k = 0u32;
    let mut oracle = |_: u64, _: &str, sides: u32| {
        k += 7;
        k % sides
    };
    let (mut s, _) = State::start(&players, Rulings::default(), &mut oracle).unwrap();
    let stacks = [
        ("e2", "LMSP"),
        ("e3", "LM"),
        ("e4", "M"),
        ("e5", "SP"),
        ("d5", "MMS"),
        ("e8", "P"),
        ("b5", "LS"),
        ("h5", "MSP"),
        ("c3", "PP"),
    ];
    for (sq, coins) in stacks {
        let stack = Stack::parse(coins).unwrap();
        for c in stack.coins() {
            s.bag[c.index()] -= 1;
        }
        *s.stack_mut(Square::parse(sq).unwrap()) = stack;
    }
    s.pawns[0].at = Square::parse("e2").unwrap();
    s.pawns[1].at = Square::parse("e8").unwrap();
    s.to_play = 0;
    s.order = vec![0, 2, 1, 3];
    assert_eq!(s.coins_total(), 42);
    s
}

fn moneyrun(c: &mut Criterion) {
    let s = mid_game();
    let place = read("place P e6; end").unwrap();
    let descent = read("pawn e2 e3 e4").unwrap();
    let mut draw = |_: u64, _: &str, sides: u32| sides / 2;
    assert!(matches!(
        judge(&s, &place, "Ann", &mut draw),
        Verdict::Legal { .. }
    ));
    assert!(matches!(
        judge(&s, &descent, "Ann", &mut draw),
        Verdict::Legal { .. }
    ));
    c.bench_function("moneyrun/judge_placement", |b| {
        b.iter(|| judge(black_box(&s), black_box(&place), "Ann", &mut draw))
    });
    c.bench_function("moneyrun/judge_pawn_descent", |b| {
        b.iter(|| judge(black_box(&s), black_box(&descent), "Ann", &mut draw))
    });
    c.bench_function("moneyrun/read", |b| {
        b.iter(|| read(black_box("place M e4\npawn e2 e3 e4\n\nCheers\n-- \nAnn")))
    });
    c.bench_function("moneyrun/document", |b| {
        b.iter(|| document(black_box(&s), Some("Monday 30 November 2026, 22:00 UTC")))
    });
    c.bench_function("moneyrun/picture_svg", |b| {
        b.iter(|| moneyrun_svg(black_box(&s)))
    });
    c.bench_function("moneyrun/picture_png", |b| {
        b.iter(|| moneyrun_png(black_box(&s)).unwrap())
    });
}

criterion_group!(benches, moneyrun);
criterion_main!(benches);
