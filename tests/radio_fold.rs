//! Radiation and Knerdling through a game's fold: the order of `[Radio
//! Clamp <N> to <Station>]` waits for the Controllee's next Turn (Rule
//! 1.4.46, RULINGS.md E74), and who gave a Clamp since a player's last Turn
//! comes from the plays (Rule 1.4.36, RULINGS.md E75).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::engine::{case::Case, Game, Verdict};
use mornbot::gsd::{parse_play, Colour};
use mornbot::map::Map;

/// Alice (Remote Control 2, On; the Knerdling Stick) and Bob at Euston on
/// the Victoria line, Carol at Oxford Circus; Carol passes first.
const START: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob", "Carol"]
to_play = "Carol"
[[state.players]]
name = "Alice"
at = "Euston (VC)"
home = "Cockfosters"
tokens = { Bk = 2, Re = 9 }
possessions = ["Remote Control 2 (On)"]
[[state.players]]
name = "Bob"
at = "Euston (VC)"
home = "Upminster"
lv = 2
tokens = { Bk = 2, Re = 9, Br = 2 }
possessions = ["Knerdling Stick"]
[[state.players]]
name = "Carol"
at = "Oxford Circus (VC)"
home = "Morden"
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

fn play(g: &mut Game, map: &Map, line: &str) {
    let out = g.play(map, parse_play(line, map).unwrap());
    assert_eq!(
        out.verdict,
        Verdict::Legal,
        "{line}: {:?} {:?}",
        out.violations,
        out.rulings
    );
}

fn game() -> (Game, &'static Map) {
    let map = Map::london_1999();
    let start = Case::from_toml(START).unwrap().state(map).unwrap();
    let mut g = Game::new("T", start);
    play(&mut g, map, "Carol : Pass");
    (g, map)
}

#[test]
fn a_disobeyed_order_costs_a_bronze_token_on_the_next_turn_only() {
    let (mut g, map) = game();
    play(
        &mut g,
        map,
        "Alice : Pass [Radiating Bob] [Radio Clamp 2 to Oxford Circus (VC)]",
    );
    assert_eq!(g.state.radio_orders.len(), 1);
    // Bob goes the other way: Legal, but he loses a Bronze Token.
    play(&mut g, map, "Bob : Highbury and Islington (VC)");
    let bob = g.state.player_index("Bob").unwrap();
    assert_eq!(g.state.players[bob].tokens.get(Colour::Bronze), 1);
    assert!(g.state.radio_orders.is_empty());
    play(&mut g, map, "Carol : Pass");
    play(&mut g, map, "Alice : Pass");
    play(&mut g, map, "Bob : Pass");
    assert_eq!(g.state.players[bob].tokens.get(Colour::Bronze), 1);
}

#[test]
fn a_clamp_given_since_the_last_turn_is_knerdled_on() {
    let (mut g, map) = game();
    // A Round, so that the fold has seen everyone's latest Turn.
    for line in ["Alice : Pass", "Bob : Pass", "Carol : Pass"] {
        play(&mut g, map, line);
    }
    play(&mut g, map, "Alice : Pass [Radiating Bob]");
    let bob = g.state.player_index("Bob").unwrap();
    assert_eq!(g.state.received.len(), 1);
    assert_eq!(g.state.received[0].from, "Alice");
    assert!(g.state.received[0].stick);
    // Alice gave the Clamp: Bob may not hand it back to her.
    let back = g.judge(
        map,
        &parse_play("Bob : [Knerdling Alice] Pass", map).unwrap(),
    );
    assert_eq!(back.verdict, Verdict::Illegal);
    play(&mut g, map, "Bob : [Knerdling Carol] Pass");
    let carol = g.state.player_index("Carol").unwrap();
    let names: Vec<String> = g.state.players[carol]
        .possessions
        .iter()
        .map(|p| format!("{:?}", p.item.good()))
        .collect();
    assert_eq!(names, ["RadioClamp", "KnerdlingStick"]);
    assert!(g.state.players[bob].possessions.is_empty());
    // Carol received the Stick after the Clamp: she cannot Knerdle it on.
    let on = g.judge(
        map,
        &parse_play("Carol : [Knerdling Alice] Pass", map).unwrap(),
    );
    assert_eq!(on.verdict, Verdict::Illegal, "{:?}", on.rulings);
}
