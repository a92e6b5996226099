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
    /// What was there instead (quoted, shortened).
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
