//! Unit tests of the store: commits, the turn log, the outbox, reopening.

use super::*;

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn turn(n: u64) -> TurnRow {
    TurnRow {
        n,
        player: "Alice".into(),
        play: format!("Alice : Pass {n}"),
        message_id: format!("m{n}@x"),
        submitted_at: t("2026-11-20T10:00:00Z"),
    }
}

#[test]
fn a_commit_is_all_or_nothing() {
    let mut s = Store::in_memory().unwrap();
    s.ensure_game("MN1", "{}", t("2026-11-20T09:00:00Z"))
        .unwrap();
    let origin = Origin {
        source: "INBOX".into(),
        uidvalidity: Some(7),
        uid: Some(3),
    };
    let mut c = Commit {
        processed: Some(Processed {
            message_id: "m1@x".into(),
            origin: origin.clone(),
            game: Some("MN1".into()),
            kind: "turn".into(),
            summary: "legal".into(),
        }),
        turns: vec![("MN1".into(), turn(1))],
        ..Commit::default()
    };
    s.commit(&c).unwrap();
    assert!(s.is_processed("m1@x").unwrap());
    assert!(s.is_processed_uid("INBOX", 7, 3).unwrap());
    assert_eq!(s.mailbox("INBOX").unwrap(), Some((7, 3)));
    // The same turn number again violates the primary key: nothing of
    // the second commit may remain, not even its processed row.
    c.processed = Some(Processed {
        message_id: "m2@x".into(),
        origin: Origin {
            uid: Some(4),
            ..origin
        },
        game: None,
        kind: "turn".into(),
        summary: "x".into(),
    });
    c.outbox = vec![NewMail {
        message_id: "r2@bot".into(),
        envelope_from: "bot@x".into(),
        recipients: vec!["l@x".into()],
        raw: b"x".to_vec(),
    }];
    assert!(s.commit(&c).is_err());
    assert!(!s.is_processed("m2@x").unwrap());
    assert_eq!(s.outbox_counts().unwrap(), (0, 0));
    assert_eq!(s.mailbox("INBOX").unwrap(), Some((7, 3)));
    assert_eq!(s.turns("MN1").unwrap(), vec![turn(1)]);
}

#[test]
fn truncate_then_append_replaces_the_tail() {
    let mut s = Store::in_memory().unwrap();
    s.ensure_game("MN1", "{}", Utc::now()).unwrap();
    let c = Commit {
        turns: (1..=4).map(|n| ("MN1".to_string(), turn(n))).collect(),
        ..Commit::default()
    };
    s.commit(&c).unwrap();
    let c = Commit {
        truncate: vec![("MN1".into(), 2)],
        turns: vec![("MN1".into(), turn(3))],
        ..Commit::default()
    };
    s.commit(&c).unwrap();
    let n: Vec<u64> = s.turns("MN1").unwrap().iter().map(|t| t.n).collect();
    assert_eq!(n, vec![1, 2, 3]);
}

#[test]
fn outbox_retries_and_dedupes_by_message_id() {
    // The outbox runs on the wall clock.
    let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
    let mut s = Store::in_memory().unwrap();
    let mail = NewMail {
        message_id: "r1@bot".into(),
        envelope_from: "bot@x".into(),
        recipients: vec!["a@x".into(), "b@x".into()],
        raw: b"Subject: x\r\n\r\nhi\r\n".to_vec(),
    };
    let c = Commit {
        received_at: Some(base),
        outbox: vec![mail.clone(), mail],
        ..Commit::default()
    };
    s.commit(&c).unwrap();
    let due = s.due_mail(base, 10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].recipients, vec!["a@x", "b@x"]);
    s.mark_failed(due[0].id, "refused", base + chrono::Duration::seconds(60))
        .unwrap();
    assert!(s
        .due_mail(base + chrono::Duration::seconds(30), 10)
        .unwrap()
        .is_empty());
    assert_eq!(
        s.next_mail_due().unwrap(),
        Some(base + chrono::Duration::seconds(60))
    );
    let due = s
        .due_mail(base + chrono::Duration::seconds(60), 10)
        .unwrap();
    assert_eq!(due[0].attempts, 1);
    s.mark_sent(due[0].id, base + chrono::Duration::seconds(61))
        .unwrap();
    assert_eq!(s.outbox_counts().unwrap(), (0, 1));
    assert_eq!(s.next_mail_due().unwrap(), None);
}

#[test]
fn an_unconfirmed_reply_waits_and_an_echo_confirms_it() {
    let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
    let mut s = Store::in_memory().unwrap();
    let c = Commit {
        received_at: Some(base),
        outbox: vec![NewMail {
            message_id: "r1@bot".into(),
            envelope_from: "bot@x".into(),
            recipients: vec!["lounge@x".into()],
            raw: b"x".to_vec(),
        }],
        ..Commit::default()
    };
    s.commit(&c).unwrap();
    let id = s.due_mail(base, 1).unwrap()[0].id;
    // The process dies during delivery...
    s.begin_attempts(&[id], base + chrono::Duration::seconds(1))
        .unwrap();
    // ...and on restart the retry is held back.
    assert_eq!(
        s.defer_unconfirmed(base + chrono::Duration::seconds(31))
            .unwrap(),
        1
    );
    assert!(s
        .due_mail(base + chrono::Duration::seconds(30), 1)
        .unwrap()
        .is_empty());
    // Our own post comes back through the list: delivered after all.
    s.commit(&Commit {
        echoed: vec!["r1@bot".into()],
        ..Commit::default()
    })
    .unwrap();
    assert!(s
        .due_mail(base + chrono::Duration::seconds(60), 1)
        .unwrap()
        .is_empty());
    assert_eq!(s.outbox_counts().unwrap(), (0, 1));
    assert_eq!(
        s.defer_unconfirmed(base + chrono::Duration::seconds(120))
            .unwrap(),
        0
    );
}

/// A copy of a reply whose delivery has not begun (a mail forged From
/// mornbot with a Message-ID it will use) confirms nothing: the reply still
/// goes out. One refused and waiting to be retried is not confirmed either.
#[test]
fn an_echo_of_a_reply_not_yet_on_its_way_confirms_nothing() {
    let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
    let mut s = Store::in_memory().unwrap();
    let mail = |n: usize| NewMail {
        message_id: format!("r{n}@bot"),
        envelope_from: "bot@x".into(),
        recipients: vec!["ann@x".into(), "bot@x".into()],
        raw: b"x".to_vec(),
    };
    s.commit(&Commit {
        received_at: Some(base),
        outbox: vec![mail(1), mail(2)],
        ..Commit::default()
    })
    .unwrap();
    let ids: Vec<i64> = s.due_mail(base, 10).unwrap().iter().map(|m| m.id).collect();
    s.begin_attempts(&ids[1..], base).unwrap();
    s.mark_failed(ids[1], "refused", base + chrono::Duration::seconds(60))
        .unwrap();
    s.commit(&Commit {
        echoed: vec!["r1@bot".into(), "r2@bot".into()],
        ..Commit::default()
    })
    .unwrap();
    assert_eq!(s.outbox_counts().unwrap(), (2, 0));
    // Once on its way, its copy confirms it, after a restart too.
    s.begin_attempts(&ids[..1], base).unwrap();
    assert_eq!(s.defer_unconfirmed(base).unwrap(), 1);
    s.commit(&Commit {
        echoed: vec!["r1@bot".into()],
        ..Commit::default()
    })
    .unwrap();
    assert_eq!(s.outbox_counts().unwrap(), (1, 1));
}

#[test]
fn reopening_keeps_everything() {
    let dir = std::env::temp_dir().join(format!("mornbot-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("db.sqlite");
    let _ = std::fs::remove_file(&path);
    {
        let mut s = Store::open(&path).unwrap();
        s.ensure_game("MN1", "{\"a\":1}", Utc::now()).unwrap();
        s.commit(&Commit {
            turns: vec![("MN1".into(), turn(1))],
            ..Commit::default()
        })
        .unwrap();
    }
    let mut s = Store::open(&path).unwrap();
    assert!(!s.ensure_game("MN1", "{}", Utc::now()).unwrap());
    assert_eq!(s.games().unwrap()[0].definition, "{\"a\":1}");
    assert_eq!(s.turns("MN1").unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_batch_cut_short_by_a_crash_is_unconfirmed_and_one_cut_by_a_failure_is_due() {
    let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
    let mut s = Store::in_memory().unwrap();
    let mail = |n: usize| NewMail {
        message_id: format!("r{n}@bot"),
        envelope_from: "bot@x".into(),
        recipients: vec!["lounge@x".into()],
        raw: b"x".to_vec(),
    };
    s.commit(&Commit {
        received_at: Some(base),
        outbox: (1..=5).map(mail).collect(),
        ..Commit::default()
    })
    .unwrap();
    let ids: Vec<i64> = s.due_mail(base, 10).unwrap().iter().map(|m| m.id).collect();
    assert_eq!(ids.len(), 5);
    // A batch of three: the first is sent, then a failure cuts it short
    // and the last is given back.
    s.begin_attempts(&ids[..3], base).unwrap();
    s.mark_sent(ids[0], base).unwrap();
    let sync: i64 = s
        .conn
        .query_row("PRAGMA synchronous", [], |r| r.get(0))
        .unwrap();
    assert_eq!(sync, 2, "FULL again after the mark");
    s.mark_failed(ids[1], "refused", base + chrono::Duration::seconds(60))
        .unwrap();
    s.end_attempts(&ids[2..3]).unwrap();
    let due: Vec<i64> = s.due_mail(base, 10).unwrap().iter().map(|m| m.id).collect();
    assert_eq!(due, ids[2..].to_vec());
    // A batch of the last three, and the process dies after the first is
    // sent: the two unsent are unconfirmed, held back, then due; the sent
    // one stays sent.
    s.begin_attempts(&ids[2..], base).unwrap();
    s.mark_sent(ids[2], base).unwrap();
    let until = base + chrono::Duration::seconds(30);
    assert_eq!(s.defer_unconfirmed(until).unwrap(), 2);
    assert!(s
        .due_mail(until - chrono::Duration::seconds(1), 10)
        .unwrap()
        .is_empty());
    let due: Vec<i64> = s
        .due_mail(until, 10)
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(due, ids[3..].to_vec());
    assert_eq!(s.outbox_counts().unwrap(), (3, 2));
}

#[test]
fn a_declared_gambit_outlives_its_game_but_not_its_turn_taken_back() {
    let mut s = Store::in_memory().unwrap();
    let now = t("2026-11-20T09:00:00Z");
    s.ensure_game("MN1", "{}", now).unwrap();
    s.ensure_game("MN2", "{}", now).unwrap();
    let row = GambitRow {
        game: "MN1".into(),
        turn: 3,
        name: "Pilgrim".into(),
        data: "{}".into(),
    };
    s.commit(&Commit {
        turns: vec![("MN1".into(), turn(3))],
        gambits: vec![row.clone()],
        ..Commit::default()
    })
    .unwrap();
    // Every other game of the lounge is given it; its own game replays it.
    assert_eq!(s.gambits("MN2").unwrap(), vec![row]);
    assert!(s.gambits("MN1").unwrap().is_empty());
    // The turn that declared it taken back (Rule 1.16.4) takes it back.
    s.commit(&Commit {
        truncate: vec![("MN1".into(), 2)],
        ..Commit::default()
    })
    .unwrap();
    assert!(s.gambits("MN2").unwrap().is_empty());
}

#[test]
fn a_further_connection_never_creates_the_database() {
    let dir = std::env::temp_dir().join(format!("mornbot-connect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("db.sqlite");
    let _ = std::fs::remove_file(&path);
    assert!(Store::connect(&path).is_err());
    assert!(!path.exists());
    let mut s = Store::open(&path).unwrap();
    s.ensure_game("MN1", "{}", Utc::now()).unwrap();
    assert_eq!(Store::connect(&path).unwrap().games().unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn old_delivered_replies_lose_their_text_but_never_come_back() {
    let base = from_ms(ms(Utc::now() + chrono::Duration::seconds(1)));
    let mut s = Store::in_memory().unwrap();
    let mail = |n: u32| NewMail {
        message_id: format!("r{n}@bot"),
        envelope_from: "bot@x".into(),
        recipients: vec!["a@x".into()],
        raw: format!("Subject: {n}\r\n\r\nverdict {n}\r\n").into_bytes(),
    };
    let queued = Commit {
        received_at: Some(base),
        outbox: vec![mail(1), mail(2), mail(3)],
        ..Commit::default()
    };
    s.commit(&queued).unwrap();
    let ids: Vec<i64> = s.due_mail(base, 10).unwrap().iter().map(|m| m.id).collect();
    let day = chrono::Duration::days(1);
    s.mark_sent(ids[0], base).unwrap();
    s.mark_sent(ids[1], base + day).unwrap();
    // Before the first delivery: nothing.
    assert_eq!(s.prune_sent(base).unwrap(), 0);
    assert_eq!(s.prune_sent(base + chrono::Duration::hours(1)).unwrap(), 1);
    let raw =
        |s: &Store| -> Vec<usize> { s.all_mail().unwrap().iter().map(|m| m.raw.len()).collect() };
    let kept = raw(&s);
    assert_eq!(kept[0], 0);
    assert!(kept[1] > 0 && kept[2] > 0, "{kept:?}");
    // The same Message-ID queued again is still refused.
    s.commit(&queued).unwrap();
    assert_eq!(s.outbox_counts().unwrap(), (1, 2));
    // Only what was delivered since the last call is looked at; the unsent
    // reply keeps its text whatever the date.
    assert_eq!(s.prune_sent(base + chrono::Duration::hours(1)).unwrap(), 0);
    assert_eq!(s.prune_sent(base + day * 30).unwrap(), 1);
    assert_eq!(raw(&s)[..2], [0, 0]);
    assert!(raw(&s)[2] > 0);
    assert_eq!(s.due_mail(base, 10).unwrap().len(), 1);
}
