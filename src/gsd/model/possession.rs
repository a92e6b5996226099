//! Possessions: what a player carries (Rules 1.4.12, 1.7.53), Hats and the
//! other items.

use super::*;

/// A possession as carried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Possession {
    /// The thing.
    pub item: Item,
    /// Worn (`*Overcoat*`, Rule 1.4.30).
    pub worn: bool,
    /// In a Nantucket (`(Euston Stub)`, Rule 1.4.15).
    pub nantucket: bool,
}

impl Possession {
    /// A Possession of a plain kind, neither worn nor in a Nantucket (an
    /// Electrical one Off).
    pub fn of(good: Good) -> Possession {
        Possession {
            item: Item::Good {
                good,
                stars: 0,
                on: false,
                n: None,
            },
            worn: false,
            nantucket: false,
        }
    }

    /// Its kind.
    pub fn good(&self) -> Good {
        self.item.good()
    }

    /// Whether its kind has a quality.
    pub fn is(&self, q: crate::gsd::goods::Quality) -> bool {
        self.item.good().is(q)
    }
}

/// A Hat category (Rule 1.4.6), by its initial letter, in letter order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
pub enum Hat {
    /// A - A to Z.
    AToZ,
    /// B - British Rail.
    BritishRail,
    /// C - Compass.
    Compass,
    /// H - Hard.
    Hard,
    /// O - a category Rule 1.4.12's example Luggage Rack uses (`Hats (COT)`)
    /// but Rule 1.4.6 does not define; kept so that such GSDs parse (RULINGS.md).
    O,
    /// S - Silly.
    Silly,
    /// T - Terminus.
    Terminus,
    /// V - Verdant.
    Verdant,
}

impl Hat {
    /// Every hat in canonical (letter) order.
    pub const ALL: [Hat; 8] = [
        Hat::AToZ,
        Hat::BritishRail,
        Hat::Compass,
        Hat::Hard,
        Hat::O,
        Hat::Silly,
        Hat::Terminus,
        Hat::Verdant,
    ];

    /// The initial letter used in the Luggage Rack.
    pub fn letter(self) -> char {
        ['A', 'B', 'C', 'H', 'O', 'S', 'T', 'V'][self as usize]
    }

    /// The Hat's category as Rule 1.4.6 names it.
    pub fn name(self) -> &'static str {
        [
            "A to Z",
            "British Rail",
            "Compass",
            "Hard",
            "O",
            "Silly",
            "Terminus",
            "Verdant",
        ][self as usize]
    }

    /// Parses an initial letter (any case).
    pub fn from_letter(c: char) -> Option<Hat> {
        Hat::ALL
            .into_iter()
            .find(|h| h.letter() == c.to_ascii_uppercase())
    }
}

/// A possession's identity: a kind of `grammar/possessions.toml`, with
/// what its form writes (a day, a station, a zone) and its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Item {
    /// `Hat (C)` or `Hats (COT)`: one or more Hats, in letter order.
    Hats(Vec<Hat>),
    /// A Newspaper stamped with a day: `Thursday's Paper` (Rule 1.4.32).
    Paper(#[serde(serialize_with = "ser_day")] Weekday),
    /// An All Day Rover Card stamped with a day: `Thursday Rover Card`
    /// (Rule 1.4.28).
    Rover(#[serde(serialize_with = "ser_day")] Weekday),
    /// A Ticket Stub: `Euston Stub` (Rule 1.7.33): the station resolved
    /// once, with its canonical name for the text.
    Stub {
        /// The station's canonical name.
        name: String,
        /// The station.
        at: StationId,
    },
    /// A Zone Pass of zone 2 to 6: `Zone 4 Pass` (Rule 1.4.18).
    ZonePass(u8),
    /// A Toff Clamp with the Station its carrier must close on: `Toff
    /// Clamp (Euston)` (Rule 1.4.44; a plain `Toff Clamp` is a
    /// [`Item::Good`] whose Station the plays tell, or no one).
    Toff {
        /// The station's canonical name.
        name: String,
        /// The station.
        at: StationId,
    },
    /// Any other kind, with the asterisks a Vacuum Cleaner collects (Rule
    /// 1.4.49) and, for an Electrical one, whether it is On (Rule 1.4.33):
    /// `Vacuum Cleaner (On)*`.
    Good {
        /// The kind.
        good: Good,
        /// Trailing asterisks.
        stars: u8,
        /// Switched On (Electrical kinds only).
        on: bool,
        /// The number of a numbered kind (`Remote Control 2`, `Radio Clamp
        /// 2`, Rule 1.4.46), when written.
        n: Option<u32>,
    },
}

impl Item {
    /// The kind.
    pub fn good(&self) -> Good {
        match self {
            Item::Hats(_) => Good::Hat,
            Item::Paper(_) => Good::Newspaper,
            Item::Rover(_) => Good::AllDayRoverCard,
            Item::Stub { .. } => Good::Stub,
            Item::ZonePass(_) => Good::ZonePass,
            Item::Toff { .. } => Good::ToffClamp,
            Item::Good { good, .. } => *good,
        }
    }

    /// The number of a numbered Possession (Rule 1.4.46), when written.
    pub fn number(&self) -> Option<u32> {
        match self {
            Item::Good { n, .. } => *n,
            _ => None,
        }
    }

    /// Whether it is an Electrical Possession switched On (Rule 1.4.33).
    pub fn is_on(&self) -> bool {
        matches!(self, Item::Good { on: true, .. })
    }
}
