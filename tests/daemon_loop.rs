//! The daemon loop with a fake inbox: the Speaker's timer is its own, so a
//! lounge that only ever sends keepalives still gets its reminders and
//! Timeouts on time (issue 13, item 1). Tokio's clock is paused and the
//! game clock derived from it, so hours pass in milliseconds, exactly.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::clock::Clock;
use mornbot::daemon::letter::Context;
use mornbot::daemon::referee::Referee;
use mornbot::mail::inbox::{ChannelInbox, Done, Event, Incoming, Key, Raw};
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

fn game() -> GameConfig {
    GameConfig {
        tag: "MN1".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Warren", "Acton"]
            .iter()
            .map(|n| PlayerConfig {
                name: n.to_string(),
                address: format!("{}@example.org", n.to_lowercase()),
            })
            .collect(),
        referee: None,
        rulings: Default::default(),
        picture: false,
        kind: Default::default(),
        deadline: None,
        kind_rulings: Default::default(),
    }
}

/// November 2026: Monday the 16th.
fn day(d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap()
}

/// The `Date:` of each queued mail with its headline (the first line of
/// its body: the Subject is the game's one Subject).
fn queued(store: &Store) -> Vec<(DateTime<Utc>, String)> {
    store
        .all_mail()
        .unwrap()
        .iter()
        .map(|m| {
            let text = String::from_utf8_lossy(&m.raw).into_owned();
            let header = |name: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(name))
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            };
            let date = DateTime::parse_from_rfc2822(&header("Date:"))
                .unwrap()
                .with_timezone(&Utc);
            let headline = text
                .split_once("\r\n\r\n")
                .and_then(|(_, body)| body.lines().next())
                .unwrap_or_default()
                .to_string();
            (date, headline)
        })
        .collect()
}

/// The game `MN1` loaded from Monday 09:00, and a context whose clock
/// runs one game minute per tokio second from then.
fn lounge() -> (Store, Referee, Context) {
    let mut store = Store::in_memory().unwrap();
    let base = day(16, 9);
    let referee = Referee::load(
        Map::london_1999(),
        me(),
        SpeakerConfig::default(),
        &[game()],
        &mut store,
        base,
    )
    .unwrap();
    let mut cfg = Config::default();
    cfg.bot.address = "mornbot@example.test".into();
    cfg.bot.lounge = "lounge@example.test".into();
    let mut ctx = Context::new(Map::london_1999(), &me(), &cfg);
    ctx.clock = Clock::Tokio {
        base,
        origin: tokio::time::Instant::now(),
        speed: 60.0,
    };
    (store, referee, ctx)
}

struct Run {
    store: Store,
    wakes: usize,
}

/// Runs the loop from Monday 09:00 for `hours` game hours, one game minute
/// per tokio second, while the inbox sends a keepalive every `every` and
/// the given mails at their times.
async fn run(hours: i64, every: Duration, mails: Vec<(DateTime<Utc>, &'static str)>) -> Run {
    let (mut store, mut referee, ctx) = lounge();
    let clock = ctx.clock;
    let speed = 60.0;
    let (mut inbox, mut feed) = ChannelInbox::pair(8);
    let source = tokio::spawn(async move {
        let mut wakes = 0usize;
        let mut mails = mails.into_iter().peekable();
        let mut seq = 0;
        loop {
            tokio::time::sleep(every).await;
            while let Some((at, text)) = mails.next_if(|(at, _)| *at <= clock.now()) {
                seq += 1;
                let m = Incoming {
                    raw: Raw::Full(text.as_bytes().to_vec()),
                    origin: Origin {
                        source: "fake".into(),
                        uidvalidity: None,
                        uid: None,
                    },
                    received: at,
                    key: Key::Seq(seq),
                    behind: 0,
                };
                if feed.tx.send(Ok(Event::Mail(Box::new(m)))).await.is_err() {
                    return wakes;
                }
                assert_eq!(feed.acks.recv().await, Some((Key::Seq(seq), Done::Judged)));
            }
            if feed.tx.send(Ok(Event::Idle)).await.is_err() {
                return wakes;
            }
            wakes += 1;
        }
    });
    let real = Duration::from_secs_f64(hours as f64 * 3600.0 / speed);
    let mut shutdown = Box::pin(tokio::time::sleep(real));
    let wake = tokio::sync::Notify::new();
    mornbot::daemon::serve(
        &mut inbox,
        &mut referee,
        &mut store,
        &ctx,
        &wake,
        &mut shutdown,
    )
    .await
    .unwrap();
    drop(inbox);
    let wakes = source.await.unwrap();
    Run { store, wakes }
}

#[tokio::test(start_paused = true)]
async fn a_deadline_fires_on_time_in_a_lounge_that_only_sends_keepalives() {
    // Rushton's turn 1 is due Tuesday 21:00 (36 hours), reminded at 09:00.
    let r = run(48, Duration::from_secs(1), vec![]).await;
    assert!(
        r.wakes > 2000,
        "the fake server kept the inbox busy: {}",
        r.wakes
    );
    let q = queued(&r.store);
    // The reminder, its line to the lounge (RULINGS S30), the Timeout.
    assert_eq!(q.len(), 3, "{q:?}");
    let (reminded, headline) = &q[0];
    assert!(headline.starts_with("Reminder: your turn 1"), "{headline}");
    assert!(
        (*reminded - day(17, 9)).num_seconds().abs() <= 60,
        "reminder at {reminded}, due Tuesday 09:00"
    );
    assert_eq!(
        q[1],
        (*reminded, "Reminder: Rushton's turn 1 is due".into())
    );
    let (timed_out, headline) = &q[2];
    assert_eq!(headline, "Turn 1: Rushton timed out");
    assert!(
        *timed_out >= day(17, 21) && (*timed_out - day(17, 21)).num_seconds() <= 60,
        "Timeout at {timed_out}, deadline Tuesday 21:00"
    );
}

#[tokio::test(start_paused = true)]
async fn a_deadline_fires_on_time_with_no_wake_from_the_inbox_at_all() {
    // A source that never wakes (an IDLE with no keepalives at all).
    let r = run(40, Duration::from_secs(100_000), vec![]).await;
    assert_eq!(r.wakes, 0);
    let q = queued(&r.store);
    assert_eq!(q.len(), 3, "{q:?}");
    assert!((q[2].0 - day(17, 21)).num_seconds() <= 60, "{q:?}");
}

#[tokio::test(start_paused = true)]
async fn a_turn_in_time_moves_the_next_deadline_and_it_still_fires() {
    let play = "From: rushton@example.org\r\nTo: lounge@example.test\r\n\
Subject: [MN1] my turn\r\nMessage-ID: <t1@example.org>\r\n\
Date: Mon, 16 Nov 2026 10:00:00 +0000\r\n\r\nRushton : Pass\r\n";
    let r = run(72, Duration::from_secs(30), vec![(day(16, 10), play)]).await;
    let q = queued(&r.store);
    // The verdict, then Warren's reminder and Timeout: due 36 hours after
    // Rushton's turn (Wednesday 22:00), not Rushton's old deadline.
    assert!(q.len() >= 3, "{q:?}");
    let timeout = q
        .iter()
        .find(|(_, s)| s.contains("Warren timed out"))
        .unwrap_or_else(|| panic!("{q:?}"));
    let due = day(16, 10) + chrono::Duration::hours(36);
    assert!(
        timeout.0 >= due && (timeout.0 - due).num_seconds() <= 60,
        "{timeout:?}"
    );
    assert!(
        !q.iter().any(|(_, s)| s.contains("Rushton timed out")),
        "{q:?}"
    );
}

/// A fetch whose UIDs are not the order its posts were delivered in
/// (Dovecot numbered Warren's turn before Rushton's): the daemon judges the
/// fetch in turn order, so both are played (RULINGS L12); a post that is
/// out of turn whatever the order is still refused, once.
#[tokio::test(start_paused = true)]
async fn a_fetch_numbered_out_of_delivery_order_is_judged_in_turn() {
    let turn = |id: &str, from: &str, play: &str| {
        format!(
            "From: {from}@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] my turn\r\n\
             Message-ID: <{id}@example.org>\r\nDate: Mon, 16 Nov 2026 10:00:00 +0000\r\n\r\n{play}\r\n"
        )
    };
    let fetch = [
        (
            7,
            turn(
                "w1",
                "warren",
                "Warren : Morden (NT) [Home: Tooting Broadway]",
            ),
        ),
        (
            8,
            turn("a1", "acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        ),
        (
            9,
            turn("r1", "rushton", "Rushton : Epping (CN) [Home: Hainault]"),
        ),
    ];
    let (mut store, mut referee, ctx) = lounge();
    let (mut inbox, mut feed) = ChannelInbox::pair(8);
    let source = tokio::spawn(async move {
        let n = fetch.len();
        for (k, (uid, raw)) in fetch.into_iter().enumerate() {
            let m = Incoming {
                raw: Raw::Full(raw.into_bytes()),
                origin: Origin {
                    source: "INBOX".into(),
                    uidvalidity: Some(1),
                    uid: Some(uid),
                },
                received: day(16, 10),
                key: Key::Uid(uid),
                behind: n - k - 1,
            };
            feed.tx.send(Ok(Event::Mail(Box::new(m)))).await.unwrap();
        }
        let mut acked = Vec::new();
        for _ in 0..n {
            acked.push(feed.acks.recv().await.unwrap());
        }
        // A source stays until the daemon stops.
        feed.tx.closed().await;
        acked
    });
    let mut shutdown = Box::pin(tokio::time::sleep(Duration::from_secs(5)));
    let wake = tokio::sync::Notify::new();
    mornbot::daemon::serve(
        &mut inbox,
        &mut referee,
        &mut store,
        &ctx,
        &wake,
        &mut shutdown,
    )
    .await
    .unwrap();
    drop(inbox);
    let acked = source.await.unwrap();
    // Rushton's (UID 9) first, then Warren's and Acton's.
    assert_eq!(
        acked.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
        [Key::Uid(9), Key::Uid(7), Key::Uid(8)]
    );
    let q = queued(&store);
    let headlines: Vec<&str> = q.iter().map(|(_, h)| h.as_str()).collect();
    assert_eq!(headlines.len(), 3, "{headlines:?}");
    assert!(
        headlines.iter().all(|h| h.contains("(legal)")),
        "{headlines:?}"
    );
    // Rushton's, judged ahead of lower UIDs, did not move the high-water
    // mark past them (a crash would have skipped them): the mark is the
    // last in UID order's, and the source's to move once the fetch is done.
    assert_eq!(store.mailbox("INBOX").unwrap(), Some((1, 8)));
}

/// A post out of turn with none received with it: refused at once.
#[tokio::test(start_paused = true)]
async fn a_lone_post_out_of_turn_is_refused() {
    let r = run(
        1,
        Duration::from_secs(1),
        vec![(
            day(16, 9) + chrono::Duration::minutes(10),
            "From: warren@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] my turn\r\n\
Message-ID: <w0@example.org>\r\nDate: Mon, 16 Nov 2026 09:10:00 +0000\r\n\r\n\
Warren : Morden (NT) [Home: Tooting Broadway]\r\n",
        )],
    )
    .await;
    let q = queued(&r.store);
    assert_eq!(q.len(), 1, "{q:?}");
    assert!(q[0].1.starts_with("Rule 1.3.2"), "{q:?}");
}
