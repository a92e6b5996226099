//! What is due in a game at an instant (Rule 1.3.5): the pure part of the
//! Speaker's timeouts. The daemon asks [`due`] after every message and
//! whenever [`next_event`] says something falls due, acts, and records the
//! act in the same transaction as its mail; since every deadline is derived
//! from the log, a restart recomputes the same schedule and an act already
//! recorded is never repeated.

use chrono::{DateTime, Duration, Utc};

use super::absence::{reminder_at_away, turn_deadline_away};
use super::deadline::is_overdue;

/// The facts [`due`] needs about one game.
#[derive(Clone, Debug)]
pub struct TurnClock {
    /// When the clock of the player to move started: the previous turn's
    /// submission, or the game's start when no turn is played yet.
    pub started: DateTime<Utc>,
    /// 1-based number of the turn awaited.
    pub turn: u64,
    /// Whose turn it is.
    pub player: String,
    /// Whether that turn's reminder was already sent.
    pub reminded: bool,
    /// Whether play is held (a Questionable turn, a winner, a game on hold).
    pub held: bool,
    /// When the player to move is away (RULINGS S27): eir clock stops
    /// meanwhile, as at the weekend.
    pub away: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

/// Something the Speaker must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// Remind the player privately that eir turn is due at `deadline`.
    Reminder {
        /// The player.
        player: String,
        /// The turn number.
        turn: u64,
        /// When the turn is due.
        deadline: DateTime<Utc>,
    },
    /// Submit the turn `Timeout` for the player (Rule 1.3.5).
    Timeout {
        /// The player.
        player: String,
        /// The turn number.
        turn: u64,
        /// The deadline that passed; the Timeout is submitted at it, so
        /// the next player's clock starts there.
        deadline: DateTime<Utc>,
    },
}

/// The deadline of the awaited turn.
pub fn deadline_of(c: &TurnClock) -> DateTime<Utc> {
    turn_deadline_away(c.started, &c.away)
}

/// What is due at `now` (at most one thing: a Timeout supersedes the
/// reminder it makes pointless).
pub fn due(c: &TurnClock, now: DateTime<Utc>, remind_before: Duration) -> Option<Due> {
    if c.held {
        return None;
    }
    let deadline = deadline_of(c);
    if is_overdue(deadline, now) {
        return Some(Due::Timeout {
            player: c.player.clone(),
            turn: c.turn,
            deadline,
        });
    }
    if !c.reminded {
        if let Some(at) = reminder_at_away(deadline, remind_before, c.started, &c.away) {
            if now >= at {
                return Some(Due::Reminder {
                    player: c.player.clone(),
                    turn: c.turn,
                    deadline,
                });
            }
        }
    }
    None
}

/// When [`due`] will next have something to say, if ever.
pub fn next_event(c: &TurnClock, remind_before: Duration) -> Option<DateTime<Utc>> {
    if c.held {
        return None;
    }
    let deadline = deadline_of(c);
    // Overdue means strictly after the deadline (RULINGS S3).
    let timeout = deadline + Duration::milliseconds(1);
    match (
        c.reminded,
        reminder_at_away(deadline, remind_before, c.started, &c.away),
    ) {
        (false, Some(at)) if at < timeout => Some(at),
        _ => Some(timeout),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(d: u32, h: u32, m: u32) -> DateTime<Utc> {
        // November 2026: the 20th is a Friday.
        Utc.with_ymd_and_hms(2026, 11, d, h, m, 0).unwrap()
    }

    fn clock(started: DateTime<Utc>, reminded: bool) -> TurnClock {
        TurnClock {
            started,
            turn: 5,
            player: "Warren".into(),
            reminded,
            held: false,
            away: Vec::new(),
        }
    }

    #[test]
    fn friday_ten_am_is_due_monday_ten_pm_with_a_reminder_twelve_weekday_hours_before() {
        let c = clock(t(20, 10, 0), false);
        let h12 = Duration::hours(12);
        assert_eq!(deadline_of(&c), t(23, 22, 0));
        assert_eq!(due(&c, t(23, 9, 59), h12), None);
        assert_eq!(
            due(&c, t(23, 10, 0), h12),
            Some(Due::Reminder {
                player: "Warren".into(),
                turn: 5,
                deadline: t(23, 22, 0)
            })
        );
        assert_eq!(next_event(&c, h12), Some(t(23, 10, 0)));
        // Reminded: nothing until strictly after the deadline.
        let c = clock(t(20, 10, 0), true);
        assert_eq!(due(&c, t(23, 22, 0), h12), None);
        assert_eq!(
            due(&c, t(23, 22, 1), h12),
            Some(Due::Timeout {
                player: "Warren".into(),
                turn: 5,
                deadline: t(23, 22, 0)
            })
        );
        assert_eq!(
            next_event(&c, h12),
            Some(t(23, 22, 0) + Duration::milliseconds(1))
        );
    }

    #[test]
    fn a_restart_long_after_the_deadline_times_out_once_not_reminds() {
        let c = clock(t(16, 9, 0), false);
        match due(&c, t(25, 0, 0), Duration::hours(12)) {
            Some(Due::Timeout { deadline, .. }) => assert_eq!(deadline, t(17, 21, 0)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn held_games_have_no_deadline() {
        let mut c = clock(t(16, 9, 0), false);
        c.held = true;
        assert_eq!(due(&c, t(30, 0, 0), Duration::hours(12)), None);
        assert_eq!(next_event(&c, Duration::hours(12)), None);
    }

    #[test]
    fn a_weekend_turn_starts_its_clock_on_monday() {
        let c = clock(t(21, 15, 0), true); // Saturday
        assert_eq!(deadline_of(&c), t(24, 12, 0));
    }
}
