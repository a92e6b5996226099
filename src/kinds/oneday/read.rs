//! An order from a mail body (RULINGS OD5, OD6, OD13): strict, never a
//! default.
//!
//! The forms: `PLACE <slot>`, `DRAW`, `TAKE <pile> [PUT <slot>] DISCARD
//! <pile>`, `[PUT <slot>] DISCARD <pile>`, `STALEMATE`. Words are read in
//! any case; spaces, commas and `;` separate them; a full stop or `!` at a
//! word's end is dropped; the filler words `pile`, `slot`, `from`, `into`,
//! `in`, `onto`, `on`, `to`, `and`, `then`, `the`, `it`, `card` are
//! skipped (`take from pile 1, put it in slot 4, discard onto pile 3`).
//! The parts of an order may be on one line or on consecutive lines.
//!
//! What is read:
//! - Quoted lines (`>` first) are not read; reading stops at a signature
//!   (`--`), at `-----Original Message-----`, at a line of five or more
//!   `_` and at a line `On ... wrote:`.
//! - Above the order, a line of prose (a greeting) is read past only when
//!   none of its words is an order word, one letter from one, or a
//!   number: such a line could be a mistyped order and is an error.
//! - The order is one block of consecutive lines, each beginning with an
//!   order word. A blank line ends it; text after it is ignored unless a
//!   line of it begins with an order word (or one letter from one), which
//!   is an error: the order is one block.
//! - One order a mail: `DRAW` and `PLACE` come alone (the next card is not
//!   known yet), and nothing follows `DISCARD <pile>` or `STALEMATE`.

use thiserror::Error;

use super::order::Order;

/// The forms of an order, as an error names them.
pub const FORMS: &str = "PLACE <slot>, DRAW, TAKE <pile> [PUT <slot>] DISCARD <pile>, [PUT <slot>] DISCARD <pile> or STALEMATE";

pub(crate) const VERBS: [&str; 6] = ["place", "draw", "take", "put", "discard", "stalemate"];

const FILLERS: [&str; 13] = [
    "pile", "slot", "from", "into", "in", "onto", "on", "to", "and", "then", "the", "it", "card",
];

/// A mail body that holds no readable order.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{text}")]
pub struct ReadError {
    /// The line of the body, 1-based (0: the mail as a whole).
    pub line: usize,
    /// What is wrong, naming the line and what was expected.
    pub text: String,
}

fn err(line: usize, text: String) -> ReadError {
    let text = if line == 0 {
        text
    } else {
        format!("line {line}: {text}")
    };
    ReadError { line, text }
}

/// The words of a line.
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|w| w.trim_end_matches(['.', '!']))
        .filter(|w| !w.is_empty())
        .collect()
}

fn is_verb(word: &str) -> bool {
    VERBS.iter().any(|v| word.eq_ignore_ascii_case(v))
}

/// Whether `word` is an order word or one edit from one (a typo).
fn near_verb(word: &str) -> bool {
    crate::kinds::words::near_verb(word, &VERBS)
}

/// Whether a line above the order is prose to read past.
fn is_prose(line: &str) -> bool {
    words(line).iter().all(|w| {
        let t = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        !near_verb(t) && !t.chars().any(|c| c.is_ascii_digit())
    })
}

/// The words of the order block, each with its line.
fn block(body: &str) -> Result<Vec<(String, usize)>, ReadError> {
    let mut out = Vec::new();
    let mut started = false;
    let mut ended = false;
    for (n, raw) in body.lines().enumerate() {
        let no = n + 1;
        let line = raw.trim_start_matches('\u{feff}');
        if line.trim_start().starts_with('>') {
            continue;
        }
        if crate::kinds::words::ends_the_order(line) {
            break;
        }
        let ws = words(line);
        let Some(first) = ws.first() else {
            ended = started;
            continue;
        };
        if ended {
            if near_verb(first) {
                return Err(err(
                    no,
                    format!("{first:?} after the blank line that ended the order: the order is one block, expected it above or this line removed"),
                ));
            }
            continue;
        }
        if !is_verb(first) {
            if !started && is_prose(line) {
                continue;
            }
            return Err(err(
                no,
                format!("expected an order: {FORMS}; found {first:?}"),
            ));
        }
        started = true;
        out.extend(
            ws.iter()
                .filter(|w| !FILLERS.iter().any(|f| w.eq_ignore_ascii_case(f)))
                .map(|w| (w.to_ascii_lowercase(), no)),
        );
    }
    if !started {
        return Err(err(0, format!("no order: expected {FORMS}")));
    }
    Ok(out)
}

/// A cursor over the block's words.
struct Words {
    words: Vec<(String, usize)>,
    at: usize,
}

impl Words {
    fn peek(&self) -> Option<&str> {
        self.words.get(self.at).map(|w| w.0.as_str())
    }

    /// The line of the current word (or of the last one at the end).
    fn line(&self) -> usize {
        self.words
            .get(self.at)
            .or(self.words.last())
            .map_or(0, |w| w.1)
    }

    fn found(&self) -> String {
        self.peek()
            .map_or("the end of the order".to_string(), |w| format!("{w:?}"))
    }

    /// A number `1..=max` after `verb`.
    fn number(&mut self, verb: &str, what: &str, max: u8) -> Result<u8, ReadError> {
        let n = self.peek().and_then(|w| w.parse::<u8>().ok());
        match n {
            Some(n) if (1..=max).contains(&n) => {
                self.at += 1;
                Ok(n)
            }
            _ => Err(err(
                self.line(),
                format!(
                    "expected {what} (1 - {max}) after {verb}, found {}",
                    self.found()
                ),
            )),
        }
    }

    /// Whether the next word is `verb` (taken if so).
    fn take(&mut self, verb: &str) -> bool {
        if self.peek() == Some(verb) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Nothing may follow; `why` says why.
    fn end(&self, why: &str) -> Result<(), ReadError> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(err(self.line(), format!("{w:?} after the order: {why}"))),
        }
    }
}

/// `[PUT <slot>] DISCARD <pile>`, after TAKE or alone.
fn put_discard(ws: &mut Words, after: &str) -> Result<(Option<u8>, u8), ReadError> {
    let put = if ws.take("put") {
        Some(ws.number("PUT", "a slot", 10)?)
    } else {
        None
    };
    if !ws.take("discard") {
        let expected = if put.is_some() {
            "DISCARD <pile>"
        } else {
            "PUT <slot> or DISCARD <pile>"
        };
        return Err(err(
            ws.line(),
            format!("expected {expected} after {after}, found {}", ws.found()),
        ));
    }
    let discard = ws.number("DISCARD", "a pile", 3)?;
    ws.end("DISCARD <pile> ends the turn, it comes last")?;
    Ok((put, discard))
}

/// Reads the order of a mail body (see the module's notes); never
/// [`Order::Timeout`].
pub fn read(body: &str) -> Result<Order, ReadError> {
    let mut ws = Words {
        words: block(body)?,
        at: 0,
    };
    let verb = ws.peek().unwrap_or_default().to_string();
    ws.at += 1;
    match verb.as_str() {
        "place" => {
            let slot = ws.number("PLACE", "a slot", 10)?;
            ws.end("one PLACE a mail: your next card is not known yet")?;
            Ok(Order::Place(slot))
        }
        "draw" => {
            ws.end("DRAW comes alone: the card is not known yet; send PUT <slot> DISCARD <pile> or DISCARD <pile> once it is")?;
            Ok(Order::Draw)
        }
        "stalemate" => {
            ws.end("STALEMATE comes alone")?;
            Ok(Order::Stalemate)
        }
        "take" => {
            let pile = ws.number("TAKE", "a pile", 3)?;
            let (put, discard) = put_discard(&mut ws, "TAKE <pile>")?;
            Ok(Order::Take { pile, put, discard })
        }
        _ => {
            ws.at -= 1;
            let (put, discard) = put_discard(&mut ws, "the start of the order")?;
            Ok(Order::Finish { put, discard })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form_in_any_case_over_lines() {
        assert_eq!(read("place 7"), Ok(Order::Place(7)));
        assert_eq!(read("Hi all,\n\nDraw.\n\nCheers"), Ok(Order::Draw));
        assert_eq!(
            read("take from pile 1\nput it in slot 4\ndiscard onto pile 3"),
            Ok(Order::Take {
                pile: 1,
                put: Some(4),
                discard: 3
            })
        );
        assert_eq!(
            read("TAKE 2, DISCARD 2"),
            Ok(Order::Take {
                pile: 2,
                put: None,
                discard: 2
            })
        );
        assert_eq!(
            read("put 10 discard 1"),
            Ok(Order::Finish {
                put: Some(10),
                discard: 1
            })
        );
        assert_eq!(read("> draw\nstalemate\n-- \n"), Ok(Order::Stalemate));
    }

    #[test]
    fn refuses_what_it_cannot_place() {
        let e = read("draw put 3 discard 1").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.text.contains("not known yet"), "{e}");
        assert!(read("place 3\nplace 4")
            .unwrap_err()
            .text
            .contains("one PLACE"));
        assert_eq!(read("Hello").unwrap_err().line, 0);
        let e = read("Hi\ntkae 1 discard 2").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.text.starts_with("line 2: expected an order"), "{e}");
        assert_eq!(read("take 4 discard 1").unwrap_err().line, 1);
        assert!(read("put 11 discard 1").is_err());
        assert!(read("take 1 put 3")
            .unwrap_err()
            .text
            .contains("DISCARD <pile>"));
        let e = read("discard 1\n\nthanks\nput 3").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(read("discard 1\n\nthanks, see you").is_ok());
        assert!(read("take 1\nbut wait\ndiscard 2").is_err());
        assert!(read("I pick 3\ndraw").is_err());
    }
}
