//! `mornbot check` on a GSD whose game had a resignation: the resigned
//! player's Plays stay, eir row does not (Rule 1.1.3, RULINGS S26).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::{Command, Output};

fn mornbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(args)
        .output()
        .expect("run mornbot")
}

/// Three players at the start of a game.
const THREE: &str = r#"
id = "t"
rules = []
summary = "t"
[state]
time = "Monday 0900"
order = ["Alice", "Bob", "Cryer"]
to_play = "Alice"
[[state.players]]
name = "Alice"
tokens = { Bk = 2, Re = 2, Br = 2 }
[[state.players]]
name = "Bob"
tokens = { Bk = 2, Re = 2, Br = 2 }
[[state.players]]
name = "Cryer"
tokens = { Bk = 2, Re = 2, Br = 2 }
[play]
line = "Alice : Pass"
[expect]
verdict = "legal"
"#;

/// A game whose player resigned after playing (Rule 1.1.3: e leaves the
/// Token Table, eir Plays stay): `check` reads em as resigned after eir
/// last play and replays the GSD clean (RULINGS S26).
#[test]
fn check_replays_a_gsd_with_a_resigned_player() {
    use mornbot::engine::{case::Case, Game, Verdict};
    let map = mornbot::map::Map::london_1999();
    let start = Case::from_toml(THREE).unwrap().state(map).unwrap();
    let mut g = Game::new("MN9", start);
    let play = |g: &mut Game, line: &str| {
        let out = g.play(map, mornbot::gsd::parse_play(line, map).unwrap());
        assert_eq!(out.verdict, Verdict::Legal, "{line}: {:?}", out.violations);
    };
    play(&mut g, "Alice : [Home: Cockfosters] Cockfosters (PD)");
    play(&mut g, "Bob : [Home: Morden] Morden (NT)");
    play(&mut g, "Cryer : [Home: Epping] Epping (CN)");
    play(&mut g, "Alice : [LV+2] Southgate (PD)");
    assert!(g.resign("Cryer"));
    play(&mut g, "Bob : [LV+1] South Wimbledon (NT)");
    play(&mut g, "Alice : Pass");
    let text = mornbot::gsd::render(&g.gsd(map));
    assert!(!text.contains("| Cryer"), "{text}");
    let dir = std::env::temp_dir().join(format!("mornbot-resigned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gsd.txt");
    std::fs::write(&path, &text).unwrap();
    let out = mornbot(&["check", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{text}");
    assert!(
        stdout.contains("Cryer is in the Plays, not the Token Table: resigned after play 3"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
