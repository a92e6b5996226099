//! No poison message (issue 14, finding 1): a mail whose judging fails or
//! panics is set aside (recorded with its bytes, and as processed), the
//! daemon goes on with the next mail, and `mornbot status` shows it.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::Command;

use chrono::{TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::Context;
use mornbot::daemon::quarantine::guarded;
use mornbot::daemon::referee::Referee;
use mornbot::daemon::{judge, DaemonError};
use mornbot::mail::inbox::{Incoming, Key, Raw};
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

fn setup(store: &mut Store) -> (Referee, Context) {
    let game = GameConfig {
        tag: "MN1".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Warren"]
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
    };
    let t0 = Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap();
    let referee = Referee::load(
        Map::london_1999(),
        me(),
        SpeakerConfig::default(),
        &[game],
        store,
        t0,
    )
    .unwrap();
    let mut cfg = Config::default();
    cfg.bot.address = "mornbot@example.test".into();
    cfg.bot.lounge = "lounge@example.test".into();
    (referee, Context::new(Map::london_1999(), &me(), &cfg))
}

fn mail(id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] play\r\n\
         Message-ID: <{id}@example.org>\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

fn origin(uid: u32) -> Origin {
    Origin {
        source: "INBOX".into(),
        uidvalidity: Some(7),
        uid: Some(uid),
    }
}

#[test]
fn a_mail_whose_judging_panics_or_fails_is_set_aside_and_the_next_is_judged() {
    let mut store = Store::in_memory().unwrap();
    let (mut referee, ctx) = setup(&mut store);
    let now = Utc.with_ymd_and_hms(2026, 11, 16, 10, 0, 0).unwrap();
    let poison = mail("poison", "RULES\r\n".repeat(3).as_str());
    let h = guarded(
        &mut referee,
        &mut store,
        &poison,
        &origin(1),
        now,
        |_, _| panic!("a bug met by this mail"),
    )
    .unwrap();
    assert_eq!(h.kind, "quarantined");
    assert_eq!(h.message_id, "<poison@example.org>");
    assert!(
        h.summary.contains("a bug met by this mail"),
        "{}",
        h.summary
    );
    let failing = mail("failing", "STATUS");
    let h = guarded(
        &mut referee,
        &mut store,
        &failing,
        &origin(2),
        now,
        |_, _| Err(DaemonError::Inbox("the store said no".into())),
    )
    .unwrap();
    assert!(h.summary.contains("the store said no"), "{}", h.summary);
    // Both are recorded with their bytes, and as processed: a restart (or
    // the IMAP source re-reading its UIDs) never judges them again.
    let q = store.quarantined().unwrap();
    assert_eq!(q.len(), 2);
    assert_eq!(q[0].raw, poison);
    assert_eq!((q[0].origin.uid, q[1].origin.uid), (Some(1), Some(2)));
    assert!(store.is_processed("<poison@example.org>").unwrap());
    assert!(store.is_processed_uid("INBOX", 7, 2).unwrap());
    assert_eq!(store.mailbox("INBOX").unwrap(), Some((7, 2)));
    // The next mail is judged as usual.
    let next = Incoming {
        raw: Raw::Full(mail(
            "turn1",
            "Rushton : Morden (NT) [Home: Tooting Broadway]",
        )),
        origin: origin(3),
        received: now,
        key: Key::Uid(3),
        behind: 0,
    };
    let h = judge(&mut referee, &mut store, &ctx, &next, false).unwrap();
    assert_eq!((h.kind.as_str(), h.summary.as_str()), ("turn", "legal"));
    assert_eq!(store.turns("MN1").unwrap().len(), 1);
}

#[test]
fn mornbot_status_lists_quarantined_mail_and_shows_one() {
    let dir = std::env::temp_dir().join(format!("mornbot-quarantine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("mornbot.db");
    let poison = mail("poison", "RULES");
    {
        let mut store = Store::open(&db).unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 16, 10, 0, 0).unwrap();
        store
            .quarantine(
                "<poison@example.org>",
                &origin(9),
                "judging it panicked: x",
                &poison,
                now,
            )
            .unwrap();
    }
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .args(args)
            .output()
            .unwrap()
    };
    let db_arg = db.to_str().unwrap();
    let out = run(&["status", "--db", db_arg]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("quarantined: 1 message(s)"), "{text}");
    assert!(text.contains("INBOX UID 9  <poison@example.org>"), "{text}");
    assert!(text.contains("judging it panicked: x"), "{text}");
    let out = run(&["status", "--db", db_arg, "--show", "1"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, poison);
    let _ = std::fs::remove_dir_all(&dir);
}
