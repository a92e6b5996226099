//! One Day in London (issue 43): judging one rack as a journey (< 20 us
//! median): the seed's winning journey, a rack breaking at its last
//! step (the whole programme run), and both under Boardspace's rulings.
//! Also the private picture of the winning rack as PNG
//! (`oneday_rack_png`). Figures go in the README.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use mornbot::kinds::oneday::{check_rack, CardId, Deck, JourneyRulings};
use mornbot::picture::oneday_rack_png;

/// The rack of `names`, each station's copies in turn.
fn rack(deck: &Deck, names: &[&str]) -> Vec<CardId> {
    let mut used = std::collections::HashMap::new();
    names
        .iter()
        .map(|n| {
            let s = deck.find(n).unwrap();
            let k = used.entry(s).or_insert(0);
            *k += 1;
            deck.cards_of(s).nth(*k - 1).unwrap().id
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let deck = Deck::zone1();
    // The seed's "typical 10 stop trip", stops between as RULINGS OD10.
    let winning = rack(
        deck,
        &[
            "Blackfriars",
            "Tower Hill",
            "Aldgate",
            "King's Cross",
            "Baker Street",
            "Oxford Circus",
            "Elephant and Castle",
            "Bank",
            "Waterloo",
            "Edgware Road (Bakerloo)",
        ],
    );
    // Interchanges all the way, broken only at the last step.
    let late = rack(
        deck,
        &[
            "Baker Street",
            "Great Portland Street",
            "King's Cross",
            "Euston",
            "Warren Street",
            "Oxford Circus",
            "Green Park",
            "Westminster",
            "Waterloo",
            "Vauxhall",
        ],
    );
    for (name, rulings) in [
        ("text", JourneyRulings::default()),
        ("boardspace", JourneyRulings::boardspace()),
    ] {
        assert!(check_rack(deck, &winning, &rulings).is_ok());
        assert!(check_rack(deck, &late, &rulings).is_err());
        c.bench_function(&format!("oneday/journey_valid_{name}"), |b| {
            b.iter(|| check_rack(deck, black_box(&winning), &rulings))
        });
        c.bench_function(&format!("oneday/journey_breaks_last_{name}"), |b| {
            b.iter(|| check_rack(deck, black_box(&late), &rulings))
        });
    }
    let shown: [Option<CardId>; 10] = std::array::from_fn(|k| Some(winning[k]));
    let rulings = JourneyRulings::default();
    c.bench_function("oneday/rack_png", |b| {
        b.iter(|| oneday_rack_png(deck, black_box(&shown), &rulings).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
