//! Deadline arithmetic (Rules 1.3.5, 1.16.x).
