//! The referee core without mail servers: letters in, store rows and reply
//! mails out.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::referee::{Command, Letter, Referee, Request};
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

fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

fn origin() -> Origin {
    Origin {
        source: "maildir".into(),
        uidvalidity: None,
        uid: None,
    }
}

/// A turn request: a play line (or a whole GSD) starting on body `line`.
fn turn(text: impl Into<String>, gsd: bool, line: usize) -> Request {
    Request::Turn {
        text: text.into(),
        gsd,
        line,
        column: 1,
    }
}

struct T {
    referee: Referee,
    store: Store,
    n: usize,
}

impl T {
    fn new() -> T {
        let mut store = Store::in_memory().unwrap();
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut store,
            at(0),
        )
        .unwrap();
        T {
            referee,
            store,
            n: 0,
        }
    }

    fn letter(&mut self, from: &str, request: Request, body: &str) -> Letter {
        self.n += 1;
        Letter {
            message_id: format!("m{}@example.org", self.n),
            from: format!("{from}@example.org"),
            subject: "[MN1] turn".into(),
            references: vec![],
            game: Ok("MN1".into()),
            request,
            body: body.into(),
            date: None,
            posted: None,
            auth_failed: false,
            no_reply: None,
            read_as: None,
        }
    }

    /// Sends a play line; returns (summary, reply texts).
    fn play(&mut self, from: &str, line: &str) -> (String, Vec<String>) {
        let l = self.letter(from, turn(line, false, 1), line);
        self.send(l)
    }

    fn send(&mut self, l: Letter) -> (String, Vec<String>) {
        let before = self.store.all_mail().unwrap().len();
        let h = self
            .referee
            .handle(&mut self.store, origin(), &l, at(self.n as i64))
            .unwrap();
        let mails = self.store.all_mail().unwrap();
        let new: Vec<String> = mails[before..]
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).replace("\r\n", "\n"))
            .collect();
        assert_eq!(new.len(), h.replies, "replies queued = replies reported");
        (h.summary, new)
    }

    fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }
}

#[test]
fn a_legal_turn_is_logged_and_answered_in_the_lounge_with_the_gsd() {
    let mut t = T::new();
    let (s, mails) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "legal");
    assert_eq!(t.turns(), 1);
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert!(m.contains("To: lounge@example.test"), "{m}");
    assert!(
        m.contains("Subject: [MN1] Turn 1: Rushton (legal)\n"),
        "{m}"
    );
    assert_eq!(headline(m), "Turn 1: Rushton (legal)", "{m}");
    assert!(m.contains("In-Reply-To: <m1@example.org>"), "{m}");
    assert!(
        m.contains("References: <mn1.game@example.test> <m1@example.org>"),
        "{m}"
    );
    assert!(m.contains("Auto-Submitted: auto-replied"), "{m}");
    assert!(
        m.contains("Next to play: Warren, by Tue 17 Nov 2026 21:01 GMT"),
        "{m}"
    );
    assert!(m.contains("| Rushton | Hainault"), "{m}");
    assert!(
        m.contains("Rushton : Epping (CN) [Home: Hainault]\n"),
        "{m}"
    );
}

#[test]
fn an_illegal_turn_is_buzzed_with_rule_and_caret_and_not_logged() {
    let mut t = T::new();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let (s, mails) = t.play("warren", "Warren : [LV+1] Tooting Broadway (NT)");
    assert_eq!(s, "illegal");
    assert_eq!(t.turns(), 1);
    let m = &mails[0];
    assert!(
        m.contains("Subject: [MN1] Buzz: Warren's turn 2 is illegal\n"),
        "{m}"
    );
    assert_eq!(headline(m), "Buzz: Warren's turn 2 is illegal", "{m}");
    assert!(m.contains("Rule 1."), "{m}");
    assert!(m.contains("still Warren's turn"), "{m}");
    // The bot's buzz is recorded for the Speaker.
    let ev = t.store.events("MN1").unwrap();
    let kinds: Vec<&str> = ev.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, vec!["buzz-step", "pending", "bot-buzz"]);
    // The turn is Questionable until settled; Warren's next turn concedes
    // the Buzz and is judged (RULINGS S10).
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .questionable
        .is_some());
    let (s, _) = t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
    assert_eq!(s, "legal");
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .questionable
        .is_none());
}

#[test]
fn out_of_turn_is_a_private_refusal_citing_rule_1_3_2_and_play_goes_on() {
    let mut t = T::new();
    let (s, mails) = t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
    assert_eq!(s, "out of turn");
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("Rule 1.3.2"), "{}", mails[0]);
    assert!(mails[0].contains("it is Rushton's Turn"), "{}", mails[0]);
    // To the sender alone, never a Buzz in the lounge; nothing held.
    assert!(mails[0].contains("To: warren@example.org"), "{}", mails[0]);
    assert!(!mails[0].contains("lounge@example.test"), "{}", mails[0]);
    assert!(!mails[0].contains("Buzz"), "{}", mails[0]);
    assert_eq!(t.turns(), 0);
    // Rushton's real turn is judged at once, and Warren's after it.
    let (s, _) = t.play("rushton", "Rushton : Pass");
    assert_eq!(s, "legal");
    let (s, _) = t.play("warren", "Warren : Pass");
    assert_eq!(s, "legal");
    assert_eq!(t.turns(), 2);
}

#[test]
fn a_parse_error_names_line_column_and_suggestions() {
    let mut t = T::new();
    let body = "Hello all,\n\nRushton : Epping (CN) [Home: Hainolt]\n";
    let l = t.letter(
        "rushton",
        turn("Rushton : Epping (CN) [Home: Hainolt]", false, 3),
        body,
    );
    let (s, mails) = t.send(l);
    assert!(s.starts_with("parse error at 3:"), "{s}");
    let m = &mails[0];
    assert!(m.contains("To: rushton@example.org"), "{m}");
    assert!(m.contains("Line 3, column"), "{m}");
    assert!(m.contains("Hainault"), "{m}");
    assert_eq!(t.turns(), 0);
}

#[test]
fn a_turn_from_another_players_address_is_refused_and_the_owner_told() {
    let mut t = T::new();
    let (s, mails) = t.play("warren", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "spoofed player");
    assert_eq!(mails.len(), 2);
    assert!(mails[0].contains("To: warren@example.org"));
    assert!(mails[1].contains("To: rushton@example.org"));
    assert!(mails[1].contains("arrived from warren@example.org"));
    assert_eq!(t.turns(), 0);
}

#[test]
fn an_unregistered_sender_is_refused() {
    let mut t = T::new();
    let (s, _) = t.play("mallory", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "unregistered sender");
}

#[test]
fn a_stale_gsd_is_answered_with_the_current_one() {
    let mut t = T::new();
    let (_, m1) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let gsd1 = extract_gsd(&m1[0]);
    t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
    // Acton posts on the GSD of turn 1, missing Warren's turn.
    let text = format!("{gsd1}Acton : Upminster (DS) [Home: Hornchurch]\n");
    let l = t.letter("acton", turn(text.as_str(), true, 1), &text);
    let (s, mails) = t.send(l);
    assert_eq!(s, "stale: based on turn 1, at 2");
    assert!(mails[0].contains("based on turn 1"), "{}", mails[0]);
    assert!(mails[0].contains("the\ngame is at turn 2"), "{}", mails[0]);
    assert_eq!(t.turns(), 2);
}

#[test]
fn a_gsd_extending_the_log_is_accepted_and_table_differences_listed() {
    let mut t = T::new();
    let (_, m1) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    // Warren edits the tables wrongly (claims 9 Black tokens).
    let gsd = extract_gsd(&m1[0]).replacen(
        "| Warren  |          |  0 |  0 |  2",
        "| Warren  |          |  0 |  0 |  9",
        1,
    );
    let text = format!("{gsd}Warren : Morden (NT) [Home: Tooting Broadway]\n");
    let l = t.letter("warren", turn(text.as_str(), true, 1), &text);
    let (s, mails) = t.send(l);
    assert_eq!(s, "legal", "{}", mails[0]);
    assert!(
        mails[0].contains("Warren Tokens: yours 9 Bk"),
        "{}",
        mails[0]
    );
    assert_eq!(t.turns(), 2);
}

#[test]
fn take_back_removes_the_last_turn_and_replays() {
    let mut t = T::new();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
    // Rushton may not take back: Warren has played since (Rule 1.3.3).
    let l = t.letter("rushton", Request::TakeBack(None), "take back");
    let (s, _) = t.send(l);
    assert_eq!(s, "take-back refused");
    let replacement = turn("Warren : Edgware (NT) [Home: Burnt Oak]", false, 1);
    let l = t.letter("warren", Request::TakeBack(Some(Box::new(replacement))), "");
    let (s, mails) = t.send(l);
    assert_eq!(s, "taken back; replacement legal", "{mails:?}");
    let turns = t.store.turns("MN1").unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[1].play, "Warren : Edgware (NT) [Home: Burnt Oak]");
    assert_eq!(
        t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
        "Acton"
    );
}

#[test]
fn commands_are_answered_privately() {
    let mut t = T::new();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let l = t.letter(
        "warren",
        Request::Commands(vec![
            Command::Status(None),
            Command::History(Some("mn1".into())),
            Command::Unknown("DANCE".into()),
        ]),
        "",
    );
    let (_, mails) = t.send(l);
    assert_eq!(mails.len(), 1);
    let m = &mails[0];
    assert!(m.contains("To: warren@example.org"), "{m}");
    assert!(m.contains("MN1: turn 1 played"), "{m}");
    assert!(m.contains("Next to play in MN1: Warren"), "{m}");
    assert!(m.contains("Rushton : Epping (CN) [Home: Hainault]"), "{m}");
    // HISTORY times say their zone.
    assert!(m.contains("2026-11-16 09:01 UTC  Rushton : Epping"), "{m}");
    assert!(m.contains("Not understood:\n  - DANCE"), "{m}");
}

#[test]
fn chatter_and_auto_replies_get_no_reply_but_are_recorded() {
    let mut t = T::new();
    let l = t.letter("warren", Request::Chatter, "good luck");
    let (s, mails) = t.send(l);
    assert_eq!((s.as_str(), mails.len()), ("ignored", 0));
    let mut l = t.letter(
        "warren",
        turn("Rushton : Epping (CN) [Home: Hainault]", false, 1),
        "",
    );
    l.no_reply = Some("auto-reply".into());
    let (_, mails) = t.send(l.clone());
    assert!(mails.is_empty());
    assert!(t.store.is_processed(&l.message_id).unwrap());
    assert_eq!(t.turns(), 0);
}

#[test]
fn a_message_is_judged_once_even_when_delivered_twice() {
    let mut t = T::new();
    let l = t.letter(
        "rushton",
        turn("Rushton : Epping (CN) [Home: Hainault]", false, 1),
        "",
    );
    let (s1, m1) = t.send(l.clone());
    let (s2, m2) = t.send(l);
    assert_eq!((s1.as_str(), m1.len()), ("legal", 1));
    assert_eq!((s2.as_str(), m2.len()), ("already processed", 0));
    assert_eq!(t.turns(), 1);
}

#[test]
fn a_restart_rebuilds_the_same_games_from_the_store() {
    let dir = std::env::temp_dir().join(format!("mornbot-referee-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("db");
    let plays = [
        ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
        ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
        ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
    ];
    let gsd_before = {
        let mut t = T::new();
        t.store = Store::open(&db).unwrap();
        t.referee = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut t.store,
            at(0),
        )
        .unwrap();
        for (who, p) in plays {
            assert_eq!(t.play(who, p).0, "legal");
        }
        mornbot::gsd::render(
            &t.referee
                .live(&t.store, "MN1")
                .unwrap()
                .game
                .gsd(Map::london_1999()),
        )
    };
    let mut store = Store::open(&db).unwrap();
    let r = Referee::load(
        Map::london_1999(),
        me(),
        SpeakerConfig::default(),
        &[game()],
        &mut store,
        at(100),
    )
    .unwrap();
    let live = r.live(&store, "MN1").unwrap();
    let gsd_after = mornbot::gsd::render(&live.game.gsd(Map::london_1999()));
    assert_eq!(gsd_before, gsd_after);
    assert_eq!(live.game.to_play(), "Warren");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first line of a mail's body: a notice's headline.
fn headline(mail: &str) -> &str {
    let mail = mail.strip_prefix('\n').unwrap_or(mail);
    let (_, body) = mail
        .split_once("\r\n\r\n")
        .or_else(|| mail.split_once("\n\n"))
        .unwrap_or_default();
    body.lines().next().unwrap_or_default().trim_end()
}

fn extract_gsd(mail: &str) -> String {
    let start = mail.find("\nGame ").or_else(|| mail.find("\n+--")).unwrap() + 1;
    let end = mail.rfind("\n-- \n").unwrap() + 1;
    mail[start..end].to_string()
}

/// The whole pipeline short of the transports: raw mail through
/// `daemon::drain_maildir` into the store and the outbox.
mod pipeline {
    use super::*;
    use mornbot::config::Config;
    use mornbot::daemon::{drain_maildir, letter::Context};
    use mornbot::mail::maildir::Maildir;

    fn setup(tag: &str) -> (std::path::PathBuf, Maildir, Referee, Store, Context) {
        let dir = std::env::temp_dir().join(format!("mornbot-pipe-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let md = Maildir::create(&dir.join("lounge")).unwrap();
        let mut store = Store::in_memory().unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        cfg.bot.max_message_bytes = 4096;
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut store,
            at(0),
        )
        .unwrap();
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        (dir, md, referee, store, ctx)
    }

    /// Lets delivered files settle (the Maildir reader skips younger ones).
    fn settle() {
        std::thread::sleep(mornbot::mail::maildir::SETTLE + std::time::Duration::from_millis(50));
    }

    fn replies(store: &Store) -> Vec<String> {
        store
            .all_mail()
            .unwrap()
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).into_owned())
            .collect()
    }

    #[test]
    fn oversize_mail_gets_a_polite_refusal_and_changes_nothing() {
        let (dir, md, mut referee, mut store, ctx) = setup("big");
        let mut raw = String::from(
            "From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\n\
             Message-ID: <big@example.org>\r\n\r\nRushton : Epping (CN) [Home: Hainault]\r\n",
        );
        raw.push_str(&"padding padding padding\r\n".repeat(400));
        md.deliver(raw.as_bytes(), "big").unwrap();
        settle();
        let h = drain_maildir(&md, &mut referee, &mut store, &ctx).unwrap();
        assert_eq!(h[0].kind, "error");
        let r = replies(&store);
        assert_eq!(r.len(), 1);
        assert!(r[0].contains("To: rushton@example.org"), "{}", r[0]);
        assert!(r[0].contains("over mornbot's limit of 4096"), "{}", r[0]);
        assert!(store.turns("MN1").unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn garbage_is_recorded_and_never_crashes_or_answers() {
        let (dir, md, mut referee, mut store, ctx) = setup("junk");
        md.deliver(b"\x00\xff\xfe garbage with no headers at all", "junk")
            .unwrap();
        md.deliver(b"Subject: no sender\r\n\r\nRushton : Pass\r\n", "nofrom")
            .unwrap();
        settle();
        let h = drain_maildir(&md, &mut referee, &mut store, &ctx).unwrap();
        assert_eq!(h.len(), 2);
        assert!(replies(&store).is_empty());
        assert!(store.turns("MN1").unwrap().is_empty());
        assert!(md.waiting().unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn html_only_and_quoted_printable_turns_are_judged() {
        let (dir, md, mut referee, mut store, ctx) = setup("html");
        md.deliver(
            b"From: Rushton <Rushton@Example.org>\r\nTo: lounge@example.test\r\n\
              Subject: Re: [MN1] my turn\r\nMessage-ID: <h1@example.org>\r\nMIME-Version: 1.0\r\n\
              Content-Type: text/html; charset=iso-8859-1\r\n\
              Content-Transfer-Encoding: quoted-printable\r\n\r\n\
              <html><body><p>Here goes:</p><p>Rushton : Epping (CN) [Home: =\r\nHainault]</p></body></html>\r\n",
            "h1",
        )
        .unwrap();
        settle();
        drain_maildir(&md, &mut referee, &mut store, &ctx).unwrap();
        let r = replies(&store);
        assert!(r[0].contains("Turn 1: Rushton (legal)"), "{}", r[0]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

mod speaker {
    use super::*;

    fn day(d: u32, h: u32) -> DateTime<Utc> {
        // November 2026: Monday the 16th.
        Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap()
    }

    fn summaries(t: &mut T, now: DateTime<Utc>) -> Vec<String> {
        t.referee
            .tick(&mut t.store, now)
            .unwrap()
            .into_iter()
            .map(|h| h.summary)
            .collect()
    }

    #[test]
    fn reminders_then_timeouts_at_the_deadlines_each_once() {
        // The game starts Monday 16th 09:00: Rushton's turn is due Tuesday
        // 21:00, reminded 12 hours before.
        let mut t = T::new();
        assert_eq!(t.referee.next_due(), Some(day(17, 9)));
        assert!(summaries(&mut t, day(17, 8)).is_empty());
        assert_eq!(
            summaries(&mut t, day(17, 9)),
            vec!["reminded Rushton of turn 1"]
        );
        let mails = t.store.all_mail().unwrap();
        let m = String::from_utf8_lossy(&mails[0].raw).into_owned();
        assert!(m.contains("To: rushton@example.org"), "{m}");
        assert!(m.contains("Auto-Submitted: auto-generated"), "{m}");
        assert!(m.contains("due by Tue 17 Nov 2026 21:00 GMT"), "{m}");
        // The lounge is told whose turn is pending, in the same act
        // (RULINGS S30).
        let l = String::from_utf8_lossy(&mails[1].raw).into_owned();
        assert!(l.contains("To: lounge@example.test"), "{l}");
        assert_eq!(headline(&l), "Reminder: Rushton's turn 1 is due", "{l}");
        assert_eq!(mails.len(), 2);
        // Asked again: nothing more.
        assert!(summaries(&mut t, day(17, 10)).is_empty());
        // At the deadline itself still in time; just after, the Timeout.
        assert!(summaries(&mut t, day(17, 21)).is_empty());
        let after = day(17, 21) + chrono::Duration::seconds(1);
        assert_eq!(
            summaries(&mut t, after),
            vec!["Timeout for Rushton, turn 1"]
        );
        let turns = t.store.turns("MN1").unwrap();
        assert_eq!(turns[0].play, "Rushton : Timeout");
        assert_eq!(turns[0].submitted_at, day(17, 21));
        let posted = String::from_utf8_lossy(&t.store.all_mail().unwrap()[2].raw).into_owned();
        assert!(posted.contains("To: lounge@example.test"), "{posted}");
        assert_eq!(headline(&posted), "Turn 1: Rushton timed out", "{posted}");
        assert!(posted.contains("mornbot submits a Timeout"), "{posted}");
        assert!(
            posted.contains("Next to play: Warren, by Thu 19 Nov 2026 09:00 GMT"),
            "{posted}"
        );
        assert!(
            posted.contains("| Monday 1000"),
            "Game Time advanced an hour: {posted}"
        );
    }

    #[test]
    fn a_long_outage_times_out_every_overdue_turn_in_order_and_a_restart_agrees() {
        let mut t = T::new();
        // Saturday 21st: Rushton (due Tue 21:00), Warren (Thu 09:00) and
        // Acton (Fri 21:00) have all run out of time; Rushton again is
        // due Tuesday 24th 09:00.
        let s = summaries(&mut t, day(21, 0));
        assert_eq!(
            s,
            vec![
                "Timeout for Rushton, turn 1",
                "Timeout for Warren, turn 2",
                "Timeout for Acton, turn 3"
            ]
        );
        let next = t.referee.next_due();
        assert_eq!(next, Some(day(23, 21)), "the reminder, Monday 21:00");
        // A restart computes the same schedule and does nothing twice.
        let r = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut t.store,
            day(21, 1),
        )
        .unwrap();
        t.referee = r;
        assert_eq!(t.referee.next_due(), next);
        assert!(summaries(&mut t, day(21, 2)).is_empty());
        assert_eq!(t.store.turns("MN1").unwrap().len(), 3);
    }

    #[test]
    fn two_months_without_a_move_resigns_and_the_last_player_wins() {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
        // Acton never moves: two calendar months after the game's start
        // (Monday 16 November 09:00) e Resigns, before anything else.
        let jan16 = Utc.with_ymd_and_hms(2027, 1, 16, 9, 0, 1).unwrap();
        let s = summaries(&mut t, jan16);
        assert_eq!(s[0], "Acton Resigned (Rule 1.1.10)");
        // Rushton and Warren are timed out turn after turn meanwhile:
        // Timeouts are not moves (RULINGS S7).
        assert!(
            s[1..]
                .iter()
                .all(|x| x.starts_with("Timeout for") || x.starts_with("reminded")),
            "{s:?}"
        );
        assert!(s.len() > 20, "{s:?}");
        let names: Vec<String> = t
            .referee
            .live(&t.store, "MN1")
            .unwrap()
            .game
            .state
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect();
        assert_eq!(names, vec!["Rushton", "Warren", "Drone"]);
        let mails = t.store.all_mail().unwrap();
        let posted: Vec<String> = mails
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).into_owned())
            .filter(|m| m.contains("has Resigned"))
            .collect();
        assert_eq!(posted.len(), 1);
        assert!(posted[0].contains("To: lounge@example.test"));
        // Rushton's last move was at 09:01 (see T::send): e goes next, and
        // Warren, the last player left, Wins (Rule 1.1.3).
        let before = t.store.all_mail().unwrap().len();
        let s = summaries(&mut t, jan16 + chrono::Duration::minutes(5));
        assert_eq!(s[0], "Rushton Resigned (Rule 1.1.10)");
        assert_eq!(
            t.referee
                .live(&t.store, "MN1")
                .unwrap()
                .game
                .state
                .winner
                .as_deref(),
            Some("Warren")
        );
        // The game ends there, by Rule 1.1.3, in the resignation's own
        // notice: no later "reached Mornington Crescent (Rule 1.1.1)".
        assert!(t.referee.live(&t.store, "MN1").unwrap().ended);
        let later = summaries(&mut t, jan16 + chrono::Duration::days(30));
        assert!(later.is_empty(), "{later:?}");
        let mails: Vec<String> = t.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).into_owned())
            .collect();
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert!(mails[0].contains("Wins MN1 (Rule 1.1.3)"), "{}", mails[0]);
        assert!(!mails.iter().any(|m| m.contains("Rule 1.1.1")), "{mails:?}");
        // A restart replays the log and the resignations alike.
        let r = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut t.store,
            jan16,
        )
        .unwrap();
        let live = r.live(&t.store, "MN1").unwrap();
        assert_eq!(live.game.state.winner.as_deref(), Some("Warren"));
        assert!(live.ended);
        assert_eq!(live.game.state.players.len(), 2, "Warren and the Drone");
    }

    #[test]
    fn a_played_turn_restarts_the_clock_and_timeouts_can_be_switched_off() {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        // Received at 09:01 on Monday 16th (see T::send): Warren's turn is
        // due Tuesday 21:01.
        let due = t.referee.next_due().unwrap();
        assert_eq!(due, day(17, 9) + chrono::Duration::minutes(1));
        let mut store = Store::in_memory().unwrap();
        let off = SpeakerConfig {
            timeouts: false,
            ..SpeakerConfig::default()
        };
        let mut r = Referee::load(
            Map::london_1999(),
            me(),
            off,
            &[game()],
            &mut store,
            day(16, 9),
        )
        .unwrap();
        assert_eq!(r.next_due(), None);
        assert!(r.tick(&mut store, day(30, 0)).unwrap().is_empty());
    }
}

mod buzzing {
    use super::*;
    use mornbot::daemon::referee::Workflow;

    fn opening() -> T {
        let mut t = T::new();
        for (who, p) in [
            ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
            ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
            ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
            ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
        ] {
            assert_eq!(t.play(who, p).0, "legal");
        }
        t
    }

    fn step(t: &mut T, who: &str, w: Workflow) -> (String, Vec<String>) {
        let l = t.letter(who, Request::Workflow(w), "");
        t.send(l)
    }

    fn buzz(turn: u64) -> Workflow {
        Workflow::Buzz {
            player: None,
            turn: Some(turn),
            reason: "no LV for that".into(),
        }
    }

    #[test]
    fn a_conceded_buzz_rolls_back_and_voids_the_held_turns() {
        let mut t = opening();
        let (_, mails) = step(&mut t, "acton", buzz(4));
        assert!(
            mails[0].contains("Questionable (Rule 1.16.2)"),
            "{}",
            mails[0]
        );
        assert!(mails[0].contains("Rushton has until"), "{}", mails[0]);
        // Play is held: Warren's turn is Mistimed, kept, not judged.
        let (s, mails) = t.play("warren", "Warren : [LV+1] South Wimbledon (NT)");
        assert_eq!(s, "mistimed: held");
        assert!(mails[0].contains("Mistimed"), "{}", mails[0]);
        assert_eq!(t.turns(), 4);
        let l = t.letter("warren", Request::Commands(vec![Command::Status(None)]), "");
        let (_, m) = t.send(l);
        assert!(
            m[0].contains("Turn 4 (Rushton's) is Questionable, buzzed by Acton"),
            "{}",
            m[0]
        );
        assert!(m[0].contains("1 turn(s) held"), "{}", m[0]);
        // A second Buzz is refused while one is pending.
        assert_eq!(
            step(&mut t, "warren", buzz(3)).0,
            "buzz refused: already questionable"
        );
        // Rushton concedes: turn 4 never happened; Warren's held turn is void.
        let (_, mails) = step(&mut t, "rushton", Workflow::Concede);
        assert_eq!(t.turns(), 3);
        let all = mails.join("\n");
        assert!(all.contains("turn 4 of MN1 is Illegal"), "{all}");
        assert!(all.contains("It is Rushton's turn"), "{all}");
        assert!(all.contains("Your held turn is void"), "{all}");
        assert_eq!(
            t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
            "Rushton"
        );
        assert!(t
            .referee
            .live(&t.store, "MN1")
            .unwrap()
            .questionable
            .is_none());
    }

    #[test]
    fn an_out_of_turn_post_while_questionable_is_refused_privately_not_held() {
        let mut t = opening();
        step(&mut t, "acton", buzz(4));
        // Acton does not follow Rushton: refused as out of turn, not held.
        let (s, mails) = t.play("acton", "Acton : Pass");
        assert_eq!(s, "out of turn");
        assert!(mails[0].contains("Rule 1.3.2"), "{}", mails[0]);
        assert!(mails[0].contains("To: acton@example.org"), "{}", mails[0]);
        assert!(!mails[0].contains("Mistimed"), "{}", mails[0]);
        // Warren does: held as Mistimed (Rule 1.16.1).
        let (s, _) = t.play("warren", "Warren : [LV+1] South Wimbledon (NT)");
        assert_eq!(s, "mistimed: held");
        // Rushton concedes: Warren's held turn is void, Acton's never was.
        let (_, mails) = step(&mut t, "rushton", Workflow::Concede);
        assert!(!mails.join("\n").contains("To: acton@example.org"));
    }

    #[test]
    fn a_contested_defence_goes_to_a_drawn_referee_whose_judgment_binds() {
        let mut t = opening();
        step(&mut t, "acton", buzz(4));
        t.play("warren", "Warren : [LV+1] South Wimbledon (NT)");
        step(
            &mut t,
            "rushton",
            Workflow::Contest {
                text: String::new(),
            },
        );
        // Only Warren is neither the buzzed nor the buzzing player.
        let (_, mails) = step(
            &mut t,
            "acton",
            Workflow::Contest {
                text: String::new(),
            },
        );
        let all = mails.join("\n");
        assert!(all.contains("Warren is drawn at random"), "{all}");
        assert!(all.contains("To: warren@example.org"), "{all}");
        // Nobody but the Referee may judge.
        assert_eq!(
            step(&mut t, "acton", Workflow::Judgment { legal: false }).0,
            "workflow step refused"
        );
        // A restart in the middle keeps the Questionable Turn and the held one.
        let mut store = std::mem::replace(&mut t.store, Store::in_memory().unwrap());
        t.referee = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut store,
            at(50),
        )
        .unwrap();
        t.store = store;
        assert_eq!(t.referee.live(&t.store, "MN1").unwrap().held.len(), 1);
        let (_, mails) = step(&mut t, "warren", Workflow::Judgment { legal: true });
        let all = mails.join("\n");
        assert!(all.contains("turn 4 of MN1 is Legal"), "{all}");
        // The held turn was then judged, in order.
        assert_eq!(t.turns(), 5);
        assert_eq!(
            t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
            "Acton"
        );
    }

    #[test]
    fn an_illegal_judgment_removes_the_turn_and_every_later_one() {
        let mut t = opening();
        // Turn 3 (Acton's) buzzed after turn 4 was played.
        step(&mut t, "warren", buzz(3));
        step(
            &mut t,
            "acton",
            Workflow::Contest {
                text: String::new(),
            },
        );
        let (_, mails) = step(
            &mut t,
            "warren",
            Workflow::Contest {
                text: String::new(),
            },
        );
        assert!(mails.join("\n").contains("Rushton is drawn"), "{mails:?}");
        step(&mut t, "rushton", Workflow::Judgment { legal: false });
        assert_eq!(t.turns(), 2);
        assert_eq!(
            t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
            "Acton"
        );
    }

    #[test]
    fn deadlines_lapse_on_the_speakers_clock() {
        let mut t = opening();
        step(&mut t, "acton", buzz(4));
        // No contest within 36 hours (weekends count): Illegal.
        let when = t.referee.next_due().unwrap();
        let done = t.referee.tick(&mut t.store, when).unwrap();
        assert_eq!(done[0].summary, "turn 4: 36 hours lapsed, Illegal");
        assert_eq!(t.turns(), 3);

        // A contested Buzz whose defence is left unanswered stands.
        let mut t = opening();
        step(&mut t, "acton", buzz(4));
        step(
            &mut t,
            "rushton",
            Workflow::Contest {
                text: String::new(),
            },
        );
        let when = t.referee.next_due().unwrap();
        let done = t.referee.tick(&mut t.store, when).unwrap();
        assert_eq!(done[0].summary, "turn 4: 36 hours lapsed, Legal");
        assert_eq!(t.turns(), 4);
    }

    #[test]
    fn buzz_limits_of_rule_1_16_2() {
        let mut t = opening();
        assert_eq!(step(&mut t, "rushton", buzz(4)).0, "buzz refused: own turn");
        assert_eq!(
            step(&mut t, "warren", buzz(9)).0,
            "buzz refused: no such turn"
        );
        t.play("warren", "Warren : [LV+1] South Wimbledon (NT)");
        t.play("acton", "Acton : [LV+1] Upminster Bridge (DS)");
        t.play("rushton", "Rushton : Debden (CN)");
        // Turn 1 has four turns after it now: too late.
        assert_eq!(step(&mut t, "warren", buzz(1)).0, "buzz refused: too late");
        assert_eq!(
            step(&mut t, "warren", Workflow::Concede).0,
            "nothing questionable"
        );
        // A Buzz in reply to turn 5's verdict buzzes turn 5.
        let verdict_of_5 = mornbot::mail::outbound::reply_id(
            &t.store.turns("MN1").unwrap()[4].message_id,
            0,
            &me(),
        );
        let mut l = t.letter(
            "acton",
            Request::Workflow(Workflow::Buzz {
                player: None,
                turn: None,
                reason: "see above".into(),
            }),
            "",
        );
        l.references = vec![verdict_of_5];
        t.send(l);
        assert_eq!(
            t.referee
                .live(&t.store, "MN1")
                .unwrap()
                .questionable
                .as_ref()
                .unwrap()
                .turn,
            5
        );
        // No take-back while a turn is buzzed (Rule 1.3.3).
        let l = t.letter("rushton", Request::TakeBack(None), "");
        assert_eq!(t.send(l).0, "take-back refused");
        let l = t.letter("acton", Request::Workflow(Workflow::Withdraw), "");
        t.send(l);
        // Withdrawn by its maker: the turn is Legal again.
        step(&mut t, "warren", buzz(4));
        step(&mut t, "warren", Workflow::Withdraw);
        assert!(t
            .referee
            .live(&t.store, "MN1")
            .unwrap()
            .questionable
            .is_none());
        assert_eq!(t.turns(), 7);
    }
}

mod winning {
    use super::*;
    use mornbot::daemon::referee::Workflow;

    /// A game whose last turn (Rushton's) won: the engine's winner is set
    /// directly, as reaching Mornington Crescent from the start takes a
    /// long game (the engine's own winning cases are in fixtures/cases).
    fn won() -> T {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        assert!(t
            .referee
            .edit_game(&mut t.store, "MN1", |g| g.game.state.winner =
                Some("Rushton".into()))
            .unwrap());
        t
    }

    #[test]
    fn the_game_ends_when_every_other_player_says_no_buzz() {
        let mut t = won();
        let l = t.letter("warren", Request::Workflow(Workflow::NoBuzz), "No buzz");
        assert_eq!(t.send(l).0, "no buzz acknowledged");
        // The winner cannot acknowledge eir own turn.
        let l = t.letter("rushton", Request::Workflow(Workflow::NoBuzz), "No buzz");
        assert_eq!(t.send(l).0, "no buzz refused");
        let l = t.letter("acton", Request::Workflow(Workflow::NoBuzz), "No buzz");
        let (s, mails) = t.send(l);
        assert_eq!(s, "no buzz: game over");
        assert_eq!(
            headline(&mails[0]),
            "Game over: Rushton wins",
            "{}",
            mails[0]
        );
        assert!(t.referee.live(&t.store, "MN1").unwrap().ended);
        // Turns are refused now.
        assert_eq!(t.play("warren", "Warren : Pass").0, "game over");
    }

    #[test]
    fn an_unbuzzed_win_ends_the_game_after_the_window() {
        let mut t = won();
        let due = t.referee.next_due().unwrap();
        // Turn 1 arrived 09:01 Monday; the window is 36 hours.
        assert_eq!(
            due,
            at(1) + chrono::Duration::hours(36) + chrono::Duration::milliseconds(1)
        );
        let done = t.referee.tick(&mut t.store, due).unwrap();
        assert_eq!(done[0].summary, "game over");
        assert!(t.referee.tick(&mut t.store, due).unwrap().is_empty());
        assert_eq!(t.referee.next_due(), None);
    }
}

#[test]
fn the_drone_stick_carrier_submits_the_drones_turns() {
    let mut t = T::new();
    // Every game has a Drone, last in order, Inactive with no Stick in play.
    assert_eq!(
        t.referee.live(&t.store, "MN1").unwrap().game.state.players[3].name,
        "Drone"
    );
    assert!(!t.referee.live(&t.store, "MN1").unwrap().game.state.players[3].active);
    // Rushton carries the Drone Stick from the start.
    assert!(t
        .referee
        .edit_game(&mut t.store, "MN1", |live| {
            live.game.start.players[0]
                .possessions
                .push(mornbot::gsd::Possession::of(mornbot::gsd::Good::DroneStick));
            live.game.start.refresh_drone();
            live.game.truncate(Map::london_1999(), 0);
        })
        .unwrap());
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
    t.play("acton", "Acton : Upminster (DS) [Home: Hornchurch]");
    assert_eq!(
        t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
        "Drone"
    );
    // Only the carrier may submit the Drone's Turn.
    let (s, _) = t.play("warren", "Drone : Pass");
    assert_eq!(s, "spoofed player");
    assert_eq!(t.turns(), 3);
    let (s, _) = t.play("rushton", "Drone : Pass");
    assert_eq!(s, "legal");
    assert_eq!(t.turns(), 4);
    assert_eq!(
        t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
        "Rushton"
    );
}

/// Input that once crashed mornbot, found by the panic audit and its fuzz
/// targets: each must now get an answer (a reply, an error, a verdict) and
/// never a panic. The daemon reads mail from strangers, so a crash here is
/// a crash loop (the mail is read again after every restart).
mod hostile_input {
    use super::{at, game, me, origin};
    use mornbot::config::{Config, SpeakerConfig};
    use mornbot::daemon::letter::{letter, Context};
    use mornbot::daemon::referee::Referee;
    use mornbot::mail::inbound::Limits;
    use mornbot::map::Map;
    use mornbot::store::Store;

    fn setup(speaker: SpeakerConfig) -> (Referee, Store, Context) {
        let map = Map::london_1999();
        let mut store = Store::in_memory().unwrap();
        let referee = Referee::load(map, me(), speaker, &[game()], &mut store, at(0)).unwrap();
        let ctx = Context {
            map,
            limits: Limits {
                own_addresses: vec![me().address],
                list_address: Some(me().lounge),
                ..Limits::default()
            },
            bot: me().address,
            clock: mornbot::daemon::clock::Clock::System,
            lounge: me().lounge,
            list_id: None,
        };
        (referee, store, ctx)
    }

    /// Handles one raw mail and returns every mail the bot has queued.
    fn handle(raw: &str) -> Vec<String> {
        let (mut referee, mut store, ctx) = setup(SpeakerConfig::default());
        let l = letter(raw.as_bytes(), &ctx, &referee);
        referee.handle(&mut store, origin(), &l, at(1)).unwrap();
        store
            .all_mail()
            .unwrap()
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).into_owned())
            .collect()
    }

    #[test]
    fn a_caret_under_text_that_grows_when_lower_cased() {
        // `İ` lower-cases to one byte more: the caret once sliced the play at
        // a wrong offset, inside `é`, on every buzz of such a play.
        let c = mornbot::mail::render::caret(
            "Dee : {İ} [Purchasing Hat (ééé)] Southfields (DS)",
            Some("ééé"),
        );
        assert!(c.contains('^'), "{c}");
        let out = handle("From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\nMessage-ID: <t1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nRushton : {İ} Epping (CN) [Home: Hainault] [Purchasing Hat (ééé)]\r\n");
        assert!(
            out.iter()
                .any(|m| m.contains("Subject: [MN1] Buzz:") && m.contains("^~~")),
            "{out:?}"
        );
    }

    #[test]
    fn a_stranger_with_a_non_ascii_subject_gets_a_reply() {
        // The reply's "Re:" test once cut the Subject at byte 3, inside `é`.
        let out = handle("From: stranger@example.net\r\nTo: mornbot@example.test\r\nSubject: \u{e9}\u{e9}\r\nMessage-ID: <s1@example.net>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n");
        assert!(!out.is_empty());
    }

    #[test]
    fn an_absurd_token_count_is_a_parse_error_not_an_overflow() {
        let out = handle("From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\nMessage-ID: <h1@example.org>\r\nContent-Type: text/plain\r\n\r\nRushton : [Home: Hainault] [Hoarding 4294967295Re,1Bu] Epping (CN)\r\n");
        assert!(!out.is_empty());
    }

    #[test]
    fn a_token_stack_on_a_ghost_station_is_refused() {
        let gsd = "+-----------+------------+----+-----+----------------------+\r\n\
    | Player    | Home       | LV |  Ch | Bk Bu Br Go Gr Re Si |\r\n\
    +-----------+------------+----+-----+----------------------+\r\n\
    | Rushton   |            |  0 |   0 |  2  0  2  0  0  2  0 |\r\n\
    | Warren    |            |  0 |   0 |  2  0  2  0  0  2  0 |\r\n\
    | Acton     |            |  0 |   0 |  2  0  2  0  0  2  0 |\r\n\
    +-----------+------------+----+-----+----------------------+\r\n\
    \r\n\
    +- Token Stacks -------------------------------------------------------+\r\n\
    | Aldwych            | ReSi         |\r\n\
    +----------------------------------------------------------------------+\r\n";
        let err =
            mornbot::gsd::parse_gsd(&gsd.replace("\r\n", "\n"), Map::london_1999()).unwrap_err();
        assert!(err.to_string().contains("Ghost Station"), "{err}");
        let out = handle(&format!("From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\nMessage-ID: <g1@example.org>\r\nContent-Type: text/plain\r\n\r\n{gsd}\r\nRushton : Epping (CN) [Home: Hainault]\r\n"));
        assert!(!out.is_empty());
    }

    #[test]
    fn out_of_range_numbers_in_a_gsd_are_parse_errors() {
        let row = |lv: &str, ch: &str, si: &str| {
            format!("+-----+------+----+-----+----------------------+\n| Player | Home | LV | Ch | Bk Bu Br Go Gr Re Si |\n+-----+------+----+-----+----------------------+\n| Dee |  | {lv} | {ch} | 1 1 1 1 1 1 {si} |\n+-----+------+----+-----+----------------------+\n")
        };
        let map = Map::london_1999();
        assert!(mornbot::gsd::parse_gsd(&row("1", "0", "1"), map).is_ok());
        for (lv, ch, si, what) in [
            ("4294967295", "0", "1", "LV"),
            ("1", "-2147483648", "1", "Charge"),
            ("1", "1000", "1", "Charge"),
            ("1", "0", "4294967295", "Silver"),
        ] {
            let err = mornbot::gsd::parse_gsd(&row(lv, ch, si), map).unwrap_err();
            assert!(err.to_string().contains(what), "{what}: {err}");
        }
    }

    #[test]
    fn a_via_list_longer_than_any_route_is_refused() {
        let via = ["CN"; 41].join(",");
        let map = Map::london_1999();
        assert!(mornbot::gsd::parse_play(&format!("Dee : Bank (CN via: {via})"), map).is_err());
        let via = ["CN"; 3].join(",");
        assert!(mornbot::gsd::parse_play(&format!("Dee : Bank (CN via: {via})"), map).is_ok());
    }

    #[test]
    fn a_multipart_mail_that_trips_mail_parser_is_unreadable_not_fatal() {
        // Found by the mail fuzz target: mail-parser 0.11 `debug_assert!`s on it.
        let raw = b"Content-Type: multipart;boundary=DSN\r\n\n--DSNContent-Type:message/rfc822\n\nContent-Type:message/rfc822\n\n\n--DSN--";
        let _ = mornbot::mail::inbound::parse(raw, &Limits::default());
    }

    #[test]
    fn deadlines_beyond_the_calendar_are_refused_in_the_config() {
        for extra in [
            "[speaker]\nreminder_hours = 4294967295\n",
            "[speaker]\nwin_window_hours = 4294967295\n",
            "[outbox]\nunconfirmed_wait_secs = 9223372036854775807\n",
        ] {
            let cfg =
                Config::from_toml(&format!("[bot]\ndata_dir = \"data\"\n{extra}"), "test").unwrap();
            assert!(cfg.validate().is_err(), "{extra}");
        }
        let cfg = Config::from_toml(
            "[bot]\ndata_dir = \"data\"\n[speaker]\nreminder_hours = 24\n",
            "test",
        )
        .unwrap();
        assert!(cfg.validate().is_ok());
    }
}
