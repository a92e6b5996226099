//! The GSD and play parsers: one function per production of
//! `grammar/gsd.ebnf`. Tables and boxes are read line by line (their
//! structure is lines and `|` cells): the Token Table here, the boxes in
//! every layout in `boxes`, the Token Stacks in `stacks`; the words inside
//! them and the Plays are read with nom.

use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{char, digit1, multispace0, space0};
use nom::combinator::{map_res, opt, recognize};
use nom::multi::separated_list1;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::action::parse_action;
use super::error::ParseError;
use super::goods::Good;
use super::layout::{prepare, Line};
use super::model::*;
use crate::map::{LineCode, Map};

mod boxes;
mod stacks;

type Res<'a, T> = IResult<&'a str, T>;

/// A station-reading failure: message and suggestions.
pub(crate) struct StationErr(pub String, pub Vec<String>);

/// Parses a whole GSD, cut out of whatever mail text surrounds it.
pub fn parse_gsd(text: &str, map: &Map) -> Result<Gsd, ParseError> {
    let lines = prepare(text);
    let mut p = Doc {
        lines: &lines,
        at: 0,
        map,
    };
    p.gsd()
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

    /// gsd = [ game-line ] , token-table , { box } , plays
    fn gsd(&mut self) -> Result<Gsd, ParseError> {
        let start = self.find_table()?;
        let mut gsd = Gsd {
            game: self.game_line(start),
            ..Gsd::default()
        };
        self.at = start;
        gsd.players = self.token_table()?;
        self.boxes(&mut gsd)?;
        gsd.plays = self.plays(&gsd.players)?;
        Ok(gsd)
    }

    /// Finds the Token Table's top border: a border followed by a heading row.
    fn find_table(&self) -> Result<usize, ParseError> {
        for (i, l) in self.lines.iter().enumerate() {
            if !is_border(&l.text) {
                continue;
            }
            let next = self.lines[i + 1..]
                .iter()
                .find(|n| !n.text.trim().is_empty());
            if let Some(n) = next {
                let lower = n.text.to_lowercase();
                if n.text.trim_start().starts_with('|') && lower.contains("player") {
                    return Ok(i);
                }
            }
        }
        let first = self.lines.iter().find(|l| !l.text.trim().is_empty());
        let (no, indent, found) = first
            .map(|l| (l.no, l.indent, l.text.as_str()))
            .unwrap_or((1, 0, ""));
        Err(ParseError::new(
            no,
            indent + 1,
            "the Token Table (Rule 1.2.0): a border `+----+` then `| Player | Home | LV | Ch | Tokens |`",
            snippet(found),
        ))
    }

    /// game-line = "Game" , [ ":" ] , game-id   (the line before the table)
    fn game_line(&self, table: usize) -> Option<String> {
        let prev = self.lines[..table]
            .iter()
            .rev()
            .find(|l| !l.text.trim().is_empty())?;
        let rest = strip_keyword(prev.text.trim(), "Game")?;
        let id = rest.trim_start().trim_start_matches(':').trim();
        (!id.is_empty()
            && id.len() <= 16
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .then(|| id.to_string())
    }

    /// Collects table rows until a border, joining wrapped rows.
    fn rows(&mut self) -> Vec<(&'a Line, String)> {
        let mut rows: Vec<(&'a Line, String)> = Vec::new();
        while let Some(line) = self.line() {
            let t = line.text.trim();
            if is_border(t) || t.starts_with('+') {
                break;
            }
            if t.is_empty() {
                // A blank line inside a table: the table ended without border.
                break;
            }
            if t.starts_with('|') || rows.is_empty() {
                rows.push((line, t.to_string()));
            } else if let Some(last) = rows.last_mut() {
                // A row re-wrapped by a mail client continues here.
                last.1.push(' ');
                last.1.push_str(t);
            }
            self.at += 1;
        }
        rows
    }

    fn skip_border(&mut self) -> bool {
        if self.line().is_some_and(|l| is_border(&l.text)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// token-table = border , heading , { heading | blank-row } , border , { player-row } , border
    fn token_table(&mut self) -> Result<Vec<PlayerRow>, ParseError> {
        self.skip_border();
        let mut order: Vec<Colour> = Colour::ALL.to_vec();
        for (line, row) in self.rows() {
            let codes: Vec<Option<Colour>> = row
                .split(|c: char| c == '|' || c.is_whitespace())
                .filter(|w| w.len() == 2)
                .map(Colour::parse)
                .collect();
            if codes.len() == 7 && codes.iter().all(Option::is_some) {
                order = codes.into_iter().flatten().collect();
                let mut unique = order.clone();
                unique.sort();
                unique.dedup();
                if unique.len() != 7 {
                    return Err(self.err_at(
                        line,
                        0,
                        "each token colour once in the heading",
                        &row,
                    ));
                }
            }
        }
        if !self.skip_border() {
            // At the end of the text, point just past its last line.
            let (no, indent) = self
                .line()
                .map(|l| (l.no, l.indent))
                .unwrap_or_else(|| (self.lines.last().map_or(1, |l| l.no + 1), 0));
            let found = self
                .line()
                .map_or("the end of the text".to_string(), |l| snippet(&l.text));
            return Err(ParseError::new(
                no,
                indent + 1,
                "the border `+----+` under the Token Table heading",
                found,
            ));
        }
        let mut players: Vec<PlayerRow> = Vec::new();
        for (line, row) in self.rows() {
            if cells(&row).iter().all(|c| c.is_empty()) {
                continue;
            }
            let p = self.player_row(line, &row, &order)?;
            if players.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
                return Err(self.err_at(
                    line,
                    Self::col_of(line, &p.name),
                    "each player once in the Token Table",
                    &p.name,
                ));
            }
            players.push(p);
        }
        self.skip_border();
        Ok(players)
    }

    /// player-row = "|" , [ "*" ] , player , "|" , [ station ] , "|" , lv , "|" , charge , "|" , 7 * count
    fn player_row(
        &self,
        line: &Line,
        row: &str,
        order: &[Colour],
    ) -> Result<PlayerRow, ParseError> {
        let c = cells(row);
        let col = |needle: &str| Self::col_of(line, needle);
        if c.len() < 5 {
            return Err(self.err_at(
                line,
                0,
                "a Token Table row `| Player | Home | LV | Ch | Bk Bu Br Go Gr Re Si |`",
                row,
            ));
        }
        let (active, name) = match c[0].strip_prefix('*') {
            Some(n) => (false, n.trim()),
            None => (true, c[0]),
        };
        check_name(name).map_err(|e| self.err_at(line, col(c[0]), e, c[0]))?;
        let home =
            match c[1] {
                "" | "-" => None,
                h if h.eq_ignore_ascii_case("none") => None,
                h => Some(station(h, self.map).map_err(|StationErr(m, s)| {
                    self.err_at(line, col(h), m, h).with_suggestions(s)
                })?),
            };
        let lv = at_most(c[2], MAX_LV).ok_or_else(|| {
            self.err_at(
                line,
                col(c[2]),
                "the LV, a whole number from 0 to 999 (Rule 1.6.1)",
                c[2],
            )
        })?;
        let charge = parse_charge(c[3]).ok_or_else(|| {
            self.err_at(
                line,
                col(c[3]),
                "the Charge, a signed whole number from -999 to 999 (Rule 1.19.2)",
                c[3],
            )
        })?;
        let counts: Vec<&str> = c[4..].iter().flat_map(|s| s.split_whitespace()).collect();
        if counts.len() != 7 {
            let rest = c[4..].join(" | ");
            return Err(self.err_at(
                line,
                col(c[4]),
                format!(
                    "7 token counts (Bk Bu Br Go Gr Re Si) where there are {}",
                    counts.len()
                ),
                &rest,
            ));
        }
        let mut tokens = Tokens::default();
        for (colour, n) in order.iter().zip(&counts) {
            let v = at_most(n, MAX_COUNT).ok_or_else(|| {
                self.err_at(
                    line,
                    col(n),
                    format!("a count of {} tokens, from 0 to 9999", colour.name()),
                    n,
                )
            })?;
            tokens.set(*colour, v);
        }
        Ok(PlayerRow {
            name: name.to_string(),
            active,
            home,
            lv,
            charge,
            tokens,
        })
    }

    /// plays = { play }
    ///
    /// A Play continues on the next line when its brackets are still open,
    /// when the line was soft-broken (format=flowed) and the next line does
    /// not start a known player's Play, or when the next line starts with
    /// `[` or `{`. Comment lines before the first Play belong to it. The
    /// Plays end at the first other line; a known player's Play after that
    /// is an error, never silently dropped.
    fn plays(&mut self, players: &[PlayerRow]) -> Result<Vec<Play>, ParseError> {
        let mut plays = Vec::new();
        let mut group: Vec<Line> = Vec::new();
        let mut leading: Vec<Line> = Vec::new();
        let mut after_blank = false;
        let known = |name: &str| {
            players.iter().any(|p| p.name.eq_ignore_ascii_case(name))
                || name.eq_ignore_ascii_case("Drone")
        };
        let mut stop: Option<usize> = None;
        while let Some(line) = self.line() {
            let t = line.text.trim();
            if t.is_empty() {
                after_blank = true;
                self.at += 1;
                continue;
            }
            // A box's title starts no Play (a box after the Plays is refused below).
            let head = play_head(t).filter(|n| known(n) || !self.names_a_box(line));
            let open = !group.is_empty() && unbalanced(group.iter().map(|l| l.text.as_str()));
            let soft = group.last().is_some_and(|l: &Line| l.soft) && !head.is_some_and(known);
            let bracketed = t.starts_with('[') || t.starts_with('{');
            if !group.is_empty() && !after_blank && (open || soft) {
                group.push(line.clone());
            } else if head.is_some_and(|name| {
                !after_blank || known(name) || (group.is_empty() && plays.is_empty())
            }) {
                if !group.is_empty() {
                    plays.push(self.play_with(&group, &mut leading)?);
                    group.clear();
                }
                group.push(line.clone());
            } else if bracketed && !group.is_empty() {
                group.push(line.clone());
            } else if t.starts_with('{') && group.is_empty() && plays.is_empty() {
                leading.push(line.clone());
            } else {
                stop = Some(self.at);
                break;
            }
            after_blank = false;
            self.at += 1;
        }
        if !group.is_empty() {
            plays.push(self.play_with(&group, &mut leading)?);
        }
        if let Some(at) = stop {
            // Prose after the Plays ends the GSD, unless a Play follows it.
            if let Some(later) = self.lines[at..]
                .iter()
                .find(|l| play_head(l.text.trim()).is_some_and(known))
            {
                let here = &self.lines[at];
                return Err(self.err_at(
                    here,
                    0,
                    format!("a Play `Player : Move` (line {} is a Play; every Play must follow the last without prose between)", later.no),
                    &here.text,
                ));
            }
            // A box after the Plays would be lost: refused, never dropped.
            if let Some(late) = self.lines[at..].iter().find(|l| self.names_a_box(l)) {
                return Err(self.err_at(
                    late,
                    Self::col_of(late, late.text.trim()),
                    "the boxes between the Token Table and the Plays (Rule 1.2.0), not after the Plays",
                    &late.text,
                ));
            }
        }
        Ok(plays)
    }

    /// Parses one Play's lines, giving it any comment lines that came first.
    fn play_with(&self, group: &[Line], leading: &mut Vec<Line>) -> Result<Play, ParseError> {
        let mut p = play(&Src::join(group), self.map)?;
        if !leading.is_empty() {
            let src = Src::join(leading);
            let mut comments = Vec::new();
            let mut rest = src.text.as_str();
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    let off = src.text.len() - rest.len() + open;
                    return Err(src.error(off, "`}` closing the comment", off));
                };
                let off = src.text.len() - rest.len() + open + 1;
                comments.push(PlayItem::Comment(comment(
                    &src,
                    off,
                    &rest[open + 1..open + close],
                    self.map,
                )?));
                rest = &rest[open + close + 1..];
            }
            p.before.splice(0..0, comments);
            leading.clear();
        }
        Ok(p)
    }
}

/// Whether brackets, parentheses or braces are left open across the lines.
fn unbalanced<'l>(lines: impl Iterator<Item = &'l str>) -> bool {
    let mut depth = [0i32; 3];
    for c in lines.flat_map(str::chars) {
        match c {
            '(' => depth[0] += 1,
            ')' => depth[0] -= 1,
            '[' => depth[1] += 1,
            ']' => depth[1] -= 1,
            '{' => depth[2] += 1,
            '}' => depth[2] -= 1,
            _ => {}
        }
    }
    depth.iter().any(|d| *d > 0)
}

/// The player name of a line that starts a Play (`Name : ...`).
fn play_head(t: &str) -> Option<&str> {
    let (name, _) = t.split_once(':')?;
    let name = name.trim();
    (check_name(name).is_ok() && name.split_whitespace().count() <= 4).then_some(name)
}

/// Player names: no `: | [ ] { } *`, not empty, at most 40 characters.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a player's name".into());
    }
    if name.chars().count() > 40
        || name.contains([':', '|', '[', ']', '{', '}', '*', ',', '(', ')'])
        || name.chars().any(char::is_control)
    {
        return Err("a player's name (letters, digits, spaces, - ' .)".into());
    }
    Ok(())
}

fn strip_keyword<'t>(t: &'t str, kw: &str) -> Option<&'t str> {
    let head = t.get(..kw.len())?;
    if !head.eq_ignore_ascii_case(kw) {
        return None;
    }
    let rest = &t[kw.len()..];
    (rest.is_empty() || rest.starts_with([' ', ':'])).then_some(rest)
}

/// Splits at `sep` outside parentheses.
fn split_top_level(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth <= 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn parse_charge(s: &str) -> Option<i32> {
    let t = s.trim().trim_end_matches('%').trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    t.parse().ok().filter(|c: &i32| (-999..=999).contains(c))
}

/// A whole number from 0 to `max`.
fn at_most(s: &str, max: u32) -> Option<u32> {
    s.parse().ok().filter(|n| *n <= max)
}

/// The largest LV a GSD may state: far beyond any reachable one, and small
/// enough that no arithmetic on it overflows.
pub const MAX_LV: u32 = 999;
/// The largest Token count a GSD may state (per colour, per player).
pub const MAX_COUNT: u32 = 9999;
/// The most Line Codes a `via:` list may hold: each Move Portion covers at
/// least one station, and no route is searched beyond 40.
pub const MAX_VIA: usize = 40;

/// `BrSiGo` -> colours; spaces and commas between codes are allowed.
pub(crate) fn token_codes(s: &str) -> Option<Vec<Colour>> {
    let compact: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    if compact.len() % 2 != 0 || !compact.is_ascii() {
        return None;
    }
    (0..compact.len())
        .step_by(2)
        .map(|i| Colour::parse(&compact[i..i + 2]))
        .collect()
}

/// Resolves a station name to its canonical spelling (Ghost Stations too).
pub(crate) fn station(name: &str, map: &Map) -> Result<String, StationErr> {
    place(name, map).map(|(n, _)| n)
}

/// Resolves a station name to its canonical spelling and what it is.
pub(crate) fn place(name: &str, map: &Map) -> Result<(String, Place), StationErr> {
    let name = name.trim();
    if name.is_empty() {
        return Err(StationErr("a station name".into(), vec![]));
    }
    place_quiet(name, map).ok_or_else(|| {
        StationErr(
            "a station of the 1999 map".to_string(),
            map.suggest(name, 5),
        )
    })
}

/// Resolves a station name without computing suggestions: for parsers
/// trying alternatives.
pub(crate) fn station_quiet(name: &str, map: &Map) -> Option<String> {
    place_quiet(name, map).map(|(n, _)| n)
}

/// [`place`] without suggestions.
pub(crate) fn place_quiet(name: &str, map: &Map) -> Option<(String, Place)> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    match map.find(name) {
        Some(id) => Some((map.station(id).name.clone(), Place::Station(id))),
        None => map
            .find_ghost(name)
            .map(|g| (map.ghost(g).to_string(), Place::Ghost(g))),
    }
}

/// A Line Code, accepting `BK` for the Bakerloo.
pub(crate) fn read_line_code(s: &str) -> Option<LineCode> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("BK") {
        return Some(LineCode::BL);
    }
    LineCode::parse(t).filter(|_| t.len() == 2)
}

/// Reads `Moorgate (NT)`, `Moorgate NT` or `Moorgate`: a station with an
/// optional Line Code (Rule 1.2.0's destination form).
pub(crate) fn read_target(s: &str, map: &Map) -> Result<Target, StationErr> {
    let t = s.trim();
    let target = |(station, place): (String, Place), line| Target {
        station,
        place,
        line,
    };
    // "Station (LC)"
    if let Some(open) = t.rfind('(') {
        if t.ends_with(')') {
            let code = &t[open + 1..t.len() - 1];
            if let Some(line) = read_line_code(code) {
                return Ok(target(place(&t[..open], map)?, Some(line)));
            }
            // A Ghost Station's Line Code is GH (Rule 1.11.6): it names no line.
            if code.trim().eq_ignore_ascii_case("GH") {
                if let Some(p @ (_, Place::Ghost(_))) = place_quiet(&t[..open], map) {
                    return Ok(target(p, None));
                }
            }
        }
    }
    if let Some(p) = place_quiet(t, map) {
        return Ok(target(p, None));
    }
    // "Station LC"
    if let Some((head, code)) = t.rsplit_once(' ') {
        if let Some(line) = read_line_code(code) {
            if let Some(p) = place_quiet(head, map) {
                return Ok(target(p, Some(line)));
            }
        }
    }
    place(t, map).map(|p| target(p, None))
}

/// The canonical text of a target: `Moorgate (NT)` or `Moorgate`.
pub(crate) fn target_text(t: &Target) -> String {
    match t.line {
        Some(l) => format!("{} ({l})", t.station),
        None => t.station.clone(),
    }
}

// ---- nom productions for words ------------------------------------------

/// line-code = "BL" | "CN" | ... (Rule 1.17.4)
fn line_code(i: &str) -> Res<'_, LineCode> {
    map_res(take_while1(|c: char| c.is_ascii_alphabetic()), |w: &str| {
        read_line_code(w).ok_or(())
    })
    .parse(i)
}

/// via-list = "via" , [ ":" ] , line-code , { "," , line-code }
fn via_list(i: &str) -> Res<'_, Vec<LineCode>> {
    preceded(
        (tag_no_case("via"), space0, opt(char(':')), space0),
        separated_list1((space0, char(','), space0), line_code),
    )
    .parse(i)
}

/// hhmm = 4 digits, 0000-2359 (2400 is not a time of day)
fn hhmm(i: &str) -> Res<'_, u16> {
    map_res(recognize(digit1), |d: &str| {
        if d.len() != 4 {
            return Err(());
        }
        let (h, m): (u16, u16) = (
            d[..2].parse().map_err(|_| ())?,
            d[2..].parse().map_err(|_| ())?,
        );
        if h < 24 && m < 60 {
            Ok(h * 60 + m)
        } else {
            Err(())
        }
    })
    .parse(i)
}

/// game-time = day , hhmm , [ "*" ]; the `*` may stand anywhere in it.
pub(crate) fn game_time(t: &str) -> Option<GameTime> {
    let night_train = t.contains('*');
    let clean: String = t.chars().filter(|c| *c != '*').collect();
    let clean = clean.trim();
    let (day, rest) = clean.split_once(char::is_whitespace)?;
    let day = parse_day(day)?;
    let rest = rest.trim().replace(':', "");
    let (left, minutes) = hhmm(&rest).ok()?;
    left.trim().is_empty().then_some(GameTime {
        day,
        minutes,
        night_train,
    })
}

/// disruption = station "(" mark ")" | segment "(Peg)" | line-code ":" line-state | keyword ...
pub(crate) fn disruption(item: &str, map: &Map) -> Result<Disruption, (String, Vec<String>)> {
    let t = item.trim();
    let fold: String = t
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let keywords = [
        ("in knip", Disruption::Knip),
        ("knip", Disruption::Knip),
        ("bridges up", Disruption::BridgesUp),
        ("parks and greens", Disruption::ParksAndGreens),
        ("parks & greens", Disruption::ParksAndGreens),
        ("gapminding", Disruption::Gapminding),
        ("venbacker ladder", Disruption::VenbackerLadder),
        ("sgronk", Disruption::Sgronk),
        ("sgronk!", Disruption::Sgronk),
        ("speed craze", Disruption::SpeedCraze),
        ("charge in", Disruption::ChargeSpiral(Spiral::Inwards)),
        ("charge out", Disruption::ChargeSpiral(Spiral::Outwards)),
        ("upcoming holiday", Disruption::UpcomingHoliday(None)),
    ];
    if let Some((_, d)) = keywords.iter().find(|(k, _)| *k == fold) {
        return Ok(d.clone());
    }
    if let Some(day) = fold
        .strip_prefix("upcoming holiday:")
        .or_else(|| fold.strip_prefix("upcoming holiday :"))
    {
        return parse_day(day)
            .map(|d| Disruption::UpcomingHoliday(Some(d)))
            .ok_or_else(|| {
                (
                    "a day after `Upcoming Holiday:` (Rule 1.13.7)".to_string(),
                    vec![],
                )
            });
    }
    if let Some(colour) = fold.strip_suffix(" bock") {
        return Colour::parse(colour).map(Disruption::Bock).ok_or_else(|| {
            (
                "a token colour before `Bock` (Rule 1.8.8)".to_string(),
                vec![],
            )
        });
    }
    if let Some((lc, state)) = t.split_once(':') {
        if let Some(line) = read_line_code(lc) {
            return line_state(state.trim()).map(|state| Disruption::Line { line, state }).ok_or_else(|| {
                ("a Line State: Normal, One Way: <Direction>, Electrified, Power Failure!, Soaped or Speed Limit: <N> (Rule 1.20)".to_string(), vec![])
            });
        }
    }
    let expected = "a disruption: <Station> (Peg|Bulkhead|Maelberg|Damage|*Damage*|Defamed), <Station> to <Station> (<LC>) (Peg), <LC>: <Line State>, <Colour> Bock, Upcoming Holiday[: <Day>], In Knip, Bridges Up, Parks and Greens, Gapminding, Venbacker Ladder, Sgronk, Speed Craze, Charge In or Charge Out (Rule 1.2.2)";
    let Some(open) = t.rfind('(') else {
        return Err((expected.to_string(), vec![]));
    };
    if !t.ends_with(')') {
        return Err((expected.to_string(), vec![]));
    }
    let mark_text = t[open + 1..t.len() - 1].trim();
    let head = t[..open].trim();
    let mark = StationMark::ALL
        .iter()
        .find(|(_, w)| w.eq_ignore_ascii_case(mark_text))
        .map(|(m, _)| *m);
    let Some(mark) = mark else {
        return Err((expected.to_string(), vec![]));
    };
    // A Pegged Line Segment: "A - B (LC) (Peg)".
    if mark == StationMark::Peg {
        if let Some(open2) = head.rfind('(') {
            if head.ends_with(')') {
                if let Some(line) = read_line_code(&head[open2 + 1..head.len() - 1]) {
                    let ends = head[..open2].trim();
                    let Some((a, b)) = ends.split_once(" - ").or_else(|| split_to(ends)) else {
                        return Err((
                            "a Line Segment `<Station> to <Station> (<LC>) (Peg)` (Rule 1.11.5)"
                                .into(),
                            vec![],
                        ));
                    };
                    let (a, b) = (
                        station(a, map).map_err(|e| (e.0, e.1))?,
                        station(b, map).map_err(|e| (e.0, e.1))?,
                    );
                    return Ok(Disruption::PeggedSegment {
                        from: a,
                        to: b,
                        line,
                    });
                }
            }
        }
    }
    let st = station(head, map).map_err(|e| (e.0, e.1))?;
    Ok(Disruption::Station { station: st, mark })
}

/// Splits "A to B" at the word "to" (any case), as Rule 1.5.4 names a Line Segment.
fn split_to(s: &str) -> Option<(&str, &str)> {
    let lower = s.to_ascii_lowercase();
    let at = lower.find(" to ")?;
    Some((&s[..at], &s[at + 4..]))
}

/// line-state = "Normal" | "One Way" ":" direction | ... (Rule 1.20)
fn line_state(s: &str) -> Option<LineState> {
    let f = s.trim().to_lowercase();
    Some(match f.as_str() {
        "normal" => LineState::Normal,
        "electrified" => LineState::Electrified,
        "power failure!" | "power failure" => LineState::PowerFailure,
        "soaped" => LineState::Soaped,
        _ => {
            if let Some(d) = f
                .strip_prefix("one way")
                .map(|r| r.trim_start().trim_start_matches(':').trim())
            {
                const DIRS: [&str; 6] = ["N-S", "S-N", "E-W", "W-E", "Clockwise", "Anti-Clockwise"];
                let dir = DIRS.iter().find(|x| x.eq_ignore_ascii_case(d))?;
                LineState::OneWay(dir.to_string())
            } else if let Some(n) = f
                .strip_prefix("speed limit")
                .map(|r| r.trim_start().trim_start_matches(':').trim())
            {
                LineState::SpeedLimit(at_most(n, MAX_LV)?)
            } else {
                return None;
            }
        }
    })
}

/// possession = "*" item "*" | "(" item ")" | item   (Rules 1.4.12, 1.4.15, 1.4.30)
/// An item's error: what was expected, nearest station names, and the byte
/// offset in the item's text where the problem is.
pub(crate) type ItemErr = (String, Vec<String>, usize);

pub(crate) fn possession(text: &str, map: &Map) -> Result<Possession, ItemErr> {
    let lead = text.len() - text.trim_start().len();
    let mut t = text.trim();
    let mut start = lead;
    let mut worn = false;
    let mut nantucket = false;
    if t.len() > 2
        && t.starts_with('(')
        && t.ends_with(')')
        && split_top_level(&t[1..t.len() - 1], ',').len() == 1
    {
        nantucket = true;
        let inner = &t[1..t.len() - 1];
        start += 1 + (inner.len() - inner.trim_start().len());
        t = inner.trim();
    }
    if t.len() > 2 && t.starts_with('*') && t.ends_with('*') {
        worn = true;
        let inner = &t[1..t.len() - 1];
        start += 1 + (inner.len() - inner.trim_start().len());
        t = inner.trim();
    }
    let item = item(t, map).map_err(|(m, s, off)| (m, s, start + off))?;
    Ok(Possession {
        item,
        worn,
        nantucket,
    })
}

/// item = "Hat" "(" letter ")" | "Hats" "(" letters ")" | day "'s Paper" | station "Stub" | name { "*" }
pub(crate) fn item(t: &str, map: &Map) -> Result<Item, ItemErr> {
    let lead = t.len() - t.trim_start().len();
    let t = t.trim();
    if t.is_empty() {
        return Err(("a possession".into(), vec![], 0));
    }
    let lower = t.to_ascii_lowercase();
    for kw in ["hats", "hat"] {
        if lower.starts_with(kw) {
            let rest = t[kw.len()..].trim();
            if rest.starts_with('(') && rest.ends_with(')') {
                let open = lead + t.find('(').unwrap_or(0);
                let mut hats: Vec<Hat> = Vec::new();
                for (i, c) in rest[1..rest.len() - 1].char_indices() {
                    if c.is_whitespace() || c == ',' {
                        continue;
                    }
                    let at = open + 1 + i;
                    let h = Hat::from_letter(c).ok_or_else(|| {
                        (
                            "a Hat letter (A B C H O S T V, Rule 1.4.6)".to_string(),
                            vec![],
                            at,
                        )
                    })?;
                    if hats.contains(&h) {
                        return Err(("each Hat once".to_string(), vec![], at));
                    }
                    hats.push(h);
                }
                if hats.is_empty() {
                    return Err(("at least one Hat letter".into(), vec![], open));
                }
                hats.sort();
                return Ok(Item::Hats(hats));
            }
        }
    }
    if let Some(day) = lower
        .strip_suffix("'s paper")
        .or_else(|| lower.strip_suffix("\u{2019}s paper"))
    {
        if let Some(d) = parse_day(day) {
            return Ok(Item::Paper(d));
        }
    }
    if let Some(day) = lower.strip_suffix(" rover card") {
        if let Some(d) = parse_day(day) {
            return Ok(Item::Rover(d));
        }
    }
    // Quirk: "Euston Ticket Stub" for "Euston Stub".
    let stub_head = t
        .strip_suffix(" Ticket Stub")
        .or_else(|| {
            lower
                .strip_suffix(" ticket stub")
                .map(|_| &t[..t.len() - 12])
        })
        .or_else(|| t.strip_suffix(" Stub"))
        .or_else(|| lower.strip_suffix(" stub").map(|_| &t[..t.len() - 5]));
    if let Some(head) =
        stub_head.filter(|h| !h.trim().is_empty() && !h.eq_ignore_ascii_case("ticket"))
    {
        // A Ghost Station sells no Stub: only a station of the map.
        let found = place(head, map).and_then(|(name, p)| match p {
            Place::Station(at) => Ok(Item::Stub { name, at }),
            Place::Ghost(_) => Err(StationErr(String::new(), vec![])),
        });
        return found.map_err(|e| {
            (
                "a station of the 1999 map before `Stub` (Rule 1.7.33)".to_string(),
                e.1,
                lead,
            )
        });
    }
    let stars = t.chars().rev().take_while(|c| *c == '*').count();
    let name = t[..t.len() - stars].trim();
    let balanced = name.chars().try_fold(0i32, |d, c| match c {
        '(' => Some(d + 1),
        ')' if d == 0 => None,
        ')' => Some(d - 1),
        _ => Some(d),
    }) == Some(0);
    // A name that could read as a mark (worn, Nantucket) or split a list is
    // refused rather than guessed at.
    if name.is_empty()
        || !balanced
        || name.starts_with(['(', '*'])
        || name.contains(['|', '{', '}', '[', ']', ','])
        || name.chars().any(char::is_control)
    {
        return Err(("a possession's name".into(), vec![], lead));
    }
    named(name, stars.min(255) as u8).ok_or_else(|| {
        (
            "a Possession of Volume 1 (grammar/possessions.toml)".into(),
            Good::suggest(name),
            lead,
        )
    })
}

/// A Possession written by its name: a kind of `grammar/possessions.toml`
/// by name or alias, a Zone Pass of zone 2 to 6, a Hat by its category
/// (`Compass Hat`, `Hat (Compass)`), or an Electrical kind with its state
/// (`Vacuum Cleaner (On)`).
fn named(name: &str, stars: u8) -> Option<Item> {
    let lower = name.to_ascii_lowercase();
    let good = |good| Item::Good {
        good,
        stars,
        on: false,
    };
    if let Some(z) = lower
        .strip_prefix("zone ")
        .and_then(|r| r.strip_suffix(" pass"))
        .and_then(|z| z.trim().parse::<u8>().ok())
    {
        return match z {
            1 => Some(good(Good::Zone1Pass)),
            2..=6 => Some(Item::ZonePass(z)),
            _ => None,
        };
    }
    if let Some(g) = Good::from_name(name) {
        return Some(good(g));
    }
    if let Some(h) = hat_category(&lower) {
        return Some(Item::Hats(vec![h]));
    }
    for (suffix, on) in [(" (on)", true), (" (off)", false)] {
        if let Some(base) = lower.strip_suffix(suffix) {
            let g = Good::from_name(base).filter(|g| g.is(super::goods::Quality::Electrical))?;
            return Some(Item::Good { good: g, stars, on });
        }
    }
    None
}

/// A Hat written by its category (Rule 1.4.6): `Compass Hat`, `Hat (Compass)`.
fn hat_category(lower: &str) -> Option<Hat> {
    let cat = lower.strip_suffix(" hat").or_else(|| {
        lower
            .strip_prefix("hat (")
            .and_then(|r| r.strip_suffix(')'))
    })?;
    Some(match cat.trim() {
        "a-z" | "a to z" | "a" => Hat::AToZ,
        "british rail" | "br" => Hat::BritishRail,
        "compass" => Hat::Compass,
        "terminus" => Hat::Terminus,
        "verdant" => Hat::Verdant,
        "hard" => Hat::Hard,
        "silly" => Hat::Silly,
        _ => return None,
    })
}

// ---- Plays ------------------------------------------------------------------

/// play = player , ":" , { action | comment } , move , { action | comment }
fn play(src: &Src, map: &Map) -> Result<Play, ParseError> {
    let text = src.text.as_str();
    let Some(colon) = text.find(':') else {
        return Err(src.error(0, "`Player : Move` (Rule 1.2.0)", 0));
    };
    let name = text[..colon].trim();
    check_name(name).map_err(|e| src.error(0, e, 0))?;
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut mv = None;
    let mut pos = colon + 1;
    loop {
        let rest = &text[pos..];
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        if trimmed.is_empty() {
            break;
        }
        let items = if mv.is_none() {
            &mut before
        } else {
            &mut after
        };
        if trimmed.starts_with('[') {
            let Some(end) = trimmed.find(']') else {
                return Err(src.error(pos, "`]` closing the Action", pos));
            };
            let body = &trimmed[..=end];
            let action = parse_action(body, map).map_err(|e| {
                src.error_on(pos, e.message, body)
                    .with_suggestions(e.suggestions)
            })?;
            items.push(PlayItem::Action(action));
            pos += end + 1;
        } else if trimmed.starts_with('{') {
            let Some(end) = trimmed.find('}') else {
                return Err(src.error(pos, "`}` closing the comment", pos));
            };
            items.push(PlayItem::Comment(comment(
                src,
                pos + 1,
                &trimmed[1..end],
                map,
            )?));
            pos += end + 1;
        } else if mv.is_none() {
            let (m, used) = move_(trimmed, pos, src, map)?;
            mv = Some(m);
            pos += used;
        } else {
            return Err(src.error(
                pos,
                "an Action `[...]` or a comment `{...}` after the Move",
                pos,
            ));
        }
    }
    let Some(mv) = mv else {
        return Err(src.error(
            text.len(),
            "a Move: a station, Pass, Timeout or Farkle (Rule 1.5.0)",
            text.len(),
        ));
    };
    Ok(Play {
        player: name.to_string(),
        before,
        mv,
        after,
    })
}

/// comment = "{" text "}" | "{" directive "}"; `at` is the byte offset of
/// `inner` in the play's text.
fn comment(src: &Src, at: usize, inner: &str, map: &Map) -> Result<Comment, ParseError> {
    let lead = inner.len() - inner.trim_start().len();
    let text = inner.trim();
    let directive = super::directive::directive(text, map).map_err(|(off, m, sg)| {
        let off = at + lead + off.min(text.len());
        src.error(off, m, off).with_suggestions(sg)
    })?;
    Ok(Comment {
        text: text.to_string(),
        directive,
    })
}

/// move = "A:" simple-move "B:" simple-move | simple-move. Returns the move
/// and the bytes used.
fn move_(s: &str, base: usize, src: &Src, map: &Map) -> Result<(Move, usize), ParseError> {
    if let Ok((rest, _)) = (
        tag_no_case::<_, _, nom::error::Error<&str>>("A"),
        space0,
        char(':'),
    )
        .parse(s)
    {
        let a_start = s.len() - rest.len();
        // Piece B starts at " B:" (outside parentheses).
        let b_at = find_piece_b(rest).ok_or_else(|| {
            src.error(
                base + a_start,
                "`B:` and the second Piece's Move (Rule 1.7.42)",
                base + a_start,
            )
        })?;
        let (a, _) = simple_move(rest[..b_at].trim_end(), base + a_start, src, map)?;
        let after_b = &rest[b_at..];
        let (r2, _) = (
            tag_no_case::<_, _, nom::error::Error<&str>>("B"),
            space0,
            char(':'),
        )
            .parse(after_b)
            .map_err(|_| src.error(base + a_start + b_at, "`B:`", base + a_start + b_at))?;
        let b_start = s.len() - r2.len();
        let (b, used) = simple_move(r2, base + b_start, src, map)?;
        return Ok((Move::Bifurcated(Box::new(a), Box::new(b)), b_start + used));
    }
    simple_move(s, base, src, map)
}

fn find_piece_b(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    let bytes = s.as_bytes();
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            'B' | 'b' if depth == 0 && i > 0 && bytes[i - 1] == b' ' => {
                let rest = s[i + 1..].trim_start();
                if rest.starts_with(':') {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// simple-move = station [ "(" spec ")" ] | "Pass" [ "(" position ")" ] | "Farkle" [...] | "Timeout"
fn simple_move(s: &str, base: usize, src: &Src, map: &Map) -> Result<(Move, usize), ParseError> {
    let word_end = s
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    let word = &s[..word_end];
    for (kw, which) in [("pass", 0), ("farkle", 1), ("timeout", 2)] {
        if word.eq_ignore_ascii_case(kw) {
            let rest = &s[word_end..];
            let t = rest.trim_start();
            let mut used = word_end;
            let mut position = None;
            if which < 2 && t.starts_with('(') {
                let close =
                    matching_paren(t).ok_or_else(|| src.error(base + used, "`)`", base + used))?;
                let inner = &t[1..close];
                let off = base + s.len() - t.len() + 1;
                position =
                    Some(read_target(inner, map).map_err(|StationErr(m, sg)| {
                        src.error(off, m, off).with_suggestions(sg)
                    })?);
                used = s.len() - t.len() + close + 1;
            }
            return Ok((
                match which {
                    0 => Move::Pass(position),
                    1 => Move::Farkle(position),
                    _ => Move::Timeout,
                },
                used,
            ));
        }
    }
    // A station: the longest prefix before a bracket that names a station.
    let stop = s.find(['[', '{']).unwrap_or(s.len());
    let region = &s[..stop];
    let mut cands: Vec<usize> = region.match_indices('(').map(|(i, _)| i).collect();
    cands.extend(region.match_indices(')').map(|(i, _)| i + 1));
    cands.push(region.len());
    cands.sort_unstable();
    cands.dedup();
    let mut found = None;
    // Shortest first: "Kensington (Olympia)" is the only name with brackets.
    for &end in cands.iter() {
        let name = region[..end].trim();
        if name.is_empty() {
            continue;
        }
        if let Some(p) = place_quiet(name, map) {
            found = Some((p, end));
            break;
        }
    }
    let Some(((station_name, dest_place), end)) = found else {
        let guess = region[..region.find('(').unwrap_or(region.len())].trim();
        let suggestions = station(guess, map).err().map(|e| e.1).unwrap_or_default();
        return Err(src
            .error_on(
                base,
                "a Move: a station of the 1999 map, Pass, Timeout or Farkle (Rule 1.5.0)",
                region,
            )
            .with_suggestions(suggestions));
    };
    let after = &s[end..];
    let t = after.trim_start();
    let spec_at = end + (after.len() - t.len());
    let bare = |station| Move::To {
        dest: Target {
            station,
            place: dest_place,
            line: None,
        },
        via: vec![],
        escalator_to: None,
    };
    if !t.starts_with('(') {
        return Ok((bare(station_name), end));
    }
    let close = matching_paren(t)
        .ok_or_else(|| src.error(base + spec_at, "`)` closing the Line Codes", base + spec_at))?;
    let inner = &t[1..close];
    // A Ghost Station's Line Code is GH (Rule 1.11.6): it names no line.
    if inner.trim().eq_ignore_ascii_case("GH") && matches!(dest_place, Place::Ghost(_)) {
        return Ok((bare(station_name), spec_at + close + 1));
    }
    let (line, via, escalator_to) = spec(inner, map).map_err(|(off, m, sg)| {
        src.error(base + spec_at + 1 + off, m, base + spec_at + 1 + off)
            .with_suggestions(sg)
    })?;
    Ok((
        Move::To {
            dest: Target {
                station: station_name,
                place: dest_place,
                line,
            },
            via,
            escalator_to,
        },
        spec_at + close + 1,
    ))
}

fn matching_paren(t: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

type SpecErr = (usize, String, Vec<String>);

/// What a Move's parentheses say: its line, the via lines, the escalator end.
type SpecParts = (Option<LineCode>, Vec<LineCode>, Option<Target>);

/// spec = [ line-code ] , [ [","] "via" [":"] line-code { "," line-code } ] , [ "for" station ]
fn spec(inner: &str, map: &Map) -> Result<SpecParts, SpecErr> {
    let expected = "Line Codes such as `VC via: CN,NT` or `for Bank` (Rule 1.2.0)";
    let at = |rest: &str| inner.len() - rest.len();
    let (rest, _) = multispace0::<_, nom::error::Error<&str>>(inner)
        .map_err(|_| (0, expected.to_string(), vec![]))?;
    // The destination's Line Code, unless the spec starts with via/for.
    let starts_kw = |r: &str| {
        let l = r.to_lowercase();
        l.starts_with("via") || l.starts_with("for ")
    };
    let (rest, line) = if starts_kw(rest) || rest.is_empty() {
        (rest, None)
    } else {
        match line_code(rest) {
            Ok((r, lc)) => (r, Some(lc)),
            Err(_) => {
                return Err((
                    at(rest),
                    "a Line Code (BL CN CL DS EL HC JL MP NT PD VC WC DL)".to_string(),
                    vec![],
                ));
            }
        }
    };
    let rest = rest.trim_start();
    let rest = rest.strip_prefix(',').map(str::trim_start).unwrap_or(rest);
    let (rest, via) = if rest.to_lowercase().starts_with("via") {
        match via_list(rest) {
            Ok((r, v)) => (r, v),
            Err(_) => {
                return Err((
                    at(rest),
                    "Line Codes after `via:`, separated by commas".into(),
                    vec![],
                ))
            }
        }
    } else {
        (rest, vec![])
    };
    if via.len() > MAX_VIA {
        return Err((
            at(rest),
            format!("at most {MAX_VIA} Line Codes after `via:` (a route is at most 40 stations)"),
            vec![],
        ));
    }
    let rest = rest.trim_start();
    if let Some(after) = rest.strip_prefix(',') {
        // A via list that stops at something that is not a Line Code.
        let word = after.trim_start();
        return Err((
            at(word),
            "a Line Code (BL CN CL DS EL HC JL MP NT PD VC WC DL)".to_string(),
            vec![],
        ));
    }
    let (rest, escalator) = if let Ok((r, _)) = (
        tag_no_case::<_, _, nom::error::Error<&str>>("for"),
        char(' '),
    )
        .parse(rest)
    {
        let name = r.trim();
        match place(name, map) {
            Ok((station, place)) => (
                "",
                Some(Target {
                    station,
                    place,
                    line: None,
                }),
            ),
            Err(StationErr(m, s)) => return Err((at(r), m, s)),
        }
    } else {
        (rest, None)
    };
    let rest = rest.trim();
    if !rest.is_empty() {
        return Err((at(rest), expected.to_string(), vec![]));
    }
    if line.is_none() && via.is_empty() && escalator.is_none() {
        return Err((0, expected.to_string(), vec![]));
    }
    Ok((line, via, escalator))
}
