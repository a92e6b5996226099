//! A few hostile mails through the real stack (issue 14): 1 MiB mails
//! posted through Postfix into Dovecot, read by the daemon over IMAP. Each
//! is refused or ignored with at most one small reply to its sender, none
//! changes the game, and the next legal turn is judged as ever. A mail over
//! `[bot] max_message_bytes`, of which only the header is fetched, is
//! answered too (it was skipped as if expunged, never answered, before).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::live::Live;

/// Rushton's legal first turn.
const FIRST: &str = "Rushton : Morden (NT) [Home: Tooting Broadway]";

#[test]
fn one_mib_hostile_mails_through_the_stack_change_nothing_and_the_next_turn_is_judged() {
    let Some(mut l) = Live::start("", &[]) else {
        return;
    };
    let mail = |n: usize, unit: &str| unit.repeat(n);
    let cases = [
        (
            "RULES x 140k",
            mail(140_000, "RULES\n"),
            "refused: commands_per_mail",
            1,
        ),
        (
            "[LV+1] x 120k",
            format!("Rushton : {}Euston (NT)", mail(120_000, "[LV+1] ")),
            "actions_per_play",
            1,
        ),
        (
            "60k play lines",
            mail(60_000, "Rushton : Pass\n"),
            "more than one play",
            1,
        ),
        (
            "nested multiparts",
            format!(
                "{}Content-Type: text/plain\n\nhello",
                mail(18_000, "--b\nContent-Type: multipart/mixed; boundary=b\n\n")
            ),
            "ignored",
            0,
        ),
        (
            "2 MiB of RULES",
            mail(300_000, "RULES\n"),
            "over mornbot's limit",
            1,
        ),
    ];
    let mut ids = Vec::new();
    for (name, body, _, _) in &cases {
        let head = if name.starts_with("nested") {
            "From: rushton@example.test\nTo: bot@example.test\nSubject: [MN1] turn\n\
             MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b"
        } else {
            "From: rushton@example.test\nTo: bot@example.test\nSubject: [MN1] turn"
        };
        // Under 1 MiB as sent (CRLF line ends), so the daemon reads it
        // whole; but the last, which only its header is fetched of.
        let crlf = body.len() + body.matches('\n').count();
        assert!(crlf > 800_000, "{name}: {crlf} bytes");
        ids.push(l.send("rushton", "bot@example.test", head, body));
    }
    let first = l.post("rushton", "[MN1] turn", FIRST);
    support::wait_until(
        std::time::Duration::from_secs(60),
        &format!("delivery to the bot\n{}", l.stack.log_tail()),
        || (l.mailbox("bot").len() >= cases.len()).then_some(()),
    );
    for ((name, _, summary, replies), id) in cases.iter().zip(&ids) {
        let (kind, got) = l.processed(id);
        assert!(got.contains(summary), "{name}: {kind} / {got}");
        let sent = l.sent_answering(id);
        assert_eq!(sent.len(), *replies, "{name}: {sent:#?}");
        for (to, text) in &sent {
            assert_eq!(to, &vec!["rushton@example.test".to_string()], "{name}");
            assert!(text.len() < 8192, "{name}: a {}-byte reply", text.len());
        }
    }
    // The legal turn after them all is judged, and is turn 1.
    let (_, verdict) = l.processed(&first);
    assert_eq!(verdict, "legal", "log:\n{}", l.log());
    let notice = l.wait_for("warren", "the notice of turn 1", |m| m.contains("Turn 1"));
    assert!(notice.contains("Rushton"), "{notice}");
}

/// A list member cannot play another player's turns by calling emself by
/// the player's name (issue 40, finding 1). With authentication on (the
/// MTA's trusted Authentication-Results), a post the list re-sent under
/// its own From (DMARC) is a player's only when the list's original-sender
/// header names the player's address: "Tim Rushton via lounge" whose
/// X-Original-From is a stranger's plays nothing, and only the stranger
/// hears of it; the same post with Rushton's address is Rushton's turn.
#[test]
fn a_display_name_through_a_list_that_rewrites_from_plays_no_one_s_turn() {
    let Some(mut l) = Live::start_bot("trusted_authserv_id = \"mx.example.test\"\n", "", &[])
    else {
        return;
    };
    // As a list that rewrites From delivers it: the list's own signature
    // passed, the author named by X-Original-From (and a Reply-To the
    // forger chose).
    let via = |author: &str| {
        format!(
            "Authentication-Results: mx.example.test; dkim=pass header.d=example.test; \
             dmarc=pass header.from=example.test\n\
             From: \"Tim Rushton via lounge\" <lounge@example.test>\n\
             X-Original-From: {author}\nReply-To: rushton@example.test\n\
             List-Id: <lounge.example.test>\nTo: lounge@example.test\nSubject: [MN1] turn"
        )
    };
    let forged = l.send(
        "lounge",
        "bot@example.test",
        &via("mallory@example.net"),
        FIRST,
    );
    let (_, summary) = l.processed(&forged);
    assert_ne!(summary, "legal", "log:\n{}", l.log());
    for (to, _) in l.sent_answering(&forged) {
        assert_eq!(to, vec!["mallory@example.net".to_string()], "{summary}");
    }
    let real = l.send(
        "lounge",
        "bot@example.test",
        &via("rushton@example.test"),
        FIRST,
    );
    let (_, verdict) = l.processed(&real);
    assert_eq!(verdict, "legal", "log:\n{}", l.log());
}
