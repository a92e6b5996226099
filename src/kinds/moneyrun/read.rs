//! Orders from a mail body: one action a line (or several, `;` between),
//! short and forgiving, never silently skipped.
//!
//! What is read (the order block):
//! - Quoted lines (`>` first) are not read: they are the mail replied to.
//! - Reading stops at a signature (`--`), at `-----Original Message-----`,
//!   at a line of five or more `_` (Outlook's reply block) and at a line
//!   `On ... wrote:`.
//! - Blank lines are skipped. Above the orders, a line of prose (a
//!   greeting: "Hi all, my turn:") is read past when none of its words is
//!   an order word, one letter from one, or a square: such a line could be
//!   a mistyped order, and is an error naming it. The first order line
//!   begins the block. It runs over order lines and blank lines; a line
//!   of other text right under an order is an error (a mistyped order),
//!   and one after a blank line ends the block (prose after the orders is
//!   ignored). After the block, a line that begins with an order word (or
//!   a word one letter from one) is an error: orders are one block.
//! - Words are read in any case, spaces and commas separate them, a full
//!   stop at the end is dropped, and the filler words `a`, `an`, `the`,
//!   `coin`, `on`, `at`, `onto`, `to`, `from`, `then`, `turn`, `->`, `-`
//!   are skipped where a coin or a square is expected (`place a medium
//!   coin on E4`).
//!
//! Every error gives its line and column (1-based, characters) and the
//! form expected.

use serde::Serialize;
use thiserror::Error;

use super::board::{Coin, Square};
use super::order::{Action, Close, Orders};

/// Every form of order, as an error names them.
pub const FORMS: &str =
    "place <L|M|S|P> <square>, coin <square> <square>, pawn <square> <square>..., pass, end or stalemate";

/// The order words.
pub(crate) const VERBS: [&str; 6] = ["place", "coin", "pawn", "pass", "end", "stalemate"];

const FILLERS: [&str; 13] = [
    "a", "an", "the", "coin", "on", "at", "onto", "to", "from", "then", "turn", "->", "-",
];

/// A mail body that holds no readable orders.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
#[error("line {line}, column {column}: {kind}")]
pub struct ReadError {
    /// The line of the body, 1-based (0: the body as a whole).
    pub line: usize,
    /// The column, 1-based, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

/// What is wrong with a body that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
pub enum ReadErrorKind {
    /// No order at all.
    #[error("no orders: expected {FORMS}")]
    NoOrders,
    /// A word where another was expected.
    #[error("expected {expected}, found {found:?}")]
    Expected {
        /// What was expected there.
        expected: String,
        /// What was there (`""`: the end of the line).
        found: String,
    },
    /// Something after `end`, `pass` or `stalemate`.
    #[error("{found:?} after {close:?}: {close} ends the turn, it comes last")]
    AfterClose {
        /// The closing word.
        close: &'static str,
        /// What followed.
        found: String,
    },
    /// An order after the text that ended the block.
    #[error("an order after the text at line {ended} that ended the orders: orders are one block, expected it above that text or the text removed (found {found:?})")]
    Stray {
        /// The line whose text ended the block.
        ended: usize,
        /// The line's first word.
        found: String,
    },
}

/// A word of a line, with its 1-based column.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    column: usize,
}

/// Splits a segment into words by spaces and commas; `base` is the
/// segment's first column.
fn words(segment: &str, base: usize) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (k, (i, c)) in segment.char_indices().enumerate() {
        let sep = c.is_whitespace() || c == ',';
        match (sep, start) {
            (true, Some((b, col))) => {
                out.push(Word {
                    text: &segment[b..i],
                    column: col,
                });
                start = None;
            }
            (false, None) => start = Some((i, base + k)),
            _ => {}
        }
    }
    if let Some((b, col)) = start {
        out.push(Word {
            text: &segment[b..],
            column: col,
        });
    }
    if let Some(last) = out.last_mut() {
        let t = last.text.trim_end_matches(['.', '!']);
        if !t.is_empty() {
            last.text = t;
        }
    }
    out
}

fn is_verb(word: &str) -> bool {
    VERBS.iter().any(|v| word.eq_ignore_ascii_case(v))
}

/// Whether `word` is an order word or one edit from one (a typo).
fn near_verb(word: &str) -> bool {
    crate::kinds::words::near_verb(word, &VERBS)
}

/// Whether a line above the orders is prose, read past: none of its words
/// is an order word, one letter from one, or a square (any of which could
/// be a mistyped order, never to be skipped silently).
fn is_prose(line: &str) -> bool {
    segments(line)
        .into_iter()
        .flat_map(|(seg, base)| words(seg, base))
        .all(|w| {
            let t = w.text.trim_matches(|c: char| !c.is_ascii_alphanumeric());
            !is_verb(t) && !near_verb(t) && Square::parse(t).is_none()
        })
}

/// The segments of a line (`;` between), each with its first column.
fn segments(line: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut col = 1;
    for part in line.split(';') {
        out.push((part, col));
        col += part.chars().count() + 1;
    }
    out
}

/// Reads the orders of a mail body (see the module's notes for what is
/// read).
pub fn read(body: &str) -> Result<Orders, ReadError> {
    let mut orders = Orders::default();
    let mut started = false;
    let mut gap = false;
    let mut ended: Option<usize> = None;
    for (n, raw) in body.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.trim_start_matches('\u{feff}');
        if line.trim_start().starts_with('>') {
            continue;
        }
        if crate::kinds::words::ends_the_order(line) {
            break;
        }
        if line.trim().is_empty() {
            gap = started;
            continue;
        }
        let Some(first) = segments(line)
            .into_iter()
            .flat_map(|(seg, base)| words(seg, base))
            .next()
        else {
            gap = started;
            continue;
        };
        if let Some(end) = ended {
            if is_verb(first.text) || near_verb(first.text) {
                return Err(err(
                    line_no,
                    first.column,
                    ReadErrorKind::Stray {
                        ended: end,
                        found: first.text.to_string(),
                    },
                ));
            }
            continue;
        }
        if !is_verb(first.text) {
            if !started && is_prose(line) {
                continue;
            }
            if started && gap && !near_verb(first.text) {
                ended = Some(line_no);
                continue;
            }
            return Err(err(
                line_no,
                first.column,
                expected("an order: one of ".to_string() + FORMS, first.text),
            ));
        }
        started = true;
        gap = false;
        for (seg, base) in segments(line) {
            let ws = words(seg, base);
            if ws.is_empty() {
                continue;
            }
            order(&ws, line_no, &mut orders)?;
        }
    }
    if !started {
        return Err(err(0, 0, ReadErrorKind::NoOrders));
    }
    Ok(orders)
}

fn err(line: usize, column: usize, kind: ReadErrorKind) -> ReadError {
    ReadError { line, column, kind }
}

fn expected(what: impl Into<String>, found: &str) -> ReadErrorKind {
    ReadErrorKind::Expected {
        expected: what.into(),
        found: found.to_string(),
    }
}

/// One order (`ws` non-empty) added to `orders`.
fn order(ws: &[Word<'_>], line: usize, orders: &mut Orders) -> Result<(), ReadError> {
    let verb = ws[0].text.to_ascii_lowercase();
    if !is_verb(&verb) {
        return Err(err(
            line,
            ws[0].column,
            expected("an order: one of ".to_string() + FORMS, ws[0].text),
        ));
    }
    if let Some(c) = orders.close {
        return Err(err(
            line,
            ws[0].column,
            ReadErrorKind::AfterClose {
                close: c.word(),
                found: ws[0].text.to_string(),
            },
        ));
    }
    let end_col = ws.last().map_or(1, |w| w.column + w.text.chars().count());
    let mut rest = Args {
        words: ws[1..]
            .iter()
            .filter(|w| !FILLERS.iter().any(|f| w.text.eq_ignore_ascii_case(f))),
        line,
        end_col,
    };
    match verb.as_str() {
        "place" => {
            let coin = rest.coin()?;
            let to = rest.square("the square to place on")?;
            rest.done()?;
            orders.actions.push(Action::Place { coin, to });
        }
        "coin" => {
            let from = rest.square("the square the coin is on")?;
            let to = rest.square("the square the coin goes to")?;
            rest.done()?;
            orders.actions.push(Action::Coin { from, to });
        }
        "pawn" => {
            let mut path = vec![rest.square("a square the pawn steps to")?];
            for w in rest.words.by_ref() {
                path.push(
                    Square::parse(w.text).ok_or_else(|| {
                        err(line, w.column, expected("a square (a1 - i9)", w.text))
                    })?,
                );
            }
            orders.actions.push(Action::Pawn { path });
        }
        word => {
            rest.done()?;
            orders.close = Some(match word {
                "pass" => Close::Pass,
                "end" => Close::End,
                _ => Close::Stalemate,
            });
        }
    }
    Ok(())
}

/// The words after an order's verb, fillers skipped.
struct Args<'a, I: Iterator<Item = &'a Word<'a>>> {
    words: I,
    line: usize,
    end_col: usize,
}

impl<'a, I: Iterator<Item = &'a Word<'a>>> Args<'a, I> {
    fn next(&mut self, what: &str) -> Result<Word<'a>, ReadError> {
        self.words
            .next()
            .copied()
            .ok_or_else(|| err(self.line, self.end_col, expected(what, "")))
    }

    fn coin(&mut self) -> Result<Coin, ReadError> {
        const WHAT: &str = "a coin size: L, M, S or P (large, medium, small, puny)";
        let w = self.next(WHAT)?;
        Coin::parse(w.text).ok_or_else(|| err(self.line, w.column, expected(WHAT, w.text)))
    }

    fn square(&mut self, what: &str) -> Result<Square, ReadError> {
        let what = format!("{what}, a1 - i9");
        let w = self.next(&what)?;
        Square::parse(w.text).ok_or_else(|| err(self.line, w.column, expected(what, w.text)))
    }

    fn done(&mut self) -> Result<(), ReadError> {
        match self.words.next() {
            None => Ok(()),
            Some(w) => Err(err(
                self.line,
                w.column,
                expected(
                    "the end of the order (one order a line, or ; between)",
                    w.text,
                ),
            )),
        }
    }
}
