//! The deck file `maps/oneday-zone1.toml`: its shape, the checking builder
//! and the writer (`mornbot map oneday-deck`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;

use super::deck::{
    Card, CardId, Deck, DeckError, DeckLine, DeckStation, LineIdx, StationIdx, Stop,
};
use crate::map::LineCode;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDeck {
    pub(super) deck: RawHeader,
    pub(super) lines: BTreeMap<String, RawLine>,
    pub(super) station: Vec<RawStation>,
    pub(super) cards: RawCards,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeader {
    pub(super) stations: usize,
    pub(super) lines: usize,
    pub(super) cards: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLine {
    pub(super) name: String,
    pub(super) stations: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStation {
    pub(super) name: String,
    pub(super) map: Vec<String>,
    #[serde(default)]
    pub(super) aliases: Vec<String>,
    pub(super) copies: u8,
    pub(super) lines: BTreeMap<String, [u8; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCards {
    pub(super) list: Vec<RawCard>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCard {
    pub(super) id: u32,
    pub(super) station: String,
    pub(super) copy: u8,
}

fn count(what: &'static str, said: usize, has: usize) -> Result<(), DeckError> {
    if said == has {
        Ok(())
    } else {
        Err(DeckError::Count { what, said, has })
    }
}

/// Checks a read file into a [`Deck`]: every line's stations listed, each
/// once; each station's lines and before/after counts exactly what the
/// line lists give; the cards each station's copies in order.
pub(super) fn build(raw: RawDeck) -> Result<Deck, DeckError> {
    let index: BTreeMap<&str, StationIdx> = raw
        .station
        .iter()
        .enumerate()
        .map(|(k, s)| (s.name.as_str(), StationIdx(k as u8)))
        .collect();
    if index.len() != raw.station.len() || raw.station.len() > 250 {
        return Err(DeckError::Count {
            what: "distinct stations",
            said: raw.station.len(),
            has: index.len(),
        });
    }
    let mut lines = Vec::new();
    for (code, line) in &raw.lines {
        let lc = LineCode::parse(code).ok_or_else(|| DeckError::LineCode(code.clone()))?;
        let mut ids: Vec<StationIdx> = Vec::new();
        for name in &line.stations {
            let id = *index
                .get(name.as_str())
                .ok_or_else(|| DeckError::UnknownStation {
                    line: code.clone(),
                    station: name.clone(),
                })?;
            if ids.contains(&id) {
                return Err(DeckError::Twice {
                    line: code.clone(),
                    station: name.clone(),
                });
            }
            ids.push(id);
        }
        lines.push(DeckLine {
            code: lc,
            name: line.name.clone(),
            stations: ids,
        });
    }
    lines.sort_by_key(|l| l.code);
    if lines.len() > 16 {
        return Err(DeckError::Count {
            what: "lines (at most 16)",
            said: raw.lines.len(),
            has: 16,
        });
    }
    let stations = stations(&raw.station, &lines)?;
    let cards = cards(&raw.cards.list, &stations, &index)?;
    count("stations", raw.deck.stations, stations.len())?;
    count("lines", raw.deck.lines, lines.len())?;
    count("cards", raw.deck.cards, cards.len())?;
    Deck::assemble(lines, stations, cards)
}

/// Each station's stops from the line lists, checked against the file's.
fn stations(raw: &[RawStation], lines: &[DeckLine]) -> Result<Vec<DeckStation>, DeckError> {
    let mut out = Vec::new();
    for (k, rs) in raw.iter().enumerate() {
        let me = StationIdx(k as u8);
        let stops: Vec<Stop> = lines
            .iter()
            .enumerate()
            .filter_map(|(l, line)| {
                let at = line.stations.iter().position(|&s| s == me)?;
                let last = line.stations.len() - 1;
                Some(Stop {
                    line: LineIdx(l as u8),
                    at: at as u8,
                    before: at as u8,
                    after: (last - at) as u8,
                })
            })
            .collect();
        let listed: Vec<(String, [u8; 2])> = stops
            .iter()
            .map(|t| {
                let code = lines[t.line.index()].code.code().to_string();
                (code, [t.before, t.after])
            })
            .collect();
        let said: Vec<(String, [u8; 2])> = rs.lines.iter().map(|(c, n)| (c.clone(), *n)).collect();
        let bad = |what: String| DeckError::Station {
            station: rs.name.clone(),
            what,
        };
        if listed != said {
            return Err(bad(format!(
                "the file says lines {said:?}, the line lists give {listed:?}"
            )));
        }
        if stops.is_empty() || rs.copies == 0 || rs.map.is_empty() {
            return Err(bad("no line, no copy or no map station".into()));
        }
        out.push(DeckStation {
            name: rs.name.clone(),
            map: rs.map.clone(),
            aliases: rs.aliases.clone(),
            mask: stops.iter().fold(0, |m, t| m | 1 << t.line.0),
            stops,
            copies: rs.copies,
        });
    }
    Ok(out)
}

/// The cards: numbered from 1, each station's copies 1, 2, ... in turn.
fn cards(
    raw: &[RawCard],
    stations: &[DeckStation],
    index: &BTreeMap<&str, StationIdx>,
) -> Result<Vec<Card>, DeckError> {
    let expected: Vec<(StationIdx, u8)> = stations
        .iter()
        .enumerate()
        .flat_map(|(k, s)| (1..=s.copies).map(move |c| (StationIdx(k as u8), c)))
        .collect();
    if raw.len() != expected.len() {
        return Err(DeckError::Count {
            what: "cards (the stations' copies)",
            said: raw.len(),
            has: expected.len(),
        });
    }
    let mut out = Vec::new();
    for (k, (rc, (st, copy))) in raw.iter().zip(expected).enumerate() {
        let bad = |what: String| DeckError::Card { id: rc.id, what };
        if rc.id as usize != k + 1 {
            return Err(bad(format!("expected number {}", k + 1)));
        }
        if index.get(rc.station.as_str()) != Some(&st) || rc.copy != copy {
            return Err(bad(format!(
                "expected copy {copy} of {}",
                stations[st.index()].name
            )));
        }
        out.push(Card {
            id: CardId(rc.id as u8),
            station: st,
            copy,
        });
    }
    Ok(out)
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes a deck in the file's shape, header comment included: what the
/// derivation (`derive`) gives is compared with the committed file by
/// `tests/oneday_deck.rs`.
pub fn render(deck: &Deck) -> String {
    let mut out = String::from(super::derive::HEADER);
    let _ = writeln!(
        out,
        "\n[deck]\nstations = {}\nlines = {}\ncards = {}",
        deck.stations().len(),
        deck.lines().len(),
        deck.cards().len()
    );
    for line in deck.lines() {
        let _ = writeln!(
            out,
            "\n[lines.{}]\nname = {:?}  # {} stations\nstations = [",
            line.code,
            line.name,
            line.stations.len()
        );
        for s in &line.stations {
            let _ = writeln!(out, "  {:?},", deck.station(*s).name);
        }
        out.push_str("]\n");
    }
    for s in deck.stations() {
        let lines: Vec<String> = s
            .stops
            .iter()
            .map(|t| {
                let code = deck.line(t.line).code;
                format!("{code} = [{}, {}]", t.before, t.after)
            })
            .collect();
        let _ = writeln!(
            out,
            "\n[[station]]\nname = {:?}\nmap = [{}]\naliases = [{}]\ncopies = {}\nlines = {{ {} }}",
            s.name,
            quoted(&s.map),
            quoted(&s.aliases),
            s.copies,
            lines.join(", ")
        );
    }
    out.push_str("\n[cards]\nlist = [\n");
    for c in deck.cards() {
        let _ = writeln!(
            out,
            "  {{ id = {}, station = {:?}, copy = {} }},",
            c.id.0,
            deck.station(c.station).name,
            c.copy
        );
    }
    out.push_str("]\n");
    out
}
