//! The boxes between the Token Table and the Plays (`grammar/gsd.ebnf`,
//! "Boxes"), in each layout players write them (Rule 1.2.0 asks for them
//! "in an appropriate format"):
//!
//! - `box`: bordered, `+- Title ---+`, `| ... |`, `+-----+`; an untitled
//!   table is told by its first column (Rule 1.14.1's Token Stacks);
//! - `quirk-one-line-box`: `Wild Stations: Amersham, Ealing Broadway`;
//! - `quirk-borderless-box`: the title alone on a line, optionally
//!   underlined, then the box's rows until a blank line.
//!
//! Whatever the layout, a box becomes its title and its rows, each row
//! with the line it stands on, and one function per box reads the rows
//! (in `entries`).

use super::*;
use crate::map::names::edit_distance;

mod entries;
mod titles;

use titles::*;

/// A box's rows, each with the line it stands on.
type Rows<'a> = Vec<(&'a Line, String)>;

/// What a heading error expects.
const HEADING: &str = "a box heading (Disruptions, Game Time, Wild Stations, Courier, Token Stacks, Luggage Rack or Lost & Found) or a Play `Player : Move`";

/// A line that heads a box without borders.
enum Heading {
    /// quirk-one-line-box: `Title: content`, the content on the same line.
    OneLine(&'static str, String),
    /// quirk-borderless-box: `Title` or `Title:` alone on its line.
    Alone(&'static str),
    /// quirk-plays-heading: `Plays`, `PLAYS:`, `### Plays` over the Plays.
    Plays,
    /// quirk-state-line: `Bridges: Up` (Rule 1.8.3), `Knip: In` (Rule
    /// 1.8.4): a two-way game state on a line of its own, `true` when it
    /// is the Disruption (Up, In).
    State(Disruption, bool),
}

/// The text of an empty box written as a word (quirk-none).
fn is_none(rows: &[(&Line, String)]) -> bool {
    let text: String = rows
        .iter()
        .map(|(_, r)| cells(r).join(" "))
        .collect::<Vec<_>>()
        .join(" ");
    matches!(
        text.trim().to_ascii_lowercase().as_str(),
        "none" | "(none)" | "-"
    )
}

pub(super) fn is_box_top(s: &str) -> bool {
    let t = s.trim();
    t.starts_with('+')
        && t.ends_with('+')
        && t.len() > 2
        // A box drawn as narrow as its title has a dash each side of it
        // (`+- Game Time -+`), or none (`+Game Time+`).
        && (t.contains("--") || t[1..t.len() - 1].contains(char::is_alphabetic))
}

/// Whether a line starts a Play of a player of the Token Table (or the
/// Drone), a list's marker before it or not (quirk-listed-plays).
fn heads_a_play(line: &Line, players: &[PlayerRow]) -> bool {
    let of_player = |l: &Line| play_head(l.text.trim()).is_some_and(|n| is_player(players, n));
    of_player(line) || unlist(line).is_some_and(|u| of_player(&u))
}

/// The name of a player of the Token Table, or the Drone's.
fn is_player(players: &[PlayerRow], name: &str) -> bool {
    name.eq_ignore_ascii_case("Drone") || players.iter().any(|p| p.name.eq_ignore_ascii_case(name))
}

impl<'a> Doc<'a> {
    /// { box | one-line-box | borderless-box }: the boxes after the Token
    /// Table, in any order, each at most once, until the first line that
    /// is no box (the Plays, or prose).
    pub(super) fn boxes(&mut self, gsd: &mut Gsd) -> Result<(), ParseError> {
        let mut seen: Vec<String> = Vec::new();
        let mut states: Vec<(&'a Line, Disruption, bool)> = Vec::new();
        while let Some(line) = self.line() {
            let t = line.text.trim();
            if t.is_empty() {
                self.at += 1;
                continue;
            }
            let (title, rows) = if t.starts_with('+') && !t.starts_with("+ ") {
                let title = self.box_title(line);
                let rows = self.bordered_rows();
                match title {
                    Some(title) => (title, rows),
                    None => (self.sniff_untitled(line, &rows, gsd)?, rows),
                }
            } else {
                match self.heading(line, &gsd.players)? {
                    None => break,
                    Some(Heading::OneLine(title, content)) => {
                        self.at += 1;
                        (title.to_string(), self.one_line_rows(line, &content))
                    }
                    Some(Heading::Alone(title)) => {
                        self.at += 1;
                        (title.to_string(), self.borderless_rows(title, &gsd.players))
                    }
                    Some(Heading::Plays) => {
                        self.at += 1;
                        if self.line().is_some_and(|l| is_underline(&l.text)) {
                            self.at += 1;
                        }
                        break;
                    }
                    Some(Heading::State(state, on)) => {
                        self.at += 1;
                        let key = format!("{state:?}");
                        if seen.contains(&key) {
                            return Err(self.err_at(line, 0, "each game state once", t));
                        }
                        seen.push(key);
                        states.push((line, state, on));
                        continue;
                    }
                }
            };
            if seen.contains(&title) {
                return Err(self.err_at(
                    line,
                    Self::col_of(line, t),
                    format!("each box at most once (a second {title})"),
                    t,
                ));
            }
            seen.push(title.clone());
            self.fill(&title, line, &rows, gsd)?;
        }
        // A state line agrees with the Disruptions box, or adds its state.
        for (line, state, on) in states {
            let listed = gsd.disruptions.contains(&state);
            if listed && !on {
                return Err(self.err_at(
                    line,
                    0,
                    format!(
                        "the state the Disruptions box gives ({} is listed there)",
                        if state == Disruption::Knip {
                            "In Knip"
                        } else {
                            "Bridges Up"
                        }
                    ),
                    &line.text,
                ));
            }
            if on && !listed {
                gsd.disruptions.push(state);
            }
        }
        Ok(())
    }

    fn box_title(&self, line: &Line) -> Option<String> {
        let t = line.text.trim();
        if !is_box_top(t) {
            return None;
        }
        let inner = t.trim_matches('+').trim_matches(|c| c == '-' || c == ' ');
        let inner = inner
            .split(" -")
            .next()
            .unwrap_or(inner)
            .trim_end_matches('-')
            .trim();
        (!inner.is_empty() && !inner.contains('+'))
            .then(|| title_of(inner).map_or_else(|| inner.to_string(), str::to_string))
    }

    /// box = box-top , { box-line } , border: the rows from the top border
    /// to the bottom one. A border followed by more rows `| ... |` (under a
    /// heading row, or Rule 1.14.1's doubled borders) does not end it.
    fn bordered_rows(&mut self) -> Rows<'a> {
        self.at += 1;
        let mut rows = Vec::new();
        loop {
            while self.line().is_some_and(|l| is_border(&l.text)) {
                self.at += 1;
            }
            let first = rows.is_empty();
            if !first
                && !self
                    .line()
                    .is_some_and(|l| l.text.trim_start().starts_with('|'))
            {
                return rows;
            }
            let more = self.rows();
            if more.is_empty() {
                return rows;
            }
            rows.extend(more);
        }
    }

    /// The `|` rows of a bordered box until a border, a row re-wrapped by
    /// a mail client joined to the row before; blank lines before another
    /// row are inside the box (quirk-blank-in-box).
    fn rows(&mut self) -> Rows<'a> {
        let mut rows: Rows<'a> = Vec::new();
        while let Some(line) = self.line() {
            let t = line.text.trim();
            if is_border(t) || t.starts_with('+') {
                break;
            }
            if t.is_empty() {
                let next = self.lines[self.at + 1..]
                    .iter()
                    .find(|l| !l.text.trim().is_empty());
                if next.is_some_and(|l| l.text.trim_start().starts_with('|')) {
                    self.at += 1;
                    continue;
                }
                break;
            }
            if t.starts_with('|') || rows.is_empty() {
                rows.push((line, t.to_string()));
            } else if let Some(last) = rows
                .last_mut()
                .filter(|(_, r)| (!r.ends_with('|') || t.contains('|')) && !self.starts_a_box(line))
            {
                // A row re-wrapped by a mail client continues here: a row
                // cut short of its closing `|`, or cells after it. After a
                // whole row, a line without pipes ends a table drawn
                // without a bottom border (a Markdown table under its
                // heading).
                last.1.push(' ');
                last.1.push_str(t);
            } else {
                break;
            }
            self.at += 1;
        }
        rows
    }

    /// Reads a line as a box heading: `Some` for one of the boxes, `None`
    /// for anything else (a Play, prose), an error for a heading that names
    /// no box: never a guess. A player's name is never a heading.
    fn heading(
        &self,
        line: &'a Line,
        players: &[PlayerRow],
    ) -> Result<Option<Heading>, ParseError> {
        let unmarked = unmark(line.text.trim());
        let t: &str = &unmarked;
        let (name, rest, colon) = match t.split_once(':') {
            Some((n, r)) => (n.trim(), r.trim(), true),
            None => (t, "", false),
        };
        // A heading starts with a letter: `{Disruptions: none}` is a comment.
        if is_player(players, name) || !name.starts_with(char::is_alphabetic) {
            return Ok(None);
        }
        if rest.is_empty() && PLAYS_HEADINGS.contains(&fold_title(name).as_str()) {
            return Ok(Some(Heading::Plays));
        }
        if let Some(state) = state_line(name, rest) {
            return Ok(Some(state));
        }
        if let Some(title) = title_of(name) {
            return Ok(Some(if rest.is_empty() {
                Heading::Alone(title)
            } else {
                Heading::OneLine(title, rest.to_string())
            }));
        }
        // time-line: "Game Time Wednesday 2340", without the colon.
        if let Some(rest) = strip_keyword(t, "Game Time") {
            let rest = &line.text.trim()[line.text.trim().len() - rest.len()..];
            return Ok(Some(Heading::OneLine("Game Time", rest.trim().to_string())));
        }
        // quirk-one-line-box: the Courier's fields without its heading.
        if colon && matches!(fold_title(name).as_str(), "pickup" | "courierpickup") {
            return Ok(Some(Heading::OneLine("Courier", t.to_string())));
        }
        let words = name.split_whitespace().count();
        let head_like = check_name(name).is_ok() && words <= 4;
        let underlined = self
            .lines
            .get(self.at + 1)
            .is_some_and(|l| is_underline(&l.text));
        let near = if words <= 4 { near_title(name) } else { None };
        if near.is_some() || (head_like && (underlined || (colon && rest.is_empty()))) {
            return Err(self
                .err_at(line, Self::col_of(line, name), HEADING, name)
                .with_suggestions(near.into_iter().map(String::from).collect()));
        }
        Ok(None)
    }

    /// Whether a line heads a box (bordered, one-line or borderless): the
    /// end of a borderless box's rows.
    fn starts_a_box(&self, line: &Line) -> bool {
        let unmarked = unmark(line.text.trim());
        let t: &str = &unmarked;
        let (name, rest) = t.split_once(':').unwrap_or((t, ""));
        t.starts_with('+')
            || title_of(name).is_some()
            || strip_keyword(t, "Game Time").is_some()
            || (rest.trim().is_empty() && PLAYS_HEADINGS.contains(&fold_title(name).as_str()))
            || state_line(name, rest).is_some()
    }

    /// Whether a line after the Plays begins a box by its full title: a
    /// bordered box, `Title: content`, or `Title` alone on its line.
    pub(super) fn names_a_box(&self, line: &Line) -> bool {
        let full = |name: &str| {
            let key = fold_title(name);
            TITLE_NAMES.iter().any(|(k, _)| k.len() > 6 && *k == key)
        };
        let t = line.text.trim();
        if t.starts_with('+') {
            return self.box_title(line).is_some_and(|title| full(&title));
        }
        full(t.split_once(':').map_or(t, |(name, _)| name))
    }

    /// quirk-one-line-box: `Title: content`; a content ending in `,` or `;`
    /// continues on the next line.
    fn one_line_rows(&mut self, line: &'a Line, content: &str) -> Rows<'a> {
        let mut rows = vec![(line, content.to_string())];
        while rows.last().is_some_and(|(_, r)| r.ends_with([',', ';'])) {
            let Some(next) = self.line() else { break };
            let t = next.text.trim();
            if t.is_empty() || t.starts_with('|') || self.starts_a_box(next) {
                break;
            }
            rows.push((next, t.to_string()));
            self.at += 1;
        }
        rows
    }

    /// quirk-borderless-box: after the heading (and its underline), the
    /// rows until a blank line, the next box, or a player's Play (except in
    /// the Luggage Rack, whose rows start with players' names). A heading
    /// over a bordered table titles the table.
    fn borderless_rows(&mut self, title: &str, players: &[PlayerRow]) -> Rows<'a> {
        if self.line().is_some_and(|l| is_underline(&l.text)) {
            self.at += 1;
        }
        // A Markdown heading stands a blank line above its text.
        let blanks = self.lines[self.at..]
            .iter()
            .take_while(|l| l.text.trim().is_empty())
            .count();
        let after = self.lines.get(self.at + blanks);
        if blanks > 0
            && after.is_some_and(|l| {
                !self.starts_a_box(l)
                    && play_head(l.text.trim())
                        .is_none_or(|n| !is_player(players, n) || title == "Luggage Rack")
            })
        {
            self.at += blanks;
        }
        if let Some(next) = self.line() {
            let repeated = self.box_title(next).is_some_and(|t| t == title);
            if is_border(&next.text) || repeated {
                return self.bordered_rows();
            }
            // A Markdown table under the heading: `| Station | Tokens |`.
            if next.text.trim_start().starts_with('|') {
                self.at -= 1;
                return self.bordered_rows();
            }
        }
        let mut rows = Vec::new();
        while let Some(line) = self.line() {
            let t = line.text.trim();
            let plays = title != "Luggage Rack" && heads_a_play(line, players);
            // One blank line inside a list of entries does not end the box
            // when its text goes on (quirk-blank-in-box): a line that
            // starts no box, no Play and no Plays heading.
            if t.is_empty() && !rows.is_empty() && title != "Game Time" && title != "Courier" {
                if let Some(next) = self.lines.get(self.at + 1) {
                    let nt = next.text.trim();
                    // A listed Play (`* Name : Move`, quirk-listed-plays)
                    // as well as a bare one.
                    let a_play = if title == "Luggage Rack" {
                        // A Luggage Rack's rows name players too, but have
                        // no Move: a Play is told by reading it, with the
                        // lines a client wrapped it onto.
                        self.play_at(self.at + 1)
                    } else {
                        heads_a_play(next, players)
                    };
                    let goes_on = !nt.is_empty()
                        && !self.starts_a_box(next)
                        && !a_play
                        && (title == "Luggage Rack"
                            || play_head(nt).is_none()
                            || stacks_entry(title, nt));
                    if goes_on {
                        self.at += 1;
                        continue;
                    }
                }
            }
            if t.is_empty() || self.starts_a_box(line) || plays {
                break;
            }
            // A Markdown list's items are the box's rows (quirk-listed-rows).
            rows.push((line, unlisted(t).to_string()));
            self.at += 1;
        }
        rows
    }

    /// Whether the text from line `i` on is a Play (perhaps listed, perhaps
    /// wrapped onto the lines below it before a blank line).
    fn play_at(&self, i: usize) -> bool {
        let mut lines: Vec<Line> = Vec::new();
        for l in self.lines[i.min(self.lines.len())..].iter().take(6) {
            if l.text.trim().is_empty() {
                break;
            }
            let l = match lines.is_empty() {
                true => unlist(l).unwrap_or_else(|| l.clone()),
                false => l.clone(),
            };
            lines.push(l);
            if play(&Src::join(&lines), self.map).is_ok() {
                return true;
            }
        }
        false
    }

    /// Reads a box's rows into the document.
    fn fill(
        &self,
        title: &str,
        top: &Line,
        rows: &[(&'a Line, String)],
        gsd: &mut Gsd,
    ) -> Result<(), ParseError> {
        if is_none(rows) {
            return Ok(()); // quirk-none: `Wild Stations: none`
        }
        match title {
            "Disruptions" => gsd.disruptions = self.disruptions(rows)?,
            "Game Time" => gsd.time = self.game_time(rows)?,
            "Wild Stations" => gsd.wild = self.wild_stations(rows)?,
            "Courier" => gsd.courier = self.courier(top, rows)?,
            "Token Stacks" => (gsd.stacks, gsd.marked) = self.stacks(rows)?,
            "Luggage Rack" => gsd.luggage = self.luggage(rows)?,
            "Lost & Found" => {
                gsd.lost_and_found = Vec::new();
                for (line, item) in self.items(rows) {
                    let p = self.possession(line, &item)?;
                    gsd.lost_and_found.push(p.item);
                }
            }
            other => {
                return Err(self.err_at(
                    top,
                    Self::col_of(top, other),
                    "a box titled Disruptions, Game Time, Wild Stations, Courier, Token Stacks, Luggage Rack or Lost & Found",
                    other,
                ))
            }
        }
        Ok(())
    }

    /// An untitled table after the Token Table is the Token Stacks (as in
    /// Rule 1.14.1's example) or the Luggage Rack (Rule 1.4.12's), told
    /// apart by their first column.
    fn sniff_untitled(
        &self,
        top: &Line,
        rows: &[(&Line, String)],
        gsd: &Gsd,
    ) -> Result<String, ParseError> {
        let Some((_, first)) = rows.iter().find(|(_, r)| {
            let c = cells(r);
            !c.iter().all(|c| c.is_empty()) && !stacks::is_heading_row(&c)
        }) else {
            return Err(self.err_at(
                top,
                0,
                "a titled box (e.g. `+- Disruptions ---+`)",
                &top.text,
            ));
        };
        let c = cells(first);
        if gsd
            .players
            .iter()
            .any(|p| p.name.eq_ignore_ascii_case(c[0]))
        {
            return Ok("Luggage Rack".into());
        }
        if let Some((Some(name), tokens)) = stacks::split_stacks(c[0]).first().copied() {
            let quiet = station_quiet(stacks::strip_quadrant(name), self.map);
            if quiet.is_some() && (c.len() >= 2 || tokens.is_some()) {
                return Ok("Token Stacks".into());
            }
        }
        Err(self.err_at(
            top,
            0,
            "a titled box: this table is neither Token Stacks nor a Luggage Rack",
            &top.text,
        ))
    }
}
