//! The Token Stacks box (Rule 1.14.1): each stack a station (with its
//! Quadrant, Rule 1.4.19) and its tokens bottom to top, as two-letter
//! codes.
//!
//! A row holds one stack or several side by side (`quirk-packed-stacks`:
//! `| Euston | ReSi | Morden | BkBkBk | Bank | GoGo |`, with empty cells
//! where the count does not divide evenly). A row without `|` (one-line and
//! borderless boxes) holds stacks separated by `;`, each a station and its
//! tokens (`Euston ReSi; Bank 2Go`). A count before a code repeats it
//! (`quirk-stack-runs`: `3BuRe` is `BuBuBuRe`).

use super::*;

/// The most tokens a run (`3Bu`) may repeat.
const MAX_RUN: usize = 99;
/// The most tokens a stack may hold: far beyond any game (six, or more at
/// Mornington Crescent, Seven Sisters and Euston, Rule 1.14.3).
const MAX_STACK: usize = 999;

const TOKENS: &str =
    "tokens bottom to top, as two-letter codes such as `BrSiGo` or `3Bu 1Re` (Rule 1.14.1)";

/// A stack's station and tokens, as written: either may be missing.
pub(super) type Piece<'t> = (Option<&'t str>, Option<&'t str>);

/// tokens = { [ count ] , colour-code }, bottom to top; spaces and commas
/// between codes are allowed, and a count repeats its code
/// (quirk-stack-runs).
pub(super) fn stack_tokens(s: &str) -> Option<Vec<Colour>> {
    let compact: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    if !compact.is_ascii() {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < compact.len() {
        let digits = compact[i..].bytes().take_while(u8::is_ascii_digit).count();
        let n = if digits == 0 {
            1
        } else {
            compact[i..i + digits]
                .parse()
                .ok()
                .filter(|n| (1..=MAX_RUN).contains(n))?
        };
        i += digits;
        let colour = Colour::parse(compact.get(i..i + 2)?)?;
        if out.len() + n > MAX_STACK {
            return None;
        }
        out.extend(std::iter::repeat_n(colour, n));
        i += 2;
    }
    Some(out)
}

/// A word that is tokens (`BrSiGo`, `3Bu`, `Re,`) or part of a marker
/// (`Susp Package`, Rule 1.4.7), not part of a name.
fn is_tokens(word: &str) -> bool {
    stack_tokens(word).is_some_and(|t| !t.is_empty()) || StackMarker::is_word(word)
}

/// One entry of the Token Stacks box: Tokens, or a marker such as a
/// Suspect Package (Rule 1.4.7).
pub(super) enum Entry {
    /// A Stack of Tokens.
    Tokens(Stack),
    /// A marker at a Station.
    Marked(Marked),
}

/// Splits text into stacks: runs of name words, each followed by its run
/// of token words (`Dollis Hill (2) BrSiGo Euston ReSi`). A `:`, `-` or
/// `=` between a name and its tokens is a separator. The pieces are
/// slices of `text`, so that errors point into the line.
pub(super) fn split_stacks(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut name: Option<(usize, usize)> = None;
    let mut toks: Option<(usize, usize)> = None;
    let slice = |r: Option<(usize, usize)>| r.map(|(a, b)| &text[a..b]);
    let mut at = 0;
    for word in text.split_whitespace() {
        let start = at + text[at..].find(word).unwrap_or(0);
        at = start + word.len();
        if matches!(word, ":" | "-" | "=" | "|") {
            continue;
        }
        if is_tokens(word) {
            toks = Some((toks.map_or(start, |t| t.0), at));
            continue;
        }
        if toks.is_some() {
            out.push((slice(name), slice(toks)));
            toks = None;
            name = None;
        }
        let end = if word.ends_with(':') { at - 1 } else { at };
        name = Some((name.map_or(start, |n| n.0), end));
    }
    if name.is_some() || toks.is_some() {
        out.push((slice(name), slice(toks)));
    }
    out
}

/// A heading row of a Token Stacks table: `| Station | Tokens |`, repeated
/// when packed (quirk-packed-stacks).
pub(super) fn is_heading_row(cells: &[&str]) -> bool {
    let words: Vec<String> = cells
        .iter()
        .filter(|c| !c.is_empty())
        .map(|c| c.to_lowercase())
        .collect();
    !words.is_empty()
        && words
            .iter()
            .all(|w| w.starts_with("station") || w.starts_with("stack") || w.starts_with("token"))
}

/// A station's name without its Quadrant: `Dollis Hill (2)` is `Dollis Hill`.
pub(super) fn strip_quadrant(s: &str) -> &str {
    let t = s.trim_end();
    if let Some(open) = t.rfind('(') {
        let inner = &t[open + 1..];
        if inner.ends_with(')')
            && inner[..inner.len() - 1]
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '/' || c == ' ')
        {
            return t[..open].trim_end();
        }
    }
    t
}

impl<'a> Doc<'a> {
    /// stacks = { stack-row }
    ///
    /// The Stacks of Tokens, then the markers (Rule 1.4.7), each in the
    /// order written.
    pub(super) fn stacks(
        &self,
        rows: &[(&'a Line, String)],
    ) -> Result<(Vec<Stack>, Vec<Marked>), ParseError> {
        let mut out = Vec::new();
        for (line, row) in rows {
            self.stack_row(line, row, &mut out)?;
        }
        let mut stacks = Vec::new();
        let mut marked = Vec::new();
        for e in out {
            match e {
                Entry::Tokens(s) => stacks.push(s),
                Entry::Marked(m) => marked.push(m),
            }
        }
        Ok((stacks, marked))
    }

    /// stack-row = "|" , stack-cells , { "|" , stack-cells } , [ "|" ]
    ///           | stack , { ";" , stack }
    ///
    /// A station's tokens are in its own cell or the next one; a station
    /// with an empty cell after it, or at the end of its row, holds none.
    /// Two stations side by side is an error, not a guess.
    fn stack_row(&self, line: &Line, row: &str, out: &mut Vec<Entry>) -> Result<(), ParseError> {
        let piped = row.contains('|');
        let fields: Vec<&str> = if piped {
            cells(row)
        } else {
            row.split(';').map(str::trim).collect()
        };
        if piped && is_heading_row(&fields) {
            return Ok(());
        }
        let mut pending: Option<&str> = None;
        for field in fields {
            if field.is_empty() {
                if let Some(name) = pending.take() {
                    out.push(self.stack(line, name, "")?);
                }
                continue;
            }
            for piece in split_stacks(field) {
                match piece {
                    (None, Some(toks)) => match pending.take() {
                        Some(name) => out.push(self.stack(line, name, toks)?),
                        None => {
                            return Err(self.err_at(
                                line,
                                Self::col_of(line, toks),
                                "a station before its tokens (Rule 1.14.1)",
                                toks,
                            ))
                        }
                    },
                    (Some(name), toks) => {
                        if pending.is_some() {
                            return Err(self.err_at(line, Self::col_of(line, name), TOKENS, name));
                        }
                        match toks {
                            Some(toks) => out.push(self.stack(line, name, toks)?),
                            None => pending = Some(name),
                        }
                    }
                    (None, None) => {}
                }
            }
            if !piped {
                if let Some(name) = pending.take() {
                    out.push(self.stack(line, name, "")?);
                }
            }
        }
        if let Some(name) = pending {
            out.push(self.stack(line, name, "")?);
        }
        Ok(())
    }

    /// stack = station , [ "(" , digit , ")" ] , ( tokens | marker )
    fn stack(&self, line: &Line, name: &str, toks: &str) -> Result<Entry, ParseError> {
        let st = station(strip_quadrant(name), self.map).map_err(|StationErr(m, s)| {
            // "Morden BkXx": a station, then tokens miswritten.
            if let Some((head, last)) = name.rsplit_once(' ') {
                if station_quiet(strip_quadrant(head), self.map).is_some() {
                    return self.err_at(
                        line,
                        Self::col_of(line, name) + head.chars().count() + 1,
                        TOKENS,
                        last,
                    );
                }
            }
            self.err_at(line, Self::col_of(line, name), m, name)
                .with_suggestions(s)
        })?;
        let marker = StackMarker::parse(toks);
        let tokens = match marker {
            Some(_) => Vec::new(),
            None => stack_tokens(toks)
                .ok_or_else(|| self.err_at(line, Self::col_of(line, toks), TOKENS, toks))?,
        };
        // `station` also accepts Ghost Stations, which are not
        // stations of the map and hold no Token Stack (Rule 1.11.6).
        let Some(id) = self.map.find(&st) else {
            return Err(self.err_at(
                line,
                Self::col_of(line, name),
                "a station of the map (a Ghost Station holds no Token Stack)",
                name,
            ));
        };
        let quadrants = self.map.station(id).quadrants.clone();
        Ok(match marker {
            Some(marker) => Entry::Marked(Marked {
                station: st,
                quadrants,
                marker,
            }),
            None => Entry::Tokens(Stack {
                station: st,
                quadrants,
                tokens,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_repeat_a_code_bottom_to_top() {
        use Colour::*;
        assert_eq!(stack_tokens("BrSiGo"), Some(vec![Bronze, Silver, Gold]));
        assert_eq!(stack_tokens("3Bu 1Re"), Some(vec![Blue, Blue, Blue, Red]));
        assert_eq!(stack_tokens("2Go,Re"), Some(vec![Gold, Gold, Red]));
        assert_eq!(stack_tokens(""), Some(vec![]));
        for bad in ["0Bu", "100Bu", "3", "Bux", "Green", "3 Bu Re é"] {
            assert_eq!(stack_tokens(bad), None, "{bad}");
        }
        assert_eq!(stack_tokens(&"99Bu".repeat(11)), None, "too many tokens");
    }

    #[test]
    fn text_splits_into_stations_and_their_tokens() {
        assert_eq!(
            split_stacks("Dollis Hill (2) BrSiGo Euston: Re Si"),
            vec![
                (Some("Dollis Hill (2)"), Some("BrSiGo")),
                (Some("Euston"), Some("Re Si"))
            ]
        );
        assert_eq!(
            split_stacks("Euston - 3Bu 1Re"),
            vec![(Some("Euston"), Some("3Bu 1Re"))]
        );
        assert_eq!(
            split_stacks("Seven Sisters"),
            vec![(Some("Seven Sisters"), None)]
        );
        assert_eq!(split_stacks("GoGo"), vec![(None, Some("GoGo"))]);
        // A Suspect Package is a Stack's text, not a name (Rule 1.4.7).
        assert_eq!(
            split_stacks("Euston Susp Package Bank 2Go"),
            vec![
                (Some("Euston"), Some("Susp Package")),
                (Some("Bank"), Some("2Go"))
            ]
        );
        assert_eq!(split_stacks("  "), vec![]);
    }

    #[test]
    fn heading_rows() {
        assert!(is_heading_row(&["Station", "Tokens", "", ""]));
        assert!(is_heading_row(&["Stack", "Tokens (bottom to top)"]));
        assert!(!is_heading_row(&["Stanmore", "Tokens"]));
        assert!(!is_heading_row(&["", ""]));
    }
}
