//! Verdicts the rule-case format cannot express: plays the engine does not
//! adjudicate must come back as NeedsRuling, naming the rule, and never as
//! Legal; a violation elsewhere in the play still makes it Illegal.

use mornbot::engine::{adjudicate, case::Case, Verdict};
use mornbot::gsd::parse_play;
use mornbot::map::Map;

const STATE: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob"]
to_play = "Alice"
[state.stacks]
"Chancery Lane" = "ReReRe"
[[state.players]]
name = "Alice"
home = "Cockfosters"
at = "Holborn (CN)"
lv = 0
tokens = { Bk = 2, Bu = 2 }
[[state.players]]
name = "Bob"
home = "Morden"
at = "Angel (NT)"
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

fn judge(line: &str) -> mornbot::engine::Outcome {
    let map = Map::london_1999();
    let state = Case::from_toml(STATE).unwrap().state(map).unwrap();
    adjudicate(map, &state, &parse_play(line, map).unwrap())
}

#[test]
fn an_action_not_yet_adjudicated_needs_a_ruling() {
    let out = judge("Alice : Pass [Cowering]");
    assert_eq!(out.verdict, Verdict::NeedsRuling);
    assert!(
        out.rulings.iter().any(|r| r.rule == "1.7.56"),
        "{:?}",
        out.rulings
    );
    assert!(out.state.is_none(), "no new state without a ruling");
}

#[test]
fn a_running_straddle_needs_a_ruling() {
    // No Stack at Holborn; the neighbour Chancery Lane holds three Tokens,
    // enough to reach Bank, but only in the last Move's Line Direction.
    let out = judge("Alice : Pass [Straddling to Bank (CN)]");
    assert_eq!(out.verdict, Verdict::NeedsRuling, "{:?}", out.violations);
    assert!(out.rulings.iter().any(|r| r.rule == "1.7.6"));
}

#[test]
fn a_violation_outweighs_a_ruling() {
    // Bob is not to play: Illegal, whatever [Cowering] would need.
    let out = judge("Bob : Pass [Cowering]");
    assert_eq!(out.verdict, Verdict::Illegal);
    assert!(!out.violations.is_empty());
}
