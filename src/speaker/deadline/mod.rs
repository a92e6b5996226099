//! Deadline arithmetic for the Speaker (Rules 1.1.10, 1.3.5, 1.16.3, 1.16.4).
//!
//! Every function here is pure: the instant it works from is passed in, nothing
//! reads a clock. "GMT" in the rules is read as UTC, with no summer time ever
//! (RULINGS S1): a deadline is the same instant wherever the players live.
//!
//! # Counted time (Rule 1.3.5)
//!
//! "Saturdays and Sundays are ignored for the purposes of this rule." The time
//! that *counts* is the time from Monday 00:00:00 UTC (inclusive) to the
//! following Saturday 00:00:00 UTC (exclusive); the weekend, from Saturday
//! 00:00:00 to Monday 00:00:00, does not count. [`counted_between`] measures
//! counted time, [`add_counted`] and [`sub_counted`] move along it; they work
//! to the nanosecond.
//!
//! # Deadlines are inclusive (RULINGS S3)
//!
//! A deadline is the instant at which the period has fully elapsed. Something
//! done *at* the deadline is in time; the period has run out only strictly
//! after it ([`is_overdue`]).
//!
//! ```
//! use chrono::{SecondsFormat, TimeZone, Utc};
//! use mornbot::speaker::deadline::{deadline, parse_timestamp, turn_deadline, Kind};
//!
//! // Rule 1.3.5's own example: a Turn submitted at 10am on Friday...
//! let friday = Utc.with_ymd_and_hms(2026, 1, 16, 10, 0, 0).unwrap();
//! // ... leaves the next Player until 10pm on Monday.
//! let monday = Utc.with_ymd_and_hms(2026, 1, 19, 22, 0, 0).unwrap();
//! assert_eq!(turn_deadline(friday), monday);
//!
//! // What `mornbot deadline --kind turn 2026-01-16T11:00:00+01:00` prints.
//! let at = parse_timestamp("2026-01-16T11:00:00+01:00").unwrap();
//! let due = deadline(Kind::Turn, at).to_rfc3339_opts(SecondsFormat::Secs, true);
//! assert_eq!(due, "2026-01-19T22:00:00Z");
//! ```

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Duration, Months, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

/// The time a Player has to submit eir Turn: 36 counted hours (Rule 1.3.5).
pub const TURN_PERIOD: Duration = Duration::hours(36);

/// The time to concede or contest a Buzz, and to concede or contest the
/// defence: thirty-six hours, weekends included (Rule 1.16.3, RULINGS S4).
pub const BUZZ_RESPONSE_PERIOD: Duration = Duration::hours(36);

/// The time a Referee has to pass Judgment: three days of 24 hours, weekends
/// included (Rule 1.16.4, RULINGS S5).
pub const JUDGMENT_PERIOD: Duration = Duration::hours(72);

/// How long before a Turn's deadline, in counted time, the private reminder
/// goes out unless the configuration says otherwise (RULINGS S6).
pub const DEFAULT_REMINDER: Duration = Duration::hours(12);

/// The period of inactivity after which a Player is considered to have
/// Resigned: two calendar months (Rule 1.1.10, RULINGS S7).
pub const RESIGNATION_MONTHS: u32 = 2;

mod counted;
#[cfg(test)]
mod tests;
mod timestamp;

pub use counted::{add_counted, counted_between, sub_counted};
use counted::{from_nanos, to_nanos, OUT_OF_RANGE};
pub use timestamp::{parse_timestamp, DeadlineError};

/// The deadline for the next Turn after a Turn submitted at `submitted`
/// (Rule 1.3.5, "Timing is Everything").
///
/// "Players have 36 hours to submit eir Turn, starting from the time the
/// previous Turn was submitted. Saturdays and Sundays are ignored [...] if a
/// Player submits a Turn at 10am on Friday, the next Player has until 10pm on
/// Monday [...] A Player may still submit eir Turn at the weekend, in which
/// case the 36 hours start at 0000GMT Monday."
///
/// The deadline is the earliest instant by which 36 hours of Monday-to-Friday
/// time (UTC) have elapsed since `submitted` ([`add_counted`] with
/// [`TURN_PERIOD`]):
/// - 10:00 Friday gives 22:00 Monday (the rule's example);
/// - any instant from Saturday 00:00 to Monday 00:00 gives 12:00 Tuesday;
/// - 18:00 Thursday gives 06:00 Monday (6 + 24 hours before the weekend, 6 after);
/// - 12:00 Thursday gives 00:00 Saturday exactly (RULINGS S2), the only way a
///   deadline lands on a weekend; a deadline is never 00:00 Monday.
///
/// A Turn submitted at the deadline is in time; a Timeout may be submitted
/// only after it (RULINGS S3, [`is_overdue`]).
///
/// # Panics
///
/// Only beyond chrono's range (see [`add_counted`]).
pub fn turn_deadline(submitted: DateTime<Utc>) -> DateTime<Utc> {
    add_counted(submitted, TURN_PERIOD)
}

/// When the private reminder for a Turn due at `deadline` goes out: `before`
/// earlier in counted time (Rule 1.3.5's clock, weekends skipped), so the
/// reminder leaves the player `before` of the counted time that remains.
///
/// Counting back follows [`sub_counted`]: 12 hours before 06:00 Monday is
/// 18:00 Friday, and 12 hours before 12:00 Monday is 00:00 Monday (not 00:00
/// Saturday), so a reminder never falls on a weekend. A negative `before`
/// counts as zero (the reminder goes out at the deadline).
///
/// `None` when that instant is not strictly after `submitted` (the previous
/// Turn): the player has less than `before` of counted time from the start,
/// and gets no reminder (RULINGS S6). Use [`DEFAULT_REMINDER`] for `before`
/// unless configured otherwise.
pub fn reminder_at(
    deadline: DateTime<Utc>,
    before: Duration,
    submitted: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let at = sub_counted(deadline, before);
    (at > submitted).then_some(at)
}

/// The deadline to answer a Buzz or a defence posted at `at` (Rule 1.16.3,
/// "Questionable Turns"): thirty-six hours, weekends included.
///
/// The Buzzed Player has until then to concede or contest the Buzz (counted
/// from the Buzz), the Buzzing Player to concede or contest the defence
/// (counted from the contest). Rule 1.3.5 ignores weekends only "for the
/// purposes of this rule", so every hour counts here (RULINGS S4).
///
/// # Panics
///
/// Only beyond chrono's range (after the year 262000).
pub fn buzz_response_deadline(at: DateTime<Utc>) -> DateTime<Utc> {
    at.checked_add_signed(BUZZ_RESPONSE_PERIOD)
        .expect(OUT_OF_RANGE)
}

/// The deadline for a Referee selected at `at` to pass Judgment (Rule 1.16.4,
/// "Prepare to be Judged": "within three days of being selected"): 72 hours
/// after the selection, weekends included (RULINGS S5). After it another
/// Referee is drawn ([`crate::speaker::referee::draw_referee`]).
///
/// # Panics
///
/// Only beyond chrono's range (after the year 262000).
pub fn judgment_deadline(at: DateTime<Utc>) -> DateTime<Utc> {
    at.checked_add_signed(JUDGMENT_PERIOD).expect(OUT_OF_RANGE)
}

/// When a Player whose last move in a Game was at `last_move` is considered to
/// have Resigned (Rule 1.1.10, "Timeout On The Grand Scale": "does not play a
/// single move [...] for a period of two calendar months").
///
/// Two calendar months later in UTC, same time of day, same day of the month;
/// when that month is shorter, the last day of that month (chrono's
/// `checked_add_months`): 31 December gives 28 February (29 in a leap year),
/// 31 August gives 31 October, 31 July gives 30 September (RULINGS S7). A move
/// at that instant still counts; the Player has Resigned once it has passed
/// ([`is_overdue`]). A Timeout played on the Player's behalf is not eir move.
///
/// # Panics
///
/// Only beyond chrono's range (after the year 262000).
pub fn resignation_due(last_move: DateTime<Utc>) -> DateTime<Utc> {
    last_move
        .checked_add_months(Months::new(RESIGNATION_MONTHS))
        .expect(OUT_OF_RANGE)
}

/// Whether the period ending at `deadline` has run out at `now`: strictly
/// after the deadline. Something done at the deadline itself is in time
/// (RULINGS S3).
pub fn is_overdue(deadline: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now > deadline
}

/// The kinds of deadline the Speaker keeps, as named on the command line
/// (`mornbot deadline --kind turn|buzz|judgment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The next Turn, 36 counted hours (Rule 1.3.5, [`turn_deadline`]).
    Turn,
    /// An answer to a Buzz or a defence, 36 hours (Rule 1.16.3,
    /// [`buzz_response_deadline`]).
    Buzz,
    /// A Referee's Judgment, three days (Rule 1.16.4, [`judgment_deadline`]).
    Judgment,
}

impl Kind {
    /// Every kind, in command-line order.
    pub const ALL: [Kind; 3] = [Kind::Turn, Kind::Buzz, Kind::Judgment];

    /// The command-line name: `turn`, `buzz` or `judgment`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Turn => "turn",
            Kind::Buzz => "buzz",
            Kind::Judgment => "judgment",
        }
    }

    /// The rule that sets this deadline, e.g. `"1.3.5"`.
    pub fn rule(self) -> &'static str {
        match self {
            Kind::Turn => "1.3.5",
            Kind::Buzz => "1.16.3",
            Kind::Judgment => "1.16.4",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = DeadlineError;

    /// `turn`, `buzz` or `judgment`, in any ASCII case.
    fn from_str(s: &str) -> Result<Kind, DeadlineError> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| DeadlineError::UnknownKind {
                input: s.to_string(),
            })
    }
}

/// The deadline of kind `kind` for a period starting at `at`: what
/// `mornbot deadline --kind KIND TIMESTAMP` prints. [`Kind::Turn`] gives
/// [`turn_deadline`] (Rule 1.3.5), [`Kind::Buzz`] [`buzz_response_deadline`]
/// (Rule 1.16.3), [`Kind::Judgment`] [`judgment_deadline`] (Rule 1.16.4).
///
/// # Panics
///
/// Only beyond chrono's range (after the year 262000).
pub fn deadline(kind: Kind, at: DateTime<Utc>) -> DateTime<Utc> {
    match kind {
        Kind::Turn => turn_deadline(at),
        Kind::Buzz => buzz_response_deadline(at),
        Kind::Judgment => judgment_deadline(at),
    }
}
