//! Issue 39: a GSD laid out as players and their mail clients lay it out
//! reads as the state it is, or is refused; it is never read as another
//! state.
//!
//! A random canonical GSD (`gsd_gen::gsd`, written by `mornbot::gsd::render`)
//! is laid out again ([`Layout`]): the Token Table's columns in any order
//! (the colours in one cell or seven, LV, Ch, Home and Player anywhere),
//! its headings in other words and any case, drawn with ASCII, Unicode
//! light, heavy, double or rounded box drawing, as a reStructuredText grid,
//! a Markdown pipe table, with spaces alone or with tabs; each box bordered
//! (in those styles, with a blank line inside), under a Markdown heading,
//! on one line or without borders, under its other names; Plays listed
//! (`- `, `* `, `1. `, ...) under a heading and wrapped by a client; then
//! the text quoted (`> `), between prose and a sign-off, with CRLF line
//! ends, a byte-order mark, zero-width spaces at line starts, no-break and
//! narrow no-break spaces inside, accents decomposed (NFD), and saved as
//! Windows-1252 where every character has a byte there.
//!
//! The reading is compared as the typed [`Gsd`], never as text:
//! `parse(layout) == parse(canonical)` or `Err`, never `Ok` of another
//! state ([`Reading`]). The layouts the grammar documents as accepted must
//! read as the source (not be refused), and a layout with one fact changed
//! (a count, a station, a name, a digit of the table) must never read as
//! the source.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod gsd_gen;

use gsd_gen::{gsd, map, NAMES};
use mornbot::gsd::{parse_gsd, render, Colour, Disruption, Gsd, ParseError, PlayerRow};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};

// ---- What a reading is ----------------------------------------------------

/// How a layout was read, compared with its source.
#[derive(Debug, PartialEq, Eq)]
enum Reading {
    /// The source state.
    Same,
    /// Refused, with the reader's error.
    Refused(String),
    /// Read as another state: the defect the properties look for.
    Misread(String),
}

/// Compares a reading with the state it must be.
fn reading(source: &Gsd, read: Result<Gsd, ParseError>) -> Reading {
    match read {
        Ok(g) if g == *source => Reading::Same,
        Ok(g) => Reading::Misread(first_difference(source, &g)),
        Err(e) => Reading::Refused(e.to_string()),
    }
}

/// The first field where two states differ, for the failure message.
fn first_difference(want: &Gsd, got: &Gsd) -> String {
    macro_rules! field {
        ($f:ident) => {
            if want.$f != got.$f {
                return format!("{}: want {:?}\n got {:?}", stringify!($f), want.$f, got.$f);
            }
        };
    }
    field!(game);
    field!(players);
    field!(disruptions);
    field!(time);
    field!(wild);
    field!(courier);
    field!(stacks);
    field!(marked);
    field!(luggage);
    field!(lost_and_found);
    if want.plays.len() != got.plays.len() {
        return format!(
            "{} Plays read, {} written",
            got.plays.len(),
            want.plays.len()
        );
    }
    for (i, (w, g)) in want.plays.iter().zip(&got.plays).enumerate() {
        if w != g {
            return format!(
                "Play {}: want {}\n got {}",
                i + 1,
                mornbot::gsd::render_play(w),
                mornbot::gsd::render_play(g)
            );
        }
    }
    "no field differs".into()
}

/// What the daemon and `mornbot gsd` do with a file's bytes.
fn read_bytes(bytes: &[u8]) -> Result<Gsd, ParseError> {
    parse_gsd(&mornbot::text::decode(bytes).text, map())
}

// ---- The canonical text, cut into what a layout rewrites -------------------

/// A box of the canonical GSD: its title and its rows' cells.
#[derive(Clone, Debug)]
struct BoxText {
    title: String,
    rows: Vec<Vec<String>>,
}

/// The canonical text's boxes and Plays (the Token Table is written again
/// from the typed rows).
struct Parts {
    boxes: Vec<BoxText>,
    plays: Vec<String>,
}

fn split(canonical: &str) -> Parts {
    let mut boxes: Vec<BoxText> = Vec::new();
    let mut plays = Vec::new();
    let mut in_table = false;
    let mut table_done = false;
    let mut open: Option<BoxText> = None;
    for l in canonical.lines() {
        if !table_done {
            if l.starts_with(['+', '|']) {
                in_table = true;
            } else if in_table {
                table_done = true;
            }
            continue;
        }
        if let Some(b) = open.as_mut() {
            if l.starts_with('|') {
                let inner = l.trim().trim_start_matches('|').trim_end_matches('|');
                b.rows
                    .push(inner.split('|').map(|c| c.trim().to_string()).collect());
            } else {
                boxes.push(open.take().expect("open"));
            }
            continue;
        }
        if let Some(rest) = l.strip_prefix("+- ") {
            let title = rest.split(" -").next().unwrap_or("").to_string();
            open = Some(BoxText {
                title,
                rows: Vec::new(),
            });
        } else if !l.trim().is_empty() {
            plays.push(l.to_string());
        }
    }
    if let Some(b) = open {
        boxes.push(b);
    }
    Parts { boxes, plays }
}

// ---- Layouts --------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Border {
    Ascii,
    Light,
    Heavy,
    Double,
    Rounded,
}

/// A border style's characters: across, down, and the corners and
/// junctions of the top, middle and bottom rules.
struct Pen {
    h: char,
    v: char,
    top: [char; 3],
    mid: [char; 3],
    bottom: [char; 3],
}

impl Border {
    fn pen(self) -> Pen {
        let p = |h, v, top, mid, bottom| Pen {
            h,
            v,
            top,
            mid,
            bottom,
        };
        match self {
            Border::Ascii => p('-', '|', ['+'; 3], ['+'; 3], ['+'; 3]),
            Border::Light => p('─', '│', ['┌', '┬', '┐'], ['├', '┼', '┤'], ['└', '┴', '┘']),
            Border::Heavy => p('━', '┃', ['┏', '┳', '┓'], ['┣', '╋', '┫'], ['┗', '┻', '┛']),
            Border::Double => p('═', '║', ['╔', '╦', '╗'], ['╠', '╬', '╣'], ['╚', '╩', '╝']),
            Border::Rounded => p('─', '│', ['╭', '┬', '╮'], ['├', '┼', '┤'], ['╰', '┴', '╯']),
        }
    }
}

fn border() -> impl Strategy<Value = Border> {
    select(vec![
        Border::Ascii,
        Border::Light,
        Border::Heavy,
        Border::Double,
        Border::Rounded,
    ])
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    AsIs,
    Upper,
    Lower,
}

impl Case {
    fn apply(self, s: &str) -> String {
        match self {
            Case::AsIs => s.to_string(),
            Case::Upper => s.to_uppercase(),
            Case::Lower => s.to_lowercase(),
        }
    }
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![3 => Just(Case::AsIs), 1 => Just(Case::Upper), 1 => Just(Case::Lower)]
}

/// A column of the Token Table as a layout writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Col {
    Player,
    Home,
    Lv,
    Ch,
    /// One colour's count.
    Colour(Colour),
    /// Every colour's count in one cell, in the layout's colour order.
    Colours,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableForm {
    Bordered(Border),
    /// reStructuredText: `+====+` under the heading, a rule between rows.
    Grid,
    Markdown {
        outer: bool,
        colons: bool,
    },
    Spaced {
        rule: bool,
    },
    Tsv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChargeStyle {
    Plain,
    Plus,
    Percent,
    UnicodeMinus,
}

#[derive(Clone, Debug)]
struct TableLayout {
    form: TableForm,
    cols: Vec<Col>,
    colours: Vec<Colour>,
    /// Which words each heading is written with.
    words: u8,
    case: Case,
    home_dash: bool,
    omit_empty_home: bool,
    charge: ChargeStyle,
    /// A `Tokens` title over the colours' heading (Rule 1.2.0's example).
    tokens_title: bool,
}

fn table_layout(documented: bool) -> impl Strategy<Value = TableLayout> {
    let _ = documented;
    let form = prop_oneof![
        4 => border().prop_map(TableForm::Bordered),
        1 => Just(TableForm::Grid),
        2 => (any::<bool>(), any::<bool>())
            .prop_map(|(outer, colons)| TableForm::Markdown { outer, colons }),
        2 => any::<bool>().prop_map(|rule| TableForm::Spaced { rule }),
        1 => Just(TableForm::Tsv),
    ];
    let cols = any::<bool>().prop_flat_map(|grouped| {
        let mut base = vec![Col::Player, Col::Home, Col::Lv, Col::Ch];
        if grouped {
            base.push(Col::Colours);
        } else {
            base.extend(Colour::ALL.into_iter().map(Col::Colour));
        }
        Just(base).prop_shuffle()
    });
    (
        form,
        cols,
        Just(Colour::ALL.to_vec()).prop_shuffle(),
        any::<u8>(),
        case(),
        any::<bool>(),
        any::<bool>(),
        select(vec![
            ChargeStyle::Plain,
            ChargeStyle::Plus,
            ChargeStyle::Percent,
            ChargeStyle::UnicodeMinus,
        ]),
        any::<bool>(),
    )
        .prop_map(
            |(
                form,
                cols,
                colours,
                words,
                case,
                home_dash,
                omit_empty_home,
                charge,
                tokens_title,
            )| {
                TableLayout {
                    form,
                    cols,
                    colours,
                    words,
                    case,
                    home_dash,
                    omit_empty_home,
                    charge,
                    tokens_title,
                }
            },
        )
}

/// How one box is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoxForm {
    /// Drawn, perhaps with a blank row (`| |`) or an empty line inside.
    Bordered { border: Border, blank: u8 },
    /// Under a Markdown heading (`### Title`, `**Title:**`...).
    Marked { style: u8 },
    /// `Title: text`, continued on lines ending in `,`.
    OneLine,
    /// The title alone on its line, perhaps underlined, then the text.
    Borderless {
        colon: bool,
        underline: Option<char>,
    },
}

#[derive(Clone, Copy, Debug)]
struct BoxLayout {
    form: BoxForm,
    title: u8,
    case: Case,
}

fn box_layout() -> impl Strategy<Value = BoxLayout> {
    let blank = prop_oneof![3 => Just(0u8), 1 => 1u8..3];
    let form = prop_oneof![
        4 => (border(), blank).prop_map(|(border, blank)| BoxForm::Bordered { border, blank }),
        2 => (0u8..4).prop_map(|style| BoxForm::Marked { style }),
        2 => Just(BoxForm::OneLine),
        1 => (any::<bool>(), select(vec![None, Some('-'), Some('=')]))
            .prop_map(|(colon, underline)| BoxForm::Borderless { colon, underline }),
    ];
    (form, any::<u8>(), case()).prop_map(|(form, title, case)| BoxLayout { form, title, case })
}

#[derive(Clone, Debug)]
struct PlaysLayout {
    marker: u8,
    heading: u8,
    /// A client's wrap: at this column, continuation lines indented so,
    /// the break's space kept (format=flowed) or not.
    wrap: Option<(usize, usize, bool)>,
    blank_between: bool,
}

fn plays_layout(documented: bool) -> impl Strategy<Value = PlaysLayout> {
    // Mail clients wrap at 72 or 78 columns; beyond the documented
    // layouts, a phone's narrow screen anywhere from 20.
    let width = if documented {
        select(vec![72usize, 78]).boxed()
    } else {
        prop_oneof![1 => select(vec![72usize, 78]), 1 => 20usize..72].boxed()
    };
    let wrap = proptest::option::weighted(0.3, (width, select(vec![0usize, 2, 4]), any::<bool>()));
    (0u8..6, 0u8..5, wrap, proptest::bool::weighted(0.15)).prop_map(
        |(marker, heading, wrap, blank_between)| PlaysLayout {
            marker,
            heading,
            wrap,
            blank_between,
        },
    )
}

#[derive(Clone, Debug)]
struct TextLayout {
    /// No blank line between the boxes (beyond the documented layouts).
    tight: bool,
    game: u8,
    prose_before: bool,
    after: u8,
    quote: u8,
    crlf: bool,
    bom: bool,
    /// A zero-width space at the start of every k-th line (0: none).
    zwsp: u8,
    /// Every k-th inner space made a no-break (or narrow no-break) one.
    nbsp: u8,
    narrow: bool,
    nfd: bool,
    cp1252: bool,
}

fn text_layout(documented: bool) -> impl Strategy<Value = TextLayout> {
    let tight = if documented {
        Just(false).boxed()
    } else {
        proptest::bool::weighted(0.2).boxed()
    };
    (
        (
            tight,
            0u8..4,
            proptest::bool::weighted(0.3),
            0u8..3,
            prop_oneof![3 => Just(0u8), 1 => 1u8..3],
            proptest::bool::weighted(0.3),
        ),
        (
            proptest::bool::weighted(0.2),
            prop_oneof![2 => Just(0u8), 1 => 1u8..6],
            prop_oneof![2 => Just(0u8), 1 => 1u8..8],
            any::<bool>(),
            proptest::bool::weighted(0.3),
            proptest::bool::weighted(0.3),
        ),
    )
        .prop_map(
            |(
                (tight, game, prose_before, after, quote, crlf),
                (bom, zwsp, nbsp, narrow, nfd, cp1252),
            )| {
                TextLayout {
                    tight,
                    game,
                    prose_before,
                    after,
                    quote,
                    crlf,
                    bom,
                    zwsp,
                    nbsp,
                    narrow,
                    nfd,
                    cp1252,
                }
            },
        )
}

#[derive(Clone, Debug)]
struct Layout {
    table: TableLayout,
    /// One per box, in the canonical order (more than enough).
    boxes: Vec<BoxLayout>,
    plays: PlaysLayout,
    text: TextLayout,
    /// One digit of the Token Table's rows changed (the k-th, to this
    /// digit): the negative property's text-level change.
    digit: Option<(usize, u8)>,
}

fn layout_of(documented: bool) -> impl Strategy<Value = Layout> {
    (
        table_layout(documented),
        proptest::collection::vec(box_layout(), 7),
        plays_layout(documented),
        text_layout(documented),
    )
        .prop_map(|(table, boxes, plays, text)| Layout {
            table,
            boxes,
            plays,
            text,
            digit: None,
        })
}

// ---- Writing a layout -----------------------------------------------------

fn heading_words(col: Col, words: u8, colours: &[Colour]) -> String {
    let pick = |v: &[&str]| v[usize::from(words) % v.len()].to_string();
    match col {
        Col::Player => pick(&["Player", "Name", "Players", "Player Name"]),
        Col::Home => pick(&["Home", "Home Station", "Homes"]),
        Col::Lv => pick(&["LV", "Line Velocity", "LV", "Velocity"]),
        Col::Ch => pick(&["Ch", "Charge", "Chg", "Ch"]),
        Col::Colour(c) => colour_word(c, words),
        Col::Colours => colours
            .iter()
            .map(|c| colour_word(*c, words / 3))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn colour_word(c: Colour, words: u8) -> String {
    match (words % 5, c) {
        (3, _) => c.name().to_string(),
        (4, Colour::Black) => "Bl".into(),
        _ => c.code().to_string(),
    }
}

fn is_numeric(col: Col) -> bool {
    !matches!(col, Col::Player | Col::Home)
}

fn charge_text(ch: i32, style: ChargeStyle) -> String {
    match style {
        ChargeStyle::Plain => ch.to_string(),
        ChargeStyle::Plus if ch > 0 => format!("+{ch}"),
        ChargeStyle::Plus => ch.to_string(),
        ChargeStyle::Percent => format!("{ch}%"),
        ChargeStyle::UnicodeMinus if ch < 0 => format!("\u{2212}{}", -ch),
        ChargeStyle::UnicodeMinus => ch.to_string(),
    }
}

fn cell(p: &PlayerRow, col: Col, t: &TableLayout) -> String {
    match col {
        Col::Player => format!("{}{}", if p.active { "" } else { "*" }, p.name),
        Col::Home => match &p.home {
            Some(h) => h.clone(),
            None if t.home_dash => "-".into(),
            None => String::new(),
        },
        Col::Lv => p.lv.to_string(),
        Col::Ch => charge_text(p.charge, t.charge),
        Col::Colour(c) => p.tokens.get(c).to_string(),
        Col::Colours => t
            .colours
            .iter()
            .map(|c| p.tokens.get(*c).to_string())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn pad(s: &str, w: usize, right: bool) -> String {
    let n = s.chars().count();
    let fill = " ".repeat(w.saturating_sub(n));
    if right {
        format!("{fill}{s}")
    } else {
        format!("{s}{fill}")
    }
}

/// A rule of a drawn table: `+----+---+` in the pen's characters.
fn rule(pen: &Pen, ends: [char; 3], widths: &[usize]) -> String {
    let mut s = String::new();
    s.push(ends[0]);
    for (i, w) in widths.iter().enumerate() {
        s.extend(std::iter::repeat_n(pen.h, w + 2));
        s.push(if i + 1 == widths.len() {
            ends[2]
        } else {
            ends[1]
        });
    }
    s
}

fn drawn_row(v: char, cells: &[String], widths: &[usize], right: &[bool]) -> String {
    let mut s = String::new();
    s.push(v);
    for ((c, w), r) in cells.iter().zip(widths).zip(right) {
        s.push(' ');
        s.push_str(&pad(c, *w, *r));
        s.push(' ');
        s.push(v);
    }
    s
}

/// The Token Table's lines, and the range of them holding players' rows.
fn token_table(players: &[PlayerRow], t: &TableLayout) -> (Vec<String>, std::ops::Range<usize>) {
    let no_home = players.iter().all(|p| p.home.is_none());
    let mut cols: Vec<Col> = t
        .cols
        .iter()
        .copied()
        .filter(|c| !(*c == Col::Home && no_home && t.omit_empty_home))
        .collect();
    // Spaced, the colours are columns of their own whatever the layout.
    if matches!(t.form, TableForm::Spaced { .. }) {
        cols = cols
            .into_iter()
            .flat_map(|c| match c {
                Col::Colours => t.colours.iter().map(|k| Col::Colour(*k)).collect(),
                c => vec![c],
            })
            .collect();
    }
    let heads: Vec<String> = cols
        .iter()
        .map(|c| t.case.apply(&heading_words(*c, t.words, &t.colours)))
        .collect();
    let rows: Vec<Vec<String>> = players
        .iter()
        .map(|p| cols.iter().map(|c| cell(p, *c, t)).collect())
        .collect();
    let right: Vec<bool> = cols.iter().map(|c| is_numeric(*c)).collect();
    let widths: Vec<usize> = (0..cols.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([heads[i].chars().count()])
                .max()
                .unwrap_or(1)
                .max(1)
        })
        .collect();
    let mut out = Vec::new();
    let data: std::ops::Range<usize>;
    match t.form {
        TableForm::Bordered(_) | TableForm::Grid => {
            let b = match t.form {
                TableForm::Bordered(b) => b,
                _ => Border::Ascii,
            };
            let grid = t.form == TableForm::Grid;
            let pen = b.pen();
            out.push(rule(&pen, pen.top, &widths));
            let grouped = cols.contains(&Col::Colours);
            if t.tokens_title && grouped {
                let title: Vec<String> = cols
                    .iter()
                    .zip(&heads)
                    .map(|(c, h)| {
                        if *c == Col::Colours {
                            t.case.apply("Tokens")
                        } else {
                            h.clone()
                        }
                    })
                    .collect();
                let under: Vec<String> = cols
                    .iter()
                    .zip(&heads)
                    .map(|(c, h)| {
                        if *c == Col::Colours {
                            h.clone()
                        } else {
                            String::new()
                        }
                    })
                    .collect();
                let blank = vec![String::new(); cols.len()];
                out.push(drawn_row(pen.v, &title, &widths, &right));
                out.push(drawn_row(pen.v, &blank, &widths, &right));
                out.push(drawn_row(pen.v, &under, &widths, &right));
            } else {
                out.push(drawn_row(pen.v, &heads, &widths, &right));
            }
            if grid {
                out.push(rule(
                    &Pen {
                        h: '=',
                        ..Border::Ascii.pen()
                    },
                    ['+'; 3],
                    &widths,
                ));
            } else {
                out.push(rule(&pen, pen.mid, &widths));
            }
            let start = out.len();
            for (i, r) in rows.iter().enumerate() {
                if grid && i > 0 {
                    out.push(rule(&pen, pen.mid, &widths));
                }
                out.push(drawn_row(pen.v, r, &widths, &right));
            }
            data = start..out.len();
            out.push(rule(&pen, pen.bottom, &widths));
        }
        TableForm::Markdown { outer, colons } => {
            // An empty cell at either end needs the outer pipes (GFM).
            let outer = outer
                || rows.iter().any(|r| {
                    r.first().is_some_and(String::is_empty)
                        || r.last().is_some_and(String::is_empty)
                });
            let line = |cells: &[String]| {
                let inner = cells
                    .iter()
                    .zip(&widths)
                    .zip(&right)
                    .map(|((c, w), r)| format!(" {} ", pad(c, *w, *r)))
                    .collect::<Vec<_>>()
                    .join("|");
                if outer {
                    format!("|{inner}|")
                } else {
                    inner.trim().to_string()
                }
            };
            out.push(line(&heads));
            let dashes: Vec<String> = widths
                .iter()
                .zip(&right)
                .map(|(w, r)| {
                    let d = "-".repeat(w + 2 - usize::from(colons && *r));
                    if colons && *r {
                        format!("{d}:")
                    } else {
                        d
                    }
                })
                .collect();
            out.push(if outer {
                format!("|{}|", dashes.join("|"))
            } else {
                dashes.join("|")
            });
            let start = out.len();
            for r in &rows {
                out.push(line(r));
            }
            data = start..out.len();
        }
        TableForm::Spaced { rule: ruled } => {
            let line = |cells: &[String]| {
                cells
                    .iter()
                    .zip(&widths)
                    .zip(&right)
                    .map(|((c, w), r)| pad(c, *w, *r))
                    .collect::<Vec<_>>()
                    .join("   ")
                    .trim_end()
                    .to_string()
            };
            out.push(line(&heads));
            if ruled {
                out.push(
                    widths
                        .iter()
                        .map(|w| "-".repeat(*w))
                        .collect::<Vec<_>>()
                        .join("   "),
                );
            }
            let start = out.len();
            for r in &rows {
                out.push(line(r));
            }
            data = start..out.len();
        }
        TableForm::Tsv => {
            out.push(heads.join("\t"));
            let start = out.len();
            for r in &rows {
                out.push(r.join("\t"));
            }
            data = start..out.len();
        }
    }
    (out, data)
}

/// The other names a box goes by (grammar/gsd.ebnf, `title`).
fn title_of(canonical: &str, pick: u8) -> String {
    let names: &[&str] = match canonical {
        "Disruptions" => &["Disruptions", "Disrupted Services"],
        "Game Time" => &["Game Time", "Time"],
        "Wild Stations" => &["Wild Stations", "Wild"],
        "Courier" => &["Courier", "Courier Stations"],
        "Token Stacks" => &["Token Stacks", "Stacks"],
        "Luggage Rack" => &["Luggage Rack", "Luggage"],
        "Lost & Found" => &["Lost & Found", "Lost and Found", "Lost n Found"],
        other => panic!("no box {other}"),
    };
    // The canonical name most of the time.
    if pick % 3 == 0 {
        names[usize::from(pick / 3) % names.len()].to_string()
    } else {
        names[0].to_string()
    }
}

/// A box's stacks (Token Stacks) or players' items (Luggage Rack) as
/// `(name, text)` pairs; a simple box's lines.
fn pairs(b: &BoxText) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    if b.title == "Luggage Rack" {
        for r in &b.rows {
            let (who, items) = (r[0].clone(), r.get(1).cloned().unwrap_or_default());
            match out.last_mut() {
                Some(last) if who.is_empty() => {
                    last.1.push(' ');
                    last.1.push_str(&items);
                }
                _ => out.push((who, items)),
            }
        }
    } else {
        for r in &b.rows {
            for pair in r.chunks(2) {
                if !pair[0].is_empty() {
                    out.push((pair[0].clone(), pair.get(1).cloned().unwrap_or_default()));
                }
            }
        }
    }
    out
}

fn write_box(b: &BoxText, l: &BoxLayout, out: &mut Vec<String>) {
    let title = l.case.apply(&title_of(&b.title, l.title));
    let cells = b.title == "Token Stacks" || b.title == "Luggage Rack";
    let lines: Vec<String> = b.rows.iter().map(|r| r[0].clone()).collect();
    match l.form {
        BoxForm::Bordered { border, blank } => {
            let pen = border.pen();
            let rows: Vec<Vec<String>> = if cells {
                pairs(b).into_iter().map(|(a, t)| vec![a, t]).collect()
            } else {
                lines.iter().map(|s| vec![s.clone()]).collect()
            };
            let n = rows.first().map_or(1, Vec::len);
            let mut widths = vec![0; n];
            for r in &rows {
                for (i, c) in r.iter().enumerate() {
                    widths[i] = widths[i].max(c.chars().count());
                }
            }
            let total: usize = widths.iter().map(|w| w + 3).sum::<usize>() - 1;
            let min = title.chars().count() + 4;
            if total < min {
                widths[n - 1] += min - total;
            }
            let total: usize = widths.iter().map(|w| w + 3).sum::<usize>() - 1;
            let mut top = String::new();
            top.push(pen.top[0]);
            top.push(pen.h);
            top.push(' ');
            top.push_str(&title);
            top.push(' ');
            top.extend(std::iter::repeat_n(
                pen.h,
                total.saturating_sub(title.chars().count() + 3),
            ));
            top.push(pen.top[2]);
            out.push(top);
            let right = vec![false; n];
            let blank_row = drawn_row(pen.v, &vec![String::new(); n], &widths, &right);
            if blank == 1 {
                out.push(blank_row.clone());
            }
            for (i, r) in rows.iter().enumerate() {
                if blank == 2 && i == rows.len() / 2 && i > 0 {
                    out.push(String::new());
                }
                out.push(drawn_row(pen.v, r, &widths, &right));
            }
            if blank == 1 {
                out.push(blank_row);
            }
            let mut bottom = String::new();
            bottom.push(pen.bottom[0]);
            bottom.extend(std::iter::repeat_n(pen.h, total));
            bottom.push(pen.bottom[2]);
            out.push(bottom);
        }
        BoxForm::Marked { style } => {
            let head = match style {
                0 => format!("### {title}"),
                1 => format!("## {title}"),
                2 => format!("**{title}**"),
                _ => format!("**{title}:**"),
            };
            out.push(head);
            out.push(String::new());
            match b.title.as_str() {
                "Token Stacks" => {
                    out.push("| Station | Tokens |".into());
                    out.push("|---------|--------|".into());
                    for (a, t) in pairs(b) {
                        out.push(format!("| {a} | {t} |"));
                    }
                }
                "Luggage Rack" => {
                    for (a, t) in pairs(b) {
                        out.push(format!("- {a}: {t}").trim_end().to_string());
                    }
                }
                _ => out.extend(lines),
            }
        }
        BoxForm::OneLine => match b.title.as_str() {
            "Token Stacks" => {
                let stacks: Vec<String> = pairs(b)
                    .into_iter()
                    .map(|(a, t)| format!("{a} {t}"))
                    .collect();
                out.push(format!("{title}: {}", stacks.join("; ")));
            }
            "Luggage Rack" => {
                let rows: Vec<String> = pairs(b)
                    .into_iter()
                    .map(|(a, t)| format!("{a}: {t}").trim_end().to_string())
                    .collect();
                out.push(format!("{title}: {}", rows.join("; ")));
            }
            _ => {
                let mut first = true;
                for line in lines {
                    if first {
                        out.push(format!("{title}: {line}"));
                        first = false;
                    } else {
                        out.push(format!("  {line}"));
                    }
                }
            }
        },
        BoxForm::Borderless { colon, underline } => {
            let head = if colon { format!("{title}:") } else { title };
            let n = head.chars().count();
            out.push(head);
            if let Some(u) = underline {
                out.push(std::iter::repeat_n(u, n).collect());
            }
            match b.title.as_str() {
                "Token Stacks" => {
                    for (a, t) in pairs(b) {
                        out.push(format!("{a}  {t}"));
                    }
                }
                "Luggage Rack" => {
                    for (a, t) in pairs(b) {
                        out.push(format!("{a}: {t}").trim_end().to_string());
                    }
                }
                _ => out.extend(lines),
            }
        }
    }
    out.push(String::new());
}

/// A Play line wrapped at `width` by a client: broken at the last space
/// that fits, continuation lines indented.
fn wrap_play(line: &str, (width, indent, keep): (usize, usize, bool)) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line.to_string();
    let mut prefix = String::new();
    loop {
        let chars: Vec<char> = rest.chars().collect();
        if prefix.chars().count() + chars.len() <= width {
            out.push(format!("{prefix}{rest}"));
            return out;
        }
        let limit = width.saturating_sub(prefix.chars().count());
        let Some(at) = (1..limit.min(chars.len()))
            .rev()
            .find(|&i| chars[i] == ' ' && chars[i - 1] != ' ')
        else {
            out.push(format!("{prefix}{rest}"));
            return out;
        };
        let head: String = chars[..at].iter().collect();
        let tail: String = chars[at + 1..].iter().collect();
        out.push(format!("{prefix}{head}{}", if keep { " " } else { "" }));
        rest = tail;
        prefix = " ".repeat(indent);
    }
}

const PROSE_BEFORE: &str = "Here is my turn, with the tables as I see them:";

/// The layout's text lines, before the text-level changes (spaces,
/// accents, quoting, line ends, encoding).
fn layout_lines(g: &Gsd, l: &Layout) -> Vec<String> {
    let canonical = render(g);
    let parts = split(&canonical);
    let mut out = Vec::new();
    if l.text.prose_before {
        out.push(PROSE_BEFORE.to_string());
        out.push(String::new());
    }
    if let Some(game) = &g.game {
        out.push(match l.text.game {
            0 => format!("Game {game}"),
            1 => format!("Game: {game}"),
            2 => format!("## Game {game}"),
            _ => format!("**Game {game}**"),
        });
        if l.text.game >= 2 {
            out.push(String::new());
        }
    }
    let (mut table, rows) = token_table(&g.players, &l.table);
    if let Some((k, d)) = l.digit {
        change_digit(&mut table[rows], k, d);
    }
    out.extend(table);
    out.push(String::new());
    for (b, bl) in parts.boxes.iter().zip(l.boxes.iter().cycle()) {
        write_box(b, bl, &mut out);
        if l.text.tight {
            out.pop();
        }
    }
    let p = &l.plays;
    if !parts.plays.is_empty() {
        match p.heading {
            1 => out.push("Plays".into()),
            2 => out.push("PLAYS:".into()),
            3 => {
                out.push("### Plays".into());
                out.push(String::new());
            }
            4 => {
                out.push("Plays".into());
                out.push("-----".into());
            }
            _ => {}
        }
    }
    for (i, play) in parts.plays.iter().enumerate() {
        let marker = match p.marker {
            1 => "- ".to_string(),
            2 => "* ".to_string(),
            3 => format!("{}. ", i + 1),
            4 => format!("{}) ", i + 1),
            5 => format!("({}) ", i + 1),
            _ => String::new(),
        };
        let line = format!("{marker}{play}");
        if p.blank_between && i > 0 {
            out.push(String::new());
        }
        match p.wrap {
            Some(w) => out.extend(wrap_play(&line, w)),
            None => out.push(line),
        }
    }
    match l.text.after {
        1 => {
            out.push(String::new());
            out.push("Cheers,".into());
            out.push("Tim".into());
        }
        2 => {
            out.push("-- ".into());
            out.push("Tim, who plays on Tuesdays".into());
        }
        _ => {}
    }
    out
}

/// Changes the `k`-th digit (modulo their number) of `rows` to `d` (or
/// the next digit, if it is `d` already).
fn change_digit(rows: &mut [String], k: usize, d: u8) {
    let total: usize = rows
        .iter()
        .map(|r| r.chars().filter(char::is_ascii_digit).count())
        .sum();
    if total == 0 {
        return;
    }
    let mut k = k % total;
    for r in rows.iter_mut() {
        let n = r.chars().filter(char::is_ascii_digit).count();
        if k >= n {
            k -= n;
            continue;
        }
        let mut seen = 0;
        *r = r
            .chars()
            .map(|c| {
                if !c.is_ascii_digit() {
                    return c;
                }
                seen += 1;
                if seen - 1 != k {
                    return c;
                }
                let mut new = char::from(b'0' + d % 10);
                if new == c {
                    new = char::from(b'0' + (d + 1) % 10);
                }
                new
            })
            .collect();
        return;
    }
}

/// Windows-1252's byte for a character, when it has one.
fn cp1252_byte(c: char) -> Option<u8> {
    (0u8..=255).find(|b| mornbot::text::cp1252(*b) == c)
}

/// The bytes of a layout: its lines with the text-level changes.
fn layout_bytes(g: &Gsd, l: &Layout) -> Vec<u8> {
    use unicode_normalization::UnicodeNormalization;
    let t = &l.text;
    let mut lines = layout_lines(g, l);
    let mut spaces = 0usize;
    for line in lines.iter_mut() {
        if t.nbsp > 0 && line != "-- " {
            let keep = line.trim_end().chars().count();
            let lead = line.chars().take_while(|c| *c == ' ').count();
            *line = line
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if c == ' ' && i < keep && i >= lead {
                        spaces += 1;
                        if spaces % usize::from(t.nbsp) == 0 {
                            return if t.narrow { '\u{202f}' } else { '\u{a0}' };
                        }
                    }
                    c
                })
                .collect();
        }
        if t.nfd {
            *line = line.nfd().collect();
        }
    }
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        if t.zwsp > 0 && i % usize::from(t.zwsp) == 0 && !line.is_empty() {
            text.push('\u{200b}');
        }
        match t.quote {
            0 => {}
            1 => text.push_str(if line.is_empty() { ">" } else { "> " }),
            _ => text.push_str(if line.is_empty() { ">>" } else { ">> " }),
        }
        text.push_str(line);
        text.push_str(if t.crlf { "\r\n" } else { "\n" });
    }
    if t.bom {
        text.insert(0, '\u{feff}');
    }
    if t.cp1252 && !text.is_ascii() {
        if let Some(bytes) = text.chars().map(cp1252_byte).collect::<Option<Vec<u8>>>() {
            return bytes;
        }
    }
    text.into_bytes()
}

// ---- The properties ---------------------------------------------------------

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The property: `g`'s canonical text reads as `g`, and its layout `l`
/// reads as `g` or is refused. With `strict`, refused is a failure too.
fn check_layout(
    reader: &dyn Fn(&[u8]) -> Result<Gsd, ParseError>,
    g: &Gsd,
    l: &Layout,
    strict: bool,
) -> Result<(), TestCaseError> {
    let canonical = render(g);
    let source = parse_gsd(&canonical, map())
        .map_err(|e| TestCaseError::fail(format!("the canonical text: {e}\n{canonical}")))?;
    prop_assert_eq!(&source, g, "the canonical text reads as its state");
    let bytes = layout_bytes(g, l);
    match reading(&source, reader(&bytes)) {
        Reading::Same => Ok(()),
        Reading::Refused(_) if !strict => Ok(()),
        Reading::Refused(e) => Err(TestCaseError::fail(format!(
            "a documented layout refused: {e}\n{layout:?}\n{text}",
            layout = l,
            text = shown(&bytes)
        ))),
        Reading::Misread(d) => Err(TestCaseError::fail(format!(
            "read as another state: {d}\n{l:?}\n--- layout ---\n{}\n--- canonical ---\n{canonical}",
            shown(&bytes)
        ))),
    }
}

/// One fact of a GSD changed.
#[derive(Clone, Debug)]
enum Change {
    Count {
        player: usize,
        colour: Colour,
        by: u32,
    },
    Lv {
        player: usize,
        by: u32,
    },
    Charge {
        player: usize,
        by: i32,
    },
    Home {
        player: usize,
        station: String,
    },
    Name {
        player: usize,
        name: String,
    },
    Wild {
        station: String,
    },
    Stack {
        station: String,
    },
    Digit {
        k: usize,
        d: u8,
    },
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (any::<usize>(), gsd_gen::colour(), 1u32..12)
            .prop_map(|(player, colour, by)| Change::Count { player, colour, by }),
        1 => (any::<usize>(), 1u32..3).prop_map(|(player, by)| Change::Lv { player, by }),
        1 => (any::<usize>(), prop_oneof![-20i32..0, 1i32..20])
            .prop_map(|(player, by)| Change::Charge { player, by }),
        2 => (any::<usize>(), gsd_gen::station())
            .prop_map(|(player, station)| Change::Home { player, station }),
        2 => (any::<usize>(), select(NAMES.to_vec()))
            .prop_map(|(player, name)| Change::Name { player, name: name.into() }),
        1 => gsd_gen::station().prop_map(|station| Change::Wild { station }),
        1 => gsd_gen::station().prop_map(|station| Change::Stack { station }),
        3 => (any::<usize>(), 0u8..10).prop_map(|(k, d)| Change::Digit { k, d }),
    ]
}

/// `g` with one fact changed, and the layout to write it with; `None`
/// when the change changes nothing.
fn changed(g: &Gsd, l: &Layout, c: &Change) -> Option<(Gsd, Layout)> {
    let mut g2 = g.clone();
    let mut l2 = l.clone();
    let n = g.players.len();
    match c {
        Change::Count { player, colour, by } => {
            let p = &mut g2.players[player % n];
            p.tokens.set(*colour, p.tokens.get(*colour) + by);
        }
        Change::Lv { player, by } => g2.players[player % n].lv += by,
        Change::Charge { player, by } => g2.players[player % n].charge += by,
        Change::Home { player, station } => g2.players[player % n].home = Some(station.clone()),
        Change::Name { player, name } => {
            if g.players.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
                return None;
            }
            let old = g.players[player % n].name.clone();
            g2.players[player % n].name = name.clone();
            for p in &mut g2.plays {
                if p.player == old {
                    p.player = name.clone();
                }
            }
            for r in &mut g2.luggage {
                if r.player == old {
                    r.player = name.clone();
                }
            }
            for d in &mut g2.disruptions {
                if let Disruption::TokenCascade { focus, .. } = d {
                    if *focus == old {
                        focus.clone_from(name);
                    }
                }
            }
        }
        Change::Wild { station } => match g2.wild.first_mut() {
            Some(w) => *w = station.clone(),
            None => g2.wild.push(station.clone()),
        },
        Change::Stack { station } => {
            let s = g2.stacks.first_mut()?;
            s.quadrants = map()
                .station(map().lookup(station).unwrap())
                .quadrants
                .clone();
            s.station = station.clone();
        }
        Change::Digit { k, d } => l2.digit = Some((*k, *d)),
    }
    (g2 != *g || l2.digit.is_some()).then_some((g2, l2))
}

/// The negative property: `g` laid out by `l` with one fact changed never
/// reads as `g`.
fn check_changed(
    reader: &dyn Fn(&[u8]) -> Result<Gsd, ParseError>,
    g: &Gsd,
    l: &Layout,
    c: &Change,
) -> Result<(), TestCaseError> {
    let Some((g2, l2)) = changed(g, l, c) else {
        return Ok(());
    };
    let bytes = layout_bytes(&g2, &l2);
    if let Ok(read) = reader(&bytes) {
        prop_assert!(
            read != *g,
            "one fact changed ({:?}) and read as the original\n{:?}\n{}",
            c,
            l,
            shown(&bytes)
        );
    }
    Ok(())
}

/// The seeds of the failures found, replayed first (committed).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/gsd_layouts_prop.txt",
        ))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(cases(512)))]

    /// Any layout reads as its source or is refused, never as another state.
    #[test]
    fn layouts_read_as_their_source_or_are_refused(g in gsd(), l in layout_of(false)) {
        check_layout(&read_bytes, &g, &l, false)?;
    }

    /// The layouts grammar/gsd.ebnf documents as accepted read as their
    /// source, every one: a property whose layouts were all refused would
    /// prove nothing.
    #[test]
    fn documented_layouts_read_as_their_source(g in gsd(), l in layout_of(true)) {
        check_layout(&read_bytes, &g, &l, true)?;
    }

    /// A layout with one fact changed never reads as the original.
    #[test]
    fn one_fact_changed_never_reads_as_the_original(
        g in gsd(),
        l in layout_of(false),
        c in change(),
    ) {
        check_changed(&read_bytes, &g, &l, &c)?;
    }
}

// ---- The properties catch a wrong reader ------------------------------------

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    })
}

/// A reader that reads every text right but one count of the first player.
fn off_by_one(bytes: &[u8]) -> Result<Gsd, ParseError> {
    let mut g = read_bytes(bytes)?;
    let gold = g.players[0].tokens.get(Colour::Gold);
    g.players[0].tokens.set(Colour::Gold, gold + 1);
    Ok(g)
}

/// A reader that takes the colours in the canonical order whatever the
/// heading says: it reads a table whose colours were reordered as
/// another state.
fn colours_by_position(bytes: &[u8]) -> Result<Gsd, ParseError> {
    let text = mornbot::text::decode(bytes).text;
    let mut g = parse_gsd(&text, map())?;
    let heading = text
        .lines()
        .find(|l| {
            let l = l.to_lowercase();
            (l.contains("player") || l.contains("name")) && l.contains("bu")
        })
        .unwrap_or("")
        .to_string();
    let order: Vec<Colour> = {
        let mut found: Vec<(usize, Colour)> = Colour::ALL
            .into_iter()
            .filter_map(|c| {
                let h = heading.to_lowercase();
                h.find(&format!(" {}", c.code().to_lowercase()))
                    .or_else(|| h.find(&format!("|{}", c.code().to_lowercase())))
                    .map(|i| (i, c))
            })
            .collect();
        found.sort();
        found.into_iter().map(|(_, c)| c).collect()
    };
    if order.len() == 7 {
        for p in &mut g.players {
            let counts: Vec<u32> = order.iter().map(|c| p.tokens.get(*c)).collect();
            for (c, n) in Colour::ALL.into_iter().zip(counts) {
                p.tokens.set(c, n);
            }
        }
    }
    Ok(g)
}

#[test]
fn the_reading_comparison_tells_same_refused_and_misread() {
    let g = parse_gsd(
        "| Player | LV | Ch | Bk Bu Br Go Gr Re Si |\n| Rushton | 1 | 2 | 1 2 3 4 5 6 7 |\n",
        map(),
    )
    .unwrap();
    assert_eq!(reading(&g, Ok(g.clone())), Reading::Same);
    let mut other = g.clone();
    other.players[0].lv = 2;
    assert!(matches!(reading(&g, Ok(other)), Reading::Misread(d) if d.starts_with("players")));
    let e = parse_gsd("nothing", map()).unwrap_err();
    assert!(matches!(reading(&g, Err(e)), Reading::Refused(_)));
}

#[test]
fn the_layout_property_catches_a_wrong_reader() {
    let strategy = (gsd(), layout_of(false));
    let result = runner().run(&strategy, |(g, l)| check_layout(&off_by_one, &g, &l, false));
    assert!(result.is_err(), "a reader off by one token passed");
    // Subtler: a reader that takes the colours by position is caught by
    // the layouts that reorder them.
    let result = runner().run(&strategy, |(g, l)| {
        check_layout(&colours_by_position, &g, &l, false)
    });
    assert!(
        result.is_err(),
        "a reader taking colours by position passed"
    );
    // The right reader passes the same cases.
    let result = runner().run(&strategy, |(g, l)| check_layout(&read_bytes, &g, &l, false));
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn the_negative_property_catches_a_reader_that_ignores_a_change() {
    // A reader that reads the original whatever the text says: every
    // change is read as the original.
    let strategy = (gsd(), layout_of(false), change());
    let result = runner().run(&strategy, |(g, l, c)| {
        let source = g.clone();
        let ignore = move |_: &[u8]| -> Result<Gsd, ParseError> { Ok(source.clone()) };
        check_changed(&ignore, &g, &l, &c)
    });
    assert!(result.is_err(), "a reader ignoring the text passed");
}

/// The layouts write what they say: a few checked by eye, kept here.
#[test]
fn layouts_write_what_they_say() {
    let text = "Game MN7\n\
        +---------+--------+----+----+----------------------+\n\
        | Player  | Home   | LV | Ch | Bk Bu Br Go Gr Re Si |\n\
        +---------+--------+----+----+----------------------+\n\
        | Zoë Lyons | Balham |  3 | -4 |  2  0  7  0  4  0  0 |\n\
        |*Cryer   |        |  1 | 17 |  2  8  6  3  1  4  1 |\n\
        +---------+--------+----+----+----------------------+\n\
        \n\
        Wild Stations: Amersham, Ealing Broadway\n\
        Game Time: Monday 0900\n\
        \n\
        Zoë Lyons : [LV+1] Euston (VC) {a comment long enough to be wrapped by any client at seventy-two}\n";
    let g = parse_gsd(text, map()).unwrap();
    let l = Layout {
        table: TableLayout {
            form: TableForm::Bordered(Border::Heavy),
            cols: vec![Col::Colours, Col::Ch, Col::Player, Col::Lv, Col::Home],
            colours: vec![
                Colour::Silver,
                Colour::Black,
                Colour::Blue,
                Colour::Bronze,
                Colour::Gold,
                Colour::Green,
                Colour::Red,
            ],
            words: 1,
            case: Case::Upper,
            home_dash: true,
            omit_empty_home: false,
            charge: ChargeStyle::UnicodeMinus,
            tokens_title: true,
        },
        boxes: vec![BoxLayout {
            form: BoxForm::Marked { style: 0 },
            title: 0,
            case: Case::AsIs,
        }],
        plays: PlaysLayout {
            marker: 3,
            heading: 3,
            wrap: Some((72, 2, true)),
            blank_between: false,
        },
        text: TextLayout {
            tight: false,
            game: 2,
            prose_before: false,
            after: 0,
            quote: 1,
            crlf: false,
            bom: false,
            zwsp: 0,
            nbsp: 0,
            narrow: false,
            nfd: false,
            cp1252: false,
        },
        digit: None,
    };
    let bytes = layout_bytes(&g, &l);
    let shown = shown(&bytes);
    assert!(shown.starts_with("> ## Game MN7\n>\n> ┏━"), "{shown}");
    assert!(shown.contains("TOKENS ┃"), "{shown}");
    assert!(shown.contains("SI BK BU BR GO GR RE"), "{shown}");
    assert!(shown.contains("\u{2212}4 ┃ Zoë Lyons"), "{shown}");
    assert!(
        shown.contains("> ### Game Time\n>\n> Monday 0900\n"),
        "{shown}"
    );
    assert!(
        shown.contains("> ### Plays\n>\n> 1. Zoë Lyons : [LV+1]"),
        "{shown}"
    );
    assert!(
        shown.contains("\n>   {a comment") || shown.contains("\n>   "),
        "{shown}"
    );
    assert!(
        shown
            .lines()
            .filter(|l| l.contains("Euston") || l.starts_with(">   "))
            .all(|l| l.chars().count() <= 74),
        "{shown}"
    );
    assert_eq!(read_bytes(&bytes).unwrap(), g, "{shown}");
    // One digit of the table changed: never the original.
    let l2 = Layout {
        digit: Some((3, 9)),
        ..l
    };
    let bytes = layout_bytes(&g, &l2);
    assert_ne!(read_bytes(&bytes).ok(), Some(g), "{}", self::shown(&bytes));
}

/// The kinds of layout one case draws, for counting.
fn kinds(l: &Layout) -> Vec<String> {
    let t = &l.text;
    let mut k = vec![
        format!("table {:?}", l.table.form),
        format!("plays marker {}", l.plays.marker),
        format!("plays heading {}", l.plays.heading),
        format!("plays wrapped {}", l.plays.wrap.is_some()),
        format!("quoted {}", t.quote > 0),
        format!("crlf {}", t.crlf),
        format!("bom {}", t.bom),
        format!("zero-width spaces {}", t.zwsp > 0),
        format!("no-break spaces {}", t.nbsp > 0 && !t.narrow),
        format!("narrow no-break spaces {}", t.nbsp > 0 && t.narrow),
        format!("nfd {}", t.nfd),
        format!("windows-1252 {}", t.cp1252),
        format!("tight {}", t.tight),
    ];
    for b in &l.boxes {
        k.push(match b.form {
            BoxForm::Bordered { border, blank } => format!("box {border:?} blank {}", blank > 0),
            other => format!("box {:?}", std::mem::discriminant(&other)),
        });
    }
    k.sort();
    k.dedup();
    k
}

/// Cases drawn by a fixed seed, read: how many of each kind, how many
/// refused, and each refusal's message.
fn survey(
    documented: bool,
    n: u32,
) -> (std::collections::BTreeMap<String, (u32, u32)>, Vec<String>) {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: n,
            failure_persistence: None,
            ..Config::default()
        },
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let counts = std::cell::RefCell::new(std::collections::BTreeMap::new());
    let why = std::cell::RefCell::new(Vec::new());
    runner
        .run(&(gsd(), layout_of(documented)), |(g, l)| {
            let bytes = layout_bytes(&g, &l);
            let r = reading(&g, read_bytes(&bytes));
            if let Reading::Misread(d) = &r {
                return Err(TestCaseError::fail(d.clone()));
            }
            let refused = matches!(r, Reading::Refused(_));
            if let Reading::Refused(e) = r {
                why.borrow_mut()
                    .push(format!("{e}\n{l:?}\n{}", shown(&bytes)));
            }
            for k in kinds(&l).into_iter().chain(["all".to_string()]) {
                let mut c = counts.borrow_mut();
                let e: &mut (u32, u32) = c.entry(k).or_default();
                e.0 += 1;
                e.1 += u32::from(refused);
            }
            Ok(())
        })
        .unwrap();
    (counts.into_inner(), why.into_inner())
}

/// The layouts are what the property claims: every form of table and box,
/// every border, list markers, wraps, quoting, line ends, encodings and
/// invisible characters are drawn, and nearly all of them are read (a
/// property whose layouts were refused would prove nothing).
#[test]
fn every_kind_of_layout_is_drawn_and_nearly_all_are_read() {
    let (counts, why) = survey(false, 512);
    let seen = |k: &str| counts.get(k).map_or(0, |c| c.0);
    for b in ["Ascii", "Light", "Heavy", "Double", "Rounded"] {
        assert!(
            seen(&format!("table Bordered({b})")) > 0,
            "{b}: {counts:#?}"
        );
        assert!(
            seen(&format!("box {b} blank false")) > 0,
            "{b}: {counts:#?}"
        );
        assert!(seen(&format!("box {b} blank true")) > 0, "{b}: {counts:#?}");
    }
    for k in [
        "table Grid",
        "table Tsv",
        "table Spaced { rule: false }",
        "table Spaced { rule: true }",
        "table Markdown { outer: false, colons: true }",
        "table Markdown { outer: true, colons: false }",
        "plays marker 1",
        "plays marker 2",
        "plays marker 3",
        "plays wrapped true",
        "quoted true",
        "crlf true",
        "bom true",
        "zero-width spaces true",
        "no-break spaces true",
        "narrow no-break spaces true",
        "nfd true",
        "windows-1252 true",
        "tight true",
    ] {
        assert!(seen(k) > 0, "{k}: {counts:#?}");
    }
    assert!(
        counts.keys().filter(|k| k.starts_with("box ")).count() >= 13,
        "{counts:#?}"
    );
    let (n, refused) = counts["all"];
    assert!(
        refused * 10 <= n,
        "{refused} of {n} refused:\n{}",
        why.join("\n\n")
    );
}

/// Why layouts are refused, with an example of each (run by hand:
/// `cargo test --test gsd_layouts_prop -- --ignored --nocapture`).
#[test]
#[ignore]
fn refusals_by_kind() {
    for documented in [true, false] {
        let (counts, why) = survey(documented, cases(2000));
        println!("documented layouts: {documented}");
        for (k, (n, r)) in &counts {
            println!("  {k:<50} {n:>5} cases, {r:>5} refused");
        }
        for w in why.iter().take(5) {
            println!("=== {w}\n");
        }
    }
}
