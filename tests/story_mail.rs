//! A game's whole life by mail, against the real stack (issue 17, "Done
//! when"): the Speaker creates MN20; Rushton, Warren and Acton join, while
//! Warren's forged join for Cryer is stopped by the confirmation; START
//! draws and announces the order; the player to move sets an absence and
//! eir deadline moves; a player Resigns; the other two agree a Stalemate;
//! the Speaker confirms it; POINTS has them; ARCHIVE MN20 sends the record,
//! whose final GSD `mornbot check` replays clean. Every mail goes through
//! Postfix (and the lounge's through mlmmj, which adds a footer); the
//! daemon reads the lounge over IMAP and answers over SMTP.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use chrono::{Datelike, Duration, Utc, Weekday};
use support::header;
use support::live::{token, Live};
use support::record::{check_clean, final_gsd};

/// A mail's text with quoted-printable soft breaks undone, on one line.
fn flat(raw: &str) -> String {
    raw.replace("\r\n", "\n")
        .replace("=\n", "")
        .replace("=3D", "=")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The one mail the bot sent answering `id` to `who`, as text.
fn answer_to(l: &Live, id: &str, who: &str) -> String {
    let sent = l.sent_answering(id);
    let mine: Vec<&(Vec<String>, String)> = sent
        .iter()
        .filter(|(to, _)| to.iter().any(|a| a.starts_with(&format!("{who}@"))))
        .collect();
    assert_eq!(mine.len(), 1, "one answer to {who}: {sent:#?}");
    mine[0].1.clone()
}

/// Every mail the bot sent to the lounge answering `id`, flattened.
fn lounge_answers(l: &Live, id: &str) -> String {
    l.sent_answering(id)
        .iter()
        .filter(|(to, _)| to.iter().any(|a| a == "lounge@example.test"))
        .map(|(_, m)| flat(m))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `who` joins MN20 as `name`, confirming from eir own mailbox.
fn join(l: &mut Live, who: &str, name: &str) {
    let id = l.mail_bot(who, "join", &format!("JOIN MN20 as {name}"));
    let (_, summary) = l.processed(&id);
    assert!(summary.contains("awaiting confirmation"), "{summary}");
    let request = l.reply(who, &id);
    let id = l.mail_bot(who, "Re: join", &format!("CONFIRM {}", token(&request)));
    let (_, summary) = l.processed(&id);
    assert!(summary.contains(&format!("{name} joins MN20")), "{summary}");
}

/// The order of play in a start announcement (`1. Rushton 2. Warren ...`),
/// the Drone aside.
fn order_of(start: &str) -> Vec<String> {
    (1..=3)
        .map(|k| {
            let at = start
                .find(&format!(" {k}. "))
                .unwrap_or_else(|| panic!("no {k}. in {start}"));
            start[at + 4..]
                .split_whitespace()
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// The first weekday (Monday to Friday) after today, as `2026-11-30`.
fn next_weekday() -> String {
    let mut d = Utc::now().date_naive() + Duration::days(1);
    while matches!(d.weekday(), Weekday::Sat | Weekday::Sun) {
        d += Duration::days(1);
    }
    d.format("%Y-%m-%d").to_string()
}

#[test]
fn a_game_from_creation_to_the_archive_by_mail() {
    let Some(mut l) = Live::start("[speaker]\naddresses = [\"speaker@example.test\"]\n", &[])
    else {
        return;
    };
    for u in ["speaker", "cryer"] {
        l.stack.adduser(u, &format!("{u}-pw"));
    }

    // The Speaker opens MN20 for three players.
    let id = l.mail_bot("speaker", "new game", "NEW GAME MN20 players 3");
    assert_eq!(l.processed(&id).1, "new game MN20");
    assert!(lounge_answers(&l, &id).contains("A new game, MN20, is open"));

    join(&mut l, "rushton", "Rushton");
    join(&mut l, "warren", "Warren");
    // Warren signs Cryer up with Cryer's From: the token goes to Cryer's
    // mailbox, which Warren cannot read, and a guess from Warren's own
    // address is refused.
    let forged = l.send(
        "warren",
        "bot@example.test",
        "From: cryer@example.test\nTo: bot@example.test\nSubject: join",
        "JOIN MN20 as Cryer",
    );
    assert!(l.processed(&forged).1.contains("awaiting confirmation"));
    assert!(token(&l.reply("cryer", &forged)).len() == 20);
    assert!(l.answers("warren", &forged).is_empty());
    let guess = l.mail_bot("warren", "confirm", "CONFIRM 0123456789abcdef0123");
    assert_eq!(l.processed(&guess).1, "confirm: no such join");
    join(&mut l, "acton", "Acton");

    // START draws the order of play and announces it with the draw.
    let id = l.mail_bot("speaker", "start", "START MN20");
    assert!(l.processed(&id).1.starts_with("start MN20"));
    let start = lounge_answers(&l, &id);
    assert!(start.contains("The order of play (Rule 1.1.12)"), "{start}");
    assert!(start.contains("mornbot verify-dice MN20"), "{start}");
    assert!(
        !start.contains("Cryer"),
        "the forged join never counted: {start}"
    );
    let order = order_of(&start);
    assert!(
        !order.iter().any(|n| n == "Cryer"),
        "the forged join never counted"
    );
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, ["Acton", "Rushton", "Warren"], "{start}");
    assert!(
        start.contains(&format!("It is {}'s turn", order[0])),
        "{start}"
    );
    // The announcement reached a player through the list.
    l.wait_for("acton", "the start in the lounge", |m| {
        flat(m).contains("The order of play (Rule 1.1.12)")
    });

    // The first player opens, posting to the lounge.
    let id = l.post(
        &order[0].to_lowercase(),
        "[MN20] my turn",
        &format!("{} : Morden (NT) [Home: Tooting Broadway]", order[0]),
    );
    assert_eq!(l.processed(&id).1, "legal");

    // The second is away the next weekday: eir deadline moves.
    let day = next_weekday();
    let (second, who) = (&order[1], order[1].to_lowercase());
    let id = l.mail_bot(&who, "away", &format!("ABSENCE {day} TO {day} MN20"));
    assert_eq!(l.processed(&id).1, format!("{second} away in MN20"));
    let told = lounge_answers(&l, &id);
    // Its Subject says what it is, on the game's thread (issue 39, item 5).
    let subjects: Vec<String> = l
        .sent_answering(&id)
        .iter()
        .filter(|(to, _)| to.iter().any(|a| a == "lounge@example.test"))
        .filter_map(|(_, m)| header(m, "Subject").map(str::to_string))
        .collect();
    assert_eq!(subjects, [format!("[MN20] {second} is away")], "{told}");
    // One whole day, shown as written (issue 39, item 6).
    assert!(told.contains(&format!("{second} is away on")), "{told}");
    assert!(
        told.contains(&format!("{second}'s turn 2 is now due by")),
        "{told}"
    );
    assert!(flat(&l.reply(&who, &id)).contains("CANCEL ABSENCE MN20"));

    // The third Resigns.
    let gone = &order[2];
    let id = l.mail_bot(&gone.to_lowercase(), "resign", "RESIGN MN20");
    assert_eq!(l.processed(&id).1, format!("{gone} resigned from MN20"));
    // (Announced on the game's thread, not as an answer.)
    assert!(l.sent().iter().any(|(to, m)| to == &["lounge@example.test"]
        && flat(m).contains(&format!("{gone} Resigns from MN20"))));

    // The other two agree a Stalemate; the Speaker confirms it.
    for n in &order[..2] {
        let id = l.mail_bot(&n.to_lowercase(), "stalemate", "STALEMATE MN20");
        assert_eq!(l.processed(&id).1, format!("{n} agreed stalemate"));
    }
    let id = l.mail_bot("speaker", "confirm", "CONFIRM STALEMATE MN20");
    assert_eq!(l.processed(&id).1, "MN20 ended in stalemate");
    assert!(lounge_answers(&l, &id).contains("declares the game over in Stalemate"));

    // POINTS: each of the three has played one game to its end, none scored.
    let id = l.mail_bot("cryer", "points", "POINTS");
    let points = flat(&answer_to(&l, &id, "cryer"));
    for n in ["Rushton", "Warren", "Acton"] {
        assert!(points.contains(&format!("{n} 0 (1 game)")), "{points}");
    }
    assert!(!points.contains("Cryer"), "{points}");

    // ARCHIVE lists MN20; ARCHIVE MN20 sends its record, which replays.
    let id = l.mail_bot("cryer", "archive", "ARCHIVE");
    let list = flat(&answer_to(&l, &id, "cryer"));
    assert!(
        list.contains("MN20") && list.contains("stalemate"),
        "{list}"
    );
    let id = l.mail_bot("cryer", "archive", "ARCHIVE MN20");
    let record = answer_to(&l, &id, "cryer")
        .replace("\r\n", "\n")
        .replace("=\n", "")
        .replace("=3D", "=");
    assert!(
        flat(&record).contains(&format!("Resigned: {gone}, after turn 1")),
        "{record}"
    );
    check_clean(&final_gsd(&record), "story");
    // Every mail of the story reads well: one signature, nothing said
    // twice (the shared check of the mail tests).
    for (_, m) in l.sent() {
        support::assert_reads_well(&m);
    }
    assert!(l.daemon.terminate().success());
}
