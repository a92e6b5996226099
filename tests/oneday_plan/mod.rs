//! The plan `tests/kinds_stack_oneday.rs` plays One Day in London by, and
//! the pure mirror of the game it keeps: the winner W (first in order of
//! play) aims at a target journey of ten stations whose cards the others
//! do not hold; W places its dealt cards that fit the target into their
//! slots, takes a face-up card it needs (one mail) or else draws (two
//! mails); the others always draw and discard, never onto a pile whose top
//! W needs unless forced. W holds its last needed card back until the draw
//! pile has been reshuffled once, so that every seed forces a reshuffle.
#![allow(dead_code)]

mod script;

use std::collections::BTreeSet;

use mornbot::dice::{draw, Seed};
use mornbot::kinds::oneday::{
    check_rack, forced_pile, CardId, Deck, JourneyRulings, Phase, State, StationIdx,
};
use mornbot::kinds::{Draws, Judged, Kind, Position};
pub use script::*;

/// The game's tag.
pub const TAG: &str = "OD1";

/// The rulings NEW GAME gives: short step deadlines (one hour each, a few
/// seconds on the fast clock).
pub const RULINGS: [(&str, &str); 2] = [
    ("placement_deadline", "1h_plain"),
    ("turn_deadline", "1h_plain"),
];

pub fn rulings() -> Vec<(String, String)> {
    RULINGS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The draws of game OD1 from a seed, as the daemon makes them: each kept
/// with its face (1..=sides, as the store records it), the kind given
/// face - 1.
pub struct FromSeed {
    pub seed: Seed,
    pub made: Vec<(u64, String, u32, u32)>,
}

impl FromSeed {
    pub fn new(seed: Seed) -> FromSeed {
        FromSeed {
            seed,
            made: Vec::new(),
        }
    }
}

impl Draws for FromSeed {
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32> {
        let d = draw(&self.seed, TAG, turn, name, sides).ok()?;
        self.made.push((turn, name.to_string(), sides, d.value));
        Some(d.value - 1)
    }
}

/// The state of a One Day position.
pub fn od(p: &Position) -> &State {
    match p {
        Position::OneDay(s) => s,
        other => panic!("not One Day: {other:?}"),
    }
}

/// What a player sends next, or lets time out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    Place(u8),
    Take { pile: u8, put: u8, discard: u8 },
    Draw,
    Finish { put: Option<u8>, discard: u8 },
}

impl Act {
    /// The mail's body.
    pub fn body(&self) -> String {
        match self {
            Act::Place(s) => format!("PLACE {s}\n"),
            Act::Take { pile, put, discard } => {
                format!("TAKE {pile} PUT {put} DISCARD {discard}\n")
            }
            Act::Draw => "DRAW\n".into(),
            Act::Finish {
                put: Some(s),
                discard,
            } => format!("PUT {s} DISCARD {discard}\n"),
            Act::Finish { put: None, discard } => format!("DISCARD {discard}\n"),
        }
    }
}

/// The mirror: the game's position, kept by judging the same lines with
/// the same draws as the daemon.
pub struct Mirror {
    pub names: Vec<String>,
    pub p: Position,
    pub d: FromSeed,
    pub log: Vec<(String, String)>,
}

impl Mirror {
    /// The start from `seed`, the players in order of play.
    pub fn start(names: &[String], seed: Seed) -> Mirror {
        let mut d = FromSeed::new(seed);
        let p = Kind::OneDay
            .start_drawing(names, &rulings(), &mut d)
            .unwrap();
        Mirror {
            names: names.to_vec(),
            p,
            d,
            log: Vec::new(),
        }
    }

    pub fn s(&self) -> &State {
        od(&self.p)
    }

    /// `who`'s mail `body` judged: it stands (Over when it wins).
    pub fn send(&mut self, who: &str, body: &str) -> Vec<String> {
        let (order, _) = self
            .p
            .read(body)
            .unwrap_or_else(|e| panic!("{body:?}: {e}"));
        self.log.push((who.to_string(), self.p.canonical(&order)));
        let (p, changes) = stands(self.p.judge_drawing(&order, who, &mut self.d), body);
        self.p = p;
        changes
    }

    /// `who`'s step timed out.
    pub fn timeout(&mut self, who: &str) -> Vec<String> {
        let (order, judged) = self.p.timeout_of(who).expect("awaited");
        self.log.push((who.to_string(), self.p.canonical(&order)));
        let (p, changes) = stands(judged, "a Timeout");
        self.p = p;
        changes
    }

    /// The log folded again from the seed: the same position.
    pub fn fold(&self, log: &[(String, String)]) -> Position {
        Kind::OneDay
            .fold_drawing(
                &self.names,
                &rulings(),
                log,
                &mut FromSeed::new(self.d.seed.clone()),
            )
            .unwrap()
    }
}

pub fn stands(j: Judged, what: &str) -> (Position, Vec<String>) {
    match j {
        Judged::Legal { position, changes } | Judged::Over { position, changes } => {
            (position, changes)
        }
        other => panic!("{what}: {other:#?}"),
    }
}

/// The deck order `State::start` dealt (the first card first): seat k's
/// deal, then the piles, then the draw pile top first.
pub fn deck_order(s0: &State) -> Vec<CardId> {
    // Before any placement: each seat's deal is whole, the stock the rest.
    let json = serde_json::to_value(s0).unwrap();
    let mut out: Vec<CardId> = Vec::new();
    for seat in json["seats"].as_array().unwrap() {
        for c in seat["deal"].as_array().unwrap() {
            out.push(CardId(c.as_u64().unwrap() as u8));
        }
    }
    for c in json["stock"].as_array().unwrap() {
        out.push(CardId(c.as_u64().unwrap() as u8));
    }
    out
}

/// A small deterministic generator for the candidate journeys.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Candidate journeys: random walks along the deck's lines, changing
/// lines at interchanges, ten distinct stations `check_rack` accepts.
pub fn candidates(n: usize, rulings: &JourneyRulings) -> Vec<[StationIdx; 10]> {
    candidates_avoiding(n, rulings, &BTreeSet::new())
}

/// [`candidates`] calling at none of the stations `avoid`.
pub fn candidates_avoiding(
    n: usize,
    rulings: &JourneyRulings,
    avoid: &BTreeSet<StationIdx>,
) -> Vec<[StationIdx; 10]> {
    let deck = Deck::zone1();
    let mut rng = Lcg(0x0d1);
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for _ in 0..n * 40 {
        if out.len() >= n {
            break;
        }
        let mut walk: Vec<StationIdx> = Vec::new();
        let mut line = rng.next(deck.lines().len());
        let st = &deck.lines()[line].stations;
        let mut at = rng.next(st.len());
        if avoid.contains(&st[at]) {
            continue;
        }
        walk.push(st[at]);
        let mut ok = true;
        let mut tries = 0;
        while walk.len() < 10 && ok && tries < 30 {
            tries += 1;
            let st = &deck.lines()[line].stations;
            let up = rng.next(2) == 0;
            let len = 1 + rng.next(4);
            for _ in 0..len {
                if walk.len() == 10 {
                    break;
                }
                let nxt = if up { at + 1 } else { at.wrapping_sub(1) };
                if nxt >= st.len() || walk.contains(&st[nxt]) || avoid.contains(&st[nxt]) {
                    break;
                }
                at = nxt;
                walk.push(st[at]);
            }
            // change to another line calling here
            let here = *walk.last().unwrap();
            let stops = &deck.station(here).stops;
            if stops.len() < 2 {
                ok = walk.len() == 10;
                continue;
            }
            let s = stops[rng.next(stops.len())];
            line = s.line.index();
            at = s.at as usize;
            if deck.lines()[line].stations[at] != here {
                ok = false;
            }
        }
        if walk.len() != 10 || !seen.insert(walk.clone()) {
            continue;
        }
        let rack: Vec<CardId> = walk
            .iter()
            .map(|&s| deck.cards_of(s).next().unwrap().id)
            .collect();
        if check_rack(deck, &rack, rulings).is_ok() {
            out.push(walk.try_into().unwrap());
        }
    }
    out
}

/// How many candidate journeys W's target is picked among.
pub const CANDIDATES: usize = 3000;

/// The plan: W's target and what each player does.
pub struct Plan {
    pub w: String,
    pub target: [StationIdx; 10],
}

fn station(c: CardId) -> StationIdx {
    Deck::zone1().card(c).unwrap().station
}

impl Plan {
    /// The plan for `seed`: the best ranked one ([`Plan::ranked`]: W,
    /// seat 0, aims at a candidate whose every station has a card outside
    /// the others' deals, with the most stations W is dealt) whose
    /// rehearsal on a mirror goes as the stack test needs
    /// ([`rehearse`]), with what that came to; a few deals end otherwise (W's set-up rack a
    /// journey already, or no second step a Timeout may miss).
    pub fn choose(names: &[String], seed: &Seed) -> (Plan, Rehearsal) {
        let m = Mirror::start(names, seed.clone());
        let mut why = Vec::new();
        for plan in Plan::ranked(m.s()).into_iter().take(50) {
            match rehearse(names, seed, &plan) {
                Ok(r) => return (plan, r),
                Err(e) => why.push(e),
            }
        }
        panic!("no plan for this seed: {why:?}")
    }

    /// The plans W may follow, best first: targets among [`CANDIDATES`],
    /// and when a deal rules out every one (about 1 in 10,000), among walks
    /// avoiding the stations whose every card the others were dealt.
    pub fn ranked(s0: &State) -> Vec<Plan> {
        static ALL: std::sync::OnceLock<Vec<[StationIdx; 10]>> = std::sync::OnceLock::new();
        let all = ALL.get_or_init(|| candidates(CANDIDATES, &s0.rulings().journey));
        let mut ranked = Plan::among(s0, all);
        if ranked.is_empty() {
            let avoid = Plan::dealt_away(s0);
            ranked = Plan::among(s0, &candidates_avoiding(300, &s0.rulings().journey, &avoid));
        }
        ranked
    }

    /// The stations whose every card the players but W were dealt.
    fn dealt_away(s0: &State) -> BTreeSet<StationIdx> {
        let deck = Deck::zone1();
        let others = Plan::others(s0);
        (0..deck.lines().len())
            .flat_map(|l| deck.lines()[l].stations.iter().copied())
            .filter(|&st| deck.cards_of(st).all(|c| others.contains(&c.id)))
            .collect()
    }

    /// The cards the players but W were dealt.
    fn others(s0: &State) -> BTreeSet<CardId> {
        let order = deck_order(s0);
        order[10..10 * s0.players().len()].iter().copied().collect()
    }

    /// The plans with W's target among `all`, those with every station
    /// with a card outside the others' deals, those with most of W's
    /// deal first.
    pub fn among(s0: &State, all: &[[StationIdx; 10]]) -> Vec<Plan> {
        let deck = Deck::zone1();
        let names = s0.players();
        let order = deck_order(s0);
        let others = Plan::others(s0);
        let mine: BTreeSet<StationIdx> = order[..10].iter().map(|&c| station(c)).collect();
        let mut fit: Vec<[StationIdx; 10]> = all
            .iter()
            .rev()
            .copied()
            .filter(|t| {
                t.iter()
                    .all(|&st| deck.cards_of(st).any(|c| !others.contains(&c.id)))
            })
            .collect();
        fit.sort_by_key(|t| std::cmp::Reverse(t.iter().filter(|s| mine.contains(s)).count()));
        fit.into_iter()
            .map(|target| Plan {
                w: names[0].clone(),
                target,
            })
            .collect()
    }

    /// The slots of W's rack not yet holding their target station.
    pub fn needed(&self, s: &State) -> Vec<usize> {
        let rack = s.rack(&self.w).unwrap();
        (0..10)
            .filter(|&k| rack[k].map(station) != Some(self.target[k]))
            .collect()
    }

    /// The needed slot a card fills, if W may put it there now (its last
    /// needed card held back until a reshuffle).
    fn fits(&self, s: &State, c: CardId) -> Option<usize> {
        let needed = self.needed(s);
        if needed.len() == 1 && s.reshuffles() == 0 {
            return None;
        }
        let k = needed.into_iter().find(|&k| self.target[k] == station(c))?;
        // No journey before a reshuffle, the target's or another.
        let mut rack = s.rack(&self.w).unwrap();
        rack[k] = Some(c);
        let rack: Vec<CardId> = rack.into_iter().flatten().collect();
        let journey = check_rack(Deck::zone1(), &rack, &s.rulings().journey).is_ok();
        (!journey || s.reshuffles() > 0).then_some(k)
    }

    /// Whether W needs card `c` (held back or not).
    fn wants(&self, s: &State, c: CardId) -> bool {
        self.needed(s)
            .into_iter()
            .any(|k| self.target[k] == station(c))
    }

    /// Where a discard goes: the forced pile, else a pile whose top W does
    /// not need (with `taken` popped first), else pile 1.
    fn discard(&self, s: &State, taken: Option<u8>) -> u8 {
        let mut piles = [s.pile(1).to_vec(), s.pile(2).to_vec(), s.pile(3).to_vec()];
        if let Some(t) = taken {
            piles[t as usize - 1].pop();
        }
        if let Some(f) = forced_pile(&piles) {
            return f;
        }
        // Pile 1 last: a Timeout's discard goes there (OD11), so a card W
        // needs is kept off it when it can be.
        [3, 2, 1u8]
            .into_iter()
            .find(|&k| !self.wants(s, *piles[k as usize - 1].last().unwrap()))
            .unwrap_or(1)
    }

    /// What `who` sends now, awaited.
    pub fn act(&self, s: &State, who: &str) -> Act {
        match s.phase() {
            Phase::Setup => {
                let rack = s.rack(who).unwrap();
                let empty: Vec<usize> = (0..10).filter(|&k| rack[k].is_none()).collect();
                if who != self.w {
                    return Act::Place(empty[0] as u8 + 1);
                }
                let c = s.to_place(who).unwrap();
                let slot = empty
                    .iter()
                    .copied()
                    .find(|&k| self.target[k] == station(c))
                    .or_else(|| {
                        // junk: the rightmost slot no card of W's deal fits
                        let deal = deck_deal(s, who);
                        empty
                            .iter()
                            .rev()
                            .copied()
                            .find(|&k| !deal.iter().any(|&d| station(d) == self.target[k]))
                    })
                    .unwrap_or(*empty.last().unwrap());
                Act::Place(slot as u8 + 1)
            }
            Phase::Play { drawn: None, .. } => {
                if who == self.w {
                    for pile in 1..=3u8 {
                        if let Some(&top) = s.pile(pile).last() {
                            if let Some(k) = self.fits(s, top) {
                                return Act::Take {
                                    pile,
                                    put: k as u8 + 1,
                                    discard: self.discard(s, Some(pile)),
                                };
                            }
                        }
                    }
                }
                Act::Draw
            }
            Phase::Play { drawn: Some(c), .. } => {
                let put = if who == self.w {
                    self.fits(s, *c).map(|k| k as u8 + 1)
                } else {
                    None
                };
                Act::Finish {
                    put,
                    discard: self.discard(s, None),
                }
            }
            Phase::Over { .. } => panic!("over"),
        }
    }

    /// Whether a Timeout of the second step would discard onto a pile
    /// whose top W needs.
    pub fn timeout_buries(&self, s: &State) -> bool {
        let piles = [s.pile(1).to_vec(), s.pile(2).to_vec(), s.pile(3).to_vec()];
        let p = forced_pile(&piles).unwrap_or(1);
        piles[p as usize - 1]
            .last()
            .is_some_and(|&c| self.wants(s, c))
    }
}

/// `who`'s cards still to place (the state's own view of eir deal).
fn deck_deal(s: &State, who: &str) -> Vec<CardId> {
    let json = serde_json::to_value(s).unwrap();
    let seat = &json["seats"][s.seat(who).unwrap()];
    seat["deal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| CardId(c.as_u64().unwrap() as u8))
        .collect()
}
