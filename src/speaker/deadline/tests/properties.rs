//! Property tests of the deadline arithmetic.

use super::*;

// ---- properties -----------------------------------------------------

/// Instants from 1900 to 2200: arbitrary to the nanosecond, or on the
/// hour (which hits Saturday 00:00 and Monday 00:00 often).
fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    const FROM: i64 = -2_208_988_800; // 1900-01-01
    const TO: i64 = 7_258_118_400; // 2200-01-01
    prop_oneof![
        (FROM..TO, 0u32..1_000_000_000).prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap()),
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
