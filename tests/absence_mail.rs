//! Absences by mail (issue 17, item 3; RULINGS S27 - S29): a player away
//! stops eir turn's clock as a weekend does (Rule 1.3.5), the lounge is
//! told, the deadline and reminder move, a restart keeps them, the player
//! may come back early and the Speaker may refuse one; the limits of
//! `[absence]` and malformed lines are answered to the sender alone.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{AbsenceConfig, Config, GameConfig, PlayerConfig, SpeakerConfig};
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

fn games() -> Vec<GameConfig> {
    let game = |tag: &str, players: &[&str]| GameConfig {
        tag: tag.into(),
        start: "Monday 0900".into(),
        players: players
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
    vec![
        game("MN1", &["Rushton", "Warren", "Acton"]),
        game("MN2", &["Holborn", "Bank"]),
    ]
}

fn speaker() -> SpeakerConfig {
    SpeakerConfig {
        addresses: vec!["speaker@example.org".into()],
        ..SpeakerConfig::default()
    }
}

/// An instant in the week of Monday 16 November 2026.
fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// Monday 16 November 2026, 09:00: the games start.
fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap()
}

#[derive(Debug)]
struct Sent {
    to: String,
    text: String,
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
        let referee = Self::load(&mut store);
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

    fn load(store: &mut Store) -> Referee {
        Referee::load(
            Map::london_1999(),
            me(),
            speaker(),
            &games(),
            store,
            start(),
        )
        .unwrap()
    }

    fn restart(&mut self) {
        self.referee = Self::load(&mut self.store);
    }

    fn mails_since(&self, before: usize) -> Vec<Sent> {
        self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| {
                support::assert_reads_well(&String::from_utf8_lossy(&m.raw));
                Sent {
                    to: m.recipients.join(","),
                    text: flat(&String::from_utf8_lossy(&m.raw).replace("\r\n", "\n")),
                }
            })
            .collect()
    }

    /// Mails `body` from `who` to the bot at `now`: the summary and every
    /// mail queued.
    fn bot(&mut self, who: &str, body: &str, now: DateTime<Utc>) -> (String, Vec<Sent>) {
        self.n += 1;
        let raw = format!(
            "From: {who}@example.org\r\nTo: mornbot@example.test\r\nSubject: commands\r\n\
             Message-ID: <a{}@example.org>\r\nDate: {}\r\n\r\n{body}\r\n",
            self.n,
            now.to_rfc2822()
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
            .handle(&mut self.store, origin, &l, now)
            .unwrap();
        (h.summary, self.mails_since(before))
    }

    /// The Speaker's clock at `now`: what it did, and the mails queued.
    fn tick(&mut self, now: DateTime<Utc>) -> (Vec<String>, Vec<Sent>) {
        let before = self.store.all_mail().unwrap().len();
        let done = self.referee.tick(&mut self.store, now).unwrap();
        (
            done.into_iter().map(|h| h.summary).collect(),
            self.mails_since(before),
        )
    }

    fn deadline(&self, tag: &str) -> DateTime<Utc> {
        self.referee
            .live(&self.store, tag)
            .unwrap()
            .deadline()
            .unwrap()
    }
}

fn to<'a>(mails: &'a [Sent], who: &str) -> &'a str {
    mails
        .iter()
        .find(|m| m.to.contains(who))
        .map(|m| m.text.as_str())
        .unwrap_or_else(|| panic!("no mail to {who}"))
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn an_absence_moves_the_deadline_and_the_reminder_and_survives_a_restart() {
    let mut t0 = T::new();
    // Rushton moves first in MN1; 36 counted hours from Monday 09:00.
    assert_eq!(t0.deadline("MN1"), t("2026-11-17T21:00:00Z"));
    let (s, m) = t0.bot(
        "rushton",
        "ABSENCE 2026-11-17 MN1",
        t("2026-11-16T09:30:00Z"),
    );
    assert_eq!(s, "Rushton away in MN1");
    // Away all Tuesday: due Wednesday 21:00.
    assert_eq!(t0.deadline("MN1"), t("2026-11-18T21:00:00Z"));
    let lounge = to(&m, "lounge@example.test");
    assert!(
        lounge.contains("Rushton is away on Tue 17 Nov 2026 in MN1"),
        "{lounge}"
    );
    assert!(
        lounge.contains(
            "now due by Wed 18 Nov 2026 21:00 GMT (it was due by Tue 17 Nov 2026 21:00 GMT)"
        ),
        "{lounge}"
    );
    assert!(lounge.contains("REFUSE ABSENCE Rushton MN1"), "{lounge}");
    assert!(to(&m, "rushton@").contains("CANCEL ABSENCE MN1"));
    // The other game is not touched.
    assert_eq!(t0.deadline("MN2"), t("2026-11-17T21:00:00Z"));
    // STATUS shows it, and the moved deadline.
    let (_, m) = t0.bot("warren", "STATUS MN1", t("2026-11-16T09:40:00Z"));
    let status = to(&m, "warren@");
    assert!(
        status.contains("Rushton is away on Tue 17 Nov 2026: eir turn's clock stops"),
        "{status}"
    );
    assert!(status.contains("Wed 18 Nov 2026 21:00 GMT"), "{status}");

    t0.restart();
    assert_eq!(t0.deadline("MN1"), t("2026-11-18T21:00:00Z"));
    // The plain reminder (Tuesday 09:00) and Timeout (Tuesday 21:00) do not
    // come in MN1; MN2's do.
    let (done, m) = t0.tick(t("2026-11-17T22:00:00Z"));
    assert!(done.iter().all(|d| !d.contains("Rushton")), "{done:?}");
    assert!(m.iter().all(|m| !m.to.contains("rushton@")));
    assert!(
        done.iter().any(|d| d.contains("Timeout for Holborn")),
        "{done:?}"
    );
    // The reminder: 12 counted hours before Wednesday 21:00.
    // (MN2 goes on meanwhile: only MN1's acts are Rushton's.)
    let rushton = |d: Vec<String>| -> Vec<String> {
        d.into_iter().filter(|s| s.contains("Rushton")).collect()
    };
    let (done, _) = t0.tick(t("2026-11-18T08:59:00Z"));
    assert!(rushton(done.clone()).is_empty(), "{done:?}");
    let (done, m) = t0.tick(t("2026-11-18T09:00:00Z"));
    assert_eq!(
        rushton(done),
        vec!["reminded Rushton of turn 1".to_string()]
    );
    assert!(to(&m, "rushton@").contains("due by Wed 18 Nov 2026 21:00 GMT"));
    let (done, _) = t0.tick(t("2026-11-18T21:00:00Z"));
    assert!(
        rushton(done.clone()).is_empty(),
        "in time at the deadline: {done:?}"
    );
    let (done, _) = t0.tick(t("2026-11-18T21:00:01Z"));
    assert_eq!(
        rushton(done),
        vec!["Timeout for Rushton, turn 1".to_string()]
    );
}

#[test]
fn the_speaker_may_refuse_an_absence_and_a_player_may_come_back() {
    let mut t0 = T::new();
    let (_, m) = t0.bot(
        "rushton",
        "ABSENCE 2026-11-17 TO 2026-11-18",
        t("2026-11-16T09:30:00Z"),
    );
    assert_eq!(t0.deadline("MN1"), t("2026-11-19T21:00:00Z"));
    // Shown as written, the last day included (issue 39, item 6), though
    // it ends at Thursday's first instant.
    let lounge = to(&m, "lounge@example.test");
    assert!(
        lounge.contains("Rushton is away from Tue 17 Nov to Wed 18 Nov 2026 in MN1"),
        "{lounge}"
    );
    assert!(!lounge.contains("Thu 19 Nov 2026 00:00"), "{lounge}");
    assert!(to(&m, "rushton@").contains("You are away from Tue 17 Nov to Wed 18 Nov 2026 in MN1"));
    // Not the Speaker: refused, nothing changes.
    let (s, m) = t0.bot(
        "warren",
        "REFUSE ABSENCE Rushton MN1",
        t("2026-11-17T10:00:00Z"),
    );
    assert!(s.contains("not the Speaker"), "{s}");
    assert_eq!(m.len(), 1);
    assert!(to(&m, "warren@").contains("REFUSE ABSENCE is the Speaker's"));
    assert_eq!(t0.deadline("MN1"), t("2026-11-19T21:00:00Z"));
    // The Speaker refuses it at Tuesday noon: the twelve hours away still
    // do not count (RULINGS S28), the rest does: due Wednesday 09:00.
    let (s, m) = t0.bot(
        "speaker",
        "REFUSE ABSENCE rushton MN1",
        t("2026-11-17T12:00:00Z"),
    );
    assert_eq!(s, "Rushton's absence in MN1 ended");
    assert_eq!(t0.deadline("MN1"), t("2026-11-18T09:00:00Z"));
    // The lounge and the player are told, each in a mail of its own: no
    // lounge mail shows a player's address.
    for who in ["lounge@example.test", "rushton@example.org"] {
        let told = m
            .iter()
            .find(|m| m.to == who)
            .unwrap_or_else(|| panic!("{who} is told: {m:?}"));
        assert!(
            told.text
                .contains("The Speaker refuses Rushton's absence in MN1"),
            "{}",
            told.text
        );
        assert!(
            told.text.contains("now due by Wed 18 Nov 2026 09:00 GMT"),
            "{}",
            told.text
        );
    }
    assert!(
        m.iter().all(|m| !m.to.contains(',')),
        "one recipient a mail: {m:?}"
    );
    // Nothing left to refuse.
    let (s, _) = t0.bot(
        "speaker",
        "REFUSE ABSENCE Rushton MN1",
        t("2026-11-17T12:05:00Z"),
    );
    assert!(s.contains("none"), "{s}");

    // Warren sets one ahead and comes back before it begins: it is gone.
    t0.bot(
        "warren",
        "ABSENCE 2026-11-23 TO 2026-11-24",
        t("2026-11-17T13:00:00Z"),
    );
    assert_eq!(t0.referee.live(&t0.store, "MN1").unwrap().absences.len(), 2);
    let (s, m) = t0.bot("warren", "CANCEL ABSENCE", t("2026-11-17T14:00:00Z"));
    assert_eq!(s, "Warren's absence in MN1 ended");
    assert!(to(&m, "lounge@").contains("Warren is back in MN1"));
    t0.restart();
    let live = t0.referee.live(&t0.store, "MN1").unwrap();
    assert_eq!(live.absences.len(), 1, "{:?}", live.absences);
    assert_eq!(live.absences[0].player, "Rushton");
    assert_eq!(live.absences[0].to, t("2026-11-17T12:00:00Z"));
}

#[test]
fn limits_and_mistakes_are_answered_to_the_sender_alone() {
    let mut t0 = T::new();
    let now = t("2026-11-16T09:30:00Z");
    for (who, line, why) in [
        (
            "rushton",
            "ABSENCE 2026-11-17 TO 2026-12-10 MN1",
            "at most 14 days",
        ),
        (
            "rushton",
            "ABSENCE 2027-06-01 TO 2027-06-02 MN1",
            "at most 90 days ahead",
        ),
        (
            "rushton",
            "ABSENCE 2026-11-01 TO 2026-11-02 MN1",
            "before this mail",
        ),
        (
            "stranger",
            "ABSENCE 2026-11-17 MN1",
            "not the registered address",
        ),
        ("rushton", "ABSENCE 2026-11-17 MN9", "There is no game MN9"),
        (
            "rushton",
            "ABSENCE next week",
            "the form is ABSENCE <first day> TO <last day>",
        ),
        ("rushton", "ABSENCE 2026-11-31", "is not a day"),
        ("rushton", "CANCEL ABSENCE MN1", "no absence in MN1"),
    ] {
        let (s, m) = t0.bot(who, line, now);
        assert_eq!(m.len(), 1, "{line}: one reply, to the sender: {s}");
        assert!(m[0].to.starts_with(who), "{line}: {}", m[0].to);
        assert!(m[0].text.contains(why), "{line}: {}", m[0].text);
    }
    let live = t0.referee.live(&t0.store, "MN1").unwrap();
    assert!(live.absences.is_empty());
    assert_eq!(t0.deadline("MN1"), t("2026-11-17T21:00:00Z"));

    // Overlaps, and the total over a game.
    t0.bot("rushton", "ABSENCE 2026-11-23 TO 2026-12-04 MN1", now);
    let (_, m) = t0.bot("rushton", "ABSENCE 2026-12-04 TO 2026-12-06 MN1", now);
    assert!(
        to(&m, "rushton@").contains("overlaps your absence"),
        "{}",
        m[0].text
    );
    t0.bot("rushton", "ABSENCE 2026-12-07 TO 2026-12-20 MN1", now);
    let (_, m) = t0.bot("rushton", "ABSENCE 2026-12-21 TO 2026-12-25 MN1", now);
    assert!(
        to(&m, "rushton@").contains("more than 28 days"),
        "{}",
        m[0].text
    );
    assert_eq!(t0.referee.live(&t0.store, "MN1").unwrap().absences.len(), 2);

    // A lounge that takes no absences.
    t0.referee.set_absence_limits(AbsenceConfig {
        max_days: 0,
        max_total_days: 0,
        ..AbsenceConfig::default()
    });
    let (_, m) = t0.bot("warren", "ABSENCE 2026-11-17 MN1", now);
    assert!(to(&m, "warren@").contains("not taken in this lounge"));
}

#[test]
fn an_absence_is_its_players_own() {
    // Another player's turn is not moved by it.
    let mut t0 = T::new();
    t0.bot(
        "warren",
        "ABSENCE 2026-11-17 MN1",
        t("2026-11-16T09:30:00Z"),
    );
    assert_eq!(
        t0.deadline("MN1"),
        t("2026-11-17T21:00:00Z"),
        "Rushton's turn"
    );
}
