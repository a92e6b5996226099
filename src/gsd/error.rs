//! The public parse error: where, what was expected, what was found.

use std::fmt;

/// Bad input in a GSD or a Play: never a panic, never a guess.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// 1-based line in the text given to the parser.
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub column: usize,
    /// What the grammar expected there.
    pub expected: String,
    /// What was there instead: the offending text quoted whole up to 72
    /// characters, else cut between words, with ` ...` after the closing
    /// quote.
    pub found: String,
    /// The nearest station names, when a station was not recognised.
    pub suggestions: Vec<String>,
}

impl ParseError {
    pub(crate) fn new(
        line: usize,
        column: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        ParseError {
            line,
            column,
            expected: expected.into(),
            found: found.into(),
            suggestions: Vec::new(),
        }
    }

    pub(crate) fn with_suggestions(mut self, s: Vec<String>) -> ParseError {
        self.suggestions = s;
        self
    }
}

/// The longest quotation of a player's text in an error, in characters:
/// a Play's Move or Action, a box's item, a table's row fit whole.
pub(crate) const QUOTE_MAX: usize = 72;

/// Quotes the text an error found: whole when it is at most [`QUOTE_MAX`]
/// characters; else cut at the last space before the limit (at a character
/// boundary when a single word is longer than half the limit), the quotation
/// closed where it was cut and ` ...` after it, so that the cut is never
/// mistaken for the player's text. Empty text is `the end of the line`.
///
/// `"Goodge Steet (NT) [Blocking Warren Street]"`,
/// `"Rushton : [LV+1] Euston (VC via: CN,NT) [Blocking Warren Street]" ...`
pub(crate) fn quote(text: &str) -> String {
    let s = text.trim();
    if s.is_empty() {
        return "the end of the line".into();
    }
    let Some((end, next)) = s.char_indices().nth(QUOTE_MAX) else {
        return format!("{s:?}");
    };
    let head = &s[..end];
    let head = if next.is_whitespace() {
        head // the limit falls between two words
    } else {
        match head.rfind(char::is_whitespace) {
            Some(space) if head[..space].chars().count() >= QUOTE_MAX / 2 => &head[..space],
            _ => head,
        }
    };
    format!("{:?} ...", head.trim_end())
}

impl fmt::Display for ParseError {
    /// `12:9: expected ..., found "..." (did you mean Euston, Euston Square?)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: expected {}, found {}",
            self.line, self.column, self.expected, self.found
        )?;
        if !self.suggestions.is_empty() {
            write!(f, " (did you mean {}?)", self.suggestions.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(quote("  Goodge Steet (NT)  "), "\"Goodge Steet (NT)\"");
        assert_eq!(quote(" "), "the end of the line");
        let exact = "x".repeat(QUOTE_MAX);
        assert_eq!(quote(&exact), format!("{exact:?}"));
    }

    #[test]
    fn long_text_is_cut_between_words_with_an_ellipsis_outside_the_quotes() {
        let play = "Rushton : [LV+1] Goodge Steet (NT) [Blocking Warren Street] [Claiming a Gold Token from Euston]";
        let q = quote(play);
        assert_eq!(
            q,
            "\"Rushton : [LV+1] Goodge Steet (NT) [Blocking Warren Street] [Claiming a\" ..."
        );
        let inner = q.trim_end_matches(" ...").trim_matches('"');
        assert!(play.starts_with(inner) && inner.chars().count() <= QUOTE_MAX);
        assert!(play[inner.len()..].starts_with(' '), "never mid-word");
    }

    #[test]
    fn a_cut_at_the_limit_between_words_keeps_the_last_word() {
        let word = "a".repeat(QUOTE_MAX - 1);
        assert_eq!(
            quote(&format!("{word}b next")),
            format!("{:?} ...", format!("{word}b"))
        );
        assert_eq!(quote(&format!("{word} next")), format!("{word:?} ..."));
    }

    #[test]
    fn one_long_word_is_cut_at_a_char_boundary() {
        // Two-byte characters: a byte cut would split one and panic.
        let word = "é".repeat(QUOTE_MAX * 2);
        let q = quote(&word);
        assert_eq!(q, format!("{:?} ...", "é".repeat(QUOTE_MAX)));
        // A short first word and then one long one: cut inside the long
        // word rather than quote a single short word.
        let q = quote(&format!("at {}", "ü".repeat(200)));
        assert_eq!(q.chars().filter(|c| *c == 'ü').count(), QUOTE_MAX - 3);
    }
}
