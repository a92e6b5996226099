//! Counted time (Rule 1.3.5): Monday 00:00 to Saturday 00:00 UTC counts,
//! the weekend does not; measured and moved along to the nanosecond.

use super::*;

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
pub(super) fn to_nanos(t: DateTime<Utc>) -> i128 {
    i128::from(t.timestamp()) * NANOS_PER_SEC + i128::from(t.timestamp_subsec_nanos())
}

/// The instant `ns` nanoseconds after the Unix epoch, if chrono can hold it.
pub(super) fn from_nanos(ns: i128) -> Option<DateTime<Utc>> {
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

pub(super) const OUT_OF_RANGE: &str = "deadline beyond chrono's range (after the year 262000)";

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
