//! Deadline policies (issue 41): when a turn is due, per game. Volume 1's
//! Rule 1.3.5 (36 counted hours, weekends excluded) and "N hours per turn,
//! counted or plain"; both stop the clock while the awaited player is away
//! (RULINGS S27), and both give the private reminder `before` ahead.
//!
//! Written in a `NEW GAME` or the games file as `36h`, `48h counted`,
//! `24 hours plain` or `rule-1.3.5`.

use std::fmt;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::absence::{add_counted_away, sub_counted_away, turn_deadline_away};

/// The most hours a turn may be given (four weeks): a longer deadline is
/// a typo, and a game that waits a month a turn is paused instead.
pub const MAX_HOURS: u32 = 24 * 28;

/// When a turn is due.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "kebab-case")]
pub enum Policy {
    /// Rule 1.3.5: 36 hours counted, weekends excluded.
    #[default]
    Rule135,
    /// `hours` per turn, counted (weekends excluded, as Rule 1.3.5 counts)
    /// or plain (every hour of the week).
    PerTurn {
        /// Hours a turn is given.
        hours: u32,
        /// Whether weekends are left out of the count.
        counted: bool,
    },
}

/// A policy that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a deadline: write e.g. 36h, 48h counted, 24 hours plain (1 to {MAX_HOURS} \
     hours) or rule-1.3.5"
)]
pub struct PolicyError(pub String);

impl Policy {
    /// Reads `36h`, `48h counted`, `24 hours plain`, `rule-1.3.5` (any
    /// case; counted when not said, as the lounge counts).
    pub fn parse(text: &str) -> Result<Policy, PolicyError> {
        let bad = || PolicyError(text.to_string());
        let lower = text.trim().to_ascii_lowercase();
        if matches!(lower.as_str(), "rule-1.3.5" | "rule 1.3.5" | "1.3.5") {
            return Ok(Policy::Rule135);
        }
        let mut words: Vec<&str> = lower.split_whitespace().collect();
        let counted = match words.last() {
            Some(&"plain") => {
                words.pop();
                false
            }
            Some(&"counted") => {
                words.pop();
                true
            }
            _ => true,
        };
        let number = match words.as_slice() {
            [n] => n.strip_suffix('h').ok_or_else(bad)?,
            [n, unit] if matches!(*unit, "h" | "hour" | "hours") => n,
            _ => return Err(bad()),
        };
        let hours: u32 = number.parse().map_err(|_| bad())?;
        if !(1..=MAX_HOURS).contains(&hours) {
            return Err(bad());
        }
        Ok(Policy::PerTurn { hours, counted })
    }

    /// When a turn whose clock started at `started` is due, the player
    /// being away during `away`.
    pub fn due(
        self,
        started: DateTime<Utc>,
        away: &[(DateTime<Utc>, DateTime<Utc>)],
    ) -> DateTime<Utc> {
        match self {
            Policy::Rule135 => turn_deadline_away(started, away),
            Policy::PerTurn {
                hours,
                counted: true,
            } => add_counted_away(started, hours_of(hours), away),
            Policy::PerTurn {
                hours,
                counted: false,
            } => add_plain_away(started, hours_of(hours), away),
        }
    }

    /// When the private reminder of a turn due at `due` goes out: `before`
    /// ahead (counted as the policy counts); `None` when that is not after
    /// `started`.
    pub fn reminder(
        self,
        due: DateTime<Utc>,
        before: Duration,
        started: DateTime<Utc>,
        away: &[(DateTime<Utc>, DateTime<Utc>)],
    ) -> Option<DateTime<Utc>> {
        let at = match self {
            Policy::PerTurn { counted: false, .. } => due - before,
            _ => sub_counted_away(due, before, away),
        };
        (at > started).then_some(at)
    }
}

impl Policy {
    /// The policy in words for a step other than a turn, e.g. `24 counted
    /// hours a placement (weekends not counted)`; `turn` reads as the
    /// policy's `Display`.
    pub fn per(self, step: &str) -> String {
        let a = if step.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        match self {
            Policy::Rule135 => format!("36 counted hours {a} {step} (Rule 1.3.5)"),
            Policy::PerTurn {
                hours,
                counted: true,
            } => format!("{hours} counted hours {a} {step} (weekends not counted)"),
            Policy::PerTurn {
                hours,
                counted: false,
            } => format!("{hours} hours {a} {step}, every hour counted"),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.per("turn"))
    }
}

fn hours_of(h: u32) -> Duration {
    Duration::hours(i64::from(h))
}

/// `start` plus `period` of time not away.
fn add_plain_away(
    start: DateTime<Utc>,
    period: Duration,
    away: &[(DateTime<Utc>, DateTime<Utc>)],
) -> DateTime<Utc> {
    let mut spans: Vec<_> = away.iter().copied().filter(|(a, b)| a < b).collect();
    spans.sort();
    let (mut at, mut left) = (start, period.max(Duration::zero()));
    for (a, b) in spans.into_iter().filter(|(_, b)| *b > start) {
        if a <= at {
            at = at.max(b);
            continue;
        }
        if at + left <= a {
            break;
        }
        left -= a - at;
        at = b;
    }
    at + left
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(d: u32, h: u32) -> DateTime<Utc> {
        // December 2026: the 7th is a Monday.
        Utc.with_ymd_and_hms(2026, 12, d, h, 0, 0).unwrap()
    }

    #[test]
    fn reads_the_forms_a_speaker_writes() {
        assert_eq!(Policy::parse("rule-1.3.5"), Ok(Policy::Rule135));
        let per = |hours, counted| Ok(Policy::PerTurn { hours, counted });
        assert_eq!(Policy::parse("48h"), per(48, true));
        assert_eq!(Policy::parse("48H counted"), per(48, true));
        assert_eq!(Policy::parse("24 hours plain"), per(24, false));
        assert_eq!(Policy::parse("12 h plain"), per(12, false));
        for bad in ["", "0h", "48", "forty h", "48h soon", "10000h", "-3h"] {
            assert!(Policy::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn plain_hours_count_the_weekend_and_counted_do_not() {
        let fri = t(11, 12);
        let plain = Policy::PerTurn {
            hours: 24,
            counted: false,
        };
        let counted = Policy::PerTurn {
            hours: 24,
            counted: true,
        };
        assert_eq!(plain.due(fri, &[]), t(12, 12));
        // Friday noon + 12 h to midnight, then Monday 12 h.
        assert_eq!(counted.due(fri, &[]), t(14, 12));
        assert_eq!(Policy::Rule135.due(fri, &[]), t(15, 0));
    }

    #[test]
    fn an_absence_stops_a_plain_clock() {
        let plain = Policy::PerTurn {
            hours: 10,
            counted: false,
        };
        let start = t(8, 0);
        assert_eq!(plain.due(start, &[(t(8, 2), t(8, 5))]), t(8, 13));
        // Away at the start: the clock starts when the absence ends.
        assert_eq!(plain.due(start, &[(t(7, 20), t(8, 4))]), t(8, 14));
        // An absence after the deadline changes nothing.
        assert_eq!(plain.due(start, &[(t(9, 0), t(9, 5))]), t(8, 10));
        let r = plain.reminder(t(8, 10), Duration::hours(4), start, &[]);
        assert_eq!(r, Some(t(8, 6)));
        assert_eq!(
            plain.reminder(t(8, 10), Duration::hours(12), start, &[]),
            None
        );
    }

    #[test]
    fn a_policy_is_said_for_the_step_it_times() {
        let counted = Policy::PerTurn {
            hours: 24,
            counted: true,
        };
        assert_eq!(
            counted.to_string(),
            "24 counted hours a turn (weekends not counted)"
        );
        assert_eq!(
            counted.per("placement"),
            "24 counted hours a placement (weekends not counted)"
        );
        let plain = Policy::PerTurn {
            hours: 2,
            counted: false,
        };
        assert_eq!(plain.per("order"), "2 hours an order, every hour counted");
        assert_eq!(
            Policy::Rule135.to_string(),
            "36 counted hours a turn (Rule 1.3.5)"
        );
    }
}
