//! Nothing dropped without a word (issue 13, item 7), against the real
//! stack: commands posted to the lounge (through mlmmj, which adds a
//! footer) are answered privately to their sender alone; several commands
//! in one mail get one reply answering them all; a registered player's
//! mail the bot does not understand gets a short reply saying so; and a
//! digest sent to the bot is read part by part, each part answered as if
//! it had come alone (RULINGS L4, L5, L6). What arrives is read from the
//! players' Dovecot mailboxes; the bot's store says what it sent at all.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::header;
use support::live::Live;

/// The answers to HELP, STATUS and GSD MN1 (at game start).
const HELP: &str = "Commands go one to a line";
const STATUS: &str = "MN1: no turn has been played yet";
const GSD: &str = "Game MN1\n+---";

/// Asserts that the bot sent exactly one mail answering `id`, to `who`
/// alone, that it arrived in `who`'s mailbox, and that no other mailbox
/// (the other players', the bot's own copy of the lounge) nor the lounge's
/// archive holds an answer to `id`; returns the mail as it arrived.
fn answered_privately(l: &Live, id: &str, who: &str) -> String {
    let sent = l.sent_answering(id);
    assert_eq!(sent.len(), 1, "one answer to {id}: {sent:#?}");
    assert_eq!(sent[0].0, vec![format!("{who}@example.test")], "{sent:#?}");
    let got = l.reply(who, id);
    assert_eq!(
        header(&got, "To"),
        Some(format!("{who}@example.test").as_str())
    );
    for other in ["bot", "rushton", "warren", "acton"] {
        if other != who {
            assert!(
                l.answers(other, id).is_empty(),
                "{other} got an answer to {id}"
            );
        }
    }
    let public = l
        .stack
        .archived_after(0)
        .into_iter()
        .filter(|m| header(m, "In-Reply-To").is_some_and(|v| v.contains(id)))
        .count();
    assert_eq!(public, 0, "an answer to {id} went to the lounge");
    assert_eq!(l.answers(who, id).len(), 1, "{who} got one answer");
    got
}

/// The body of a mail, and its one signature's position in it.
fn body_and_signature(mail: &str) -> (&str, usize) {
    let body = mail.split_once("\n\n").map_or("", |(_, b)| b);
    assert_eq!(body.matches("\n-- \n").count(), 1, "one signature: {body}");
    (body, body.find("\n-- \n").unwrap())
}

#[test]
fn help_posted_to_the_lounge_is_answered_to_its_sender_alone() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    let id = l.post("warren", "help", "HELP");
    assert_eq!(l.processed(&id).1, "1 commands");
    let r = answered_privately(&l, &id, "warren");
    assert!(r.contains(HELP), "{r}");
    // The lounge's copies (with the list's footer) reached every player:
    // the post was public, its answer is not.
    for who in ["rushton", "acton"] {
        let copy = l.wait_for(who, "the lounge's copy of HELP", |m| {
            header(m, "Message-ID") == Some(&format!("<{id}>"))
        });
        assert!(copy.contains("lounge mailing list"), "{copy}");
    }
    assert!(l.daemon.terminate().success());
}

#[test]
fn several_commands_in_one_mail_get_one_reply_answering_all() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    // To the bot: three commands and a question.
    let id = l.mail_bot(
        "rushton",
        "a few questions",
        "STATUS\nGSD MN1\nHELP\nwhat are the scores?\n\nThanks,\nTim",
    );
    assert_eq!(l.processed(&id).1, "4 commands");
    let r = answered_privately(&l, &id, "rushton");
    let (body, signature) = body_and_signature(&r);
    for answer in [
        STATUS,
        GSD,
        HELP,
        "Not understood:\n  - what are the scores?",
    ] {
        let at = body
            .find(answer)
            .unwrap_or_else(|| panic!("{answer:?} missing: {body}"));
        assert!(at < signature, "{answer:?} after the signature: {body}");
    }
    assert!(
        !body.contains("Thanks"),
        "the sign-off is no command: {body}"
    );
    // The same commands posted to the lounge: one private reply.
    let id = l.post("acton", "[MN1] commands", "STATUS\nGSD MN1\nHELP");
    assert_eq!(l.processed(&id).1, "3 commands");
    let r = answered_privately(&l, &id, "acton");
    let (body, signature) = body_and_signature(&r);
    for answer in [STATUS, GSD, HELP] {
        let at = body
            .find(answer)
            .unwrap_or_else(|| panic!("{answer:?}: {body}"));
        assert!(at < signature, "{answer:?} after the signature: {body}");
    }
    assert!(l.daemon.terminate().success());
}

#[test]
fn a_players_mail_not_understood_gets_a_short_reply_saying_so() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    // To the bot: always answered.
    let id = l.mail_bot("acton", "hello", "Hi bot, what can you do?");
    assert_eq!(l.processed(&id).1, "not understood");
    let r = answered_privately(&l, &id, "acton");
    assert!(
        r.contains("mornbot could not tell what your message asks of it"),
        "{r}"
    );
    assert!(r.contains("\n    Hi bot, what can you do?\n"), "{r}");
    assert!(r.contains("Nothing has changed in any game"), "{r}");
    assert!(r.contains("Send HELP to bot@example.test"), "{r}");
    assert!(!r.contains(HELP), "short, not the HELP text: {r}");
    let (body, _) = body_and_signature(&r);
    assert!(body.lines().count() <= 15, "short: {body}");
    // In the lounge: a Play under a name that is no player's.
    let id = l.post(
        "acton",
        "[MN1] my turn",
        "Evening all.\n\nActn : Upminster (DS) [Home: Hornchurch]\n\nAlan",
    );
    assert_eq!(l.processed(&id).1, "not understood");
    let r = answered_privately(&l, &id, "acton");
    assert!(
        r.contains("\n    Actn : Upminster (DS) [Home: Hornchurch]\n"),
        "{r}"
    );
    assert!(
        r.contains("Actn is not a player of MN1\n(Rushton, Warren, Acton)"),
        "{r}"
    );
    // Chatter in the lounge stays unanswered, but is recorded as read.
    let id = l.post(
        "warren",
        "[MN1] luck",
        "Good luck everyone! Euston is mine.",
    );
    assert_eq!(l.processed(&id).1, "ignored");
    assert!(l.sent_answering(&id).is_empty());
    assert!(l.daemon.terminate().success());
}

#[test]
fn a_digest_of_the_lounge_is_read_part_by_part() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    l.stack.digest_mode("bot@example.test", true);
    let since = l.stack.list_index();
    let turn = l.post(
        "rushton",
        "[MN1] my turn",
        "Rushton : Epping (CN) [Home: Hainault]",
    );
    let help = l.post("warren", "help", "HELP");
    let typo = l.post(
        "acton",
        "[MN1] ahead",
        "Actn : Upminster (DS) [Home: Hornchurch]",
    );
    let chat = l.post("warren", "[MN1] luck", "Good luck everyone!");
    l.stack.send_digest(since, &[&turn, &help, &typo, &chat]);
    let digest = l.wait_for("bot", "the lounge's digest", |m| {
        header(m, "Content-Type").is_some_and(|c| c.contains("multipart/digest"))
    });
    // Each post judged as if it had come alone, and recorded.
    let v = l.reply("rushton", &turn);
    assert!(v.contains("Turn 1: Rushton (legal)"), "{v}");
    assert_eq!(header(&v, "To"), Some("lounge@example.test"));
    let r = answered_privately(&l, &help, "warren");
    assert!(r.contains(HELP), "{r}");
    let r = answered_privately(&l, &typo, "acton");
    assert!(r.contains("Actn is not a player of MN1"), "{r}");
    assert_eq!(l.processed(&chat).1, "ignored");
    assert!(l.sent_answering(&chat).is_empty());
    // The digest itself is recorded and never answered.
    let digest_id = header(&digest, "Message-ID")
        .unwrap()
        .trim_matches(['<', '>']);
    assert_eq!(l.processed(&turn).1, "legal");
    assert_eq!(l.processed(&help).1, "1 commands");
    assert_eq!(l.processed(&typo).1, "not understood");
    assert!(
        l.sent_answering(digest_id).is_empty(),
        "the digest was answered"
    );
    assert!(l.daemon.terminate().success());
}

/// A digest a player forwards (as an attachment) is read for the players'
/// posts in it: each is judged, the stranger's is not read (RULINGS L6),
/// and the forwarder's covering note is not answered for not being a turn.
#[test]
fn a_digest_a_player_forwards_is_read_for_the_players_posts() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    let post = |from: &str, id: &str, body: &str| {
        format!(
            "From: {from}\nTo: lounge@example.test\nSubject: [MN1] my turn\n\
             Message-ID: <{id}>\nDate: Mon, 16 Nov 2026 10:00:00 +0000\n\n{body}\n"
        )
    };
    let digest = format!(
        "From: lounge+help@example.test\nTo: warren@example.test\n\
         Subject: Digest of lounge@example.test issue 3 (7-9)\nMIME-Version: 1.0\n\
         Content-Type: multipart/digest; boundary=\"dg\"\n\n--dg\n\
         Content-Type: text/plain; charset=UTF-8\n\nTopics (messages 7 through 9):\n\
         \n--dg\nContent-Type: message/rfc822\n\n{}\n--dg\nContent-Type: message/rfc822\n\n{}\
         \n--dg\nContent-Type: message/rfc822\n\n{}\n--dg--\n",
        post(
            "rushton@example.test",
            "r1@player.example.test",
            "Rushton : Epping (CN) [Home: Hainault]"
        ),
        post("stranger@example.net", "s1@example.net", "HELP"),
        post("acton@example.test", "a1@player.example.test", "STATUS"),
    );
    let head = "From: warren@example.test\nTo: bot@example.test\nSubject: Fwd: Digest\n\
                MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"fwd\"";
    let body = format!(
        "--fwd\nContent-Type: text/plain\n\nmornbot missed these, I think.\n--fwd\n\
         Content-Type: message/rfc822\nContent-Disposition: attachment\n\n{digest}\n--fwd--"
    );
    let id = l.send("warren", "bot@example.test", head, &body);
    let v = l.reply("rushton", "r1@player.example.test");
    assert!(v.contains("Turn 1: Rushton (legal)"), "{v}");
    let r = answered_privately(&l, "a1@player.example.test", "acton");
    assert!(r.contains("MN1: turn 1 played"), "{r}");
    assert_eq!(l.processed("r1@player.example.test").1, "legal");
    assert_eq!(l.processed("a1@player.example.test").1, "1 commands");
    // Only the players' posts were read.
    assert!(
        l.log()
            .contains("a digest of 2 post(s), each judged on its own; 1 not a player's, not read"),
        "{}",
        l.log()
    );
    // The stranger is never answered; the covering note neither.
    assert!(l
        .sent()
        .iter()
        .all(|(to, _)| !to.iter().any(|a| a.contains("stranger"))));
    assert!(
        l.sent_answering(&id).is_empty(),
        "the covering note was answered"
    );
    assert!(l.daemon.terminate().success());
}
