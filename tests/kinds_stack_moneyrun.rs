//! One Money Run game from NEW GAME to a win (issue 42), by real mail
//! against the loopback stack (Dovecot, Postfix, mlmmj) and the real
//! daemon, in the lounge that plays Volume 1's MN1 and an mc-xml game,
//! MX1 (MN1's and MX1's turns are judged between MR1's). The Speaker
//! opens MR1 for three; Ann, Bob and Cat join and confirm, and START draws
//! the order that gives the seats (the first drawn sits at e1, the second
//! at e9, the third at a5) while the kind draws the table's opening five
//! and the first player. Nothing is hard-coded that the seed decides: the
//! test reads who plays next and the table's coins from the state
//! document each verdict (or STATUS) mails, and plays [`Plan`]: seat 3
//! races along row 5, each turn placing a coin from the table on the
//! square ahead and stepping onto it; seats 1 and 2 place a coin in their
//! own corner and `end` (a round of passes would end the game by the
//! tie-break, MR12). The racer's first turn is sent as two mails (the
//! placement, its verdict "turn open" naming the drawn coin, the daemon
//! SIGKILLed and restarted, STATUS showing the open turn, then the pawn
//! move, which draws nothing); later turns are one mail. A malformed order
//! is answered to its sender alone with the form expected; on a fast clock
//! a player's Timeout passes eir turn. The racer reaches column i and
//! wins: the subject says so, the seed is revealed matching NEW GAME's
//! commitment, and `mornbot verify-dice` rechecks the opening five, the
//! first player and every refill, OK. Every mail is answered exactly once.
//!
//! The first test plays the same [`Plan`] through the kind's interface
//! alone, for many seeds (each a different first player and table), so
//! that a failure of the second is the daemon's or the mail's, never the
//! plan's.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod moneyrun_plan;
mod support;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use moneyrun_plan::*;
use mornbot::dice::Seed;
use support::live::Live;
use support::stack_mail::*;
use support::{imap_search_raw, Daemon};

/// The Speaker's address; the outbox waits for the echo of a reply sent
/// just before a kill (as in tests/mail_faults.rs) before sending it again.
const CONFIG: &str = "[speaker]\naddresses = [\"speaker@example.test\"]\n\n\
                      [outbox]\nunconfirmed_wait_secs = 10\n";

/// The game's tag.
const TAG: &str = "MR1";

/// The mc-xml game in the same lounge.
const MX: &str = "MX1";

/// Game seconds per real second while the daemon runs fast: MR1's 2 plain
/// hours pass in 30 s (MX1's 48 in 12 minutes: not while the clock is
/// fast).
const SPEED: &str = "240";

#[test]
fn the_plan_wins_for_the_racer_whatever_the_seed() {
    let mut firsts = BTreeSet::new();
    for k in 0..40u8 {
        let mut bytes = [k; 32];
        bytes[0] = k.wrapping_mul(37);
        let (first, turns) = play_plan(Seed::from_bytes(bytes));
        assert!((22..=24).contains(&turns), "seed {k}: {turns} turns");
        firsts.insert(first);
    }
    // Every seat goes first for some seed.
    assert_eq!(firsts.len(), 3, "{firsts:?}");
}

/// The players, by seat.
fn players(order: &[String]) -> [P; 3] {
    [0, 1, 2].map(|i| P {
        name: order[i].clone(),
        who: order[i].to_lowercase(),
    })
}

/// The subject of MR1's verdicts.
const TURN: &str = "[MR1] my turn";

/// `p`'s mail `id` of MR1, judged legal in the lounge as line `n` of the
/// log with the subject's `verdict`: the verdict, on one line.
fn legal(l: &Live, e: &mut Expect, p: &P, n: usize, id: &str, verdict: &str) -> String {
    let v = verdict_in_lounge(l, e, (TAG, n), (id, p), verdict);
    assert!(
        v.contains(&format!("{}'s turn {n} of {TAG} is legal", p.name)),
        "{v}"
    );
    v
}

/// How many turns the state document `doc` says the game is after.
fn won_after(doc: &str) -> u64 {
    let key = "Money Run (money-run), after ";
    let at = doc.rfind(key).unwrap_or_else(|| panic!("{key:?} in {doc}")) + key.len();
    let digits: String = doc[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// After which line of MR1's log the other games take a turn: MN1's
/// first, MX1's first, MN1's second, MX1's second.
const BETWEEN: [usize; 4] = [2, 4, 7, 10];

#[test]
fn one_money_run_game_by_real_mail_from_new_game_to_a_win() {
    let Some(mut l) = Live::start(CONFIG, &[]) else {
        return;
    };
    let started = Instant::now();
    l.stack.adduser("speaker", "speaker-pw");
    for u in ["ann", "bob", "cat", "dana", "eve"] {
        l.stack.adduser(u, &format!("{u}-pw"));
        l.stack.subscribe(&format!("{u}@example.test"));
    }
    let cfg = l.stack.dir.join("bot.toml");
    let mut e = Expect::default();

    // 1. The Speaker opens MR1 for three, and MX1 (mc-xml) for two; their
    // dice's commitments are published.
    let id = l.mail_bot(
        "speaker",
        "new game",
        &format!("NEW GAME {TAG} kind money-run players 3 deadline 2h plain"),
    );
    let open = flat(&in_lounge(&l, &id));
    for said in [
        &format!("A new game, {TAG}, is open"),
        "Money Run (money-run)",
        "2 hours a turn",
    ] {
        assert!(open.contains(said), "{said:?} in {open}");
    }
    let committed = hex_after(&open, &format!("{TAG} "));
    let told = flat(&private(&l, "speaker", &id));
    assert!(told.contains(&format!("{TAG} is created")), "{told}");
    e.both(&id, "speaker", false);
    open_mx_and_join(&mut l, &mut e, TAG, MX);

    // 2. START draws MR1's order: the seats. The kind draws the opening
    // five and the first player; STATUS shows them.
    let id = l.mail_bot("speaker", "start", &format!("START {TAG}"));
    let start = flat(&in_lounge(&l, &id));
    assert!(
        start.contains(&format!(
            "{TAG}, a game of Money Run (money-run), starts with 3 players"
        )),
        "{start}"
    );
    assert!(
        start.contains(&format!("mornbot verify-dice {TAG}")),
        "{start}"
    );
    let order = order_of(&start, 3);
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, ["Ann", "Bob", "Cat"], "{start}");
    e.both(&id, "speaker", false);
    let seats = players(&order);
    let names: [String; 3] = order.clone().try_into().unwrap();

    let id = l.mail_bot(&seats[RACER].who, "status", &format!("STATUS {TAG}"));
    let mut doc = flat(&private(&l, &seats[RACER].who, &id));
    e.private(&id, &seats[RACER].who);
    assert!(
        doc.contains("Money Run (money-run), after 0 turns"),
        "{doc}"
    );
    assert!(doc.contains("House ruling MR2"), "{doc}");
    assert_eq!(table(&doc).len(), 5, "{doc}");
    assert_eq!(drawn_so_far(&doc), 5, "{doc}");
    let (first, _) = awaited(&doc, &names);
    // Face v of the kind's first-player die is the v-th seat (RULINGS MR4).
    let drawn = draws_of(&l, TAG);
    let face = drawn
        .iter()
        .find(|d| d.1 == "first-player")
        .expect("first-player");
    assert_eq!((face.0, face.2), (0, 3), "{drawn:?}");
    assert_eq!(face.3 as usize, first + 1, "{drawn:?}\n{doc}");
    // The start notice names the player the kind drew to go first.
    assert!(
        start.contains(&format!("It is {}'s turn", seats[first].name)),
        "{} goes first: {start}",
        seats[first].name
    );

    // MX1 starts too.
    let id = l.mail_bot("speaker", "start", &format!("START {MX}"));
    let mx_start = flat(&in_lounge(&l, &id));
    let mx_order = order_of(&mx_start, 2);
    e.both(&id, "speaker", false);
    let mx = [0, 1].map(|i| P {
        name: mx_order[i].clone(),
        who: mx_order[i].to_lowercase(),
    });

    // 3. The plan, turn by turn, each mail of MR1 judged in the lounge,
    // the other games' turns between.
    let mut plan = Plan::new(names.clone());
    let mut n = 1; // the next line of MR1's log
    let mut between = 0;
    let mut placed = 0;
    let mut timeouts = None;
    let mut refilled = None;
    let won = loop {
        while between < BETWEEN.len() && n > BETWEEN[between] {
            match between {
                0 => mn1_turn(
                    &mut l,
                    &mut e,
                    "rushton",
                    1,
                    "Rushton : Epping (CN) [Home: Hainault]",
                ),
                1 => mx_turn(&mut l, &mut e, MX, &mx[0], 1),
                2 => mn1_turn(
                    &mut l,
                    &mut e,
                    "warren",
                    2,
                    "Warren : Morden (NT) [Home: Tooting Broadway]",
                ),
                _ => mx_turn(&mut l, &mut e, MX, &mx[1], 2),
            }
            between += 1;
        }
        let (who, act) = plan.act(&doc);
        let p = seats[who].clone();
        match act {
            // The racer's first turn, in two mails, the daemon killed
            // between them.
            Act::Split { place, pawn } => {
                let t = turn_number(&doc, &p.name);
                let id = l.post(&p.who, TURN, &format!("{place}\n"));
                let v = legal(&l, &mut e, &p, n, &id, "legal, turn open");
                placed += 1;
                n += 1;
                let (k, coin) = refill(&v);
                for said in [
                    format!("Drawn from the bag (bag-{k}): a "),
                    format!("{}'s turn is still open: send the second action", p.name),
                    format!("Next: {}, second action (1 taken", p.name),
                ] {
                    assert!(v.contains(&said), "{said:?} in {v}");
                }
                assert!(table(&v).contains(&coin), "{coin} on the table: {v}");
                assert_eq!(drawn_so_far(&v), k, "{v}");
                let draws = draws_of(&l, TAG);
                let bag_k: Vec<_> = draws.iter().filter(|d| d.1 == format!("bag-{k}")).collect();
                assert_eq!(bag_k.len(), 1, "{draws:?}");
                assert_eq!(bag_k[0].0, t, "drawn at the turn's number: {draws:?}");
                refilled = Some((t, k));

                // SIGKILL, and a fresh daemon: STATUS shows the open turn.
                l.daemon.kill();
                l.daemon = Daemon::start(&cfg, &l.log);
                let id = l.mail_bot(&p.who, "status", &format!("STATUS {TAG}"));
                let status = flat(&private(&l, &p.who, &id));
                e.private(&id, &p.who);
                assert_eq!(awaited(&status, &names), (who, "second action"), "{status}");
                assert_eq!(table(&status), table(&v), "{status}");

                // The second mail: the pawn steps; nothing is drawn again.
                let id = l.post(&p.who, TURN, &format!("{pawn}\n"));
                let v2 = legal(&l, &mut e, &p, n, &id, "legal");
                n += 1;
                assert!(!v2.contains("Drawn from the bag"), "{v2}");
                assert!(
                    v2.contains(&format!("{}'s pawn moves a5 (0) - b5 (1).", p.name)),
                    "{v2}"
                );
                assert_eq!(table(&v2), table(&v), "{v2}");
                assert_eq!(drawn_so_far(&v2), k, "{v2}");
                assert_eq!(draws_of(&l, TAG), draws, "no draw again");
                doc = v2;
            }
            Act::Whole { body, malformed } => {
                if malformed {
                    // Answered to its sender alone, with the form expected.
                    let id = l.post(&p.who, TURN, &format!("{}\n", MALFORMED.0));
                    let refused = flat(&private(&l, &p.who, &id));
                    for said in [
                        &format!("Your mail holds no order mornbot can read for {TAG} (Money Run)"),
                        MALFORMED.1,
                        "An order looks like place M e4",
                        "Nothing has changed",
                    ] {
                        assert!(refused.contains(said), "{said:?} in {refused}");
                    }
                    e.private(&id, &p.who);
                }
                let id = l.post(&p.who, TURN, &body);
                placed += 1;
                if who == RACER && pawn_at(&doc, 3, &p.name) == "h5" {
                    break (id, p);
                }
                let v = legal(&l, &mut e, &p, n, &id, "legal");
                n += 1;
                let (k, _) = refill(&v);
                assert_eq!(k as usize, 5 + placed, "{v}");
                doc = v;
            }
            Act::Timeout => {
                let subject = format!("[{TAG}] Turn {n}: {} timed out", p.name);
                let (timeout, search) = fast_timeout(&mut l, SPEED, &subject);
                let v = flat(&timeout);
                for said in [
                    format!("{} sent no turn {n} of {TAG} by", p.name),
                    "2 hours a turn, every hour counted".into(),
                    format!(
                        "{} takes no action (1 of 3 turns in a row without one, MR12)",
                        p.name
                    ),
                ] {
                    assert!(v.contains(&said), "{said:?} in {v}");
                }
                timeouts = Some(search);
                n += 1;
                doc = v;
            }
        }
    };

    // 4. The win: two lounge answers, in either order, its verdict and
    // the dice's seed revealed (RULINGS S14).
    let (id, p) = won;
    let won = won_and_revealed(&l, &mut e, (TAG, n), (&id, &p), &committed);
    for said in [
        format!("{}'s pawn reaches column i at i5: {} wins", p.name, p.name),
        format!("Game over: {} reached column i and wins.", p.name),
    ] {
        assert!(won.contains(&said), "{said:?} in {won}");
    }
    assert!(!won.contains("Next:"), "{won}");
    // The open turn's second mail is a line of the log, not a turn.
    assert_eq!(won_after(&won), n as u64 - 1, "{won}");
    assert!(l.daemon.terminate().success());

    // 5. verify-dice: the opening five, the first player, every refill
    // (one a placement, the open turn's once), all OK.
    let report = verify_dice(&l, TAG);
    assert!(report.contains(": OK (SHA-256 of the seed)"), "{report}");
    let (t, k) = refilled.expect("the open turn");
    let mut lines = vec![(0, "first-player".to_string(), 3)];
    lines.extend((1..=5).map(|i| (0, format!("bag-{i}"), 43 - i)));
    let draws = draws_of(&l, TAG);
    for i in 6..=5 + placed {
        let d = draws
            .iter()
            .find(|d| d.1 == format!("bag-{i}"))
            .unwrap_or_else(|| panic!("no bag-{i} in {draws:?}"));
        lines.push((d.0, d.1.clone(), 43 - i as u32));
    }
    assert!(
        lines.contains(&(t, format!("bag-{k}"), 43 - k)),
        "{lines:?}"
    );
    for (turn, name, sides) in &lines {
        let said = format!("d{sides} \"{name}\" of {TAG} turn {turn} = ");
        let hits: Vec<&str> = report.lines().filter(|r| r.starts_with(&said)).collect();
        assert!(
            hits.len() == 1 && hits[0].ends_with(": OK"),
            "{said:?}: {hits:?} in {report}"
        );
    }
    // The kind's draws and START's order of play, nothing else.
    assert_eq!(draws.len(), 6 + placed + 1, "{draws:?}");
    assert!(
        report.contains(&format!("{} draw(s), 0 mismatch(es): all OK", draws.len())),
        "{report}"
    );

    // 6. The web archive folds the game again from the recorded draws
    // (never the seed) to the same end.
    let dir = l.stack.dir.join("archive");
    let store = mornbot::store::Store::open(&l.stack.dir.join("bot-data/mornbot.db")).unwrap();
    mornbot::archive::build(
        mornbot::map::Map::london_1999(),
        &store,
        &dir,
        &mornbot::daemon::ArchiveSource,
    )
    .unwrap();
    drop(store);
    let page = std::fs::read_to_string(dir.join(format!("{TAG}/index.html"))).unwrap();
    for said in [
        format!("Money Run (money-run), after {} turns", won_after(&won)),
        format!("Game over: {} reached column i and wins.", p.name),
    ] {
        assert!(page.contains(&said), "{said:?} in {page}");
    }

    // 7. Give a duplicate time to arrive, then count what came back.
    std::thread::sleep(Duration::from_secs(5));
    let search = timeouts.expect("a Timeout");
    let timeouts = imap_search_raw(l.imap, "rushton", "INBOX", Some(&search)).len();
    assert_eq!(timeouts, 1, "one Timeout");
    let users = [
        "rushton", "warren", "speaker", "ann", "bob", "cat", "dana", "eve",
    ];
    e.check(&l, &users);
    eprintln!(
        "{} went first; {} lines of MR1's log, {} turns, to {}'s win ({placed} \
         placements, the open turn's refill bag-{k} at turn {t}); the game took {:?}",
        seats[first].name,
        n,
        won_after(&won),
        p.name,
        started.elapsed()
    );
}
