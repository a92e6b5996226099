//! One Day in London (`shared/seeds/one-day-in-london.html`, issue 43): a
//! rack game on Zone 1 of the Tube. The pure foundations, not yet a
//! [`Kind`](crate::kinds::Kind): the deck as data and the journey
//! validator. RULINGS.md, section One Day in London, says how the seed's
//! gaps are read (OD1 - OD3, OD10).
//!
//! - [`deck`]: the deck: lines, stations, cards ([`Deck::zone1`], loaded
//!   from the committed `maps/oneday-zone1.toml`).
//! - [`derive`](mod@derive): that file derived from the map (five steps).
//! - [`data`]: the file's shape, checked on load, and its writer.
//! - [`rulings`]: the journey rule's contested readings (OD10).
//! - [`journey`](mod@journey): is a rack a continuous journey, or where
//!   does it first break and why.
//! - [`case`]: the rack cases of `fixtures/cases-oneday/`.

pub mod case;
pub mod data;
pub mod deck;
pub mod derive;
pub mod journey;
pub mod rulings;

pub use data::render;
pub use deck::{
    Card, CardId, Deck, DeckError, DeckLine, DeckStation, LineIdx, StationIdx, Stop, RACK,
};
pub use derive::{derive, DeriveError};
pub use journey::{check_rack, journey, Blocked, Break, Journey, JourneyError, Leg, Reason, Why};
pub use rulings::{JourneyRulings, RulingError};
