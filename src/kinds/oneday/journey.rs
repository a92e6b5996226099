//! The journey validator (RULINGS OD10): does a rack read left to right as
//! a continuous journey?
//!
//! Each step (slot k to slot k + 1) rides one line both stations are on;
//! its direction is the order of the two stations on that line. Steps on
//! the same line one after another are one run and keep one direction (no
//! going back over the line); a step on another line is a change, allowed
//! at any station on both lines (unless a Boardspace restriction of
//! [`JourneyRulings`] forbids it); a line may be ridden again, either way,
//! after another line; a station never follows itself.
//!
//! A dynamic programme over the steps and the line of each: the set of
//! lines a valid prefix can arrive on, and the fewest changes to do so.
//! The first step no line reaches is the first break.

use std::fmt;

use thiserror::Error;

use super::deck::{CardId, Deck, LineIdx, StationIdx, NOWHERE, RACK};
use super::rulings::JourneyRulings;

/// One run of a journey: a line ridden from one slot to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    /// The line.
    pub line: LineIdx,
    /// The slot boarded at, from 1.
    pub from: usize,
    /// The slot left at, from 1.
    pub to: usize,
}

/// A valid journey: its legs, with the fewest changes (ties to the
/// earlier line of the deck).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Journey {
    /// The legs, left to right.
    pub legs: Vec<Leg>,
}

impl Journey {
    /// Line changes made.
    pub fn changes(&self) -> usize {
        self.legs.len().saturating_sub(1)
    }
}

/// Why one line cannot carry a step, given one line it could arrive on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Arriving on the same line, the step would go back along it.
    GoesBack,
    /// The change merely hops along the line already used (`hop_change`).
    HopChange,
    /// The change goes back over the same track on a concurrent line
    /// (`concurrent_back`).
    ConcurrentBack,
}

impl Why {
    /// The reason's code in cases.
    pub fn code(self) -> &'static str {
        match self {
            Why::GoesBack => "goes-back",
            Why::HopChange => "hop-change",
            Why::ConcurrentBack => "concurrent-back",
        }
    }
}

/// A line the step could ride, and why arriving on `arriving` rules it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The line the step would ride.
    pub line: LineIdx,
    /// A line the journey so far can arrive on.
    pub arriving: LineIdx,
    /// Why not.
    pub why: Why,
}

/// Why two neighbouring slots break the journey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The same station twice in a row ("you don't get to stop for coffee").
    SameStation,
    /// No line calls at both stations.
    NoCommonLine,
    /// Lines call at both, but every way of arriving rules each out.
    Blocked(Vec<Blocked>),
}

impl Reason {
    /// The reason's code in cases: `same-station`, `no-common-line`, the
    /// one [`Why`] every block shares, or `blocked` when they differ.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::SameStation => "same-station",
            Reason::NoCommonLine => "no-common-line",
            Reason::Blocked(b) => match b.first() {
                Some(f) if b.iter().all(|x| x.why == f.why) => f.why.code(),
                _ => "blocked",
            },
        }
    }
}

/// The first break of a journey: between slots `slot` and `slot + 1`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("the journey breaks between slots {slot} and {} ({})", slot + 1, reason.code())]
pub struct Break {
    /// The slot before the break, from 1.
    pub slot: usize,
    /// Its station.
    pub from: StationIdx,
    /// The next slot's station.
    pub to: StationIdx,
    /// Why.
    pub reason: Reason,
}

impl Break {
    /// The break in words, with the deck's names.
    pub fn explain(&self, deck: &Deck) -> String {
        let (a, b) = (&deck.station(self.from).name, &deck.station(self.to).name);
        let head = format!("slots {} and {} ({a}, {b})", self.slot, self.slot + 1);
        let line = |l: LineIdx| deck.line(l).name.as_str();
        match &self.reason {
            Reason::SameStation => format!("{head}: the same station twice in a row"),
            Reason::NoCommonLine => format!("{head}: no line calls at both"),
            Reason::Blocked(blocks) => {
                let why: Vec<String> = blocks
                    .iter()
                    .map(|x| match x.why {
                        Why::GoesBack => format!("the {} would go back along the line", line(x.line)),
                        Why::HopChange => format!(
                            "changing from the {} to the {} merely hops along the {} (hop_change)",
                            line(x.arriving),
                            line(x.line),
                            line(x.arriving)
                        ),
                        Why::ConcurrentBack => format!(
                            "changing from the {} to the {} goes back over the same track (concurrent_back)",
                            line(x.arriving),
                            line(x.line)
                        ),
                    })
                    .collect();
                format!("{head}: {}", why.join("; "))
            }
        }
    }
}

/// Why a rack is not judged at all.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum JourneyError {
    /// A rack holds ten cards.
    #[error("a rack holds {RACK} cards, not {0}")]
    WrongLength(usize),
    /// A card number the deck does not have.
    #[error("no card {0} in the deck")]
    UnknownCard(CardId),
    /// One card in two slots.
    #[error("card {0} is in the rack twice")]
    CardTwice(CardId),
    /// The rack is no continuous journey.
    #[error(transparent)]
    Break(#[from] Break),
}

/// Judges a rack (ten card numbers, left to right).
pub fn check_rack(
    deck: &Deck,
    rack: &[CardId],
    rulings: &JourneyRulings,
) -> Result<Journey, JourneyError> {
    if rack.len() != RACK {
        return Err(JourneyError::WrongLength(rack.len()));
    }
    let mut stations = [StationIdx(0); RACK];
    for (k, &id) in rack.iter().enumerate() {
        let card = deck.card(id).ok_or(JourneyError::UnknownCard(id))?;
        if rack[..k].contains(&id) {
            return Err(JourneyError::CardTwice(id));
        }
        stations[k] = card.station;
    }
    Ok(journey(deck, &stations, rulings)?)
}

/// Whether the change at `b` from `from` (arrived from `a`) to `to` (on to
/// `c`) is refused by a ruling, and by which.
fn change_refused(
    deck: &Deck,
    rulings: &JourneyRulings,
    from: LineIdx,
    to: LineIdx,
    [a, b, c]: [StationIdx; 3],
) -> Option<Why> {
    if rulings.forbid_hop_change
        && deck.place_raw(a, to) != NOWHERE
        && deck.place_raw(c, from) != NOWHERE
    {
        return Some(Why::HopChange);
    }
    if rulings.forbid_concurrent_back {
        let towards = |line: LineIdx, here: StationIdx, there: StationIdx| {
            let (h, t) = (deck.place_raw(here, line), deck.place_raw(there, line));
            let next = if t > h { h + 1 } else { h - 1 };
            deck.line(line).stations[next as usize]
        };
        if towards(from, b, a) == towards(to, b, c) {
            return Some(Why::ConcurrentBack);
        }
    }
    None
}

/// Judges a sequence of stations as a journey (a rack's, or any part of
/// one): its legs, or its first break.
pub fn journey(
    deck: &Deck,
    stations: &[StationIdx],
    rulings: &JourneyRulings,
) -> Result<Journey, Break> {
    let steps = stations.len().saturating_sub(1);
    // cost[i][l]: fewest changes to ride step i on line l (u8::MAX: no
    // way); up[i]: whether step i on l runs up the line; pred: the line of
    // step i - 1.
    let mut cost = vec![[u8::MAX; 16]; steps];
    let mut pred = vec![[0u8; 16]; steps];
    let mut up = vec![0u16; steps];
    let mut reach = vec![0u16; steps];
    for i in 0..steps {
        let (a, b) = (stations[i], stations[i + 1]);
        let broken = |reason| Break {
            slot: i + 1,
            from: a,
            to: b,
            reason,
        };
        if a == b {
            return Err(broken(Reason::SameStation));
        }
        let common = deck.station(a).mask & deck.station(b).mask;
        if common == 0 {
            return Err(broken(Reason::NoCommonLine));
        }
        let mut blocks = Vec::new();
        for l in bits(common) {
            let line = LineIdx(l as u8);
            if deck.place_raw(b, line) > deck.place_raw(a, line) {
                up[i] |= 1 << l;
            }
            if i == 0 {
                cost[0][l] = 0;
                reach[0] |= 1 << l;
                continue;
            }
            for p in bits(reach[i - 1]) {
                let from = LineIdx(p as u8);
                let refused = if p == l {
                    ((up[i] ^ up[i - 1]) >> l & 1 == 1).then_some(Why::GoesBack)
                } else {
                    change_refused(deck, rulings, from, line, [stations[i - 1], a, b])
                };
                if let Some(why) = refused {
                    blocks.push(Blocked {
                        line,
                        arriving: from,
                        why,
                    });
                    continue;
                }
                let c = cost[i - 1][p].saturating_add(u8::from(p != l));
                if c < cost[i][l] {
                    cost[i][l] = c;
                    pred[i][l] = p as u8;
                    reach[i] |= 1 << l;
                }
            }
        }
        if reach[i] == 0 {
            return Err(broken(Reason::Blocked(blocks)));
        }
    }
    Ok(witness(steps, &cost, &pred, &reach))
}

/// The legs of the cheapest way through the programme.
fn witness(steps: usize, cost: &[[u8; 16]], pred: &[[u8; 16]], reach: &[u16]) -> Journey {
    if steps == 0 {
        return Journey { legs: Vec::new() };
    }
    let mut line = bits(reach[steps - 1])
        .min_by_key(|&l| (cost[steps - 1][l], l))
        .expect("the last step is reached");
    let mut per_step = vec![0usize; steps];
    for i in (0..steps).rev() {
        per_step[i] = line;
        line = pred[i][line] as usize;
    }
    let mut legs: Vec<Leg> = Vec::new();
    for (i, &l) in per_step.iter().enumerate() {
        match legs.last_mut() {
            Some(leg) if leg.line.index() == l => leg.to = i + 2,
            _ => legs.push(Leg {
                line: LineIdx(l as u8),
                from: i + 1,
                to: i + 2,
            }),
        }
    }
    Journey { legs }
}

/// The set bits of a line mask, lowest first.
fn bits(mask: u16) -> impl Iterator<Item = usize> {
    (0..16).filter(move |l| mask >> l & 1 == 1)
}

impl fmt::Display for Leg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} from slot {} to {}",
            self.line.0, self.from, self.to
        )
    }
}
