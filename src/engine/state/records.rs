//! The records of the game state that outlive a Turn: Blocks, Visits,
//! Clamps' Stations, the Courier's stations, ... (each with its rule).

use serde::Serialize;

use super::Disruption;
use crate::map::StationId;

/// A Block for one Round (Rule 1.9.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Block {
    /// The blocked station.
    pub station: StationId,
    /// Who blocked it; the Block ends at the end of eir next Turn.
    pub by: String,
}

/// A Line State in force for one Round (Rules 1.20.5, 1.20.6): it ends at
/// the end of its setter's next Turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Timed {
    /// The entry of the Disruptions box.
    pub disruption: Disruption,
    /// Who set it.
    pub by: String,
}

/// A `[Visiting <Place>]` in a player's latest Move, Timeouts discounted
/// (Rule 1.7.9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Visit {
    /// The visitor.
    pub player: String,
    /// The Place visited, as written.
    pub place: String,
    /// Another player has since played `[Late Arrival from <Place>]`: the
    /// visitor must Pass, with no Actions, on eir next Turn.
    #[serde(default)]
    pub late: bool,
}

/// Where a player's Piece stood when eir latest Turn began: the Station a
/// Toff Clamp given em now points to (Rule 1.4.44).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Began {
    /// The player.
    pub player: String,
    /// The station.
    pub at: StationId,
}

/// One Toff Clamp and the Station its carrier's Standard Moves must end
/// closer to, and where [De-Toffing] removes it (Rule 1.4.44).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Toff {
    /// Its carrier.
    pub player: String,
    /// Where the carrier began the Turn before being Toffed.
    pub toward: StationId,
}

/// One Prison Clamp and its age (Rule 1.4.47).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prison {
    /// Its carrier.
    pub player: String,
    /// The carrier's Turns begun while carrying it: at the start of a
    /// third it has been carried more than two Rounds and is destroyed.
    pub turns: u32,
}

/// A Zone Tithed until the end of its Tither's next Turn (Rule 1.7.31).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Tithed {
    /// Who played `[Tithe <Zone>]`.
    pub player: String,
    /// The Zone.
    pub zone: u8,
}

/// An order of `[Radio Clamp <N> to <Station>]` (Rule 1.4.46): the
/// possessor of Radio Clamp `n` is to Move to `to` on eir next Turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RadioOrder {
    /// The Radio Clamp's number.
    pub n: u32,
    /// The Station ordered.
    pub to: StationId,
}

/// A Clamp a player received from another player's Action since eir last
/// Turn (Rule 1.4.36): what Knerdling may hand on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Received {
    /// The receiver.
    pub player: String,
    /// The Clamp, as carried.
    pub clamp: crate::gsd::Item,
    /// Who gave it.
    pub from: String,
    /// The receiver held the Knerdling Stick before receiving it, and has
    /// held it since.
    pub stick: bool,
}

/// Where the latest Turn's Move left its player's Piece: what a Venbacker
/// Ladder compares the next Move with (Rule 1.8.9, RULINGS.md E81).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum LastMove {
    /// Not known: no Turn folded yet, or a GSD read from its tables whose
    /// Plays do not say.
    #[default]
    Unknown,
    /// The latest Turn's Move ended at this Station (a Pass or a Timeout:
    /// where the Piece stood); `None` at a Ghost Station or off the Map,
    /// which have no Venbacker Number.
    Ended(Option<StationId>),
}

/// The Courier's Pick-Up and Destination Stations, while defined (Rule
/// 1.11.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct CourierStations {
    /// Where the Parcel is collected.
    pub pickup: StationId,
    /// Where it is delivered.
    pub destination: StationId,
}
