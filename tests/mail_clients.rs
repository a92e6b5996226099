//! Mail as the big clients write it, through the real stack (issue 13,
//! item 11): `fixtures/mail/clients/*.eml` (Thunderbird format=flowed,
//! Gmail multipart/alternative with a marked quote, Outlook HTML with a
//! German header block over an unmarked quote, Apple Mail
//! quoted-printable, mutt bottom-posted, a Google Groups post rewritten for
//! DMARC) posted in turn through an mlmmj list that adds a subject prefix
//! and a footer; each must be judged the turn it carries.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::Duration;

use support::{config, header, lounge, reply_to, smtp_send, wait_until, Daemon};

fn html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The body of a mail, `> `-quoted.
fn marked(body: &str) -> String {
    body.lines()
        .map(|l| {
            if l.is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_big_clients_through_a_list_with_prefix_and_footer() {
    let Some(stack) = lounge() else { return };
    let control = stack.dir.join("lists/lounge/control");
    std::fs::write(control.join("prefix"), "[lounge]\n").unwrap();
    std::fs::write(
        control.join("footer"),
        "-- \nlounge mailing list\nTo unsubscribe: lounge+unsubscribe@example.test\n",
    )
    .unwrap();
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start(&cfg, &log);
    let imap = stack.port("IMAP_PORT");
    let smtp = stack.port("SMTP_PORT");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/clients");
    let turns = [
        (
            "01-thunderbird-flowed",
            "rushton",
            "Rushton : Epping (CN) [Home: Hainault]",
        ),
        (
            "02-gmail-alternative",
            "warren",
            "Warren : Morden (NT) [Home: Tooting Broadway]",
        ),
        (
            "03-outlook-html-german",
            "acton",
            "Acton : Upminster (DS) [Home: Hornchurch]",
        ),
        ("04-apple-mail-qp", "rushton", "Rushton : Pass"),
        ("05-mutt-bottom-posted", "warren", "Warren : Pass"),
        ("06-google-groups-dmarc", "acton", "Acton : Pass"),
    ];
    let mut last = String::new();
    for (n, (file, who, play)) in turns.iter().enumerate() {
        let id = format!("client-{n}@example.test");
        let template = std::fs::read_to_string(dir.join(format!("{file}.eml"))).unwrap();
        let raw = template
            .replace("{id}", &id)
            .replace("{play}", play)
            .replace("{play_html}", &html(play))
            .replace("{quote_marked}", &marked(&last))
            .replace("{quote_html}", &html(&last));
        // The rewritten post comes from the list itself: straight to the
        // bot's mailbox, as a list that rewrites From would deliver it.
        let rcpt = if file.contains("dmarc") {
            "bot@example.test"
        } else {
            "lounge@example.test"
        };
        smtp_send(smtp, &format!("{who}@example.test"), &[rcpt], &raw);
        let reply = wait_until(
            Duration::from_secs(30),
            &format!("the verdict on {file}"),
            || reply_to(imap, "rushton", &id),
        );
        let name = play.split(" : ").next().unwrap();
        assert!(
            reply.contains(&format!("Turn {}: {name} (legal)", n + 1)),
            "{file}:\n{reply}\nlog:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        // mlmmj 1.3 appends its footer to the raw mail: after the verdict's
        // picture, outside the parts a client shows.
        let raw = support::imap_folder_raw(imap, "rushton", "INBOX")
            .into_iter()
            .find(|m| header(m, "In-Reply-To").is_some_and(|v| v.contains(&id)))
            .unwrap();
        assert!(
            raw.contains("lounge mailing list"),
            "the footer: {raw:.3000}"
        );
        last = reply
            .split_once("\n\n")
            .map_or(String::new(), |(_, b)| b.to_string());
    }
    assert!(daemon.terminate().success());
}
