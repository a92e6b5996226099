//! A game of another kind by real mail (issue 41), against the loopback
//! stack (Dovecot, Postfix, mlmmj) and the real daemon: one lounge plays
//! Volume 1's MN1 (configured) and an mc-xml game, MX1, created in the
//! lobby by the Speaker, joined by three players who confirm from their
//! own mailboxes, and started with START. Its turns are `<Turn>` elements
//! posted to the lounge: a legal Move, an illegal one refused to its sender
//! alone (Rule 3) and corrected, an HTML-only mail and a plain one whose
//! quotes a client made curly (each read with its repair noted), Work,
//! Slave, Buy, Steal, Block, Unblock and Shunt. The daemon is SIGKILLed
//! twice just after a turn reached it, and restarted: every mail is
//! answered exactly once and both games go on. Restarted on a fast clock, it plays a
//! Timeout of MX1's 2 plain hours and announces it; STATUS and HISTORY
//! answer with the kind's state document. Everything is asserted on the
//! mails that come back through the servers (and the bot's outbox, read
//! only, to prove what it did not send).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::{Duration, Instant};

use support::live::{token, Live};
use support::stack_mail::*;
use support::{header, imap_search_raw, Daemon};

/// Game seconds per real second once the daemon is restarted fast: MX1's 2
/// plain hours pass in 30 s, time enough for the next player's turn to
/// come through the list before eir own deadline.
const SPEED: &str = "240";

/// The Speaker's address; the outbox waits for the echo of a reply sent
/// just before a kill (as in tests/mail_faults.rs) before sending it again.
const CONFIG: &str = "[speaker]\naddresses = [\"speaker@example.test\"]\n\n\
                      [outbox]\nunconfirmed_wait_secs = 10\n";

/// `who` joins MX1 as `name`, confirming from eir own mailbox.
fn join(l: &mut Live, e: &mut Expect, who: &str, name: &str) {
    let id = l.mail_bot(who, "join", &format!("JOIN MX1 as {name}"));
    let request = answer(l, who, &id);
    e.private(&id, who);
    let id = l.mail_bot(who, "Re: join", &format!("CONFIRM {}", token(&request)));
    let joined = flat(&in_lounge(l, &id));
    assert!(
        joined.contains(&format!("{name} joins MX1 (Rule 1.1.8)")),
        "{joined}"
    );
    // To the joiner: eir confirmation, and the lounge's notice.
    e.answers.push((id.clone(), who.into(), 2));
    e.answers.push((id.clone(), "rushton".into(), 1));
    e.queued.push((id, 2));
}

/// `p` posts turn `n` of MX1 (`actions` inside eir `<Turn>`): judged
/// legal, announced in the lounge; the verdict on one line.
fn legal(l: &mut Live, e: &mut Expect, p: &P, n: usize, actions: &str) -> String {
    let id = l.post(&p.who, "[MX1] my turn", &turn(&p.name, actions));
    legal_verdict(l, e, p, n, &id)
}

/// The verdict on `p`'s turn `n` (mail `id`): legal, in the lounge.
fn legal_verdict(l: &Live, e: &mut Expect, p: &P, n: usize, id: &str) -> String {
    let v = flat(&in_lounge(l, id));
    assert!(
        v.contains(&format!("{}'s turn {n} of MX1 is legal", p.name)),
        "turn {n}: {v}\nlog:\n{}",
        log_tail(l)
    );
    assert!(
        v.contains(&format!("XML Mornington Crescent (mc-xml), after {n} turn")),
        "{v}"
    );
    e.lounge(id, &p.who, true);
    v
}

#[test]
fn an_mcxml_game_by_real_mail_beside_volume_1() {
    let Some(mut l) = Live::start(CONFIG, &[]) else {
        return;
    };
    let started = Instant::now();
    l.stack.adduser("speaker", "speaker-pw");
    for u in ["ann", "bob", "cat"] {
        l.stack.adduser(u, &format!("{u}-pw"));
        l.stack.subscribe(&format!("{u}@example.test"));
    }
    let cfg = l.stack.dir.join("bot.toml");
    let mut e = Expect::default();

    // The Speaker opens MX1 in the lobby of the lounge that plays MN1.
    let id = l.mail_bot(
        "speaker",
        "new game",
        "NEW GAME MX1 kind mc-xml players 3 deadline 2h plain",
    );
    let open = flat(&in_lounge(&l, &id));
    assert!(open.contains("A new game, MX1, is open"), "{open}");
    assert!(open.contains("XML Mornington Crescent (mc-xml)"), "{open}");
    assert!(open.contains("2 hours a turn"), "{open}");
    let told = flat(&answer(&l, "speaker", &id));
    assert!(told.contains("MX1 is created"), "{told}");
    e.answers.push((id.clone(), "speaker".into(), 1));
    e.answers.push((id.clone(), "rushton".into(), 1));
    e.queued.push((id, 2));

    for (who, name) in [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")] {
        join(&mut l, &mut e, who, name);
    }

    // START draws the order of play and announces it in the lounge.
    let id = l.mail_bot("speaker", "start", "START MX1");
    let start = flat(&in_lounge(&l, &id));
    assert!(
        start.contains("MX1, a game of XML Mornington Crescent (mc-xml), starts with 3 players"),
        "{start}"
    );
    assert!(start.contains("mornbot verify-dice MX1"), "{start}");
    assert!(!start.contains("Drone"), "mc-xml has no Drone: {start}");
    let order = order_of(&start, 3);
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, ["Ann", "Bob", "Cat"], "{start}");
    assert!(
        start.contains(&format!("It is {}'s turn", order[0])),
        "{start}"
    );
    e.answers.push((id.clone(), "speaker".into(), 1));
    e.answers.push((id.clone(), "rushton".into(), 1));
    e.queued.push((id, 2));
    let [p1, p2, p3] = [0, 1, 2].map(|i| P {
        name: order[i].clone(),
        who: order[i].to_lowercase(),
    });

    // Turn 1: from Tottenham Court Road, where every train starts, Euston
    // is no neighbour: refused to the sender alone, citing Rule 3.
    let id = l.post(
        &p1.who,
        "[MX1] my turn",
        &turn(&p1.name, "<Move steps=\"Euston\"/>"),
    );
    let refused = answer(&l, &p1.who, &id);
    assert_eq!(
        header(&refused, "To"),
        Some(format!("{}@example.test", p1.who).as_str()),
        "{refused}"
    );
    let refused = flat(&refused);
    assert!(refused.contains("Rule 3"), "{refused}");
    assert!(refused.contains("Euston is not adjacent"), "{refused}");
    assert!(refused.contains("Nothing has changed"), "{refused}");
    assert_eq!(refused.matches("othing").count(), 1, "said once: {refused}");
    e.private(&id, &p1.who);
    // The corrected turn.
    let v = legal(&mut l, &mut e, &p1, 1, "<Move steps=\"Goodge Street\"/>");
    assert!(
        v.contains("moved Tottenham Court Road -> Goodge Street (10 min)"),
        "{v}"
    );
    assert!(v.contains(&format!("Next to play: {}", p2.name)), "{v}");

    // Turn 2, HTML only, as Outlook writes it: the quotes of its XML are
    // curly (entities in the HTML), read straight with the repair noted.
    let head = format!(
        "From: {w}@example.test\nTo: lounge@example.test\nSubject: [MX1] my turn\n\
         MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8",
        w = p2.who
    );
    let html = format!(
        "<html><head><style>p {{ margin: 0 }}</style></head><body>\
         <p>My turn:</p><p>&lt;Turn player=&ldquo;{}&rdquo;&gt;&lt;Slave/&gt;&lt;/Turn&gt;</p>\
         <p>&nbsp;</p></body></html>",
        p2.name
    );
    let id = l.send(&p2.who, "lounge@example.test", &head, &html);
    let v = legal_verdict(&l, &mut e, &p2, 2, &id);
    assert!(v.contains("slaved: +5 tokens (60 min)"), "{v}");
    assert!(
        v.contains("curly quotes around player= read as straight quotes"),
        "{v}"
    );

    // Turn 3, plain text whose client made the quotes curly (UTF-8).
    let head = format!(
        "From: {w}@example.test\nTo: lounge@example.test\nSubject: [MX1] my turn\n\
         MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 8bit",
        w = p3.who
    );
    let body = format!(
        "Here goes.\n\n<Turn player=\u{201c}{}\u{201d}><Slave/></Turn>\n",
        p3.name
    );
    let id = l.send(&p3.who, "lounge@example.test", &head, &body);
    let v = legal_verdict(&l, &mut e, &p3, 3, &id);
    assert!(
        v.contains("curly quotes around player= read as straight quotes"),
        "{v}"
    );
    assert!(v.contains(&format!("Next to play: {}", p1.name)), "{v}");

    // Volume 1 in the same lounge, between two turns of MX1: MN1's turn 1.
    let id = l.post(
        "rushton",
        "[MN1] my turn",
        "Rushton : Epping (CN) [Home: Hainault]",
    );
    let v = in_lounge(&l, &id);
    assert!(v.contains("Turn 1: Rushton (legal)"), "{v}");
    e.lounge(&id, "rushton", true);

    // Turn 4: back to Tottenham Court Road, and Work twice (50 minutes).
    let v = legal(
        &mut l,
        &mut e,
        &p1,
        4,
        "<Move steps=\"Tottenham Court Road\"/><Work/><Work/>",
    );
    assert!(v.contains("worked: +1 token (20 min)"), "{v}");
    assert!(v.contains("50 of 60 minutes"), "{v}");

    // Turn 5: a ticket machine, bought where other trains stand. The
    // daemon is SIGKILLed just after the turn reached it, then restarted.
    let id = l.post(
        &p2.who,
        "[MX1] my turn",
        &turn(&p2.name, "<Buy item=\"ticket machine\"/><Work/>"),
    );
    kill_after(&mut l, &id, Duration::from_millis(60));
    let v = legal_verdict(&l, &mut e, &p2, 5, &id);
    assert!(
        v.contains("bought a ticket machine (5 tokens, 20 min)"),
        "{v}"
    );

    // After the restart both games go on: MN1's turn 2 ...
    let id = l.post(
        "warren",
        "[MN1] my turn",
        "Warren : Morden (NT) [Home: Tooting Broadway]",
    );
    let v = in_lounge(&l, &id);
    assert!(v.contains("Turn 2: Warren (legal)"), "{v}");
    e.lounge(&id, "warren", true);
    // ... and MX1's turn 6: a Steal, and a Block of Goodge Street; the
    // daemon killed again as soon as it reached the bot's mailbox.
    let id = l.post(
        &p3.who,
        "[MX1] my turn",
        &turn(
            &p3.name,
            &format!(
                "<Steal player=\"{}\" item=\"ticket machine\"/>\
                 <Block station=\"Goodge Street\" strength=\"1\"/>",
                p2.name
            ),
        ),
    );
    kill_after(&mut l, &id, Duration::ZERO);
    let v = legal_verdict(&l, &mut e, &p3, 6, &id);
    assert!(
        v.contains(&format!("stole a ticket machine from {}", p2.name)),
        "{v}"
    );
    assert!(v.contains("blocked Goodge Street with strength 1"), "{v}");

    // STATUS answers with the kind's state document.
    let id = l.mail_bot(&p1.who, "status", "STATUS MX1");
    let status = flat(&answer(&l, &p1.who, &id));
    assert!(
        status.contains("XML Mornington Crescent (mc-xml), after 6 turns"),
        "{status}"
    );
    assert!(
        status.contains("Goodge Street, strength 1 (Unblock costs 2 tokens)"),
        "{status}"
    );
    assert!(
        status.contains(&format!("Next to play: {}", p1.name)),
        "{status}"
    );
    e.private(&id, &p1.who);

    // Turn 7: Goodge Street unblocked, and some Work.
    let v = legal(
        &mut l,
        &mut e,
        &p1,
        7,
        "<Unblock steps=\"Goodge Street\"/><Work/>",
    );
    assert!(
        v.contains("unblocked Goodge Street (2 tokens, 10 min)"),
        "{v}"
    );

    // The daemon, restarted on a fast clock (as tests/mail_e2e.rs runs
    // it): the second player sends no turn 8 within 2 plain hours, and the
    // daemon plays eir Timeout and announces it in the lounge.
    assert!(l.daemon.terminate().success());
    l.daemon = Daemon::start_with(&cfg, &l.log, &[("MORNBOT_CLOCK_SPEED", SPEED)]);
    let timeout_subject = format!("[MX1] Turn 8: {} timed out", p2.name);
    let search = format!("SUBJECT \"{timeout_subject}\"");
    let timeout = wait(
        &l,
        Duration::from_secs(120),
        "the Timeout in the lounge",
        || imap_search_raw(l.imap, "rushton", "INBOX", Some(&search)).pop(),
    );
    assert_eq!(header(&timeout, "To"), Some("lounge@example.test"));
    let timeout = flat(&mornbot::mail::attach::as_read(&timeout));
    assert!(
        timeout.contains(&format!("{} sent no turn 8 of MX1 by", p2.name)),
        "{timeout}"
    );
    assert!(
        timeout.contains("2 hours a turn, every hour counted"),
        "{timeout}"
    );
    assert!(timeout.contains("after 8 turns"), "{timeout}");
    assert!(
        timeout.contains(&format!("Next to play: {}", p3.name)),
        "{timeout}"
    );

    // Turn 9, before its own deadline: a Shunt of the first player.
    let v = legal(
        &mut l,
        &mut e,
        &p3,
        9,
        &format!(
            "<Shunt player=\"{}\" steps=\"Goodge Street, Warren Street\"/>",
            p1.name
        ),
    );
    assert!(
        v.contains(&format!(
            "shunted {} Tottenham Court Road -> Goodge Street -> Warren Street (2 tokens)",
            p1.name
        )),
        "{v}"
    );
    let id = l.mail_bot(&p3.who, "status", "STATUS MX1\nHISTORY MX1");
    let status = flat(&answer(&l, &p3.who, &id));
    assert!(
        status.contains("XML Mornington Crescent (mc-xml), after 9 turns"),
        "{status}"
    );
    assert!(
        status.contains(&format!("{} at Warren Street", p1.name)),
        "{status}"
    );
    assert!(status.contains("9 line(s) in the log"), "{status}");
    assert!(
        status.contains(&format!("8. {} (Timeout)", p2.name)),
        "{status}"
    );
    e.private(&id, &p3.who);
    assert!(l.daemon.terminate().success());

    // Give a duplicate time to arrive, then count what came back.
    std::thread::sleep(Duration::from_secs(5));
    let timeouts = imap_search_raw(l.imap, "rushton", "INBOX", Some(&search)).len();
    assert_eq!(timeouts, 1, "one Timeout for turn 8");
    e.check(&l, &["rushton", "warren", "speaker", "ann", "bob", "cat"]);
    eprintln!("the game took {:?}", started.elapsed());
}
