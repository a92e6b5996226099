//! The judge's own tests; the rules are tested by the case corpus
//! (`fixtures/cases-mcxml/`).

use super::*;
use crate::kinds::mcxml::read::read;
use crate::kinds::mcxml::rulings::Rulings;

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(|s| s.to_string()).collect()
}

fn start() -> State {
    State::start(&names(&["Alice", "Bob", "Carol"]), Rulings::default()).unwrap()
}

fn turn(xml: &str) -> Turn {
    read(Facts::london(), xml).unwrap().turn
}

fn id(name: &str) -> StationId {
    Facts::london().map().lookup(name).unwrap()
}

#[test]
fn a_timeout_plays_an_empty_turn_and_passes_on() {
    let f = Facts::london();
    let s = start();
    let Verdict::Legal { state, changes } = timeout(f, &s) else {
        panic!("a timeout is legal");
    };
    assert_eq!(state.current().name, "Bob");
    assert_eq!(state.turns, 1);
    assert_eq!(state.trains, s.trains);
    assert_eq!(
        changes,
        ["Alice played no action", "0 of 60 minutes; Bob plays next"]
    );
}

#[test]
fn an_illegal_turn_changes_nothing_and_lists_every_violation_in_order() {
    let f = Facts::london();
    let s = start();
    let t = turn(
        r#"<Turn player="Alice"><Move steps="Euston"/><Work/><Block station="Holborn" strength="5"/><Slave/></Turn>"#,
    );
    let Verdict::Illegal(v) = judge(f, &s, &t, "Alice") else {
        panic!("illegal");
    };
    let rules: Vec<&str> = v.iter().map(|v| v.rule).collect();
    // The Move (3), the Block from Euston (6) unpaid (4), then the budget (2).
    assert_eq!(rules, ["3", "6", "4", "2"], "{v:?}");
    assert!(v[2].text.contains("Alice holds 1 token"), "{}", v[2]);
    assert_eq!(
        v[3].to_string(),
        "Rule 2: the actions last 140 minutes, over the 60 a turn may last (from action 3, Block)"
    );
    assert_eq!(s, start(), "the state judged is not touched");
}

#[test]
fn a_turn_out_of_rotation_is_judged_against_the_senders_train() {
    let f = Facts::london();
    let mut s = start();
    s.trains[1].at = id("Holborn");
    let t = turn(r#"<Turn player="Bob"><Move steps="Chancery Lane"/></Turn>"#);
    let Verdict::Illegal(v) = judge(f, &s, &t, "bob") else {
        panic!("illegal");
    };
    assert_eq!(v.len(), 1, "the Move from Holborn is fine: {v:?}");
    assert_eq!(v[0].rule, "1");
}

#[test]
fn a_win_ends_the_game_and_nothing_is_played_after_it() {
    let f = Facts::london();
    let mut s = start();
    s.trains[0].at = id("Euston");
    s.trains[0].parts = crate::kinds::mcxml::state::Parts([2, 2, 4, 1]);
    let Verdict::Won { state, changes } = judge(
        f,
        &s,
        &turn(r#"<Turn player="Alice"><Build/></Turn>"#),
        "Alice",
    ) else {
        panic!("won");
    };
    assert_eq!(state.winner, Some(0));
    assert_eq!(state.trains[0].at, f.mornington());
    assert!(!state.is_closed(f, f.mornington()));
    assert!(
        changes.last().unwrap().contains("Alice wins"),
        "{changes:?}"
    );
    let Verdict::Illegal(v) = timeout(f, &state) else {
        panic!("the game is over");
    };
    assert_eq!(v[0].ruling, Some("MX12"));
}

#[test]
fn costs_and_gains_come_from_the_table() {
    let f = Facts::london();
    let mut s = start();
    s.trains[0].tokens = 3;
    let t =
        turn(r#"<Turn player="Alice"><Work/><Block station="Goodge Street" strength="2"/></Turn>"#);
    let Verdict::Legal { state, changes } = judge(f, &s, &t, "Alice") else {
        panic!("legal");
    };
    assert_eq!(state.trains[0].tokens, 3 + ActionKind::Work.gain() - 2);
    assert_eq!(state.closed.len(), 1);
    assert_eq!(changes.last().unwrap(), "40 of 60 minutes; Bob plays next");
}

#[test]
fn the_lift_needs_every_other_train_ten_steps_away() {
    let f = Facts::london();
    let mut s = start();
    s.trains[0].at = id("Upminster");
    s.trains[0].tokens = 10;
    let t = turn(r#"<Turn player="Alice"><Buy item="lift"/></Turn>"#);
    assert!(matches!(judge(f, &s, &t, "Alice"), Verdict::Legal { .. }));
    s.trains[2].at = id("Upminster Bridge");
    let Verdict::Illegal(v) = judge(f, &s, &t, "Alice") else {
        panic!("illegal");
    };
    assert!(
        v[0].text
            .contains("Carol's train at Upminster Bridge is 1 steps"),
        "{}",
        v[0]
    );
}
