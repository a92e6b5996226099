//! The Token Table (`token-table` in `grammar/gsd.ebnf`) and the whole
//! document around it: the game line, the table's rows, then the boxes and
//! the Plays in order, and the check that what was read is all the text
//! said.
//!
//! The table is found by its heading, in whatever it is drawn with: ASCII
//! or Unicode borders (made ASCII by `layout`), Markdown pipes, a
//! spreadsheet's tabs (made pipes by `layout`), a reStructuredText grid
//! with a rule between rows, or spaces alone; its columns are read by what
//! their headings say (`columns`).

use super::columns::{is_heading, Field, Heading};
use super::*;

/// Where a Token Table stands: its first line (a border, or the heading)
/// and its heading's line.
struct Found {
    start: usize,
    heading: usize,
}

impl<'a> Doc<'a> {
    /// gsd = [ game-line ] , token-table , { box } , plays
    pub(super) fn gsd(&mut self) -> Result<Gsd, ParseError> {
        let found = self.find_table()?;
        let mut gsd = Gsd {
            game: game_above(self.lines, found.start),
            ..Gsd::default()
        };
        self.at = found.start;
        gsd.players = self.token_table(found.heading)?;
        self.boxes(&mut gsd)?;
        gsd.plays = self.plays(&gsd.players)?;
        Ok(gsd)
    }

    /// Finds the Token Table: the first heading line with a player's row
    /// under it (or the first heading line, for its error).
    fn find_table(&self) -> Result<Found, ParseError> {
        let mut first = None;
        for (i, l) in self.lines.iter().enumerate() {
            if !is_heading(&l.text) {
                continue;
            }
            let found = Found {
                start: border_above(self.lines, i),
                heading: i,
            };
            if self.has_rows(i) {
                return Ok(found);
            }
            first.get_or_insert(found);
        }
        if let Some(found) = first {
            return Ok(found);
        }
        let first = self.lines.iter().find(|l| !l.text.trim().is_empty());
        let (no, indent, found) = first
            .map(|l| (l.no, l.indent, l.text.as_str()))
            .unwrap_or((1, 0, ""));
        Err(ParseError::new(
            no,
            indent + 1,
            "the Token Table (Rule 1.2.0): a heading `| Player | Home | LV | Ch | Bk Bu Br Go Gr Re Si |` and a row for each player",
            snippet(found),
        ))
    }

    /// Whether a line with digits follows the heading at `i` within a few
    /// lines (its heading rows and rules between).
    pub(super) fn has_rows(&self, i: usize) -> bool {
        self.lines[i + 1..]
            .iter()
            .filter(|l| !l.text.trim().is_empty() && !is_border(&l.text) && !is_rule(&l.text))
            .take(3)
            .any(|l| l.text.chars().any(|c| c.is_ascii_digit()))
    }

    /// token-table = [ border ] , heading , { heading | blank-row } ,
    /// [ border ] , player-row , { [ border ] , player-row } , [ border ]
    fn token_table(&mut self, heading_at: usize) -> Result<Vec<PlayerRow>, ParseError> {
        let bordered = self.at < heading_at;
        self.at = heading_at;
        let heading_line = &self.lines[heading_at];
        let mut heading_rows: Vec<&'a Line> = vec![heading_line];
        let mut texts: Vec<String> = vec![heading_line.text.clone()];
        self.at += 1;
        // More heading rows: blank cells, or words that are all headings.
        while let Some(l) = self.line() {
            // A table drawn with `|` has its heading rows drawn so too.
            let piped = heading_line.text.contains('|');
            // A heading row a mail client wrapped, cut short of its
            // closing `|`, ends on the next line (`Si |`, or the `|`).
            let last = texts.last().map_or("", |t| t.trim());
            let t = l.text.trim();
            if piped
                && last.starts_with('|')
                && !last.ends_with('|')
                && !t.is_empty()
                && !is_border(t)
                && (t == "|" || (!t.starts_with('|') && t.ends_with('|')))
            {
                let row = texts.last_mut().expect("the heading row");
                row.push(' ');
                row.push_str(t);
                self.at += 1;
                continue;
            }
            if (piped && !l.text.contains('|'))
                || l.text.trim().is_empty()
                || is_border(&l.text)
                || is_rule(&l.text)
                || !heading_row(&l.text)
            {
                break;
            }
            heading_rows.push(l);
            texts.push(l.text.clone());
            self.at += 1;
        }
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let heading = Heading::read(&texts).map_err(|(row, col, expected, found)| {
            self.err_at(heading_rows[row], col, expected, &found)
        })?;
        while self.line().is_some_and(|l| {
            is_border(&l.text) || is_rule(&l.text) || (bordered && l.text.trim().is_empty())
        }) {
            self.at += 1;
        }
        let rows = self.table_rows(&heading, bordered);
        if rows.is_empty() {
            let (no, indent, found) = match self.line() {
                Some(l) => (l.no, l.indent, snippet(&l.text)),
                None => (
                    self.lines.last().map_or(1, |l| l.no + 1),
                    0,
                    "the end of the text".to_string(),
                ),
            };
            return Err(ParseError::new(
                no,
                indent + 1,
                "a row for each player under the Token Table heading",
                found,
            ));
        }
        let mut players: Vec<PlayerRow> = Vec::new();
        for (line, row) in rows {
            let p = self.player_row(line, &row, &heading)?;
            if players.iter().any(|q| same_name(&q.name, &p.name)) {
                return Err(self.err_at(
                    line,
                    Self::col_of(line, &p.name),
                    "each player once in the Token Table",
                    &p.name,
                ));
            }
            players.push(p);
        }
        Ok(players)
    }

    /// The data rows under the heading, a row re-wrapped by a mail client
    /// joined; the bottom border is consumed. In a table drawn with `|`, a
    /// border followed by another row (a grid's rule between rows) and,
    /// in a bordered table, blank lines before another row do not end it.
    fn table_rows(&mut self, heading: &Heading, bordered: bool) -> Vec<(&'a Line, String)> {
        let mut rows: Vec<(&'a Line, String)> = Vec::new();
        let cells_wanted = heading.columns.len();
        // Whether the next line with text past `from`, borders and blank
        // lines skipped, is another row of this table (as many cells).
        let row_after = |from: usize| {
            self.lines[from..]
                .iter()
                .find(|l| {
                    let t = l.text.trim();
                    !t.is_empty() && !is_border(t) && !is_rule(t)
                })
                .is_some_and(|l| {
                    let n = columns::spans(&l.text).len();
                    heading.piped
                        && l.text.trim_start().starts_with('|')
                        && !is_heading(&l.text)
                        && (n == cells_wanted || n == heading.field_count())
                })
        };
        while let Some(line) = self.line() {
            let t = line.text.trim();
            if t.is_empty() {
                if heading.piped && bordered && row_after(self.at) {
                    self.at += 1;
                    continue;
                }
                break;
            }
            if is_border(t) || is_rule(t) {
                self.at += 1;
                if row_after(self.at) {
                    continue;
                }
                break;
            }
            if heading.piped {
                // A row a mail client wrapped at 78 columns (a table wider
                // than that, with a long Home): a row drawn with outer
                // pipes cut short of its closing `|` ends on the next line
                // (`0  0 |`, or the `|` alone).
                let cut_short = rows.last().is_some_and(|(_, r)| {
                    let r = r.trim();
                    r.starts_with('|') && !r.ends_with('|')
                });
                if cut_short && (t == "|" || (!t.starts_with('|') && t.ends_with('|'))) {
                    let last = rows.last_mut().expect("a row cut short");
                    last.1.push(' ');
                    last.1.push_str(t);
                } else if t.contains('|') {
                    rows.push((line, line.text.clone()));
                } else if let Some(last) = rows
                    .last_mut()
                    .filter(|(_, r)| columns::spans(r).len() < cells_wanted)
                {
                    // A row re-wrapped by a mail client continues here.
                    last.1.push(' ');
                    last.1.push_str(t);
                } else {
                    break;
                }
            } else {
                rows.push((line, line.text.clone()));
            }
            self.at += 1;
        }
        rows
    }

    /// player-row: the row's values, by the heading's columns.
    fn player_row(
        &self,
        line: &Line,
        row: &str,
        heading: &Heading,
    ) -> Result<PlayerRow, ParseError> {
        let own = row == line.text;
        // A column in the row's text; a joined row's by search.
        let at = |col: usize, found: &str| {
            if own {
                col
            } else {
                Self::col_of(line, found)
            }
        };
        let is_station = |s: &str| station_quiet(s, self.map).is_some();
        let is_name = |s: &str| {
            self.lines
                .iter()
                .filter_map(|l| play_head(l.text.trim()))
                .any(|n| {
                    same_name(
                        &player_name(n),
                        &player_name(s.trim_start_matches('*').trim()),
                    )
                })
        };
        let v = heading
            .row(row, &is_station, &is_name)
            .map_err(|(col, expected, found)| {
                self.err_at(line, at(col, &found), expected, &found)
            })?;
        let (cell, col) = v.get(Field::Player).unwrap_or(("", 0));
        let (active, name) = match cell.strip_prefix('*') {
            Some(n) => (false, n.trim()),
            None => (true, cell),
        };
        check_name(name).map_err(|e| self.err_at(line, at(col, cell), e, cell))?;
        let home = match v.get(Field::Home) {
            None => None,
            Some(("" | "-" | "\u{2013}" | "\u{2014}", _)) => None,
            Some((h, _)) if h.eq_ignore_ascii_case("none") => None,
            Some((h, hc)) => Some(station(h, self.map).map_err(|StationErr(m, s)| {
                self.err_at(line, at(hc, h), m, h).with_suggestions(s)
            })?),
        };
        let (lv_text, lc) = v.get(Field::Lv).unwrap_or(("", 0));
        let lv = at_most(lv_text, MAX_LV).ok_or_else(|| {
            self.err_at(
                line,
                at(lc, lv_text),
                "the LV, a whole number from 0 to 999 (Rule 1.6.1)",
                lv_text,
            )
        })?;
        let (ch_text, cc) = v.get(Field::Ch).unwrap_or(("", 0));
        let charge = parse_charge(ch_text).ok_or_else(|| {
            self.err_at(
                line,
                at(cc, ch_text),
                "the Charge, a signed whole number from -999 to 999 (Rule 1.19.2)",
                ch_text,
            )
        })?;
        let mut tokens = Tokens::default();
        for colour in heading.colour_order() {
            let (n, nc) = v.get(Field::Count(colour)).unwrap_or(("", 0));
            let count = at_most(n, MAX_COUNT).ok_or_else(|| {
                self.err_at(
                    line,
                    at(nc, n),
                    format!("a count of {} tokens, from 0 to 9999", colour.name()),
                    n,
                )
            })?;
            tokens.set(colour, count);
        }
        Ok(PlayerRow {
            name: player_name(name),
            active,
            home,
            lv,
            charge,
            tokens,
        })
    }
}

/// Whether a row of the heading's table holds only headings and blanks.
fn heading_row(text: &str) -> bool {
    let cs = if text.contains('|') {
        cells(text)
    } else {
        text.split_whitespace().collect()
    };
    cs.iter()
        .all(|c| c.is_empty() || columns::is_heading_cell(c))
}

/// A rule under a heading drawn without `+` corners: Markdown's `|---|:--:|`
/// and `--- | ---`, reStructuredText's `=====  =====`, a line of dashes.
pub(super) fn is_rule(s: &str) -> bool {
    let t = s.trim();
    t.len() >= 3
        && t.contains(['-', '='])
        && t.chars()
            .all(|c| matches!(c, '-' | '=' | ':' | '|' | ' ' | '+'))
}

/// The first line of the table whose heading is at `i`: the border lines
/// straight above it.
pub(super) fn border_above(lines: &[Line], i: usize) -> usize {
    let mut start = i;
    while start > 0 && is_border(&lines[start - 1].text) {
        start -= 1;
    }
    start
}

/// Two players' names are one name: alike in any case (quirk-typeset-name
/// has made their apostrophes, hyphens and spaces alike).
pub(super) fn same_name(a: &str, b: &str) -> bool {
    a == b || a.to_lowercase() == b.to_lowercase()
}

/// game-line, read above the table at `start`: the nearest line a person
/// reads as naming the game, past blank lines and a few title lines
/// (`TOKEN TABLE`, `Current state:`, a Markdown heading). The line is
/// `Game MN12`, `Game: MN12`, `## Game MN12`, `*Game MN12*`, or the id
/// followed by a link or a remark (`Game MN36 <https://...>`, `Game MN36`
/// then ` - turn 14`); a title line naming `Game MN12` among other words
/// counts when the id has a letter and a digit.
pub(crate) fn game_above(lines: &[Line], start: usize) -> Option<String> {
    game_line_above(lines, start).map(|(_, id)| id)
}

/// [`game_above`], with the index of the game line.
pub(crate) fn game_line_above(lines: &[Line], start: usize) -> Option<(usize, String)> {
    let mut titles = 0;
    for (i, l) in lines[..start].iter().enumerate().rev() {
        let t = bare_title(&l.text);
        if t.is_empty() {
            continue;
        }
        if let Some(id) = game_line(t, titles == 0) {
            return Some((i, id));
        }
        titles += 1;
        if titles > 3 || l.text.contains('|') {
            return None;
        }
    }
    None
}

/// A line with Markdown's heading marks and emphasis taken off
/// (`## Game 31`, `**Game MN12**`, `*Title:*`).
pub(crate) fn bare_title(s: &str) -> &str {
    let t = s.trim();
    let t = t.trim_start_matches('#').trim_start();
    let t = t.trim_matches(|c| c == '*' || c == '_').trim();
    t
}

/// The game id of a game line; `first` for the line straight above the
/// table, where any id-shaped word after `Game` counts.
fn game_line(t: &str, first: bool) -> Option<String> {
    let id_shaped = |id: &str| {
        !id.is_empty()
            && id.len() <= 16
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let strong = |id: &str| {
        id_shaped(id)
            && id.chars().any(|c| c.is_ascii_digit())
            && id.chars().any(|c| c.is_ascii_alphabetic())
    };
    if let Some(rest) = strip_keyword(t, "Game") {
        let rest = rest
            .trim_start()
            .trim_start_matches([':', '#'])
            .trim_start();
        if strip_keyword(t, "Game Time").is_some() {
            return None;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '<' | '(' | '[' | ',' | ';'))
            .unwrap_or(rest.len());
        let (id, after) = (rest[..end].trim_end_matches(['.', ':']), rest[end..].trim());
        let remark = after.starts_with(['<', '(', '[', '-', '\u{2013}', '\u{2014}', ',', ';', '|'])
            || after.starts_with("http");
        let numbered = strong(id) || id.chars().all(|c| c.is_ascii_digit());
        let read = if after.is_empty() {
            first || numbered
        } else {
            remark && numbered
        };
        return (id_shaped(id) && read).then(|| id.to_string());
    }
    // `Mornington Nomic - Game MN31 - turn 14`: a title naming the game.
    let lower = t.to_lowercase();
    let mut from = 0;
    while let Some(k) = lower[from..].find("game") {
        let at = from + k;
        from = at + 4;
        if at > 0 && lower[..at].ends_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        let rest = t[at + 4..]
            .trim_start()
            .trim_start_matches([':', '#'])
            .trim_start();
        let id = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .next()
            .unwrap_or("");
        if strong(id) {
            return Some(id.to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_as_people_write_them() {
        for (line, want) in [
            ("Game MN12", Some("MN12")),
            ("Game: MN12", Some("MN12")),
            ("GAME MN12", Some("MN12")),
            ("Game #MN12", Some("MN12")),
            ("Game MN36 <https://lounge.example/mn36>", Some("MN36")),
            ("Game MN36 (archive: https://x.example/)", Some("MN36")),
            ("Game MN36 - turn 14", Some("MN36")),
            ("Game 31", Some("31")),
            ("Mornington Nomic - Game MN31 - after turn 14", Some("MN31")),
            ("Game Time: Wednesday 2340", None),
            ("Game on, everyone", None),
        ] {
            assert_eq!(game_line(bare_title(line), true).as_deref(), want, "{line}");
        }
        assert_eq!(
            game_line(bare_title("## Game 31"), false).as_deref(),
            Some("31")
        );
        assert_eq!(
            game_line(bare_title("**Game MN12**"), false).as_deref(),
            Some("MN12")
        );
        assert_eq!(game_line("I think game 3 was better", false), None);
    }
}
