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
//! - [`state`]: a game: racks, piles, draw pile, whose step, the end; the
//!   shuffle `oneday-shuffle/1` (OD4, OD5, OD8).
//! - [`order`]: what one mail says, and its canonical text (OD6).
//! - [`mod@read`]: an order from a mail body, strictly.
//! - [`mod@judge`]: an order against a state: Legal, Won, Illegal (every
//!   violation, citing the seed's heading and the ruling) or NoDraw;
//!   timeouts (OD5 - OD13).
//! - [`render`](mod@render): the lounge's document and each player's own (OD4).

pub mod case;
pub mod data;
pub mod deck;
pub mod derive;
pub mod game_case;
pub mod journey;
pub mod judge;
pub mod order;
pub mod read;
pub mod render;
pub mod rulings;
pub mod state;
pub mod verify;

pub use data::render;
pub use deck::{
    Card, CardId, Deck, DeckError, DeckLine, DeckStation, LineIdx, StationIdx, Stop, RACK,
};
pub use derive::{derive, DeriveError};
pub use journey::{check_rack, journey, Blocked, Break, Journey, JourneyError, Leg, Reason, Why};
pub use judge::{forced_pile, judge, timeout, Verdict, Violation};
pub use order::{canonical, Order};
pub use read::{read, ReadError};
pub use render::{private_document, public_document};
pub use rulings::{JourneyRulings, RulingError};
pub use state::{Next, Phase, Rulings, StartError, State, Step, SHUFFLE_VERSION};
