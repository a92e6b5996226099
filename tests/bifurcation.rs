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
