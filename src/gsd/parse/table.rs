//! The Token Table (`token-table` in `grammar/gsd.ebnf`) and the whole
//! document around it: the game line, the table's rows, then the boxes and
//! the Plays in order.

use super::*;

impl<'a> Doc<'a> {
    /// gsd = [ game-line ] , token-table , { box } , plays
    pub(super) fn gsd(&mut self) -> Result<Gsd, ParseError> {
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
    pub(super) fn rows(&mut self) -> Vec<(&'a Line, String)> {
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
            name: player_name(name),
            active,
            home,
            lv,
            charge,
            tokens,
        })
    }
}
