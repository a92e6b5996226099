//! Games' snapshots (issue 20): every state the engine can reach survives
//! its encoding; a restart loads a game from its snapshot, not by replay;
//! a snapshot that does not fit its log, or does not decode, is rebuilt
//! by replay; the cache of live games is bounded and a game evicted from
//! it comes back whole.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::referee::snapshot::{decode, encode};
use mornbot::daemon::referee::{Letter, Referee, Request};
use mornbot::engine::case::Case;
use mornbot::engine::{adjudicate, GameState};
use mornbot::gsd::{parse_gsd, parse_play, render};
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

fn round_trip(state: &GameState, what: &str) {
    let text = encode(state);
    let back = decode(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(&back, state, "{what}: the snapshot changed the state");
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Every rule case's state, before its play and after it when it is legal:
/// all the possessions, Disruptions and fold records the engine models.
#[test]
fn every_case_state_survives_its_snapshot() {
    let map = Map::london_1999();
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases"),
        "toml",
        &mut all,
    );
    let mut checked = 0;
    for f in &all {
        let case = Case::from_toml(&std::fs::read_to_string(f).unwrap()).unwrap();
        let Ok(state) = case.state(map) else {
            continue;
        };
        round_trip(&state, &case.id);
        checked += 1;
        if let Ok(play) = parse_play(&case.play.line, map) {
            if let Some(after) = adjudicate(map, &state, &play).state {
                round_trip(&after, &format!("{} after its play", case.id));
                checked += 1;
            }
        }
    }
    assert!(checked > 1500, "only {checked} states checked");
}

/// Every valid GSD fixture's state, read from its tables.
#[test]
fn every_gsd_fixture_state_survives_its_snapshot() {
    let map = Map::london_1999();
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gsd/valid"),
        "txt",
        &mut all,
    );
    let mut checked = 0;
    for f in &all {
        let gsd = parse_gsd(&std::fs::read_to_string(f).unwrap(), map).unwrap();
        if let Ok(state) = GameState::from_gsd(&gsd, map) {
            round_trip(&state, &f.display().to_string());
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} GSDs checked");
}

#[test]
fn a_snapshot_that_is_not_a_state_is_an_error() {
    for bad in ["", "{}", "[]", "{\"time\":1}", "null"] {
        assert!(decode(bad).is_err(), "{bad:?}");
    }
}

// ---- The referee ----------------------------------------------------------

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

fn game(tag: &str) -> GameConfig {
    GameConfig {
        tag: tag.into(),
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

fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

/// A lounge on a database file, so that it can be reopened.
struct Lounge {
    db: PathBuf,
    store: Store,
    referee: Referee,
    n: usize,
}

impl Lounge {
    fn new(name: &str) -> Lounge {
        let dir = std::env::temp_dir().join(format!("mornbot-snap-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("mornbot.db");
        let mut store = Store::open(&db).unwrap();
        let referee = load(&mut store, SpeakerConfig::default());
        Lounge {
            db,
            store,
            referee,
            n: 0,
        }
    }

    /// Stops and starts again on the same file.
    fn restart(&mut self, speaker: SpeakerConfig) {
        self.store = Store::open(&self.db).unwrap();
        self.referee = load(&mut self.store, speaker);
    }

    fn play(&mut self, tag: &str, from: &str, line: &str) -> String {
        self.n += 1;
        let letter = Letter {
            message_id: format!("m{}@example.org", self.n),
            from: format!("{from}@example.org"),
            subject: format!("[{tag}] turn"),
            references: vec![],
            game: Ok(tag.into()),
            request: Request::Turn {
                text: line.into(),
                gsd: false,
                line: 1,
                column: 1,
            },
            body: line.into(),
            date: None,
            posted: None,
            auth_failed: false,
            no_reply: None,
            read_as: None,
        };
        let origin = Origin {
            source: "maildir".into(),
            uidvalidity: None,
            uid: None,
        };
        self.referee
            .handle(&mut self.store, origin, &letter, at(self.n as i64))
            .unwrap()
            .summary
    }

    fn gsd(&self, tag: &str) -> String {
        render(
            &self
                .referee
                .live(&self.store, tag)
                .unwrap()
                .game
                .gsd(Map::london_1999()),
        )
    }

    fn sql(&self, statement: &str) {
        let c = rusqlite::Connection::open(&self.db).unwrap();
        c.execute_batch(statement).unwrap();
    }

    fn opening(&mut self, tag: &str) {
        assert_eq!(
            self.play(tag, "rushton", "Rushton : Epping (CN) [Home: Hainault]"),
            "legal"
        );
        assert_eq!(
            self.play(
                tag,
                "warren",
                "Warren : Morden (NT) [Home: Tooting Broadway]"
            ),
            "legal"
        );
    }
}

impl Drop for Lounge {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.db.parent().unwrap());
    }
}

fn load(store: &mut Store, speaker: SpeakerConfig) -> Referee {
    Referee::load(
        Map::london_1999(),
        me(),
        speaker,
        &[game("MN1"), game("MN2")],
        store,
        at(0),
    )
    .unwrap()
}

#[test]
fn each_change_writes_the_games_snapshot_at_its_position_in_the_log() {
    let mut l = Lounge::new("position");
    l.opening("MN1");
    let snap = l.store.snapshot("MN1").unwrap().expect("a snapshot");
    assert_eq!(snap.turns, 2);
    assert_eq!(
        snap.row.version,
        mornbot::daemon::referee::snapshot::VERSION
    );
    let state = decode(&snap.row.state).unwrap();
    assert_eq!(state, l.referee.live(&l.store, "MN1").unwrap().game.state);
    // The Speaker's next act in MN1 is Acton's reminder, 12 hours before
    // the 36 hours from Warren's turn (09:02) run out.
    assert_eq!(snap.row.due_at, Some(at(2) + chrono::Duration::hours(24)));
    // MN2, unplayed, has the snapshot start-up wrote: no turn folded.
    assert_eq!(l.store.snapshot("MN2").unwrap().unwrap().turns, 0);
}

/// The snapshot is what a restart loads: a state edited in the snapshot
/// alone (a Game Time no play reaches) is what the game shows after it, so
/// the log was not replayed.
#[test]
fn a_restart_loads_the_snapshot_and_replays_nothing() {
    let mut l = Lounge::new("restart");
    l.opening("MN1");
    let before = l.gsd("MN1");
    l.restart(SpeakerConfig::default());
    assert_eq!(l.referee.cached_games(), 0, "start-up loaded no game");
    assert_eq!(l.gsd("MN1"), before, "the same game after a restart");

    let snap = l.store.snapshot("MN1").unwrap().unwrap();
    let mut state = decode(&snap.row.state).unwrap();
    let marker = state.time;
    state.time.minutes = (state.time.minutes + 7) % 1440;
    assert_ne!(state.time, marker);
    l.sql(&format!(
        "UPDATE snapshots SET state = '{}' WHERE game = 'MN1'",
        encode(&state).replace('\'', "''")
    ));
    l.restart(SpeakerConfig::default());
    assert_eq!(
        l.referee.live(&l.store, "MN1").unwrap().game.state.time,
        state.time,
        "loaded from the snapshot"
    );
}

/// A snapshot behind its log (written by an older build, or lost) and one
/// that does not decode are rebuilt by replay: the game is the log's.
#[test]
fn a_snapshot_that_does_not_fit_its_log_is_rebuilt_by_replay() {
    let mut l = Lounge::new("stale");
    l.opening("MN1");
    let truth = l.gsd("MN1");
    let first = l.store.snapshot("MN1").unwrap().unwrap();
    // (what, whether start-up sees it: it reads no state, so a state that
    // does not decode is met, and replayed past, when the game is loaded).
    for (tamper, at_start) in [
        // Behind the log: folds turn 1 of 2.
        ("UPDATE snapshots SET turns = 1 WHERE game = 'MN1'", true),
        // Another version's encoding.
        (
            "UPDATE snapshots SET version = '0/old' WHERE game = 'MN1'",
            true,
        ),
        // None at all.
        ("DELETE FROM snapshots WHERE game = 'MN1'", true),
        // Garbage.
        (
            "UPDATE snapshots SET state = '{\"not\": \"a state\"}' WHERE game = 'MN1'",
            false,
        ),
    ] {
        l.sql(tamper);
        l.restart(SpeakerConfig::default());
        if at_start {
            // Start-up wrote it again, whole.
            let again = l.store.snapshot("MN1").unwrap().unwrap();
            assert_eq!(again, first, "after {tamper}");
        }
        assert_eq!(l.gsd("MN1"), truth, "after {tamper}");
    }
    // Play goes on from the rebuilt game.
    assert_eq!(
        l.play("MN1", "acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        "legal"
    );
}

/// Only the games recently played stay in memory; one evicted is loaded
/// again from its snapshot, whole, when its next turn comes.
#[test]
fn the_cache_is_bounded_and_an_evicted_game_comes_back_whole() {
    let mut l = Lounge::new("cache");
    l.referee.set_cached_games(1);
    l.opening("MN1");
    l.opening("MN2");
    assert_eq!(l.referee.cached_games(), 1);
    // MN1 was evicted by MN2's turns; its third turn is judged on the
    // game as it stood.
    assert_eq!(
        l.play("MN1", "acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
        "legal"
    );
    assert_eq!(l.store.turns("MN1").unwrap().len(), 3);
    assert_eq!(
        l.play("MN2", "warren", "Warren : Pass"),
        "out of turn",
        "MN2 still awaits Acton"
    );
    assert_eq!(l.referee.cached_games(), 1);
}

/// Start-up schedules each game from its snapshot's due time, unless the
/// Speaker's settings it was computed under have changed.
#[test]
fn start_up_schedules_from_snapshots_and_recomputes_under_new_settings() {
    let mut l = Lounge::new("agenda");
    l.opening("MN1");
    let due = |l: &Lounge, tag: &str| l.store.snapshot(tag).unwrap().unwrap().row.due_at;
    let earliest = |l: &Lounge| due(l, "MN1").min(due(l, "MN2"));
    // MN1 awaits Acton since 09:02 Monday: reminded 12 hours before the
    // 36 run out.
    assert_eq!(due(&l, "MN1"), Some(at(2) + chrono::Duration::hours(24)));
    let before = l.referee.next_due();
    assert_eq!(before, earliest(&l));
    l.restart(SpeakerConfig::default());
    assert_eq!(l.referee.next_due(), before);
    assert_eq!(l.referee.cached_games(), 0);

    let later = SpeakerConfig {
        reminder_hours: 2,
        ..SpeakerConfig::default()
    };
    l.restart(later.clone());
    assert_eq!(due(&l, "MN1"), Some(at(2) + chrono::Duration::hours(34)));
    assert_eq!(l.referee.next_due(), earliest(&l));
    assert_ne!(l.referee.next_due(), before, "the reminders moved");
    // A second start under the same settings reads them back, loading none.
    l.restart(later);
    assert_eq!(l.referee.next_due(), earliest(&l));
    assert_eq!(l.referee.cached_games(), 0);
}

/// The games file is parsed at a start only when it changed since its last
/// import: a lounge of 100,000 games does not read them all at each start.
#[test]
fn the_games_file_is_imported_only_when_it_changed() {
    use mornbot::daemon::games_file::{changed, imported};
    let dir = std::env::temp_dir().join(format!("mornbot-gfile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cfg = mornbot::config::Config::default();
    cfg.bot.data_dir = dir.clone();
    // The embedded default's first start writes the sample game.
    let setup = mornbot::daemon::setup(&cfg).unwrap();
    assert!(setup.first_start);
    let mut store = Store::open(&setup.data.db()).unwrap();
    let (stamp, games) = changed(&setup, &store).unwrap().expect("never imported");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag, "MN1");
    // Until the import is recorded, it is still to do (a crash between
    // the two imports again).
    assert!(changed(&setup, &store).unwrap().is_some());
    imported(&mut store, &stamp).unwrap();
    assert!(changed(&setup, &store).unwrap().is_none(), "unchanged");
    let file = setup.games_file.clone().unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("MN1", "MN2")).unwrap();
    let (_, games) = changed(&setup, &store).unwrap().expect("changed");
    assert_eq!(games[0].tag, "MN2");
    // A file that does not parse is an error naming it, never skipped.
    std::fs::write(&file, "[[game]]\ntag = \n").unwrap();
    let err = changed(&setup, &store).unwrap_err().to_string();
    assert!(err.contains("game.toml"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The referee's index answers as the scan it replaced: registered
/// addresses in any case.
#[test]
fn the_player_indexes_answer_as_a_scan_would() {
    let l = Lounge::new("names");
    let r = &l.referee;
    assert!(r.is_registered("ACTON@example.org"));
    assert!(!r.is_registered("acton@example.com"));
    assert_eq!(r.roster().len(), 2);
    assert_eq!(r.roster().get("mn2").unwrap().players.len(), 3);
}
