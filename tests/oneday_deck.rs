//! One Day in London's deck (RULINGS OD1 - OD3): the committed
//! `maps/oneday-zone1.toml` is exactly what the map gives, and every card
//! fact the seed states holds, and every line is Appendix A's.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use mornbot::kinds::oneday::{derive, render, Deck};
use mornbot::map::{LineCode, Map};

fn derived() -> Deck {
    derive(Map::london_1999()).expect("the map gives a deck")
}

/// Regenerate with `mornbot map oneday-deck > maps/oneday-zone1.toml`.
#[test]
fn the_committed_deck_is_what_the_map_gives() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/oneday-zone1.toml");
    let file = std::fs::read_to_string(path).unwrap();
    let text = render(&derived());
    assert!(
        text == file,
        "maps/oneday-zone1.toml is stale: run `mornbot map oneday-deck > maps/oneday-zone1.toml`"
    );
    assert_eq!(
        render(Deck::zone1()),
        file,
        "the file reads back as written"
    );
}

#[test]
fn sixty_two_stations_ten_lines_seventy_two_cards() {
    for deck in [&derived(), Deck::zone1()] {
        assert_eq!(deck.stations().len(), 62);
        assert_eq!(deck.lines().len(), 10);
        assert_eq!(deck.cards().len(), 72);
        for (k, c) in deck.cards().iter().enumerate() {
            assert_eq!(c.id.0 as usize, k + 1);
        }
    }
}

fn stops(deck: &Deck, name: &str) -> Vec<(String, u8, u8)> {
    let s = deck.station(deck.find(name).unwrap());
    s.stops
        .iter()
        .map(|t| (deck.line(t.line).code.to_string(), t.before, t.after))
        .collect()
}

/// The seed's three sample cards.
#[test]
fn the_seeds_sample_cards() {
    let deck = Deck::zone1();
    // "Sloane Square is a stop only on the district line. There are 8
    // stations before it, and 11 stations after it. There is only one copy."
    assert_eq!(stops(deck, "Sloane Square"), [("DS".to_string(), 8, 11)]);
    assert_eq!(deck.station(deck.find("Sloane Square").unwrap()).copies, 1);
    // "Kings Cross/St Pancras ... There are 3 copies of this card. This is
    // the first stop on the Victoria line, and the last stop on the
    // Piccadilly line."
    let kx = deck.find("Kings Cross/St Pancras").unwrap();
    assert_eq!(deck.station(kx).copies, 3);
    assert_eq!(deck.cards_of(kx).count(), 3);
    let kx_stops = stops(deck, "King's Cross");
    assert!(kx_stops.iter().any(|(l, b, _)| l == "VC" && *b == 0));
    assert!(kx_stops.iter().any(|(l, _, a)| l == "PD" && *a == 0));
    assert_eq!(kx_stops.len(), 5, "on 5 lines");
    // "Embankment station is on 3 lines. There are 2 copies of this card."
    let emb = deck.find("Embankment").unwrap();
    assert_eq!(deck.station(emb).stops.len(), 3);
    assert_eq!(deck.station(emb).copies, 2);
}

/// `shared/design/other-games.md` Appendix A, station for station.
const APPENDIX_A: [(LineCode, &str); 10] = [
    (LineCode::BL, "Paddington, Edgware Road (Bakerloo), Marylebone, Baker Street, Regent's Park, Oxford Circus, Piccadilly Circus, Charing Cross, Embankment, Waterloo, Lambeth North, Elephant and Castle"),
    (LineCode::CN, "Notting Hill Gate, Queensway, Lancaster Gate, Marble Arch, Bond Street, Oxford Circus, Tottenham Court Road, Holborn, Chancery Lane, St. Paul's, Bank, Liverpool Street"),
    (LineCode::DS, "Edgware Road (Circle), Paddington, Bayswater, Notting Hill Gate, High Street Kensington, Earl's Court, Gloucester Road, South Kensington, Sloane Square, Victoria, St. James's Park, Westminster, Embankment, Temple, Blackfriars, Mansion House, Cannon Street, Monument, Tower Hill, Aldgate"),
    (LineCode::HC, "Paddington, Edgware Road (Circle), Baker Street, Great Portland Street, Euston Square, King's Cross St. Pancras, Farringdon, Barbican, Moorgate, Liverpool Street, Aldgate"),
    (LineCode::JL, "Baker Street, Bond Street, Green Park, Westminster, Waterloo, Southwark, London Bridge"),
    (LineCode::MP, "Baker Street, Great Portland Street, Euston Square, King's Cross St. Pancras, Farringdon, Barbican, Moorgate, Liverpool Street, Aldgate"),
    (LineCode::NT, "Elephant and Castle, Borough, London Bridge, Bank, Moorgate, Old Street, Angel, King's Cross St. Pancras, Euston, Warren Street, Goodge Street, Tottenham Court Road, Leicester Square, Charing Cross, Embankment, Waterloo"),
    (LineCode::PD, "Earl's Court, Gloucester Road, South Kensington, Knightsbridge, Hyde Park Corner, Green Park, Piccadilly Circus, Leicester Square, Covent Garden, Holborn, Russell Square, King's Cross St. Pancras"),
    (LineCode::VC, "King's Cross St. Pancras, Euston, Warren Street, Oxford Circus, Green Park, Victoria, Pimlico, Vauxhall"),
    (LineCode::WC, "Waterloo, Bank"),
];

#[test]
fn every_line_is_appendix_a() {
    let deck = Deck::zone1();
    for (line, (code, list)) in deck.lines().iter().zip(APPENDIX_A) {
        assert_eq!(line.code, code);
        let names: Vec<&str> = line
            .stations
            .iter()
            .map(|&s| deck.station(s).name.as_str())
            .collect();
        assert_eq!(names.join(", "), list, "{code}");
    }
    // "Stations with more than one card: Baker Street 2, Bank 2, Embankment
    // 2, Green Park 2, King's Cross St. Pancras 3, Oxford Circus 2,
    // Paddington 2, Waterloo 3."
    let many: Vec<(String, u8)> = deck
        .stations()
        .iter()
        .filter(|s| s.copies > 1)
        .map(|s| (s.name.clone(), s.copies))
        .collect();
    let want = [
        ("Baker Street", 2),
        ("Bank", 2),
        ("Embankment", 2),
        ("Green Park", 2),
        ("King's Cross St. Pancras", 3),
        ("Oxford Circus", 2),
        ("Paddington", 2),
        ("Waterloo", 3),
    ];
    assert_eq!(many, want.map(|(n, c)| (n.to_string(), c)).to_vec());
}

/// OD2: the card names, the merged Aldgate, the map's aliases; Edgware
/// Road alone names no card.
#[test]
fn names_players_write() {
    let deck = Deck::zone1();
    let name = |n: &str| deck.find(n).map(|s| deck.station(s).name.clone());
    assert_eq!(name("Aldgate East").as_deref(), Some("Aldgate"));
    assert_eq!(name("elephant").as_deref(), Some("Elephant and Castle"));
    assert_eq!(
        name("KINGS CROSS").as_deref(),
        Some("King's Cross St. Pancras")
    );
    assert_eq!(
        name("edgware road (bakerloo)").as_deref(),
        Some("Edgware Road (Bakerloo)")
    );
    assert_eq!(
        name("Edgware Road (Circle)").as_deref(),
        Some("Edgware Road (Circle)")
    );
    assert_eq!(name("Edgware Road"), None);
    assert_eq!(name("Mornington Crescent"), None, "zone 2");
}

/// The builder refuses a deck whose parts disagree.
#[test]
fn a_tampered_deck_is_refused() {
    let file = mornbot::kinds::oneday::deck::ONEDAY_ZONE1;
    for (from, to) in [
        ("lines = { DS = [8, 11] }", "lines = { DS = [8, 12] }"),
        ("stations = 62", "stations = 61"),
        (
            "{ id = 72, station = \"Westminster\", copy = 1 }",
            "{ id = 72, station = \"Westminster\", copy = 2 }",
        ),
        (
            "  \"Sloane Square\",\n",
            "  \"Sloane Square\",\n  \"Sloane Square\",\n",
        ),
    ] {
        assert!(file.contains(from), "{from}");
        let bad = file.replacen(from, to, 1);
        assert!(Deck::from_toml(&bad).is_err(), "{to} accepted");
    }
}
