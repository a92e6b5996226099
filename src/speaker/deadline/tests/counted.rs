//! Counted time and reminders.

use super::*;

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
