//! The Speaker's automation: deadlines, timeouts, buzzes and judgments, as a
//! pure state machine over an injected clock.

pub mod deadline;
