//! The stations the rules name (Mornington Crescent, Bank, Tower Hill...),
//! resolved once by the map builder.
//!
//! A rule that speaks of a particular station is written against a
//! [`Landmark`], never a name: the builder finds every landmark in the map
//! (by the rule's own spelling, or by the map file's `[landmarks]` table,
//! for a map that spells it otherwise) and refuses a map that lacks one, so
//! nothing in the engine looks a station up by name or can fail to find it.

use serde::Serialize;

use super::StationId;

/// A station a rule of Volume 1 names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Landmark {
    /// The goal (Rule 1.1.1); never Shunted to (1.10.1); unlimited Stack (1.14.3).
    MorningtonCrescent,
    /// [Anti-Narg] (Rule 1.4.40); ends a Charge Spiral Inwards (1.8.11).
    TottenhamCourtRoad,
    /// Pigeons (Rule 1.4.25).
    CharingCross,
    /// The Marmalade Sandwich's Special Move (Rule 1.4.16).
    Paddington,
    /// Where the caught Streaker is sent (Rule 1.7.60), and the Prison (1.4.47).
    TowerHill,
    /// The opposite exchanges of the Bureau de Change (Rule 1.7.21).
    Bank,
    /// The Hyde Transformation (Rule 1.7.38).
    HydeParkCorner,
    /// The Loop Trap Station (Rules 1.8.1, 1.10.1).
    DollisHill,
    /// An unlimited Token Stack (Rule 1.14.3).
    SevenSisters,
    /// An unlimited Token Stack (Rule 1.14.3).
    Euston,
    /// Streakers are caught here (Rule 1.7.60).
    Arsenal,
    /// Streakers are caught here (Rule 1.7.60).
    WembleyPark,
    /// Streakers are caught here (Rule 1.7.60).
    Wimbledon,
}

impl Landmark {
    /// Every landmark.
    pub const ALL: [Landmark; 13] = [
        Landmark::MorningtonCrescent,
        Landmark::TottenhamCourtRoad,
        Landmark::CharingCross,
        Landmark::Paddington,
        Landmark::TowerHill,
        Landmark::Bank,
        Landmark::HydeParkCorner,
        Landmark::DollisHill,
        Landmark::SevenSisters,
        Landmark::Euston,
        Landmark::Arsenal,
        Landmark::WembleyPark,
        Landmark::Wimbledon,
    ];

    /// The station's name as the rules spell it (the default the builder
    /// looks for).
    pub fn rule_name(self) -> &'static str {
        match self {
            Landmark::MorningtonCrescent => "Mornington Crescent",
            Landmark::TottenhamCourtRoad => "Tottenham Court Road",
            Landmark::CharingCross => "Charing Cross",
            Landmark::Paddington => "Paddington",
            Landmark::TowerHill => "Tower Hill",
            Landmark::Bank => "Bank",
            Landmark::HydeParkCorner => "Hyde Park Corner",
            Landmark::DollisHill => "Dollis Hill",
            Landmark::SevenSisters => "Seven Sisters",
            Landmark::Euston => "Euston",
            Landmark::Arsenal => "Arsenal",
            Landmark::WembleyPark => "Wembley Park",
            Landmark::Wimbledon => "Wimbledon",
        }
    }

    /// The key of the map file's `[landmarks]` table: `mornington_crescent`.
    pub fn key(self) -> String {
        self.rule_name()
            .to_ascii_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_")
    }

    /// The rule that names the station first.
    pub fn rule(self) -> &'static str {
        match self {
            Landmark::MorningtonCrescent => "1.1.1",
            Landmark::TottenhamCourtRoad => "1.4.40",
            Landmark::CharingCross => "1.4.25",
            Landmark::Paddington => "1.4.16",
            Landmark::TowerHill => "1.7.60",
            Landmark::Bank => "1.7.21",
            Landmark::HydeParkCorner => "1.7.38",
            Landmark::DollisHill => "1.8.1",
            Landmark::SevenSisters | Landmark::Euston => "1.14.3",
            Landmark::Arsenal | Landmark::WembleyPark | Landmark::Wimbledon => "1.7.60",
        }
    }

    /// The landmark a `[landmarks]` key names.
    pub fn from_key(key: &str) -> Option<Landmark> {
        Landmark::ALL.into_iter().find(|l| l.key() == key)
    }
}

/// Every landmark's station on one map, resolved by the builder.
#[derive(Clone, Debug)]
pub struct Landmarks(Vec<StationId>);

impl Landmarks {
    /// One station per [`Landmark::ALL`] entry, in that order.
    pub(crate) fn new(ids: Vec<StationId>) -> Landmarks {
        assert_eq!(ids.len(), Landmark::ALL.len(), "one station per landmark");
        Landmarks(ids)
    }

    /// The landmark's station.
    pub fn get(&self, l: Landmark) -> StationId {
        self.0[l as usize]
    }

    /// The landmark a station is, if any.
    pub fn which(&self, id: StationId) -> Option<Landmark> {
        Landmark::ALL.into_iter().find(|l| self.get(*l) == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_read_back() {
        for l in Landmark::ALL {
            assert_eq!(Landmark::from_key(&l.key()), Some(l));
        }
        assert_eq!(Landmark::TottenhamCourtRoad.key(), "tottenham_court_road");
    }
}
