//! A quarantined mail leaves the lounge folder on a real IMAP server
//! (issue 14: "moved aside"): the IMAP adapter, told a message was set
//! aside, moves it to `[imap] quarantine_folder` (made when first needed)
//! after flagging it seen; a judged one stays, seen, where it was.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::Config;
use mornbot::mail::inbox::{Done, Event, Inbox};
use support::{config, imap_all, imap_folder, smtp_send, wait_until};

fn post(s: &support::Stack, id: &str) {
    smtp_send(
        s.port("SMTP_PORT"),
        "rushton@example.test",
        &["bot@example.test"],
        &format!(
            "From: rushton@example.test\nTo: bot@example.test\nSubject: [MN1] x\n\
             Message-ID: <{id}@example.test>\n\nHELP\n"
        ),
    );
}

#[test]
fn a_set_aside_mail_moves_to_the_quarantine_folder_and_a_judged_one_stays() {
    let Some(s) = support::lounge() else { return };
    let data = s.dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let path = config(&s, &data, "");
    let cfg = Config::from_toml(&std::fs::read_to_string(&path).unwrap(), "bot.toml").unwrap();
    let imap = cfg.imap.clone().unwrap();
    assert_eq!(imap.quarantine_folder, "mornbot-quarantine");
    let db = data.join("mornbot.db");
    mornbot::store::Store::open(&db).unwrap();
    post(&s, "judged");
    post(&s, "poison");
    let port = s.port("IMAP_PORT");
    wait_until(std::time::Duration::from_secs(30), "both delivered", || {
        (imap_all(port, "bot").len() == 2).then_some(())
    });
    // The adapter is a task of its own: a runtime with a worker keeps it
    // going while the test reads the server from outside.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let _inbox = rt.block_on(async {
        let (mut inbox, _task) =
            mornbot::mail::imap::spawn(imap, mornbot::daemon::imap_marks(db), 1 << 20).unwrap();
        for _ in 0..2 {
            let m = loop {
                match inbox.next().await.unwrap() {
                    Event::Mail(m) => break m,
                    Event::Idle => continue,
                }
            };
            let raw = match &m.raw {
                mornbot::mail::inbox::Raw::Full(r) => String::from_utf8_lossy(r).into_owned(),
                other => panic!("{other:?}"),
            };
            let done = if raw.contains("<poison@") {
                Done::SetAside
            } else {
                Done::Judged
            };
            inbox.ack(&m, done).await.unwrap();
        }
        inbox
    });
    wait_until(std::time::Duration::from_secs(30), "the move", || {
        (imap_all(port, "bot").len() == 1).then_some(())
    });
    let left = imap_all(port, "bot");
    assert_eq!(left.len(), 1, "{left:#?}");
    assert!(left[0].contains("<judged@"), "{left:#?}");
    let aside = imap_folder(port, "bot", "mornbot-quarantine");
    assert_eq!(aside.len(), 1, "{aside:#?}");
    assert!(aside[0].contains("<poison@"), "{aside:#?}");
}
