//! The deck of One Day in London as data: ten lines as ordered station
//! lists, 62 stations, 72 cards (RULINGS OD1 - OD3). Loaded from the
//! committed `maps/oneday-zone1.toml` through a checking builder
//! ([`Deck::from_toml`]); `derive` writes that file from the map.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::map::names::normalise;
use crate::map::LineCode;

/// The embedded deck (`maps/oneday-zone1.toml`).
pub const ONEDAY_ZONE1: &str = include_str!("../../../maps/oneday-zone1.toml");

/// Cards in a rack.
pub const RACK: usize = 10;

/// A station of the deck, as an index into [`Deck::stations`] (alphabetical).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StationIdx(pub u8);

impl StationIdx {
    /// The index into [`Deck::stations`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A line of the deck, as an index into [`Deck::lines`] (Line Code order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineIdx(pub u8);

impl LineIdx {
    /// The index into [`Deck::lines`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A card, numbered 1 - 72 in deck order: stations alphabetical, a
/// station's copies together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CardId(pub u8);

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A line as the card shows it: the stations before and after this one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The line.
    pub line: LineIdx,
    /// Its place on the line, from 0.
    pub at: u8,
    /// Stations before it on the line (in the line's orientation, OD3).
    pub before: u8,
    /// Stations after it.
    pub after: u8,
}

/// One line of the deck: its code, name and stations in order (OD3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckLine {
    /// The map's Line Code.
    pub code: LineCode,
    /// The name, e.g. "District".
    pub name: String,
    /// Its stations, first to last.
    pub stations: Vec<StationIdx>,
}

/// One station of the deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckStation {
    /// The card's name (OD2), e.g. "Edgware Road (Circle)".
    pub name: String,
    /// The map's stations it stands for (Aldgate stands for two).
    pub map: Vec<String>,
    /// Other names it is found by.
    pub aliases: Vec<String>,
    /// Its lines, in [`Deck::lines`] order.
    pub stops: Vec<Stop>,
    /// How many cards show it (OD1 step 5).
    pub copies: u8,
    /// Bit `l` set when line `l` calls here.
    pub mask: u16,
}

/// One card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its number.
    pub id: CardId,
    /// Its station.
    pub station: StationIdx,
    /// Which copy of the station's card, from 1.
    pub copy: u8,
}

/// Why a deck file is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DeckError {
    /// The TOML does not read as a deck.
    #[error("the deck does not read: {0}")]
    Toml(String),
    /// A line names an unknown Line Code.
    #[error("unknown line code {0:?}")]
    LineCode(String),
    /// A line names a station the deck does not list.
    #[error("line {line} names {station:?}, which is no station of the deck")]
    UnknownStation {
        /// The line.
        line: String,
        /// The name.
        station: String,
    },
    /// A line calls twice at one station.
    #[error("line {line} calls at {station:?} twice")]
    Twice {
        /// The line.
        line: String,
        /// The station.
        station: String,
    },
    /// A station's lines or counts disagree with the line lists.
    #[error("{station}: {what}")]
    Station {
        /// The station.
        station: String,
        /// What disagrees.
        what: String,
    },
    /// The cards are not the stations' copies in order.
    #[error("card {id}: {what}")]
    Card {
        /// The card's number.
        id: u32,
        /// What is wrong.
        what: String,
    },
    /// Two stations share a name or alias.
    #[error("the name {0:?} is given twice")]
    Name(String),
    /// The header's totals disagree with the contents.
    #[error("the header says {said} {what}, the deck has {has}")]
    Count {
        /// What is counted.
        what: &'static str,
        /// The header's figure.
        said: usize,
        /// The deck's.
        has: usize,
    },
}

/// The deck: lines, stations and cards, checked against each other.
#[derive(Debug)]
pub struct Deck {
    lines: Vec<DeckLine>,
    stations: Vec<DeckStation>,
    cards: Vec<Card>,
    by_key: HashMap<String, StationIdx>,
    /// `places[station][line]`: the line's place there, [`NOWHERE`] if none.
    places: Vec<[u8; 16]>,
}

/// In [`Deck::place_raw`]'s table: the line does not call there.
pub const NOWHERE: u8 = u8::MAX;

impl Deck {
    /// The embedded deck, loaded on first use.
    pub fn zone1() -> &'static Deck {
        static DECK: OnceLock<Deck> = OnceLock::new();
        DECK.get_or_init(|| {
            Deck::from_toml(ONEDAY_ZONE1)
                .expect("the embedded deck is valid (tests/oneday_deck.rs)")
        })
    }

    /// Reads and checks a deck file of `maps/oneday-zone1.toml`'s shape.
    pub fn from_toml(text: &str) -> Result<Deck, DeckError> {
        let raw: super::data::RawDeck =
            toml::from_str(text).map_err(|e| DeckError::Toml(e.to_string()))?;
        super::data::build(raw)
    }

    pub(super) fn assemble(
        lines: Vec<DeckLine>,
        stations: Vec<DeckStation>,
        cards: Vec<Card>,
    ) -> Result<Deck, DeckError> {
        let mut by_key = HashMap::new();
        for (k, s) in stations.iter().enumerate() {
            for name in std::iter::once(&s.name).chain(&s.aliases) {
                if by_key
                    .insert(normalise(name), StationIdx(k as u8))
                    .is_some()
                {
                    return Err(DeckError::Name(name.clone()));
                }
            }
        }
        let places = stations
            .iter()
            .map(|s| {
                let mut row = [NOWHERE; 16];
                for t in &s.stops {
                    row[t.line.index()] = t.at;
                }
                row
            })
            .collect();
        Ok(Deck {
            lines,
            stations,
            cards,
            by_key,
            places,
        })
    }

    /// The lines, in Line Code order.
    pub fn lines(&self) -> &[DeckLine] {
        &self.lines
    }

    /// One line.
    pub fn line(&self, l: LineIdx) -> &DeckLine {
        &self.lines[l.index()]
    }

    /// The line of a Line Code, if the deck has it.
    pub fn line_of(&self, code: LineCode) -> Option<LineIdx> {
        self.lines
            .iter()
            .position(|l| l.code == code)
            .map(|k| LineIdx(k as u8))
    }

    /// The stations, alphabetical.
    pub fn stations(&self) -> &[DeckStation] {
        &self.stations
    }

    /// One station.
    pub fn station(&self, s: StationIdx) -> &DeckStation {
        &self.stations[s.index()]
    }

    /// The cards, by number.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// One card, if the number is the deck's.
    pub fn card(&self, id: CardId) -> Option<&Card> {
        (id.0 as usize)
            .checked_sub(1)
            .and_then(|k| self.cards.get(k))
    }

    /// The cards of one station, by copy.
    pub fn cards_of(&self, s: StationIdx) -> impl Iterator<Item = &Card> {
        self.cards.iter().filter(move |c| c.station == s)
    }

    /// Where `line` calls at `s` (its place from 0), if it does.
    pub fn place(&self, s: StationIdx, line: LineIdx) -> Option<u8> {
        Some(self.place_raw(s, line)).filter(|&p| p != NOWHERE)
    }

    /// Where `line` calls at `s`, or [`NOWHERE`]: one table read.
    #[inline]
    pub fn place_raw(&self, s: StationIdx, line: LineIdx) -> u8 {
        self.places[s.index()][line.index()]
    }

    /// A station by its card name or an alias (the map's spelling
    /// tolerances: case, apostrophes, full stops, `&`).
    pub fn find(&self, name: &str) -> Option<StationIdx> {
        self.by_key.get(&normalise(name)).copied()
    }
}
