//! Venbacker Numbers: the faces of the 295-sided die (Rules 1.4.24, 1.7.47,
//! 1.8.9, 1.11.2). Volume 1 uses them but never defines them; mornbot
//! numbers the stations of Rule 1.17.8's Current table in the table's own
//! order, read row by row, left cell then right (Acton Town 1, Aldgate 2,
//! ..., Woodside Park 295: RULINGS.md M19). The numbers are map data
//! (`venbacker = N` on each station of the map file), checked at load: every
//! station has one, from 1 to the number of stations, each exactly once;
//! Ghost Stations have none (Rule 1.11.6).

use serde::Serialize;

use super::{Map, StationId};

/// A station's Venbacker Number: a face of the die, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Venbacker(u16);

impl Venbacker {
    /// The first face, 1.
    pub const FIRST: Venbacker = Venbacker(1);

    /// The number `n`, if it is a face (1 or more); whether the map has
    /// that many stations is [`Map::by_venbacker`]'s to say.
    pub fn new(n: u32) -> Option<Venbacker> {
        u16::try_from(n).ok().filter(|&n| n >= 1).map(Venbacker)
    }

    /// The number.
    pub fn get(self) -> u32 {
        u32::from(self.0)
    }
}

impl std::fmt::Display for Venbacker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Map {
    /// A station's Venbacker Number.
    pub fn venbacker(&self, id: StationId) -> Venbacker {
        self.station(id).venbacker
    }

    /// The station whose Venbacker Number is `n`: the face `n` of the die;
    /// `None` past the last station.
    pub fn by_venbacker(&self, n: Venbacker) -> Option<StationId> {
        self.by_venbacker.get(n.0 as usize - 1).copied()
    }

    /// The station with the highest Venbacker Number (Woodside Park, 295,
    /// on the 1999 map): "the Station with the highest Venbacker Number in
    /// the Game" of Rule 1.8.9 (RULINGS.md E81).
    pub fn highest_venbacker(&self) -> StationId {
        *self
            .by_venbacker
            .last()
            .expect("a map has stations (checked at load)")
    }
}
