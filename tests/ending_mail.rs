//! How games end, by mail (issue 17, items 4 and 5): a player Resigns by
//! eir own message (Rule 1.1.3), the rest agree a Stalemate and the Speaker
//! confirms it (Rule 1.1.11), the Points table (Rule 1.1.9) and the Game
//! Archive (Rule 1.1.5), whose final GSD replays clean with `mornbot
//! check`. Raw mail through `letter` into the referee, with restarts.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::Referee;
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};
use support::record::{check_clean, final_gsd};

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
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

fn games() -> Vec<GameConfig> {
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

fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

/// A mail queued: its recipients and its text (head and body).
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
        Self::with_store(Store::in_memory().unwrap())
    }

    fn with_store(mut store: Store) -> T {
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker(),
            &games(),
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

    /// Sends `body` from `who` to `to`: the summary and every mail queued.
    fn send(&mut self, who: &str, to: &str, subject: &str, body: &str) -> (String, Vec<Sent>) {
        self.n += 1;
        let raw = format!(
            "From: {who}@example.org\r\nTo: {to}\r\nSubject: {subject}\r\n\
             Message-ID: <e{}@example.org>\r\n\r\n{}\r\n",
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
            .map(|m| {
                support::assert_reads_well(&String::from_utf8_lossy(&m.raw));
                Sent {
                    to: m.recipients.join(","),
                    text: String::from_utf8_lossy(&m.raw).replace("\r\n", "\n"),
                }
            })
            .collect();
        (h.summary, new)
    }

    fn bot(&mut self, who: &str, body: &str) -> (String, Vec<Sent>) {
        self.send(who, "mornbot@example.test", "commands", body)
    }

    fn post(&mut self, who: &str, body: &str) -> (String, Vec<Sent>) {
        self.send(who, "lounge@example.test", "[MN1] turn", body)
    }

    fn restart(&mut self) {
        self.referee = Referee::load(
            Map::london_1999(),
            me(),
            speaker(),
            &games(),
            &mut self.store,
            at(self.n),
        )
        .unwrap();
    }

    fn ended(&self, tag: &str) -> bool {
        self.referee.live(&self.store, tag).unwrap().ended
    }
}

/// The mail to `to` among `mails`, its text.
fn to<'a>(mails: &'a [Sent], to: &str) -> &'a str {
    mails
        .iter()
        .find(|m| m.to.contains(to))
        .map(|m| m.text.as_str())
        .unwrap_or_else(|| panic!("no mail to {to}"))
}

/// Text with its wrapping undone, for matching phrases.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Two opening turns in MN1.
fn opening(t: &mut T) {
    let (s, m) = t.post("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(
        s,
        "legal",
        "{}",
        m.iter().map(|m| m.text.as_str()).collect::<String>()
    );
    let (s, _) = t.post("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
    assert_eq!(s, "legal");
}

#[test]
fn resign_stalemate_points_and_archive_by_mail() {
    let mut t = T::new();
    opening(&mut t);
    // Acton Resigns by eir own message, announced in the lounge.
    let (s, mails) = t.bot("acton", "RESIGN MN1");
    assert_eq!(s, "Acton resigned from MN1");
    let lounge = flat(to(&mails, "lounge@"));
    assert!(
        lounge.contains("Acton Resigns from MN1 by eir own message"),
        "{lounge}"
    );
    // The next player, and by when (issue 39, item 7).
    assert!(
        lounge.contains("It is Rushton's turn, due by Tue 17 Nov 2026"),
        "{lounge}"
    );
    // Resigned, e cannot agree a Stalemate.
    let (s, _) = t.bot("acton", "STALEMATE MN1");
    assert_eq!(s, "stalemate refused: not active");

    // Rushton agrees; a restart keeps the agreement.
    let (s, mails) = t.bot("rushton", "STALEMATE");
    assert_eq!(s, "Rushton agreed stalemate");
    let lounge = flat(to(&mails, "lounge@"));
    assert!(lounge.contains("Still to agree: Warren."), "{lounge}");
    t.restart();
    // Warren agrees: every Active non-Drone player has; the Speaker is asked.
    let (s, mails) = t.bot("warren", "STALEMATE MN1");
    assert_eq!(s, "Warren agreed stalemate");
    assert!(
        flat(to(&mails, "lounge@")).contains("Agreed: Rushton, Warren. Still to agree: no one.")
    );
    assert!(flat(to(&mails, "speaker@")).contains("CONFIRM STALEMATE MN1"));
    assert!(!t.ended("MN1"));
    // A player cannot confirm it.
    let (s, _) = t.bot("warren", "CONFIRM STALEMATE MN1");
    assert_eq!(s, "stalemate refused: not the Speaker");
    // Beside another Speaker's command, it is not done, and the Speaker is told.
    let (_, mails) = t.send(
        "speaker",
        "mornbot@example.test",
        "[MN1] decisions",
        "PAUSE MN1\nCONFIRM STALEMATE MN1",
    );
    let reply = flat(to(&mails, "speaker@"));
    assert!(reply.contains("The Stalemate step was not done"), "{reply}");
    assert!(!t.ended("MN1"));
    t.bot("speaker", "RESUME MN1");
    // The Speaker confirms: the game ends with no winner.
    let (s, mails) = t.bot("speaker", "CONFIRM STALEMATE MN1");
    assert_eq!(s, "MN1 ended in stalemate");
    assert!(flat(to(&mails, "lounge@")).contains("declares the game over in Stalemate"));
    assert!(t.ended("MN1"));
    // No more turns.
    let (s, _) = t.post("rushton", "Rushton : [LV+1] Hainault (CN)");
    assert_eq!(s, "game over");
    t.restart();
    assert!(t.ended("MN1"));

    // POINTS: everyone listed, no one's Points changed by a Stalemate.
    let (_, mails) = t.bot("holborn", "POINTS");
    let p = flat(&mails[0].text);
    for who in [
        "Rushton 0 (1 game)",
        "Warren 0 (1 game)",
        "Acton 0 (1 game)",
    ] {
        assert!(p.contains(who), "{p}");
    }

    // ARCHIVE lists it; ARCHIVE MN1 sends its record.
    let (_, mails) = t.bot("holborn", "ARCHIVE");
    let list = flat(&mails[0].text);
    assert!(
        list.contains("MN1 2026-11-16 to 2026-11-16 2 turns stalemate"),
        "{list}"
    );
    let (_, mails) = t.bot("holborn", "ARCHIVE MN1");
    let record = &mails[0].text;
    println!("{record}");
    assert!(
        flat(record).contains("Resigned: Acton, after turn 2"),
        "{record}"
    );
    assert!(
        flat(record).contains("Rushton Epping (CN) [Home: Hainault]") || record.contains("Epping")
    );
    let gsd = final_gsd(record);
    check_clean(&gsd, "ending");
    // A game not over is not in the archive.
    let (_, mails) = t.bot("holborn", "ARCHIVE MN2");
    assert!(flat(&mails[0].text).contains("MN2 has not ended"));
}

#[test]
fn strangers_and_players_of_another_game_are_refused() {
    let mut t = T::new();
    let (s, mails) = t.bot("nobody", "STALEMATE MN1");
    assert_eq!(s, "stalemate refused: not a player");
    assert_eq!(mails.len(), 1);
    assert!(mails[0].to.contains("nobody@"));
    assert!(flat(&mails[0].text).contains("not the registered address of any player of MN1"));
    // A player of MN2 naming MN1 is told which game e plays.
    let (s, mails) = t.bot("holborn", "RESIGN MN1");
    assert_eq!(s, "resign refused: not a player");
    assert_eq!(mails.len(), 1);
    assert!(flat(&mails[0].text).contains("That address plays MN2"));
    // A Speaker's step from a player is refused.
    let (s, _) = t.bot("rushton", "REFUSE STALEMATE MN1");
    assert_eq!(s, "stalemate refused: not the Speaker");
    assert!(t.store.stalemate_agreements("MN1").unwrap().is_empty());
    // HELP lists each command with an example.
    let (_, mails) = t.bot("nobody", "HELP");
    let help = flat(&mails[0].text);
    for c in [
        "RESIGN MN1",
        "STALEMATE MN1",
        "WITHDRAW STALEMATE [game]",
        "POINTS",
        "ARCHIVE MN1",
        "CONFIRM STALEMATE MN1",
        "REFUSE STALEMATE MN1",
    ] {
        assert!(help.contains(c), "{c}: {help}");
    }
}

#[test]
fn a_turn_after_an_agreement_makes_it_moot_and_withdraw_takes_it_back() {
    let mut t = T::new();
    let (s, _) = t.bot("warren", "STALEMATE MN1");
    assert_eq!(s, "Warren agreed stalemate");
    let (s, _) = t.bot("warren", "WITHDRAW STALEMATE MN1");
    assert_eq!(s, "Warren withdrew stalemate");
    let (s, _) = t.bot("warren", "WITHDRAW STALEMATE MN1");
    assert_eq!(s, "stalemate: nothing to do");
    t.bot("warren", "STALEMATE MN1");
    t.bot("acton", "STALEMATE MN1");
    // A turn is logged: the agreements are moot (RULINGS S22).
    let (s, _) = t.post("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    assert_eq!(s, "legal");
    t.bot("rushton", "STALEMATE MN1");
    let (s, mails) = t.bot("speaker", "CONFIRM STALEMATE MN1");
    assert_eq!(s, "stalemate confirm refused: not agreed");
    assert!(flat(&mails[0].text).contains("still to agree: Warren, Acton"));
    // The Speaker refuses: every agreement is void.
    let (s, mails) = t.bot("speaker", "REFUSE STALEMATE MN1");
    assert_eq!(s, "MN1 stalemate refused by the Speaker");
    assert!(flat(to(&mails, "lounge@")).contains("play goes on"));
    assert!(t.store.stalemate_agreements("MN1").unwrap().is_empty());
}

#[test]
fn a_win_by_resignations_gives_points_once() {
    let mut t = T::new();
    opening(&mut t);
    t.bot("acton", "RESIGN");
    let (_, mails) = t.bot("warren", "RESIGN MN1");
    assert!(flat(to(&mails, "lounge@")).contains("Rushton is the last player left and Wins MN1"));
    assert!(t.ended("MN1"));
    // A restart does not award the Points again.
    t.restart();
    let (_, mails) = t.bot("speaker", "POINTS");
    let p = flat(&mails[0].text);
    assert!(p.contains("Rushton 2 (1 game)"), "{p}");
    assert!(p.contains("Warren 0 (1 game)"), "{p}");
    assert!(p.contains("Acton 0 (1 game)"), "{p}");
    assert!(p.contains("Rushton has more Points than any other player: the Grandmaster"));
    // The game is over: no more resignations.
    let (s, _) = t.bot("rushton", "RESIGN MN1");
    assert_eq!(s, "resign refused: game over");
    let (_, mails) = t.bot("speaker", "ARCHIVE");
    assert!(flat(&mails[0].text).contains("won by Rushton"));
}

#[test]
fn a_game_that_ended_before_points_were_kept_is_scored_once_at_its_end() {
    let dir = std::env::temp_dir().join(format!("mornbot-backfill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("mornbot.db");
    let mut t = T::with_store(Store::open(&db).unwrap());
    opening(&mut t);
    t.bot("acton", "RESIGN");
    t.bot("warren", "RESIGN MN1");
    assert!(t.ended("MN1"));
    let ended_at: i64 = {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.query_row("SELECT at FROM endings WHERE game = 'MN1'", [], |r| {
            r.get(0)
        })
        .unwrap()
    };
    // As a database written before the ledger: the end logged, not scored.
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch("DELETE FROM points; DELETE FROM endings;")
            .unwrap();
    }
    t.restart();
    let (_, mails) = t.bot("speaker", "POINTS");
    assert!(
        !flat(&mails[0].text).contains("Rushton 2"),
        "{}",
        mails[0].text
    );
    // The daemon's start scores it, at the time it ended; only once.
    assert_eq!(t.referee.score_old_endings(&mut t.store).unwrap(), 1);
    assert_eq!(t.referee.score_old_endings(&mut t.store).unwrap(), 0);
    t.restart();
    assert_eq!(t.referee.score_old_endings(&mut t.store).unwrap(), 0);
    let (_, mails) = t.bot("speaker", "POINTS");
    let p = flat(&mails[0].text);
    assert!(p.contains("Rushton 2 (1 game)"), "{p}");
    assert!(p.contains("Acton 0 (1 game)"), "{p}");
    let c = rusqlite::Connection::open(&db).unwrap();
    let at: i64 = c
        .query_row("SELECT at FROM endings WHERE game = 'MN1'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(at, ended_at, "scored at the time the game ended");
    drop(t);
    std::fs::remove_dir_all(&dir).ok();
}
