//! A SIGKILL in the middle of one of the outbox's batches, against the real
//! mail stack: the sender records the attempts of every reply due at once
//! in one transaction, then sends them one after another; a kill after some
//! of a batch went out must lose none of the rest and send none twice.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::time::Duration;

use mornbot::cli::demo::{self, Body, Expect};
use support::{
    block_on, config, header, imap_all, imap_login, lounge, reply_to, wait_until, Daemon,
};

/// Copies `from` to `to`, holding each chunk for `delay`.
fn pipe(mut from: TcpStream, mut to: TcpStream, delay: Duration) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            std::thread::sleep(delay);
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}

/// A TCP relay to `target` on loopback that holds everything the server
/// says for `delay`: each SMTP delivery takes a few of them, so the outbox
/// falls behind the judging and sends its replies in batches. Returns the
/// relay's port.
fn slow_relay(target: u16, delay: Duration) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for c in listener.incoming() {
            let Ok(client) = c else { continue };
            let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
                continue;
            };
            pipe(
                client.try_clone().unwrap(),
                server.try_clone().unwrap(),
                Duration::ZERO,
            );
            pipe(server, client, delay);
        }
    });
    port
}

/// The batch in flight in the outbox, if any: its attempt time and how
/// many of its replies are still unsent.
fn in_flight(db: &Path) -> Option<(i64, i64)> {
    let c = rusqlite::Connection::open(db).ok()?;
    c.busy_timeout(Duration::from_secs(1)).ok()?;
    c.query_row(
        "SELECT attempt_started_at, count(*) FROM outbox
         WHERE sent_at IS NULL AND attempt_started_at IS NOT NULL
         GROUP BY attempt_started_at ORDER BY attempt_started_at DESC LIMIT 1",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .ok()
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
fn sigkill_in_the_middle_of_a_batch_loses_nothing_and_sends_nothing_twice() {
    let Some(stack) = lounge() else { return };
    let (imap, smtp) = (stack.port("IMAP_PORT"), stack.port("SMTP_PORT"));
    let data = stack.dir.join("bot-data");
    let cfg = config(&stack, &data, "\n[outbox]\nunconfirmed_wait_secs = 10\n");
    // Replies go out through a relay that makes each take ~0.5 s.
    let relay = slow_relay(smtp, Duration::from_millis(120));
    let text = std::fs::read_to_string(&cfg).unwrap();
    let at = format!("[smtp]\nhost = \"127.0.0.1\"\nport = {smtp}\n");
    assert!(text.contains(&at));
    let to = format!("[smtp]\nhost = \"127.0.0.1\"\nport = {relay}\n");
    std::fs::write(&cfg, text.replacen(&at, &to, 1)).unwrap();

    // Twelve legal turns of MN1 waiting in the bot's INBOX, in order (IMAP
    // APPEND keeps it; Postfix could shuffle them).
    let pid = std::process::id();
    let posts: Vec<(String, String, String)> = demo::script()
        .into_iter()
        .filter(|s| s.expect == Expect::Legal)
        .map(|s| match s.body {
            Body::Text(t) => (s.from, t),
            Body::GsdPlus { play, .. } => (s.from, play),
        })
        .take(12)
        .enumerate()
        .map(|(n, (from, play))| {
            let user = from.split('@').next().unwrap().to_string();
            let id = format!("kb-{n}-{pid}@example.test");
            let raw = format!(
                "From: {user}@example.test\r\nTo: bot@example.test\r\nSubject: [MN1] turn {n}\r\n\
                 Message-ID: <{id}>\r\n\r\n{play}\r\n"
            );
            (id, user, raw)
        })
        .collect();
    assert_eq!(posts.len(), 12);
    block_on(async {
        let mut s = imap_login(imap, "bot").await;
        for (_, _, raw) in &posts {
            s.append("INBOX", None, None, raw).await.unwrap();
        }
        let _ = s.logout().await;
    });

    // Kill once a batch of at least three is in flight and one of it has
    // gone out: its attempt time the same, fewer of it unsent than began.
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start(&cfg, &log);
    let db = data.join("mornbot.db");
    let mut batch = (0, 0);
    let cut = wait_until(Duration::from_secs(60), "a batch half sent", || {
        let (at, unsent) = in_flight(&db)?;
        if at != batch.0 {
            batch = (at, unsent);
        }
        batch.1 = batch.1.max(unsent);
        (batch.1 >= 3 && unsent < batch.1 && unsent >= 1).then_some((batch.1, unsent))
    });
    daemon.kill();
    let (began, unsent) = cut;
    assert!(unsent < began, "{cut:?}");

    // Restarted, the daemon sends the rest of the batch (after the echo
    // wait) and nothing twice.
    let mut daemon = Daemon::start(&cfg, &log);
    for (id, user, _) in &posts {
        let r = wait_until(Duration::from_secs(60), "every post's verdict", || {
            reply_to(imap, user, id)
        });
        assert_eq!(demo::verdict_of(&r), Expect::Legal, "{id}");
        // Its picture, owed by the judging, drawn by the sender before or
        // after the kill.
        assert!(r.contains("image/png"), "{id}: no picture:\n{r:.1500}");
    }
    // Past the unconfirmed wait, so a duplicate would have shown up.
    std::thread::sleep(Duration::from_secs(6));
    for u in ["rushton", "warren", "acton"] {
        let counts = reply_counts(imap, u);
        assert!(counts.len() >= posts.len(), "{u}: {counts:?}");
        for (id, n) in counts {
            assert_eq!(n, 1, "{u}: {id} delivered {n} times");
        }
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(log_text.contains("were being delivered when the daemon stopped"));
    assert!(daemon.terminate().success());
}
