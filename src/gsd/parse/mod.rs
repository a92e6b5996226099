//! The GSD and play parsers: one function per production of
//! `grammar/gsd.ebnf`. Tables and boxes are read line by line (their
//! structure is lines and `|` cells): the Token Table in `table`, the boxes
//! in every layout in `boxes`, the Token Stacks in `stacks`; the words
//! inside them (`words`, `disruption`, `possession`) and the Plays (`plays`,
//! `moves`) are read with nom. This file holds the entry points and what
//! every part shares: the joined text of a Play and the document cursor.

use nom::IResult;

use super::error::ParseError;
use super::layout::{own_gsd, prepare, Line};
use super::model::*;
use crate::map::{LineCode, Map};

mod boxes;
mod columns;
mod disruption;
mod moves;
mod plays;
mod possession;
mod stacks;
mod table;
mod words;

pub(crate) use columns::is_heading as is_table_heading;
pub(crate) use disruption::disruption;
use moves::move_;
use plays::{play, play_head, unlist};
pub(crate) use possession::{item, possession};
use words::{
    at_most, check_name, line_code, parse_charge, player_name, split_top_level, strip_keyword,
    via_list,
};
pub(crate) use words::{
    game_time, place, place_quiet, read_line_code, read_target, station, station_quiet,
    target_text, token_codes,
};
pub use words::{MAX_COUNT, MAX_LV, MAX_VIA};

type Res<'a, T> = IResult<&'a str, T>;

/// A station-reading failure: message and suggestions.
pub(crate) struct StationErr(pub String, pub Vec<String>);

/// Parses a whole GSD, cut out of whatever mail text surrounds it.
pub fn parse_gsd(text: &str, map: &Map) -> Result<Gsd, ParseError> {
    let lines = own_gsd(prepare(text));
    let mut p = Doc {
        lines: &lines,
        at: 0,
        map,
    };
    p.gsd()
}

/// Where a GSD stands among a text's lines (a mail's, with the lines that
/// are not the sender's own blanked): the index of its first line (its
/// game line, else the Token Table's first line), of the table, and the
/// game it names. The mail classifier cuts the GSD out of a mail with it,
/// so that it finds a table, and reads a game line, exactly where the
/// parser will.
pub fn locate(lines: &[&str]) -> Option<Located> {
    let prepared: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| Line {
            no: i + 1,
            indent: 0,
            text: super::layout::clean(l),
            soft: false,
        })
        .collect();
    let doc = Doc {
        lines: &prepared,
        at: 0,
        map: Map::london_1999(),
    };
    let heading =
        (0..prepared.len()).find(|&i| is_table_heading(&prepared[i].text) && doc.has_rows(i))?;
    let table = table::border_above(&prepared, heading);
    let game = table::game_line_above(&prepared, table);
    Some(Located {
        first: game.as_ref().map_or(table, |(i, _)| *i),
        table,
        game: game.map(|(_, id)| id),
    })
}

/// A GSD found among a text's lines ([`locate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Index of the GSD's first line: its game line, else its table's.
    pub first: usize,
    /// Index of the Token Table's first line.
    pub table: usize,
    /// The game the GSD names.
    pub game: Option<String>,
}

/// Parses one Play line (`Rushton : [LV+1] Euston (VC via: CN,NT)`), as it
/// would stand in a GSD. Line numbers in errors count from 1.
pub fn parse_play(text: &str, map: &Map) -> Result<Play, ParseError> {
    let lines = prepare(text);
    let Some(first) = lines.iter().position(|l| !l.text.trim().is_empty()) else {
        return Err(ParseError::new(
            1,
            1,
            "a Play such as `Rushton : Euston (VC)`",
            "an empty line",
        ));
    };
    let src = Src::join(&lines[first..]);
    play(&src, map)
}

/// Text joined from several lines, remembering where each piece came from.
struct Src {
    text: String,
    /// (offset in `text`, line number, column of that offset)
    pieces: Vec<(usize, usize, usize)>,
}

impl Src {
    fn join(lines: &[Line]) -> Src {
        let mut text = String::new();
        let mut pieces = Vec::new();
        for l in lines {
            if !text.is_empty() {
                text.push(' ');
            }
            let lead = l.text.len() - l.text.trim_start().len();
            pieces.push((text.len(), l.no, l.indent + lead + 1));
            text.push_str(l.text.trim_start());
        }
        Src { text, pieces }
    }

    /// Line and column of a byte offset into `text`.
    fn pos(&self, offset: usize) -> (usize, usize) {
        let idx = self
            .pieces
            .partition_point(|p| p.0 <= offset)
            .saturating_sub(1);
        let (start, line, col) = self.pieces.get(idx).copied().unwrap_or((0, 1, 1));
        let chars = self
            .text
            .get(start..offset.min(self.text.len()))
            .map(|s| s.chars().count())
            .unwrap_or(0);
        (line, col + chars)
    }

    fn error(&self, offset: usize, expected: impl Into<String>, found_from: usize) -> ParseError {
        let (line, col) = self.pos(offset);
        ParseError::new(
            line,
            col,
            expected,
            snippet(&self.text[found_from.min(self.text.len())..]),
        )
    }

    /// An error at `offset` quoting one token of the text (a Move, an
    /// Action) rather than the rest of the line.
    fn error_on(&self, offset: usize, expected: impl Into<String>, token: &str) -> ParseError {
        let (line, col) = self.pos(offset);
        ParseError::new(line, col, expected, snippet(token))
    }
}

/// The text after a position, quoted for an error message.
fn snippet(s: &str) -> String {
    super::error::quote(s)
}

struct Doc<'a> {
    lines: &'a [Line],
    at: usize,
    map: &'a Map,
}

/// border = "+" , { "-" | "+" }; also (quirk-rule-row) a rule drawn with
/// pipes, `|-----|-----|`, as under a heading row.
fn is_border(s: &str) -> bool {
    let t = s.trim();
    let rule = |c: char| matches!(c, '+' | '-' | ' ' | '=');
    (t.starts_with('+') && t.len() > 2 && t.chars().all(rule))
        || (t.starts_with('|')
            && t.contains("---")
            && t.chars().all(|c| rule(c) || c == '|' || c == ':'))
}

fn cells(row: &str) -> Vec<&str> {
    let t = row.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(str::trim).collect()
}

impl<'a> Doc<'a> {
    fn line(&self) -> Option<&'a Line> {
        self.lines.get(self.at)
    }

    fn err_at(
        &self,
        line: &Line,
        col_in_text: usize,
        expected: impl Into<String>,
        found: &str,
    ) -> ParseError {
        ParseError::new(
            line.no,
            line.indent + col_in_text + 1,
            expected,
            snippet(found),
        )
    }

    /// Column (0-based, in chars) of `needle` within `line.text`.
    fn col_of(line: &Line, needle: &str) -> usize {
        line.text
            .find(needle)
            .map(|b| line.text[..b].chars().count())
            .unwrap_or(0)
    }
}
