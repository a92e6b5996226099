//! Verdicts the rule-case format cannot express: plays the engine does not
//! adjudicate must come back as NeedsRuling, naming the rule, and never as
//! Legal; a violation elsewhere in the play still makes it Illegal.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

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
    // Taking a Bow (Rule 0.9.4) is not adjudicated.
    let out = judge("Alice : Pass [Taking a Bow]");
    assert_eq!(out.verdict, Verdict::NeedsRuling);
    assert!(
        out.rulings.iter().any(|r| r.rule == "0.9.4"),
        "{:?}",
        out.rulings
    );
    assert!(out.state.is_none(), "no new state without a ruling");
}

#[test]
fn a_gambit_whose_moves_the_state_does_not_know_needs_a_ruling() {
    // The state shows Bob on the Map but none of the plays that brought
    // him there: whether he is on the verge of a Manoeuvre is unknown
    // (RULINGS E115).
    let out = judge("Alice : Pass [Denying the Trampoline Gambit by Bob]");
    assert_eq!(out.verdict, Verdict::NeedsRuling, "{:?}", out.violations);
    assert!(
        out.rulings.iter().any(|r| r.rule == "1.18.4"),
        "{:?}",
        out.rulings
    );
}

#[test]
fn a_running_straddle_after_a_pass_has_no_line_direction() {
    // No Stack at Holborn; the neighbour Chancery Lane holds three Tokens,
    // enough to reach Bank, but a Pass gives the Piece no Line Direction to
    // run on in (RULINGS.md E38): Illegal, not a ruling and not Legal.
    let out = judge("Alice : Pass [Straddling to Bank (CN)]");
    assert_eq!(out.verdict, Verdict::Illegal, "{:?}", out.rulings);
    let v = out.violations.iter().find(|v| v.rule == "1.7.6").unwrap();
    assert!(v.message.contains("no Standard Move"), "{}", v.message);
}

#[test]
fn a_violation_outweighs_a_ruling() {
    // Bob is not to play: Illegal, whatever [De-Toffing] would need.
    let out = judge("Bob : Pass [De-Toffing]");
    assert_eq!(out.verdict, Verdict::Illegal);
    assert!(!out.violations.is_empty());
}

/// A two-player state for the one-Round tests: Alice at Euston (VC), Bob at
/// Angel (NT).
const ROUND: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob"]
to_play = "Alice"
[[state.players]]
name = "Alice"
home = "Cockfosters"
at = "Euston (VC)"
lv = 2
tokens = { Bk = 4, Re = 4, Bu = 4, Si = 2 }
[[state.players]]
name = "Bob"
home = "Morden"
at = "Angel (NT)"
lv = 2
tokens = { Bk = 4, Re = 4, Bu = 4, Si = 2 }
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

fn round_game() -> (mornbot::engine::Game, &'static Map) {
    let map = Map::london_1999();
    let state = Case::from_toml(ROUND).unwrap().state(map).unwrap();
    (mornbot::engine::Game::new("T", state), map)
}

fn play(g: &mut mornbot::engine::Game, map: &Map, line: &str) -> mornbot::engine::Outcome {
    g.play(map, parse_play(line, map).unwrap())
}

fn line_states(g: &mornbot::engine::Game) -> usize {
    g.state
        .disruptions
        .iter()
        .filter(|d| matches!(d, mornbot::engine::Disruption::Line { .. }))
        .count()
}

#[test]
fn a_power_failure_lasts_one_round() {
    let (mut g, map) = round_game();
    let out = play(
        &mut g,
        map,
        "Alice : Oxford Circus (VC) [VC: Power Failure!]",
    );
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert_eq!(line_states(&g), 1);
    // Bob may not end at Euston, a Victoria line station, during the Round.
    let out = g.judge(map, &parse_play("Bob : Euston (NT)", map).unwrap());
    assert_eq!(out.verdict, Verdict::Illegal);
    assert!(out.violations.iter().any(|v| v.rule == "1.20.5"));
    assert_eq!(play(&mut g, map, "Bob : Pass").verdict, Verdict::Legal);
    assert_eq!(line_states(&g), 1, "still Alice's Round");
    // The Power Failure ends with the end of Alice's next Turn.
    let out = play(&mut g, map, "Alice : Pass");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert_eq!(line_states(&g), 0, "{:?}", g.state.disruptions);
    assert!(g.state.timed.is_empty());
    assert!(out.changes.iter().any(|c| c.contains("back to Normal")));
}

#[test]
fn a_soaped_line_replaced_by_another_state_is_not_undone_later() {
    let (mut g, map) = round_game();
    assert_eq!(
        play(&mut g, map, "Alice : Oxford Circus (VC) [VC: Soaped]").verdict,
        Verdict::Legal
    );
    // Bob makes no claim on the VC; Alice replaces her own Soaping.
    assert_eq!(play(&mut g, map, "Bob : Pass").verdict, Verdict::Legal);
    let out = play(&mut g, map, "Alice : Pass [VC: One Way: N-S]");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert_eq!(
        g.state.disruptions,
        vec![mornbot::engine::Disruption::Line {
            line: mornbot::map::LineCode::VC,
            state: mornbot::gsd::LineState::OneWay("N-S".into())
        }]
    );
    assert!(g.state.timed.is_empty());
    assert!(!out.changes.iter().any(|c| c.contains("back to Normal")));
}

#[test]
fn a_gsd_read_from_its_tables_recovers_the_last_rounds_blocks_and_states() {
    let map = Map::london_1999();
    let mut state = Case::from_toml(ROUND).unwrap().state(map).unwrap();
    state.disruptions.push(mornbot::engine::Disruption::Line {
        line: mornbot::map::LineCode::VC,
        state: mornbot::gsd::LineState::PowerFailure,
    });
    let plays: Vec<_> = [
        "Alice : Euston (VC) [Blocking Mornington Crescent]",
        "Bob : Angel (NT)",
        "Alice : Oxford Circus (VC) [VC: Power Failure!] [Blocking Piccadilly Circus]",
    ]
    .iter()
    .map(|l| parse_play(l, map).unwrap())
    .collect();
    state.recover_round(&plays);
    // Only Alice's latest play counts: her earlier Block has ended.
    let blocked: Vec<&str> = state
        .blocks
        .iter()
        .map(|b| map.station(b.station).name.as_str())
        .collect();
    assert_eq!(blocked, ["Piccadilly Circus"]);
    assert_eq!(state.timed.len(), 1);
    assert_eq!(state.timed[0].by, "Alice");
}

/// Alice, Bob and the Drone, no Drone Stick in play.
const DRONE: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob", "Drone"]
to_play = "Alice"
[[state.players]]
name = "Alice"
home = "Cockfosters"
at = "Holborn (CN)"
tokens = { Bk = 4, Bu = 6 }
[[state.players]]
name = "Bob"
home = "Morden"
at = "Angel (NT)"
tokens = { Bk = 4, Bu = 6 }
[[state.players]]
name = "Drone"
at = "Camden Town (NT)"
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

#[test]
fn the_drone_stick_wakes_the_drone_and_cannot_be_snatched_back_before_it_plays() {
    let map = Map::london_1999();
    let state = Case::from_toml(DRONE).unwrap().state(map).unwrap();
    let mut g = mornbot::engine::Game::new("T", state);
    // No Stick: the Drone is Inactive and the order runs Alice, Bob, Alice.
    assert_eq!(play(&mut g, map, "Alice : Pass").verdict, Verdict::Legal);
    assert_eq!(play(&mut g, map, "Bob : Pass").verdict, Verdict::Legal);
    assert_eq!(g.to_play(), "Alice");
    let out = play(&mut g, map, "Alice : Pass [Claiming Drone Stick]");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    // Bob may not take it before the Drone has had a Turn.
    let out = g.judge(
        map,
        &parse_play("Bob : Pass [Claiming Drone Stick]", map).unwrap(),
    );
    assert_eq!(out.verdict, Verdict::Illegal);
    assert!(out.violations.iter().any(|v| v.rule == "1.15.2"));
    assert_eq!(play(&mut g, map, "Bob : Pass").verdict, Verdict::Legal);
    // Alice carries the Stick: the Drone is Active and takes its Turn.
    assert_eq!(g.to_play(), "Drone");
    assert_eq!(play(&mut g, map, "Drone : Pass").verdict, Verdict::Legal);
    assert_eq!(play(&mut g, map, "Alice : Pass").verdict, Verdict::Legal);
    // Now Bob may take it; Bob's Turn is followed by the Drone's.
    let out = play(&mut g, map, "Bob : Pass [Claiming Drone Stick]");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert!(g.state.players[1].carries(mornbot::gsd::Good::DroneStick));
    assert!(!g.state.players[0].carries(mornbot::gsd::Good::DroneStick));
    assert_eq!(g.to_play(), "Drone");
    // Bob resigns: the Stick leaves with him and the Drone idles again.
    assert!(g.resign("Bob"));
    assert_eq!(g.to_play(), "Alice");
}

/// The one-Round game, Alice with Bronze for a Visit (4 Bronze, Rule 1.7.9).
fn visit_game() -> (mornbot::engine::Game, &'static Map) {
    let (mut g, map) = round_game();
    g.state.players[0]
        .tokens
        .set(mornbot::gsd::Colour::Bronze, 8);
    // Bob with Red for two Late Arrivals (3 Red each).
    g.state.players[1].tokens.set(mornbot::gsd::Colour::Red, 8);
    (g, map)
}

#[test]
fn a_late_arrival_holds_the_visitor_to_a_pass() {
    let (mut g, map) = visit_game();
    // Alice visits Crewe from Euston, a British Rail Station, after a Pass.
    let out = play(&mut g, map, "Alice : Pass (Euston (VC)) [Visiting Crewe]");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    // Bob arrives late from Crewe.
    let out = play(&mut g, map, "Bob : Pass [Late Arrival from crewe]");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert!(g.state.visits.iter().any(|v| v.player == "Alice" && v.late));
    // Alice may not Move, nor Pass with an Action.
    let out = g.judge(
        map,
        &parse_play("Alice : [LV+1] Warren Street (VC)", map).unwrap(),
    );
    assert_eq!(out.verdict, Verdict::Illegal);
    assert!(out.violations.iter().any(|v| v.rule == "1.7.9"));
    let out = g.judge(
        map,
        &parse_play("Alice : Pass [Visiting Crewe]", map).unwrap(),
    );
    assert!(out.violations.iter().any(|v| v.rule == "1.7.9"));
    // A Timeout does not discharge the Pass owed.
    assert_eq!(play(&mut g, map, "Alice : Timeout").verdict, Verdict::Legal);
    assert_eq!(play(&mut g, map, "Bob : Pass").verdict, Verdict::Legal);
    let out = g.judge(
        map,
        &parse_play("Alice : [LV+1] Warren Street (VC)", map).unwrap(),
    );
    assert!(out.violations.iter().any(|v| v.rule == "1.7.9"));
    // The Pass discharges it; the next Turn is free.
    assert_eq!(play(&mut g, map, "Alice : Pass").verdict, Verdict::Legal);
    assert!(g.state.visits.is_empty());
    assert_eq!(play(&mut g, map, "Bob : Pass").verdict, Verdict::Legal);
    let out = play(&mut g, map, "Alice : [LV+1] Warren Street (VC)");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
}

#[test]
fn a_late_arrival_from_elsewhere_or_after_another_move_does_nothing() {
    let (mut g, map) = visit_game();
    for l in [
        "Alice : Pass (Euston (VC)) [Visiting Crewe]",
        "Bob : Pass [Late Arrival from Derby]",
    ] {
        assert_eq!(play(&mut g, map, l).verdict, Verdict::Legal, "{l}");
    }
    assert!(g.state.visits.iter().all(|v| !v.late));
    // Alice's next Move ends her Visit: a Late Arrival afterwards is too late.
    assert_eq!(play(&mut g, map, "Alice : Pass").verdict, Verdict::Legal);
    let out = play(&mut g, map, "Bob : Pass [Late Arrival from Crewe]");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    let out = play(&mut g, map, "Alice : [LV+1] Warren Street (VC)");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
}

#[test]
fn a_gsd_recovers_the_visits_its_plays_show() {
    let map = Map::london_1999();
    let mut state = Case::from_toml(ROUND).unwrap().state(map).unwrap();
    let plays: Vec<_> = [
        "Alice : Pass (Euston (VC)) [Visiting Crewe]",
        "Bob : Pass [Late Arrival from Crewe]",
        "Alice : Timeout",
        "Bob : Pass (Angel (NT)) [Visiting Derby]",
    ]
    .iter()
    .map(|l| parse_play(l, map).unwrap())
    .collect();
    state.recover_round(&plays);
    let got: Vec<(&str, &str, bool)> = state
        .visits
        .iter()
        .map(|v| (v.player.as_str(), v.place.as_str(), v.late))
        .collect();
    assert_eq!(got, [("Alice", "Crewe", true), ("Bob", "Derby", false)]);
}

#[test]
fn comments_that_grow_when_lower_cased_are_no_crash() {
    // `İ` lower-cases to three bytes from two: reading "{... tokens to
    // <Station>}" once sliced the comment at a wrong offset and panicked.
    // Directives now start their comment; text before one makes it prose.
    let out = judge("Alice : Pass [Upcoming Holiday] {İİİİİİİİİİİİİİİİİİİİİİİİİ tokens to Morden}");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    assert!(
        out.changes.iter().any(|c| c.contains("names no Stack")),
        "prose names no Stack: {:?}",
        out.changes
    );
    let out = judge("Alice : Pass [Upcoming Holiday] {Tokens to Morden}");
    assert!(
        out.changes
            .iter()
            .any(|c| c.contains("Morden is in or next to")),
        "{:?}",
        out.changes
    );
    // A directive whose argument grows when lower-cased is a located parse
    // error, not a crash.
    for c in ["Tokens to İİİİİİİİİİİİİİİİİéééééé", "LV İİİİİİİİİİİéééé"]
    {
        let err = parse_play(
            &format!("Alice : Pass [Upcoming Holiday] {{{c}}}"),
            Map::london_1999(),
        )
        .unwrap_err();
        assert_eq!(err.line, 1, "{err}");
        assert!(err.column > 30, "{err}");
    }
}

/// The daemon starts a game on the configured map: the Drone stands at
/// that map's Mornington Crescent, whatever ids its stations have (issue
/// 12: it used the embedded map's ids).
#[test]
fn a_game_starts_on_the_configured_map() {
    let text = include_str!("../maps/london-1999.toml");
    let (head, tail) = text.split_at(text.find("\n[stations]\n").unwrap());
    let acton = tail
        .lines()
        .find(|l| l.trim_start().starts_with("{ name = \"Acton Town\""))
        .unwrap();
    // Acton Town moved to the end of the list: every later station's id
    // shifts by one.
    let tail = tail.replacen(&format!("{acton}\n"), "", 1).replacen(
        "\n]\n",
        &format!("\n{acton}\n]\n"),
        1,
    );
    let map = mornbot::map::Map::from_toml(&format!("{head}{tail}"), "reordered").unwrap();
    let london = mornbot::map::Map::london_1999();
    let mc = |m: &mornbot::map::Map| m.find("Mornington Crescent").unwrap();
    assert_ne!(
        mc(&map),
        mc(london),
        "the test map must number stations otherwise"
    );
    let def = mornbot::daemon::referee::GameConfigDef {
        tag: "T".into(),
        start: "Monday 0900".into(),
        players: vec![("Alice".into(), "alice@example.org".into())],
        referee: None,
        rulings: Default::default(),
        picture: false,
        kind: Default::default(),
        deadline: None,
        kind_rulings: Default::default(),
    };
    let state = mornbot::daemon::referee::start_state(&def, &map).unwrap();
    let drone = state.players.iter().find(|p| p.name == "Drone").unwrap();
    assert_eq!(drone.station(), Some(mc(&map)));
}

#[test]
fn a_declared_gambit_is_reported_for_the_registry_and_usable_at_once() {
    let map = Map::london_1999();
    let case = Case::from_toml(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/cases/gambits/declare-001.toml"
        ))
        .unwrap(),
    )
    .unwrap();
    let state = case.state(map).unwrap();
    let out = adjudicate(map, &state, &parse_play(&case.play.line, map).unwrap());
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    // The verdict carries the new Gambit, for the daemon to keep (Rule 1.18.2).
    assert_eq!(out.declared.len(), 1);
    assert_eq!(out.declared[0].name, "Pilgrim");
    assert_eq!(out.declared[0].by.as_deref(), Some("Alice"));
    // The game's registry has it: Bob may not declare a Gambit of that name.
    let after = out.state.unwrap();
    assert!(after.gambits.find("the pilgrim").is_some());
    let again = adjudicate(
        map,
        &after,
        &parse_play("Bob : Pass [Declaring the Pilgrim Gambit]", map).unwrap(),
    );
    assert_eq!(again.verdict, Verdict::Illegal);
    assert!(again.violations.iter().any(|v| v.rule == "1.18.1"));
}
