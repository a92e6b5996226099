//! Who is late (issue 17, item 6; RULINGS S30 - S32): the lounge is told
//! at a turn's reminder whose turn is pending, a game waiting on a human
//! (a Judgment, the Speaker's decision on an agreed Stalemate) gets one
//! lounge notice a day until the wait ends, `STATUS` shows every open
//! request with its deadline and the lobby's games, and a `STATUS` naming
//! no game never loads every game. Raw mail through `letter` into the
//! referee, the Speaker's clock driven by hand, with restarts.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use chrono::{DateTime, Duration, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, LobbyConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::Referee;
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

const BOT: &str = "mornbot@example.test";
const LOUNGE: &str = "lounge@example.test";

fn me() -> Identity {
    Identity {
        address: BOT.into(),
        name: "mornbot".into(),
        lounge: LOUNGE.into(),
    }
}

fn game(tag: &str, players: &[&str]) -> GameConfig {
    GameConfig {
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
    }
}

/// Monday 16 November 2026, 09:00 UTC, plus `h` hours.
fn hours(h: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + Duration::hours(h)
}

/// A mail queued: its recipients and its text (soft breaks undone).
#[derive(Debug)]
struct Sent {
    to: String,
    text: String,
}

struct T {
    referee: Referee,
    store: Store,
    ctx: Context,
    games: Vec<GameConfig>,
    speaker: SpeakerConfig,
    /// The lounge's clock: each mail a minute after the last event.
    now: DateTime<Utc>,
    n: i64,
}

impl T {
    fn with(games: Vec<GameConfig>, speaker: SpeakerConfig) -> T {
        let mut store = Store::in_memory().unwrap();
        let now = hours(0);
        let referee = load(&mut store, &games, &speaker, now);
        let mut cfg = Config::default();
        cfg.bot.address = BOT.into();
        cfg.bot.lounge = LOUNGE.into();
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        T {
            referee,
            store,
            ctx,
            games,
            speaker,
            now,
            n: 0,
        }
    }

    /// MN1 (Rushton, Warren, Acton), the Speaker's address, Timeouts as
    /// `timeouts` says.
    fn new(timeouts: bool) -> T {
        T::with(
            vec![game("MN1", &["Rushton", "Warren", "Acton"])],
            SpeakerConfig {
                addresses: vec!["speaker@example.org".into()],
                timeouts,
                ..SpeakerConfig::default()
            },
        )
    }

    fn mails_since(&self, before: usize) -> Vec<Sent> {
        self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| Sent {
                to: m.recipients.join(","),
                text: support::read_well(&m.raw)
                    .replace("\r\n", "\n")
                    .replace("=\n", "")
                    .replace("=3D", "="),
            })
            .collect()
    }

    /// Sends `body` from `who@example.org` to `to`, a minute after the
    /// last event: the summary and every mail queued.
    fn send(&mut self, who: &str, to: &str, subject: &str, body: &str) -> (String, Vec<Sent>) {
        self.n += 1;
        self.now += Duration::minutes(1);
        let raw = format!(
            "From: {who}@example.org\r\nTo: {to}\r\nSubject: {subject}\r\n\
             Message-ID: <w{}@example.org>\r\n\r\n{}\r\n",
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
            .handle(&mut self.store, origin, &l, self.now)
            .unwrap();
        (h.summary, self.mails_since(before))
    }

    fn bot(&mut self, who: &str, body: &str) -> (String, Vec<Sent>) {
        self.send(who, BOT, "commands", body)
    }

    fn post(&mut self, who: &str, body: &str) -> (String, Vec<Sent>) {
        self.send(who, LOUNGE, "[MN1] turn", body)
    }

    /// The Speaker's clock at `now`: every mail it queued.
    fn tick(&mut self, now: DateTime<Utc>) -> Vec<Sent> {
        self.now = self.now.max(now);
        let before = self.store.all_mail().unwrap().len();
        self.referee.tick(&mut self.store, now).unwrap();
        self.mails_since(before)
    }

    /// A restart: a new referee on the same store.
    fn restart(&mut self) {
        self.referee = load(&mut self.store, &self.games, &self.speaker, self.now);
    }

    /// The STATUS reply to `who` (flattened).
    fn status(&mut self, who: &str, body: &str) -> String {
        let (_, mails) = self.bot(who, body);
        assert_eq!(mails.len(), 1, "{mails:?}");
        flat(&mails[0].text)
    }
}

fn load(
    store: &mut Store,
    games: &[GameConfig],
    speaker: &SpeakerConfig,
    now: DateTime<Utc>,
) -> Referee {
    let mut r =
        Referee::load(Map::london_1999(), me(), speaker.clone(), games, store, now).unwrap();
    r.open_lobby(store, LobbyConfig::default(), &mut || Ok([42u8; 32]))
        .unwrap();
    r
}

/// Text with its wrapping undone, for matching phrases.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn lounge(mails: &[Sent]) -> Vec<&Sent> {
    mails.iter().filter(|m| m.to == LOUNGE).collect()
}

/// The lounge's waiting notices among `mails`.
fn waiting(mails: &[Sent]) -> Vec<String> {
    lounge(mails)
        .into_iter()
        .map(|m| flat(&m.text))
        .filter(|t| t.contains("is waiting on"))
        .collect()
}

/// A first turn with an Action the engine leaves to a human.
const RULING: &str = "Rushton : Epping (CN) [Home: Hainault] [Taking a Bow]";

#[test]
fn the_lounge_is_told_at_the_reminder_once_across_restarts() {
    let mut t = T::new(true);
    // Rushton's turn 1 is due 36 weekday hours after the start (Tuesday
    // 21:00); the reminder falls 12 hours before.
    assert!(t.tick(hours(23)).is_empty());
    let mails = t.tick(hours(24));
    assert_eq!(mails.len(), 2, "{mails:?}");
    assert_eq!(mails[0].to, "rushton@example.org");
    assert!(flat(&mails[0].text).contains("Reminder: your turn 1 is due by"));
    let l = lounge(&mails);
    assert_eq!(l.len(), 1, "{mails:?}");
    let text = flat(&l[0].text);
    assert!(
        text.contains(
            "MN1 waits on Rushton's turn 1, due by Tue 17 Nov 2026 21:00 GMT (Rule 1.3.5)"
        ),
        "{text}"
    );
    // Never again: not at the next tick, not after a restart.
    assert!(t.tick(hours(25)).is_empty());
    t.restart();
    assert!(t.tick(hours(26)).is_empty());
    // The Timeout comes after the deadline, and no second reminder with it.
    assert!(t.tick(hours(36)).is_empty());
    let mails = t.tick(hours(37));
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(flat(&mails[0].text).contains("Rushton timed out"));
}

#[test]
fn a_pending_judgment_is_noticed_once_a_day_until_the_speaker_judges() {
    let mut t = T::new(false);
    let (s, mails) = t.post("rushton", RULING);
    assert_eq!(s, "needs ruling", "{mails:?}");
    let since = t.now;
    assert_eq!(t.referee.next_due(), Some(since + Duration::hours(24)));
    assert!(t.tick(since + Duration::hours(23)).is_empty());
    let mails = t.tick(since + Duration::hours(24));
    let w = waiting(&mails);
    assert_eq!(w.len(), 1, "{mails:?}");
    assert!(
        w[0].contains("MN1 is waiting on the Speaker: a Judgment of Rushton's turn 1"),
        "{}",
        w[0]
    );
    assert!(
        w[0].contains("since Mon 16 Nov 2026 09:01 GMT (1 day)"),
        "{}",
        w[0]
    );
    // One a day: none again the same day, even after a restart.
    assert!(t.tick(since + Duration::hours(30)).is_empty());
    t.restart();
    assert!(t.tick(since + Duration::hours(47)).is_empty());
    let w = waiting(&t.tick(since + Duration::hours(48)));
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("(2 days)"), "{}", w[0]);
    // STATUS says what is awaited, and since when.
    let s = t.status("warren", "STATUS MN1");
    assert!(
        s.contains("Turn 1 (Rushton's) awaits the Speaker's Judgment (it needs a human ruling) since Mon 16 Nov 2026 09:01 GMT."),
        "{s}"
    );
    assert!(
        s.contains("Waiting on the Speaker since Mon 16 Nov 2026 09:01 GMT (2 days)."),
        "{s}"
    );
    // The Speaker judges: the wait is over, and so are its notices.
    let (s, _) = t.post("speaker", "Judgment: Legal");
    assert_eq!(s, "speaker judgment: Legal");
    assert!(waiting(&t.tick(since + Duration::hours(72))).is_empty());
    t.restart();
    assert!(waiting(&t.tick(since + Duration::hours(24 * 5))).is_empty());
    assert_eq!(t.referee.next_due(), None);
}

#[test]
fn a_stalemate_waiting_on_the_speaker_is_noticed_until_refused() {
    let mut t = T::new(false);
    t.bot("rushton", "STALEMATE MN1");
    t.bot("warren", "STALEMATE MN1");
    // Not every player agrees yet: nothing awaits the Speaker.
    assert_eq!(t.referee.next_due(), None);
    let s = t.status("acton", "STATUS MN1");
    assert!(
        s.contains("Stalemate agreed by Rushton, Warren; still to agree: Acton"),
        "{s}"
    );
    let (s, _) = t.bot("acton", "STALEMATE MN1");
    assert_eq!(s, "Acton agreed stalemate");
    let since = t.now;
    // The wait is known again after a restart, from the store.
    t.restart();
    assert_eq!(t.referee.next_due(), Some(since + Duration::hours(24)));
    let w = waiting(&t.tick(since + Duration::hours(24)));
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("MN1 is waiting on the Speaker"), "{}", w[0]);
    assert!(
        w[0].contains("\"CONFIRM STALEMATE MN1\" or \"REFUSE STALEMATE MN1\""),
        "{}",
        w[0]
    );
    let s = t.status("acton", "STATUS MN1");
    assert!(s.contains("Every Active non-Drone player agrees a Stalemate (Rushton, Warren, Acton): the Speaker decides"), "{s}");
    // The Speaker refuses: no more notices.
    let (s, _) = t.bot("speaker", "REFUSE STALEMATE MN1");
    assert_eq!(s, "MN1 stalemate refused by the Speaker");
    assert_eq!(t.referee.next_due(), None);
    assert!(t.tick(since + Duration::hours(24 * 4)).is_empty());
    t.restart();
    assert!(t.tick(since + Duration::hours(24 * 5)).is_empty());
}

#[test]
fn status_shows_each_open_request_with_its_deadline() {
    // The awaited turn.
    let mut t = T::new(true);
    let s = t.status("warren", "STATUS MN1");
    assert!(
        s.contains("Rushton moves first in MN1, by Tue 17 Nov 2026 21:00 GMT (Rule 1.3.5)."),
        "{s}"
    );
    // A Questionable Turn: its step and the step's deadline.
    let (s, _) = t.post("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "legal");
    let (s, _) = t.post("warren", "Warren : [LV+1] Tooting Broadway (NT)");
    assert_eq!(s, "illegal");
    let s = t.status("acton", "STATUS MN1");
    assert!(
        s.contains("Questionable turn 2: Warren may concede or contest the Buzz, by Tue 17 Nov 2026 21:03 GMT."),
        "{s}"
    );
    // A paused game.
    let mut t = T::new(true);
    t.bot("speaker", "PAUSE MN1");
    let s = t.status("warren", "STATUS MN1");
    assert!(
        s.contains("Paused by the Speaker: no turn is due until the Speaker's RESUME MN1."),
        "{s}"
    );
    // A winning turn waiting on acknowledgements, and when its window ends.
    let mut t = T::new(true);
    let (s, _) = t.post("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "legal");
    assert!(t
        .referee
        .edit_game(&mut t.store, "MN1", |g| g.game.state.winner =
            Some("Rushton".into()))
        .unwrap());
    let s = t.status("warren", "STATUS MN1");
    assert!(
        s.contains("Rushton's winning turn 1 ends the game unless it is buzzed by Tue 17 Nov 2026 21:01 GMT (Rule 1.1.1); still to acknowledge: Warren, Acton."),
        "{s}"
    );
}

#[test]
fn status_lists_the_lobbys_games_with_who_must_still_confirm() {
    let mut t = T::new(true);
    let (s, _) = t.bot("speaker", "NEW GAME MN20 players 3 start \"Monday 0900\"");
    assert_eq!(s, "new game MN20");
    let (s, mails) = t.bot("bank", "JOIN MN20 as Bank");
    assert!(s.contains("awaiting confirmation"), "{s}");
    let text = &mails[0].text;
    let i = text.find("CONFIRM ").expect("a token");
    let token: String = text[i + 8..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    let (s, _) = t.bot("bank", &format!("CONFIRM {token}"));
    assert!(s.contains("Bank joins MN20"), "{s}");
    let (s, _) = t.bot("holborn", "JOIN MN20 as Holborn");
    assert!(s.contains("awaiting confirmation"), "{s}");
    // A stranger's STATUS: the lobby, and no game e does not play.
    let s = t.status("nobody", "STATUS");
    assert!(s.contains("Games waiting for players (the lobby):"), "{s}");
    assert!(
        s.contains("MN20: 3 players wanted; joined: Bank; still to CONFIRM: Holborn."),
        "{s}"
    );
    // STATUS naming the lobby game says the same.
    let s = t.status("nobody", "STATUS MN20");
    assert!(s.contains("MN20 waits in the lobby for players"), "{s}");
    assert!(s.contains("joined: Bank; still to CONFIRM: Holborn"), "{s}");
}

#[test]
fn status_naming_no_game_answers_the_senders_games_and_loads_no_other() {
    let games = vec![
        game("MN1", &["Rushton", "Warren"]),
        game("MN2", &["Holborn", "Bank"]),
        game("MN3", &["Acton", "Cryer"]),
        game("MN4", &["Epping", "Morden"]),
        game("MN5", &["Holborn", "Euston"]),
    ];
    let speaker = SpeakerConfig {
        addresses: vec!["speaker@example.org".into()],
        ..SpeakerConfig::default()
    };
    let mut t = T::with(games, speaker);
    // A restart on current snapshots loads no game.
    t.restart();
    assert_eq!(t.referee.cached_games(), 0);
    let s = t.status("holborn", "STATUS");
    assert!(s.contains("MN2: no turn has been played yet"), "{s}");
    assert!(s.contains("MN5: no turn has been played yet"), "{s}");
    for other in ["MN1:", "MN3:", "MN4:"] {
        assert!(!s.contains(other), "{other}: {s}");
    }
    assert!(
        s.contains("3 other games in this lounge not shown here; STATUS <game> shows any of them, e.g. STATUS MN1."),
        "{s}"
    );
    assert_eq!(t.referee.cached_games(), 2);
    // A stranger: no game at all, only the count.
    t.restart();
    let s = t.status("nobody", "STATUS");
    assert!(!s.contains("no turn has been played yet"), "{s}");
    assert!(
        s.contains("5 other games in this lounge not shown here"),
        "{s}"
    );
    assert_eq!(t.referee.cached_games(), 0);
    // The Speaker: the games with an open request, soonest due first.
    let s = t.status("speaker", "STATUS");
    for g in ["MN1:", "MN2:", "MN3:", "MN4:", "MN5:"] {
        assert!(s.contains(g), "{g}: {s}");
    }
    assert!(!s.contains("other game"), "{s}");
}

#[test]
fn a_referees_judgment_is_noticed_until_it_is_passed() {
    let mut t = T::new(false);
    let (s, _) = t.post("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "legal");
    t.post("warren", "Buzz: Rushton's turn 1: the Home is wrong");
    t.post("rushton", "Contest: it is right");
    let (_, mails) = t.post("warren", "Contest: it is not");
    let all = flat(&mails.iter().map(|m| m.text.as_str()).collect::<String>());
    assert!(all.contains("Acton is Referee"), "{all}");
    let since = t.now;
    // The Referee's three days run; the lounge hears of it after one.
    let w = waiting(&t.tick(since + Duration::hours(24)));
    assert_eq!(w.len(), 1);
    assert!(
        w[0].contains(
            "MN1 is waiting on Acton: the Referee's Judgment of Questionable turn 1 (Rushton's)"
        ),
        "{}",
        w[0]
    );
    let s = t.status("warren", "STATUS MN1");
    assert!(
        s.contains("Questionable turn 1: Acton is to judge it, by"),
        "{s}"
    );
    assert!(s.contains("Waiting on Acton since"), "{s}");
    t.restart();
    assert!(waiting(&t.tick(since + Duration::hours(47))).is_empty());
    t.post("acton", "Judgment: Legal");
    assert!(t
        .referee
        .live(&t.store, "MN1")
        .unwrap()
        .questionable
        .is_none());
    assert!(waiting(&t.tick(since + Duration::hours(48))).is_empty());
}

#[test]
fn waiting_notices_can_be_turned_off_and_check_config_bounds_them() {
    let mut t = T::with(
        vec![game("MN1", &["Rushton", "Warren", "Acton"])],
        SpeakerConfig {
            addresses: vec!["speaker@example.org".into()],
            timeouts: false,
            waiting_notice_hours: 0,
            ..SpeakerConfig::default()
        },
    );
    let (s, _) = t.post("rushton", RULING);
    assert_eq!(s, "needs ruling");
    assert_eq!(t.referee.next_due(), None);
    assert!(t.tick(hours(24 * 7)).is_empty());
    let cfg = |v: &str| {
        Config::from_toml(
            &format!("[bot]\ndata_dir = \"data\"\n[speaker]\nwaiting_notice_hours = {v}\n"),
            "test",
        )
        .unwrap()
    };
    assert!(cfg("4294967295").validate().is_err());
    assert!(cfg("0").validate().is_ok());
    assert_eq!(cfg("48").speaker.waiting_notice_hours, 48);
    assert!(cfg("48").validate().is_ok());
    assert_eq!(Config::default().speaker.waiting_notice_hours, 24);
}

#[test]
fn a_turn_needing_a_ruling_names_the_games_referee_never_eir_address() {
    // A referee who plays: named, and told in the lounge like everyone.
    let mut mn1 = game("MN1", &["Rushton", "Warren", "Acton"]);
    mn1.referee = Some("warren@example.org".into());
    let mut t = T::with(vec![mn1.clone()], SpeakerConfig::default());
    let (s, mails) = t.post("rushton", RULING);
    assert_eq!(s, "needs ruling", "{mails:?}");
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].to, LOUNGE);
    let body = flat(mails[0].text.split_once("\n\n").map_or("", |x| x.1));
    assert!(
        body.contains("The game's referee, Warren, is asked to judge it"),
        "{body}"
    );
    assert!(!body.contains("warren@"), "{body}");
    // One who does not: not named by address in the lounge (issue 39, item
    // 9), and asked in a mail of eir own, since e may not read it.
    mn1.referee = Some("judge@example.org".into());
    let mut t = T::with(vec![mn1], SpeakerConfig::default());
    let (s, mails) = t.post("rushton", RULING);
    assert_eq!(s, "needs ruling", "{mails:?}");
    let to: Vec<&str> = mails.iter().map(|m| m.to.as_str()).collect();
    assert_eq!(to, [LOUNGE, "judge@example.org"], "{mails:?}");
    for m in &mails {
        let body = flat(m.text.split_once("\n\n").map_or("", |x| x.1));
        assert!(
            body.contains("The game's referee is asked to judge it"),
            "{body}"
        );
        assert!(!body.contains("judge@"), "{body}");
    }
}
