//! The journey validator (RULINGS OD10) against a deliberately naive
//! checker written apart from it: every assignment of a line and a
//! direction to each step, the rules checked literally on the deck's line
//! lists, on 100,000 random racks (fixed seeds) under each of the four
//! combinations of the Boardspace rulings. Random walks along the lines
//! (mostly valid journeys), small mutations of them, and uniform racks.

use mornbot::kinds::oneday::{journey, Deck, JourneyRulings, Reason, StationIdx, RACK};

/// SplitMix64: a fixed, dependency-free generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The naive checker's view of the deck: each line's list of names.
struct Naive {
    lines: Vec<Vec<StationIdx>>,
}

/// One step's assignment: a line and whether it runs up the list.
#[derive(Clone, Copy, PartialEq)]
struct Ride {
    line: usize,
    up: bool,
}

impl Naive {
    fn new(deck: &Deck) -> Naive {
        Naive {
            lines: deck.lines().iter().map(|l| l.stations.clone()).collect(),
        }
    }

    fn pos(&self, line: usize, s: StationIdx) -> Option<usize> {
        self.lines[line].iter().position(|&x| x == s)
    }

    /// The station next to `here` on `line`, one step towards `there`.
    fn towards(&self, line: usize, here: StationIdx, there: StationIdx) -> StationIdx {
        let (h, t) = (
            self.pos(line, here).unwrap(),
            self.pos(line, there).unwrap(),
        );
        self.lines[line][if t > h { h + 1 } else { h - 1 }]
    }

    /// Whether riding `ride` from `a` to `b` is a step at all.
    fn step_ok(&self, ride: Ride, a: StationIdx, b: StationIdx) -> bool {
        match (self.pos(ride.line, a), self.pos(ride.line, b)) {
            (Some(pa), Some(pb)) => a != b && (pb > pa) == ride.up,
            _ => false,
        }
    }

    /// Whether `next` may follow `prev` over stations a -> b -> c.
    fn follow_ok(
        &self,
        r: &JourneyRulings,
        prev: Ride,
        next: Ride,
        [a, b, c]: [StationIdx; 3],
    ) -> bool {
        if prev.line == next.line {
            return prev.up == next.up;
        }
        if r.forbid_hop_change
            && self.pos(next.line, a).is_some()
            && self.pos(prev.line, c).is_some()
        {
            return false;
        }
        if r.forbid_concurrent_back
            && self.towards(prev.line, b, a) == self.towards(next.line, b, c)
        {
            return false;
        }
        true
    }

    /// Tries every assignment: the most steps any valid assignment covers,
    /// and the fewest changes of a full one.
    fn search(
        &self,
        r: &JourneyRulings,
        st: &[StationIdx],
        rides: &mut Vec<Ride>,
        best: &mut (usize, Option<usize>),
    ) {
        let i = rides.len();
        best.0 = best.0.max(i);
        if i + 1 == st.len() {
            let changes = rides.windows(2).filter(|w| w[0].line != w[1].line).count();
            best.1 = Some(best.1.map_or(changes, |c: usize| c.min(changes)));
            return;
        }
        for line in 0..self.lines.len() {
            for up in [false, true] {
                let ride = Ride { line, up };
                if !self.step_ok(ride, st[i], st[i + 1]) {
                    continue;
                }
                if i > 0 && !self.follow_ok(r, rides[i - 1], ride, [st[i - 1], st[i], st[i + 1]]) {
                    continue;
                }
                rides.push(ride);
                self.search(r, st, rides, best);
                rides.pop();
            }
        }
    }

    /// Valid with its fewest changes, or the slot of the first break and
    /// whether it is a same-station or no-common-line break (else "other").
    fn judge(&self, r: &JourneyRulings, st: &[StationIdx]) -> Result<usize, (usize, &'static str)> {
        let mut best = (0, None);
        self.search(r, st, &mut Vec::new(), &mut best);
        if let Some(c) = best.1 {
            return Ok(c);
        }
        let k = best.0; // steps 0..k stand; step k (slots k+1, k+2) breaks
        let (a, b) = (st[k], st[k + 1]);
        let common =
            (0..self.lines.len()).any(|l| self.pos(l, a).is_some() && self.pos(l, b).is_some());
        let kind = if a == b {
            "same-station"
        } else if !common {
            "no-common-line"
        } else {
            "other"
        };
        Err((k + 1, kind))
    }
}

/// A random walk along the lines: ride on or change, any distance.
fn walk(deck: &Deck, rng: &mut Rng) -> Vec<StationIdx> {
    let n = deck.stations().len();
    let mut st = vec![StationIdx(rng.below(n) as u8)];
    let mut ride: Option<(usize, bool)> = None;
    while st.len() < RACK {
        let here = *st.last().unwrap();
        let on: Vec<usize> = deck
            .station(here)
            .stops
            .iter()
            .map(|t| t.line.index())
            .collect();
        // Mostly ride on the same way; otherwise any line, any way.
        let (line, up) = match ride {
            Some((l, up)) if rng.below(3) > 0 => (l, up),
            // Back along the line just ridden, now and then (a break).
            Some((l, up)) if rng.below(30) == 0 => (l, !up),
            Some((l, _)) if on.len() > 1 => {
                let others: Vec<usize> = on.iter().copied().filter(|&x| x != l).collect();
                (others[rng.below(others.len())], rng.below(2) == 0)
            }
            Some(same) => same,
            None => (on[rng.below(on.len())], rng.below(2) == 0),
        };
        let list = &deck
            .line(mornbot::kinds::oneday::LineIdx(line as u8))
            .stations;
        let p = list.iter().position(|&s| s == here).unwrap();
        let ahead: Vec<usize> = if up {
            (p + 1..list.len()).collect()
        } else {
            (0..p).collect()
        };
        if ahead.is_empty() {
            // The end of the line: change, or start again where there is
            // no other line.
            if on.len() == 1 {
                return walk(deck, rng);
            }
            let others: Vec<usize> = on.iter().copied().filter(|&x| x != line).collect();
            ride = Some((others[rng.below(others.len())], rng.below(2) == 0));
            continue;
        }
        // Short hops more often than long rides.
        let k = ahead.len().min(1 + rng.below(3) * rng.below(4));
        let to = if up {
            ahead[k - 1]
        } else {
            ahead[ahead.len() - k]
        };
        st.push(list[to]);
        ride = Some((line, up));
    }
    st
}

fn mutate(deck: &Deck, rng: &mut Rng, mut st: Vec<StationIdx>) -> Vec<StationIdx> {
    let n = deck.stations().len();
    match rng.below(4) {
        0 => st[rng.below(RACK)] = StationIdx(rng.below(n) as u8),
        1 => {
            let k = rng.below(RACK - 1);
            st.swap(k, k + 1);
        }
        2 => {
            let k = rng.below(RACK - 1);
            st[k + 1] = st[k];
        }
        _ => {
            let (a, b) = (rng.below(RACK), rng.below(RACK));
            st[a.min(b)..=a.max(b)].reverse();
        }
    }
    st
}

fn rack(deck: &Deck, rng: &mut Rng) -> Vec<StationIdx> {
    let n = deck.stations().len();
    match rng.below(10) {
        0..=6 => walk(deck, rng),
        7 | 8 => {
            let w = walk(deck, rng);
            mutate(deck, rng, w)
        }
        _ => (0..RACK).map(|_| StationIdx(rng.below(n) as u8)).collect(),
    }
}

fn code(reason: &Reason) -> &'static str {
    match reason {
        Reason::SameStation => "same-station",
        Reason::NoCommonLine => "no-common-line",
        Reason::Blocked(_) => "other",
    }
}

#[test]
fn the_validator_agrees_with_the_naive_checker() {
    let deck = Deck::zone1();
    let naive = Naive::new(deck);
    let configs = [
        JourneyRulings::default(),
        JourneyRulings::boardspace(),
        JourneyRulings {
            forbid_hop_change: true,
            forbid_concurrent_back: false,
        },
        JourneyRulings {
            forbid_hop_change: false,
            forbid_concurrent_back: true,
        },
    ];
    let mut valid = [0usize; 4];
    const RACKS: usize = 100_000;
    for seed in 0..4u64 {
        let mut rng = Rng(0x0DE1_0000 + seed);
        for _ in 0..RACKS / 4 {
            let st = rack(deck, &mut rng);
            for (c, r) in configs.iter().enumerate() {
                let want = naive.judge(r, &st);
                let got = journey(deck, &st, r)
                    .map(|j| j.changes())
                    .map_err(|b| (b.slot, code(&b.reason)));
                assert_eq!(got, want, "rack {st:?} under {r:?}");
                valid[c] += usize::from(want.is_ok());
            }
        }
    }
    // A good share are journeys, under the text and under Boardspace.
    eprintln!("valid journeys of {RACKS}, per ruling set: {valid:?}");
    assert!(valid[0] * 2 > RACKS, "only {} valid of {RACKS}", valid[0]);
    for v in valid {
        assert!(v * 4 > RACKS, "only {v} valid of {RACKS}");
    }
    assert!(
        valid[0] >= valid[1],
        "Boardspace's reading only refuses more"
    );
}
