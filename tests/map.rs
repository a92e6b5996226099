//! The map's facts, pinned against the seed ruleset (Volume 1) and the
//! decisions recorded in RULINGS.md.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use chrono::Weekday;
use mornbot::map::{Bank, Category, Direction, LineCode, Map, MapError, StationId, StationKind};

fn map() -> &'static Map {
    Map::london_1999()
}

fn id(name: &str) -> StationId {
    map().lookup(name).unwrap_or_else(|e| panic!("{e}"))
}

/// Parses the Current table as printed in Rule 1.17.8 (copied verbatim into
/// fixtures/map/): `| Acton Town . . . . 63 | Aldgate . . . .32 |`.
fn current_table() -> Vec<(String, u32)> {
    let text = include_str!("../fixtures/map/rule-1.17.8-current-table.txt");
    let mut out = Vec::new();
    for row in text.lines() {
        for cell in row.split('|') {
            let cell = cell.trim();
            let Some(pos) = cell.rfind(|c: char| !c.is_ascii_digit()) else {
                continue;
            };
            let (head, digits) = cell.split_at(pos + 1);
            if digits.is_empty()
                || !head.contains(". .") && !head.ends_with(". ") && !head.ends_with('.')
            {
                continue;
            }
            let name = head.trim_end_matches([' ', '.']).trim();
            out.push((name.to_string(), digits.parse().unwrap()));
        }
    }
    out
}

#[test]
fn stations_are_exactly_the_current_table_of_rule_1_17_8() {
    let table = current_table();
    assert_eq!(table.len(), 295, "the fixture holds the whole table");
    assert_eq!(map().stations().len(), 295);
    for (name, current) in &table {
        let s = map().station(id(name));
        assert_eq!(&s.name, name, "spelled as in the table");
        assert_eq!(s.current, *current, "{name}");
    }
}

#[test]
fn currents_pinned_by_the_issue() {
    assert_eq!(map().station(id("Tottenham Court Road")).current, 0);
    assert_eq!(map().station(id("Mornington Crescent")).current, 18);
    assert_eq!(map().station(id("Amersham")).current, 100);
}

#[test]
fn call_of_rule_1_17_10() {
    assert_eq!(map().station(id("Camden Town")).call, 4);
    assert_eq!(map().station(id("Baker Street")).call, 10);
    assert_eq!(map().station(id("Brixton")).call, 1);
}

#[test]
fn escalator_link_counts_both_stations_rule_1_5_3() {
    let (aldgate, shadwell) = (id("Aldgate"), id("Shadwell"));
    // Aldgate - Tower Hill (CL) - Tower Gateway (link) - Shadwell (DL).
    assert_eq!(
        map().portion_distance(aldgate, &[LineCode::CL, LineCode::DL], shadwell),
        Some(3)
    );
    assert_eq!(map().route_distance(aldgate, shadwell), Some(3));
    assert_eq!(
        map().line_changes(aldgate, shadwell),
        Some(1),
        "one interchange"
    );
    assert_eq!(map().escalator_partner(id("Bank")), Some(id("Monument")));
    assert_eq!(
        map().escalator_partner(id("Bow Church")),
        Some(id("Bow Road"))
    );
    assert_eq!(
        map().escalator_partner(id("Tower Gateway")),
        Some(id("Tower Hill"))
    );
    assert_eq!(map().escalator_partner(id("Euston")), None);
}

#[test]
fn holborn_to_euston_by_portions() {
    let (holborn, euston) = (id("Holborn"), id("Euston"));
    assert_eq!(
        map().portion_distance(holborn, &[LineCode::CN, LineCode::NT], euston),
        Some(4)
    );
    assert_eq!(
        map().portion_distance(holborn, &[LineCode::PD, LineCode::NT], euston),
        Some(3)
    );
    assert_eq!(
        map().portion_distance(holborn, &[LineCode::PD, LineCode::VC], euston),
        Some(3)
    );
    assert_eq!(map().route_distance(holborn, euston), Some(3));
    // The portions must be usable in order: no Victoria at Holborn.
    assert_eq!(
        map().portion_distance(holborn, &[LineCode::VC], euston),
        None
    );
}

#[test]
fn line_direction_forbids_reversal_within_a_portion() {
    // Warren Street to King's Cross on the Northern alone needs a reversal
    // (Charing Cross branch north, then Bank branch south).
    assert_eq!(
        map().portion_distance(
            id("Warren Street"),
            &[LineCode::NT],
            id("King's Cross St. Pancras")
        ),
        None
    );
    // Edgware branch to High Barnet branch reverses at Camden Town.
    assert_eq!(
        map().portion_distance(id("Chalk Farm"), &[LineCode::NT], id("Kentish Town")),
        None
    );
    assert_eq!(
        map().route_distance(id("Chalk Farm"), id("Kentish Town")),
        Some(2)
    );
    // The Northern is N-S: southbound from Camden Town is Forward.
    let ct = id("Camden Town");
    let to_mc = map()
        .steps(ct, LineCode::NT)
        .iter()
        .find(|s| s.to == id("Mornington Crescent"))
        .unwrap();
    assert_eq!(to_mc.leave, Direction::Forward);
}

#[test]
fn heathrow_loop_is_one_way_clockwise_rule_1_5_7() {
    let (hw, hx, t4, t123) = (
        id("Hounslow West"),
        id("Hatton Cross"),
        id("Heathrow Terminal 4"),
        id("Heathrow Terminal 123"),
    );
    assert_eq!(map().portion_distance(hw, &[LineCode::PD], t4), Some(2));
    assert_eq!(
        map().portion_distance(hw, &[LineCode::PD], t123),
        Some(3),
        "round by Terminal 4"
    );
    assert_eq!(
        map().portion_distance(t123, &[LineCode::PD], hw),
        Some(2),
        "out the way the train leaves"
    );
    assert_eq!(map().portion_distance(t4, &[LineCode::PD], hw), Some(3));
    assert_eq!(
        map().portion_distance(t123, &[LineCode::PD], t4),
        None,
        "anticlockwise"
    );
    assert_eq!(map().route_distance(t123, t4), Some(2));
    assert_eq!(map().route_distance(t4, t123), Some(1));
    assert!(!map().is_terminus(hx, LineCode::PD));
    assert!(!map().is_terminus(t123, LineCode::PD));
}

#[test]
fn circle_is_a_loop() {
    let circle = map().line(LineCode::CL);
    assert_eq!(circle.branches.len(), 1);
    assert_eq!(circle.branches[0].first(), circle.branches[0].last());
    assert_eq!(circle.segments, 27);
    // Clockwise all the way round: Aldgate to Liverpool Street is 26 forward.
    assert_eq!(
        map().portion_distance(id("Aldgate"), &[LineCode::CL], id("Liverpool Street")),
        Some(1)
    );
    for s in &circle.branches[0] {
        assert!(!map().is_terminus(*s, LineCode::CL));
        assert_eq!(
            map().station(*s).quadrants,
            vec![0],
            "{}",
            map().station(*s).name
        );
    }
}

#[test]
fn the_1999_network() {
    let m = map();
    assert_eq!(m.lines().len(), 13);
    // Jubilee: to Stratford, and the Charing Cross branch still listed.
    assert!(m.is_terminus(id("Stratford"), LineCode::JL));
    assert!(m.is_terminus(id("Charing Cross"), LineCode::JL));
    assert!(m
        .neighbours(id("Green Park"), LineCode::JL)
        .contains(&id("Charing Cross")));
    // No DLR Lewisham extension: Island Gardens is a terminus.
    assert!(m.is_terminus(id("Island Gardens"), LineCode::DL));
    assert!(m.lookup("Cutty Sark").is_err());
    for t in ["Bank", "Tower Gateway", "Stratford", "Beckton"] {
        assert!(m.is_terminus(id(t), LineCode::DL), "{t}");
    }
    // East London: Shoreditch to New Cross and New Cross Gate.
    for t in ["Shoreditch", "New Cross", "New Cross Gate"] {
        assert!(m.is_terminus(id(t), LineCode::EL), "{t}");
    }
    // Hammersmith & City from Hammersmith to Barking.
    assert!(m.is_terminus(id("Hammersmith"), LineCode::HC));
    assert!(m.is_terminus(id("Barking"), LineCode::HC));
    // Waterloo & City.
    assert_eq!(m.neighbours(id("Waterloo"), LineCode::WC), &[id("Bank")]);
}

#[test]
fn termini_derive_from_the_branches() {
    let m = map();
    let termini = |n: &str| {
        m.station(id(n))
            .terminus_of
            .iter()
            .map(|l| l.code())
            .collect::<Vec<_>>()
    };
    assert_eq!(termini("Brixton"), ["VC"]);
    assert_eq!(termini("Edgware Road"), ["DS"]);
    assert_eq!(termini("Aldgate"), ["MP"]);
    assert_eq!(termini("Elephant and Castle"), ["BL"]);
    assert!(termini("Camden Town").is_empty());
    assert!(termini("Kennington").is_empty());
    assert!(termini("Woodford").is_empty());
    assert!(termini("Finchley Central").is_empty());
    for t in ["Morden", "Edgware", "High Barnet", "Mill Hill East"] {
        assert_eq!(termini(t), ["NT"], "{t}");
    }
    assert!(m
        .station(id("Brixton"))
        .categories
        .contains(Category::Terminus));
}

#[test]
fn split_stations_edgware_road_and_shepherds_bush() {
    let m = map();
    let er = id("Edgware Road");
    assert_eq!(m.station(er).sites.len(), 2);
    assert!(
        !m.can_change_line(er, LineCode::BL, LineCode::CL),
        "different places"
    );
    assert!(
        m.can_change_line(er, LineCode::CL, LineCode::HC),
        "shared platforms"
    );
    assert!(
        m.within_walking_distance(er, er),
        "same name, not co-located (Rule 1.7.10)"
    );
    let sb = id("Shepherd's Bush");
    assert!(!m.can_change_line(sb, LineCode::CN, LineCode::HC));
    assert!(m.within_walking_distance(sb, sb));
    assert!(!m.within_walking_distance(id("Bank"), id("Bank")));
    // R cannot change line between the two sites of Shepherd's Bush.
    assert!(
        m.route_distance(id("Holland Park"), id("Goldhawk Road"))
            .unwrap()
            > 2
    );
}

#[test]
fn interchange_and_co_located_rule_1_17_6() {
    let kind = |n: &str| map().station(id(n)).kind;
    assert_eq!(kind("Bayswater"), StationKind::CoLocated);
    assert_eq!(kind("Turnham Green"), StationKind::Interchange);
    assert_eq!(kind("Bank"), StationKind::Interchange);
    assert_eq!(
        kind("Monument"),
        StationKind::Interchange,
        "escalator link symbol"
    );
    assert_eq!(kind("Great Portland Street"), StationKind::CoLocated);
    assert_eq!(kind("Mornington Crescent"), StationKind::Single);
    assert!(map().can_change_line(id("Bayswater"), LineCode::CL, LineCode::DS));
    assert!(map().can_change_line(id("Turnham Green"), LineCode::DS, LineCode::PD));
    assert!(!map().can_change_line(id("Bayswater"), LineCode::CL, LineCode::CN));
    let cats = |n: &str| map().station(id(n)).categories;
    assert!(cats("Bayswater").contains(Category::CoLocated));
    assert!(!cats("Bayswater").contains(Category::Interchange));
    assert!(cats("Oxford Circus").contains(Category::Interchange));
}

#[test]
fn every_category_has_members() {
    let m = map();
    let members = |c: Category| {
        m.stations()
            .iter()
            .filter(|s| s.categories.contains(c))
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
    };
    let has = |c: Category, n: &str| assert!(members(c).contains(&n), "{n} is {}", c.name());
    has(Category::AToZ, "Goodge Street");
    has(Category::AToZ, "Hanger Lane");
    has(Category::BritishRail, "Euston");
    has(Category::BritishRail, "Blackfriars");
    has(Category::Compass, "North Acton");
    has(Category::Compass, "Westminster");
    has(Category::Green, "Bethnal Green");
    has(Category::High, "High Barnet");
    has(Category::Hill, "Tower Hill");
    has(Category::Holy, "Angel");
    has(Category::Holy, "Canons Park");
    has(Category::Holy, "Bow Church");
    has(Category::Holy, "King's Cross St. Pancras");
    has(Category::Holy, "Temple");
    has(Category::Park, "Regent's Park");
    has(Category::Plant, "Elm Park");
    has(Category::Plant, "Oakwood");
    has(Category::Populated, "Kentish Town");
    has(Category::Verdant, "Covent Garden");
    // No 1999 station has both High and Hill in its name.
    assert!(members(Category::HighHill).is_empty());
    assert!(m
        .stations()
        .iter()
        .any(|s| s.categories.is_hors_classification()));
    assert_eq!(
        m.station(id("Bank")).categories.names(),
        ["Interchange", "Terminus"]
    );
}

#[test]
fn zones_quadrants_and_thames() {
    let m = map();
    let s = |n: &str| m.station(id(n));
    assert_eq!(
        s("Elephant and Castle").zones,
        [1, 2],
        "boundary station in both"
    );
    assert_eq!(s("Amersham").zones, [7], "beyond zone 6 is zone 7");
    assert_eq!(s("Tottenham Court Road").quadrants, [0]);
    assert_eq!(s("Epping").quadrants, [1]);
    assert_eq!(s("Morden").quadrants, [3]);
    assert_eq!(s("Stanmore").quadrants, [4]);
    assert_eq!(s("Beckton").quadrants, [1, 2], "on the E-W half boundary");
    assert_eq!(s("Waterloo").thames, Bank::South);
    assert_eq!(s("Westminster").thames, Bank::North);
    assert_eq!(s("North Greenwich").thames, Bank::South);
    assert_eq!(s("Island Gardens").thames, Bank::North);
    let (a, b) = (id("Amersham"), id("Island Gardens"));
    // Rule 1.17.9's own example: Amersham to Island Gardens is Q2 Z5.
    assert_eq!((m.quadrant_distance(a, b), m.zone_distance(a, b)), (2, 5));
    assert_eq!(
        m.fosdyke(id("Euston"), id("Euston")).to_string(),
        "(S0,R0,L0,Q0,Z0)"
    );
    assert_eq!(
        m.fosdyke(id("Bank"), id("Holborn")).to_string(),
        "(S3,R3,L0,Q0,Z0)"
    );
}

#[test]
fn distances_are_symmetric_except_one_way_and_bounded() {
    let m = map();
    let heathrow = [id("Heathrow Terminal 4"), id("Heathrow Terminal 123")];
    for a in m.station_ids() {
        for b in m.station_ids() {
            let r = m.route_distance(a, b).expect("the map is connected");
            assert_eq!(r == 0, a == b);
            assert!(r < 60);
            if !heathrow.contains(&a) && !heathrow.contains(&b) {
                assert_eq!(Some(r), m.route_distance(b, a));
                assert_eq!(m.line_changes(a, b), m.line_changes(b, a));
            }
            assert!(m.line_changes(a, b).unwrap() <= 5);
            if let Some(s) = m.same_line_distance(a, b) {
                assert!(s >= r, "S is never shorter than R");
            }
        }
    }
}

#[test]
fn walking_distance_rule_1_7_10() {
    let m = map();
    assert!(m.within_walking_distance(id("Euston"), id("Euston Square")));
    assert!(m.within_walking_distance(id("Ruislip"), id("West Ruislip")));
    assert!(m.within_walking_distance(id("Kenton"), id("Northwick Park")));
    assert!(
        m.within_walking_distance(id("Goodge Street"), id("Warren Street")),
        "adjacent"
    );
    assert!(
        m.within_walking_distance(id("Monument"), id("Bank")),
        "one interchange symbol"
    );
    assert!(!m.within_walking_distance(id("Euston"), id("Holborn")));
    assert_eq!(m.walking_pairs().len(), 5);
}

#[test]
fn ghost_stations_rule_1_11_6() {
    let m = map();
    assert_eq!(m.ghosts().len(), 9);
    assert_eq!(m.ghost_current(), 50);
    assert_eq!(m.lookup_ghost("hob's end"), Some("Hob's End"));
    assert_eq!(m.lookup_ghost("aldwych"), Some("Aldwych"));
    assert!(m.lookup("Aldwych").is_err(), "not a station of the map");
    assert_eq!(mornbot::map::Fosdyke::GHOST.to_string(), "(S*,R*,L*,Q*,Z*)");
}

#[test]
fn restricted_openings_rules_1_13_5_and_1_13_6() {
    let m = map();
    let noon = 12 * 60;
    // Mornington Crescent is Closed until an Action opens it.
    assert!(!m.station_open(id("Mornington Crescent"), None, Weekday::Mon, noon));
    // Holy stations close on Sundays.
    assert!(m.station_open(id("Angel"), None, Weekday::Sat, noon));
    assert!(!m.station_open(id("Angel"), None, Weekday::Sun, noon));
    assert!(m.station_open(id("Bank"), None, Weekday::Sun, noon));
    // Turnham Green (PD) only; Turnham Green (DS) stays open.
    assert!(!m.station_open(id("Turnham Green"), Some(LineCode::PD), Weekday::Tue, noon));
    assert!(m.station_open(
        id("Turnham Green"),
        Some(LineCode::PD),
        Weekday::Tue,
        8 * 60
    ));
    assert!(m.station_open(id("Turnham Green"), Some(LineCode::DS), Weekday::Tue, noon));
    assert!(m.station_open(id("Turnham Green"), None, Weekday::Tue, noon));
    assert!(!m.station_open(id("Cannon Street"), None, Weekday::Sat, noon));
    assert!(!m.station_open(id("Chigwell"), None, Weekday::Wed, 20 * 60 + 10));
    // Segments: Waterloo & City in Peak Hours only.
    let (w, b) = (id("Waterloo"), id("Bank"));
    assert!(m.segment_open(LineCode::WC, w, b, Weekday::Fri, 9 * 60));
    assert!(!m.segment_open(LineCode::WC, b, w, Weekday::Fri, 21 * 60));
    assert!(!m.segment_open(LineCode::WC, w, b, Weekday::Sun, 9 * 60));
    // Whitechapel to Barking (HC): every segment between, HC only.
    let hc = m
        .segment_restrictions()
        .iter()
        .find(|r| r.line == LineCode::HC)
        .unwrap();
    assert_eq!(
        hc.segments.len(),
        9,
        "Whitechapel, Stepney Green, ..., East Ham, Barking"
    );
    assert!(!m.segment_open(
        LineCode::HC,
        id("Plaistow"),
        id("Upton Park"),
        Weekday::Sun,
        noon
    ));
    assert!(m.segment_open(
        LineCode::DS,
        id("Plaistow"),
        id("Upton Park"),
        Weekday::Sun,
        noon
    ));
}

#[test]
fn lookup_tolerates_the_way_players_write() {
    let m = map();
    for (written, name) in [
        ("Heathrow Terminals 1, 2, 3", "Heathrow Terminal 123"),
        ("heathrow terminal 123", "Heathrow Terminal 123"),
        ("Kings Cross St Pancras", "King's Cross St. Pancras"),
        ("KING'S CROSS", "King's Cross St. Pancras"),
        ("Saint James's Park", "St. James's Park"),
        ("St Pauls", "St. Paul's"),
        ("Chalfont & Latimer", "Chalfont and Latimer"),
        ("Harrow on the Hill", "Harrow-on-the-Hill"),
        ("Bromley by Bow", "Bromley-by-Bow"),
        ("Kensington Olympia", "Kensington (Olympia)"),
        ("Queen's Park", "Queens Park"),
        ("  earl's   court ", "Earl's Court"),
    ] {
        assert_eq!(
            m.station(m.lookup(written).unwrap()).name,
            name,
            "{written}"
        );
    }
    let err = m.lookup("Morningtn Crescent").unwrap_err();
    assert_eq!(
        err.suggestions.first().map(String::as_str),
        Some("Mornington Crescent")
    );
    assert!(err.to_string().contains("did you mean Mornington Crescent"));
    assert!(m.lookup("Narnia").unwrap_err().suggestions.is_empty());
}

// ---- bad data files ----

fn broken(from: &str, to: &str) -> (String, MapError) {
    let text = mornbot::map::LONDON_1999;
    assert!(text.contains(from), "test setup: {from:?} not in the map");
    let bad = text.replacen(from, to, 1);
    let err = Map::from_toml(&bad, "bad.toml").expect_err("must be refused");
    (bad, err)
}

fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count() + 1
}

#[test]
fn unknown_station_names_file_line_and_station() {
    let (text, err) = broken(
        "\"Kenton\", \"South Kenton\"",
        "\"Kenton\", \"South Kentonn\"",
    );
    let msg = err.to_string();
    let line = line_of(&text, "South Kentonn");
    assert!(msg.contains(&format!("bad.toml:{line}:")), "{msg}");
    assert!(msg.contains("\"South Kentonn\""), "{msg}");
    assert!(msg.contains("unknown station"), "{msg}");
}

#[test]
fn duplicate_segment_is_refused() {
    // Listing Waterloo - Bank again, backwards, on WC.
    let (_, err) = broken(
        "stations = [\n    \"Bank\", \"Waterloo\",\n  ] },",
        "stations = [\n    \"Bank\", \"Waterloo\", \"Bank\",\n  ] },",
    );
    assert!(err.to_string().contains("duplicate segment"), "{err}");
}

#[test]
fn station_missing_from_every_line_is_refused() {
    let (_, err) = broken(
        "\"Mill Hill East\", \"Finchley Central\"",
        "\"West Finchley\", \"Finchley Central\"",
    );
    let msg = err.to_string();
    assert!(
        msg.contains("station \"Mill Hill East\": station is on no line"),
        "{msg}"
    );
}

#[test]
fn duplicate_station_is_refused() {
    let (text, err) = broken("{ name = \"Acton Town\",", "{ name = \"Aldgate\",");
    let line = line_of(&text, "{ name = \"Aldgate\",") + 1;
    let msg = err.to_string();
    assert!(
        msg.contains(&format!(
            "bad.toml:{line}: station \"Aldgate\": duplicate station"
        )),
        "{msg}"
    );
}

#[test]
fn bad_schedule_category_and_alias_are_refused() {
    let (_, err) = broken(
        "open = [\"Mon-Fri 0000-2100\"]",
        "open = [\"Mon-Fry 0000-2100\"]",
    );
    assert!(err.to_string().contains("Mon-Fry"), "{err}");
    let (_, err) = broken("category = \"Holy\"", "category = \"Sacred\"");
    assert!(
        err.to_string().contains("unknown category \"Sacred\""),
        "{err}"
    );
    let (_, err) = broken(
        "\"Olympia\" = \"Kensington (Olympia)\"",
        "\"Olympia\" = \"Olympus\"",
    );
    assert!(err.to_string().contains("\"Olympus\""), "{err}");
}

#[test]
fn syntax_errors_name_the_file_and_position() {
    let err = Map::from_toml("[map]\nname = \n", "broken.toml").unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("broken.toml:"), "{msg}");
    assert!(msg.contains("line 2"), "{msg}");
    let (_, err) = broken("[links]", "[links]\nteleport = []");
    assert!(
        err.to_string().contains("teleport"),
        "unknown keys are refused: {err}"
    );
}

#[test]
fn a_map_without_a_station_the_rules_name_is_refused_at_load() {
    // Every mention renamed: the map is consistent, but Rule 1.8.1's Loop
    // Trap Station is gone.
    let text = mornbot::map::LONDON_1999.replace("\"Dollis Hill\"", "\"Dollis Hillock\"");
    let err = Map::from_toml(&text, "renamed.toml").expect_err("must be refused");
    let msg = err.to_string();
    assert!(msg.contains("Rule 1.8.1 names Dollis Hill"), "{msg}");
    assert!(msg.contains("[landmarks] dollis_hill"), "{msg}");
    // Naming the map's station for it makes the map usable again.
    let fixed = text.replacen(
        "\n[stations]\n",
        "\n[landmarks]\ndollis_hill = \"Dollis Hillock\"\n\n[stations]\n",
        1,
    );
    let m = Map::from_toml(&fixed, "renamed.toml").expect("landmark named");
    let id = m.landmark(mornbot::map::Landmark::DollisHill);
    assert_eq!(m.station(id).name, "Dollis Hillock");
    // An unknown landmark key is refused, with the known ones.
    let bad = fixed.replacen("dollis_hill =", "dolis_hill =", 1);
    let msg = Map::from_toml(&bad, "x.toml").unwrap_err().to_string();
    assert!(msg.contains("unknown landmark \"dolis_hill\""), "{msg}");
}

#[test]
fn every_landmark_is_the_station_its_rule_names() {
    let m = map();
    for l in mornbot::map::Landmark::ALL {
        assert_eq!(m.station(m.landmark(l)).name, l.rule_name(), "{l:?}");
    }
}

#[test]
fn every_line_has_its_own_colour_and_a_bad_colour_is_refused() {
    let m = Map::london_1999();
    assert_eq!(m.line(LineCode::CN).colour.hex(), "#e32017");
    assert_eq!(m.line(LineCode::NT).colour.hex(), "#000000");
    let colours: std::collections::HashSet<_> = m.lines().iter().map(|l| l.colour).collect();
    assert_eq!(
        colours.len(),
        LineCode::ALL.len(),
        "two lines share a colour"
    );
    let (text, err) = broken("colour = \"#E32017\"", "colour = \"red\"");
    let msg = err.to_string();
    let line = line_of(&text, "colour = \"red\"");
    assert!(msg.contains(&format!("bad.toml:{line}")), "{msg}");
    assert!(msg.contains("CN: colour \"red\" is not #RRGGBB"), "{msg}");
}
