//! Rule 1.7.42's two Pieces at the boundary: the labelled Moves with
//! Neutral Actions between them, read and written back, and a GSD's Plays
//! placing Piece B (RULINGS E101). The adjudication is in
//! `fixtures/cases/bifurcation/`.

use mornbot::engine::GameState;
use mornbot::gsd::{parse_gsd, parse_play, render_play, Action, Move};
use mornbot::map::Map;

fn map() -> &'static Map {
    Map::london_1999()
}

#[test]
fn actions_between_the_two_moves_are_kept_in_their_place() {
    let p = parse_play(
        "Rushton: [LV+2] A:Baker Street (BK) [Opening MC] {then B} B:Angel (NT via CN, CL) [Cowering]",
        map(),
    )
    .unwrap();
    assert!(matches!(p.the_move(), Move::Bifurcated(..)));
    assert!(matches!(
        p.actions_before().collect::<Vec<_>>()[..],
        [Action::LvPlus { .. }]
    ));
    assert!(matches!(
        p.actions_between().collect::<Vec<_>>()[..],
        [Action::OpeningMc]
    ));
    assert_eq!(p.between.len(), 2, "the comment stays between the Moves");
    assert!(matches!(
        p.actions_after().collect::<Vec<_>>()[..],
        [Action::Cowering]
    ));
    let canon = render_play(&p);
    assert_eq!(
        canon,
        "Rushton : [LV+2] A:Baker Street (BL) [Opening MC] {then B} B:Angel (NT via: CN,CL) [Cowering]"
    );
    assert_eq!(parse_play(&canon, map()).unwrap(), p);
}

#[test]
fn text_between_the_moves_is_an_error_not_dropped() {
    let e = parse_play("Alice : A:Euston (NT) then B:Pass", map()).unwrap_err();
    assert!(e.to_string().contains("an Action"), "{e}");
    let e = parse_play("Alice : A:Euston (NT) [Opening MC]", map()).unwrap_err();
    assert!(e.to_string().contains("B:"), "{e}");
}

#[test]
fn a_comment_naming_b_does_not_start_piece_b() {
    let p = parse_play("Alice : A:Euston (NT) {B: later} B:Pass", map()).unwrap();
    assert_eq!(p.between.len(), 1);
    assert!(matches!(p.the_move(), Move::Bifurcated(_, b) if matches!(**b, Move::Pass(None))));
}

const GSD: &str = "\
+-------+-------------+----+----+----------------------+
| Player| Home        | LV | Ch | Bk Bu Br Go Gr Re Si |
+-------+-------------+----+----+----------------------+
| Alice | Cockfosters |  1 |  0 |  2  0  2  0  0  0  0 |
| Bob   | Morden      |  0 |  0 |  2  0  2  0  0  2  0 |
+-------+-------------+----+----+----------------------+

Game Time: Monday 1000

Alice : Holborn (CN)
Bob : Pass
Alice : Chancery Lane (CN) [Bifurcating to St. Paul's]
Bob : Pass
";

#[test]
fn the_plays_place_piece_b() {
    let station = |n: &str| map().find(n).unwrap();
    let s = GameState::from_gsd(&parse_gsd(GSD, map()).unwrap(), map()).unwrap();
    let alice = &s.players[0];
    assert_eq!(alice.station(), Some(station("Chancery Lane")));
    assert_eq!(
        alice.piece_b.map(|b| b.station),
        Some(station("St. Paul's"))
    );
    // Both Pieces move; then Piece A moves where B stood: B is gone.
    let more = format!("{GSD}Alice : A:Holborn (CN) B:Bank (CN)\nBob : Pass\n");
    let s = GameState::from_gsd(&parse_gsd(&more, map()).unwrap(), map()).unwrap();
    assert_eq!(s.players[0].station(), Some(station("Holborn")));
    assert_eq!(
        s.players[0].piece_b.map(|b| b.station),
        Some(station("Bank"))
    );
    let more = format!("{GSD}Alice : A:St. Paul's (CN) B:Pass\nBob : Pass\n");
    let s = GameState::from_gsd(&parse_gsd(&more, map()).unwrap(), map()).unwrap();
    assert_eq!(s.players[0].station(), Some(station("St. Paul's")));
    assert_eq!(s.players[0].piece_b, None);
}

/// Alice at Oxford Circus with Bronze for the upkeep; Bob passes.
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
at = "Oxford Circus (CN)"
home = "Cockfosters"
lv = 1
tokens = { Bk = 9, Br = 20, Bu = 9, Re = 9, Gr = 9, Go = 2 }
possessions = []
[[state.players]]
name = "Bob"
at = "Morden (NT)"
home = "Morden"
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

fn stations(state: &GameState, b: bool) -> Vec<String> {
    let book = &state.gambits;
    let records = if b { &book.recent_b } else { &book.recent };
    records
        .iter()
        .find(|r| r.player == "Alice")
        .map(|r| {
            r.stations
                .iter()
                .map(|&s| map().station(s).name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The fold keeps each Piece's own recent Stations (Rule 1.7.42: a
/// Manoeuvre "must be performed by a single Piece"; RULINGS E131), and
/// the Piece left when the other is destroyed keeps its own.
#[test]
fn each_piece_keeps_its_own_recent_stations() {
    use mornbot::engine::{case::Case, Game, Verdict};
    let start = Case::from_toml(START).unwrap().state(map()).unwrap();
    let mut g = Game::new("T", start);
    let play = |g: &mut Game, line: &str| {
        let out = g.play(map(), parse_play(line, map()).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{line}: {:?}", out.violations);
    };
    play(
        &mut g,
        "Alice : Tottenham Court Road (CN) [Bifurcating to Holborn (CN)]",
    );
    play(&mut g, "Bob : Pass");
    play(
        &mut g,
        "Alice : A:Goodge Street (NT) B:Chancery Lane (CN) {upkeep Bronze}",
    );
    play(&mut g, "Bob : Pass");
    assert_eq!(
        stations(&g.state, false),
        ["Tottenham Court Road", "Goodge Street"]
    );
    assert_eq!(stations(&g.state, true), ["Chancery Lane"]);
    // Piece A goes back to Tottenham Court Road; then Piece B moves there
    // through Holborn, onto Piece A, which stood still: A is destroyed.
    play(
        &mut g,
        "Alice : A:Tottenham Court Road (NT) B:Pass {upkeep Bronze}",
    );
    play(&mut g, "Bob : Pass");
    play(
        &mut g,
        "Alice : [LV+2] A:Pass B:Tottenham Court Road (CN) {upkeep Bronze}",
    );
    // B destroyed A: B is Alice's one Piece, with B's own record.
    assert!(g.state.players[0].piece_b.is_none());
    assert_eq!(
        stations(&g.state, false),
        ["Chancery Lane", "Tottenham Court Road"]
    );
    assert!(stations(&g.state, true).is_empty());
}

/// Under a Venbacker Ladder, Bob went to Covent Garden (60); Alice's
/// Pieces are at Goodge Street and Chancery Lane.
const LADDER: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 1000"
order = ["Alice", "Bob"]
to_play = "Alice"
disruptions = ["Venbacker Ladder"]
[[state.players]]
name = "Alice"
at = "Goodge Street (NT)"
at_b = "Chancery Lane (CN)"
home = "Cockfosters"
lv = 1
tokens = { Br = 4 }
possessions = []
[[state.players]]
name = "Bob"
at = "Covent Garden (PD)"
home = "Morden"
lv = 1
[[state.history]]
line = "Bob : Covent Garden (PD)"
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

/// After a Bifurcated Player's two Moves, the next Turn's Ladder bound is
/// the lower of the two Stations, or the higher if the game so rules
/// (Rule 1.8.9, RULINGS E132).
#[test]
fn two_moves_bound_the_next_under_a_ladder_by_the_lower_station() {
    use mornbot::engine::{case::Case, Game, Verdict};
    for higher in [false, true] {
        let mut start = Case::from_toml(LADDER).unwrap().state(map()).unwrap();
        start.rulings.ladder_higher_of_two_moves = higher;
        let mut g = Game::new("T", start);
        // Tottenham Court Road is 251, Holborn 121.
        let both = "Alice : A:Tottenham Court Road (NT) B:Holborn (CN) {upkeep Bronze}";
        let out = g.play(map(), parse_play(both, map()).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{:?}", out.violations);
        // Leicester Square is 146: above Holborn, below Tottenham Court Road.
        let bob = parse_play("Bob : Leicester Square (PD)", map()).unwrap();
        let out = g.judge(map(), &bob);
        let want = if higher {
            Verdict::Illegal
        } else {
            Verdict::Legal
        };
        assert_eq!(out.verdict, want, "higher: {higher}: {:?}", out.violations);
        // Holborn itself (121) is not lower than the lower bound.
        let bob = parse_play("Bob : Holborn (PD)", map()).unwrap();
        assert_eq!(
            g.judge(map(), &bob).verdict == Verdict::Legal,
            !higher,
            "higher: {higher}"
        );
    }
}
