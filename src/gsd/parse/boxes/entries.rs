//! What each box's rows hold: comma-separated items, Disruptions, Wild
//! Stations, Game Time, the Courier, Luggage and its Possessions.

use super::*;

impl<'a> Doc<'a> {
    /// Comma-separated items of a box, with the line each came from.
    pub(super) fn items(&self, rows: &[(&'a Line, String)]) -> Vec<(&'a Line, String)> {
        // Rows are joined first: a row ending in "," continues on the next
        // (the renderer wraps long lists so), and a row that does not end in
        // "," ends its last item. An item is attributed to the row it starts on.
        let mut text = String::new();
        let mut starts: Vec<(usize, &'a Line)> = Vec::new();
        for (line, row) in rows {
            let t = cells(row).join(" ");
            let t = t.trim();
            if t.is_empty() {
                continue;
            }
            if !text.is_empty() {
                text.push_str(if text.ends_with(',') { " " } else { ", " });
            }
            starts.push((text.len(), *line));
            text.push_str(t);
        }
        let mut out = Vec::new();
        let mut offset = 0;
        for item in split_top_level(&text, ',') {
            let lead = item.len() - item.trim_start().len();
            let at = offset + lead;
            offset += item.len() + 1;
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let line = starts
                .iter()
                .rev()
                .find(|(o, _)| *o <= at)
                .map(|(_, l)| *l)
                .unwrap_or(starts[0].1);
            out.push((line, item.to_string()));
        }
        out
    }

    /// disruptions = [ disruption , { "," , disruption } ]
    pub(super) fn disruptions(
        &self,
        rows: &[(&'a Line, String)],
    ) -> Result<Vec<Disruption>, ParseError> {
        self.items(rows)
            .into_iter()
            .map(|(line, item)| {
                disruption(&item, self.map).map_err(|(m, s)| {
                    self.err_at(line, Self::col_of(line, &item), m, &item)
                        .with_suggestions(s)
                })
            })
            .collect()
    }

    /// wild-stations = [ station , { "," , station } ]   (at most three)
    pub(super) fn wild_stations(
        &self,
        rows: &[(&'a Line, String)],
    ) -> Result<Vec<String>, ParseError> {
        let mut wild = Vec::new();
        for (line, item) in self.items(rows) {
            let col = Self::col_of(line, &item);
            if wild.len() == 3 {
                return Err(self.err_at(
                    line,
                    col,
                    "at most three Wild Stations (Rule 1.11.1)",
                    &item,
                ));
            }
            wild.push(station(&item, self.map).map_err(|StationErr(m, s)| {
                self.err_at(line, col, m, &item).with_suggestions(s)
            })?);
        }
        Ok(wild)
    }

    /// game-time = day , hhmm , [ "*" ]; an empty box is no Game Time, and
    /// a second time is refused rather than ignored.
    pub(super) fn game_time(
        &self,
        rows: &[(&'a Line, String)],
    ) -> Result<Option<GameTime>, ParseError> {
        let mut times = rows
            .iter()
            .map(|(line, row)| (*line, cells(row).join(" ")))
            .filter(|(_, text)| !text.trim().is_empty());
        let Some((line, text)) = times.next() else {
            return Ok(None);
        };
        if let Some((second, text)) = times.next() {
            let text = text.trim();
            return Err(self.err_at(
                second,
                Self::col_of(second, text),
                "one Game Time (Rule 1.13.1)",
                text,
            ));
        }
        self.game_time_text(line, &text).map(Some)
    }

    /// game-time = day , hhmm , [ "*" ]
    fn game_time_text(&self, line: &Line, text: &str) -> Result<GameTime, ParseError> {
        let t = text.trim();
        game_time(t).ok_or_else(|| {
            self.err_at(
                line,
                Self::col_of(line, t),
                "a Game Time such as `Wednesday 2340` (Rule 1.13.1)",
                t,
            )
        })
    }

    /// courier = "Pick-up" , ":" , station , [ "," ] , "Destination" , ":" , station
    pub(super) fn courier(
        &self,
        top: &Line,
        rows: &[(&'a Line, String)],
    ) -> Result<Option<Courier>, ParseError> {
        let text: String = rows
            .iter()
            .map(|(_, r)| cells(r).join(" "))
            .collect::<Vec<_>>()
            .join(" ");
        if text.trim().is_empty() {
            return Ok(None);
        }
        let first = rows.first().map(|(l, _)| *l).unwrap_or(top);
        // The line a piece of the text stands on, for errors.
        let line_of = |s: &str| {
            rows.iter()
                .find(|(l, _)| l.text.contains(s))
                .map_or(first, |(l, _)| *l)
        };
        let lower = text.to_ascii_lowercase();
        let (Some(p), Some(d)) = (
            lower.find("pick-up").or_else(|| lower.find("pickup")),
            lower.find("destination"),
        ) else {
            return Err(self.err_at(
                first,
                Self::col_of(first, text.trim()),
                "`Pick-up: <Station>, Destination: <Station>` (Rule 1.11.2)",
                &text,
            ));
        };
        let field = |from: usize, to: usize| -> &str {
            let s = &text[from..to];
            let s = s.split_once(':').map(|x| x.1).unwrap_or("");
            s.trim().trim_end_matches(',').trim()
        };
        let (pick, dest) = if p < d {
            (field(p, d), field(d, text.len()))
        } else {
            (field(p, text.len()), field(d, p))
        };
        let read = |s: &str| {
            let line = line_of(s);
            station(s, self.map).map_err(|StationErr(m, sg)| {
                self.err_at(line, Self::col_of(line, s), m, s)
                    .with_suggestions(sg)
            })
        };
        Ok(Some(Courier {
            pickup: read(pick)?,
            destination: read(dest)?,
        }))
    }

    /// luggage-row = "|" , player , "|" , [ possession , { "," , possession } ]
    ///             | player , ":" , [ possession , { "," , possession } ] , { ";" , ... }
    ///
    /// A row without `|` (quirk-one-line-box, quirk-borderless-box) names
    /// each player before a colon, players separated by `;`; a row ending
    /// in `,` continues on the next.
    pub(super) fn luggage(&self, rows: &[(&'a Line, String)]) -> Result<Vec<Luggage>, ParseError> {
        let mut out: Vec<Luggage> = Vec::new();
        let mut continues = false;
        for (line, row) in rows {
            if row.contains('|') {
                let c = cells(row);
                let (who, rest) = match c.as_slice() {
                    [who, rest @ ..] => (*who, rest.join(", ")),
                    [] => continue,
                };
                if who.is_empty() && rest.trim().is_empty() {
                    continue;
                }
                self.luggage_entry(line, row, who, &rest, &mut out)?;
                continue;
            }
            for entry in row.split(';') {
                let entry = entry.trim();
                if entry.is_empty() {
                    continue;
                }
                let (who, items) = match entry.split_once(':') {
                    Some((who, items)) => (who.trim(), items),
                    None if continues => ("", entry),
                    None => {
                        return Err(self.err_at(
                            line,
                            Self::col_of(line, entry),
                            "a player's name and `:` before eir possessions (Rule 1.4.12)",
                            entry,
                        ))
                    }
                };
                self.luggage_entry(line, entry, who, items, &mut out)?;
                continues = entry.ends_with(',');
            }
        }
        Ok(out)
    }

    /// One player's possessions; an empty name continues the player before.
    fn luggage_entry(
        &self,
        line: &Line,
        row: &str,
        who: &str,
        rest: &str,
        out: &mut Vec<Luggage>,
    ) -> Result<(), ParseError> {
        let mut items = Vec::new();
        for item in split_top_level(rest, ',') {
            let item = item.trim();
            if !item.is_empty() {
                items.push(self.possession(line, item)?);
            }
        }
        if who.is_empty() {
            // A continuation row of the previous player.
            return match out.last_mut() {
                Some(prev) => {
                    prev.items.extend(items);
                    Ok(())
                }
                None => Err(self.err_at(line, 0, "a player's name in the first column", row)),
            };
        }
        check_name(who).map_err(|e| self.err_at(line, Self::col_of(line, who), e, who))?;
        out.push(Luggage {
            player: player_name(who),
            items,
        });
        Ok(())
    }

    /// possession = "*" item "*" | "(" item ")" | item
    pub(super) fn possession(&self, line: &Line, text: &str) -> Result<Possession, ParseError> {
        possession(text, self.map).map_err(|(m, s, off)| {
            let off = off.min(text.len());
            let col = Self::col_of(line, text) + text[..off].chars().count();
            self.err_at(line, col, m, &text[off..]).with_suggestions(s)
        })
    }
}
