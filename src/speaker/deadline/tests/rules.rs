//! Buzz and Judgment deadlines, kinds, resignation, overdue, timestamps.

use super::*;

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
