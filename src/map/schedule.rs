//! Opening windows of Rules 1.13.5 and 1.13.6.

use chrono::Weekday;
use serde::Serialize;

/// When a restricted Station or Line Segment is Open.
///
/// A schedule is a list of windows; the place is Open when any window holds.
/// An empty schedule is always Closed (Mornington Crescent, Rule 1.13.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Schedule {
    /// The windows as written in the map data, e.g. `"Sun 0800-2300"`.
    pub written: Vec<String>,
    #[serde(skip)]
    windows: Vec<Window>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    /// Bit `n` set: open on the day `n` days after Monday.
    days: u8,
    /// Minutes after 0000, inclusive.
    from: u16,
    /// Minutes after 0000, inclusive; 1440 is midnight at the end of the day.
    until: u16,
}

/// Peak Hours, Rule 1.13.6: Mon to Sat 0800 to 2000 inclusive.
const PEAK: Window = Window {
    days: 0b0011_1111,
    from: 8 * 60,
    until: 20 * 60,
};

impl Schedule {
    /// Parses the windows of the map data: `"Mon-Sat"`, `"Sun 0800-2300"`,
    /// `"Mon-Fri 0000-2100"` or `"Peak"`.
    pub fn parse(written: &[String]) -> Result<Schedule, String> {
        let windows = written
            .iter()
            .map(|w| parse_window(w))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Schedule {
            written: written.to_vec(),
            windows,
        })
    }

    /// Whether the place is Open on `day` at `minute` minutes after 0000.
    ///
    /// Holidays count as Sundays (Rule 1.13.7): the caller passes
    /// `Weekday::Sun` for them.
    pub fn is_open(&self, day: Weekday, minute: u16) -> bool {
        let bit = 1u8 << day.num_days_from_monday();
        self.windows
            .iter()
            .any(|w| w.days & bit != 0 && (w.from..=w.until).contains(&minute))
    }
}

fn parse_window(text: &str) -> Result<Window, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("peak") {
        return Ok(PEAK);
    }
    let (days, hours) = match text.split_once(' ') {
        Some((d, h)) => (d, Some(h.trim())),
        None => (text, None),
    };
    let days = parse_days(days).ok_or_else(|| {
        format!("bad days {days:?} in window {text:?} (expected e.g. Mon-Sat or Sun)")
    })?;
    let (from, until) = match hours {
        None => (0, 1440),
        Some(h) => {
            let (a, b) = h.split_once('-').ok_or_else(|| {
                format!("bad hours {h:?} in window {text:?} (expected HHMM-HHMM)")
            })?;
            let from = parse_hhmm(a).ok_or_else(|| format!("bad time {a:?} in window {text:?}"))?;
            let until =
                parse_hhmm(b).ok_or_else(|| format!("bad time {b:?} in window {text:?}"))?;
            if until < from {
                return Err(format!("window {text:?} ends before it starts"));
            }
            (from, until)
        }
    };
    Ok(Window { days, from, until })
}

fn parse_day(d: &str) -> Option<u32> {
    ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        .iter()
        .position(|n| n.eq_ignore_ascii_case(d))
        .map(|i| i as u32)
}

fn parse_days(d: &str) -> Option<u8> {
    match d.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (parse_day(a)?, parse_day(b)?);
            (a <= b).then(|| (a..=b).fold(0u8, |m, i| m | 1 << i))
        }
        None => parse_day(d).map(|i| 1 << i),
    }
}

fn parse_hhmm(t: &str) -> Option<u16> {
    if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: u16 = t[..2].parse().ok()?;
    let m: u16 = t[2..].parse().ok()?;
    (m < 60 && (h < 24 || (h == 24 && m == 0))).then_some(h * 60 + m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(w: &[&str]) -> Schedule {
        Schedule::parse(&w.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn peak_is_mon_to_sat_0800_to_2000_inclusive() {
        let s = sched(&["Peak"]);
        assert!(!s.is_open(Weekday::Mon, 7 * 60 + 59));
        assert!(s.is_open(Weekday::Mon, 8 * 60));
        assert!(s.is_open(Weekday::Sat, 20 * 60));
        assert!(!s.is_open(Weekday::Sat, 20 * 60 + 1));
        assert!(!s.is_open(Weekday::Sun, 12 * 60));
    }

    #[test]
    fn all_day_and_split_windows() {
        let s = sched(&["Mon-Sat", "Sun 0800-2300"]);
        assert!(s.is_open(Weekday::Wed, 5 * 60));
        assert!(!s.is_open(Weekday::Sun, 7 * 60));
        assert!(s.is_open(Weekday::Sun, 23 * 60));
        let tg = sched(&["Mon-Sat 0500-0900", "Mon-Sat 2000-2400"]);
        assert!(tg.is_open(Weekday::Tue, 6 * 60));
        assert!(!tg.is_open(Weekday::Tue, 12 * 60));
        assert!(tg.is_open(Weekday::Tue, 23 * 60 + 50));
        assert!(!tg.is_open(Weekday::Sun, 6 * 60));
    }

    #[test]
    fn empty_schedule_is_always_closed() {
        let s = sched(&[]);
        assert!(!s.is_open(Weekday::Mon, 600));
    }

    #[test]
    fn bad_windows_are_rejected_with_the_text() {
        for bad in [
            "Mon-Funday",
            "Sun 0800",
            "Sun 2500-2600",
            "Sat-Mon",
            "Sun 2000-1000",
        ] {
            let err = Schedule::parse(&[bad.to_string()]).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }
}
