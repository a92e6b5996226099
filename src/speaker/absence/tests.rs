//! Absences against Rule 1.3.5's counted time.

use chrono::{DateTime, Duration, TimeZone, Utc};
use proptest::prelude::*;

use super::*;
use crate::speaker::deadline::{reminder_at, turn_deadline};

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn h(n: i64) -> Duration {
    Duration::hours(n)
}

#[test]
fn no_absence_is_the_plain_deadline() {
    let friday = t("2026-01-16T10:00:00Z");
    assert_eq!(turn_deadline_away(friday, &[]), turn_deadline(friday));
    assert_eq!(turn_deadline_away(friday, &[]), t("2026-01-19T22:00:00Z"));
}

#[test]
fn an_absence_inside_the_period_pushes_the_deadline_by_its_counted_length() {
    // Turn at 09:00 Monday: due 21:00 Tuesday. Away all Tuesday: the 24
    // counted hours of Tuesday do not count, so due 21:00 Wednesday.
    let monday = t("2026-01-12T09:00:00Z");
    let away = [(t("2026-01-13T00:00:00Z"), t("2026-01-14T00:00:00Z"))];
    assert_eq!(turn_deadline(monday), t("2026-01-13T21:00:00Z"));
    assert_eq!(turn_deadline_away(monday, &away), t("2026-01-14T21:00:00Z"));
}

#[test]
fn a_clock_starting_while_away_starts_when_the_absence_ends() {
    // Away Monday 00:00 to Wednesday 12:00; the turn before came Monday
    // 10:00: 36 counted hours from Wednesday noon is Friday 00:00.
    let away = [(t("2026-01-12T00:00:00Z"), t("2026-01-14T12:00:00Z"))];
    assert_eq!(
        turn_deadline_away(t("2026-01-12T10:00:00Z"), &away),
        t("2026-01-16T00:00:00Z")
    );
}

#[test]
fn an_absence_over_a_weekend_costs_only_its_weekdays() {
    // Turn Thursday 18:00, plain deadline 06:00 Monday. Away Friday 00:00
    // to Tuesday 00:00: of that, Friday and Monday count (48 hours). The
    // 6 hours of Thursday count, the other 30 from Tuesday 00:00: 06:00
    // Wednesday.
    let away = [(t("2026-01-16T00:00:00Z"), t("2026-01-20T00:00:00Z"))];
    assert_eq!(
        turn_deadline_away(t("2026-01-15T18:00:00Z"), &away),
        t("2026-01-21T06:00:00Z")
    );
}

#[test]
fn an_absence_after_the_deadline_changes_nothing() {
    let monday = t("2026-01-12T09:00:00Z");
    let away = [(t("2026-01-14T00:00:00Z"), t("2026-01-20T00:00:00Z"))];
    assert_eq!(turn_deadline_away(monday, &away), turn_deadline(monday));
    // Nor one that ended before the clock started.
    let before = [(t("2026-01-01T00:00:00Z"), t("2026-01-12T09:00:00Z"))];
    assert_eq!(turn_deadline_away(monday, &before), turn_deadline(monday));
}

#[test]
fn a_deadline_at_the_absence_start_stays_there() {
    // Due 21:00 Tuesday; away from 21:00 Tuesday: in time before it.
    let monday = t("2026-01-12T09:00:00Z");
    let away = [(t("2026-01-13T21:00:00Z"), t("2026-01-15T00:00:00Z"))];
    assert_eq!(turn_deadline_away(monday, &away), t("2026-01-13T21:00:00Z"));
}

#[test]
fn overlapping_and_unsorted_absences_count_once() {
    let monday = t("2026-01-12T09:00:00Z");
    let one = [(t("2026-01-13T00:00:00Z"), t("2026-01-14T00:00:00Z"))];
    let split = [
        (t("2026-01-13T12:00:00Z"), t("2026-01-14T00:00:00Z")),
        (t("2026-01-13T00:00:00Z"), t("2026-01-13T18:00:00Z")),
        (t("2026-01-13T06:00:00Z"), t("2026-01-13T06:00:00Z")),
    ];
    assert_eq!(
        turn_deadline_away(monday, &split),
        turn_deadline_away(monday, &one)
    );
}

#[test]
fn the_reminder_counts_back_over_the_absence() {
    // Due 21:00 Wednesday after a Tuesday away; 12 counted hours before it
    // not away is 09:00 Wednesday.
    let monday = t("2026-01-12T09:00:00Z");
    let away = [(t("2026-01-13T00:00:00Z"), t("2026-01-14T00:00:00Z"))];
    let due = turn_deadline_away(monday, &away);
    assert_eq!(
        reminder_at_away(due, h(12), monday, &away),
        Some(t("2026-01-14T09:00:00Z"))
    );
    // 30 hours before: 21 hours on Wednesday, then 9 before Tuesday: 15:00
    // Monday.
    assert_eq!(
        reminder_at_away(due, h(30), monday, &away),
        Some(t("2026-01-12T15:00:00Z"))
    );
    // More than the player had: no reminder.
    assert_eq!(reminder_at_away(due, h(40), monday, &away), None);
    // With no absence, as the plain reminder.
    let plain = turn_deadline(monday);
    assert_eq!(
        reminder_at_away(plain, h(12), monday, &[]),
        reminder_at(plain, h(12), monday)
    );
}

fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    // Four weeks of minutes from Monday 5 January 2026.
    (0i64..4 * 7 * 24 * 60)
        .prop_map(|m| Utc.with_ymd_and_hms(2026, 1, 5, 0, 0, 0).unwrap() + Duration::minutes(m))
}

fn span() -> impl Strategy<Value = (DateTime<Utc>, DateTime<Utc>)> {
    (instant(), 0i64..6 * 24 * 60).prop_map(|(a, m)| (a, a + Duration::minutes(m)))
}

#[test]
fn an_absence_reads_as_the_player_wrote_it() {
    // ABSENCE 2026-12-03 TO 2026-12-04: the end is the next midnight, the
    // last day Friday.
    let d = |a: &str, b: &str| describe(t(a), t(b));
    assert_eq!(
        d("2026-12-03T00:00:00Z", "2026-12-05T00:00:00Z"),
        "from Thu 3 Dec to Fri 4 Dec 2026"
    );
    assert_eq!(
        d("2026-12-03T00:00:00Z", "2026-12-04T00:00:00Z"),
        "on Thu 3 Dec 2026"
    );
    assert_eq!(
        d("2026-12-31T00:00:00Z", "2027-01-02T00:00:00Z"),
        "from Thu 31 Dec 2026 to Fri 1 Jan 2027"
    );
    // Begun when the mail came (time gone is not given back), or instants.
    assert_eq!(
        d("2026-12-03T10:30:00Z", "2026-12-05T00:00:00Z"),
        "from Thu 3 Dec 2026 10:30 GMT to the end of Fri 4 Dec 2026"
    );
    assert_eq!(
        d("2026-12-03T00:00:00Z", "2026-12-04T18:00:00Z"),
        "from Thu 3 Dec 2026 to Fri 4 Dec 2026 18:00 GMT"
    );
    assert_eq!(
        d("2026-12-03T10:30:00Z", "2026-12-03T18:00:00Z"),
        "from Thu 3 Dec 2026 10:30 GMT to Thu 3 Dec 2026 18:00 GMT"
    );
}

proptest! {
    /// The deadline leaves exactly 36 counted hours not away, and is the
    /// earliest such instant.
    #[test]
    fn the_deadline_leaves_thirty_six_counted_hours_not_away(
        start in instant(),
        away in proptest::collection::vec(span(), 0..4),
    ) {
        let due = turn_deadline_away(start, &away);
        prop_assert!(due >= start);
        prop_assert_eq!(counted_between_away(start, due, &away), h(36));
        let before = due - Duration::nanoseconds(1);
        prop_assert!(counted_between_away(start, before, &away) < h(36));
        prop_assert!(due >= turn_deadline(start));
    }

    /// Counting back from the deadline finds `before` of time not away.
    #[test]
    fn the_reminder_leaves_the_lead_asked(
        start in instant(),
        away in proptest::collection::vec(span(), 0..4),
        lead in 1i64..36,
    ) {
        let due = turn_deadline_away(start, &away);
        if let Some(at) = reminder_at_away(due, h(lead), start, &away) {
            prop_assert!(at > start && at <= due);
            prop_assert_eq!(counted_between_away(at, due, &away), h(lead));
        }
    }
}
