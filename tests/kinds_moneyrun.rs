//! Money Run through the kind interface (issue 42): started from named
//! draws, an open turn in two mails, a Timeout of each step, the fold
//! again from the seed and from the recorded draws, the encoding.

use mornbot::dice::{draw, Seed};
use mornbot::kinds::{Draws, Judged, Kind, Next, NoDraws, Position, Recorded, Viewer};

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(|s| s.to_string()).collect()
}

/// The draws of game `MR1` from a fixed seed, each one kept.
struct FromSeed {
    seed: Seed,
    made: Vec<(u64, String, u32, u32)>,
}

impl Draws for FromSeed {
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32> {
        // The die's face is 1..=sides; a kind takes 0..sides, as the
        // daemon gives it.
        let d = draw(&self.seed, "MR1", turn, name, sides).ok()?;
        self.made.push((turn, name.to_string(), sides, d.value - 1));
        Some(d.value - 1)
    }
}

fn seeded() -> FromSeed {
    FromSeed {
        seed: Seed::from_bytes([7; 32]),
        made: Vec::new(),
    }
}

fn legal(j: Judged) -> Position {
    match j {
        Judged::Legal { position, .. } | Judged::Over { position, .. } => position,
        other => panic!("not legal: {other:?}"),
    }
}

fn awaited(p: &Position) -> (String, &'static str, usize) {
    match p.next() {
        Next::Act {
            players,
            step,
            lines_in,
        } => (players[0].clone(), step, lines_in),
        Next::Over { winners } => panic!("over: {winners:?}"),
    }
}

/// The letter of a coin on the table, as the state document lists it.
fn a_table_coin(p: &Position) -> String {
    let doc = p.render(&Viewer::Public, None);
    let line = doc
        .lines()
        .find(|l| l.trim_start().starts_with("Table"))
        .unwrap_or_else(|| panic!("no Table line in {doc}"));
    let after = line.split(':').nth(1).unwrap_or_else(|| panic!("{line}"));
    after
        .chars()
        .find(|c| "LMSP".contains(*c))
        .unwrap_or_else(|| panic!("no coin in {line}"))
        .to_string()
}

#[test]
fn a_game_starts_from_its_draws_and_never_without_them() {
    let players = names(&["Ann", "Bob", "Cat"]);
    let mut d = seeded();
    let p = Kind::MoneyRun.start_drawing(&players, &[], &mut d).unwrap();
    // The opening five and the first player, at turn 0 (RULINGS MR4).
    let asked: Vec<&str> = d.made.iter().map(|m| m.1.as_str()).collect();
    assert_eq!(
        asked,
        ["bag-1", "bag-2", "bag-3", "bag-4", "bag-5", "first-player"]
    );
    assert!(d.made.iter().all(|m| m.0 == 0));
    assert_eq!(p.players(), players);
    assert_eq!(p.kind(), Kind::MoneyRun);
    // No dice, no start: nothing is guessed.
    let e = Kind::MoneyRun.start(&players, &[]).unwrap_err().to_string();
    assert!(e.contains("needs the game's dice"), "{e}");
    // ... but a definition is checked without drawing.
    Kind::MoneyRun.check_start(&players, &[]).unwrap();
    assert!(Kind::MoneyRun.check_start(&names(&["Ann"]), &[]).is_err());
    assert!(Kind::MoneyRun
        .check_start(&names(&["A", "B", "C", "D", "E"]), &[])
        .is_err());
    assert!(Kind::MoneyRun
        .check_start(&players, &[("shared_squares".into(), "maybe".into())])
        .is_err());
}

#[test]
fn a_turn_in_two_mails_folds_again_from_the_seed_and_from_the_records() {
    let players = names(&["Ann", "Bob"]);
    let mut d = seeded();
    let start = Kind::MoneyRun.start_drawing(&players, &[], &mut d).unwrap();
    let (first, step, lines_in) = awaited(&start);
    assert_eq!((step, lines_in), ("turn", 0));
    let second = if first == "Ann" { "Bob" } else { "Ann" };
    let home = if first == "Ann" { "e1" } else { "e9" };
    let beside = if first == "Ann" { "e2" } else { "e8" };

    // Mail 1: a placement beside the pawn; its refill is drawn, and the
    // turn stays open for its second action (RULINGS MR14).
    let coin = a_table_coin(&start);
    let body = format!("place {coin} {beside}\n");
    assert!(Kind::MoneyRun.holds_order(&body));
    let (order, _) = start.read(&body).unwrap();
    let before = d.made.len();
    let open = legal(start.judge_drawing(&order, &first, &mut d));
    assert_eq!(d.made.len(), before + 1, "one refill drawn");
    assert_eq!(awaited(&open), (first.clone(), "second action", 1));
    let line1 = open.canonical(&order);

    // The other player cannot act in it.
    let (other, _) = open.read("pass\n").unwrap();
    assert!(matches!(
        open.judge_drawing(&other, second, &mut d),
        Judged::Illegal(_)
    ));

    // Mail 2: the pawn climbs onto the coin; the turn closes.
    let (order2, _) = open.read(&format!("pawn {home} {beside}\n")).unwrap();
    let closed = legal(open.judge_drawing(&order2, &first, &mut d));
    assert_eq!(awaited(&closed), (second.to_string(), "turn", 0));
    let line2 = closed.canonical(&order2);

    // The fold of the log gives the same position, asked again of the
    // seed, or of the recorded draws; without either it cannot be folded.
    let log = vec![(first.clone(), line1), (first.clone(), line2)];
    let again = Kind::MoneyRun
        .fold_drawing(&players, &[], &log, &mut seeded())
        .unwrap();
    assert_eq!(again, closed);
    let mut recorded = Recorded(d.made.clone());
    let from_records = Kind::MoneyRun
        .fold_drawing(&players, &[], &log, &mut recorded)
        .unwrap();
    assert_eq!(from_records, closed);
    assert!(Kind::MoneyRun
        .fold_drawing(&players, &[], &log, &mut NoDraws)
        .is_err());

    // Encoded and decoded under its version.
    let json = closed.encode();
    assert_eq!(closed.encoding(), "money-run/1");
    assert_eq!(Kind::MoneyRun.decode("money-run/1", &json).unwrap(), closed);
    assert!(Kind::MoneyRun.decode("money-run/0", &json).is_err());
}

#[test]
fn a_timeout_passes_a_fresh_turn_and_ends_an_open_one() {
    let players = names(&["Ann", "Bob"]);
    let mut d = seeded();
    let start = Kind::MoneyRun.start_drawing(&players, &[], &mut d).unwrap();
    let (first, _, _) = awaited(&start);
    let (order, judged) = start.timeout();
    assert_eq!(start.canonical(&order), "pass");
    let passed = legal(judged);
    assert_ne!(awaited(&passed).0, first);

    let beside = if first == "Ann" { "e2" } else { "e8" };
    let (order, _) = start
        .read(&format!("place {} {beside}\n", a_table_coin(&start)))
        .unwrap();
    let open = legal(start.judge_drawing(&order, &first, &mut d));
    assert_eq!(awaited(&open).1, "second action");
    let (order, judged) = open.timeout();
    assert_eq!(open.canonical(&order), "end");
    let closed = legal(judged);
    assert_eq!(awaited(&closed).1, "turn");
    assert_ne!(awaited(&closed).0, first);
}

#[test]
fn a_join_and_a_resignation_are_refused_with_the_ruling() {
    let mut d = seeded();
    let p = Kind::MoneyRun
        .start_drawing(&names(&["Ann", "Bob"]), &[], &mut d)
        .unwrap();
    assert!(p.join("Cat").unwrap_err().to_string().contains("MR17"));
    assert!(p.resign("Ann").unwrap_err().to_string().contains("MR17"));
}
