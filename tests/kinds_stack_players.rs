//! Players arriving and leaving an mc-xml game by real mail (issue 41;
//! RULINGS MX13, MX14, MX15), against the loopback stack (Dovecot,
//! Postfix, mlmmj) and the real daemon, in the lounge that plays Volume
//! 1's MN1: the Speaker opens MX7, two players join and confirm from their
//! own mailboxes, START draws their order and the first plays a turn.
//! Then a third address asks to join as Dana: the ask is announced in the
//! lounge, a stranger's CONSENT is refused to the stranger alone, each
//! player consents, the last consent announces the join, and Dana plays
//! when eir turn comes, last in the order. The Speaker pauses and resumes
//! the game; one player resigns, the Speaker resigns the other, and Dana,
//! the last player left, has won. Every mail is answered exactly once,
//! asserted on the mails that come back through the servers (and the
//! bot's outbox, read only, to prove what it did not send).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::{Duration, Instant};

use support::live::Live;
use support::stack_mail::*;

/// The Speaker's address, as the other stack tests configure it.
const CONFIG: &str = "[speaker]\naddresses = [\"speaker@example.test\"]\n";

/// The game's tag.
const TAG: &str = "MX7";

/// `p` posts a turn of MX7 (`actions` inside eir `<Turn>`), judged legal
/// and announced in the lounge as turn `n`, the game then `after` turns
/// old; the verdict on one line.
fn legal(l: &mut Live, e: &mut Expect, p: &P, n: usize, after: usize, actions: &str) -> String {
    let id = l.post(&p.who, &format!("[{TAG}] my turn"), &turn(&p.name, actions));
    let v = flat(&in_lounge(l, &id));
    assert!(
        v.contains(&format!("{}'s turn {n} of {TAG} is legal", p.name)),
        "turn {n}: {v}\nlog:\n{}",
        log_tail(l)
    );
    let turns = if after == 1 { "turn" } else { "turns" };
    assert!(
        v.contains(&format!(
            "XML Mornington Crescent (mc-xml), after {after} {turns}"
        )),
        "{v}"
    );
    e.lounge(&id, &p.who, true);
    v
}

#[test]
fn a_late_joiner_pauses_and_resignations_of_an_mcxml_game_by_real_mail() {
    let Some(mut l) = Live::start(CONFIG, &[]) else {
        return;
    };
    let started = Instant::now();
    // The Speaker and the stranger read no lounge; the players and Dana do.
    for u in ["speaker", "eve"] {
        l.stack.adduser(u, &format!("{u}-pw"));
    }
    for u in ["ann", "bob", "dana"] {
        l.stack.adduser(u, &format!("{u}-pw"));
        l.stack.subscribe(&format!("{u}@example.test"));
    }
    let mut e = Expect::default();

    // 1. The Speaker opens MX7 in the lobby of the lounge that plays MN1;
    // two players join and confirm; START draws their order.
    let id = l.mail_bot(
        "speaker",
        "new game",
        &format!("NEW GAME {TAG} kind mc-xml players 3 deadline 48h"),
    );
    let open = flat(&in_lounge(&l, &id));
    assert!(
        open.contains(&format!("A new game, {TAG}, is open")),
        "{open}"
    );
    assert!(open.contains("XML Mornington Crescent (mc-xml)"), "{open}");
    assert!(open.contains("48 counted hours a turn"), "{open}");
    let told = flat(&private(&l, "speaker", &id));
    assert!(told.contains(&format!("{TAG} is created")), "{told}");
    e.both(&id, "speaker", false);

    for (who, name) in [("ann", "Ann"), ("bob", "Bob")] {
        join(&mut l, &mut e, TAG, who, name);
    }

    let id = l.mail_bot("speaker", "start", &format!("START {TAG}"));
    let start = flat(&in_lounge(&l, &id));
    assert!(
        start.contains(&format!(
            "{TAG}, a game of XML Mornington Crescent (mc-xml), starts with 2 players"
        )),
        "{start}"
    );
    let order = order_of(&start, 2);
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, ["Ann", "Bob"], "{start}");
    assert!(
        start.contains(&format!("It is {}'s turn", order[0])),
        "{start}"
    );
    e.both(&id, "speaker", false);
    let [p1, p2] = [0, 1].map(|i| P {
        name: order[i].clone(),
        who: order[i].to_lowercase(),
    });

    // Turn 1, legal: from Tottenham Court Road to Goodge Street.
    let v = legal(&mut l, &mut e, &p1, 1, 1, "<Move steps=\"Goodge Street\"/>");
    assert!(
        v.contains("moved Tottenham Court Road -> Goodge Street (10 min)"),
        "{v}"
    );
    assert!(v.contains(&format!("Next to play: {}", p2.name)), "{v}");

    // 2. A third address asks to join the game under way as Dana: told
    // privately, and the ask announced in the lounge, naming the command
    // each player must send.
    let id = l.mail_bot("dana", "join", &format!("JOIN {TAG} as Dana"));
    let told = flat(&private(&l, "dana", &id));
    assert!(
        told.contains(&format!("Your ask to join {TAG} as Dana is announced")),
        "{told}"
    );
    let ask = flat(&in_lounge(&l, &id));
    assert!(
        ask.contains(&format!("Dana asks to join {TAG}, under way")),
        "{ask}"
    );
    assert!(ask.contains(&format!("CONSENT {TAG} Dana")), "{ask}");
    assert!(
        ask.contains(&format!("once each of {}, {} mails", p1.name, p2.name)),
        "{ask}"
    );
    e.both(&id, "dana", true);

    // A stranger's consent is refused, to the stranger alone.
    let id = l.mail_bot("eve", "consent", &format!("CONSENT {TAG} Dana"));
    let refused = flat(&private(&l, "eve", &id));
    assert!(
        refused.contains(&format!("Only a player of {TAG} consents to a join")),
        "{refused}"
    );
    e.private(&id, "eve");

    // The first player's consent is recorded, privately; the stranger's
    // did not count, so the second player's is still awaited.
    let id = l.mail_bot(&p1.who, "consent", &format!("CONSENT {TAG} Dana"));
    let told = flat(&private(&l, &p1.who, &id));
    assert!(
        told.contains(&format!(
            "Your consent to Dana joining {TAG} is recorded; still to consent: {}.",
            p2.name
        )),
        "{told}"
    );
    e.private(&id, &p1.who);

    // The last consent makes the join, announced in the lounge.
    let id = l.mail_bot(&p2.who, "consent", &format!("CONSENT {TAG} Dana"));
    let joined = flat(&in_lounge(&l, &id));
    assert!(
        joined.contains(&format!(
            "Every player consented: Dana joins {TAG}, last in the order of play"
        )),
        "{joined}"
    );
    assert!(
        joined.contains(&format!("Next to play: {}", p2.name)),
        "{joined}"
    );
    e.lounge(&id, &p2.who, true);

    // The second player's turn, then Dana's, last in the order; back to
    // the first player.
    let v = legal(&mut l, &mut e, &p2, 3, 2, "<Slave/>");
    assert!(v.contains("slaved: +5 tokens (60 min)"), "{v}");
    assert!(v.contains("Next to play: Dana"), "{v}");
    let dana = P {
        name: "Dana".into(),
        who: "dana".into(),
    };
    let v = legal(
        &mut l,
        &mut e,
        &dana,
        4,
        3,
        "<Move steps=\"Goodge Street\"/>",
    );
    assert!(
        v.contains("moved Tottenham Court Road -> Goodge Street (10 min)"),
        "{v}"
    );
    assert!(v.contains(&format!("Next to play: {}", p1.name)), "{v}");

    // 3. The Speaker pauses MX7, then resumes it: each a lounge notice.
    let id = l.mail_bot(
        "speaker",
        &format!("[{TAG}] pause"),
        &format!("PAUSE {TAG}"),
    );
    let paused = flat(&in_lounge(&l, &id));
    assert!(
        paused.contains(&format!(
            "The Speaker paused {TAG}: no turn is due until it is resumed."
        )),
        "{paused}"
    );
    e.lounge(&id, "speaker", false);
    let id = l.mail_bot(
        "speaker",
        &format!("[{TAG}] resume"),
        &format!("RESUME {TAG}"),
    );
    let resumed = flat(&in_lounge(&l, &id));
    assert!(
        resumed.contains(&format!(
            "The Speaker resumed {TAG}: the awaited turn is due by"
        )),
        "{resumed}"
    );
    e.lounge(&id, "speaker", false);

    // 4. The first player resigns; the Speaker resigns the second; Dana,
    // the last player left, wins.
    let id = l.mail_bot(
        &p1.who,
        &format!("[{TAG}] resign"),
        &format!("RESIGN {TAG}"),
    );
    let gone = flat(&in_lounge(&l, &id));
    assert!(
        gone.contains(&format!("{} resigns from {TAG} (RULINGS MX15)", p1.name)),
        "{gone}"
    );
    assert!(
        gone.contains(&format!("Next to play: {}", p2.name)),
        "{gone}"
    );
    e.lounge(&id, &p1.who, true);
    let id = l.mail_bot(
        "speaker",
        &format!("[{TAG}] resign"),
        &format!("RESIGN {} {TAG}", p2.name),
    );
    // Two lounge notices answer it: the resignation and the dice's seed.
    let both = all_in_lounge(&l, &id, 2);
    let gone = flat(&both.join("\n"));
    assert!(
        gone.contains(&format!("{} resigns from {TAG} (RULINGS MX15)", p2.name)),
        "{gone}"
    );
    assert!(
        gone.contains("Game over: Dana won, the last player left."),
        "{gone}"
    );
    // The game is over: the seed of its dice is revealed with it, a
    // second lounge notice answering the same mail (RULINGS S14, MX13).
    assert!(gone.contains("reveals the seed of its dice"), "{gone}");
    e.answers.push((id.clone(), "rushton".into(), 2));
    e.answers.push((id.clone(), "speaker".into(), 0));
    e.queued.push((id.clone(), 2));

    let id = l.mail_bot("dana", "status", &format!("STATUS {TAG}"));
    let status = flat(&private(&l, "dana", &id));
    assert!(
        status.contains("Game over: Dana won, the last player left."),
        "{status}"
    );
    assert!(!status.contains("Next to play"), "{status}");
    e.private(&id, "dana");
    assert!(l.daemon.terminate().success());

    // 5. Give a duplicate time to arrive, then count what came back.
    std::thread::sleep(Duration::from_secs(5));
    e.check(&l, &["rushton", "speaker", "eve", "ann", "bob", "dana"]);
    eprintln!("the game took {:?}", started.elapsed());
}
