//! The boxes of a GSD as players lay them out (Rule 1.2.0 asks for them "in
//! an appropriate format"): one test per named quirk of `grammar/gsd.ebnf`,
//! each layout read as the same document as the canonical boxes, and each
//! malformed one refused with its line, column and what was expected.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::gsd::{parse_gsd, render, Colour, Gsd, ParseError};
use mornbot::map::Map;

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

/// The canonical boxes every layout below writes differently.
const BOXED: &str = "\
+- Disruptions --------------------------------------------------------+
| Euston (Peg), In Knip, NT: One Way: N-S, Angel to Bank (NT) (Peg)    |
+----------------------------------------------------------------------+

+- Game Time ----------------------------------------------------------+
| Wednesday 2340*                                                      |
+----------------------------------------------------------------------+

+- Wild Stations ------------------------------------------------------+
| Amersham, Ealing Broadway                                            |
+----------------------------------------------------------------------+

+- Courier ------------------------------------------------------------+
| Pick-up: Stanmore, Destination: Hainault                             |
+----------------------------------------------------------------------+

+- Token Stacks ------------------------------------------------------------+
| Euston               | BuBuBuRe     | Dollis Hill          | BrSiGo       |
| Morden               | BkBkBk       |                      |              |
+---------------------------------------------------------------------------+

+- Luggage Rack ---------------------------------------------------------+
| Rushton       | Hats (ACTV), *Overcoat*                                |
| Cryer         | Hats (C), Thursday's Paper                             |
+------------------------------------------------------------------------+

+- Lost & Found -------------------------------------------------------+
| Violin, Hat (S)                                                      |
+----------------------------------------------------------------------+
";

const PLAYS: &str = "Rushton : Euston (VC)\nCryer : Pass\n";

fn gsd(boxes: &str) -> Result<Gsd, ParseError> {
    parse_gsd(&format!("{TABLE}\n{boxes}\n{PLAYS}"), map())
}

fn want() -> Gsd {
    let g = gsd(BOXED).unwrap();
    assert_eq!(g.stacks.len(), 3);
    assert_eq!(g.plays.len(), 2);
    g
}

/// Parses `boxes` between the table and the Plays; it must read as BOXED,
/// with LF and with CRLF line ends.
fn same_as_boxed(boxes: &str) {
    let want = want();
    for text in [boxes.to_string(), boxes.replace('\n', "\r\n")] {
        let got = gsd(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(got, want, "{text}");
    }
}

fn error(boxes: &str) -> ParseError {
    match gsd(boxes) {
        Ok(g) => panic!("parsed, expected an error:\n{boxes}\n{}", render(&g)),
        Err(e) => e,
    }
}

/// The line number in the whole text of a line of `boxes` (1-based).
fn line_of(boxes_line: usize) -> usize {
    TABLE.lines().count() + 1 + boxes_line
}

#[test]
fn quirk_one_line_box() {
    same_as_boxed(
        "Disruptions: Euston (Peg), In Knip, NT: One Way: N-S, Angel to Bank (NT) (Peg)
Game Time: Wednesday 2340*
Wild Stations: Amersham, Ealing Broadway
Courier: Pick-up: Stanmore, Destination: Hainault
Token Stacks: Euston 3Bu 1Re; Dollis Hill BrSiGo; Morden BkBkBk
Luggage Rack: Rushton: Hats (ACTV), *Overcoat*; Cryer: Hats (C), Thursday's Paper
Lost & Found: Violin, Hat (S)
",
    );
}

#[test]
fn quirk_one_line_box_any_case_aliases_and_continued_lists() {
    same_as_boxed(
        "disrupted services : Euston (Peg), In Knip,
  NT: One Way: N-S,
  Angel to Bank (NT) (Peg)
time: wednesday 2340*
WILD: amersham,
ealing broadway
Pick-up: Stanmore, Destination: Hainault
Stacks: Euston: BuBuBuRe; Dollis Hill (2) - Br Si Go;
  Morden 3Bk
Luggage: Rushton: Hats (ACTV), *Overcoat*;
  Cryer: Hats (C),
  Thursday's Paper
Lost and Found: Violin, Hat (S)
",
    );
}

#[test]
fn quirk_none_is_an_empty_box() {
    let g =
        gsd("Disruptions: none\nWild Stations: (none)\nCourier: -\nToken Stacks: None\n").unwrap();
    assert!(g.disruptions.is_empty() && g.wild.is_empty() && g.stacks.is_empty());
    assert!(g.courier.is_none());
    assert_eq!(g.plays.len(), 2);
    let g = gsd("+- Wild Stations ---+\n| none |\n+------+\n").unwrap();
    assert!(g.wild.is_empty());
}

#[test]
fn quirk_borderless_box() {
    same_as_boxed(
        "Disruptions
-----------
Euston (Peg), In Knip, NT: One Way: N-S,
Angel to Bank (NT) (Peg)

Game Time:
Wednesday 2340*

Wild Stations
=============
Amersham, Ealing Broadway

Courier
Pick-up: Stanmore
Destination: Hainault

Token Stacks
Euston       BuBuBuRe
Dollis Hill  BrSiGo
Morden       BkBkBk

Luggage Rack:
Rushton: Hats (ACTV), *Overcoat*
Cryer: Hats (C), Thursday's Paper

Lost & Found
Violin, Hat (S)
",
    );
}

#[test]
fn quirk_borderless_box_ends_at_the_next_heading_or_a_play() {
    let g =
        gsd("Wild Stations\nAmersham\nDisruptions:\nIn Knip\nGame Time: Monday 0900\n").unwrap();
    assert_eq!(g.wild, vec!["Amersham".to_string()]);
    assert_eq!(g.disruptions.len(), 1);
    assert!(g.time.is_some());
    // Without a blank line before the Plays: the first Play ends the box.
    let text = format!("{TABLE}\nWild Stations\nAmersham\n{PLAYS}");
    let g = parse_gsd(&text, map()).unwrap();
    assert_eq!((g.wild.len(), g.plays.len()), (1, 2));
}

#[test]
fn quirk_borderless_heading_over_a_bordered_table() {
    same_as_boxed(&BOXED.replace(
        "+- Token Stacks ------------------------------------------------------------+\n",
        "Token Stacks\n+------------------+-------------+\n",
    ));
    // A heading that repeats the box's own title is the same box.
    same_as_boxed(&BOXED.replace("+- Courier -", "Courier:\n+- Courier -"));
}

#[test]
fn quirk_packed_stacks_three_a_row_with_empty_cells() {
    let packed = "+- Token Stacks -----------------------------------------------------+
| Station | Tokens | Station | Tokens | Station | Tokens |
|---------|--------|---------|--------|---------|--------|
| Euston | BuBuBuRe | Dollis Hill | BrSiGo | Morden | BkBkBk |
+--------------------------------------------------------------------+";
    same_as_boxed(&replace_stacks(packed));
    // The last row short of pairs, by empty cells or by none.
    for last in [
        "| Morden | BkBkBk | | | | |",
        "| Morden | BkBkBk |",
        "| Morden | BkBkBk",
    ] {
        let packed = format!(
            "+- Token Stacks ----+\n| Euston | BuBuBuRe | Dollis Hill | BrSiGo |\n{last}\n+------+\n"
        );
        same_as_boxed(&replace_stacks(&packed));
    }
    // A station and its tokens in one cell.
    same_as_boxed(&replace_stacks(
        "+- Token Stacks ---+\n| Euston 3Bu Re | Dollis Hill BrSiGo | Morden BkBkBk |\n+-----+\n",
    ));
}

#[test]
fn packed_stacks_out_of_step_are_refused() {
    // Two stations side by side: whose tokens are these? Not guessed.
    let e = error(&replace_stacks(
        "+- Token Stacks ---+\n| Euston | Dollis Hill | BrSiGo |\n+-----+\n",
    ));
    assert_eq!((e.line, e.column), (line_of(18), 12), "{e}");
    assert!(e.expected.contains("tokens bottom to top"), "{e}");
    let e = error(&replace_stacks(
        "+- Token Stacks ---+\n| BrSiGo | Euston |\n+-----+\n",
    ));
    assert!(e.expected.contains("a station before its tokens"), "{e}");
}

#[test]
fn quirk_realigned_table() {
    // A proportional-font client: pipes out of line, runs of spaces
    // collapsed, tabs, no-break spaces, ragged borders and missing pipes.
    let realigned = BOXED
        .lines()
        .map(|l| {
            let l = if l.starts_with('|') {
                l.split('|')
                    .map(|c| c.trim())
                    .collect::<Vec<_>>()
                    .join(" |\t")
            } else {
                l.replacen("-----", "", 3)
            };
            l.replace("Dollis Hill", "Dollis\u{a0}Hill")
                .replace("Ealing ", "Ealing\u{a0}\u{a0}")
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        realigned.contains("|\tEuston |\tBuBuBuRe |\t"),
        "{realigned}"
    );
    same_as_boxed(&realigned);
    let table = TABLE.replace("  ", " ").replace(" |", "\u{a0}|");
    let g = parse_gsd(&format!("{table}\n{BOXED}\n{PLAYS}"), map()).unwrap();
    assert_eq!(g, want());
}

#[test]
fn an_unknown_or_misspelt_heading_is_an_error_not_a_play() {
    let e = error("Wild Staions: Amersham\n");
    assert_eq!((e.line, e.column), (line_of(1), 1), "{e}");
    assert!(e.expected.contains("a box heading"), "{e}");
    assert_eq!(e.suggestions, vec!["Wild Stations".to_string()]);
    let e = error("Current Disruptions: Euston (Peg)\n");
    assert_eq!(e.suggestions, vec!["Disruptions".to_string()]);
    let e = error("Disruptions Euston (Peg)\n");
    assert_eq!(
        e.suggestions,
        vec!["Disruptions".to_string()],
        "no colon: {e}"
    );
    let e = error("Weather\n-------\nDrizzle\n");
    assert_eq!((e.line, e.column), (line_of(1), 1), "{e}");
    let e = error("Notes:\nnothing\n");
    assert!(e.expected.contains("a box heading"), "{e}");
    // A player's name is never a heading, even one like a box's.
    let text = TABLE.replace("Cryer  ", "Courier");
    let g = parse_gsd(&format!("{text}\nCourier : Euston (VC)\n"), map()).unwrap();
    assert_eq!(g.plays[0].player, "Courier");
}

#[test]
fn one_line_errors_name_line_column_and_what_was_expected() {
    let e = error("Wild Stations: Amersham,\n  Ealing Brodway\n");
    assert_eq!((e.line, e.column), (line_of(2), 3), "{e}");
    assert!(
        e.suggestions.contains(&"Ealing Broadway".to_string()),
        "{e}"
    );
    let e = error("Token Stacks: Euston 3Bu 1Re; Morden BkXx\n");
    assert_eq!((e.line, e.column), (line_of(1), 38), "{e}");
    assert!(e.expected.contains("tokens bottom to top"), "{e}");
    let e = error("Courier: Stanmore to Hainault\n");
    assert!(e.expected.contains("Pick-up"), "{e}");
    let e = error("Luggage Rack: Rushton Hats (ACTV)\n");
    assert_eq!((e.line, e.column), (line_of(1), 15), "{e}");
    assert!(e.expected.contains("a player's name and `:`"), "{e}");
    let e = error("Game Time: Wednesday 2540\n");
    assert_eq!((e.line, e.column), (line_of(1), 12), "{e}");
}

#[test]
fn a_comment_line_naming_a_box_is_a_comment() {
    let g = gsd("{Disruptions: none yet}\n").unwrap();
    assert!(g.disruptions.is_empty());
    assert_eq!(
        g.plays[0].comments().next().unwrap().text,
        "Disruptions: none yet"
    );
}

#[test]
fn a_second_game_time_in_a_box_is_refused_not_ignored() {
    let e = error("Game Time\nWednesday 2340\nThursday 0100\n");
    assert_eq!((e.line, e.column), (line_of(3), 1), "{e}");
    assert!(e.expected.contains("one Game Time"), "{e}");
}

#[test]
fn a_box_in_two_layouts_is_refused() {
    let e = error(&format!("{BOXED}\nWild Stations: Morden\n"));
    assert!(e.expected.contains("each box at most once"), "{e}");
    let e = error("Game Time: Monday 0900\nGame Time Tuesday 0900\n");
    assert_eq!(e.line, line_of(2), "{e}");
}

#[test]
fn a_box_after_the_plays_is_an_error_not_dropped() {
    for late in [
        "Wild Stations: Amersham",
        "+- Disruptions ---+\n| In Knip |\n+---+",
    ] {
        let text = format!("{TABLE}\n{PLAYS}\n{late}\n");
        let e = parse_gsd(&text, map()).unwrap_err();
        assert_eq!(e.line, TABLE.lines().count() + 5, "{e}");
        assert!(e.expected.contains("not after the Plays"), "{e}");
    }
    // Prose after the Plays is still the end of the GSD.
    let text = format!("{TABLE}\n{PLAYS}\nWild times, these.\n");
    assert_eq!(parse_gsd(&text, map()).unwrap().plays.len(), 2);
}

#[test]
fn quirk_stack_runs_read_bottom_to_top() {
    let g = gsd("Token Stacks: Euston 2Go Re 1Bu\n").unwrap();
    use Colour::*;
    assert_eq!(g.stacks[0].tokens, vec![Gold, Gold, Red, Blue]);
    let text = render(&g);
    let row = text.lines().find(|l| l.starts_with("| Euston")).unwrap();
    assert!(row.contains("| GoGoReBu "), "{text}");
}

#[test]
fn quirk_rule_row_is_a_border() {
    let lines: Vec<&str> = TABLE.lines().collect();
    let ruled = [
        lines[0],
        lines[1],
        "|---------|---------|----|----|----------------------|",
    ]
    .into_iter()
    .chain(lines[3..].iter().copied())
    .collect::<Vec<_>>()
    .join("\n");
    let g = parse_gsd(&format!("{ruled}\n\n{BOXED}\n{PLAYS}"), map()).unwrap();
    assert_eq!(g, want());
}

/// BOXED with its Token Stacks box replaced.
fn replace_stacks(stacks: &str) -> String {
    let start = BOXED.find("+- Token Stacks").unwrap();
    let end = start + BOXED[start..].find("\n\n").unwrap();
    format!("{}{}{}", &BOXED[..start], stacks.trim_end(), &BOXED[end..])
}

/// `line` broken at spaces into lines of at most `width` columns, as a
/// client wraps it; with `soft`, each broken line keeps its space
/// (format=flowed).
fn client_wrap(line: &str, width: usize, soft: bool) -> String {
    let mut out = String::new();
    let mut cur = String::new();
    for w in line.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            out.push_str(&cur);
            out.push_str(if soft { " \n" } else { "\n" });
            cur.clear();
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    out.push_str(&cur);
    out.push('\n');
    out
}

#[test]
fn quirk_wrapped_play_over_many_lines_is_read_whole_or_refused() {
    let words = "the Northern line is shut again so I went round by way of Bank";
    let comment = [words; 6].join(", then ");
    let play = format!("Rushton : [LV+1] {{{comment}}} Wimbledon Park (DS) [Home: Balham]");
    let whole = parse_gsd(&format!("{TABLE}\n{BOXED}\n{play}\nCryer : Pass\n"), map()).unwrap();
    assert_eq!(whole.plays.len(), 2);
    for width in [20, 24, 40, 72, 78] {
        for soft in [false, true] {
            let wrapped = client_wrap(&play, width, soft);
            let text = format!("{TABLE}\n{BOXED}\n{wrapped}Cryer : Pass\n");
            assert_eq!(
                parse_gsd(&text, map()).unwrap_or_else(|e| panic!("{e}\n{wrapped}")),
                whole,
                "{wrapped}"
            );
            // The last Play, wrapped, then a sign-off straight below it:
            // read whole, or refused, never cut short.
            let text = format!("{TABLE}\n{BOXED}\nCryer : Pass\n{wrapped}Cheers,\nTim\n");
            if let Ok(g) = parse_gsd(&text, map()) {
                assert_eq!(g.plays[1], whole.plays[0], "{wrapped}");
            }
        }
    }
}
