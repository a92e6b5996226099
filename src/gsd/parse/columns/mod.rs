//! The Token Table's columns, found by what their headings say
//! (quirk-any-columns in `grammar/gsd.ebnf`), never by their position: the
//! colour order, LV, Ch, Home and Player in any order and any case, one
//! heading cell for all seven colours or one each, over one heading row or
//! several. A heading word that names no column is an error naming it.
//!
//! A row is read into the same fields as its heading, by its cells (a table
//! drawn with `|`, a tab-separated one) or, for a table drawn with spaces
//! alone, by where its words stand under the heading's words. A value that
//! fits no column, a column left without its value, a cell left over: each
//! is an error, never a guess.

use super::*;

/// A column of the Token Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Player,
    Home,
    Lv,
    Ch,
    Count(Colour),
}

impl Field {
    fn numeric(self) -> bool {
        matches!(self, Field::Lv | Field::Ch | Field::Count(_))
    }

    fn name(self) -> String {
        match self {
            Field::Player => "Player".into(),
            Field::Home => "Home".into(),
            Field::Lv => "LV".into(),
            Field::Ch => "Ch".into(),
            Field::Count(c) => c.code().into(),
        }
    }
}

/// What a heading word says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Field(Field),
    /// `Tokens`: the title over the colours, naming no column itself.
    Tokens,
}

/// Every name of a heading word (or two words), folded: lower case,
/// letters and digits only.
const LABELS: [(&str, Label); 16] = [
    ("player", Label::Field(Field::Player)),
    ("players", Label::Field(Field::Player)),
    ("name", Label::Field(Field::Player)),
    ("playername", Label::Field(Field::Player)),
    ("home", Label::Field(Field::Home)),
    ("homestation", Label::Field(Field::Home)),
    ("homes", Label::Field(Field::Home)),
    ("lv", Label::Field(Field::Lv)),
    ("linevelocity", Label::Field(Field::Lv)),
    ("velocity", Label::Field(Field::Lv)),
    ("ch", Label::Field(Field::Ch)),
    ("charge", Label::Field(Field::Ch)),
    ("chg", Label::Field(Field::Ch)),
    ("tokens", Label::Tokens),
    ("token", Label::Tokens),
    ("tokencounts", Label::Tokens),
];

/// What the error for an unknown heading word expects.
const HEADS: &str =
    "a Token Table heading: Player, Home, LV, Ch, Tokens or a token colour (Bk Bu Br Go Gr Re Si)";

fn fold(w: &str) -> String {
    w.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn label(word: &str) -> Option<Label> {
    let key = fold(word);
    LABELS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, l)| *l)
        .or_else(|| Colour::parse(&key).map(|c| Label::Field(Field::Count(c))))
}

/// A word of a line and where it stands (columns in chars, end exclusive).
#[derive(Clone, Debug)]
pub(super) struct Word<'t> {
    pub text: &'t str,
    pub start: usize,
    pub end: usize,
}

/// The words of `s` with their columns.
pub(super) fn words(s: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, col)
    let mut col = 0;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some((b, sc)) = start.take() {
                out.push(Word {
                    text: &s[b..i],
                    start: sc,
                    end: col,
                });
            }
        } else if start.is_none() {
            start = Some((i, col));
        }
        col += 1;
    }
    if let Some((b, sc)) = start {
        out.push(Word {
            text: &s[b..],
            start: sc,
            end: col,
        });
    }
    out
}

/// The labels of a heading cell's text: the whole text as one label
/// (`Home Station`), else each word one; `Err` with the first word that
/// names no column.
fn cell_labels(text: &str) -> Result<Vec<Label>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(l) = label(t) {
        return Ok(vec![l]);
    }
    let ws: Vec<&str> = t.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        // Two words that name one column (`Line Velocity`).
        if let Some(l) = ws.get(i + 1).and_then(|n| label(&format!("{}{n}", ws[i]))) {
            out.push(l);
            i += 2;
            continue;
        }
        match label(ws[i]) {
            Some(l) => out.push(l),
            None => return Err(ws[i].to_string()),
        }
        i += 1;
    }
    Ok(out)
}

/// Whether a cell's text is all headings (a second heading row).
pub(super) fn is_heading_cell(text: &str) -> bool {
    cell_labels(text).is_ok_and(|l| !l.is_empty())
}

/// Whether a line is a Token Table's heading (the Player column and at
/// least two of the others), in any layout: cells of `|`, or words.
pub(crate) fn is_heading(text: &str) -> bool {
    let cells: Vec<&str> = if text.contains('|') {
        cells(text)
    } else {
        text.split_whitespace().collect()
    };
    let mut player = false;
    let mut others = 0;
    let mut unknown = 0;
    for c in cells {
        match cell_labels(c) {
            Ok(ls) => {
                for l in ls {
                    match l {
                        Label::Field(Field::Player) => player = true,
                        _ => others += 1,
                    }
                }
            }
            Err(_) => unknown += 1,
        }
    }
    player && others >= 2 && unknown <= others
}

/// A heading cell: its fields and where it stands.
#[derive(Clone, Debug)]
pub(super) struct Column {
    pub fields: Vec<Field>,
    pub start: usize,
    pub end: usize,
}

/// The columns of a table, read off its heading rows.
#[derive(Clone, Debug)]
pub(super) struct Heading {
    pub columns: Vec<Column>,
    /// Drawn with `|` (rows read by their cells) or with spaces alone
    /// (rows read by where their words stand).
    pub piped: bool,
}

/// The cells of a row with the columns (chars) each spans, the `|` not
/// counted; the outer pipes are optional.
pub(super) fn spans(row: &str) -> Vec<(&str, usize, usize)> {
    let mut out = Vec::new();
    let mut cell_start_byte = 0;
    let mut cell_start_col = 0;
    let mut col = 0;
    for (i, c) in row.char_indices() {
        if c == '|' {
            out.push((&row[cell_start_byte..i], cell_start_col, col));
            cell_start_byte = i + 1;
            cell_start_col = col + 1;
        }
        col += 1;
    }
    out.push((&row[cell_start_byte..], cell_start_col, col));
    // The outer pipes' empty ends are no cells.
    if out.first().is_some_and(|c| c.0.trim().is_empty()) && row.trim_start().starts_with('|') {
        out.remove(0);
    }
    if out.last().is_some_and(|c| c.0.trim().is_empty()) && row.trim_end().ends_with('|') {
        out.pop();
    }
    out
}

impl Heading {
    /// Reads the heading rows (one or more; `rows[0]` is the main one).
    /// Every field must be named once, LV, Ch and each colour included;
    /// Home may be left out. `Err((row index, column, expected, found))`.
    pub(super) fn read(rows: &[&str]) -> Result<Heading, (usize, usize, String, String)> {
        let piped = rows.iter().any(|r| r.contains('|'));
        // The row with the most cells is the base; the other rows' labels
        // join the base cell they stand over (a `Tokens` title over the
        // colours' row, a second line of a heading).
        let split = |r: &str| -> Vec<(String, usize, usize)> {
            if piped {
                spans(r)
                    .into_iter()
                    .map(|(t, s, e)| (t.to_string(), s, e))
                    .collect()
            } else {
                // Two words that name one column (`Home Station`) are one
                // heading, in every row, the base row too.
                let ws: Vec<(String, usize, usize)> = words(r)
                    .into_iter()
                    .map(|w| (w.text.to_string(), w.start, w.end))
                    .collect();
                join_two_word_labels(&ws)
            }
        };
        let per_row: Vec<Vec<(String, usize, usize)>> = rows.iter().map(|r| split(r)).collect();
        let base = (0..per_row.len())
            .max_by_key(|&i| (per_row[i].len(), usize::MAX - i))
            .unwrap_or(0);
        let mut columns: Vec<Column> = per_row[base]
            .iter()
            .map(|(_, s, e)| Column {
                fields: Vec::new(),
                start: *s,
                end: *e,
            })
            .collect();
        for (ri, row) in per_row.iter().enumerate() {
            for (text, s, e) in row {
                let labels = cell_labels(text).map_err(|w| {
                    let at = s + text
                        .find(w.as_str())
                        .map_or(0, |b| text[..b].chars().count());
                    (ri, at, HEADS.to_string(), w)
                })?;
                let fields: Vec<Field> = labels
                    .into_iter()
                    .filter_map(|l| match l {
                        Label::Field(f) => Some(f),
                        Label::Tokens => None,
                    })
                    .collect();
                if fields.is_empty() {
                    continue;
                }
                // A row of as many cells as the base is read cell by cell
                // (a table drawn without alignment); another by where its
                // words stand.
                let same_cells = piped && row.len() == per_row[base].len();
                let target = if ri == base || same_cells {
                    row.iter()
                        .position(|(_, rs, re)| rs == s && re == e)
                        .filter(|&k| k < columns.len())
                } else {
                    best_overlap(&columns, *s, *e)
                };
                let Some(target) = target else {
                    return Err((
                        ri,
                        *s,
                        "a heading over a column of the table".into(),
                        text.clone(),
                    ));
                };
                columns[target].fields.extend(fields);
            }
        }
        columns.retain(|c| !c.fields.is_empty() || piped);
        let heading = Heading { columns, piped };
        heading
            .check()
            .map_err(|(expected, found)| (base, 0, expected, found))?;
        Ok(heading)
    }

    /// Each field once; Player, LV, Ch and the seven colours present; a
    /// name and numbers never in one cell.
    fn check(&self) -> Result<(), (String, String)> {
        let all: Vec<Field> = self.fields().collect();
        for (i, f) in all.iter().enumerate() {
            if all[..i].contains(f) {
                return Err((
                    format!(
                        "each column once in the Token Table heading (a second {})",
                        f.name()
                    ),
                    f.name(),
                ));
            }
        }
        let mut missing: Vec<String> = [Field::Player, Field::Lv, Field::Ch]
            .into_iter()
            .chain(Colour::ALL.into_iter().map(Field::Count))
            .filter(|f| !all.contains(f))
            .map(Field::name)
            .collect();
        if !missing.is_empty() {
            let found = missing.join(" ");
            missing.truncate(7);
            return Err((
                format!(
                    "a Token Table heading naming every column: Player, Home, LV, Ch and the colours Bk Bu Br Go Gr Re Si (no heading for {})",
                    missing.join(", ")
                ),
                found,
            ));
        }
        for c in &self.columns {
            let text = c.fields.iter().filter(|f| !f.numeric()).count();
            if text > 1 || (text == 1 && c.fields.len() > 1) {
                let names: Vec<String> = c.fields.iter().map(|f| f.name()).collect();
                return Err((
                    "Player and Home each in a column of its own".into(),
                    names.join(" "),
                ));
            }
        }
        Ok(())
    }

    /// How many fields the heading names.
    pub(super) fn field_count(&self) -> usize {
        self.fields().count()
    }

    fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.columns.iter().flat_map(|c| c.fields.iter().copied())
    }

    /// The colours, in the heading's order (for messages).
    pub(super) fn colour_order(&self) -> Vec<Colour> {
        self.fields()
            .filter_map(|f| match f {
                Field::Count(c) => Some(c),
                _ => None,
            })
            .collect()
    }
}

/// A heading drawn with spaces, with two words that name one column
/// (`Home Station`, `Line Velocity`) made one.
fn join_two_word_labels(row: &[(String, usize, usize)]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < row.len() {
        if let Some(next) = row.get(i + 1) {
            let (a, b) = (label(&row[i].0), label(&next.0));
            let both = format!("{} {}", row[i].0, next.0);
            if label(&both).is_some() && (a.is_none() || b.is_none() || a == b) {
                out.push((both, row[i].1, next.2));
                i += 2;
                continue;
            }
        }
        out.push(row[i].clone());
        i += 1;
    }
    out
}

/// The column a span stands over most; the nearest when it overlaps none.
fn best_overlap(columns: &[Column], s: usize, e: usize) -> Option<usize> {
    let overlap = |c: &Column| e.min(c.end).saturating_sub(s.max(c.start));
    let best = (0..columns.len()).max_by_key(|&i| (overlap(&columns[i]), usize::MAX - i))?;
    if overlap(&columns[best]) > 0 {
        return Some(best);
    }
    let gap = |c: &Column| {
        if e <= c.start {
            c.start - e
        } else {
            s.saturating_sub(c.end)
        }
    };
    (0..columns.len()).min_by_key(|&i| gap(&columns[i]))
}

mod rows;

#[cfg(test)]
mod tests {
    use super::rows::{RowErr, Values};
    use super::*;

    impl Heading {
        fn row_t<'r>(&self, row: &'r str) -> Result<Values<'r>, RowErr> {
            let stations = ["Balham", "Tottenham Court Road", "Swiss Cottage", "Bank"];
            self.row(row, &|s: &str| stations.contains(&s), &|_: &str| false)
        }
    }

    fn head(rows: &[&str]) -> Heading {
        Heading::read(rows).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn the_canonical_heading_and_its_three_rows() {
        let h = head(&[
            "| Player | Home | LV | Ch |        Tokens        |",
            "|        |      |    |    |                      |",
            "|        |      |    |    | Bk Bu Br Go Gr Re Si |",
        ]);
        assert_eq!(h.columns.len(), 5);
        assert_eq!(h.colour_order(), Colour::ALL.to_vec());
        let v = h
            .row_t("| Rushton | Balham | 3 | 17 | 2 0 7 0 4 0 0 |")
            .unwrap();
        assert_eq!(v.get(Field::Lv).unwrap().0, "3");
        assert_eq!(v.get(Field::Count(Colour::Bronze)).unwrap().0, "7");
    }

    #[test]
    fn colours_and_columns_in_any_order() {
        let h = head(&["| Ch | Player | LV | Go Si Br Bk Bu Gr Re | Home |"]);
        let v = h
            .row_t("| 17 | Rushton | 3 | 1 2 3 4 5 6 7 | Balham |")
            .unwrap();
        assert_eq!(v.get(Field::Ch).unwrap().0, "17");
        assert_eq!(v.get(Field::Count(Colour::Gold)).unwrap().0, "1");
        assert_eq!(v.get(Field::Count(Colour::Red)).unwrap().0, "7");
        assert_eq!(v.get(Field::Home).unwrap().0, "Balham");
    }

    #[test]
    fn a_colour_a_cell_and_a_row_split_otherwise() {
        let h = head(&["| Player | Home | LV | Ch | Bk | Bu | Br | Go | Gr | Re | Si |"]);
        assert!(h
            .row_t("| A | Balham | 1 | 2 | 1 | 2 | 3 | 4 | 5 | 6 | 7 |")
            .is_ok());
        let h = head(&["| Player | Home | LV | Ch | Bk Bu Br Go Gr Re Si |"]);
        let v = h
            .row_t("| A | Balham | 1 | 2 | 1 | 2 | 3 | 4 | 5 | 6 | 7 |")
            .unwrap();
        assert_eq!(v.get(Field::Count(Colour::Silver)).unwrap().0, "7");
    }

    #[test]
    fn unknown_missing_or_doubled_headings_are_errors() {
        let e = Heading::read(&["| Player | Home | LV | Ch | Score | Bk Bu Br Go Gr Re Si |"])
            .unwrap_err();
        assert_eq!(e.3, "Score");
        let e = Heading::read(&["| Player | Home | LV | Tokens |"]).unwrap_err();
        assert!(e.2.contains("Ch"), "{e:?}");
        let e = Heading::read(&["| Player | LV | LV | Ch | Bk Bu Br Go Gr Re Si |"]).unwrap_err();
        assert!(e.2.contains("a second LV"), "{e:?}");
        let e = Heading::read(&["| Player | Home | LV | Ch | Bk Bk Br Go Gr Re Si |"]).unwrap_err();
        assert!(e.2.contains("a second Bk"), "{e:?}");
    }

    #[test]
    fn a_table_drawn_with_spaces_reads_by_where_words_stand() {
        let h = head(&["Player      Home                  LV   Ch  Bk Bu Br Go Gr Re Si"]);
        assert!(!h.piped);
        let v = h
            .row_t("Zoë Lyons   Tottenham Court Road   2  -14   6  4  3 12  5  9  1")
            .unwrap();
        assert_eq!(v.get(Field::Player).unwrap().0, "Zoë Lyons");
        assert_eq!(v.get(Field::Home).unwrap().0, "Tottenham Court Road");
        assert_eq!(v.get(Field::Ch).unwrap().0, "-14");
        assert_eq!(v.get(Field::Count(Colour::Gold)).unwrap().0, "12");
        assert_eq!(v.get(Field::Count(Colour::Silver)).unwrap().0, "1");
        assert!(h.row_t("Rushton   Balham   3 17 2 0 7 0 4 0").is_err());
        // Ragged: the words in order, the Home a station.
        let v = h
            .row_t("Lyttelton  Swiss Cottage   2     8    1 3 2 2 4 0 1")
            .unwrap();
        assert_eq!(v.get(Field::Home).unwrap().0, "Swiss Cottage");
        assert_eq!(v.get(Field::Lv).unwrap().0, "2");
        let v = h.row_t("Cryer  1  14 2 8 6 3 1 4 1").unwrap();
        assert_eq!(v.get(Field::Home), None);
        assert_eq!(v.get(Field::Player).unwrap().0, "Cryer");
    }

    #[test]
    fn headings_are_recognised_in_any_layout() {
        assert!(is_heading(
            "| Player | Home | LV | Ch | Bk Bu Br Go Gr Re Si |"
        ));
        assert!(is_heading("| PLAYER | HOME | CHARGE | LV |"));
        assert!(is_heading("Player  Home  LV  Ch  Tokens"));
        assert!(!is_heading("| Rushton | Hats (ACTV) |"));
        assert!(!is_heading("The player at Home sits on LV 3"));
    }
}
