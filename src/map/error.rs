//! Errors of the map module.

use std::fmt;

/// One thing wrong with a map file: where, which station, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file (or `<embedded>` origin) the data came from.
    pub file: String,
    /// 1-based line in that file.
    pub line: usize,
    /// The station concerned, when there is one.
    pub station: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(station) = &self.station {
            write!(f, "station {station:?}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// A map file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The file is not valid TOML or does not have the map's shape.
    #[error("{file}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// The parser's message, with line and column.
        message: String,
    },
    /// The file parses but its data is inconsistent; every problem found.
    #[error("{}", join(.0))]
    Invalid(Vec<Problem>),
}

fn join(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(Problem::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A station name that is not on the map, with the nearest names that are.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown station {name:?}{}", suggest(.suggestions))]
pub struct UnknownStation {
    /// The name as given.
    pub name: String,
    /// The nearest station names, best first (at most five).
    pub suggestions: Vec<String>,
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", s.join(", "))
    }
}
