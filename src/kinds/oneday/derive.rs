//! The deck derived from the map (RULINGS OD1 - OD3,
//! `shared/design/other-games.md` Appendix A), in five steps:
//!
//! 1. keep the stations whose zones include 1, on every line but the
//!    Circle, the DLR and the East London ([`DROPPED_LINES`]);
//! 2. merge Aldgate East into Aldgate ([`MERGED`]); split Edgware Road into
//!    its two map sites ([`SITE_NAMES`]);
//! 3. drop the Jubilee's Green Park - Charing Cross branch
//!    ([`DROPPED_SEGMENTS`]);
//! 4. join each line's Zone 1 segments into one ordered list, which must be
//!    a simple path, and orient it from [`ORIENTATION`]'s first station;
//! 5. copies per station = max(1, lines - 1), the Metropolitan and the
//!    Hammersmith & City counted once where both call.
//!
//! The result is written by `mornbot map oneday-deck` into
//! `maps/oneday-zone1.toml`, which `tests/oneday_deck.rs` regenerates.

use std::collections::{BTreeMap, BTreeSet};

use thiserror::Error;

use super::data::{build, RawCard, RawCards, RawDeck, RawHeader, RawLine, RawStation};
use super::deck::{Deck, DeckError};
use crate::map::names::normalise;
use crate::map::{LineCode, Map, StationId};

/// The deck file's header comment.
pub const HEADER: &str = "\
# One Day in London (issue 43): the deck, 62 stations on 10 lines, 72 cards.
#
# GENERATED, do not edit: derived from maps/london-1999.toml by
#     mornbot map oneday-deck > maps/oneday-zone1.toml
# (src/kinds/oneday/derive.rs; tests/oneday_deck.rs regenerates it and
# finds it identical). RULINGS.md OD1 - OD3 say why: a reconstruction, the
# seed lists no cards.
#
# Shape
#   [deck]          the totals, checked on load.
#   [lines.XX]      each line as one ordered list of stations (OD3: the
#                   District from Edgware Road, the Victoria from King's
#                   Cross, the Piccadilly to King's Cross, the others as
#                   Boardspace orients them).
#   [[station]]     a card's face: its name (OD2), the map stations it
#                   stands for, other names it is found by (the map's,
#                   normalised), its copies (OD1 step 5) and per line the
#                   stations [before, after] it.
#   [cards] list    the 72 cards: stations alphabetical, copies together.
";

/// Lines the game has no cards for (step 1).
pub const DROPPED_LINES: [LineCode; 3] = [LineCode::CL, LineCode::DL, LineCode::EL];

/// Map stations merged into another card (step 2).
pub const MERGED: [(&str, &str); 1] = [("Aldgate East", "Aldgate")];

/// A map station of several sites: the card of the site a line calls at
/// (step 2; the names are Boardspace's, OD2).
pub const SITE_NAMES: [(&str, LineCode, &str); 2] = [
    ("Edgware Road", LineCode::BL, "Edgware Road (Bakerloo)"),
    ("Edgware Road", LineCode::DS, "Edgware Road (Circle)"),
];

/// Segments of the map the game does not have (step 3): the Jubilee
/// to Charing Cross, closed on 20 November 1999.
pub const DROPPED_SEGMENTS: [(LineCode, &str, &str); 1] =
    [(LineCode::JL, "Green Park", "Charing Cross")];

/// Each line's first station (step 4, OD3).
pub const ORIENTATION: [(LineCode, &str); 10] = [
    (LineCode::BL, "Paddington"),
    (LineCode::CN, "Notting Hill Gate"),
    (LineCode::DS, "Edgware Road (Circle)"),
    (LineCode::HC, "Paddington"),
    (LineCode::JL, "Baker Street"),
    (LineCode::MP, "Baker Street"),
    (LineCode::NT, "Elephant and Castle"),
    (LineCode::PD, "Earl's Court"),
    (LineCode::VC, "King's Cross St. Pancras"),
    (LineCode::WC, "Waterloo"),
];

/// Why the map does not give a deck.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DeriveError {
    /// A station of several sites has no card name for a site.
    #[error("{station}: no card name for the site of {line}")]
    Site {
        /// The map station.
        station: String,
        /// The line.
        line: LineCode,
    },
    /// A line's Zone 1 segments are not one simple path.
    #[error("the {line} in Zone 1 is not one line: {why}")]
    NotAPath {
        /// The line.
        line: LineCode,
        /// What is wrong.
        why: String,
    },
    /// The derived deck fails the deck's own checks.
    #[error(transparent)]
    Deck(#[from] DeckError),
}

/// The card name of `id` where `line` calls at it.
fn card_name(map: &Map, id: StationId, line: LineCode) -> Result<String, DeriveError> {
    let st = map.station(id);
    if let Some((_, to)) = MERGED.iter().find(|(from, _)| *from == st.name) {
        return Ok(to.to_string());
    }
    let kept = |s: &crate::map::Site| s.lines.iter().any(|l| !DROPPED_LINES.contains(&l));
    if st.sites.iter().filter(|s| kept(s)).count() < 2 {
        return Ok(st.name.clone());
    }
    let site = map.site_of(id, line).map(|k| &st.sites[k]);
    SITE_NAMES
        .iter()
        .find(|(name, l, _)| *name == st.name && site.is_some_and(|s| s.lines.contains(*l)))
        .map(|(_, _, card)| card.to_string())
        .ok_or_else(|| DeriveError::Site {
            station: st.name.clone(),
            line,
        })
}

/// One line's Zone 1 stations in order (steps 1 - 4).
fn line_list(map: &Map, code: LineCode) -> Result<Vec<String>, DeriveError> {
    let in_zone1 = |id: StationId| map.station(id).zones.contains(&1);
    let mut next: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for branch in &map.line(code).branches {
        for pair in branch.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let dropped = DROPPED_SEGMENTS.iter().any(|&(l, x, y)| {
                let (na, nb) = (&map.station(a).name, &map.station(b).name);
                l == code && ((na == x && nb == y) || (na == y && nb == x))
            });
            if !in_zone1(a) || !in_zone1(b) || dropped {
                continue;
            }
            let (na, nb) = (card_name(map, a, code)?, card_name(map, b, code)?);
            next.entry(na.clone()).or_default().insert(nb.clone());
            next.entry(nb).or_default().insert(na);
        }
    }
    let not = |why: String| DeriveError::NotAPath { line: code, why };
    if let Some((s, n)) = next.iter().find(|(_, n)| n.len() > 2) {
        return Err(not(format!("{s} has {} neighbours", n.len())));
    }
    let start = ORIENTATION
        .iter()
        .find(|(l, _)| *l == code)
        .map(|(_, s)| s.to_string())
        .ok_or_else(|| not("no orientation".into()))?;
    if next.get(&start).map(BTreeSet::len) != Some(1) {
        return Err(not(format!("{start} is not an end of it")));
    }
    let mut list = vec![start];
    while let Some(n) = next[list.last().expect("non-empty")]
        .iter()
        .find(|n| list.len() < 2 || **n != list[list.len() - 2])
    {
        if list.contains(n) {
            return Err(not(format!("it loops at {n}")));
        }
        list.push(n.clone());
    }
    if list.len() != next.len() {
        return Err(not(format!(
            "{} stations of {} joined",
            list.len(),
            next.len()
        )));
    }
    Ok(list)
}

/// The deck the map gives (steps 1 - 5), checked as a deck file is.
pub fn derive(map: &Map) -> Result<Deck, DeriveError> {
    let codes: Vec<LineCode> = LineCode::ALL
        .into_iter()
        .filter(|l| !DROPPED_LINES.contains(l))
        .collect();
    let mut lines = BTreeMap::new();
    // Card name -> (map stations, their names' keys), from every line.
    let mut stations: BTreeMap<String, BTreeSet<StationId>> = BTreeMap::new();
    for &code in &codes {
        let list = line_list(map, code)?;
        for name in &list {
            let ids = stations.entry(name.clone()).or_default();
            ids.extend(map.station_ids().filter(|&id| {
                map.station(id).lines.contains(code)
                    && card_name(map, id, code).as_deref() == Ok(name.as_str())
            }));
        }
        lines.insert(
            code.code().to_string(),
            RawLine {
                name: map.line(code).name.clone(),
                stations: list,
            },
        );
    }
    let mut raw_stations = Vec::new();
    let mut cards = Vec::new();
    for (name, ids) in &stations {
        let mut on = BTreeMap::new();
        for (code, line) in &lines {
            if let Some(at) = line.stations.iter().position(|s| s == name) {
                let after = line.stations.len() - 1 - at;
                on.insert(code.clone(), [at as u8, after as u8]);
            }
        }
        let concurrent = on.contains_key("MP") && on.contains_key("HC");
        let copies = (on.len() - usize::from(concurrent))
            .saturating_sub(1)
            .max(1) as u8;
        // The map's names for it, unless another card shares the map
        // station (Edgware Road alone names no card).
        let shared = |id: &StationId| stations.values().filter(|v| v.contains(id)).count() > 1;
        let own = normalise(name);
        let aliases: BTreeSet<String> = ids
            .iter()
            .filter(|id| !shared(id))
            .flat_map(|&id| map.keys_of(id))
            .filter(|k| *k != own)
            .map(str::to_string)
            .collect();
        for copy in 1..=copies {
            cards.push(RawCard {
                id: cards.len() as u32 + 1,
                station: name.clone(),
                copy,
            });
        }
        raw_stations.push(RawStation {
            name: name.clone(),
            map: ids.iter().map(|&id| map.station(id).name.clone()).collect(),
            aliases: aliases.into_iter().collect(),
            copies,
            lines: on,
        });
    }
    let raw = RawDeck {
        deck: RawHeader {
            stations: raw_stations.len(),
            lines: lines.len(),
            cards: cards.len(),
        },
        lines,
        station: raw_stations,
        cards: RawCards { list: cards },
    };
    Ok(build(raw)?)
}
