//! Fault tests against the real mail stack: an IMAP server restart while
//! the daemon IDLEs, an SMTP outage of a minute, and SIGKILLs of the daemon
//! in the middle of its work. Mocks only where a fault must be injected (a
//! TCP relay in front of Postfix that can be cut).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mornbot::cli::demo::{self, Expect};
use support::{
    config, header, imap_all, lounge, reply_to, smtp_send, to_test_domain, wait_until, Daemon,
};

/// Sends demo step `i` as a player would, returning its Message-ID and the
/// sender's user name.
fn send_step(stack: &support::Stack, i: usize, gsds: &[String]) -> (String, String) {
    let step = &demo::script()[i];
    let (id, raw) = demo::mail(i, step, gsds, chrono::Utc::now());
    let raw = to_test_domain(&String::from_utf8(raw).unwrap().replace("\r\n", "\n"));
    let from = to_test_domain(step.from);
    let rcpt = header(&raw, "To").unwrap().to_string();
    smtp_send(stack.port("SMTP_PORT"), &from, &[&rcpt], &raw);
    (
        to_test_domain(&id),
        from.split('@').next().unwrap().to_string(),
    )
}

/// How many copies of each bot reply a mailbox holds, by Message-ID.
fn reply_counts(imap: u16, user: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for msg in imap_all(imap, user) {
        if header(&msg, "From").is_some_and(|f| f.contains("bot@example.test")) {
            *m.entry(header(&msg, "Message-ID").unwrap_or("").to_string())
                .or_insert(0) += 1;
        }
    }
    m
}

#[test]
fn imap_server_restarted_mid_idle() {
    let Some(stack) = lounge() else { return };
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, text.replace("wait = \"poll\"", "wait = \"idle\"")).unwrap();
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start(&cfg, &log);
    let imap = stack.port("IMAP_PORT");
    let (id, user) = send_step(&stack, 0, &[]);
    wait_until(Duration::from_secs(30), "turn 1's verdict", || {
        reply_to(imap, &user, &id)
    });
    // Let the daemon settle into IDLE, then restart both servers under it.
    std::thread::sleep(Duration::from_millis(700));
    stack.restart();
    let (id, user) = send_step(&stack, 1, &[]);
    let r = wait_until(
        Duration::from_secs(60),
        "turn 2's verdict after the restart",
        || reply_to(imap, &user, &id),
    );
    assert_eq!(demo::verdict_of(&r), Expect::Legal, "{r}");
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(log_text.contains("reconnecting"), "{log_text}");
    assert!(daemon.terminate().success());
}

/// A relay in front of Postfix's SMTP port that can be cut: while down it
/// closes every connection at once, as a dead server would.
struct Relay {
    port: u16,
    up: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn start(target: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (up2, open2) = (up.clone(), open.clone());
        std::thread::spawn(move || {
            for c in listener.incoming() {
                let Ok(client) = c else { continue };
                if !up2.load(Ordering::SeqCst) {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
                    continue;
                };
                open2.lock().unwrap().push(client.try_clone().unwrap());
                open2.lock().unwrap().push(server.try_clone().unwrap());
                for (mut a, mut b) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 16384];
                        while let Ok(n) = a.read(&mut buf) {
                            if n == 0 || b.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = b.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay { port, up, open }
    }

    fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
        if !up {
            for s in self.open.lock().unwrap().drain(..) {
                let _ = s.shutdown(Shutdown::Both);
            }
        }
    }
}

#[test]
fn smtp_down_for_a_minute_replies_queue_then_go_out_once() {
    let Some(stack) = lounge() else { return };
    let relay = Relay::start(stack.port("SMTP_PORT"));
    let cfg = config(
        &stack,
        &stack.dir.join("bot-data"),
        "\n[outbox]\nretry_max_secs = 4\n",
    );
    let text = std::fs::read_to_string(&cfg).unwrap();
    let smtp_line = format!(
        "port = {}\nsecurity = \"starttls\"\nuser = \"bot\"",
        stack.port("SMTP_PORT")
    );
    assert!(text.contains(&smtp_line));
    std::fs::write(
        &cfg,
        text.replacen(
            &smtp_line,
            &format!(
                "port = {}\nsecurity = \"starttls\"\nuser = \"bot\"",
                relay.port
            ),
            1,
        ),
    )
    .unwrap();
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start(&cfg, &log);
    let imap = stack.port("IMAP_PORT");
    let (id, user) = send_step(&stack, 0, &[]);
    wait_until(Duration::from_secs(30), "turn 1's verdict", || {
        reply_to(imap, &user, &id)
    });
    relay.set_up(false);
    let outage = std::time::Instant::now();
    let mut ids = Vec::new();
    for i in 1..=2 {
        let (id, user) = send_step(&stack, i, &[]);
        // Judged (seen) while the server is down, but no reply can leave.
        wait_until(Duration::from_secs(30), "the bot to judge it", || {
            stack.maildir_seen("bot", &id).then_some(())
        });
        ids.push((id, user));
    }
    std::thread::sleep(Duration::from_millis(500));
    for (id, user) in &ids {
        assert!(
            reply_to(imap, user, id).is_none(),
            "a reply left during the outage"
        );
    }
    while outage.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(200));
    }
    relay.set_up(true);
    for (id, user) in &ids {
        let r = wait_until(Duration::from_secs(30), "the queued verdict", || {
            reply_to(imap, user, id)
        });
        assert_eq!(demo::verdict_of(&r), Expect::Legal);
    }
    std::thread::sleep(Duration::from_secs(1));
    for (id, n) in reply_counts(imap, "rushton") {
        assert_eq!(n, 1, "{id} delivered {n} times");
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(log_text.contains("delivery failed"), "{log_text}");
    assert!(daemon.terminate().success());
}

#[test]
fn sigkill_at_any_point_loses_nothing_and_sends_nothing_twice() {
    let Some(stack) = lounge() else { return };
    let cfg = config(
        &stack,
        &stack.dir.join("bot-data"),
        // The echo of a reply sent just before a kill comes back through the
        // list within this wait even on a loaded machine (3 s was not enough
        // at load average 8: a reply went out twice).
        "\n[outbox]\nunconfirmed_wait_secs = 10\n",
    );
    let log = stack.dir.join("mornbot.log");
    let imap = stack.port("IMAP_PORT");
    // The first 12 steps of the demo (legal, chatter, a parse error, an
    // illegal turn...), with the daemon SIGKILLed after each send at a
    // different moment of its work, then restarted.
    let steps = 12;
    let mut daemon = Daemon::start(&cfg, &log);
    let mut sent = Vec::new();
    for i in 0..steps {
        let (id, user) = send_step(&stack, i, &[]);
        // Players post one after another: wait until the list has
        // delivered this post to the bot, so the next cannot overtake it
        // (Postfix delivers concurrently); then kill at a varying moment.
        wait_until(Duration::from_secs(30), "delivery to the bot", || {
            stack
                .maildir("bot")
                .iter()
                .any(|m| m.contains(&format!("<{id}>")))
                .then_some(())
        });
        sent.push((id, user));
        std::thread::sleep(Duration::from_millis((i as u64 * 37) % 160));
        daemon.kill();
        daemon = Daemon::start(&cfg, &log);
    }
    // Every message gets exactly the reply an uninterrupted run gives.
    let script = demo::script();
    for (i, (id, user)) in sent.iter().enumerate() {
        if script[i].expect == Expect::Ignored {
            wait_until(Duration::from_secs(60), "the bot to see it", || {
                stack.maildir_seen("bot", id).then_some(())
            });
            continue;
        }
        let r = wait_until(
            Duration::from_secs(60),
            &format!("step {}'s reply", i + 1),
            || reply_to(imap, user, id),
        );
        assert_eq!(
            demo::verdict_of(&r),
            script[i].expect,
            "step {}: the reply was\n{r}\n--- the daemon's log:\n{}\n--- the bot's uidlist:\n{}",
            i + 1,
            std::fs::read_to_string(&log).unwrap_or_default(),
            std::fs::read_to_string(stack.dir.join("mail/bot/Maildir/dovecot-uidlist"))
                .unwrap_or_default()
        );
    }
    // Give a duplicate time to show up, then count.
    std::thread::sleep(Duration::from_secs(5));
    for u in ["rushton", "warren", "acton"] {
        for (id, n) in reply_counts(imap, u) {
            assert_eq!(n, 1, "{u}: {id} delivered {n} times");
        }
    }
    for (i, (id, user)) in sent.iter().enumerate() {
        if script[i].expect == Expect::Ignored {
            assert!(reply_to(imap, user, id).is_none());
        }
    }
    // The game state is the uninterrupted one: the STATUS answer names the
    // same turn count and next player as the script implies.
    let legal = script[..steps]
        .iter()
        .filter(|s| s.expect == Expect::Legal)
        .count();
    smtp_send(
        stack.port("SMTP_PORT"),
        "rushton@example.test",
        &["bot@example.test"],
        "From: rushton@example.test\nTo: bot@example.test\nSubject: status\nMessage-ID: <status-1@example.test>\n\nSTATUS MN1\n",
    );
    let r = wait_until(Duration::from_secs(30), "the STATUS answer", || {
        reply_to(imap, "rushton", "status-1@example.test")
    });
    assert!(r.contains(&format!("MN1: turn {legal} played")), "{r}");
    assert!(daemon.terminate().success());
}

#[test]
fn a_uidvalidity_change_resyncs_by_message_id_without_judging_twice() {
    let Some(stack) = lounge() else { return };
    let cfg = config(&stack, &stack.dir.join("bot-data"), "");
    let log = stack.dir.join("mornbot.log");
    let imap = stack.port("IMAP_PORT");
    let mut daemon = Daemon::start(&cfg, &log);
    for i in 0..3 {
        let (id, user) = send_step(&stack, i, &[]);
        wait_until(Duration::from_secs(30), "a verdict", || {
            reply_to(imap, &user, &id)
        });
    }
    // Our own posts come back through the list too: let them be seen.
    std::thread::sleep(Duration::from_millis(800));
    assert!(daemon.terminate().success());
    // Rebuild the bot's folder: Dovecot gives it a new UIDVALIDITY and
    // renumbers every message.
    stack.stop();
    let md = stack.dir.join("mail/bot/Maildir");
    for e in std::fs::read_dir(&md).unwrap().filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("dovecot") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    std::thread::sleep(Duration::from_millis(1100));
    stack.restart();
    let mut daemon = Daemon::start(&cfg, &log);
    let (id, user) = send_step(&stack, 4, &[]);
    let r = wait_until(Duration::from_secs(30), "turn 4's verdict", || {
        reply_to(imap, &user, &id)
    });
    assert_eq!(demo::verdict_of(&r), Expect::Legal, "{r}");
    std::thread::sleep(Duration::from_secs(1));
    for (id, n) in reply_counts(imap, "rushton") {
        assert_eq!(n, 1, "{id} delivered {n} times after the resync");
    }
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("UIDVALIDITY changed"), "{text}");
    assert!(daemon.terminate().success());
}
