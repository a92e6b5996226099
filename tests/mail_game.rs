//! A game of 30+ turns by mail against the real stack (Dovecot, Postfix,
//! mlmmj on loopback; issue 13's "done when"): an out-of-turn post, an
//! Outlook reply over an unmarked quote, a post a list re-sent under its
//! own From for DMARC, a Judgment by the Speaker, a take-back, two turns
//! that reach the bot only inside mlmmj's MIME digest of the lounge, and a
//! quiet stretch under IMAP IDLE (keepalives every second) in which a
//! reminder and a Timeout fire on time.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::Duration;

use mail_parser::{MessageParser, MimeHeaders};
use support::{
    config, header, imap_all, imap_folder_raw, lounge_with, reply_to, smtp_send, wait_until, Daemon,
};

/// Game seconds per real second: 36 weekday hours pass in 43 s (101 s
/// over a weekend), longer than any step of the game takes even on a
/// loaded machine (the digest's round trip through mlmmj is the longest).
const SPEED: f64 = 3000.0;

/// Real time for `hours` of game time at [`SPEED`], with 30 s to spare.
fn real(hours: u64) -> Duration {
    Duration::from_secs_f64(hours as f64 * 3600.0 / SPEED + 30.0)
}

struct Game {
    smtp: u16,
    imap: u16,
    n: usize,
    log: std::path::PathBuf,
}

impl Game {
    fn id(&self) -> String {
        format!("g{}@example.test", self.n)
    }

    /// Sends `raw` (headers without Message-ID, a blank line, a body) from
    /// `from` to `rcpt`; returns its Message-ID.
    fn send(&mut self, from: &str, rcpt: &str, head: &str, body: &str) -> String {
        self.n += 1;
        let id = self.id();
        let raw = format!("{head}\nMessage-ID: <{id}>\n\n{body}\n");
        smtp_send(self.smtp, &format!("{from}@example.test"), &[rcpt], &raw);
        id
    }

    /// A plain post of `body` by `who` to the lounge.
    fn post(&mut self, who: &str, body: &str) -> String {
        let head =
            format!("From: {who}@example.test\nTo: lounge@example.test\nSubject: [MN1] my turn");
        self.send(who, "lounge@example.test", &head, body)
    }

    /// The reply to `id` in `user`'s mailbox.
    /// On a timeout the daemon's log says why (a turn timed out meanwhile?).
    fn reply(&self, user: &str, id: &str) -> String {
        let until = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(r) = reply_to(self.imap, user, id) {
                return r;
            }
            if std::time::Instant::now() > until {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(40).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                panic!("timed out after 30s waiting for a reply to {id} in {user}'s mailbox; the daemon's log ends:\n{}", tail.join("\n"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Posts a play and waits for its verdict in the lounge.
    fn play(&mut self, who: &str, play: &str, turn: usize) -> String {
        let id = self.post(who, play);
        let r = self.reply("rushton", &id);
        let name = play.split(" : ").next().unwrap();
        assert!(
            r.contains(&format!("Turn {turn}: {name} (legal)")),
            "turn {turn} ({play}):\n{r}\nlog:\n{}",
            std::fs::read_to_string(&self.log).unwrap_or_default()
        );
        r
    }
}

/// A mail with its line breaks as spaces (prose is wrapped at 72).
fn flat(m: &str) -> String {
    m.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The body of a mail (after its header).
fn body(raw: &str) -> &str {
    raw.split_once("\n\n").map_or("", |(_, b)| b)
}

/// The bot takes the lounge as mlmmj's digest for a while: Warren's turn
/// 11 and Acton's turn 12 come to it only as two `message/rfc822` parts of
/// one `multipart/digest` from `lounge+help@` (RULINGS L6). Each is judged
/// on its own, in order, its verdict answering the post itself; the digest
/// is never answered.
fn digest_turns(stack: &support::Stack, g: &mut Game) {
    stack.digest_mode("bot@example.test", true);
    let since = stack.list_index();
    let warren = g.post("warren", "Warren : Pass");
    // Acton posts once Warren's post is on the list (mlmmj numbers posts
    // as they arrive, and a digest keeps that order).
    stack.wait_archived(since, &[&warren]);
    let acton = g.post("acton", "Acton : Pass");
    stack.send_digest(since, &[&warren, &acton]);
    let digest = wait_until(
        Duration::from_secs(30),
        "the digest in the bot's mailbox",
        || {
            // Searched by the server: the bot's mailbox holds every verdict
            // (with its picture) that came back through the list.
            let search = "HEADER Content-Type \"multipart/digest\"";
            support::imap_search_raw(g.imap, "bot", "INBOX", Some(search))
                .into_iter()
                .find(|m| header(m, "Content-Type").is_some_and(|c| c.contains("multipart/digest")))
        },
    );
    stack.digest_mode("bot@example.test", false);
    assert_eq!(header(&digest, "From"), Some("lounge+help@example.test"));
    for id in [&warren, &acton] {
        assert!(digest.contains(&format!("Message-ID: <{id}>")), "{digest}");
        // The bot had no copy of the post but the digest's.
        let copies = imap_all(g.imap, "bot")
            .into_iter()
            .filter(|m| header(m, "Message-ID") == Some(&format!("<{id}>")))
            .count();
        assert_eq!(copies, 0, "{id} reached the bot outside the digest");
    }
    let r = g.reply("rushton", &warren);
    assert!(r.contains("Turn 11: Warren (legal)"), "{r}");
    let r = g.reply("rushton", &acton);
    assert!(r.contains("Turn 12: Acton (legal)"), "{r}");
    let digest_id = header(&digest, "Message-ID")
        .unwrap()
        .trim_matches(['<', '>']);
    assert!(
        reply_to(g.imap, "rushton", digest_id).is_none(),
        "the digest was answered"
    );
    assert!(
        reply_to(g.imap, "bot", digest_id).is_none(),
        "the digest was answered"
    );
}

#[test]
fn a_thirty_turn_game_by_mail_with_the_mail_people_send() {
    let Some(stack) = lounge_with(&[("MAILSTACK_IDLE_NOTIFY", "1s")]) else {
        return;
    };
    stack.adduser("speaker", "speaker-pw");
    stack.subscribe("speaker@example.test");
    let cfg = config(
        &stack,
        &stack.dir.join("bot-data"),
        "\n[speaker]\naddresses = [\"speaker@example.test\"]\n",
    );
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("wait = \"poll\"\npoll_ms = 20", "wait = \"idle\"");
    std::fs::write(&cfg, text).unwrap();
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start_with(&cfg, &log, &[("MORNBOT_CLOCK_SPEED", &SPEED.to_string())]);
    let mut g = Game {
        smtp: stack.port("SMTP_PORT"),
        imap: stack.port("IMAP_PORT"),
        n: 0,
        log: log.clone(),
    };
    g.play("rushton", "Rushton : Epping (CN) [Home: Hainault]", 1);
    g.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]", 2);
    let last = g.play("acton", "Acton : Upminster (DS) [Home: Hornchurch]", 3);

    // Out of turn: refused to Acton alone, nothing held, play goes on.
    let id = g.post("acton", "Acton : Pass");
    let r = g.reply("acton", &id);
    assert!(r.contains("Rule 1.3.2"), "{r}");
    assert_eq!(header(&r, "To"), Some("acton@example.test"));
    g.play("rushton", "Rushton : Pass", 4);
    assert!(reply_to(g.imap, "rushton", &id).is_none(), "private");

    // Warren replies from Outlook: the play on top, the last verdict (with
    // its GSD) quoted below a From/Sent/To/Subject block without ">".
    let quoted = body(&last).to_string();
    let head = "From: Warren <warren@example.test>\nTo: lounge@example.test\n\
                Subject: RE: [MN1] Turn 3: Acton (legal)\nContent-Type: text/plain; charset=us-ascii";
    let outlook = format!(
        "Warren : Pass\n\nRegards,\nWarren\n\n________________________________\n\
         From: mornbot <bot@example.test>\nSent: Monday, November 16, 2026 9:03 AM\n\
         To: lounge@example.test\nSubject: [MN1] Turn 3: Acton (legal)\n\n{quoted}"
    );
    let id = g.send("warren", "lounge@example.test", head, &outlook);
    let r = g.reply("rushton", &id);
    assert!(r.contains("Turn 5: Warren (legal)"), "{r}");

    // A list that rewrites From for DMARC (Mailman 3, Google Groups): the
    // post reaches the bot as the list's, the author in X-Original-From.
    let head = "From: \"Acton via lounge\" <lounge@example.test>\n\
                X-Original-From: Acton <acton@example.test>\nReply-To: lounge@example.test\n\
                To: lounge@example.test\nSubject: [lounge] [MN1] my turn";
    let id = g.send("acton", "bot@example.test", head, "Acton : Pass");
    let r = g.reply("rushton", &id);
    assert!(r.contains("Turn 6: Acton (legal)"), "{r}");

    // An illegal turn is buzzed; the Speaker judges it Legal, and it is
    // applied (as far as the engine models it).
    let id = g.post("rushton", "Rushton : Bank (CN)");
    let buzz = g.reply("warren", &id);
    assert!(buzz.contains("is illegal"), "{buzz}");
    let head = format!(
        "From: speaker@example.test\nTo: lounge@example.test\nSubject: Re: [MN1] BUZZ\n\
         In-Reply-To: {}",
        header(&buzz, "Message-ID").unwrap()
    );
    g.send("speaker", "lounge@example.test", &head, "Judgment: Legal");
    let r = wait_until(Duration::from_secs(30), "the Speaker's Judgment", || {
        imap_all(g.imap, "warren")
            .into_iter()
            .find(|m| m.contains("Legal by Judgment"))
    });
    assert!(flat(&r).contains("It is Warren's turn"), "{r}");

    // Turns 8 to 10, then Rushton takes turn 10 back and plays it again.
    g.play("warren", "Warren : Pass", 8);
    g.play("acton", "Acton : Pass", 9);
    g.play("rushton", "Rushton : Pass", 10);
    let id = g.post("rushton", "Take back my turn");
    g.reply("rushton", &id);
    // Turn 10 is Rushton's again: the take-back removed it.
    g.play("rushton", "Rushton : Pass", 10);

    // Turns 11 and 12 reach the bot only in the lounge's digest.
    digest_turns(&stack, &mut g);

    // Passes to turn 31.
    let order = ["warren", "acton", "rushton"];
    for turn in 13..=31 {
        let who = order[(turn - 11) % 3];
        let name = format!("{}{}", who[..1].to_uppercase(), &who[1..]);
        g.play(who, &format!("{name} : Pass"), turn);
    }

    // A quiet lounge: Warren (turn 32) is reminded and then timed out, on
    // time, with Dovecot's keepalive every second under IDLE. The mails'
    // Dates are on the game's clock; the reminder names the deadline.
    // Prose is wrapped at 72 columns: compare with line breaks as spaces.
    let find = |user: &str, what: &str| {
        imap_all(g.imap, user)
            .into_iter()
            .find(|m| flat(m).contains(what))
    };
    // 36 hours after turn 31, and a weekend at most between.
    let reminder = wait_until(real(36 + 48), "Warren's reminder", || {
        find("warren", "your turn 32 in MN1 is due")
    });
    let t = wait_until(real(12 + 48), "Warren's Timeout", || {
        find("rushton", "Warren : Timeout")
    });
    let date = |m: &str| {
        chrono::DateTime::parse_from_rfc2822(header(m, "Date").unwrap())
            .unwrap()
            .with_timezone(&chrono::Utc)
    };
    let reminder_text = flat(&reminder);
    let due_text = reminder_text
        .split("due by ")
        .nth(1)
        .and_then(|r| r.split(" GMT").next())
        .unwrap_or_else(|| panic!("{reminder_text}"));
    let due = chrono::NaiveDateTime::parse_from_str(due_text, "%a %d %b %Y %H:%M")
        .unwrap_or_else(|e| panic!("{due_text}: {e}"))
        .and_utc();
    // One real second is 50 game minutes: on time means within two game
    // hours after the deadline (and the reminder within two hours of its
    // time, 12 counted hours before).
    let late = date(&t) - due;
    assert!(
        late >= chrono::Duration::zero() && late <= chrono::Duration::hours(2),
        "deadline {due}, Timeout at {}",
        date(&t)
    );
    // Counted hours (Rule 1.3.5): a weekend between them does not count.
    let early = mornbot::speaker::deadline::counted_between(date(&reminder), due);
    assert!(
        early >= chrono::Duration::hours(10) && early <= chrono::Duration::hours(12),
        "deadline {due}, reminder at {}",
        date(&reminder)
    );
    assert!(flat(&t).contains("Next to play: Acton"), "{t}");
    every_verdict_has_its_picture(g.imap);
    assert!(daemon.terminate().success());
}

/// Every verdict on a turn that reached the lounge (legal, buzzed, timed
/// out) carries the picture of the game after it (issue 18): a PNG
/// attachment after the text, through mlmmj, Postfix and Dovecot, that
/// decodes 1,600 px wide.
fn every_verdict_has_its_picture(imap: u16) {
    let mut seen = Vec::new();
    for raw in imap_folder_raw(imap, "rushton", "INBOX") {
        let headline = mornbot::cli::demo::headline_of(&raw);
        let verdict = headline.starts_with("Buzz:")
            || (headline.starts_with("Turn ")
                && (headline.ends_with("(legal)") || headline.ends_with("timed out")));
        if !verdict || !header(&raw, "From").is_some_and(|f| f.contains("bot@example.test")) {
            continue;
        }
        let m = MessageParser::default().parse(raw.as_bytes()).unwrap();
        let a = m
            .attachments()
            .next()
            .unwrap_or_else(|| panic!("no picture in {headline:?}:\n{raw:.2000}"));
        assert_eq!(a.content_type().map(|c| c.ctype()), Some("image"));
        assert!(
            a.attachment_name()
                .is_some_and(|n| n.starts_with("MN1-after-turn-")),
            "{headline}: {:?}",
            a.attachment_name()
        );
        let reader = png::Decoder::new(a.contents()).read_info().expect("a PNG");
        assert_eq!(reader.info().width, 1600, "{headline}");
        seen.push(headline);
    }
    // 31 turns in, one buzzed, one taken back and played again, a Timeout.
    assert!(seen.len() >= 32, "{} verdicts: {seen:#?}", seen.len());
    assert!(seen.iter().any(|h| h.starts_with("Buzz:")), "{seen:#?}");
    assert!(seen.iter().any(|h| h.ends_with("timed out")), "{seen:#?}");
}
