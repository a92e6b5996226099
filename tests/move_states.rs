//! The States that bound a Move's destination, folded over Turns: the
//! Venbacker Ladder remembers where each Turn's Move went (Rule 1.8.9), and
//! a Turn ending at Dollis Hill puts the next one in the Loop (Rules 1.8.1,
//! 1.8.6). The single-play rules are in `fixtures/cases/bounds/`.

use mornbot::engine::{
    adjudicate, Disruption, GameState, LastMove, PlayerState, Position, Verdict,
};
use mornbot::gsd::{parse_play, GameTime};
use mornbot::map::{LineCode, Map};

fn map() -> &'static Map {
    Map::london_1999()
}

fn at(name: &str, line: LineCode) -> Option<Position> {
    Some(Position {
        station: map().lookup(name).unwrap(),
        line: Some(line),
    })
}

/// Alice at Tottenham Court Road, Bob at Bond Street, both LV 1.
fn start(disruption: Disruption) -> GameState {
    let time = GameTime {
        day: chrono::Weekday::Mon,
        minutes: 9 * 60,
        night_train: false,
    };
    let mut s = GameState::new(
        time,
        vec![PlayerState::joining("Alice"), PlayerState::joining("Bob")],
    );
    s.players[0].at = at("Tottenham Court Road", LineCode::CN);
    s.players[1].at = at("Bond Street", LineCode::CN);
    for p in &mut s.players {
        p.lv = 1;
        p.home = map().find("Morden");
    }
    s.disruptions.push(disruption);
    s
}

fn play(s: &GameState, line: &str) -> mornbot::engine::Outcome {
    adjudicate(map(), s, &parse_play(line, map()).unwrap())
}

#[test]
fn each_turn_of_a_ladder_is_bounded_by_the_turn_before() {
    let mut s = start(Disruption::VenbackerLadder);
    s.last_move = LastMove::Ended(None);
    // No Move before this one has a number: nothing bounds Alice's.
    let out = play(&s, "Alice : Holborn (CN)");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    let s = out.state.unwrap();
    assert_eq!(s.last_move, LastMove::Ended(map().find("Holborn")));
    // Bob from Bond Street (28) to Oxford Circus (185): above Holborn (121).
    let out = play(&s, "Bob : Oxford Circus (CN)");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    let s = out.state.unwrap();
    // Alice may not go back down to Chancery Lane (48) below Oxford Circus...
    let down = play(&s, "Alice : Chancery Lane (CN)");
    assert_eq!(down.verdict, Verdict::Illegal);
    assert_eq!(down.violations[0].rule, "1.8.9");
    assert!(down.violations[0].message.contains("Oxford Circus (185)"));
    // ... but Tottenham Court Road (251) is up the Ladder.
    let up = play(&s, "Alice : Tottenham Court Road (CN)");
    assert_eq!(up.verdict, Verdict::Legal, "{:?}", up.violations);
}

#[test]
fn a_ladder_with_no_known_previous_move_needs_a_human() {
    let s = start(Disruption::VenbackerLadder);
    assert_eq!(s.last_move, LastMove::Unknown);
    let out = play(&s, "Alice : Holborn (CN)");
    assert_eq!(out.verdict, Verdict::NeedsRuling);
    assert_eq!(out.rulings[0].rule, "1.8.9");
}

#[test]
fn a_turn_ending_at_dollis_hill_binds_the_next_players_move() {
    let mut s = start(Disruption::Knip);
    s.disruptions.clear();
    s.players[0].at = at("Neasden", LineCode::JL);
    let out = play(&s, "Alice : Dollis Hill (JL)");
    assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
    let s = out.state.unwrap();
    assert!(s.has(&Disruption::DollisHillLoop));
    // Bob must go to Dollis Hill: Oxford Circus is refused ...
    let away = play(&s, "Bob : Oxford Circus (CN)");
    assert_eq!(away.verdict, Verdict::Illegal);
    assert_eq!(away.violations[0].rule, "1.8.6");
    // ... and the Loop's Special Move takes him there, LV kept.
    let there = play(&s, "Bob : Dollis Hill (JL)");
    assert_eq!(there.verdict, Verdict::Legal, "{:?}", there.violations);
    let bob = &there.state.unwrap().players[1];
    assert_eq!(bob.station(), map().find("Dollis Hill"));
    assert_eq!(bob.lv, 1);
}
