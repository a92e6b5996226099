//! `mornbot map oneday-deck` and `mornbot map stats --kind oneday`: One
//! Day in London's deck derived from the map (RULINGS OD1 - OD3).

use serde_json::json;

use super::Exit;
use crate::kinds::oneday::{derive, render, Deck};
use crate::map::Map;

/// The deck the map gives, or the reason on standard error.
fn derived(map: &Map) -> Option<Deck> {
    match derive(map) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("mornbot: {e}");
            None
        }
    }
}

/// `mornbot map oneday-deck`: the deck file, on standard output.
pub(super) fn deck(map: &Map) -> anyhow::Result<Exit> {
    let Some(deck) = derived(map) else {
        return Ok(Exit::BadInput);
    };
    print!("{}", render(&deck));
    Ok(Exit::Ok)
}

/// `mornbot map stats --kind oneday [--json]`: every card with its lines
/// and the stations before and after it, and whether the committed deck
/// file is what the map gives.
pub(super) fn stats(map: &Map, json: bool) -> anyhow::Result<Exit> {
    let Some(deck) = derived(map) else {
        return Ok(Exit::BadInput);
    };
    let committed = render(&deck) == crate::kinds::oneday::deck::ONEDAY_ZONE1;
    let line = |t: &crate::kinds::oneday::Stop| (deck.line(t.line).code.code(), t.before, t.after);
    if json {
        let cards: Vec<_> = deck
            .cards()
            .iter()
            .map(|c| {
                let s = deck.station(c.station);
                let lines: Vec<_> = s
                    .stops
                    .iter()
                    .map(|t| {
                        let (code, before, after) = line(t);
                        json!({"line": code, "before": before, "after": after})
                    })
                    .collect();
                json!({"id": c.id.0, "station": s.name, "copy": c.copy, "of": s.copies, "lines": lines})
            })
            .collect();
        let report = json!({
            "stations": deck.stations().len(),
            "lines": deck.lines().len(),
            "cards": cards.len(),
            "committed_deck_matches": committed,
            "card_list": cards,
        });
        println!("{report}");
        return Ok(Exit::Ok);
    }
    println!(
        "oneday: {} stations, {} lines, {} cards (RULINGS OD1 - OD3); maps/oneday-zone1.toml {}",
        deck.stations().len(),
        deck.lines().len(),
        deck.cards().len(),
        if committed { "matches" } else { "DIFFERS" }
    );
    for c in deck.cards() {
        let s = deck.station(c.station);
        let lines: Vec<String> = s
            .stops
            .iter()
            .map(|t| {
                let (code, before, after) = line(t);
                format!("{code} {before}|{after}")
            })
            .collect();
        println!(
            "{:>3}  {:<28} {}/{}  {}",
            c.id.0,
            s.name,
            c.copy,
            s.copies,
            lines.join("  ")
        );
    }
    Ok(Exit::Ok)
}
