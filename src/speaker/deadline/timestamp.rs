//! Reading a deadline's input: an RFC 3339 timestamp, and why a text is
//! not one.

use super::*;

/// What went wrong reading a deadline's input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeadlineError {
    /// The text is not an RFC 3339 timestamp.
    #[error(
        "not an RFC 3339 timestamp: \"{input}\" ({reason}); \
         write e.g. 2026-01-16T10:00:00Z or 2026-01-16T11:00:00+01:00"
    )]
    BadTimestamp {
        /// The text given.
        input: String,
        /// Why it was refused.
        reason: String,
    },
    /// The text names no kind of deadline.
    #[error("unknown deadline kind \"{input}\": expected turn, buzz or judgment")]
    UnknownKind {
        /// The text given.
        input: String,
    },
}

/// Reads an RFC 3339 timestamp with any UTC offset and converts it to UTC
/// (RULINGS S9): `2026-01-16T10:00:00Z`, `2026-01-16T11:00:00+01:00`,
/// `2026-01-16T10:00:00.250-00:00`. As RFC 3339 allows, `T` and `Z` may be
/// lower case and a space may separate date and time. A leap second
/// (`23:59:60Z`) is read as the first second of the next minute.
///
/// Everything else is refused with [`DeadlineError::BadTimestamp`], saying why:
/// a timestamp without an offset, a date alone, an RFC 2822 mail date, Unix
/// seconds, surrounding white space, an impossible date.
pub fn parse_timestamp(s: &str) -> Result<DateTime<Utc>, DeadlineError> {
    match DateTime::parse_from_rfc3339(s) {
        Ok(t) => {
            let utc = t.with_timezone(&Utc);
            Ok(from_nanos(to_nanos(utc)).unwrap_or(utc))
        }
        Err(e) => Err(DeadlineError::BadTimestamp {
            input: s.to_string(),
            reason: why_not_rfc3339(s, e),
        }),
    }
}

/// The reason given when `s` is not RFC 3339: the common mistakes by name,
/// otherwise chrono's own words.
fn why_not_rfc3339(s: &str, e: chrono::ParseError) -> String {
    let reason = if s.trim().is_empty() {
        "empty"
    } else if s.trim() != s {
        "white space around it"
    } else if [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ]
    .iter()
    .any(|f| NaiveDateTime::parse_from_str(s, f).is_ok())
    {
        "no UTC offset: end it with Z or an offset such as +01:00"
    } else if NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok() {
        "a date without a time of day and offset"
    } else if DateTime::parse_from_rfc2822(s).is_ok() {
        "an RFC 2822 mail date, not RFC 3339"
    } else {
        return e.to_string();
    };
    reason.to_string()
}
