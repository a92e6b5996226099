//! Absences (issue 17, item 3; RULINGS S27 - S29): a player away for a
//! while, as njudge's `SET ABSENCE` has it. While a player is away, eir
//! turn's clock stops as it stops at the weekend (Rule 1.3.5: "Saturdays
//! and Sundays are ignored"): the time of an absence does not count towards
//! eir 36 hours.
//!
//! Everything here is pure: instants come in, nothing reads a clock. An
//! absence is the half-open interval `[from, to)`.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::deadline::{add_counted, counted_between, sub_counted, TURN_PERIOD};

/// One absence of one player in one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    /// The player, as the game names em.
    pub player: String,
    /// When it begins (inclusive).
    pub from: DateTime<Utc>,
    /// When it ends (exclusive): the player's clock runs again from here.
    pub to: DateTime<Utc>,
    /// The message that set it.
    pub message_id: String,
}

impl Absence {
    /// The time away as an interval.
    pub fn span(&self) -> (DateTime<Utc>, DateTime<Utc>) {
        (self.from, self.to)
    }
}

/// An absence as a player reads it, the way e wrote it (issue 39): whole
/// days by their dates, the last one included (`from Thu 3 Dec to Fri 4
/// Dec 2026`, `on Thu 3 Dec 2026`), though `to` is the instant after it;
/// an end that is no midnight by its time (`Thu 3 Dec 2026 10:30 GMT`).
pub fn describe(from: DateTime<Utc>, to: DateTime<Utc>) -> String {
    let midnight = |t: DateTime<Utc>| t.time() == chrono::NaiveTime::MIN;
    let day = |t: DateTime<Utc>, year: bool| {
        let f = if year { "%a %-d %b %Y" } else { "%a %-d %b" };
        t.format(f).to_string()
    };
    let instant = |t: DateTime<Utc>| t.format("%a %-d %b %Y %H:%M GMT").to_string();
    // The last day of an absence ending at a midnight is the day before.
    let last = to - Duration::days(1);
    match (midnight(from), midnight(to)) {
        (true, true) if from.date_naive() >= last.date_naive() => {
            format!("on {}", day(from, true))
        }
        (true, true) => {
            let both = from.format("%Y").to_string() != last.format("%Y").to_string();
            format!("from {} to {}", day(from, both), day(last, true))
        }
        (false, true) => format!("from {} to the end of {}", instant(from), day(last, true)),
        (true, false) => format!("from {} to {}", day(from, true), instant(to)),
        (false, false) => format!("from {} to {}", instant(from), instant(to)),
    }
}

/// The intervals of `spans`, sorted and merged; empty ones dropped.
fn merged(spans: &[(DateTime<Utc>, DateTime<Utc>)]) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
    let mut v: Vec<_> = spans.iter().copied().filter(|(a, b)| a < b).collect();
    v.sort();
    let mut out: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// Counted time (Rule 1.3.5) from `start` to `end`, less the counted time
/// spent away.
pub fn counted_between_away(
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    away: &[(DateTime<Utc>, DateTime<Utc>)],
) -> Duration {
    let mut total = counted_between(start, end);
    for (a, b) in merged(away) {
        let (a, b) = (a.max(start), b.min(end));
        if a < b {
            total -= counted_between(a, b);
        }
    }
    total.max(Duration::zero())
}

/// The earliest instant by which `period` of counted time, not away, has
/// elapsed since `start`: [`add_counted`] with the absences skipped as
/// weekends are.
pub fn add_counted_away(
    start: DateTime<Utc>,
    period: Duration,
    away: &[(DateTime<Utc>, DateTime<Utc>)],
) -> DateTime<Utc> {
    let (mut at, mut left) = (start, period.max(Duration::zero()));
    for (a, b) in merged(away).into_iter().filter(|(_, b)| *b > start) {
        if a <= at {
            // Away already: the clock starts when the absence ends.
            at = at.max(b);
            continue;
        }
        let end = add_counted(at, left);
        if end <= a {
            return end;
        }
        left -= counted_between(at, a);
        at = b;
    }
    add_counted(at, left)
}

/// The latest instant at which `period` of counted time, not away, is left
/// before `end`: [`sub_counted`] with the absences skipped.
pub fn sub_counted_away(
    end: DateTime<Utc>,
    period: Duration,
    away: &[(DateTime<Utc>, DateTime<Utc>)],
) -> DateTime<Utc> {
    let (mut at, mut left) = (end, period.max(Duration::zero()));
    for (a, b) in merged(away).into_iter().rev().filter(|(a, _)| *a < end) {
        if b >= at {
            at = at.min(a);
            continue;
        }
        let begin = sub_counted(at, left);
        if begin >= b {
            return begin;
        }
        left -= counted_between(b, at);
        at = a;
    }
    sub_counted(at, left)
}

/// The deadline of a turn whose clock started at `started`, for a player
/// away during `away` (Rule 1.3.5, RULINGS S27): 36 counted hours of time
/// not away. With no absence, [`super::turn_deadline`].
pub fn turn_deadline_away(
    started: DateTime<Utc>,
    away: &[(DateTime<Utc>, DateTime<Utc>)],
) -> DateTime<Utc> {
    add_counted_away(started, TURN_PERIOD, away)
}

/// When the private reminder of a turn due at `deadline` goes out: `before`
/// of counted time not away before it; `None` when that is not after
/// `started` (as [`super::reminder_at`]).
pub fn reminder_at_away(
    deadline: DateTime<Utc>,
    before: Duration,
    started: DateTime<Utc>,
    away: &[(DateTime<Utc>, DateTime<Utc>)],
) -> Option<DateTime<Utc>> {
    let at = sub_counted_away(deadline, before, away);
    (at > started).then_some(at)
}

#[cfg(test)]
mod tests;
