//! End to end against real servers: Dovecot (IMAP), Postfix (SMTP) and an
//! mlmmj list, started by scripts/mailstack on loopback. Three scripted
//! players post to the lounge list over SMTP; the daemon (the real binary)
//! reads the lounge over IMAP and replies over SMTP; replies are read back
//! over IMAP from the players' mailboxes.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::Duration;

use mornbot::cli::demo::{self, Body, Expect};
use support::{
    config, header, imap_all, lounge, lounge_with, reply_to, smtp_send, to_test_domain, wait_until,
    Daemon,
};

fn html_only(raw: &str, play: &str) -> String {
    let head = raw.split("\n\n").next().unwrap();
    let head: String = head
        .lines()
        .filter(|l| !l.starts_with("Content-Type"))
        .map(|l| format!("{l}\n"))
        .collect();
    format!(
        "{head}MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n\
         <html><body><p>My turn:</p><p>{}</p></body></html>\n",
        play.replace('&', "&amp;")
    )
}

#[test]
fn a_scripted_game_by_mail_against_real_servers() {
    let Some(stack) = lounge() else { return };
    let data = stack.dir.join("bot-data");
    let cfg = config(&stack, &data, "");
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start(&cfg, &log);
    let imap = stack.port("IMAP_PORT");
    let smtp = stack.port("SMTP_PORT");
    let mut gsds: Vec<String> = Vec::new();
    let mut last_verdict: Option<String> = None;
    let mut accepted = 0;
    let steps = demo::script();
    for (i, step) in steps.iter().enumerate() {
        let (id, raw) = demo::mail(i, step, &gsds, chrono::Utc::now());
        let id = to_test_domain(&id);
        let mut raw = to_test_domain(&String::from_utf8(raw).unwrap().replace("\r\n", "\n"));
        let from = to_test_domain(step.from);
        let user = from.split('@').next().unwrap().to_string();
        let play = match &step.body {
            Body::Text(t) => t.lines().last().unwrap_or("").to_string(),
            Body::GsdPlus { play, .. } => play.to_string(),
        };
        // Vary the mail forms: an HTML-only turn, and a quoted reply to
        // the last verdict with the play below the quote.
        if play == "Warren : Balham (NT)" {
            raw = html_only(&raw, &play);
        }
        if play == "Rushton : Leytonstone (CN)" {
            let prev = last_verdict.clone().expect("a verdict before");
            let prev_id = header(&prev, "Message-ID").unwrap().to_string();
            let quoted: String = prev
                .split("\n\n")
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n\n")
                .lines()
                .map(|l| format!("> {l}\n"))
                .collect();
            raw = raw.replacen(
                "Subject: [MN1] my turn\n",
                &format!("Subject: Re: [lounge] [MN1] Turn\nIn-Reply-To: {prev_id}\nReferences: {prev_id}\n"),
                1,
            );
            raw = raw.replacen(
                &format!("\n\n{play}\n"),
                &format!("\n\nOn Monday, mornbot wrote:\n{quoted}\n{play}\n\n-- \nRushton\nRushton : Pass\n"),
                1,
            );
        }
        let rcpt = header(&raw, "To").unwrap().to_string();
        smtp_send(smtp, &from, &[&rcpt], &raw);
        let got = if step.expect == Expect::Ignored {
            // Judged once the bot has seen it: then no reply may come.
            wait_until(
                Duration::from_secs(30),
                "the bot to see the message",
                || {
                    let seen = stack.maildir_seen("bot", &id);
                    seen.then_some(())
                },
            );
            std::thread::sleep(Duration::from_millis(300));
            match reply_to(imap, &user, &id) {
                None => Expect::Ignored,
                Some(r) => demo::verdict_of(&r),
            }
        } else {
            let reply = wait_until(
                Duration::from_secs(30),
                &format!("a reply to step {} ({play})", i + 1),
                || reply_to(imap, &user, &id),
            );
            let v = demo::verdict_of(&reply);
            if v == Expect::Legal {
                // Lounge posts come through the list, with our headers,
                // on the game's thread.
                assert!(header(&reply, "List-Id").is_some(), "{reply}");
                assert!(
                    header(&reply, "Subject")
                        .is_some_and(|s| s.starts_with("[MN1] Turn ") && s.ends_with("(legal)")),
                    "{reply}"
                );
                assert!(
                    header(&reply, "References")
                        .is_some_and(|r| r.starts_with("<mn1.game@example.test>")),
                    "{reply}"
                );
                assert_eq!(header(&reply, "Auto-Submitted"), Some("auto-replied"));
                assert_eq!(header(&reply, "X-Loop"), Some("bot@example.test"));
                gsds.push(demo::gsd_in(&reply.replace('\n', "\r\n")));
                accepted += 1;
                last_verdict = Some(reply);
            }
            v
        };
        assert_eq!(
            got,
            step.expect,
            "step {} ({play}); log:\n{}",
            i + 1,
            std::fs::read_to_string(&log).unwrap_or_default()
        );
    }
    assert!(accepted >= 30, "{accepted} turns");
    // The bot's own posts came back to it through the list and were not
    // answered: every message the bot sent answers a player's message, but
    // the dice commitment it posted once at its first start (RULINGS S14).
    let (commitments, bot_posts): (Vec<String>, Vec<String>) = imap_all(imap, "rushton")
        .into_iter()
        .filter(|m| header(m, "From").is_some_and(|f| f.contains("bot@example.test")))
        .partition(|m| m.contains("Dice: the commitment"));
    assert_eq!(commitments.len(), 1, "{commitments:#?}");
    for m in &bot_posts {
        let irt = header(m, "In-Reply-To").unwrap_or("");
        assert!(irt.contains("demo-"), "a reply to something else: {m}");
    }
    assert!(daemon.terminate().success(), "SIGTERM exits 0");
    // A clean stop, its IMAP adapter's connection closed too: the next
    // start may skip the database's check.
    assert!(
        data.join("mornbot.db.clean").exists(),
        "no clean-stop record after SIGTERM"
    );
}

#[test]
fn check_config_tries_both_logins() {
    let Some(stack) = lounge() else { return };
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let run = |cfg: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .args(["check-config", cfg.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = run(&cfg);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("imap 127.0.0.1: login and select INBOX ok"),
        "{text}"
    );
    assert!(
        text.contains("smtp 127.0.0.1: connect and login ok"),
        "{text}"
    );
    // A wrong password fails both, exit 1.
    std::fs::write(stack.dir.join("bot.pass"), "wrong\n").unwrap();
    let out = run(&cfg);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("imap 127.0.0.1: FAILED"), "{text}");
    assert!(text.contains("smtp 127.0.0.1: FAILED"), "{text}");
    // Plain text to a remote host is refused before any connection.
    let bad = stack.dir.join("bad.toml");
    std::fs::write(
        &bad,
        std::fs::read_to_string(&cfg)
            .unwrap()
            .replacen(
                "host = \"127.0.0.1\"\nport",
                "host = \"imap.example.org\"\nport",
                1,
            )
            .replacen("security = \"starttls\"", "security = \"plain\"", 1),
    )
    .unwrap();
    let out = run(&bad);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("loopback"));
}

/// Rule 1.3.5 by mail, on a clock 10,000 times fast: Warren is reminded
/// privately, then timed out in the lounge; Acton's clock starts at the
/// deadline and Acton plays on.
#[test]
fn a_timeout_by_mail_on_an_accelerated_clock() {
    let Some(stack) = lounge() else { return };
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let log = stack.dir.join("mornbot.log");
    let imap = stack.port("IMAP_PORT");
    let smtp = stack.port("SMTP_PORT");
    let mut daemon = Daemon::start_with(&cfg, &log, &[("MORNBOT_CLOCK_SPEED", "10000")]);
    let send = |i: usize, from: &str, play: &str| {
        let raw = format!(
            "From: {from}@example.test\nTo: lounge@example.test\nSubject: [MN1] turn\n\
             Message-ID: <clock-{i}@example.test>\n\n{play}\n"
        );
        smtp_send(
            smtp,
            &format!("{from}@example.test"),
            &["lounge@example.test"],
            &raw,
        );
    };
    send(1, "rushton", "Rushton : Epping (CN) [Home: Hainault]");
    wait_until(Duration::from_secs(30), "turn 1's verdict", || {
        reply_to(imap, "rushton", "clock-1@example.test")
    });
    let find = |user: &str, headline: &str| {
        imap_all(imap, user)
            .into_iter()
            .find(|m| demo::headline_of(m).contains(headline))
    };
    // At most 54.5 game hours (a Sunday start) = 20 s.
    let reminder = wait_until(Duration::from_secs(60), "Warren's reminder", || {
        find("warren", "Reminder: your turn 2 is due")
    });
    assert_eq!(header(&reminder, "Auto-Submitted"), Some("auto-generated"));
    assert!(
        find("rushton", "Reminder").is_none(),
        "reminders are private"
    );
    let timeout = wait_until(Duration::from_secs(60), "Warren's Timeout", || {
        find("rushton", "Turn 2: Warren timed out")
    });
    assert!(timeout.contains("Warren : Timeout"), "{timeout}");
    assert!(timeout.contains("Next to play: Acton"), "{timeout}");
    send(3, "acton", "Acton : Upminster (DS) [Home: Hornchurch]");
    let r = wait_until(Duration::from_secs(30), "Acton's verdict", || {
        reply_to(imap, "acton", "clock-3@example.test")
    });
    assert!(r.contains("Turn 3: Acton (legal)"), "{r}");
    // Exactly one Timeout was posted for turn 2.
    let n = imap_all(imap, "rushton")
        .iter()
        .filter(|m| demo::headline_of(m).contains("Turn 2: Warren timed out"))
        .count();
    assert_eq!(n, 1);
    assert!(daemon.terminate().success());
}

/// A quiet lounge under IMAP IDLE (issue 13, item 1): Dovecot sends
/// `* OK Still here` every second, no mail comes, and Warren's reminder
/// and Timeout still fire on time. Before the Speaker had a timer of its
/// own, each keepalive restarted the wait and nothing fired until mail
/// arrived.
#[test]
fn a_quiet_lounge_under_idle_with_keepalives_still_times_out() {
    let Some(stack) = lounge_with(&[("MAILSTACK_IDLE_NOTIFY", "1s")]) else {
        return;
    };
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let text = std::fs::read_to_string(&cfg).unwrap().replace(
        "wait = \"poll\"\npoll_ms = 20",
        "wait = \"idle\"\nidle_secs = 1500",
    );
    assert!(text.contains("wait = \"idle\""));
    std::fs::write(&cfg, text).unwrap();
    let log = stack.dir.join("mornbot.log");
    let imap = stack.port("IMAP_PORT");
    let smtp = stack.port("SMTP_PORT");
    let mut daemon = Daemon::start_with(&cfg, &log, &[("MORNBOT_CLOCK_SPEED", "10000")]);
    let raw = "From: rushton@example.test\nTo: lounge@example.test\nSubject: [MN1] turn\n\
               Message-ID: <quiet-1@example.test>\n\nRushton : Epping (CN) [Home: Hainault]\n";
    smtp_send(smtp, "rushton@example.test", &["lounge@example.test"], raw);
    wait_until(Duration::from_secs(30), "turn 1's verdict", || {
        reply_to(imap, "rushton", "quiet-1@example.test")
    });
    let started = std::time::Instant::now();
    let find = |user: &str, headline: &str| {
        imap_all(imap, user)
            .into_iter()
            .find(|m| demo::headline_of(m).contains(headline))
    };
    // Nothing more is posted: at most 54.5 game hours (a weekend start)
    // pass in 20 s; the lounge stays silent but for the keepalives.
    wait_until(Duration::from_secs(60), "Warren's reminder", || {
        find("warren", "Reminder: your turn 2 is due")
    });
    wait_until(Duration::from_secs(60), "Warren's Timeout", || {
        find("rushton", "Turn 2: Warren timed out")
    });
    assert!(started.elapsed() < Duration::from_secs(40));
    let dovecot = std::fs::read_to_string(stack.dir.join("dovecot.conf")).unwrap();
    assert!(
        dovecot.contains("imap_idle_notify_interval = 1s"),
        "{dovecot}"
    );
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!log_text.contains("wait = \"poll\""));
    assert!(daemon.terminate().success());
}

/// The buzz workflow by mail: a Buzz conceded (rollback), a Buzz taken to
/// Judgment that ends Illegal (rollback), and a take-back with a
/// replacement turn.
#[test]
fn buzzes_judgment_and_take_back_by_mail() {
    let Some(stack) = lounge() else { return };
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let log = stack.dir.join("mornbot.log");
    let imap = stack.port("IMAP_PORT");
    let smtp = stack.port("SMTP_PORT");
    let mut daemon = Daemon::start(&cfg, &log);
    let mut n = 0;
    let mut post = |from: &str, to: &str, body: &str| -> String {
        n += 1;
        let id = format!("bz-{n}@example.test");
        let raw = format!(
            "From: {from}@example.test\nTo: {to}\nSubject: [MN1] {n}\nMessage-ID: <{id}>\n\n{body}\n"
        );
        smtp_send(smtp, &format!("{from}@example.test"), &[to], &raw);
        id
    };
    let lounge_addr = "lounge@example.test";
    let status = |post: &mut dyn FnMut(&str, &str, &str) -> String| {
        let id = post("warren", "bot@example.test", "STATUS MN1");
        wait_until(Duration::from_secs(30), "STATUS", || {
            reply_to(imap, "warren", &id)
        })
    };
    for (who, p) in [
        ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
        ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
        ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
    ] {
        let id = post(who, lounge_addr, p);
        let r = wait_until(Duration::from_secs(30), p, || reply_to(imap, who, &id));
        assert!(r.contains("(legal)"), "{r}");
    }
    // 1. Acton buzzes turn 4; Rushton concedes: turn 4 never happened.
    let id = post(
        "acton",
        lounge_addr,
        "Buzz: Rushton's turn 4: I doubt that LV",
    );
    let r = wait_until(Duration::from_secs(30), "the Buzz announced", || {
        imap_all(imap, "rushton")
            .into_iter()
            .find(|m| demo::headline_of(m).contains("Turn 4 is Questionable"))
    });
    assert!(r.contains("Rushton has until"), "{r}");
    let _ = id;
    post("rushton", lounge_addr, "Concede");
    let r = wait_until(Duration::from_secs(30), "the rollback", || {
        imap_all(imap, "acton")
            .into_iter()
            .find(|m| demo::headline_of(m).contains("Turn 4 is Illegal"))
    });
    assert!(r.contains("It is Rushton's turn"), "{r}");
    assert!(status(&mut post).contains("MN1: turn 3 played"));
    // 2. Rushton plays again; Warren buzzes; contested both ways; the
    // drawn Referee (Acton, the only candidate) judges Illegal.
    let id = post("rushton", lounge_addr, "Rushton : [LV+1] Theydon Bois (CN)");
    wait_until(Duration::from_secs(30), "turn 4 again", || {
        reply_to(imap, "rushton", &id)
    });
    post(
        "warren",
        lounge_addr,
        "Buzz: Rushton's turn 4: still doubtful",
    );
    wait_until(Duration::from_secs(30), "the second Buzz", || {
        imap_all(imap, "warren")
            .into_iter()
            .filter(|m| demo::headline_of(m).contains("Turn 4 is Questionable"))
            .nth(1)
    });
    let id = post(
        "rushton",
        lounge_addr,
        "Contest: LV 1 reaches Theydon Bois from Epping.",
    );
    // The list may deliver two posts out of order: let the defence land
    // before the buzzer answers it.
    wait_until(Duration::from_secs(30), "the defence to be judged", || {
        stack.maildir_seen("bot", &id).then_some(())
    });
    post("warren", lounge_addr, "Contest: I still say no.");
    let referee = wait_until(
        Duration::from_secs(30),
        "the Referee's private mail",
        || {
            imap_all(imap, "acton")
                .into_iter()
                .find(|m| demo::headline_of(m).contains("You are Referee of turn 4"))
        },
    );
    assert!(header(&referee, "To").is_some_and(|t| t.contains("acton@example.test")));
    post("acton", lounge_addr, "Judgment: Illegal");
    wait_until(Duration::from_secs(30), "the Judgment's rollback", || {
        imap_all(imap, "warren")
            .into_iter()
            .filter(|m| demo::headline_of(m).contains("Turn 4 is Illegal"))
            .nth(1)
    });
    assert!(status(&mut post).contains("MN1: turn 3 played"));
    // 3. Rushton plays, then takes it back with a replacement.
    let id = post("rushton", lounge_addr, "Rushton : [LV+1] Theydon Bois (CN)");
    wait_until(Duration::from_secs(30), "turn 4, third time", || {
        reply_to(imap, "rushton", &id)
    });
    post("rushton", lounge_addr, "Take back\n\nRushton : Pass");
    wait_until(Duration::from_secs(30), "the replacement", || {
        imap_all(imap, "warren").into_iter().find(|m| {
            m.contains("Rushton : Pass")
                && demo::headline_of(m) == "Turn 4: Rushton took it back and plays again (legal)"
        })
    });
    let s = status(&mut post);
    assert!(
        s.contains("MN1: turn 4 played") && s.contains("Next to play in MN1: Warren"),
        "{s}"
    );
    assert!(daemon.terminate().success());
}
