//! Unit tests of the deadline arithmetic; Turn deadlines (Rule 1.3.5) here.

use super::*;
use chrono::{Datelike, TimeZone, Timelike, Weekday};
use proptest::prelude::*;

mod counted;
mod properties;
mod rules;

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
