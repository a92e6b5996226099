//! Adjudicator benchmarks: a typical play, the worst route search, and
//! replaying a 2,000-play game. Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::engine::case::Case;
use mornbot::engine::{adjudicate, replay};
use mornbot::gsd::parse_play;
use mornbot::map::Map;

fn state(players: &str, extra: &str) -> mornbot::engine::GameState {
    let text = format!(
        "id = \"bench\"\nrules = []\nsummary = \"bench\"\n[state]\ntime = \"Monday 0900\"\norder = [\"Alice\", \"Bob\"]\nto_play = \"Alice\"\n{extra}\n{players}\n[play]\nline = \"Alice : Pass\"\n[expect]\nverdict = \"legal\"\n"
    );
    Case::from_toml(&text)
        .unwrap()
        .state(Map::london_1999())
        .unwrap()
}

fn engine(c: &mut Criterion) {
    let map = Map::london_1999();
    // Typical: LV 6, two line changes, three actions.
    let s = state(
        "[[state.players]]\nname = \"Alice\"\nat = \"Holborn (CN)\"\nhome = \"Cockfosters\"\nlv = 4\ntokens = { Bk = 5, Re = 5, Br = 9, Bu = 5, Go = 2 }\n[[state.players]]\nname = \"Bob\"\nat = \"Angel (NT)\"\nhome = \"Morden\"",
        "",
    );
    let typical = parse_play("Alice : [LV+1] Baker Street (CL via: PD) [Blocking Great Portland Street] [Bronze to Silver]", map).unwrap();
    let out = adjudicate(map, &s, &typical);
    eprintln!("typical play: {:?} {:?}", out.verdict, out.violations);
    // Instruction counts, which unlike times do not move with the machine's
    // load: `MORNBOT_ENGINE_ITERS=N` judges the typical play N times and
    // stops, for `valgrind --tool=cachegrind` at two N (README).
    if let Some(n) = std::env::var("MORNBOT_ENGINE_ITERS")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        for _ in 0..n {
            black_box(adjudicate(map, black_box(&s), black_box(&typical)));
        }
        std::process::exit(0);
    }
    c.bench_function("engine/typical_play", |b| {
        b.iter(|| adjudicate(map, black_box(&s), black_box(&typical)))
    });

    // Worst search: LV 20 with four via lines.
    let s20 = state(
        "[[state.players]]\nname = \"Alice\"\nat = \"Amersham (MP)\"\nhome = \"Chesham\"\nlv = 20\n[[state.players]]\nname = \"Bob\"\nat = \"Angel (NT)\"\nhome = \"Morden\"",
        "",
    );
    let worst = parse_play("Alice : Bank (CN via: MP,JL,VC,PD)", map).unwrap();
    let out = adjudicate(map, &s20, &worst);
    eprintln!(
        "worst search: {:?} {:?}",
        out.verdict,
        out.violations.first()
    );
    c.bench_function("engine/worst_search_lv20_four_via", |b| {
        b.iter(|| adjudicate(map, black_box(&s20), black_box(&worst)))
    });

    // Replay: 2,000 legal plays shuttling between two stations.
    let s0 = state(
        "[[state.players]]\nname = \"Alice\"\nat = \"Holborn (CN)\"\nhome = \"Cockfosters\"\nlv = 1\n[[state.players]]\nname = \"Bob\"\nat = \"Old Street (NT)\"\nhome = \"Morden\"\nlv = 1",
        "",
    );
    let mut plays = Vec::new();
    for i in 0..2000 {
        let line = match i % 4 {
            0 => "Alice : Tottenham Court Road (CN)",
            1 => "Bob : Moorgate (NT)",
            2 => "Alice : Holborn (CN)",
            _ => "Bob : Old Street (NT)",
        };
        plays.push(parse_play(line, map).unwrap());
    }
    let (_, stop) = replay(map, s0.clone(), &plays);
    assert!(
        stop.is_none(),
        "the replay game is legal: {:?}",
        stop.map(|s| s.1.violations)
    );
    c.bench_function("engine/replay_2000_plays", |b| {
        b.iter(|| replay(map, black_box(s0.clone()), black_box(&plays)))
    });
}

criterion_group!(benches, engine);
criterion_main!(benches);
