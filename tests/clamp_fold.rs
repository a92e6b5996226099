//! Clamps whose state only the log of plays knows, through a game's fold:
//! the Toff Clamp's Station, where its target began the Turn before being
//! Toffed (Rule 1.4.44, RULINGS.md E64), and the Prison Clamp's age in
//! Rounds (Rule 1.4.47, RULINGS.md E65).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::engine::{case::Case, Game, Verdict};
use mornbot::gsd::parse_play;
use mornbot::map::Map;

/// Bob to play at Warren Street; Alice waits at Euston with Red and Green.
const START: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Bob", "Alice"]
to_play = "Bob"
[[state.players]]
name = "Alice"
at = "Euston (VC)"
home = "Cockfosters"
tokens = { Bk = 2, Re = 2, Gr = 1 }
[[state.players]]
name = "Bob"
at = "Warren Street (VC)"
home = "Upminster"
lv = 1
tokens = { Bk = 2, Re = 2 }
[play]
line = "Bob : Pass"
[expect]
verdict = "legal"
"#;

fn game() -> (Game, &'static Map) {
    let map = Map::london_1999();
    let start = Case::from_toml(START).unwrap().state(map).unwrap();
    let mut g = Game::new("T", start);
    for line in [
        // Bob's Turn begins at Warren Street and ends at Euston.
        "Bob : Euston (VC)",
        // Alice Toffs him there: his Clamp points at Warren Street.
        "Alice : Pass [Toffing Bob]",
    ] {
        let out = g.play(map, parse_play(line, map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{line}: {:?}", out.violations);
    }
    (g, map)
}

#[test]
fn the_clamp_points_where_the_target_began_eir_previous_turn() {
    let (g, map) = game();
    assert_eq!(g.state.toffs.len(), 1);
    assert_eq!(g.state.toffs[0].player, "Bob");
    assert_eq!(map.station(g.state.toffs[0].toward).name, "Warren Street");
    // Bob must now move toward Warren Street.
    let g2 = g.clone();
    let away = g2.judge(
        map,
        &parse_play("Bob : King's Cross St. Pancras (VC)", map).unwrap(),
    );
    assert_eq!(away.verdict, Verdict::Illegal);
    assert!(away.violations.iter().any(|v| v.rule == "1.4.44"));
    let back = g2.judge(map, &parse_play("Bob : Warren Street (VC)", map).unwrap());
    assert_eq!(back.verdict, Verdict::Legal, "{:?}", back.violations);
}

#[test]
fn de_toffing_at_that_station_forgets_the_clamp() {
    let (mut g, map) = game();
    for line in [
        "Bob : Warren Street (VC)",
        "Alice : Pass",
        "Bob : Pass [De-Toffing]",
    ] {
        let out = g.play(map, parse_play(line, map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{line}: {:?}", out.violations);
    }
    assert!(g.state.toffs.is_empty());
    let bob = &g.state.players[g.state.player_index("Bob").unwrap()];
    assert!(bob.possessions.is_empty());
}

/// Alice gained a Prison Clamp during her last Turn; Bob plays next.
const PRISON: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob"]
to_play = "Bob"
[[state.players]]
name = "Alice"
at = "Tower Hill (CL)"
home = "Cockfosters"
possessions = ["Prison Clamp"]
[[state.players]]
name = "Bob"
at = "Upminster (DS)"
home = "Upminster"
[[state.prisons]]
player = "Alice"
turns = 0
[play]
line = "Bob : Pass"
[expect]
verdict = "legal"
"#;

#[test]
fn a_prison_clamp_expires_at_the_start_of_the_third_turn_after() {
    let map = Map::london_1999();
    let start = Case::from_toml(PRISON).unwrap().state(map).unwrap();
    let mut g = Game::new("T", start);
    let mv = || parse_play("Alice : [LV+1] Aldgate (CL)", map).unwrap();
    for round in 0..2 {
        let out = g.play(map, parse_play("Bob : Pass", map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal);
        // Within two Rounds of gaining it: only Pass.
        let out = g.judge(map, &mv());
        assert_eq!(out.verdict, Verdict::Illegal, "round {round}");
        assert!(out.violations.iter().any(|v| v.rule == "1.4.47"));
        let out = g.play(map, parse_play("Alice : Pass", map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.rulings);
    }
    let out = g.play(map, parse_play("Bob : Pass", map).unwrap());
    assert_eq!(out.verdict, Verdict::Legal);
    let out = g.play(map, mv());
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert!(g.state.prisons.is_empty());
    assert!(g.state.players[0].possessions.is_empty());
}

/// Alice, at Holborn, to play; Bob waits at Angel.
const FINDER: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 0900"
order = ["Alice", "Bob"]
to_play = "Alice"
[[state.players]]
name = "Alice"
home = "Cockfosters"
at = "Holborn (CN)"
lv = 1
tokens = { Bk = 2, Re = 2, Br = 2 }
possessions = []
[[state.players]]
name = "Bob"
home = "Morden"
at = "Angel (NT)"
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

#[test]
fn a_finder_sent_to_the_tower_is_clamped_for_two_rounds() {
    let map = Map::london_1999();
    let start = Case::from_toml(FINDER).unwrap().state(map).unwrap();
    let mut g = Game::new("T", start);
    let found = "Alice : Tottenham Court Road (CN) [Finding] {rolled finding 49}";
    let out = g.play(map, parse_play(found, map).unwrap());
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.rulings);
    assert_eq!(
        g.state.players[0]
            .station()
            .map(|s| map.station(s).name.as_str()),
        Some("Tower Hill")
    );
    assert_eq!(g.state.prisons.len(), 1);
    let mv = || parse_play("Alice : [LV+1] Aldgate (CL)", map).unwrap();
    for round in 0..2 {
        let out = g.play(map, parse_play("Bob : Pass", map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal);
        let out = g.judge(map, &mv());
        assert_eq!(out.verdict, Verdict::Illegal, "round {round}");
        assert!(out.violations.iter().any(|v| v.rule == "1.4.47"));
        let out = g.play(map, parse_play("Alice : Pass", map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.rulings);
    }
    let out = g.play(map, parse_play("Bob : Pass", map).unwrap());
    assert_eq!(out.verdict, Verdict::Legal);
    let out = g.play(map, mv());
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert!(g.state.prisons.is_empty());
}
