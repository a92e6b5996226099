//! Who is late (issue 17, item 6): a game that waits on a human (a
//! Judgment owed by the Speaker or a Referee, a Stalemate the Speaker must
//! confirm or refuse) gets a short lounge notice every period of waiting,
//! so that it is never silently stuck. Pure: the wait and the instants in,
//! when the next notice is due out.

use chrono::{DateTime, Duration, Utc};

/// What a game waits on, who must act, and since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// Names this wait among the game's waits (its kind, its turn, when it
    /// began): the notices of one wait are numbered under it.
    pub id: String,
    /// What is awaited, e.g. `the Speaker's Judgment of Rushton's turn 7`.
    pub what: String,
    /// Who must act, e.g. `the Speaker`.
    pub who: String,
    /// When the wait began.
    pub since: DateTime<Utc>,
}

impl Wait {
    /// A wait of kind `kind` about turn `turn`, begun at `since`: its id
    /// is `kind-turn-<since, Unix seconds>`.
    pub fn new(kind: &str, turn: u64, what: String, who: String, since: DateTime<Utc>) -> Wait {
        Wait {
            id: format!("{kind}-{turn}-{}", since.timestamp()),
            what,
            who,
            since,
        }
    }
}

/// When notice number `sent + 1` of a wait begun at `since` is due: one
/// full `every` after the previous one would have been, that is `since`
/// plus `sent + 1` times `every`; `None` when `every` is not positive
/// (notices off) or the instant is out of range.
pub fn next_notice(since: DateTime<Utc>, sent: u32, every: Duration) -> Option<DateTime<Utc>> {
    if every <= Duration::zero() {
        return None;
    }
    let periods = i32::try_from(sent.checked_add(1)?).ok()?;
    since.checked_add_signed(every.checked_mul(periods)?)
}

/// The number of the notice to send at `now` for a wait begun at `since`:
/// how many whole periods have passed (at least 1). After an outage the
/// notices missed are not sent one after the other: the one sent says how
/// long the wait has been, and counts for the periods passed.
pub fn notice_number(since: DateTime<Utc>, now: DateTime<Utc>, every: Duration) -> u32 {
    let every_ms = every.num_milliseconds().max(1);
    let waited = (now - since).num_milliseconds().max(0);
    u32::try_from(waited / every_ms).unwrap_or(u32::MAX).max(1)
}

/// How long a wait has lasted, in words: `3 days`, `1 day`, `5 hours`.
pub fn waited(since: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let w = now - since;
    let plural = |n: i64, unit: &str| {
        if n == 1 {
            format!("1 {unit}")
        } else {
            format!("{n} {unit}s")
        }
    };
    if w.num_days() >= 1 {
        plural(w.num_days(), "day")
    } else {
        plural(w.num_hours().max(0), "hour")
    }
}

/// The number the timer key `key` gives notice of wait `id` (keys are
/// `<id>-<n>`), if it is one of that wait's.
pub fn notice_of(id: &str, key: &str) -> Option<u32> {
    key.strip_prefix(id)?.strip_prefix('-')?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(h: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + Duration::hours(h)
    }

    #[test]
    fn one_notice_per_period_counted_from_the_start_of_the_wait() {
        let day = Duration::hours(24);
        assert_eq!(next_notice(t(0), 0, day), Some(t(24)));
        assert_eq!(next_notice(t(0), 1, day), Some(t(48)));
        assert_eq!(next_notice(t(0), 6, day), Some(t(24 * 7)));
        assert_eq!(next_notice(t(0), 0, Duration::zero()), None);
    }

    #[test]
    fn after_an_outage_one_notice_counts_for_the_periods_passed() {
        let day = Duration::hours(24);
        assert_eq!(notice_number(t(0), t(24), day), 1);
        assert_eq!(notice_number(t(0), t(47), day), 1);
        assert_eq!(notice_number(t(0), t(24 * 3 + 5), day), 3);
        // Never 0, even early (a clock that went back).
        assert_eq!(notice_number(t(10), t(0), day), 1);
        // The next is then due a whole period after the last one counted.
        assert_eq!(next_notice(t(0), 3, day), Some(t(96)));
    }

    #[test]
    fn ids_and_keys() {
        let w = Wait::new(
            "judgment",
            7,
            "a Judgment".into(),
            "the Speaker".into(),
            t(0),
        );
        assert_eq!(w.id, format!("judgment-7-{}", t(0).timestamp()));
        assert_eq!(notice_of(&w.id, &format!("{}-3", w.id)), Some(3));
        assert_eq!(notice_of(&w.id, "judgment-7-1-3"), None);
        assert_eq!(notice_of("judgment-7-1", "judgment-7-12"), None);
        assert_eq!(notice_of("judgment-7-1", "judgment-7-1-x"), None);
    }

    #[test]
    fn how_long_in_words() {
        assert_eq!(waited(t(0), t(5)), "5 hours");
        assert_eq!(waited(t(0), t(24)), "1 day");
        assert_eq!(waited(t(0), t(24 * 3 + 5)), "3 days");
        assert_eq!(waited(t(0), t(1)), "1 hour");
    }
}
