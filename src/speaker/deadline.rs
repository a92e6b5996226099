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

const NANOS_PER_SEC: i128 = 1_000_000_000;
const DAY: i128 = 86_400 * NANOS_PER_SEC;
const WEEK: i128 = 7 * DAY;
/// The counted time in one week: Monday to Friday.
const WORKING_WEEK: i128 = 5 * DAY;
/// 1970-01-05T00:00:00Z, the first Monday after the Unix epoch, in nanoseconds.
const MONDAY_EPOCH: i128 = 4 * DAY;

/// An instant as nanoseconds since the Unix epoch. A leap second (which chrono
/// keeps as more than 10^9 nanoseconds in second 59) becomes the first second
/// of the next minute, as in [`parse_timestamp`].
fn to_nanos(t: DateTime<Utc>) -> i128 {
    i128::from(t.timestamp()) * NANOS_PER_SEC + i128::from(t.timestamp_subsec_nanos())
}

/// The instant `ns` nanoseconds after the Unix epoch, if chrono can hold it.
fn from_nanos(ns: i128) -> Option<DateTime<Utc>> {
    let secs = i64::try_from(ns.div_euclid(NANOS_PER_SEC)).ok()?;
    let nanos = u32::try_from(ns.rem_euclid(NANOS_PER_SEC)).ok()?;
    DateTime::from_timestamp(secs, nanos)
}

/// A duration in nanoseconds (never overflows: chrono durations are far
/// shorter than `i128` nanoseconds).
fn duration_nanos(d: Duration) -> i128 {
    i128::from(d.num_seconds()) * NANOS_PER_SEC + i128::from(d.subsec_nanos())
}

/// A count of nanoseconds as a duration.
fn nanos_duration(ns: i128) -> Duration {
    let secs = i64::try_from(ns.div_euclid(NANOS_PER_SEC)).expect("duration within range");
    let nanos = i64::try_from(ns.rem_euclid(NANOS_PER_SEC)).expect("below one second");
    Duration::seconds(secs) + Duration::nanoseconds(nanos)
}

/// Counted time (in nanoseconds, signed) from [`MONDAY_EPOCH`] to `ns`.
/// Non-decreasing in `ns`; constant over each weekend.
fn counted_since_epoch(ns: i128) -> i128 {
    let since = ns - MONDAY_EPOCH;
    let weeks = since.div_euclid(WEEK);
    let within = since.rem_euclid(WEEK);
    weeks * WORKING_WEEK + within.min(WORKING_WEEK)
}

/// The earliest instant whose [`counted_since_epoch`] is `counted`. When
/// `counted` falls on a week boundary that is the Saturday 00:00 ending the
/// working week, not the Monday 00:00 after it (RULINGS S2).
fn earliest_with(counted: i128) -> i128 {
    let weeks = counted.div_euclid(WORKING_WEEK);
    let within = counted.rem_euclid(WORKING_WEEK);
    if within == 0 {
        MONDAY_EPOCH + weeks * WEEK - 2 * DAY
    } else {
        MONDAY_EPOCH + weeks * WEEK + within
    }
}

/// The latest instant whose [`counted_since_epoch`] is `counted`. When
/// `counted` falls on a week boundary that is the Monday 00:00 starting the
/// working week, not the Saturday 00:00 before it (RULINGS S6).
fn latest_with(counted: i128) -> i128 {
    let weeks = counted.div_euclid(WORKING_WEEK);
    let within = counted.rem_euclid(WORKING_WEEK);
    MONDAY_EPOCH + weeks * WEEK + within
}

const OUT_OF_RANGE: &str = "deadline beyond chrono's range (after the year 262000)";

/// The counted time (Rule 1.3.5) from `start` to `end`: the part of
/// `[start, end)` that falls from Monday 00:00 to Saturday 00:00 UTC.
/// Zero when `end` is not after `start`.
pub fn counted_between(start: DateTime<Utc>, end: DateTime<Utc>) -> Duration {
    let counted = counted_since_epoch(to_nanos(end)) - counted_since_epoch(to_nanos(start));
    nanos_duration(counted.max(0))
}

/// The earliest instant not before `start` by which `span` of counted time
/// (Rule 1.3.5: Saturdays and Sundays UTC ignored) has elapsed since `start`.
///
/// A `start` on a weekend counts from the following Monday 00:00 UTC. When the
/// span runs out exactly at the end of a Friday, the answer is that Saturday
/// 00:00, not the Monday 00:00 after the weekend (RULINGS S2). A negative
/// `span` counts as zero, which gives `start` itself.
///
/// # Panics
///
/// Only when the result lies beyond chrono's range (after the year 262000);
/// no RFC 3339 timestamp or mail date can get there.
pub fn add_counted(start: DateTime<Utc>, span: Duration) -> DateTime<Utc> {
    let start_ns = to_nanos(start);
    let target = counted_since_epoch(start_ns) + duration_nanos(span).max(0);
    from_nanos(earliest_with(target).max(start_ns)).expect(OUT_OF_RANGE)
}

/// The latest instant not after `end` from which `span` of counted time
/// (Rule 1.3.5) remains until `end`: `end` counted back by `span`, skipping
/// weekends.
///
/// When counting back reaches the start of a Monday, the answer is that Monday
/// 00:00, not the Saturday 00:00 before it, so a positive `span` never lands on
/// a weekend (RULINGS S6). A negative `span` counts as zero, which gives `end`
/// itself.
///
/// # Panics
///
/// Only when the result lies before chrono's range (before the year -262000).
pub fn sub_counted(end: DateTime<Utc>, span: Duration) -> DateTime<Utc> {
    let end_ns = to_nanos(end);
    let target = counted_since_epoch(end_ns) - duration_nanos(span).max(0);
    from_nanos(latest_with(target).min(end_ns)).expect(OUT_OF_RANGE)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Datelike, TimeZone, Timelike, Weekday};
    use proptest::prelude::*;

    /// An instant from `YYYY-MM-DDTHH:MM:SSZ`, for readable expectations.
    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .unwrap_or_else(|e| panic!("bad test instant {s}: {e}"))
            .with_timezone(&Utc)
    }

    fn ymd_hms(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap()
    }

    /// Checks the hand calculation's premise: `at` is on `day`.
    fn on(at: &str, day: Weekday) -> DateTime<Utc> {
        let at = t(at);
        assert_eq!(at.weekday(), day, "{at} is not a {day}");
        at
    }

    fn hours(h: i64) -> Duration {
        Duration::hours(h)
    }

    /// Counted time by walking day by day: a reference independent of the
    /// week arithmetic of `counted_since_epoch`.
    fn counted_reference(start: DateTime<Utc>, end: DateTime<Utc>) -> Duration {
        let mut total = Duration::zero();
        let mut day = start.date_naive();
        while day <= end.date_naive() {
            let from = day.and_hms_opt(0, 0, 0).unwrap().and_utc();
            let to = from + Duration::days(1);
            let weekday = !matches!(day.weekday(), Weekday::Sat | Weekday::Sun);
            let (a, b) = (from.max(start), to.min(end));
            if weekday && b > a {
                total += b - a;
            }
            day = day.succ_opt().unwrap();
        }
        total
    }

    fn is_saturday_midnight(at: DateTime<Utc>) -> bool {
        at.weekday() == Weekday::Sat && at.num_seconds_from_midnight() == 0 && at.nanosecond() == 0
    }

    // ---- Rule 1.3.5: turn deadlines --------------------------------------

    #[test]
    fn the_rules_example_friday_ten_am_is_due_monday_ten_pm() {
        let friday = on("2026-01-16T10:00:00Z", Weekday::Fri);
        assert_eq!(turn_deadline(friday), t("2026-01-19T22:00:00Z"));
    }

    #[test]
    fn a_weekday_span_without_a_weekend_is_plain_36_hours() {
        let monday = on("2026-01-12T09:00:00Z", Weekday::Mon);
        assert_eq!(turn_deadline(monday), t("2026-01-13T21:00:00Z"));
        let wednesday = on("2026-01-14T00:00:00Z", Weekday::Wed);
        assert_eq!(turn_deadline(wednesday), t("2026-01-15T12:00:00Z"));
        let wednesday_noon = on("2026-01-14T12:00:00Z", Weekday::Wed);
        assert_eq!(turn_deadline(wednesday_noon), t("2026-01-16T00:00:00Z"));
    }

    #[test]
    fn thursday_evening_crosses_the_weekend_in_the_middle() {
        // Thursday 6 h + Friday 24 h = 30 h, then Monday 6 h.
        let thursday = on("2026-01-15T18:00:00Z", Weekday::Thu);
        assert_eq!(turn_deadline(thursday), t("2026-01-19T06:00:00Z"));
    }

    #[test]
    fn friday_midnight_start_uses_all_of_friday() {
        let friday = on("2026-01-16T00:00:00Z", Weekday::Fri);
        assert_eq!(turn_deadline(friday), t("2026-01-19T12:00:00Z"));
    }

    #[test]
    fn friday_last_second_counts_one_second_before_the_weekend() {
        let friday = on("2026-01-16T23:59:59Z", Weekday::Fri);
        assert_eq!(turn_deadline(friday), t("2026-01-20T11:59:59Z"));
    }

    #[test]
    fn friday_last_half_second_is_kept_to_the_nanosecond() {
        let friday = t("2026-01-16T23:59:59.5Z");
        assert_eq!(turn_deadline(friday), t("2026-01-20T11:59:59.5Z"));
    }

    #[test]
    fn saturday_midnight_is_weekend_and_starts_at_monday() {
        let saturday = on("2026-01-17T00:00:00Z", Weekday::Sat);
        assert_eq!(turn_deadline(saturday), t("2026-01-20T12:00:00Z"));
    }

    #[test]
    fn weekend_submission_starts_the_36_hours_at_monday_0000() {
        for at in [
            "2026-01-17T09:30:00Z",
            "2026-01-17T23:59:59Z",
            "2026-01-18T00:00:00Z",
            "2026-01-18T15:00:00Z",
        ] {
            assert_eq!(turn_deadline(t(at)), t("2026-01-20T12:00:00Z"), "{at}");
        }
    }

    #[test]
    fn sunday_last_second_still_starts_at_monday() {
        let sunday = on("2026-01-18T23:59:59Z", Weekday::Sun);
        assert_eq!(turn_deadline(sunday), t("2026-01-20T12:00:00Z"));
        let sunday = t("2026-01-18T23:59:59.999999999Z");
        assert_eq!(turn_deadline(sunday), t("2026-01-20T12:00:00Z"));
    }

    #[test]
    fn monday_midnight_is_the_same_as_the_weekend() {
        let monday = on("2026-01-19T00:00:00Z", Weekday::Mon);
        assert_eq!(turn_deadline(monday), t("2026-01-20T12:00:00Z"));
        let monday = t("2026-01-19T00:00:00.000000001Z");
        assert_eq!(turn_deadline(monday), t("2026-01-20T12:00:00.000000001Z"));
    }

    #[test]
    fn thursday_noon_is_due_at_saturday_midnight_not_monday() {
        // Thursday 12 h + Friday 24 h = 36 h at the stroke of Saturday (S2).
        let thursday = on("2026-01-15T12:00:00Z", Weekday::Thu);
        let due = turn_deadline(thursday);
        assert_eq!(due, t("2026-01-17T00:00:00Z"));
        assert!(is_saturday_midnight(due));
    }

    #[test]
    fn one_second_either_side_of_thursday_noon() {
        let before = on("2026-01-15T11:59:59Z", Weekday::Thu);
        assert_eq!(turn_deadline(before), t("2026-01-16T23:59:59Z"));
        let after = on("2026-01-15T12:00:01Z", Weekday::Thu);
        assert_eq!(turn_deadline(after), t("2026-01-19T00:00:01Z"));
    }

    #[test]
    fn consecutive_turns_over_three_weeks() {
        let mut at = on("2026-01-12T09:00:00Z", Weekday::Mon);
        let expected = [
            "2026-01-13T21:00:00Z", // Tue
            "2026-01-15T09:00:00Z", // Thu
            "2026-01-16T21:00:00Z", // Fri
            "2026-01-20T09:00:00Z", // Fri 3 h, Mon 24 h, Tue 9 h
            "2026-01-21T21:00:00Z", // Wed
            "2026-01-23T09:00:00Z", // Fri
            "2026-01-26T21:00:00Z", // Fri 15 h, Mon 21 h
            "2026-01-28T09:00:00Z", // Mon 3 h, Tue 24 h, Wed 9 h
            "2026-01-29T21:00:00Z", // Thu
            "2026-02-02T09:00:00Z", // Thu 3 h, Fri 24 h, Mon 9 h
        ];
        for want in expected {
            at = turn_deadline(at);
            assert_eq!(at, t(want));
        }
    }

    #[test]
    fn year_end_friday_crosses_into_the_new_year() {
        let friday = on("2027-12-31T10:00:00Z", Weekday::Fri);
        assert_eq!(turn_deadline(friday), t("2028-01-03T22:00:00Z"));
        let thursday = on("2027-12-30T18:00:00Z", Weekday::Thu);
        assert_eq!(turn_deadline(thursday), t("2028-01-03T06:00:00Z"));
    }

    #[test]
    fn year_end_weekday_without_weekend() {
        // 2026-12-31 is a Thursday: 12 h of Thursday, 24 h of Friday 1 January.
        let thursday = on("2026-12-31T12:00:00Z", Weekday::Thu);
        assert_eq!(turn_deadline(thursday), t("2027-01-02T00:00:00Z"));
        let wednesday = on("2025-12-31T20:00:00Z", Weekday::Wed);
        assert_eq!(turn_deadline(wednesday), t("2026-01-02T08:00:00Z"));
    }

    #[test]
    fn leap_day_2028_is_an_ordinary_tuesday() {
        let monday = on("2028-02-28T18:00:00Z", Weekday::Mon);
        assert_eq!(turn_deadline(monday), t("2028-03-01T06:00:00Z"));
        let leap_day = on("2028-02-29T12:00:00Z", Weekday::Tue);
        assert_eq!(turn_deadline(leap_day), t("2028-03-02T00:00:00Z"));
    }

    #[test]
    fn european_summer_time_changes_nothing_in_march() {
        // Clocks in London go forward on Sunday 2026-03-29; GMT does not.
        let friday = on("2026-03-27T10:00:00Z", Weekday::Fri);
        let due = turn_deadline(friday);
        assert_eq!(due, t("2026-03-30T22:00:00Z"));
        assert_eq!(due, friday + hours(36) + hours(48));
        // Submitted in the lost hour, written in London summer time.
        let sunday = parse_timestamp("2026-03-29T03:30:00+01:00").unwrap();
        assert_eq!(turn_deadline(sunday), t("2026-03-31T12:00:00Z"));
    }

    #[test]
    fn european_summer_time_changes_nothing_in_october() {
        // Clocks in London go back on Sunday 2026-10-25.
        let friday = on("2026-10-23T10:00:00Z", Weekday::Fri);
        let due = turn_deadline(friday);
        assert_eq!(due, t("2026-10-26T22:00:00Z"));
        assert_eq!(due, friday + hours(36) + hours(48));
        let thursday = parse_timestamp("2026-10-22T19:00:00+01:00").unwrap();
        assert_eq!(turn_deadline(thursday), t("2026-10-26T06:00:00Z"));
    }

    #[test]
    fn far_past_and_far_future_weeks() {
        // 1999-06-04 was a Friday; 2199-12-31 is a Tuesday.
        let friday = on("1999-06-04T10:00:00Z", Weekday::Fri);
        assert_eq!(turn_deadline(friday), t("1999-06-07T22:00:00Z"));
        let tuesday = on("2199-12-31T06:00:00Z", Weekday::Tue);
        assert_eq!(turn_deadline(tuesday), t("2200-01-01T18:00:00Z"));
        // Before the Unix epoch: 1969-12-26 was a Friday.
        let friday = on("1969-12-26T10:00:00Z", Weekday::Fri);
        assert_eq!(turn_deadline(friday), t("1969-12-29T22:00:00Z"));
    }

    // ---- counted time ---------------------------------------------------

    #[test]
    fn counted_between_skips_the_weekend() {
        let thursday = t("2026-01-15T18:00:00Z");
        assert_eq!(
            counted_between(thursday, t("2026-01-19T06:00:00Z")),
            hours(36)
        );
        assert_eq!(
            counted_between(t("2026-01-17T00:00:00Z"), t("2026-01-19T00:00:00Z")),
            Duration::zero()
        );
        assert_eq!(
            counted_between(t("2026-01-12T00:00:00Z"), t("2026-01-26T00:00:00Z")),
            hours(240)
        );
    }

    #[test]
    fn counted_between_backwards_is_zero() {
        let a = t("2026-01-15T18:00:00Z");
        let b = t("2026-01-14T18:00:00Z");
        assert_eq!(counted_between(a, b), Duration::zero());
        assert_eq!(counted_between(a, a), Duration::zero());
    }

    #[test]
    fn add_counted_zero_and_negative_spans_stay_put() {
        let sunday = t("2026-01-18T10:00:00Z");
        assert_eq!(add_counted(sunday, Duration::zero()), sunday);
        assert_eq!(add_counted(sunday, hours(-5)), sunday);
        assert_eq!(
            add_counted(sunday, Duration::nanoseconds(1)),
            t("2026-01-19T00:00:00.000000001Z")
        );
    }

    #[test]
    fn add_counted_whole_working_weeks() {
        let wednesday = t("2026-01-14T10:00:00Z");
        assert_eq!(
            add_counted(wednesday, hours(120)),
            t("2026-01-21T10:00:00Z")
        );
        assert_eq!(
            add_counted(wednesday, hours(600)),
            t("2026-02-18T10:00:00Z")
        );
        // From Monday 00:00, one working week ends at Saturday 00:00.
        let monday = t("2026-01-12T00:00:00Z");
        assert_eq!(add_counted(monday, hours(120)), t("2026-01-17T00:00:00Z"));
    }

    #[test]
    fn sub_counted_lands_on_monday_midnight_not_saturday() {
        let monday_noon = t("2026-01-19T12:00:00Z");
        assert_eq!(
            sub_counted(monday_noon, hours(12)),
            t("2026-01-19T00:00:00Z")
        );
        assert_eq!(
            sub_counted(monday_noon, hours(13)),
            t("2026-01-16T23:00:00Z")
        );
        let sunday = t("2026-01-18T10:00:00Z");
        assert_eq!(sub_counted(sunday, Duration::zero()), sunday);
        assert_eq!(sub_counted(sunday, hours(12)), t("2026-01-16T12:00:00Z"));
    }

    // ---- reminders ------------------------------------------------------

    #[test]
    fn reminder_twelve_counted_hours_before_a_monday_evening_deadline() {
        let friday = t("2026-01-16T10:00:00Z");
        let due = turn_deadline(friday);
        assert_eq!(
            reminder_at(due, DEFAULT_REMINDER, friday),
            Some(t("2026-01-19T10:00:00Z"))
        );
    }

    #[test]
    fn reminder_counts_back_across_the_weekend() {
        let thursday = t("2026-01-15T18:00:00Z");
        let due = turn_deadline(thursday); // Monday 06:00
        assert_eq!(
            reminder_at(due, DEFAULT_REMINDER, thursday),
            Some(t("2026-01-16T18:00:00Z"))
        );
    }

    #[test]
    fn reminder_reaching_monday_midnight_stays_on_monday() {
        let friday = t("2026-01-16T00:00:00Z");
        let due = turn_deadline(friday); // Monday 12:00
        let at = reminder_at(due, DEFAULT_REMINDER, friday).unwrap();
        assert_eq!(at, t("2026-01-19T00:00:00Z"));
        assert_eq!(at.weekday(), Weekday::Mon);
    }

    #[test]
    fn reminder_for_a_saturday_midnight_deadline_is_friday_noon() {
        let thursday = t("2026-01-15T12:00:00Z");
        let due = turn_deadline(thursday);
        assert_eq!(
            reminder_at(due, DEFAULT_REMINDER, thursday),
            Some(t("2026-01-16T12:00:00Z"))
        );
    }

    #[test]
    fn no_reminder_when_it_would_not_be_after_the_submission() {
        let tuesday = t("2026-01-13T09:00:00Z");
        let due = turn_deadline(tuesday);
        assert_eq!(reminder_at(due, hours(36), tuesday), None);
        assert_eq!(reminder_at(due, hours(48), tuesday), None);
        assert_eq!(
            reminder_at(due, hours(35), tuesday),
            Some(t("2026-01-13T10:00:00Z"))
        );
    }

    #[test]
    fn weekend_submission_reminded_at_monday_midnight_with_a_36_hour_lead() {
        let saturday = t("2026-01-17T10:00:00Z");
        let due = turn_deadline(saturday);
        assert_eq!(
            reminder_at(due, hours(36), saturday),
            Some(t("2026-01-19T00:00:00Z"))
        );
        assert_eq!(reminder_at(due, hours(37), saturday), None);
    }

    #[test]
    fn zero_or_negative_lead_reminds_at_the_deadline() {
        let friday = t("2026-01-16T10:00:00Z");
        let due = turn_deadline(friday);
        assert_eq!(reminder_at(due, Duration::zero(), friday), Some(due));
        assert_eq!(reminder_at(due, hours(-3), friday), Some(due));
    }

    // ---- Rules 1.16.3 and 1.16.4: buzz and judgment ------------------------

    #[test]
    fn buzz_answer_counts_the_weekend() {
        let friday = t("2026-01-16T18:00:00Z");
        assert_eq!(buzz_response_deadline(friday), t("2026-01-18T06:00:00Z"));
        let saturday = t("2026-01-17T00:00:00Z");
        assert_eq!(buzz_response_deadline(saturday), t("2026-01-18T12:00:00Z"));
    }

    #[test]
    fn buzz_answer_across_year_end_and_summer_time() {
        assert_eq!(
            buzz_response_deadline(t("2026-12-31T20:00:00Z")),
            t("2027-01-02T08:00:00Z")
        );
        assert_eq!(
            buzz_response_deadline(t("2026-03-28T12:00:00Z")),
            t("2026-03-30T00:00:00Z")
        );
    }

    #[test]
    fn judgment_is_72_hours_weekend_included() {
        let friday = t("2026-01-16T18:00:00Z");
        assert_eq!(judgment_deadline(friday), t("2026-01-19T18:00:00Z"));
        assert_eq!(
            judgment_deadline(t("2028-02-27T10:00:00Z")),
            t("2028-03-01T10:00:00Z")
        );
        assert_eq!(
            judgment_deadline(t("2026-10-24T23:30:00Z")),
            t("2026-10-27T23:30:00Z")
        );
    }

    #[test]
    fn deadline_dispatches_on_kind() {
        let friday = t("2026-01-16T10:00:00Z");
        assert_eq!(deadline(Kind::Turn, friday), t("2026-01-19T22:00:00Z"));
        assert_eq!(deadline(Kind::Buzz, friday), t("2026-01-17T22:00:00Z"));
        assert_eq!(deadline(Kind::Judgment, friday), t("2026-01-19T10:00:00Z"));
    }

    #[test]
    fn cli_output_format() {
        use chrono::SecondsFormat;
        let at = parse_timestamp("2026-01-15T13:00:00+01:00").unwrap();
        let printed = deadline(Kind::Turn, at).to_rfc3339_opts(SecondsFormat::Secs, true);
        assert_eq!(printed, "2026-01-17T00:00:00Z");
    }

    #[test]
    fn kind_names_round_trip() {
        for kind in Kind::ALL {
            assert_eq!(kind.name().parse::<Kind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
        }
        assert_eq!("Judgment".parse::<Kind>(), Ok(Kind::Judgment));
        assert_eq!(Kind::Turn.rule(), "1.3.5");
        assert_eq!(Kind::Buzz.rule(), "1.16.3");
        assert_eq!(Kind::Judgment.rule(), "1.16.4");
    }

    #[test]
    fn unknown_kind_is_refused_by_name() {
        let err = "contest".parse::<Kind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown deadline kind \"contest\": expected turn, buzz or judgment"
        );
        assert!(" turn".parse::<Kind>().is_err());
    }

    // ---- Rule 1.1.10: two calendar months ---------------------------------

    #[test]
    fn resignation_two_calendar_months_later_same_time() {
        assert_eq!(
            resignation_due(t("2026-01-16T10:00:00Z")),
            t("2026-03-16T10:00:00Z")
        );
        assert_eq!(
            resignation_due(t("2026-11-30T08:15:00Z")),
            t("2027-01-30T08:15:00Z")
        );
    }

    #[test]
    fn resignation_clamps_to_the_end_of_a_short_month() {
        assert_eq!(
            resignation_due(t("2025-12-31T23:30:00Z")),
            t("2026-02-28T23:30:00Z")
        );
        assert_eq!(
            resignation_due(t("2026-12-30T12:00:00Z")),
            t("2027-02-28T12:00:00Z")
        );
        assert_eq!(
            resignation_due(t("2026-07-31T12:00:00Z")),
            t("2026-09-30T12:00:00Z")
        );
        assert_eq!(
            resignation_due(t("2026-08-31T12:00:00Z")),
            t("2026-10-31T12:00:00Z")
        );
    }

    #[test]
    fn resignation_around_the_2028_leap_day() {
        assert_eq!(
            resignation_due(t("2027-12-31T09:00:00Z")),
            t("2028-02-29T09:00:00Z")
        );
        assert_eq!(
            resignation_due(t("2027-12-29T09:00:00Z")),
            t("2028-02-29T09:00:00Z")
        );
        assert_eq!(
            resignation_due(t("2028-02-29T09:00:00Z")),
            t("2028-04-29T09:00:00Z")
        );
        assert_eq!(
            resignation_due(t("2027-12-28T09:00:00Z")),
            t("2028-02-28T09:00:00Z")
        );
    }

    #[test]
    fn resignation_ignores_summer_time() {
        // 01:30 on 29 March 2026 does not exist in London; in UTC it does.
        assert_eq!(
            resignation_due(t("2026-01-29T01:30:00Z")),
            t("2026-03-29T01:30:00Z")
        );
        assert_eq!(
            resignation_due(t("2026-08-25T01:30:00Z")),
            t("2026-10-25T01:30:00Z")
        );
    }

    #[test]
    fn overdue_only_strictly_after_the_deadline() {
        let due = t("2026-01-19T22:00:00Z");
        assert!(!is_overdue(due, due));
        assert!(!is_overdue(due, t("2026-01-19T21:59:59Z")));
        assert!(is_overdue(due, t("2026-01-19T22:00:00.000000001Z")));
        assert!(is_overdue(due, t("2026-01-19T22:00:01Z")));
    }

    // ---- parse_timestamp ------------------------------------------------

    #[test]
    fn timestamps_with_any_offset_become_utc() {
        let want = t("2026-01-16T10:00:00Z");
        for s in [
            "2026-01-16T10:00:00Z",
            "2026-01-16T10:00:00+00:00",
            "2026-01-16T10:00:00-00:00",
            "2026-01-16T11:00:00+01:00",
            "2026-01-16T05:00:00-05:00",
            "2026-01-17T00:30:00+14:30",
            "2026-01-16t10:00:00z",
            "2026-01-16 10:00:00Z",
            "2026-01-16T10:00:00.000Z",
        ] {
            assert_eq!(parse_timestamp(s), Ok(want), "{s}");
        }
        assert_eq!(
            parse_timestamp("2026-01-16T10:00:00.25+01:00"),
            Ok(ymd_hms(2026, 1, 16, 9, 0, 0) + Duration::milliseconds(250))
        );
    }

    #[test]
    fn a_leap_second_is_the_next_minutes_first_second() {
        let at = parse_timestamp("2016-12-31T23:59:60Z").unwrap();
        assert_eq!(at, t("2017-01-01T00:00:00Z"));
        assert_eq!(at.nanosecond(), 0);
    }

    #[test]
    fn everything_else_is_refused_with_a_reason() {
        let cases = [
            ("", "empty"),
            (" 2026-01-16T10:00:00Z", "white space"),
            ("2026-01-16T10:00:00", "no UTC offset"),
            ("2026-01-16 10:00:00", "no UTC offset"),
            ("2026-01-16T10:00", "no UTC offset"),
            ("2026-01-16", "a date without a time"),
            ("Fri, 16 Jan 2026 10:00:00 +0000", "RFC 2822"),
            ("1768557600", ""),
            ("yesterday", ""),
            ("2026-02-30T10:00:00Z", ""),
            ("2026-01-16T25:00:00Z", ""),
            ("2026-01-16T10:00:00+25:00", ""),
            ("2026-01-16T10:00:00Z trailing", ""),
        ];
        for (input, reason) in cases {
            let err = parse_timestamp(input).unwrap_err();
            let DeadlineError::BadTimestamp {
                input: got,
                reason: why,
            } = &err
            else {
                panic!("{input}: {err:?}");
            };
            assert_eq!(got, input);
            assert!(why.contains(reason), "{input}: {why}");
            let message = err.to_string();
            assert!(
                message.starts_with("not an RFC 3339 timestamp: "),
                "{message}"
            );
            assert!(message.contains("2026-01-16T10:00:00Z"), "{message}");
        }
    }

    #[test]
    fn printed_deadlines_parse_back() {
        use chrono::SecondsFormat;
        let at = t("2026-01-15T18:00:00Z");
        for kind in Kind::ALL {
            let printed = deadline(kind, at).to_rfc3339_opts(SecondsFormat::Secs, true);
            assert_eq!(parse_timestamp(&printed), Ok(deadline(kind, at)));
        }
    }

    // ---- properties -----------------------------------------------------

    /// Instants from 1900 to 2200: arbitrary to the nanosecond, or on the
    /// hour (which hits Saturday 00:00 and Monday 00:00 often).
    fn instant() -> impl Strategy<Value = DateTime<Utc>> {
        const FROM: i64 = -2_208_988_800; // 1900-01-01
        const TO: i64 = 7_258_118_400; // 2200-01-01
        prop_oneof![
            (FROM..TO, 0u32..1_000_000_000)
                .prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap()),
            (FROM / 3600..TO / 3600).prop_map(|h| DateTime::from_timestamp(h * 3600, 0).unwrap()),
        ]
    }

    fn lead() -> impl Strategy<Value = Duration> {
        prop_oneof![
            (0i64..60).prop_map(Duration::hours),
            (0i64..200 * 3600).prop_map(Duration::seconds),
        ]
    }

    proptest! {
        #[test]
        fn turn_deadline_is_never_on_a_weekend_except_saturday_midnight(at in instant()) {
            let due = turn_deadline(at);
            let weekend = matches!(due.weekday(), Weekday::Sat | Weekday::Sun);
            prop_assert!(!weekend || is_saturday_midnight(due), "{at} -> {due}");
            let monday_midnight = due.weekday() == Weekday::Mon
                && due.num_seconds_from_midnight() == 0
                && due.nanosecond() == 0;
            prop_assert!(!monday_midnight, "{at} -> {due}");
        }

        #[test]
        fn turn_deadline_leaves_exactly_36_counted_hours(at in instant()) {
            let due = turn_deadline(at);
            prop_assert!(due > at);
            prop_assert_eq!(counted_reference(at, due), hours(36));
            prop_assert_eq!(counted_between(at, due), hours(36));
            // ... and is the earliest such instant.
            let just_before = due - Duration::nanoseconds(1);
            prop_assert!(counted_reference(at, just_before) < hours(36));
        }

        #[test]
        fn turn_deadline_is_monotonic(a in instant(), b in instant()) {
            let (early, late) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(turn_deadline(early) <= turn_deadline(late));
        }

        #[test]
        fn turn_deadline_is_within_36_to_84_wall_clock_hours(at in instant()) {
            let wall = turn_deadline(at) - at;
            prop_assert!(wall >= hours(36) && wall <= hours(36 + 48), "{at}: {wall}");
        }

        #[test]
        fn counted_between_matches_day_by_day_reference(a in instant(), b in instant()) {
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            let b = b.min(a + Duration::days(90));
            prop_assert_eq!(counted_between(a, b), counted_reference(a, b));
        }

        #[test]
        fn counted_time_is_additive(a in instant(), b in instant(), c in instant()) {
            let mut v = [a, b, c];
            v.sort();
            prop_assert_eq!(
                counted_between(v[0], v[2]),
                counted_between(v[0], v[1]) + counted_between(v[1], v[2])
            );
        }

        #[test]
        fn sub_counted_undoes_add_counted_on_weekdays(at in instant(), span in lead()) {
            prop_assume!(!matches!(at.weekday(), Weekday::Sat | Weekday::Sun));
            prop_assert_eq!(sub_counted(add_counted(at, span), span), at);
        }

        #[test]
        fn reminder_leaves_the_lead_in_counted_time(at in instant(), before in lead()) {
            let due = turn_deadline(at);
            let weekend = matches!(at.weekday(), Weekday::Sat | Weekday::Sun);
            // Counting back 36 h reaches `at` itself, unless `at` is on a
            // weekend: then it reaches Monday 00:00, still after `at`.
            let none = before > hours(36) || (before == hours(36) && !weekend);
            prop_assert_eq!(reminder_at(due, before, at).is_none(), none);
            match reminder_at(due, before, at) {
                Some(r) => {
                    prop_assert!(r > at && r <= due);
                    prop_assert_eq!(counted_reference(r, due), before);
                    if before > Duration::zero() {
                        prop_assert!(!matches!(r.weekday(), Weekday::Sat | Weekday::Sun));
                    }
                }
                None => prop_assert!(sub_counted(due, before) <= at),
            }
        }

        #[test]
        fn buzz_and_judgment_are_wall_clock(at in instant()) {
            prop_assert_eq!(buzz_response_deadline(at) - at, hours(36));
            prop_assert_eq!(judgment_deadline(at) - at, hours(72));
        }

        #[test]
        fn resignation_is_two_months_on_and_never_later_in_the_day(at in instant()) {
            let due = resignation_due(at);
            let months = (due.year() - at.year()) * 12 + due.month() as i32 - at.month() as i32;
            prop_assert_eq!(months, 2);
            prop_assert_eq!(due.time(), at.time());
            prop_assert!(due.day() <= at.day());
            prop_assert!(due - at >= Duration::days(59) && due - at <= Duration::days(62));
        }

        #[test]
        fn rfc3339_output_parses_back(at in instant(), offset in -1439i32..1440) {
            let zone = chrono::FixedOffset::east_opt(offset * 60).unwrap();
            let text = at.with_timezone(&zone).to_rfc3339();
            prop_assert_eq!(parse_timestamp(&text), Ok(at));
        }
    }
}
