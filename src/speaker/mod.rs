//! The Speaker's automation: deadlines, timeouts, buzzes and judgments, as a
//! pure state machine over an injected clock.
//!
//! - [`absence`](mod@absence): a player away, eir turn's clock stopped meanwhile.
//! - [`deadline`](mod@deadline): when a Turn, an answer to a Buzz or a Judgment is due
//!   (Rules 1.3.5, 1.16.3, 1.16.4), reminders, and the two-month timeout of
//!   Rule 1.1.10.
//! - [`referee`](mod@referee): the reproducible random draw of a Referee (Rule 1.16.4).
//! - [`points`](mod@points): what a game's end does to Points (Rule 1.1.9).
//! - [`stalemate`](mod@stalemate): who has agreed a Stalemate (Rule 1.1.11).
//! - [`order`](mod@order): the order of play of a game started by mail (Rule 1.1.12).
//! - [`policy`](mod@policy): deadline policies per game (Rule 1.3.5, or N hours a turn).
//! - [`join`](mod@join): the tokens that confirm a join by mail.
//! - [`waiting`](mod@waiting): the daily notice of a game waiting on a human.

pub mod absence;
pub mod buzz;
pub mod deadline;
pub mod join;
pub mod machine;
pub mod order;
pub mod points;
pub mod policy;
pub mod referee;
pub mod stalemate;
pub mod waiting;

pub use deadline::{
    buzz_response_deadline, judgment_deadline, parse_timestamp, reminder_at, resignation_due,
    turn_deadline, DeadlineError, Kind,
};
pub use referee::{draw_referee, eligible_referees, seed_from};
