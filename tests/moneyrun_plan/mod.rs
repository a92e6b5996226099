//! The plan `tests/kinds_stack_moneyrun.rs` plays Money Run by, read off
//! the state documents the daemon mails, and its rehearsal through the
//! kind's interface alone (`play_plan`) for many seeds.

use mornbot::dice::{draw, Seed};
use mornbot::kinds::{Draws, Judged, Kind, Next, Position, Viewer};

use crate::TAG;

/// The racer: the third of the order START draws, seat 3, from a5 to
/// column i along row 5 (RULINGS MR2), away from seats 1 and 2 (e1, e9).
pub const RACER: usize = 2;

/// Where seats 1 and 2 put their coins: each in eir own corner, far from
/// every pawn's path, a fresh empty square each turn (any coin goes on an
/// empty square).
pub const CORNERS: [[&str; 9]; 2] = [
    ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"],
    ["g9", "h9", "i9", "g8", "h8", "i8", "g7", "h7", "i7"],
];

/// A malformed order, and what its answer must say (the form expected).
pub const MALFORMED: (&str, &str) = (
    "place Q z12",
    "line 1, column 7: expected a coin size: L, M, S or P (large, medium, small, puny), found \"Q\"",
);

/// What the awaited player does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// The racer's first turn over two mails: the placement (its refill
    /// drawn, the turn left open, RULINGS MR14), then the pawn's step.
    Split { place: String, pawn: String },
    /// A whole turn in one mail; the malformed order sent first when set.
    Whole { body: String, malformed: bool },
    /// No mail: the clock plays a Timeout, a pass (RULINGS MR13).
    Timeout,
}

/// The plan every seed wins by: who does what, read off the latest state
/// document (on one line, as [`flat`] makes it).
pub struct Plan {
    /// The players by seat (the order START announced).
    names: [String; 3],
    /// The racer's turns so far.
    raced: usize,
    /// The corner squares used so far, by seat 1 and seat 2.
    cornered: [usize; 2],
    /// Whether the malformed order was planned.
    malformed: bool,
    /// Whether the Timeout was planned.
    timed_out: bool,
}

impl Plan {
    pub fn new(names: [String; 3]) -> Plan {
        Plan {
            names,
            raced: 0,
            cornered: [0; 2],
            malformed: false,
            timed_out: false,
        }
    }

    /// The awaited player (an index into the seats) and what e does,
    /// from `doc`, a fresh turn awaited.
    pub fn act(&mut self, doc: &str) -> (usize, Act) {
        let (who, step) = awaited(doc, &self.names);
        assert_eq!(step, "turn", "{doc}");
        let coins = table(doc);
        assert!(!coins.is_empty(), "an empty table: {doc}");
        if who == RACER {
            let at = pawn_at(doc, 3, &self.names[RACER]);
            let ahead = ahead(&at);
            let place = format!("place {} {ahead}", coins[0]);
            let pawn = format!("pawn {ahead}");
            self.raced += 1;
            let act = if self.raced == 1 {
                Act::Split { place, pawn }
            } else {
                Act::Whole {
                    body: format!("{place}\n{pawn}\n"),
                    malformed: false,
                }
            };
            return (who, act);
        }
        if self.raced > 0 && self.malformed && !self.timed_out {
            self.timed_out = true;
            return (who, Act::Timeout);
        }
        let malformed = self.raced > 0 && !self.malformed;
        self.malformed |= malformed;
        let sq = CORNERS[who][self.cornered[who]];
        self.cornered[who] += 1;
        let coin = coins.last().expect("a coin");
        let body = format!("place {coin} {sq}\nend\n");
        (who, Act::Whole { body, malformed })
    }
}

/// The one-line text `doc` with its whitespace collapsed (a state
/// document as rendered, or a mail as [`flat`] reads it).
pub fn one_line(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Who the state document awaits, of `names`, and for what step (`turn`
/// or `second action`).
pub fn awaited(doc: &str, names: &[String; 3]) -> (usize, &'static str) {
    let found: Vec<(usize, &'static str)> = names
        .iter()
        .enumerate()
        .flat_map(|(i, n)| {
            ["turn", "second action"]
                .into_iter()
                .filter(move |s| doc.contains(&format!("Next: {n}, {s} ")))
                .map(move |s| (i, s))
        })
        .collect();
    let [one] = found[..] else {
        panic!("no one player awaited ({found:?}) in {doc}")
    };
    one
}

/// The number of the turn the state document awaits `name` for.
pub fn turn_number(doc: &str, name: &str) -> u64 {
    let key = format!("Next: {name}, turn ");
    let at = doc.find(&key).unwrap_or_else(|| panic!("{key:?} in {doc}")) + key.len();
    let digits: String = doc[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// The table's coins (letters, largest first) in a state document.
pub fn table(doc: &str) -> Vec<String> {
    let at = doc
        .rfind("Table: ")
        .unwrap_or_else(|| panic!("no table in {doc}"));
    doc[at + 7..]
        .split_whitespace()
        .take_while(|w| ["L", "M", "S", "P"].contains(w))
        .map(str::to_string)
        .collect()
}

/// How many coins the bag has given so far, in a state document.
pub fn drawn_so_far(doc: &str) -> u32 {
    let key = "drawn so far: ";
    let at = doc.rfind(key).unwrap_or_else(|| panic!("{key:?} in {doc}")) + key.len();
    let digits: String = doc[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// The square of seat `seat`'s pawn (`name`'s) in a state document.
pub fn pawn_at(doc: &str, seat: u8, name: &str) -> String {
    let key = format!(" {seat} {name} ");
    doc.match_indices(&key)
        .filter_map(|(i, _)| doc[i + key.len()..].split_whitespace().next())
        .filter_map(|w| w.strip_suffix(','))
        .find(|sq| sq.len() == 2)
        .unwrap_or_else(|| panic!("no pawn of {name} in {doc}"))
        .to_string()
}

/// The square one column on (towards column i) from `sq`.
pub fn ahead(sq: &str) -> String {
    let mut c = sq.chars();
    let (col, row) = (c.next().unwrap(), c.next().unwrap());
    assert!(col < 'i', "{sq} is on column i");
    format!("{}{row}", (col as u8 + 1) as char)
}

/// The refill a verdict announces: `bag-<k>`'s k and the coin's letter.
pub fn refill(v: &str) -> (u32, String) {
    let key = "Drawn from the bag (bag-";
    let at = v.find(key).unwrap_or_else(|| panic!("no refill in {v}")) + key.len();
    let digits: String = v[at..].chars().take_while(char::is_ascii_digit).collect();
    let coin = v[at..].find("coin (").map(|i| &v[at + i + 6..at + i + 7]);
    (digits.parse().unwrap(), coin.unwrap().to_string())
}

/// The draws of game `MR1` from a seed, as the daemon makes them: each
/// kept with its face (1..=sides, as the store records it), the kind
/// given face - 1.
pub struct FromSeed {
    seed: Seed,
    made: Vec<(u64, String, u32, u32)>,
}

impl Draws for FromSeed {
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32> {
        let d = draw(&self.seed, TAG, turn, name, sides).ok()?;
        self.made.push((turn, name.to_string(), sides, d.value));
        Some(d.value - 1)
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

/// `me`'s mail `body` judged against `p`: it stands; its line is logged.
pub fn send(
    p: &Position,
    me: &str,
    body: &str,
    d: &mut FromSeed,
    log: &mut Vec<(String, String)>,
) -> (Position, Vec<String>) {
    let (order, _) = p
        .read(body)
        .unwrap_or_else(|e| panic!("{body:?} does not read: {e}"));
    log.push((me.to_string(), p.canonical(&order)));
    stands(p.judge_drawing(&order, me, d), body)
}

/// Plays [`Plan`] from the start `seed` gives, through the kind's
/// interface (the daemon's Timeout included): the first player, and the
/// turns the game took.
pub fn play_plan(seed: Seed) -> (String, u32) {
    let names = ["Ann", "Bob", "Cat"].map(String::from);
    let mut d = FromSeed {
        seed: seed.clone(),
        made: Vec::new(),
    };
    let mut p = Kind::MoneyRun.start_drawing(&names, &[], &mut d).unwrap();
    let start: Vec<&str> = d.made.iter().map(|m| m.1.as_str()).collect();
    assert_eq!(
        start,
        ["bag-1", "bag-2", "bag-3", "bag-4", "bag-5", "first-player"]
    );
    // Face v of the first-player die: the v-th player in seat order
    // (RULINGS MR4).
    let first = names[d.made[5].3 as usize - 1].clone();
    let mut plan = Plan::new(names.clone());
    let mut log: Vec<(String, String)> = Vec::new();
    let mut placed = 0;
    loop {
        let doc = one_line(&p.render(&Viewer::Public, None));
        if log.is_empty() {
            assert_eq!(
                awaited(&doc, &names),
                (names.iter().position(|n| *n == first).unwrap(), "turn")
            );
        }
        if matches!(p.next(), Next::Over { .. }) {
            break;
        }
        let (who, act) = plan.act(&doc);
        let me = &names[who];
        match act {
            Act::Split { place, pawn } => {
                let t = turn_number(&doc, me);
                let before = d.made.len();
                let (open, changes) = send(&p, me, &place, &mut d, &mut log);
                placed += 1;
                // One refill, at the turn's number; the turn stays open
                // with the drawn coin on the table.
                assert_eq!(d.made.len(), before + 1);
                let (k, coin) = refill(&changes.join(" "));
                assert_eq!(d.made[before].0, t);
                assert_eq!(d.made[before].1, format!("bag-{k}"));
                let open_doc = one_line(&open.render(&Viewer::Public, None));
                assert_eq!(awaited(&open_doc, &names), (who, "second action"));
                assert!(table(&open_doc).contains(&coin), "{open_doc}");
                let (next, changes) = send(&open, me, &pawn, &mut d, &mut log);
                assert_eq!(d.made.len(), before + 1, "the pawn draws nothing");
                assert!(!changes.join(" ").contains("Drawn"), "{changes:?}");
                let next_doc = one_line(&next.render(&Viewer::Public, None));
                assert_eq!(table(&next_doc), table(&open_doc));
                assert_eq!(drawn_so_far(&next_doc), k);
                p = next;
            }
            Act::Whole { body, malformed } => {
                if malformed {
                    let e = p.read(MALFORMED.0).unwrap_err().to_string();
                    assert!(e.contains(MALFORMED.1), "{e}");
                }
                let (next, _) = send(&p, me, &body, &mut d, &mut log);
                placed += 1;
                p = next;
            }
            Act::Timeout => {
                let (order, judged) = p.timeout();
                assert_eq!(p.canonical(&order), "pass");
                let (next, _) = stands(judged, "the Timeout");
                log.push((me.clone(), "pass".into()));
                p = next;
            }
        }
    }
    // The racer wins, reaching column i.
    assert_eq!(
        p.next(),
        Next::Over {
            winners: vec![names[RACER].clone()]
        }
    );
    let doc = one_line(&p.render(&Viewer::Public, None));
    assert!(
        doc.contains(&format!(
            "Game over: {} reached column i and wins.",
            names[RACER]
        )),
        "{doc}"
    );
    assert!(plan.malformed && plan.timed_out);
    // Every draw: the opening five, the first player, one refill a
    // placement (the bag never empties), numbered in order.
    assert_eq!(d.made.len(), 6 + placed);
    for (i, m) in d.made.iter().enumerate().skip(6) {
        assert_eq!(m.1, format!("bag-{}", i), "{m:?}");
    }
    // The log folds again from the seed to the same end.
    let again = Kind::MoneyRun
        .fold_drawing(
            &names,
            &[],
            &log,
            &mut FromSeed {
                seed,
                made: Vec::new(),
            },
        )
        .unwrap();
    assert_eq!(again, p);
    (first, p.turns())
}
