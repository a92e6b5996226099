//! The lounge without the mail servers: raw mail judged through
//! `process` (parse, classify, judge) into a referee on an in-memory store,
//! as the daemon does (tests/lounge_mail.rs, lounge_commands.rs,
//! lounge_digests.rs).

pub use chrono::{DateTime, TimeZone, Utc};
pub use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
pub use mornbot::daemon::letter::Context;
pub use mornbot::daemon::process;
pub use mornbot::daemon::referee::Referee;
pub use mornbot::mail::outbound::Identity;
pub use mornbot::map::Map;
pub use mornbot::store::{Origin, Store};

pub fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

pub fn game() -> GameConfig {
    GameConfig {
        tag: "MN1".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Warren", "Cryer"]
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

pub fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

pub struct Lounge {
    pub referee: Referee,
    pub store: Store,
    pub ctx: Context,
    pub n: i64,
}

/// One reply: its recipients and text.
#[derive(Debug)]
pub struct Reply {
    pub to: Vec<String>,
    pub text: String,
}

impl Lounge {
    pub fn new(list_id: Option<&str>) -> Lounge {
        Lounge::with_store(list_id, Store::in_memory().unwrap())
    }

    pub fn with_store(list_id: Option<&str>, mut store: Store) -> Lounge {
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut store,
            at(0),
        )
        .unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        cfg.bot.list_id = list_id.map(str::to_string);
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        Lounge {
            referee,
            store,
            ctx,
            n: 0,
        }
    }

    /// Judges a raw mail (LF line ends, sent as CRLF) as the daemon does,
    /// as IMAP UID `n` of the `INBOX`; returns the summary and the replies
    /// it queued.
    pub fn post(&mut self, raw: &str) -> (String, Vec<Reply>) {
        self.n += 1;
        self.judge(raw, self.n as u32).unwrap()
    }

    pub fn judge(
        &mut self,
        raw: &str,
        uid: u32,
    ) -> Result<(String, Vec<Reply>), mornbot::daemon::DaemonError> {
        let raw = raw.replace('\n', "\r\n");
        let before = self.store.all_mail().unwrap().len();
        let origin = Origin {
            source: "INBOX".into(),
            uidvalidity: Some(1),
            uid: Some(uid),
        };
        let h = process(
            &mut self.referee,
            &mut self.store,
            &self.ctx,
            raw.as_bytes(),
            origin,
            at(self.n),
            false,
        )?;
        let replies = self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| {
                let text = String::from_utf8_lossy(&m.raw).replace("\r\n", "\n");
                super::assert_reads_well(&text);
                Reply {
                    to: m.recipients.clone(),
                    text,
                }
            })
            .collect();
        Ok((h.summary, replies))
    }

    pub fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }
}

/// The headers of a post the list distributes (Mailman), from `from`.
pub fn post(from: &str, to: &str, subject: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}
To: {to}
List-Id: Lounge <lounge.example.test>
Precedence: list
Subject: {subject}
Message-ID: <{id}>

{body}"
    )
}

pub const FOOTER: &str = "_______________________________________________
lounge mailing list
lounge@example.test
https://lists.example.test/mailman/listinfo/lounge
";
