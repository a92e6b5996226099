//! The Disruptions box as the engine holds it (Rule 1.2.2): the GSD's
//! entries with their stations resolved to [`StationId`]s.

use chrono::Weekday;
use serde::Serialize;

use crate::gsd::{self, Colour, LineState, Spiral, StationMark};
use crate::map::{LineCode, Map, StationId};

/// One entry of the Disruptions box, typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Disruption {
    /// A station with a mark: Pegged, Bulkheaded, Maelberged, Damaged,
    /// Defamed (Rules 1.9.3, 1.9.5, 1.11.3, 1.11.4, 1.11.7).
    Station {
        /// The station.
        at: StationId,
        /// The mark.
        mark: StationMark,
    },
    /// A Pegged Line Segment (Rule 1.11.5).
    PeggedSegment {
        /// One end.
        from: StationId,
        /// The other end.
        to: StationId,
        /// The line.
        line: LineCode,
    },
    /// A Line State (Rule 1.20).
    Line {
        /// The line.
        line: LineCode,
        /// Its state.
        state: LineState,
    },
    /// In Knip (Rule 1.8.4).
    Knip,
    /// Bridges Up (Rule 1.8.3).
    BridgesUp,
    /// Parks and Greens (Rule 1.8.2).
    ParksAndGreens,
    /// Gapminding (Rule 1.8.7).
    Gapminding,
    /// Venbacker Ladder (Rule 1.8.9).
    VenbackerLadder,
    /// The Dollis Hill Loop (Rules 1.8.1, 1.8.6).
    DollisHillLoop,
    /// Sgronk (Rule 1.8.10).
    Sgronk,
    /// Speed Craze (Rule 1.8.13).
    SpeedCraze,
    /// A Charge Spiral (Rule 1.8.11).
    ChargeSpiral(Spiral),
    /// A Bock of a colour (Rule 1.8.8).
    Bock(Colour),
    /// An Upcoming Holiday, and its day once rolled (Rule 1.13.7).
    UpcomingHoliday(Option<Weekday>),
    /// A Token Cascade: its focus Player and the Piece Moves made since
    /// the `[Token Cascade]` (Rules 1.7.36, 1.7.37).
    TokenCascade {
        /// The focus Player's name, a player of the game.
        focus: String,
        /// Piece Moves made since the Cascade began: the X each payer owes.
        moves: u32,
    },
}

/// A GSD's disruption naming a station the map does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not a station of the map")]
pub struct UnknownStation(pub String);

impl Disruption {
    /// The engine's entry for a GSD's.
    pub fn from_gsd(d: &gsd::Disruption, map: &Map) -> Result<Disruption, UnknownStation> {
        let find = |name: &str| map.find(name).ok_or_else(|| UnknownStation(name.into()));
        Ok(match d {
            gsd::Disruption::Station { station, mark } => Disruption::Station {
                at: find(station)?,
                mark: *mark,
            },
            gsd::Disruption::PeggedSegment { from, to, line } => Disruption::PeggedSegment {
                from: find(from)?,
                to: find(to)?,
                line: *line,
            },
            gsd::Disruption::Line { line, state } => Disruption::Line {
                line: *line,
                state: state.clone(),
            },
            gsd::Disruption::Knip => Disruption::Knip,
            gsd::Disruption::BridgesUp => Disruption::BridgesUp,
            gsd::Disruption::ParksAndGreens => Disruption::ParksAndGreens,
            gsd::Disruption::Gapminding => Disruption::Gapminding,
            gsd::Disruption::VenbackerLadder => Disruption::VenbackerLadder,
            gsd::Disruption::DollisHillLoop => Disruption::DollisHillLoop,
            gsd::Disruption::Sgronk => Disruption::Sgronk,
            gsd::Disruption::SpeedCraze => Disruption::SpeedCraze,
            gsd::Disruption::ChargeSpiral(s) => Disruption::ChargeSpiral(*s),
            gsd::Disruption::Bock(c) => Disruption::Bock(*c),
            gsd::Disruption::UpcomingHoliday(d) => Disruption::UpcomingHoliday(*d),
            gsd::Disruption::TokenCascade { focus, moves } => Disruption::TokenCascade {
                focus: focus.clone(),
                moves: *moves,
            },
        })
    }

    /// The GSD's entry, with the map's names.
    pub fn to_gsd(&self, map: &Map) -> gsd::Disruption {
        let name = |id: &StationId| map.station(*id).name.clone();
        match self {
            Disruption::Station { at, mark } => gsd::Disruption::Station {
                station: name(at),
                mark: *mark,
            },
            Disruption::PeggedSegment { from, to, line } => gsd::Disruption::PeggedSegment {
                from: name(from),
                to: name(to),
                line: *line,
            },
            Disruption::Line { line, state } => gsd::Disruption::Line {
                line: *line,
                state: state.clone(),
            },
            Disruption::Knip => gsd::Disruption::Knip,
            Disruption::BridgesUp => gsd::Disruption::BridgesUp,
            Disruption::ParksAndGreens => gsd::Disruption::ParksAndGreens,
            Disruption::Gapminding => gsd::Disruption::Gapminding,
            Disruption::VenbackerLadder => gsd::Disruption::VenbackerLadder,
            Disruption::DollisHillLoop => gsd::Disruption::DollisHillLoop,
            Disruption::Sgronk => gsd::Disruption::Sgronk,
            Disruption::SpeedCraze => gsd::Disruption::SpeedCraze,
            Disruption::ChargeSpiral(s) => gsd::Disruption::ChargeSpiral(*s),
            Disruption::Bock(c) => gsd::Disruption::Bock(*c),
            Disruption::UpcomingHoliday(d) => gsd::Disruption::UpcomingHoliday(*d),
            Disruption::TokenCascade { focus, moves } => gsd::Disruption::TokenCascade {
                focus: focus.clone(),
                moves: *moves,
            },
        }
    }

    /// The entry as the GSD writes it: `Euston (Peg)`, `NT: Soaped`.
    pub fn text(&self, map: &Map) -> String {
        gsd::render::disruption_text(&self.to_gsd(map))
    }
}
