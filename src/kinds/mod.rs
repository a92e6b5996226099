//! Game kinds beside Volume 1: each a pure core (no IO, no clock, no
//! randomness) that reads a turn, judges it and renders the state.
pub mod mcxml;
