//! A database written before game kinds (issue 41) opens and replays
//! unchanged: `fixtures/db/before-kinds.db` (see its README).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use chrono::{TimeZone, Utc};
use mornbot::config::SpeakerConfig;
use mornbot::daemon::referee::{rebuild, Referee};
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::Store;

fn copy() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mornbot-old-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("mornbot.db");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/db/before-kinds.db");
    std::fs::copy(fixture, &db).unwrap();
    db
}

#[test]
fn a_database_from_before_kinds_opens_and_replays_unchanged() {
    let db = copy();
    let mut store = Store::open(&db).unwrap();
    let before = store.game("MN1").unwrap().expect("the fixture holds MN1");
    assert!(!before.definition.contains("kind"), "written before kinds");
    let me = Identity {
        address: "mornbot@example.org".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.org".into(),
    };
    let now = Utc.with_ymd_and_hms(2026, 12, 2, 12, 0, 0).unwrap();
    let referee = Referee::load(
        Map::london_1999(),
        me,
        SpeakerConfig::default(),
        &[],
        &mut store,
        now,
    )
    .unwrap();
    // Loaded as a Volume 1 game, its stored definition untouched.
    let after = store.game("MN1").unwrap().unwrap();
    assert_eq!(after.definition, before.definition);
    let live = referee.live(&store, "MN1").unwrap();
    assert!(live.def.is_vol1());
    assert_eq!(live.turns.len(), 33);
    // The state from the snapshot is the state a replay of the log gives.
    let replayed = rebuild(Map::london_1999(), &store, &after).unwrap();
    assert_eq!(replayed.game.plays.len(), 33);
    assert_eq!(
        serde_json::to_value(&live.game.state).unwrap(),
        serde_json::to_value(&replayed.game.state).unwrap()
    );
    // And the game goes on: its next player is awaited with a deadline.
    assert!(live.deadline().is_some());
    assert_eq!(live.game.to_play(), replayed.game.to_play());
}
