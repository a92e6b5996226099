//! `fixtures/map/rule-1.4.40-sections.txt`, the sections of line a Narg
//! Clamp's carrier may pass along (Rule 1.4.40, RULINGS.md E63), is the
//! map's own derivation written out: it cannot drift from the map.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::map::{Map, Orientation};

const FILE: &str = "fixtures/map/rule-1.4.40-sections.txt";

#[test]
fn the_narg_sections_file_is_the_maps_derivation() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let want = Map::london_1999().sections_table();
    if std::env::var_os("MORNBOT_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "{FILE} differs from the map's sections; rewrite it with MORNBOT_BLESS=1 cargo test --test narg_sections and review the diff"
    );
}

#[test]
fn known_sections_are_oriented_as_on_the_ground() {
    let map = Map::london_1999();
    let id = |n: &str| map.lookup(n).unwrap();
    let o = |l: &str, a: &str, b: &str| {
        map.orientation(mornbot::map::LineCode::parse(l).unwrap(), id(a), id(b))
            .unwrap()
    };
    // The Central line's run under Oxford Street is due east-west.
    assert_eq!(
        o("CN", "Oxford Circus", "Tottenham Court Road"),
        Orientation::Horizontal
    );
    // The Victoria line from Euston to Warren Street runs south-west.
    assert_eq!(o("VC", "Euston", "Warren Street"), Orientation::Diagonal);
    // The Bakerloo line from Regent's Park to Oxford Circus runs south.
    assert_eq!(
        o("BL", "Oxford Circus", "Regent's Park"),
        Orientation::Vertical
    );
    // Not adjacent on the line: no section.
    assert!(map
        .orientation(
            mornbot::map::LineCode::parse("CN").unwrap(),
            id("Bank"),
            id("Holborn")
        )
        .is_none());
}

/// The verdict names the diagonal section the Move would pass along, not
/// only the rule.
#[test]
fn a_narged_move_names_its_diagonal_section() {
    use mornbot::engine::{adjudicate, case::Case, Verdict};
    let map = Map::london_1999();
    let case = Case::from_toml(include_str!(
        "../fixtures/cases/issue15/narg/i15-narg-move-005.toml"
    ))
    .unwrap();
    let state = case.state(map).unwrap();
    let play = mornbot::gsd::parse_play(&case.play.line, map).unwrap();
    let out = adjudicate(map, &state, &play);
    assert_eq!(out.verdict, Verdict::Illegal);
    let v = &out.violations[0];
    assert_eq!(v.rule, "1.4.40");
    assert!(
        (v.message.contains("Warren Street - Euston (VC)")
            || v.message.contains("Euston - Warren Street (VC)"))
            && !v.message.contains("Oxford Circus - ")
            && !v.message.contains("- Oxford Circus"),
        "{}",
        v.message
    );
}

/// A Narged Move at the wrong LV along a diagonal: both causes are cited.
#[test]
fn a_narged_move_at_the_wrong_lv_cites_both_rules() {
    use mornbot::engine::{adjudicate, case::Case};
    let map = Map::london_1999();
    let case = Case::from_toml(include_str!(
        "../fixtures/cases/issue15/narg/i15-narg-move-011.toml"
    ))
    .unwrap();
    let state = case.state(map).unwrap();
    let play = mornbot::gsd::parse_play(&case.play.line, map).unwrap();
    let out = adjudicate(map, &state, &play);
    let rules: Vec<&str> = out.violations.iter().map(|v| v.rule.as_str()).collect();
    assert_eq!(rules, ["1.4.40", "1.6.2"], "{:?}", out.violations);
    assert!(out.violations[1].message.contains("it needs LV 2"));
}
