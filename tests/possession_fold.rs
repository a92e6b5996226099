//! What a game's fold of plays carries from one Turn to the next for
//! possessions and Tithes: the Zone Tithed until the end of the Tither's
//! next Turn (Rule 1.7.31, RULINGS.md E68) and the Pass a Blasted player
//! owes after a Velocity Bomb's explosion (Rules 1.4.38, 1.7.30, E69).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::engine::{case::Case, Game, Verdict};
use mornbot::gsd::parse_play;
use mornbot::map::Map;

/// Alice to play at Holborn, carrying a Primed Velocity Bomb, with Blue for
/// a Tithe of Zone 1; Bob at Chancery Lane, one stop away.
const START: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob"]
to_play = "Alice"
[[state.players]]
name = "Alice"
at = "Holborn (CN)"
home = "Cockfosters"
lv = 5
tokens = { Bk = 2, Bu = 8 }
possessions = ["Velocity Bomb (Primed)"]
[[state.players]]
name = "Bob"
at = "Chancery Lane (CN)"
home = "Upminster"
tokens = { Bk = 2, Re = 2 }
possessions = ["Spectacles"]
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

fn game() -> (Game, &'static Map) {
    let map = Map::london_1999();
    let start = Case::from_toml(START).unwrap().state(map).unwrap();
    (Game::new("T", start), map)
}

fn play(g: &mut Game, map: &Map, line: &str) -> Verdict {
    g.play(map, parse_play(line, map).unwrap()).verdict
}

#[test]
fn a_tithe_is_collected_in_the_next_turn_only() {
    let (mut g, map) = game();
    // Alice Tithes Zone 1 (6 Blue); the Bomb explodes as her LV falls to 0.
    assert_eq!(play(&mut g, map, "Alice : Pass [Tithe 1]"), Verdict::Legal);
    assert_eq!(g.state.tithes.len(), 1);
    // Bob, Blasted, owes a bare Pass.
    assert_eq!(play(&mut g, map, "Bob : Pass"), Verdict::Legal);
    // Alice was Blasted too: a Pass with no Actions, so she cannot collect.
    let mut g2 = g.clone();
    assert_eq!(
        play(
            &mut g2,
            map,
            "Alice : Pass [Collecting Tithe] {tithes Red from Bob}"
        ),
        Verdict::Illegal
    );
    // After her bare Pass the Tithe has ended with her Turn.
    assert_eq!(play(&mut g, map, "Alice : Pass"), Verdict::Legal);
    assert!(g.state.tithes.is_empty());
}

#[test]
fn an_explosion_blasts_its_neighbours_and_they_owe_a_pass() {
    let (mut g, map) = game();
    assert_eq!(play(&mut g, map, "Alice : Pass"), Verdict::Legal);
    let bob = g.state.player_index("Bob").unwrap();
    assert!(g.state.players[bob].possessions.is_empty());
    assert_eq!(g.state.blasted.len(), 2, "{:?}", g.state.blasted);
    // Bob's Move is Illegal; his bare Pass is Legal, and discharges it.
    let mut g2 = g.clone();
    assert_eq!(
        play(&mut g2, map, "Bob : St. Paul's (CN)"),
        Verdict::Illegal
    );
    assert_eq!(play(&mut g, map, "Bob : Pass"), Verdict::Legal);
    assert!(!g.state.blasted.iter().any(|b| b == "Bob"));
}

#[test]
fn a_tithe_with_no_explosion_is_collected_a_turn_later() {
    let map = Map::london_1999();
    let start = Case::from_toml(&START.replace("\"Velocity Bomb (Primed)\"", ""))
        .unwrap()
        .state(map)
        .unwrap();
    let mut g = Game::new("T", start);
    assert_eq!(play(&mut g, map, "Alice : Pass [Tithe 1]"), Verdict::Legal);
    assert_eq!(play(&mut g, map, "Bob : Pass"), Verdict::Legal);
    assert_eq!(
        play(
            &mut g,
            map,
            "Alice : Pass [Collecting Tithe] {tithes Red from Bob}"
        ),
        Verdict::Legal
    );
    let alice = g.state.player_index("Alice").unwrap();
    assert_eq!(
        g.state.players[alice].tokens.get(mornbot::gsd::Colour::Red),
        1
    );
}
