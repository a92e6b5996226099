//! The Speaker by mail (issue 13, item 4): Judgments that settle a turn
//! the engine refused or could not judge (and apply it), a GSD from the
//! Speaker carrying it, and the Speaker's commands; raw mail through
//! `letter` into the referee, and a restart that agrees.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::Referee;
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

fn speaker() -> SpeakerConfig {
    SpeakerConfig {
        addresses: vec!["speaker@example.org".into()],
        ..SpeakerConfig::default()
    }
}

fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

struct T {
    referee: Referee,
    store: Store,
    ctx: Context,
    n: i64,
}

impl T {
    fn new() -> T {
        let mut store = Store::in_memory().unwrap();
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker(),
            &[game()],
            &mut store,
            at(0),
        )
        .unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        T {
            referee,
            store,
            ctx,
            n: 0,
        }
    }

    /// Posts `body` from `who` (to the lounge); returns the summary and the
    /// text of every reply queued.
    fn post(&mut self, who: &str, subject: &str, body: &str) -> (String, Vec<String>) {
        self.send(who, "lounge@example.test", subject, body)
    }

    /// Sends `body` from `who` to `to`.
    fn send(&mut self, who: &str, to: &str, subject: &str, body: &str) -> (String, Vec<String>) {
        self.n += 1;
        let raw = format!(
            "From: {who}@example.org\r\nTo: {to}\r\nSubject: {subject}\r\n\
             Message-ID: <s{}@example.org>\r\n\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let l = letter(raw.as_bytes(), &self.ctx, &self.referee);
        let before = self.store.all_mail().unwrap().len();
        let origin = Origin {
            source: "test".into(),
            uidvalidity: None,
            uid: None,
        };
        let h = self
            .referee
            .handle(&mut self.store, origin, &l, at(self.n))
            .unwrap();
        let new = self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| support::read_well(&m.raw).replace("\r\n", "\n"))
            .collect();
        (h.summary, new)
    }

    fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }

    fn to_play(&self) -> String {
        self.referee
            .live(&self.store, "MN1")
            .unwrap()
            .game
            .to_play()
            .to_string()
    }

    /// A restart: the games rebuilt from the store.
    fn restart(&mut self) {
        self.referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker(),
            &[game()],
            &mut self.store,
            at(self.n),
        )
        .unwrap();
    }
}

/// A first turn with an Action the engine leaves to a human.
const RULING: &str = "Rushton : Epping (CN) [Home: Hainault] [Taking a Bow]";

#[test]
fn a_turn_needing_a_ruling_is_applied_when_the_speaker_judges_it_legal() {
    let mut t = T::new();
    let (s, mails) = t.post("rushton", "[MN1] turn", RULING);
    assert_eq!(s, "needs ruling", "{mails:?}");
    assert_eq!(t.turns(), 0);
    // A player cannot judge it.
    let (s, _) = t.post("warren", "Re: [MN1] turn", "Judgment: Legal");
    assert_ne!(s, "speaker judgment: Legal");
    assert_eq!(t.turns(), 0);
    let (s, mails) = t.post("speaker", "Re: [MN1] turn", "Judgment: Legal");
    assert_eq!(s, "speaker judgment: Legal", "{mails:?}");
    assert_eq!(t.turns(), 1);
    assert_eq!(t.to_play(), "Warren");
    let all = mails
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(all.contains("Legal"), "{all}");
    assert!(all.contains("It is Warren's turn"), "{all}");
    // A restart replays the judged turn and agrees.
    t.restart();
    assert_eq!(t.to_play(), "Warren");
    assert!(t.referee.live(&t.store, "MN1").unwrap().pending.is_none());
    // Play goes on.
    let (s, _) = t.post(
        "warren",
        "[MN1] turn",
        "Warren : Morden (NT) [Home: Tooting Broadway]",
    );
    assert_eq!(s, "legal");
}

#[test]
fn the_speaker_judging_it_illegal_leaves_the_turn_with_its_player() {
    let mut t = T::new();
    t.post("rushton", "[MN1] turn", RULING);
    let (s, mails) = t.post("speaker", "Re: [MN1] turn", "Judgment: Illegal");
    assert_eq!(s, "speaker judgment: Illegal", "{mails:?}");
    assert_eq!(t.turns(), 0);
    assert_eq!(t.to_play(), "Rushton");
    assert!(
        mails.join("\n").contains("It is Rushton's turn, due by"),
        "{mails:?}"
    );
    t.restart();
    assert!(t.referee.live(&t.store, "MN1").unwrap().pending.is_none());
    // Nothing is left to judge.
    let (s, _) = t.post("speaker", "Re: [MN1] turn", "Judgment: Legal");
    assert_eq!(s, "speaker judgment: nothing pending");
}

#[test]
fn a_turn_the_engine_refused_is_applied_when_the_speaker_judges_it_legal() {
    let mut t = T::new();
    t.post(
        "rushton",
        "[MN1] turn",
        "Rushton : Epping (CN) [Home: Hainault]",
    );
    // The engine refuses this (no Home given) and buzzes it.
    let (s, _) = t.post(
        "warren",
        "[MN1] turn",
        "Warren : [LV+1] Tooting Broadway (NT)",
    );
    assert_eq!(s, "illegal");
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .questionable
        .is_some());
    let (s, mails) = t.post("speaker", "Re: [MN1] BUZZ", "Judgment: Legal");
    assert!(s.contains("Legal"), "{s}: {mails:?}");
    assert_eq!(t.turns(), 2, "{mails:?}");
    assert_eq!(t.to_play(), "Acton");
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .questionable
        .is_none());
    let all = mails
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(all.contains("Legal by Judgment"), "{mails:?}");
    t.restart();
    assert_eq!(t.to_play(), "Acton");
    assert_eq!(t.turns(), 2);
}

#[test]
fn a_gsd_from_the_speaker_carrying_the_pending_turn_settles_it() {
    let mut t = T::new();
    t.post("rushton", "[MN1] turn", RULING);
    let mut gsd = mornbot::gsd::render(
        &t.referee
            .live(&t.store, "MN1")
            .unwrap()
            .game
            .gsd(Map::london_1999()),
    );
    gsd.push_str(&format!("{RULING}\n"));
    let (s, mails) = t.post("speaker", "[MN1] GSD", &gsd);
    assert_eq!(s, "speaker judgment: Legal", "{mails:?}");
    assert_eq!(t.turns(), 1);
}

#[test]
fn speaker_commands_resign_void_pause_and_resume() {
    let mut t = T::new();
    t.post(
        "rushton",
        "[MN1] turn",
        "Rushton : Epping (CN) [Home: Hainault]",
    );
    t.post(
        "warren",
        "[MN1] turn",
        "Warren : Morden (NT) [Home: Tooting Broadway]",
    );
    assert_eq!(t.turns(), 2);
    // Only the Speaker may.
    let (_, mails) = t.send("acton", "mornbot@example.test", "[MN1]", "VOID MN1");
    assert_eq!(t.turns(), 2, "{mails:?}");
    let (s, mails) = t.send("speaker", "mornbot@example.test", "[MN1]", "VOID MN1");
    assert_eq!(s, "speaker commands", "{mails:?}");
    assert_eq!(t.turns(), 1);
    assert_eq!(t.to_play(), "Warren");
    let (_, mails) = t.send("speaker", "mornbot@example.test", "[MN1]", "PAUSE MN1");
    let all = mails
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(all.contains("pauses MN1"), "{mails:?}");
    assert!(t.referee.next_due().is_none(), "no deadline while paused");
    let (s, _) = t.post(
        "warren",
        "[MN1] turn",
        "Warren : Morden (NT) [Home: Tooting Broadway]",
    );
    assert_eq!(s, "paused");
    t.restart();
    assert!(t.referee.live(&t.store, "MN1").unwrap().paused);
    t.send("speaker", "mornbot@example.test", "[MN1]", "RESUME MN1");
    assert!(!t.referee.live(&t.store, "MN1").unwrap().paused);
    assert!(t.referee.next_due().is_some());
    let (_, mails) = t.send(
        "speaker",
        "mornbot@example.test",
        "[MN1]",
        "RESIGN Acton MN1",
    );
    let all = mails
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(all.contains("Resigns Acton"), "{mails:?}");
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .game
        .state
        .player_index("Acton")
        .is_none());
    t.restart();
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .game
        .state
        .player_index("Acton")
        .is_none());
}

#[test]
fn an_event_that_does_not_decode_stops_the_rebuild_with_a_clear_error() {
    let mut t = T::new();
    t.post(
        "rushton",
        "[MN1] turn",
        "Rushton : Epping (CN) [Home: Hainault]",
    );
    let commit = mornbot::store::Commit {
        events: vec![("MN1".into(), "resigned".into(), "{not json".into())],
        ..Default::default()
    };
    t.store.commit(&commit).unwrap();
    let err = Referee::load(
        Map::london_1999(),
        me(),
        speaker(),
        &[game()],
        &mut t.store,
        at(9),
    )
    .err()
    .expect("a game rebuilt without the event would be another game");
    let msg = err.to_string();
    assert!(
        msg.contains("MN1") && msg.contains("resigned") && msg.contains("does not decode"),
        "{msg}"
    );
}
