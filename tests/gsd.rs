//! The GSD grammar's named tolerances and errors, one test each, and the
//! regressions found by the fixture corpus.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::gsd::{
    parse_gsd, parse_play, render, render_play, Action, Colour, Disruption, Move, PlayItem,
};
use mornbot::map::{LineCode, Map};

fn map() -> &'static Map {
    Map::london_1999()
}

const TABLE: &str = "\
+---------+---------+----+----+----------------------+
| Player  | Home    | LV | Ch | Bk Bu Br Go Gr Re Si |
+---------+---------+----+----+----------------------+
| Rushton | Balham  |  3 | 17 |  2  0  7  0  4  0  0 |
| Cryer   |         |  1 | -4 |  2  8  6  3  1  4  1 |
+---------+---------+----+----+----------------------+
";

fn gsd_with(plays: &str) -> String {
    format!("{TABLE}\n{plays}")
}

#[test]
fn rule_1_2_0_play_examples() {
    for line in [
        "Rushton : Euston (VC via: CN,NT)",
        "Brooke-Taylor : Holborn (CN via: PD,NT)",
        "Cryer : [LV+1] Edgware Road (BL)",
        "Garden : Amersham (MP)",
        "Rushton : [LV+3] Mornington Crescent (NT via: VC)",
        "Rushton : [LV+1] Euston (VC via: CN,NT) [Blocking Warren Street]",
        "Rushton : Euston (VC) [Shunting Garden to Moorgate (NT)]",
    ] {
        let p = parse_play(line, map()).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(render_play(&p), line);
    }
}

#[test]
fn escalator_bifurcated_pass_timeout_farkle() {
    let p = parse_play("Garden : Monument (for Bank)", map()).unwrap();
    assert!(
        matches!(p.the_move(), Move::To { dest, escalator_to: Some(b), .. } if dest.station == "Monument" && b.station == "Bank")
    );
    let p = parse_play("X : A:Baker Street (BK) B:Angel (NT via CN, CL)", map()).unwrap();
    assert_eq!(
        render_play(&p),
        "X : A:Baker Street (BL) B:Angel (NT via: CN,CL)",
        "BK reads as the Bakerloo"
    );
    for (text, canon) in [
        ("X : Pass", "X : Pass"),
        ("X : pass (Holborn CN)", "X : Pass (Holborn (CN))"),
        ("X : Timeout", "X : Timeout"),
        ("X : Farkle {any day}", "X : Farkle {any day}"),
        (
            "X : Kensington (Olympia) (DS via: CN)",
            "X : Kensington (Olympia) (DS via: CN)",
        ),
        ("X : [Ghosting] Aldwych (GH)", "X : [Ghosting] Aldwych"),
    ] {
        let p = parse_play(text, map()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(render_play(&p), canon);
    }
}

#[test]
fn actions_are_typed() {
    let p = parse_play(
        "R : [LV-2] Euston (VC) [Shunting Cryer to Moorgate (NT)] [Red Bock] [NT: One Way: N-S]",
        map(),
    )
    .unwrap();
    let actions: Vec<&Action> = p.actions_before().chain(p.actions_after()).collect();
    assert_eq!(actions.len(), 4);
    assert!(matches!(actions[0], Action::LvMinus { n: 2 }));
    match actions[1] {
        Action::Shunting { player, station } => {
            assert_eq!(player, "Cryer");
            assert_eq!(station.station, "Moorgate");
            assert_eq!(station.line, Some(LineCode::NT));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(actions[1].spec().rule, "1.10.1");
    assert_eq!(
        p.actions_before().count(),
        1,
        "pre-Move actions come before the Move"
    );
    // The two Fire rows share a form: the station decides which.
    let fire = |s: &str| parse_play(&format!("R : Euston [Fire at {s}]"), map()).unwrap();
    assert!(matches!(
        fire("Baker Street").actions_after().next(),
        Some(Action::FireAtInterchange { .. })
    ));
    assert!(matches!(
        fire("Regent's Park").actions_after().next(),
        Some(Action::FireAtOther { .. })
    ));
}

#[test]
fn a_table_form_with_other_placeholders_is_refused_not_truncated() {
    // "[Walking to Euston]" would lose its station as [Walking]: refused.
    let err = parse_play("R : [Walking to Euston] Euston", map()).unwrap_err();
    assert!(err.to_string().contains("an Action of Rule 1.7.2"), "{err}");
}

#[test]
fn tolerance_quoted_reply_with_prose_and_signature() {
    let quoted: String = gsd_with("Rushton : Euston (VC via: CN,NT)\nCryer : Pass\n")
        .lines()
        .map(|l| format!("> {l}\n"))
        .collect();
    let mail =
        format!("Hi all,\n\nmy turn below.\n\n{quoted}\nCheers\n-- \nTim\ntim@example.org\n");
    let g = parse_gsd(&mail, map()).unwrap();
    assert_eq!(g.players.len(), 2);
    assert_eq!(g.plays.len(), 2);
}

#[test]
fn tolerance_tabs_trailing_spaces_case_and_missing_pipes() {
    let text = "+-------+\n|\tplayer\t| home | lv | ch | tokens\n|  |  |  |  | bk bu br go gr re si\n+----+\n| Rushton |\tbalham  | 3 | 17 | 2 0 7 0 4 0 0   \n+---+\n\nrushton : euston (vc)\n";
    let g = parse_gsd(text, map()).unwrap();
    assert_eq!(g.players[0].home.as_deref(), Some("Balham"));
    assert_eq!(g.players[0].tokens.get(Colour::Bronze), 7);
    assert_eq!(render_play(&g.plays[0]), "rushton : Euston (VC)");
    // A `Tokens` heading that does not say the colours' order is refused,
    // never read in the rules' order by default.
    let no_codes = text.replace("|  |  |  |  | bk bu br go gr re si\n", "");
    let e = parse_gsd(&no_codes, map()).unwrap_err();
    assert!(e.to_string().contains("no heading for Bk"), "{e}");
}

#[test]
fn tolerance_format_flowed_soft_break_inside_a_play() {
    let g = parse_gsd(
        &gsd_with("Rushton : [LV+3] Warren Street (VC \nvia: NT) [Blonking Cryer]\nCryer : Pass\n"),
        map(),
    )
    .unwrap();
    assert_eq!(g.plays.len(), 2);
    assert_eq!(
        render_play(&g.plays[0]),
        "Rushton : [LV+3] Warren Street (VC via: NT) [Blonking Cryer]"
    );
}

#[test]
fn tolerance_continuation_lines_and_comment_lines() {
    let g = parse_gsd(&gsd_with("{Round 2}\nRushton : Euston (VC)\n  [Blocking Warren Street]\n{Rushton blocked Warren Street}\nCryer : Pass\n"), map()).unwrap();
    assert_eq!(g.plays.len(), 2);
    let items = &g.plays[0].before;
    assert!(
        matches!(&items[0], PlayItem::Comment(c) if c.text == "Round 2"),
        "a comment line before the first Play is kept"
    );
    assert_eq!(g.plays[0].comments().count(), 2);
}

#[test]
fn prose_between_plays_is_an_error_not_a_truncation() {
    let err = parse_gsd(
        &gsd_with("Rushton : Euston (VC)\nand then\nCryer : Pass\n"),
        map(),
    )
    .unwrap_err();
    assert_eq!((err.line, err.column), (9, 1), "{err}");
    // Prose after the last Play is fine: the GSD ended there.
    let g = parse_gsd(
        &gsd_with("Rushton : Euston (VC)\n\nThat is all, folks.\n"),
        map(),
    )
    .unwrap();
    assert_eq!(g.plays.len(), 1);
}

#[test]
fn disruptions_of_rule_1_2_2_and_rule_1_11_5() {
    let text = format!(
        "{TABLE}\n+- Disruptions ---+\n| Euston (Peg), Wembley Park (Bulkhead), Euston (Peg), |\n| Angel to Bank (NT) (Peg), Bridges Up, In Knip, Red Bock |\n| Upcoming Holiday: Tuesday, Paddington (Maelberg), Oval (*Damage*) |\n+-----+\n"
    );
    let g = parse_gsd(&text, map()).unwrap();
    assert_eq!(g.disruptions.len(), 10, "duplicates kept, in order");
    assert_eq!(g.disruptions[0], g.disruptions[2]);
    assert!(
        matches!(&g.disruptions[3], Disruption::PeggedSegment { from, to, line: LineCode::NT } if from == "Angel" && to == "Bank")
    );
    assert!(render(&g).contains("Angel to Bank (NT) (Peg)"));
}

#[test]
fn a_token_cascade_names_its_focus_and_its_moves_and_a_malformed_one_is_refused() {
    let text = format!(
        "{TABLE}\n+- Disruptions ---+\n| Red Bock, Token Cascade: Rushton (3 Moves), In Knip |\n+-----+\n"
    );
    let g = parse_gsd(&text, map()).unwrap();
    assert_eq!(
        g.disruptions[1],
        Disruption::TokenCascade {
            focus: "Rushton".into(),
            moves: 3
        }
    );
    assert!(render(&g).contains("Token Cascade: Rushton (3 Moves)"));
    let text =
        format!("{TABLE}\n+- Disruptions ---+\n| Token Cascade: Cryer (1 move) |\n+-----+\n");
    let g = parse_gsd(&text, map()).unwrap();
    assert!(render(&g).contains("Token Cascade: Cryer (1 Move)"));
    for bad in [
        "Token Cascade",
        "Token Cascade: Rushton",
        "Token Cascade: (3 Moves)",
        "Token Cascade: Rushton (three Moves)",
        "Token Cascade: Rushton (3 Tokens)",
    ] {
        let text = format!("{TABLE}\n+- Disruptions ---+\n| {bad} |\n+-----+\n");
        let err = parse_gsd(&text, map()).unwrap_err();
        assert!(
            err.expected.contains("Token Cascade: <Player> (<N> Moves)"),
            "{bad}: {err}"
        );
    }
    // The focus must be a player of the game.
    let text = format!(
        "{TABLE}\n+- Game Time ---+\n| Monday 0900 |\n+-----+\n+- Disruptions ---+\n| Token Cascade: Nobody (3 Moves) |\n+-----+\n"
    );
    let g = parse_gsd(&text, map()).unwrap();
    let err = mornbot::engine::GameState::from_gsd(&g, map()).unwrap_err();
    assert!(err.to_string().contains("Nobody is not a player"), "{err}");
}

#[test]
fn errors_name_line_column_expected_and_nearest_stations() {
    let err = parse_play("Rushton : Eustn (VC)", map()).unwrap_err();
    assert_eq!((err.line, err.column), (1, 11));
    assert!(err.expected.contains("station"), "{err}");
    assert_eq!(err.suggestions.first().map(String::as_str), Some("Euston"));
    let err = parse_play("Rushton : Euston (VC via: CN,XX)", map()).unwrap_err();
    assert_eq!(err.column, 30, "{err}: the column of XX");
    let err = parse_gsd(
        &gsd_with("Rushton : Euston (VC) [Blokking Warren Street]\n"),
        map(),
    )
    .unwrap_err();
    assert_eq!((err.line, err.column), (8, 23));
    assert!(err.to_string().contains("[Blocking <Station>]"), "{err}");
    let err = parse_gsd("no table here\n", map()).unwrap_err();
    assert!(err.expected.contains("Token Table"), "{err}");
}

#[test]
fn game_line_names_the_game() {
    let g = parse_gsd(&format!("Game MN12\n{TABLE}"), map()).unwrap();
    assert_eq!(g.game.as_deref(), Some("MN12"));
    assert!(render(&g).starts_with("Game MN12\n"));
}

/// Non-ASCII text whose lower case is longer than itself (`İ` is two bytes,
/// its lower case three) once made the parser slice at a wrong offset and
/// panic: in a Courier box, a Pegged Line Segment, and the comments a play
/// names its choices in. Each must be an answer, never a crash.
#[test]
fn text_that_grows_when_lower_cased_is_no_crash() {
    let courier = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/gsd/valid/13-packages-and-courier.txt"
    ))
    .unwrap();
    let bad = courier.replace(
        "| Pick-up: Stanmore, Destination: Hainault        ",
        "| İİİİİİİİİİİİİ Pick-up: Stanmore, Destination:ééééé",
    );
    assert_ne!(bad, courier);
    assert!(parse_gsd(&bad, map()).is_err());
    let peg = format!(
        "{TABLE}\n+- Disruptions ---------------------------+\n| İİİİİ Euston to ééééé (NT) (Peg)        |\n+-----------------------------------------+\n"
    );
    assert!(parse_gsd(&peg, map()).is_err());
}

/// An error quotes the whole offending Move or Action, not a fragment cut
/// mid-word; text too long to quote is cut between words, with ` ...`
/// after the closing quote.
#[test]
fn errors_quote_the_whole_offending_token() {
    let err = parse_play(
        "Rushton : Goodge Steet (NT) [Blocking Warren Street] [Claiming a Gold Token from Euston]",
        map(),
    )
    .unwrap_err();
    assert_eq!((err.line, err.column), (1, 11), "{err}");
    assert_eq!(err.found, "\"Goodge Steet (NT)\"", "the Move alone: {err}");
    assert!(err.suggestions.contains(&"Goodge Street".to_string()));
    let err = parse_play(
        "Rushton : Euston (VC) [Blokking Warren Street] {why}",
        map(),
    )
    .unwrap_err();
    assert_eq!(
        err.found, "\"[Blokking Warren Street]\"",
        "the Action alone: {err}"
    );
    // A spec error quotes the rest of the line; a long one is cut at a word.
    let long = "Rushton : Euston (VC via: CN,XX) [Blocking Warren Street] [Claiming a Gold Token from Euston] {and more}";
    let err = parse_play(long, map()).unwrap_err();
    assert!(err.found.ends_with("\" ..."), "{err}");
    let quoted = err.found.trim_end_matches(" ...").trim_matches('"');
    let at = long.find(quoted).expect("a piece of the line");
    assert!(
        long[at + quoted.len()..].starts_with(' '),
        "cut between words: {err}"
    );
    assert!(quoted.starts_with("XX)"), "{err}");
}

/// The canonical GSD leaves empty boxes out (issue 13, item 8), and the
/// parser still reads them: an empty box is the same document as none.
#[test]
fn empty_boxes_are_left_out_and_still_accepted() {
    let bare = parse_gsd(TABLE, map()).unwrap();
    let canonical = render(&bare);
    assert!(!canonical.contains("+- "), "no box at all:\n{canonical}");
    let boxes = [
        "Disruptions",
        "Wild Stations",
        "Token Stacks",
        "Luggage Rack",
        "Lost & Found",
    ]
    .map(|t| format!("+- {t} -----------+\n|                 |\n+-----------------+\n"))
    .join("\n");
    let with_empty = format!("{TABLE}\n{boxes}\nRushton : Euston (VC)\n");
    let g = parse_gsd(&with_empty, map()).unwrap();
    assert_eq!(g.plays.len(), 1);
    assert_eq!(
        (g.disruptions.len(), g.wild.len(), g.stacks.len()),
        (0, 0, 0)
    );
    assert_eq!((g.luggage.len(), g.lost_and_found.len()), (0, 0));
    assert!(!render(&g).contains("+- "), "{}", render(&g));
}

/// Every box of the canonical GSD, the Token Stacks too, is as wide as
/// the others (issue 13, item 8), with one stack or two a row.
#[test]
fn the_token_stacks_box_is_as_wide_as_the_others() {
    let full = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/gsd/valid/25-full-gsd-all-boxes.txt"
    ))
    .unwrap();
    let mut g = parse_gsd(&full, map()).unwrap();
    let widths = |g: &mornbot::gsd::Gsd| {
        let text = render(g);
        let after_table = text.split("\n\n").skip(1).collect::<Vec<_>>().join("\n");
        let mut w: Vec<usize> = after_table
            .lines()
            .filter(|l| l.starts_with(['+', '|']))
            .map(str::len)
            .collect();
        w.dedup();
        (w, text)
    };
    let (w, text) = widths(&g);
    assert_eq!(w, vec![76], "{text}");
    assert!(text.contains("| Dollis Hill"), "{text}");
    // Three stacks: the second row has an empty pair of cells; a long
    // name puts one stack a row, still as wide.
    g.stacks.truncate(3);
    let (w, text) = widths(&g);
    assert_eq!(w, vec![76], "{text}");
    assert_eq!(parse_gsd(&text, map()).unwrap(), g);
    g.stacks[0].tokens = g.stacks[0].tokens.repeat(6);
    let (w, text) = widths(&g);
    assert_eq!(w, vec![76], "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("| Dollis Hill") && !l.contains("Euston")),
        "one stack a row:\n{text}"
    );
    assert_eq!(parse_gsd(&text, map()).unwrap(), g);
}
