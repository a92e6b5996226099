use super::*;
use crate::kinds::moneyrun::{read, Rulings, Square, Stack};

fn sq(t: &str) -> Square {
    Square::parse(t).unwrap()
}

/// Ann (seat 1, e1) and Bob (seat 2, e9), Ann to play, table L M S P P.
fn two() -> State {
    let mut s = State::empty(&["Ann".to_string(), "Bob".to_string()], Rulings::default()).unwrap();
    for c in [
        Coin::Large,
        Coin::Medium,
        Coin::Small,
        Coin::Puny,
        Coin::Puny,
    ] {
        s.bag[c.index()] -= 1;
        s.put_on_table(c);
    }
    s
}

fn run(s: &State, text: &str, values: &[u32]) -> Verdict {
    let mut it = values.iter();
    let mut oracle = |_: u64, _: &str, _: u32| *it.next().expect("a draw given");
    judge(
        s,
        &read(text).unwrap(),
        &s.current().name.clone(),
        &mut oracle,
    )
}

#[test]
fn a_placement_refills_and_leaves_the_turn_open() {
    let s = two();
    let Verdict::Legal {
        state, draws, open, ..
    } = run(&s, "place M e2", &[0])
    else {
        panic!()
    };
    assert!(open);
    assert_eq!(draws[0].name, "bag-1");
    assert_eq!(draws[0].turn, 1);
    assert_eq!(
        state.table,
        vec![
            Coin::Large,
            Coin::Large,
            Coin::Small,
            Coin::Puny,
            Coin::Puny
        ]
    );
    assert_eq!(state.coins_total(), 42);
    // The second action in a later mail, then the turn closes.
    let Verdict::Legal { state, open, .. } = run(&state, "pawn e2", &[]) else {
        panic!()
    };
    assert!(!open);
    assert_eq!(state.current().name, "Bob");
    assert_eq!(state.pawns[0].at, sq("e2"));
}

#[test]
fn a_step_onto_the_goal_line_wins_and_voids_the_rest() {
    let mut s = two();
    *s.stack_mut(sq("e8")) = Stack::parse("L").unwrap();
    *s.stack_mut(sq("e9")) = Stack::parse("L").unwrap();
    s.pawns[0].at = sq("e8");
    s.pawns[1].at = sq("a9");
    let v = run(&s, "pawn e9\nplace L a1", &[]);
    let Verdict::Won { state, changes, .. } = v else {
        panic!("{v:?}")
    };
    assert_eq!(state.winners, vec![0]);
    assert!(changes.iter().any(|c| c.contains("void")), "{changes:?}");
}

#[test]
fn a_timeout_passes_a_fresh_turn_and_ends_an_open_one() {
    let s = two();
    let (o, v) = timeout(&s);
    assert_eq!(o.close, Some(Close::Pass));
    let after = v.state().unwrap().clone();
    assert_eq!((after.passes, after.current().name.as_str()), (1, "Bob"));
    let (_, v) = timeout(&after);
    assert_eq!(v.state().unwrap().ending, Some(Ending::Passes));
}
