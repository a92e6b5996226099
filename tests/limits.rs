//! Bounded work per mail (issue 14, findings 1 and 4): the `[limits]` are
//! checked before the work they bound, so a 1 MiB mail of commands or a
//! play of 145,000 Actions is refused in a moment with a small reply that
//! names the limit, and the next mail is judged. STATUS tells a stranger
//! who plays, not where to mail them (finding 7).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::time::{Duration, Instant};

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
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        T {
            referee,
            store,
            ctx,
            // The game starts at 09:00; turns come from 09:10 on.
            n: 10,
        }
    }

    /// Posts `body` from `who` to the lounge; returns the summary and the
    /// bytes of the replies queued.
    fn post(&mut self, who: &str, body: &str) -> (String, usize) {
        self.n += 1;
        let raw = format!(
            "From: {who}@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] play\r\n\
             Message-ID: <a{}@example.org>\r\n\r\n{}\r\n",
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
        let bytes = self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| m.raw.len())
            .sum();
        (h.summary, bytes)
    }

    fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }
}

const FIRST: &str = "Rushton : Morden (NT) [Home: Tooting Broadway]";

/// Posts and asserts the mail was refused, quickly, with a small reply
/// naming `key`, and that it changed nothing.
fn refused(t: &mut T, who: &str, body: &str, key: &str) {
    let turns = t.turns();
    let started = Instant::now();
    let (summary, bytes) = t.post(who, body);
    let took = started.elapsed();
    assert!(summary.contains(key), "{key}: {summary}");
    assert!(bytes > 0 && bytes < 8192, "{key}: a {bytes}-byte reply");
    assert!(took < Duration::from_secs(2), "{key}: took {took:?}");
    assert_eq!(t.turns(), turns, "{key}: nothing changed");
}

#[test]
fn a_mail_of_commands_over_the_limit_is_refused_in_a_moment() {
    let mut t = T::new();
    // RULES x 40,000 once made a 504 MB reply; 1 MiB of it ran 70 s and
    // died at 6.4 GB.
    refused(
        &mut t,
        "warren",
        &"RULES\n".repeat(40_000),
        "commands_per_mail",
    );
    refused(
        &mut t,
        "warren",
        &"RULES\n".repeat(149_000),
        "commands_per_mail",
    );
    refused(
        &mut t,
        "warren",
        &"GSD MN1\n".repeat(11),
        "commands_per_mail",
    );
    // Ten are answered, in one reply under the reply cap.
    let (summary, bytes) = t.post("warren", &"GSD MN1\n".repeat(10));
    assert_eq!(summary, "10 commands");
    assert!(bytes < 262_144 + 4096, "{bytes}");
    // And the next turn is judged.
    let (summary, _) = t.post("rushton", FIRST);
    assert_eq!(summary, "legal");
}

#[test]
fn a_play_or_gsd_over_the_limits_is_refused_before_it_is_parsed() {
    let mut t = T::new();
    let lv = format!(
        "Rushton : {}Morden (NT) [Home: Tooting Broadway]",
        "[LV+1] ".repeat(145_000)
    );
    refused(&mut t, "rushton", &lv, "actions_per_play");
    let blocking = format!(
        "Rushton : Morden (NT) [Home: Tooting Broadway] {}",
        "[Blocking Euston] ".repeat(10_000)
    );
    refused(&mut t, "rushton", &blocking, "actions_per_play");
    // Forty Actions are still read (and judged on their merits).
    let forty = format!(
        "Rushton : Morden (NT) [Home: Tooting Broadway] {}",
        "[LV+1] ".repeat(39)
    );
    let (summary, _) = t.post("rushton", &forty);
    assert!(!summary.contains("actions_per_play"), "{summary}");
    let (summary, _) = t.post("rushton", FIRST);
    assert_eq!(summary, "legal");
}

#[test]
fn status_shows_addresses_to_the_games_players_only() {
    let mut t = T::new();
    let status = |t: &mut T, who: &str| {
        let before = t.store.all_mail().unwrap().len();
        t.post(who, "STATUS MN1");
        t.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).to_string())
            .collect::<String>()
    };
    let player = status(&mut t, "warren");
    assert!(player.contains("rushton@example.org"), "{player}");
    let stranger = status(&mut t, "eve");
    assert!(stranger.contains("Rushton"), "{stranger}");
    assert!(!stranger.contains("rushton@example.org"), "{stranger}");
    assert!(!stranger.contains("acton@example.org"), "{stranger}");
}
