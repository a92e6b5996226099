//! mc-xml property tests: the canonical turn reads back as the same turn;
//! reading any text and judging any turn never panic.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::kinds::mcxml::{
    canonical, document, judge, read, Action, Closure, Facts, Item, Part, Parts, Rulings, State,
    StationRef, Turn,
};
use mornbot::map::{LineCode, StationId};
use proptest::prelude::*;
use proptest::sample::select;

fn facts() -> &'static Facts {
    Facts::london()
}

fn station() -> impl Strategy<Value = StationId> {
    (0..facts().station_count() as u16).prop_map(StationId)
}

fn station_ref() -> impl Strategy<Value = StationRef> {
    (
        station(),
        proptest::option::of(select(LineCode::ALL.to_vec())),
    )
        .prop_map(|(id, line)| StationRef { id, line })
}

fn steps(max: usize) -> impl Strategy<Value = Vec<StationRef>> {
    proptest::collection::vec(station_ref(), 1..max)
}

/// A name as a reader gives it back: no space at either end, none doubled.
fn name() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9'&<>\"]{0,6}( [A-Za-z0-9&]{1,6})?"
}

fn part() -> impl Strategy<Value = Part> {
    select(Part::ALL.to_vec())
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        steps(8).prop_map(|steps| Action::Move { steps }),
        (name(), steps(6), proptest::option::of(0u32..20)).prop_map(|(player, steps, force)| {
            Action::Shunt {
                player,
                steps,
                force,
            }
        }),
        (station_ref(), 0u32..1000)
            .prop_map(|(station, strength)| Action::Block { station, strength }),
        station_ref().prop_map(|station| Action::Unblock { station }),
        (name(), proptest::option::of(part())).prop_map(|(player, p)| Action::Steal {
            player,
            item: p.map_or(Item::Token, Item::Part),
        }),
        Just(Action::Work),
        Just(Action::Slave),
        part().prop_map(|item| Action::Buy { item }),
        Just(Action::Build),
    ]
}

/// Comment content as XML: any text, escaped.
fn comment() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 .,!?'&<>\"]{0,40}".prop_map(|t| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    })
}

fn turn() -> impl Strategy<Value = Turn> {
    (
        name(),
        proptest::collection::vec(action(), 0..12),
        proptest::collection::vec(comment(), 0..3),
    )
        .prop_map(|(player, actions, comments)| Turn {
            player,
            actions,
            comments,
            foreign: Vec::new(),
        })
}

fn state() -> impl Strategy<Value = State> {
    let train = (station(), any::<u32>(), proptest::array::uniform4(0u32..6));
    (
        proptest::collection::vec(train, 2..6),
        proptest::collection::vec((station(), 0u32..8), 0..5),
        any::<usize>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(trains, closed, to_play, on, adjacent)| {
            let players: Vec<String> = (0..trains.len()).map(|i| format!("P{i}")).collect();
            let rulings = Rulings::from_words(&[
                format!("build_at={}", if on { "on" } else { "adjacent" }),
                format!("unblock_adjacent={adjacent}"),
            ])
            .unwrap();
            let mut s = State::start(&players, rulings).unwrap();
            for (t, (at, tokens, parts)) in s.trains.iter_mut().zip(trains) {
                t.at = at;
                t.tokens = tokens;
                t.parts = Parts(parts);
            }
            s.bought = s
                .trains
                .iter()
                .fold(Parts::default(), |b, t| b.plus(t.parts));
            for (station, strength) in closed {
                if station != facts().mornington() && s.block(station).is_none() {
                    s.closed.push(Closure { station, strength });
                }
            }
            s.to_play = to_play % s.trains.len();
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_canonical_turn_reads_back_as_the_same_turn(t in turn()) {
        let text = canonical(facts(), &t);
        let back = read(facts(), &text);
        prop_assert!(back.is_ok(), "{text}\n{:?}", back.err());
        let back = back.unwrap();
        prop_assert_eq!(&back.turn, &t, "{}", text);
        prop_assert!(back.repairs.is_empty(), "{:?}", back.repairs);
    }

    #[test]
    fn judging_never_panics(s in state(), t in turn(), sender in prop_oneof![name(), Just("P0".to_string()), Just("P1".to_string())]) {
        let v = judge(facts(), &s, &t, &sender);
        if let Some(after) = v.state() {
            prop_assert!(document(facts(), after, None).lines().all(|l| l.chars().count() <= 72));
        }
    }

    #[test]
    fn reading_any_text_never_panics(body in "(<Turn player=\"P0\">)?[ -~\n“”‘’&<>]{0,200}(</Turn>)?") {
        let _ = read(facts(), &body);
    }
}
