//! Venbacker Numbers (RULINGS.md M19): the faces of the 295-sided die,
//! kept in the map file and checked at load.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: runs the binary

use std::process::Command;

use mornbot::map::{Map, MapError, Venbacker};

fn map() -> &'static Map {
    Map::london_1999()
}

/// The station names of Rule 1.17.8's table (copied verbatim into
/// fixtures/map/), read row by row, left cell then right.
fn table_order() -> Vec<String> {
    let text = include_str!("../fixtures/map/rule-1.17.8-current-table.txt");
    let mut out = Vec::new();
    for row in text.lines().filter(|r| r.starts_with("| ")) {
        for cell in row.split('|').map(str::trim) {
            let Some(cut) = cell.find(" .") else {
                continue;
            };
            out.push(cell[..cut].trim().to_string());
        }
    }
    out
}

#[test]
fn numbers_are_the_order_of_rule_1_17_8s_table() {
    let order = table_order();
    assert_eq!(order.len(), 295);
    assert_eq!(order[0], "Acton Town");
    assert_eq!(order[1], "Aldgate", "the right cell follows the left");
    for (i, name) in order.iter().enumerate() {
        let id = map().lookup(name).unwrap();
        assert_eq!(map().venbacker(id).get(), i as u32 + 1, "{name}");
    }
}

#[test]
fn every_face_is_one_station_and_back() {
    for n in 1..=295 {
        let v = Venbacker::new(n).unwrap();
        let id = map().by_venbacker(v).expect("a face of the die");
        assert_eq!(map().venbacker(id), v);
    }
    assert_eq!(map().by_venbacker(Venbacker::new(296).unwrap()), None);
    assert_eq!(Venbacker::new(0), None);
    let top = map().highest_venbacker();
    assert_eq!(map().station(top).name, "Woodside Park");
    assert_eq!(map().venbacker(top).get(), 295);
}

fn refused(from: &str, to: &str) -> String {
    let text = mornbot::map::LONDON_1999;
    assert!(text.contains(from), "test setup: {from:?} not in the map");
    let bad = text.replacen(from, to, 1);
    match Map::from_toml(&bad, "bad.toml") {
        Ok(_) => panic!("{to:?} must be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_number_twice_or_out_of_range_is_refused_naming_the_station() {
    let msg = refused(
        "\"Aldgate\", current = 32, venbacker = 2,",
        "\"Aldgate\", current = 32, venbacker = 1,",
    );
    assert!(
        msg.contains("station \"Aldgate\": Venbacker Number 1 is also \"Acton Town\"'s"),
        "{msg}"
    );
    for n in [0, 296] {
        let msg = refused("venbacker = 295,", &format!("venbacker = {n},"));
        assert!(
            msg.contains(&format!(
                "station \"Woodside Park\": Venbacker Number {n} is not one of 1-295"
            )),
            "{msg}"
        );
    }
}

#[test]
fn every_station_needs_one_and_ghost_stations_have_none() {
    let text = mornbot::map::LONDON_1999;
    let bad = text.replacen(" venbacker = 2,", "", 1);
    let err = Map::from_toml(&bad, "bad.toml").expect_err("a station without a number");
    assert!(matches!(err, MapError::Syntax { .. }), "{err}");
    assert!(err.to_string().contains("venbacker"), "{err}");
    let ghost = text.replacen("[ghosts]\n", "[ghosts]\nvenbacker = 296\n", 1);
    let err = Map::from_toml(&ghost, "bad.toml").expect_err("Rule 1.11.6: no numbers");
    assert!(err.to_string().contains("venbacker"), "{err}");
}

/// `mornbot map stats --station` shows a station's number and finds a
/// station by it; a number no station has exits 2.
#[test]
fn the_cli_shows_a_stations_number_and_finds_the_station_of_a_face() {
    let run = |station: &str| {
        Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .args(["map", "stats", "--json", "--station", station])
            .output()
            .expect("run mornbot")
    };
    let json = |out: std::process::Output| -> serde_json::Value {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let camden = json(run("Camden Town"));
    let n = camden["venbacker"].as_u64().expect("a number");
    let by_number = json(run(&n.to_string()));
    assert_eq!(by_number["name"], "Camden Town");
    assert_eq!(json(run("295"))["name"], "Woodside Park");
    assert_eq!(json(run("1"))["venbacker"], 1);
    let out = run("296");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no station has Venbacker Number 296"));
}
