//! Fuzz One Day in London's order reader (issue 43): any mail body either
//! reads as an order or fails with an error, never a panic; an order read
//! renders to a canonical line that reads back as the same order; judging
//! it never panics, in the set-up, on a turn, and with a card drawn, from
//! each player and a stranger; and the documents of what it leads to
//! render.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mornbot::kinds::oneday::{
    canonical, judge, private_document, public_document, read, CardId, Next, Order, Rulings,
    State, Verdict,
};

const PLAYERS: [&str; 3] = ["Ann", "Bob", "Cat"];

/// The draws: always the last index (a game's dice, as a value).
fn last(_: u64, _: &str, sides: u32) -> Option<u32> {
    Some(sides - 1)
}

/// The state `order` leads to from `s` by `who`; it must stand.
fn after(s: &State, order: &Order, who: &str) -> State {
    match judge(s, order, who, &mut last) {
        Verdict::Legal { state, .. } | Verdict::Won { state, .. } => state,
        other => panic!("{order:?} by {who}: {other:?}"),
    }
}

/// A game in set-up, one on a turn, and one with a card drawn.
fn states() -> &'static [State; 3] {
    static STATES: OnceLock<[State; 3]> = OnceLock::new();
    STATES.get_or_init(|| {
        let players: Vec<String> = PLAYERS.map(String::from).to_vec();
        let order: Vec<CardId> = (1..=72u8).map(CardId).collect();
        let setup = State::start_with_order(&players, Rulings::default(), &order).unwrap();
        let mut play = setup.clone();
        for who in PLAYERS {
            for slot in 1..=10 {
                play = after(&play, &Order::Place(slot), who);
            }
        }
        let Next::Act { players: movers, .. } = play.next() else {
            panic!("over after the set-up")
        };
        let drawn = after(&play, &Order::Draw, &movers[0]);
        [setup, play, drawn]
    })
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 64 * 1024 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(order) = read(text) else { return };
    let line = canonical(&order);
    let again = read(&line).expect("the canonical line reads");
    assert_eq!(again, order, "round trip of {line:?}");
    for s in states() {
        for who in PLAYERS.iter().chain(&["Stranger"]) {
            if let Verdict::Legal { state, .. } | Verdict::Won { state, .. } =
                judge(s, &order, who, &mut last)
            {
                let _ = public_document(&state, None);
                let _ = private_document(&state, who, None);
            }
        }
    }
});
