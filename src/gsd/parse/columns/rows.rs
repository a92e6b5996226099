//! A Token Table row read into the fields its heading names: by its
//! cells (a table drawn with `|` or tabs), or, drawn with spaces alone, by
//! the order of its words and by where they stand (both, and they must
//! agree).

use super::*;

/// A row's values, by field, each with the column (chars, in the row's
/// text) it starts at.
#[derive(Debug, Default)]
pub(crate) struct Values<'r> {
    pub got: Vec<(Field, &'r str, usize)>,
}

impl<'r> Values<'r> {
    pub(crate) fn get(&self, f: Field) -> Option<(&'r str, usize)> {
        self.got
            .iter()
            .find(|(g, _, _)| *g == f)
            .map(|(_, t, c)| (*t, *c))
    }
}

/// Why a row does not fit its heading: the column (chars) in the row,
/// what was expected, what was found.
pub(crate) type RowErr = (usize, String, String);

impl Heading {
    /// Reads a data row into its fields (see the module docs);
    /// `is_station` tells a Home's words from a name's, and `is_name`
    /// knows the names the Plays use.
    pub(crate) fn row<'r>(
        &self,
        row: &'r str,
        is_station: &dyn Fn(&str) -> bool,
        is_name: &dyn Fn(&str) -> bool,
    ) -> Result<Values<'r>, RowErr> {
        if self.piped {
            return self.piped_row(row);
        }
        // A table drawn with spaces is read two ways: by the order of its
        // words (a name, a station, then one number a column, as the
        // heading orders them) and by where they stand. One reading that
        // works is taken; two that disagree are refused.
        let by_place = self.spaced_row(row);
        match (self.in_order(row, is_station, is_name), by_place) {
            (Ordered::One(v), Ok(p)) if !same_values(&v, &p) => Err((
                0,
                "a row whose words stand under their headings (read in order and by column, it says two things)".into(),
                row.trim().into(),
            )),
            (Ordered::One(v), _) => Ok(v),
            (_, Ok(p)) => Ok(p),
            (_, Err(e)) => Err(e),
        }
    }

    /// A spaced row read in order: each text column takes the words up to
    /// the numbers of the next; `One` when exactly one split of the words
    /// fits (every number a number, a Home a station).
    fn in_order<'r>(
        &self,
        row: &'r str,
        is_station: &dyn Fn(&str) -> bool,
        is_name: &dyn Fn(&str) -> bool,
    ) -> Ordered<'r> {
        let mut cols: Vec<&Column> = self.columns.iter().collect();
        cols.sort_by_key(|c| c.start);
        if cols.iter().any(|c| c.fields.len() != 1) {
            return Ordered::None;
        }
        let fields: Vec<Field> = cols.iter().map(|c| c.fields[0]).collect();
        let ws = words(row);
        let numbers = fields.iter().filter(|f| f.numeric()).count();
        let texts: Vec<usize> = (0..fields.len())
            .filter(|&i| !fields[i].numeric())
            .collect();
        let spare = match ws.len().checked_sub(numbers) {
            Some(n) => n,
            None => return Ordered::None,
        };
        // Word counts of the text columns: the Player one or more, a Home
        // none or more; they share the words the numbers leave.
        let splits: Vec<Vec<usize>> = match texts.len() {
            0 if spare == 0 => vec![vec![]],
            1 => vec![vec![spare]],
            2 => (0..=spare).map(|a| vec![a, spare - a]).collect(),
            _ => Vec::new(),
        };
        let mut found: Vec<Values<'r>> = Vec::new();
        for split in splits {
            let mut v = Values::default();
            let mut at = 0;
            let mut ok = true;
            let mut t = 0;
            for f in &fields {
                if f.numeric() {
                    let w = &ws[at];
                    ok &= looks_numeric(w.text);
                    v.got.push((*f, w.text, w.start));
                    at += 1;
                } else {
                    let n = split[t];
                    t += 1;
                    if n == 0 {
                        ok &= *f == Field::Home;
                        continue;
                    }
                    let text = slice_cols(row, ws[at].start, ws[at + n - 1].end);
                    ok &= match f {
                        // `-` is a Home cell saying there is none.
                        Field::Home => {
                            is_station(text) || matches!(text, "-" | "\u{2013}" | "\u{2014}")
                        }
                        _ => text.starts_with(|c: char| c.is_alphabetic() || c == '*'),
                    };
                    v.got.push((*f, text, ws[at].start));
                    at += n;
                }
            }
            if ok {
                found.push(v);
            }
        }
        // A name followed by a station, under a heading with a Home: the
        // station is the Home, unless the whole is a name the Plays use.
        if found.len() > 1 {
            fn player<'v>(v: &Values<'v>) -> &'v str {
                v.get(Field::Player).map_or("", |p| p.0)
            }
            let named: Vec<usize> = (0..found.len())
                .filter(|&i| is_name(player(&found[i])))
                .collect();
            let keep = match named.as_slice() {
                [one] => Some(*one),
                [] => (0..found.len())
                    .max_by_key(|&i| found[i].get(Field::Home).map_or(0, |h| h.0.len())),
                _ => None,
            };
            if let Some(k) = keep.filter(|_| named.len() <= 1) {
                return Ordered::One(found.swap_remove(k));
            }
        }
        match found.len() {
            1 => Ordered::One(found.pop().expect("one")),
            0 => Ordered::None,
            _ => Ordered::Several,
        }
    }

    fn piped_row<'r>(&self, row: &'r str) -> Result<Values<'r>, RowErr> {
        let cells = spans(row);
        let mut v = Values::default();
        if cells.len() == self.columns.len() {
            for ((text, start, _), col) in cells.iter().zip(&self.columns) {
                self.cell(text, *start, &col.fields, &mut v)?;
            }
            return Ok(v);
        }
        // One cell a field (the heading's colours in one cell, the row's
        // counts in seven).
        let flat: Vec<Field> = self.fields().collect();
        if cells.len() == flat.len() {
            for ((text, start, _), f) in cells.iter().zip(&flat) {
                self.cell(text, *start, std::slice::from_ref(f), &mut v)?;
            }
            return Ok(v);
        }
        let (at, found) = match cells.get(self.columns.len()) {
            Some((text, start, _)) if cells.len() > self.columns.len() => {
                (*start + lead(text), text.trim().to_string())
            }
            _ => (0, row.trim().to_string()),
        };
        let heads: Vec<String> = self
            .columns
            .iter()
            .map(|c| {
                c.fields
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        Err((
            at,
            format!(
                "a Token Table row of {} cells, as its heading `| {} |` (this one has {})",
                self.columns.len(),
                heads.join(" | "),
                cells.len()
            ),
            found,
        ))
    }

    /// One cell's values: a name or a station whole, numbers one a field.
    fn cell<'r>(
        &self,
        text: &'r str,
        start: usize,
        fields: &[Field],
        v: &mut Values<'r>,
    ) -> Result<(), RowErr> {
        let at = start + lead(text);
        match fields {
            [] if text.trim().is_empty() => Ok(()),
            [] => Err((
                at,
                "nothing in a cell with no heading".into(),
                text.trim().into(),
            )),
            [f] if !f.numeric() => {
                v.got.push((*f, text.trim(), at));
                Ok(())
            }
            _ => {
                let ws = words(text);
                if ws.len() != fields.len() {
                    let names: Vec<String> = fields.iter().map(|f| f.name()).collect();
                    let what = if fields.iter().all(|f| matches!(f, Field::Count(_))) {
                        format!(
                            "{} token counts ({}) where there are {}",
                            fields.len(),
                            names.join(" "),
                            ws.len()
                        )
                    } else {
                        format!(
                            "{} values ({}) where there are {}",
                            fields.len(),
                            names.join(" "),
                            ws.len()
                        )
                    };
                    return Err((at, what, text.trim().into()));
                }
                for (w, f) in ws.iter().zip(fields) {
                    v.got.push((*f, w.text, start + w.start));
                }
                Ok(())
            }
        }
    }

    /// A row of a table drawn with spaces: each word under the heading it
    /// stands under (numbers by overlap, a name's and a station's words
    /// from their heading to the next).
    fn spaced_row<'r>(&self, row: &'r str) -> Result<Values<'r>, RowErr> {
        let mut by_col: Vec<Vec<Word<'r>>> = vec![Vec::new(); self.columns.len()];
        let order: Vec<usize> = {
            let mut o: Vec<usize> = (0..self.columns.len()).collect();
            o.sort_by_key(|&i| self.columns[i].start);
            o
        };
        for w in words(row) {
            let overlap = |c: &Column| w.end.min(c.end).saturating_sub(w.start.max(c.start));
            // A number belongs to the numeric heading it overlaps most.
            let numeric = self
                .columns
                .iter()
                .enumerate()
                .filter(|(_, c)| c.fields.iter().all(|f| f.numeric()) && overlap(c) > 0)
                .max_by_key(|(_, c)| overlap(c))
                .map(|(i, _)| i);
            let is_number = w
                .text
                .trim_start_matches(['-', '+', '\u{2212}'])
                .starts_with(|c: char| c.is_ascii_digit());
            let target = match numeric {
                Some(i) if is_number => Some(i),
                _ => {
                    // Text runs from its heading to the next heading.
                    let region = order
                        .iter()
                        .rposition(|&i| self.columns[i].start <= w.start)
                        .map(|k| order[k]);
                    match region {
                        Some(i) if !self.columns[i].fields.iter().all(|f| f.numeric()) => Some(i),
                        _ => best_overlap(&self.columns, w.start, w.end),
                    }
                }
            };
            let Some(i) = target else {
                return Err((
                    w.start,
                    "a value under a heading of the Token Table".into(),
                    w.text.into(),
                ));
            };
            by_col[i].push(w);
        }
        let mut v = Values::default();
        for (col, ws) in self.columns.iter().zip(&by_col) {
            match col.fields.as_slice() {
                [f] if !f.numeric() => {
                    if let (Some(first), Some(last)) = (ws.first(), ws.last()) {
                        let text = slice_cols(row, first.start, last.end);
                        v.got.push((*f, text, first.start));
                    }
                }
                fields => {
                    if ws.len() != fields.len() {
                        let at = ws.first().map_or(col.start, |w| w.start);
                        let found = ws.iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
                        let names: Vec<String> = fields.iter().map(|f| f.name()).collect();
                        return Err((
                            at,
                            format!(
                                "one value under each of {} (the words stand where their heading is; found {})",
                                names.join(" "),
                                ws.len()
                            ),
                            if found.is_empty() { row.trim().into() } else { found },
                        ));
                    }
                    for (w, f) in ws.iter().zip(fields) {
                        v.got.push((*f, w.text, w.start));
                    }
                }
            }
        }
        Ok(v)
    }
}

/// What reading a spaced row in order found.
enum Ordered<'r> {
    One(Values<'r>),
    Several,
    None,
}

/// Whether two readings of a row give each field the same text.
fn same_values(a: &Values<'_>, b: &Values<'_>) -> bool {
    a.got.len() == b.got.len()
        && a.got
            .iter()
            .all(|(f, t, _)| b.get(*f).is_some_and(|(u, _)| u == *t))
}

/// A number as a Token Table writes one: digits, a sign, a `%`.
fn looks_numeric(w: &str) -> bool {
    let t = w
        .trim_start_matches(['-', '+', '\u{2212}', '\u{2013}'])
        .trim_end_matches('%');
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())
}

/// Leading white space of a cell, in chars.
fn lead(text: &str) -> usize {
    text.chars().take_while(|c| c.is_whitespace()).count()
}

/// The text of `s` between two char columns.
fn slice_cols(s: &str, from: usize, to: usize) -> &str {
    let mut idx = s
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(s.len()));
    let b0 = idx.clone().nth(from).unwrap_or(s.len());
    let b1 = idx.nth(to).unwrap_or(s.len());
    &s[b0..b1.max(b0)]
}
