//! Replies a person understands (issue 39), by real mail: through Postfix
//! (and mlmmj for the lounge) to the daemon over IMAP, and back to the
//! players' Dovecot mailboxes. A misspelt command is told what it may have
//! meant; a game cancelled in the lobby is announced to the lounge with no
//! one's address, and whoever joined and does not read the lounge (Kit,
//! who never subscribed) is told privately, but not one who never
//! confirmed (Cryer); every notice's Subject
//! says what it is, and every mail is signed once.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::live::{token, Live};
use support::{as_written, header};

/// A mail's body as the bot wrote it (the list's footer and the picture's
/// line aside).
fn body(m: &str) -> String {
    as_written(m.split_once("\n\n").map_or("", |(_, b)| b))
}

/// Asserts that `m` reads well: one signature, nothing said twice.
fn reads_well(m: &str) {
    let faults = mornbot::mail::render::faults(&body(m));
    assert!(faults.is_empty(), "{faults:?}\n{m}");
}

#[test]
fn a_misspelt_command_is_told_what_it_may_have_meant() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    // To the bot: each misspelling answered with the command meant.
    for (line, meant) in [
        ("STRAT MN28", "START MN28"),
        ("JION MN28 as Kit", "JOIN MN28 as Kit"),
        ("STAUTS", "STATUS"),
    ] {
        let id = l.mail_bot("rushton", "help me", line);
        let r = l.reply("rushton", &id);
        assert_eq!(header(&r, "Subject"), Some("Re: help me"), "{r}");
        assert!(
            body(&r).contains(&format!("Did you mean `{meant}`?")),
            "{line}: {r}"
        );
        reads_well(&r);
    }
    // In the lounge, a player's misspelt command in capitals: answered to
    // the player alone.
    let id = l.post("warren", "[MN1] status", "STAUTS MN1");
    let r = l.reply("warren", &id);
    assert_eq!(header(&r, "To"), Some("warren@example.test"), "{r}");
    assert!(body(&r).contains("Did you mean `STATUS MN1`?"), "{r}");
    reads_well(&r);
    let sent = l.sent_answering(&id);
    assert_eq!(sent.len(), 1, "to Warren alone: {sent:?}");
    assert!(l.daemon.terminate().success());
}

#[test]
fn a_cancelled_game_shows_no_address_in_the_lounge_and_tells_an_unsubscribed_joiner() {
    let Some(mut l) = Live::start("[speaker]\naddresses = [\"speaker@example.test\"]\n", &[])
    else {
        return;
    };
    // Kit and Cryer have mailboxes but never subscribed to the lounge.
    for u in ["speaker", "kit", "cryer"] {
        l.stack.adduser(u, &format!("{u}-pw"));
    }
    let id = l.mail_bot("speaker", "new game", "NEW GAME MN23 players 4");
    assert_eq!(l.processed(&id).1, "new game MN23");
    // Rushton (a player of MN1, who reads the lounge) and Kit join; Cryer
    // asks and never confirms.
    for (who, name) in [("rushton", "Rushton"), ("kit", "Kit")] {
        let id = l.mail_bot(who, "join", &format!("JOIN MN23 as {name}"));
        let asked = l.reply(who, &id);
        let id = l.mail_bot(who, "Re: join", &format!("CONFIRM {}", token(&asked)));
        assert_eq!(l.processed(&id).1, format!("confirm: {name} joins MN23"));
    }
    let id = l.mail_bot("cryer", "join", "JOIN MN23 as Cryer");
    let cryers = token(&l.reply("cryer", &id));

    let cancel = l.mail_bot("speaker", "cancel", "CANCEL GAME MN23");
    assert_eq!(l.processed(&cancel).1, "cancel MN23");

    // The lounge's copy, as a subscriber who never joined reads it: to
    // the lounge alone, no one's address in it.
    let told = l.wait_for("acton", "the cancellation in the lounge", |m| {
        header(m, "Subject") == Some("[MN23] Cancelled")
    });
    assert_eq!(header(&told, "To"), Some("lounge@example.test"), "{told}");
    assert_eq!(header(&told, "Cc"), None, "{told}");
    for who in ["rushton@", "kit@", "cryer@", "speaker@"] {
        assert!(!told.contains(who), "{who} in the lounge's mail:\n{told}");
    }
    assert!(
        body(&told).contains("MN23 is cancelled before its start"),
        "{told}"
    );
    reads_well(&told);
    // Kit, who joined and does not read the lounge, gets a mail of eir
    // own; Rushton, who does, only the lounge's; Cryer, who never
    // confirmed (an address that never answered its token may be forged,
    // issue 40, item 2), none.
    let own = l.wait_for("kit", "a private copy", |m| {
        header(m, "Subject") == Some("[MN23] Cancelled")
    });
    assert_eq!(header(&own, "To"), Some("kit@example.test"), "{own}");
    assert!(
        body(&own).contains("MN23, which you asked to join as Kit, is cancelled"),
        "{own}"
    );
    reads_well(&own);
    let lounge_copies = |who: &str| {
        l.mailbox(who)
            .into_iter()
            .filter(|m| header(m, "Subject") == Some("[MN23] Cancelled"))
            .count()
    };
    l.wait_for("rushton", "the lounge's copy", |m| {
        header(m, "Subject") == Some("[MN23] Cancelled")
    });
    let mut to: Vec<Vec<String>> = l.sent_answering(&cancel).into_iter().map(|m| m.0).collect();
    to.sort();
    assert_eq!(
        to,
        [
            vec!["kit@example.test".to_string()],
            vec!["lounge@example.test".to_string()],
            vec!["speaker@example.test".to_string()],
        ],
        "one mail each, the lounge's to the lounge alone, none to Cryer"
    );
    assert_eq!(
        lounge_copies("rushton"),
        1,
        "Rushton reads the lounge's only"
    );
    assert_eq!(lounge_copies("cryer"), 0, "Cryer never confirmed");

    // Every lobby notice says what it is in its Subject and is signed once.
    for m in l.mailbox("acton") {
        if header(&m, "Subject").is_some_and(|s| s.starts_with("[MN23]")) {
            reads_well(&m);
        }
    }
    for subject in [
        "[MN23] Players wanted",
        "[MN23] Rushton joins",
        "[MN23] Kit joins",
    ] {
        l.wait_for("acton", subject, |m| header(m, "Subject") == Some(subject));
    }

    // Cryer's token, after the cancellation: the game was cancelled.
    let id = l.mail_bot("cryer", "Re: join", &format!("CONFIRM {cryers}"));
    assert_eq!(l.processed(&id).1, "confirm: game cancelled");
    let r = l.reply("cryer", &id);
    assert!(
        body(&r).contains("MN23, which you asked to join as Cryer, was cancelled on"),
        "{r}"
    );
    reads_well(&r);
    assert!(l.daemon.terminate().success());
}
