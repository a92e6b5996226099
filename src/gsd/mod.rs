//! The Game State Document and play grammar (`grammar/gsd.ebnf`).
//!
//! [`parse_gsd`] reads a GSD as it arrives by mail (quoted, re-wrapped,
//! tab-expanded, between prose and a signature) into a [`Gsd`];
//! [`render`] writes the canonical layout of Rule 1.2.0, and
//! `parse_gsd(render(g)) == g`. [`parse_play`] reads a single Play line.
//! Every Action of Rule 1.7.2 parses into a typed [`Action`], generated from
//! `grammar/actions.toml`. Errors name the line, the column, what was
//! expected and, for stations, the nearest names.
//!
//! The module is pure: it takes text and the map, and returns data.

mod action;
mod diff;
mod directive;
mod error;
pub mod gambit;
mod goods;
mod layout;
mod model;
pub(crate) mod parse;
pub(crate) mod render;

pub use action::{
    parse_action, parse_token_list, Action, ActionError, ActionSpec, ArgRef, Duration, Phase,
    Price, Status, TokenList, SPECS,
};
pub use diff::table_diffs;
pub use directive::{Claim, Directive, Recycle};
pub use error::ParseError;
pub use goods::{Good, GoodSpec, Qualities, Quality, Size, GOODS};
pub use model::{
    day_name, parse_day, Colour, Comment, Courier, Disruption, GameTime, Gsd, Hat, Item, LineState,
    Luggage, Marked, Move, Place, Play, PlayItem, PlayerRow, Possession, Spiral, Stack,
    StackMarker, StationMark, Target, Tokens, DAYS,
};
pub use parse::{locate, parse_gsd, parse_play, Located};
pub use render::{possession_text, render, render_move, render_play};
