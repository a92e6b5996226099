//! The lobby by mail, embedded: raw mail through `letter` into the
//! referee, the replies read back from the outbox (tests/lobby_mail.rs,
//! tests/lobby_limits.rs).

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, LobbyConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::Referee;
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

pub const BOT: &str = "mornbot@example.test";
pub const LOUNGE: &str = "lounge@example.test";

pub fn me() -> Identity {
    Identity {
        address: BOT.into(),
        name: "mornbot".into(),
        lounge: LOUNGE.into(),
    }
}

pub fn speaker() -> SpeakerConfig {
    SpeakerConfig {
        addresses: vec!["speaker@example.org".into()],
        ..SpeakerConfig::default()
    }
}

/// A configured game, whose order of play the draw takes into account.
pub fn mn1() -> GameConfig {
    GameConfig {
        tag: "MN1".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Acton", "Warren"]
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

/// A mail the bot queued: to whom (but the bot), and its text
/// (unwrapped).
#[derive(Debug)]
pub struct Mail {
    pub to: String,
    pub text: String,
    /// Whether the bot is a blind recipient too (a private mail's copy
    /// that confirms its delivery).
    pub to_bot: bool,
}

pub struct T {
    pub referee: Referee,
    pub store: Store,
    pub ctx: Context,
    pub lobby: LobbyConfig,
    pub n: i64,
    /// Minutes between two mails.
    pub step: i64,
}

impl T {
    pub fn new(lobby: LobbyConfig) -> T {
        let mut store = Store::in_memory().unwrap();
        let referee = load(&mut store, &lobby, 0);
        let mut cfg = Config::default();
        cfg.bot.address = BOT.into();
        cfg.bot.lounge = LOUNGE.into();
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        T {
            referee,
            store,
            ctx,
            lobby,
            n: 0,
            step: 1,
        }
    }

    /// Sends `body` from `who@example.org` to the bot; returns the summary
    /// and every mail queued.
    pub fn send(&mut self, who: &str, subject: &str, body: &str) -> (String, Vec<Mail>) {
        self.n += 1;
        let raw = format!(
            "From: {who}@example.org\r\nTo: {BOT}\r\nSubject: {subject}\r\n\
             Message-ID: <l{}@example.org>\r\n\r\n{}\r\n",
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
        let when = at(self.n * self.step);
        let h = self
            .referee
            .handle(&mut self.store, origin, &l, when)
            .unwrap();
        let new = self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| {
                let raw = String::from_utf8_lossy(&m.raw).replace("\r\n", "\n");
                super::assert_reads_well(&raw);
                let to: Vec<&str> = m.recipients.iter().map(String::as_str).collect();
                Mail {
                    to: to
                        .iter()
                        .filter(|a| **a != BOT)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(","),
                    text: unwrap(&raw),
                    to_bot: to.contains(&BOT),
                }
            })
            .collect();
        (h.summary, new)
    }

    /// `who` joins `tag` as `name` and confirms from the same address.
    pub fn join(&mut self, who: &str, tag: &str, name: &str) -> Vec<Mail> {
        let (s, mails) = self.send(who, "join", &format!("JOIN {tag} as {name}"));
        assert!(s.contains("awaiting confirmation"), "{s}: {mails:?}");
        let token = token_in(&mails).expect("a token");
        let (s, mails) = self.send(who, "Re: join", &format!("CONFIRM {token}"));
        assert!(s.contains(&format!("{name} joins {tag}")), "{s}: {mails:?}");
        mails
    }

    pub fn restart(&mut self) {
        self.referee = load(&mut self.store, &self.lobby, self.n * self.step);
    }
}

pub fn load(store: &mut Store, lobby: &LobbyConfig, min: i64) -> Referee {
    let mut r = Referee::load(
        Map::london_1999(),
        me(),
        speaker(),
        &[mn1()],
        store,
        at(min),
    )
    .unwrap();
    r.open_lobby(store, lobby.clone(), &mut || Ok([42u8; 32]))
        .unwrap();
    r
}

/// A mail's text with its soft line breaks and encodings undone enough
/// to search (quoted-printable soft breaks, CRLF).
pub fn unwrap(raw: &str) -> String {
    raw.replace("\r\n", "\n")
        .replace("=\n", "")
        .replace("=3D", "=")
}

/// The confirmation token in the mails, if any.
pub fn token_in(mails: &[Mail]) -> Option<String> {
    mails.iter().find_map(|m| {
        let i = m.text.find("CONFIRM ")?;
        let t: String = m.text[i + 8..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .collect();
        (t.len() == 20).then_some(t)
    })
}

pub fn to_lounge(mails: &[Mail]) -> Vec<&Mail> {
    mails.iter().filter(|m| m.to == LOUNGE).collect()
}

/// The whole text of the mails, on one line, for searching.
pub fn flat(mails: &[&Mail]) -> String {
    mails
        .iter()
        .map(|m| m.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
