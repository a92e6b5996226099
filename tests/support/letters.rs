//! Raw mail from players through `letter` into a referee on an in-memory
//! store: a three-player game MN1 and a Speaker, optionally behind a
//! trusted authserv-id (`mx.example.test`).

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::Referee;
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

/// A legal first turn.
pub const FIRST: &str = "Rushton : Morden (NT) [Home: Tooting Broadway]";

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

/// What handling one posted mail did.
pub struct Posted {
    /// The processed kind (`turn`, `auth`, `command`...).
    pub kind: String,
    /// The summary.
    pub summary: String,
    /// The replies queued, as text.
    pub replies: Vec<String>,
}

/// The game MN1 (Rushton, Warren, Acton; Speaker speaker@example.org).
pub struct Lounge {
    /// The referee.
    pub referee: Referee,
    /// Its store.
    pub store: Store,
    ctx: Context,
    n: i64,
}

impl Lounge {
    /// A new game; with `trusted`, mail needs that server's pass.
    pub fn new(trusted: Option<&str>) -> Lounge {
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
            picture: false,
            kind: Default::default(),
            deadline: None,
            kind_rulings: Default::default(),
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
        cfg.bot.trusted_authserv_id = trusted.map(str::to_string);
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        // The game starts at 09:00; turns come from 09:10 on.
        Lounge {
            referee,
            store,
            ctx,
            n: 10,
        }
    }

    /// Posts `body` from `who` to the lounge, with the trusted server's
    /// DMARC pass when `signed`.
    pub fn post(&mut self, signed: bool, who: &str, body: &str) -> Posted {
        self.post_dated(signed, who, body, None)
    }

    /// Posts like [`Lounge::post`], with a `Date:` header when `date` is
    /// given (RFC 5322 form).
    pub fn post_dated(
        &mut self,
        signed: bool,
        who: &str,
        body: &str,
        date: Option<&str>,
    ) -> Posted {
        self.n += 1;
        let date = date.map_or(String::new(), |d| format!("Date: {d}\r\n"));
        let ar = if signed {
            "Authentication-Results: mx.example.test; dmarc=pass header.from=example.org\r\n"
        } else {
            ""
        };
        let raw = format!(
            "{ar}{date}From: {who}@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] play\r\n\
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
        let replies = self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| String::from_utf8_lossy(&m.raw).to_string())
            .collect();
        Posted {
            kind: h.kind,
            summary: h.summary,
            replies,
        }
    }

    /// Lets `minutes` pass before the next post (one passes per post).
    pub fn wait(&mut self, minutes: i64) {
        self.n += minutes;
    }

    /// Turns logged.
    pub fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }

    /// Whether a turn is Questionable.
    pub fn questionable(&self) -> bool {
        self.referee
            .live(&self.store, "MN1")
            .unwrap()
            .questionable
            .is_some()
    }
}
