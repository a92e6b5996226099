//! The Game State Document as data (Rules 1.2.0 - 1.2.2, 1.4.12, 1.7.53, 1.14.1).
//!
//! Station names are stored in the map's canonical spelling (the parser
//! resolves what players write), so a [`Gsd`] renders without the map and
//! compares equal however its text was laid out.

use std::fmt;

use chrono::Weekday;
use serde::{Serialize, Serializer};

use super::action::Action;
use super::directive::Directive;
use super::goods::Good;
use crate::map::{GhostId, LineCode, StationId};

mod boxes;
mod play;
mod possession;
mod time;

pub use boxes::{
    Courier, Disruption, LineState, Luggage, Marked, Spiral, Stack, StackMarker, StationMark,
};
pub use play::{Comment, Move, Place, Play, PlayItem, Target};
pub use possession::{Hat, Item, Possession};
pub use time::{day_name, parse_day, GameTime, DAYS};
use time::{ser_day, ser_day_opt};

/// A parsed Game State Document.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Gsd {
    /// The game's tag, from an optional `Game MN12` line (Rule 1.1.7).
    pub game: Option<String>,
    /// The Token Table, in order of play (Rule 1.2.0).
    pub players: Vec<PlayerRow>,
    /// The Disruptions box, in the order the disruptions occurred (Rule 1.2.2).
    pub disruptions: Vec<Disruption>,
    /// Game Time (Rule 1.13.1).
    pub time: Option<GameTime>,
    /// Wild Stations, oldest first (Rule 1.11.1).
    pub wild: Vec<String>,
    /// Courier Pick-up and Destination (Rule 1.11.2).
    pub courier: Option<Courier>,
    /// Token Stacks (Rule 1.14.1).
    pub stacks: Vec<Stack>,
    /// Suspect Packages and the PoID resting on the Map, shown in the Token
    /// Stacks box as Stacks with the text `Susp Package` or `PoID`, in the
    /// order written (Rules 1.4.7, 1.4.24).
    pub marked: Vec<Marked>,
    /// The Luggage Rack (Rule 1.4.12).
    pub luggage: Vec<Luggage>,
    /// The Lost & Found box, front first (Rule 1.7.53).
    pub lost_and_found: Vec<Item>,
    /// Every Play so far, one per Turn (Rule 1.2.0).
    pub plays: Vec<Play>,
}

/// A row of the Token Table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PlayerRow {
    /// The player's name.
    pub name: String,
    /// `false` when the name is marked with `*` (Inactive, Rule 1.2.0).
    pub active: bool,
    /// Home Station (Rule 1.12.1), if declared.
    pub home: Option<String>,
    /// Line Velocity (Rule 1.6.1).
    pub lv: u32,
    /// Charge, a signed percentage (Rule 1.19.2).
    pub charge: i32,
    /// Token counts (Rule 1.4.19).
    pub tokens: Tokens,
}

/// A token colour (Rule 1.4.1), in the Token Table's column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Bk (also written Bl).
    Black,
    /// Bu.
    Blue,
    /// Br.
    Bronze,
    /// Go.
    Gold,
    /// Gr.
    Green,
    /// Re.
    Red,
    /// Si.
    Silver,
}

impl Colour {
    /// Every colour, in the Token Table's column order.
    pub const ALL: [Colour; 7] = [
        Colour::Black,
        Colour::Blue,
        Colour::Bronze,
        Colour::Gold,
        Colour::Green,
        Colour::Red,
        Colour::Silver,
    ];

    /// The two-letter code of the GSD (`Bk`, `Bu`, ...).
    pub fn code(self) -> &'static str {
        ["Bk", "Bu", "Br", "Go", "Gr", "Re", "Si"][self as usize]
    }

    /// The name (`Black`, `Blue`, ...).
    pub fn name(self) -> &'static str {
        ["Black", "Blue", "Bronze", "Gold", "Green", "Red", "Silver"][self as usize]
    }

    /// Plastic Tokens: Black, Blue, Green and Red (the others are Metallic).
    pub fn is_plastic(self) -> bool {
        matches!(
            self,
            Colour::Black | Colour::Blue | Colour::Green | Colour::Red
        )
    }

    /// Parses a code or a name, ignoring case; `Bl` is Black (Rule 1.14.1's
    /// example writes it so).
    pub fn parse(s: &str) -> Option<Colour> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("bl") {
            return Some(Colour::Black);
        }
        Colour::ALL
            .into_iter()
            .find(|c| c.code().eq_ignore_ascii_case(s) || c.name().eq_ignore_ascii_case(s))
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Colour {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Colour::parse(&code)
            .ok_or_else(|| serde::de::Error::custom(format!("not a token colour: {code:?}")))
    }
}

/// Token counts by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tokens(pub [u32; 7]);

impl Tokens {
    /// The count of one colour.
    pub fn get(&self, c: Colour) -> u32 {
        self.0[c as usize]
    }

    /// Sets the count of one colour.
    pub fn set(&mut self, c: Colour, n: u32) {
        self.0[c as usize] = n;
    }
}

impl Serialize for Tokens {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(7))?;
        for c in Colour::ALL {
            m.serialize_entry(c.code(), &self.get(c))?;
        }
        m.end()
    }
}

impl<'de> serde::Deserialize<'de> for Tokens {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let counts = std::collections::BTreeMap::<Colour, u32>::deserialize(d)?;
        let mut t = Tokens::default();
        for (c, n) in counts {
            t.set(c, n);
        }
        Ok(t)
    }
}
