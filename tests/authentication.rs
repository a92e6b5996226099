//! One authentication gate (issue 14, finding 2; RULINGS L7): with a
//! trusted authserv-id configured, a mail without an aligned pass from
//! that server changes nothing and is never answered, whatever it asks: a
//! turn, a take-back, a Buzz, a Concede, the Speaker's Judgment or
//! command, or a mere HELP. The same mail with the pass is judged.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

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
        let game = GameConfig {
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
        };
        let speaker = SpeakerConfig {
            addresses: vec!["speaker@example.org".into()],
            ..SpeakerConfig::default()
        };
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker,
            &[game],
            &mut store,
            at(0),
        )
        .unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        cfg.bot.trusted_authserv_id = Some("mx.example.test".into());
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        T {
            referee,
            store,
            ctx,
            // The game starts at 09:00; turns come from 09:10 on.
            n: 10,
        }
    }

    /// Posts `body` from `who` to the lounge, with the trusted server's
    /// DMARC pass when `signed`; returns the kind, the summary and the
    /// number of replies queued.
    fn post(&mut self, signed: bool, who: &str, body: &str) -> (String, String, usize) {
        self.n += 1;
        let ar = if signed {
            "Authentication-Results: mx.example.test; dmarc=pass header.from=example.org\r\n"
        } else {
            ""
        };
        let raw = format!(
            "{ar}From: {who}@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] play\r\n\
             Message-ID: <a{}@example.org>\r\n\r\n{}\r\n",
            self.n,
            body.replace('\n', "\r\n")
        );
        let l = letter(raw.as_bytes(), &self.ctx, &self.referee);
        let origin = Origin {
            source: "test".into(),
            uidvalidity: None,
            uid: None,
        };
        let h = self
            .referee
            .handle(&mut self.store, origin, &l, at(self.n))
            .unwrap();
        (h.kind, h.summary, h.replies)
    }

    fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }

    fn questionable(&self) -> bool {
        self.referee.games["MN1"].questionable.is_some()
    }
}

/// A legal first turn.
const FIRST: &str = "Rushton : Morden (NT) [Home: Tooting Broadway]";

/// Asserts an unsigned mail is refused silently, changing nothing.
fn refused_silently(t: &mut T, who: &str, body: &str) {
    let (turns, q) = (t.turns(), t.questionable());
    let (kind, summary, replies) = t.post(false, who, body);
    assert_eq!(kind, "auth", "{who}: {body}: {summary}");
    assert!(summary.starts_with("authentication failed"), "{summary}");
    assert_eq!(replies, 0, "{who}: {body}: never answered");
    assert_eq!((t.turns(), t.questionable()), (turns, q), "{body}");
}

#[test]
fn turns_take_backs_and_commands_need_the_trusted_pass() {
    let mut t = T::new();
    refused_silently(&mut t, "rushton", FIRST);
    assert_eq!(t.turns(), 0);
    let (kind, summary, replies) = t.post(true, "rushton", FIRST);
    assert_eq!((kind.as_str(), summary.as_str()), ("turn", "legal"));
    assert!(replies > 0);
    // A forged take-back, or a forged HELP, is not answered either.
    refused_silently(&mut t, "rushton", "Take back my turn.");
    assert_eq!(t.turns(), 1);
    refused_silently(&mut t, "warren", "HELP");
    let (_, summary, replies) = t.post(true, "warren", "HELP");
    assert_eq!((summary.as_str(), replies), ("1 commands", 1));
}

#[test]
fn buzz_workflow_steps_need_the_trusted_pass() {
    let mut t = T::new();
    let first = t.post(true, "rushton", FIRST);
    assert_eq!(t.turns(), 1, "{first:?}");
    refused_silently(&mut t, "warren", "Buzz: Rushton's turn 1: Morden is wrong");
    assert!(!t.questionable());
    let (_, summary, _) = t.post(true, "warren", "Buzz: Rushton's turn 1: Morden is wrong");
    assert!(summary.starts_with("Buzz"), "{summary}");
    assert!(t.questionable());
    // A forged Concede from the buzzed player would delete the turn.
    refused_silently(&mut t, "rushton", "Concede");
    assert!(t.questionable());
    assert_eq!(t.turns(), 1);
    refused_silently(&mut t, "warren", "I withdraw my Buzz.");
    assert!(t.questionable());
}

#[test]
fn the_speakers_judgments_and_commands_need_the_trusted_pass() {
    let mut t = T::new();
    t.post(true, "rushton", FIRST);
    refused_silently(&mut t, "speaker", "VOID MN1");
    assert_eq!(t.turns(), 1);
    refused_silently(&mut t, "speaker", "RESIGN Warren MN1");
    assert_eq!(t.referee.games["MN1"].game.to_play(), "Warren");
    let (kind, summary, _) = t.post(true, "speaker", "VOID MN1");
    assert_eq!(kind, "speaker", "{summary}");
    assert_eq!(t.turns(), 0);
    // A Judgment from the Speaker's address, unsigned, settles nothing.
    t.post(
        true,
        "rushton",
        "Rushton : Epping (CN) [Home: Hainault] [Attracting]",
    );
    assert!(t.referee.games["MN1"].pending.is_some());
    refused_silently(&mut t, "speaker", "Judgment: Legal");
    assert!(t.referee.games["MN1"].pending.is_some());
    assert_eq!(t.turns(), 0);
}
