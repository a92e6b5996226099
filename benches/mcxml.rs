//! mc-xml benchmarks: judging a 40-action turn (over the 60 minutes, so
//! Illegal, but every action is judged) and rendering the state document.
//! Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::kinds::mcxml::{document, judge, read, Closure, Facts, Part, Rulings, State, Verdict};

fn mcxml(c: &mut Criterion) {
    let f = Facts::london();
    let map = f.map();
    let players: Vec<String> = ["Alice", "Bob", "Carol", "Dave", "Eve"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = State::start(&players, Rulings::default()).unwrap();
    s.trains[0].tokens = 40;
    s.trains[1].at = map.lookup("Oxford Circus").unwrap();
    *s.trains[1].parts.get_mut(Part::Lift) = 1;
    s.trains[2].at = map.lookup("Upminster").unwrap();
    s.trains[3].at = map.lookup("Morden").unwrap();
    for (name, strength) in [("Bank", 2), ("Victoria", 1), ("Baker Street", 3)] {
        s.closed.push(Closure {
            station: map.lookup(name).unwrap(),
            strength,
        });
    }
    // A realistic day's worth of actions, 40 of them: mostly Work and Moves
    // round the West End, a Block, an Unblock, a Buy and a Steal.
    let mut body = String::from("<Turn player=\"Alice\">\n");
    let route = [
        "Goodge Street",
        "Warren Street",
        "Euston",
        "King's Cross St. Pancras",
        "Angel",
        "Old Street",
        "Moorgate",
        "Liverpool Street",
        "Aldgate",
        "Tower Hill",
    ];
    for (k, st) in route.iter().enumerate() {
        body.push_str(&format!("<Move steps=\"{st}\"/>\n<Work/>\n"));
        if k == 3 {
            body.push_str(
                "<Block station=\"Farringdon\" strength=\"2\"/>\n<Unblock station=\"Victoria\"/>\n",
            );
        }
    }
    body.push_str("<Buy item=\"platform\"/>\n<Steal player=\"Bob\" item=\"lift\"/>\n");
    while body.matches("/>").count() < 40 {
        body.push_str("<Work/>\n");
    }
    body.push_str("<Comment>A long day.</Comment>\n</Turn>\n");
    let turn = read(f, &body).unwrap().turn;
    assert_eq!(turn.actions.len(), 40);
    let Verdict::Illegal(v) = judge(f, &s, &turn, "Alice") else {
        panic!("40 actions last more than 60 minutes");
    };
    eprintln!("40 actions: {} violations, first {}", v.len(), v[0]);
    c.bench_function("mcxml/judge_40_actions", |b| {
        b.iter(|| judge(f, black_box(&s), black_box(&turn), "Alice"))
    });
    c.bench_function("mcxml/read_40_actions", |b| {
        b.iter(|| read(f, black_box(&body)))
    });
    c.bench_function("mcxml/document", |b| {
        b.iter(|| document(f, black_box(&s), Some("Monday 30 November 2026, 22:00 UTC")))
    });
}

criterion_group!(benches, mcxml);
criterion_main!(benches);
