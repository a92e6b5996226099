//! `mornbot check-db`, `mornbot backup`, and `mornbot run` refusing an
//! empty or damaged database, as an operator runs them.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mornbot::store::Store;

fn mornbot(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run mornbot")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mornbot-clidb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn check_db_and_backup_round_trip() {
    let d = fresh("roundtrip");
    let db = d.join("mornbot.db");
    {
        let mut s = Store::open(&db).unwrap();
        s.ensure_game("MN1", "{}", chrono::Utc::now()).unwrap();
    }
    let out = mornbot(&d, &["check-db", "--db", "mornbot.db"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("ok (integrity_check): 1 game(s), 0 turn(s)"),
        "{}",
        text(&out)
    );
    let out = mornbot(&d, &["backup", "--db", "mornbot.db", "copy.db"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("backed up and checked: 1 game(s)"),
        "{}",
        text(&out)
    );
    let out = mornbot(&d, &["check-db", "--db", "copy.db"]);
    assert!(out.status.success(), "{}", text(&out));
    // Through a config's data directory.
    std::fs::write(d.join("c.toml"), "[bot]\ndata_dir = \".\"\n").unwrap();
    let out = mornbot(&d, &["check-db", "--config", "c.toml"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = mornbot(&d, &["backup", "--config", "c.toml", "mornbot.db"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_empty_database_stops_the_daemon_and_check_db_says_why() {
    let d = fresh("empty");
    std::fs::create_dir_all(d.join("data")).unwrap();
    std::fs::write(d.join("data/mornbot.db"), b"").unwrap();
    std::fs::write(d.join("c.toml"), "[bot]\ndata_dir = \"data\"\n").unwrap();
    let out = mornbot(&d, &["run", "--config", "c.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("empty (0 bytes)") && t.contains("restore"),
        "{t}"
    );
    assert_eq!(
        std::fs::metadata(d.join("data/mornbot.db")).unwrap().len(),
        0
    );
    let out = mornbot(&d, &["check-db", "--config", "c.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("empty (0 bytes)"), "{}", text(&out));
    let out = mornbot(&d, &["check-db", "--db", "missing.db"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!d.join("missing.db").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_damaged_database_stops_the_daemon() {
    let d = fresh("damaged");
    std::fs::create_dir_all(d.join("data")).unwrap();
    let db = d.join("data/mornbot.db");
    drop(Store::open(&db).unwrap());
    let mut bytes = std::fs::read(&db).unwrap();
    // Page 2 on: the schema's tables. Garbage there is damage.
    for b in bytes[4096..].iter_mut() {
        *b = 0xA5;
    }
    std::fs::write(&db, &bytes).unwrap();
    std::fs::write(d.join("c.toml"), "[bot]\ndata_dir = \"data\"\n").unwrap();
    let out = mornbot(&d, &["run", "--config", "c.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("the database is damaged"),
        "{}",
        text(&out)
    );
    let out = mornbot(&d, &["check-db", "--config", "c.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("DAMAGED"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&d);
}
