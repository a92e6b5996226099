//! Game Time arithmetic (Rules 1.13.1, 1.13.3).

use chrono::Weekday;

use crate::gsd::GameTime;

/// Minutes in a day.
const DAY: u32 = 24 * 60;
/// The skip runs from 0000 to 0500 (Rule 1.13.1).
const SKIP_END: u32 = 5 * 60;

/// Advances Game Time by `minutes` (Rule 1.13.1): crossing 0000 moves to
/// the next day and skips to 0500, unless the Night Train asterisk is set,
/// which cancels the first skip (the day still changes at 0000) and is then
/// cleared.
pub fn advance(t: GameTime, minutes: u32) -> GameTime {
    let mut day = t.day;
    let mut now = t.minutes as u32 + minutes;
    let mut night_train = t.night_train;
    while now >= DAY {
        now -= DAY;
        day = day.succ();
        if night_train {
            night_train = false;
        } else {
            // The skipped hours do not count against the Turn: time resumes
            // at 0500 plus whatever ran past midnight.
            now += SKIP_END;
        }
    }
    // A Night Train that carried time past 0000 into the small hours keeps
    // running until 0500 without skipping.
    GameTime {
        day,
        minutes: now as u16,
        night_train,
    }
}

/// How many times [`advance`] by `minutes` from `t` moves Game Time into a
/// new day (a Wait of a week moves into seven, and ends on the same
/// weekday).
pub fn days_crossed(t: GameTime, minutes: u32) -> u32 {
    let mut now = t.minutes as u32 + minutes;
    let mut night_train = t.night_train;
    let mut days = 0;
    while now >= DAY {
        now -= DAY;
        days += 1;
        if night_train {
            night_train = false;
        } else {
            now += SKIP_END;
        }
    }
    days
}

/// Undoes [`advance`] without Night Train: the Game Time `minutes` of play
/// before `t` (used to find a game's start from its current time).
pub fn rewind(t: GameTime, minutes: u32) -> GameTime {
    let mut day = t.day;
    let mut now = t.minutes as i64 - minutes as i64;
    while now < SKIP_END as i64 && (t.minutes as u32 >= SKIP_END || now < 0) {
        // Back across the skip: 0500 of this day is 2400 of the day before.
        now += DAY as i64 - SKIP_END as i64;
        day = day.pred();
    }
    GameTime {
        day,
        minutes: now as u16,
        night_train: false,
    }
}

/// Whether Game Time is in the skipped hours 0000-0500 (only reachable by
/// Night Train): Actions that target other Players cannot be played then
/// (Rule 1.13.1).
pub fn in_small_hours(t: GameTime) -> bool {
    (t.minutes as u32) < SKIP_END
}

/// Peak Hours (Rule 1.13.6): Mon to Sat 0800 to 2000 inclusive; `sunday`
/// is true on Sundays and Holidays (Rule 1.13.7).
pub fn is_peak(t: GameTime, sunday: bool) -> bool {
    !sunday && t.day != Weekday::Sun && (8 * 60..=20 * 60).contains(&(t.minutes as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gt(day: Weekday, hhmm: u32) -> GameTime {
        GameTime {
            day,
            minutes: (hhmm / 100 * 60 + hhmm % 100) as u16,
            night_train: false,
        }
    }

    #[test]
    fn rule_1_13_1_example() {
        // Rushton's Turn finished at Wednesday 2340 and Garden's Turn takes
        // 40 minutes: Garden's Turn ends at Thursday 0520.
        assert_eq!(advance(gt(Weekday::Wed, 2340), 40), gt(Weekday::Thu, 520));
    }

    #[test]
    fn plain_advance_and_exact_midnight() {
        assert_eq!(advance(gt(Weekday::Mon, 900), 10), gt(Weekday::Mon, 910));
        assert_eq!(advance(gt(Weekday::Mon, 2350), 10), gt(Weekday::Tue, 500));
        assert_eq!(advance(gt(Weekday::Sun, 2330), 60), gt(Weekday::Mon, 530));
    }

    #[test]
    fn night_train_cancels_the_first_skip() {
        let mut t = gt(Weekday::Wed, 2340);
        t.night_train = true;
        let after = advance(t, 40);
        assert_eq!(
            (after.day, after.minutes, after.night_train),
            (Weekday::Thu, 20, false)
        );
        assert!(in_small_hours(after));
        // The next midnight skips again.
        assert_eq!(advance(gt(Weekday::Thu, 2350), 20), gt(Weekday::Fri, 510));
    }

    #[test]
    fn rewind_undoes_advance() {
        for (start, mins) in [
            (gt(Weekday::Wed, 2340), 40),
            (gt(Weekday::Mon, 900), 10),
            (gt(Weekday::Sun, 2330), 60),
            (gt(Weekday::Tue, 600), 3000),
        ] {
            assert_eq!(
                rewind(advance(start, mins), mins),
                start,
                "{start} + {mins}"
            );
        }
    }

    #[test]
    fn peak_hours() {
        assert!(is_peak(gt(Weekday::Mon, 800), false));
        assert!(is_peak(gt(Weekday::Sat, 2000), false));
        assert!(!is_peak(gt(Weekday::Sat, 2001), false));
        assert!(!is_peak(gt(Weekday::Sun, 1200), false));
        assert!(
            !is_peak(gt(Weekday::Tue, 1200), true),
            "a Holiday is a Sunday"
        );
    }
}
