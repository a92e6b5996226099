//! The referee without the mail servers, and the mails it queues as a
//! reader sees them (tests/notices.rs, notices_workflow.rs,
//! notices_changes.rs).

pub use chrono::{DateTime, TimeZone, Utc};
pub use mornbot::config::{GameConfig, PlayerConfig, SpeakerConfig};
pub use mornbot::daemon::referee::{Letter, Referee, Request, Workflow};
pub use mornbot::mail::outbound::Identity;
pub use mornbot::map::Map;
pub use mornbot::store::{Origin, Store};

pub const ROOT: &str = "mn1.game@example.test";

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

pub fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

/// One mail as a reader sees it.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub date: DateTime<Utc>,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub body: String,
}

impl Mail {
    pub fn parse(raw: &[u8]) -> Mail {
        let text = String::from_utf8_lossy(raw).replace("\r\n", "\n");
        super::assert_reads_well(&text);
        let (head, body) = text.split_once("\n\n").expect("a body");
        // Unfold continued header lines.
        let head = head.replace("\n ", " ").replace("\n\t", " ");
        let header = |name: &str| {
            head.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
            })
        };
        let ids = |v: Option<String>| -> Vec<String> {
            v.unwrap_or_default()
                .split_whitespace()
                .map(|x| x.trim_matches(['<', '>']).to_string())
                .collect()
        };
        Mail {
            to: header("To").unwrap_or_default(),
            subject: header("Subject").unwrap_or_default(),
            date: DateTime::parse_from_rfc2822(&header("Date").unwrap())
                .unwrap()
                .with_timezone(&Utc),
            message_id: ids(header("Message-ID")).remove(0),
            in_reply_to: ids(header("In-Reply-To")).into_iter().next(),
            references: ids(header("References")),
            body: body.to_string(),
        }
    }

    /// The first line of the body.
    pub fn headline(&self) -> &str {
        self.body.lines().next().unwrap_or_default()
    }

    /// Whether the mail sits on the game's thread answering `id` (or
    /// answering nothing, under the root).
    pub fn on_thread(&self, answering: Option<&str>) -> bool {
        self.subject == format!("[MN1] {}", self.headline())
            && self.references.first().map(String::as_str) == Some(ROOT)
            && self.in_reply_to.as_deref() == Some(answering.unwrap_or(ROOT))
            && answering.is_none_or(|id| self.references.last().map(String::as_str) == Some(id))
    }
}

pub struct T {
    pub referee: Referee,
    pub store: Store,
    pub n: usize,
    pub seen: usize,
}

impl T {
    pub fn new() -> T {
        T::with(SpeakerConfig::default())
    }

    pub fn with(speaker: SpeakerConfig) -> T {
        T::with_game(speaker, game())
    }

    pub fn with_game(speaker: SpeakerConfig, game: GameConfig) -> T {
        let mut store = Store::in_memory().unwrap();
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker,
            &[game],
            &mut store,
            at(0),
        )
        .unwrap();
        T {
            referee,
            store,
            n: 0,
            seen: 0,
        }
    }

    pub fn letter(&mut self, from: &str, request: Request, body: &str) -> Letter {
        self.n += 1;
        Letter {
            message_id: format!("m{}@example.org", self.n),
            from: format!("{from}@example.org"),
            subject: "Re: [MN1] Game State".into(),
            references: vec![ROOT.into()],
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

    /// Sends a letter; returns its summary and the mails it caused.
    pub fn send(&mut self, l: Letter) -> (String, Vec<Mail>) {
        let h = self
            .referee
            .handle(&mut self.store, origin(), &l, at(self.n as i64))
            .unwrap();
        (h.summary, self.new_mail())
    }

    pub fn play(&mut self, from: &str, line: &str) -> (String, Vec<Mail>) {
        let req = Request::Turn {
            text: line.into(),
            gsd: false,
            line: 1,
            column: 1,
        };
        let l = self.letter(from, req, line);
        self.send(l)
    }

    pub fn step(&mut self, from: &str, w: Workflow, body: &str) -> (String, Vec<Mail>) {
        let l = self.letter(from, Request::Workflow(w), body);
        self.send(l)
    }

    pub fn tick(&mut self, now: DateTime<Utc>) -> Vec<Mail> {
        self.referee.tick(&mut self.store, now).unwrap();
        self.new_mail()
    }

    pub fn new_mail(&mut self) -> Vec<Mail> {
        let all = self.store.all_mail().unwrap();
        let new = all[self.seen..]
            .iter()
            .map(|m| Mail::parse(&m.raw))
            .collect();
        self.seen = all.len();
        new
    }

    pub fn last_id(&self) -> String {
        format!("m{}@example.org", self.n)
    }
}

pub fn origin() -> Origin {
    Origin {
        source: "test".into(),
        uidvalidity: None,
        uid: None,
    }
}

/// Four legal turns: Rushton, Warren, Acton, Rushton.
pub fn opening(t: &mut T) {
    for (who, p) in [
        ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
        ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
        ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
    ] {
        assert_eq!(t.play(who, p).0, "legal");
    }
}

pub fn buzz(turn: u64, reason: &str) -> Workflow {
    Workflow::Buzz {
        player: None,
        turn: Some(turn),
        reason: reason.into(),
    }
}

pub fn contest(text: &str) -> Workflow {
    Workflow::Contest { text: text.into() }
}

/// The prose of a body: its lines before the GSD (`Game MN1`) and the
/// signature, but for tables, quotes and indented blocks.
pub fn prose(body: &str) -> Vec<&str> {
    body.lines()
        .take_while(|l| *l != "-- " && !l.starts_with("Game MN1"))
        .filter(|l| !l.starts_with("    ") && !l.starts_with(['|', '+', '>']))
        .collect()
}
