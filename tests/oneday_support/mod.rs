//! Helpers shared by the One Day in London game tests.
#![allow(dead_code)]

use std::collections::BTreeSet;

use mornbot::kinds::oneday::{
    judge, read, CardId, Deck, Rulings, State, StationIdx, Verdict, Violation,
};

pub fn names(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cy", "Di"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// Draws that leave the deck in card order.
pub fn ident(_: u64, _: &str, sides: u32) -> Option<u32> {
    Some(sides - 1)
}

pub fn card(name: &str) -> CardId {
    let d = Deck::zone1();
    d.cards_of(d.find(name).unwrap()).next().unwrap().id
}

/// The seed's winning journey (fixtures/cases-oneday seed-001).
pub const WIN: [&str; 10] = [
    "Blackfriars",
    "Tower Hill",
    "Aldgate",
    "Farringdon",
    "Baker Street",
    "Regent's Park",
    "Elephant and Castle",
    "London Bridge",
    "Waterloo",
    "Edgware Road (Bakerloo)",
];

pub fn legal(v: Verdict) -> (State, Vec<String>) {
    match v {
        Verdict::Legal { state, changes } => (state, changes),
        other => panic!("expected Legal, got {other:?}"),
    }
}

pub fn won(v: Verdict) -> (State, Vec<String>) {
    match v {
        Verdict::Won { state, changes } => (state, changes),
        other => panic!("expected Won, got {other:?}"),
    }
}

pub fn refused(v: Verdict) -> Vec<Violation> {
    match v {
        Verdict::Illegal(vs) => vs,
        other => panic!("expected Illegal, got {other:?}"),
    }
}

pub fn play(s: &State, who: &str, text: &str) -> Verdict {
    judge(s, &read(text).unwrap(), who, &mut ident)
}

/// Cards not among `used`, ascending.
pub fn rest(used: &[CardId]) -> Vec<CardId> {
    (1..=72u8)
        .map(CardId)
        .filter(|c| !used.contains(c))
        .collect()
}

/// A game in play: Ann's and Bob's racks as given, the piles as given, the
/// draw pile every other card ascending (top first); Ann to move.
pub fn arrange(ann: [CardId; 10], bob: [CardId; 10], piles: [Vec<CardId>; 3]) -> State {
    let mut used: Vec<CardId> = ann.iter().chain(&bob).copied().collect();
    used.extend(piles.iter().flatten());
    let draw = rest(&used);
    State::arranged(&names(2), Rulings::default(), &[ann, bob], piles, &draw, 0)
}

/// Ann's rack: cards 1-10; Bob's: 11-20 (neither a journey).
pub fn plain() -> ([CardId; 10], [CardId; 10]) {
    (
        std::array::from_fn(|k| CardId(k as u8 + 1)),
        std::array::from_fn(|k| CardId(k as u8 + 11)),
    )
}

/// Plays set-up to its end with everyone placing left to right.
pub fn set_up(n: usize) -> State {
    let mut s = State::start(&names(n), Rulings::default(), &mut ident).unwrap();
    for slot in 1..=10 {
        for p in names(n) {
            let v = play(&s, &p, &format!("place {slot}"));
            s = match v {
                Verdict::Legal { state, .. } => state,
                other => panic!("{other:?}"),
            };
        }
    }
    s
}

pub fn one(v: Verdict) -> (&'static str, Option<&'static str>, String) {
    let vs = refused(v);
    assert_eq!(vs.len(), 1, "{vs:?}");
    (vs[0].rule, vs[0].ruling, vs[0].text.clone())
}

/// Whether `text` names only stations with a card in `visible` (line
/// names, "the Victoria" and "Victoria line", are not stations).
pub fn names_only(text: &str, visible: &BTreeSet<CardId>) -> Result<(), String> {
    let deck = Deck::zone1();
    let mut t = text.to_string();
    for l in deck.lines() {
        t = t.replace(&format!("{} line", l.name), "#");
        t = t.replace(&format!("the {}", l.name), "#");
    }
    let mut st: Vec<(usize, &str)> = deck
        .stations()
        .iter()
        .enumerate()
        .map(|(i, s)| (i, s.name.as_str()))
        .collect();
    st.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
    for (i, name) in st {
        if t.contains(name) {
            if !deck
                .cards_of(StationIdx(i as u8))
                .any(|c| visible.contains(&c.id))
            {
                return Err(format!("{name} named in: {text}"));
            }
            t = t.replace(name, "#");
        }
    }
    Ok(())
}
