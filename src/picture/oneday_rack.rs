//! One player's rack drawn as a journey on Zone 1 ([`oneday_rack_svg`],
//! [`oneday_rack_png`]).
//!
//! The deck has no coordinates; each deck station takes the map's
//! position of the site its first line calls at (so Edgware Road's two
//! cards stand at its two sites, and Aldgate, which stands for Aldgate
//! East too, at Aldgate), projected as the network is ([`Projection`])
//! but fitted to Zone 1. Every deck line is drawn faintly along its
//! stations; over it the rack's journey: each step along its line's
//! stations in the line's colour, the ten stops numbered in rack order
//! and named. A broken rack is drawn up to its first break, the break a
//! red dashed segment with its reason's code. Below, a verdict and the
//! rack as a strip of ten cards, each with its lines and the stations
//! before|after it on each.

use std::fmt::Write;

use super::layout::{Placer, Rect};
use super::oneday::{card_face, fit, line_colour, station_of, GREY, INK};
use super::projection::Projection;
use super::writer::{text_width, Svg};
use super::{png, PictureError};
use crate::kinds::oneday::{
    check_rack, journey, Break, CardId, Deck, JourneyError, JourneyRulings, Leg, StationIdx, RACK,
};
use crate::map::Map;

const WIDTH: f64 = 1400.0;
const MARGIN: f64 = 50.0;
/// A card of the strip, px.
const STRIP_W: f64 = 130.0;
const STRIP_H: f64 = 165.0;
const STRIP_GAP: f64 = (WIDTH - 2.0 * 24.0 - 10.0 * STRIP_W) / 9.0;
const BREAK: &str = "#d50000";

/// The rack judged: the legs to draw, the first break if any, in words.
struct Verdict {
    legs: Vec<Leg>,
    broken: Option<Break>,
    words: String,
}

/// Each deck station's (latitude, longitude) on the map, if the map has it.
fn positions(deck: &Deck) -> Vec<Option<(f64, f64)>> {
    let map = Map::london_1999();
    deck.stations()
        .iter()
        .map(|s| {
            let id = map.find(s.map.first()?)?;
            let line = s.stops.first().map(|t| deck.line(t.line).code);
            Some(map.coordinates(id, line))
        })
        .collect()
}

/// The journey of the rack's slots, or of its first slots up to the
/// first empty one or the first break.
fn verdict(deck: &Deck, rack: &[Option<CardId>; RACK], rulings: &JourneyRulings) -> Verdict {
    let stations: Vec<StationIdx> = rack
        .iter()
        .map_while(|c| c.and_then(|id| station_of(deck, id)))
        .collect();
    let prefix = |n: usize| journey(deck, &stations[..n], rulings).map_or(Vec::new(), |j| j.legs);
    let broken = |b: Break| Verdict {
        legs: prefix(b.slot),
        words: format!("Breaks between {}", b.explain(deck)),
        broken: Some(b),
    };
    if stations.len() < RACK {
        return match journey(deck, &stations, rulings) {
            Err(b) => broken(b),
            Ok(j) => Verdict {
                legs: j.legs,
                broken: None,
                words: format!(
                    "Slots 1 - {} ride on; slot {} holds no card of the deck",
                    stations.len(),
                    stations.len() + 1
                ),
            },
        };
    }
    let ids: Vec<CardId> = rack.iter().flatten().copied().collect();
    match check_rack(deck, &ids, rulings) {
        Ok(j) => Verdict {
            words: format!(
                "A journey: {} leg{}, {} change{}",
                j.legs.len(),
                if j.legs.len() == 1 { "" } else { "s" },
                j.changes(),
                if j.changes() == 1 { "" } else { "s" }
            ),
            legs: j.legs,
            broken: None,
        },
        Err(JourneyError::Break(b)) => broken(b),
        Err(e) => Verdict {
            legs: Vec::new(),
            broken: None,
            words: format!("Not judged: {e}"),
        },
    }
}

/// A private picture as SVG text: one player's rack drawn as a journey on
/// a schematic of the Zone 1 lines. The stops are numbered 1 - 10 in rack
/// order; a journey's legs are drawn in their lines' colours; a broken
/// rack is drawn up to its first break, which is marked by a red dashed
/// segment between the two stations and the reason's code. Below, the
/// rack as a strip of ten cards, each with its station's lines and the
/// stations before|after it on each (e.g. "District 8|11"). An empty slot
/// (`None`) ends the journey drawn there.
pub fn oneday_rack_svg(
    deck: &Deck,
    rack: &[Option<CardId>; RACK],
    rulings: &JourneyRulings,
) -> String {
    let at = positions(deck);
    let proj = Projection::fit_points(at.iter().flatten().copied(), WIDTH, MARGIN);
    let point = |s: StationIdx| at[s.index()].map(|p| proj.point(p));
    let verdict = verdict(deck, rack, rulings);
    let top = proj.height();
    let mut w = Svg::new(WIDTH, top + 40.0 + STRIP_H + 12.0);
    draw_context(&mut w, deck, &point);
    let stops: Vec<Option<StationIdx>> = rack
        .iter()
        .map(|c| c.and_then(|id| station_of(deck, id)))
        .collect();
    draw_legs(&mut w, deck, &stops, &verdict.legs, &point);
    let label = verdict
        .broken
        .as_ref()
        .and_then(|b| draw_break(&mut w, b, &point));
    draw_stops(&mut w, deck, &stops, &point, top, label);
    let colour = if verdict.broken.is_some() { BREAK } else { INK };
    let size = fit(&verdict.words, WIDTH - 48.0, 15.0);
    w.text((24.0, top + 20.0), size, colour, &verdict.words);
    draw_strip(&mut w, deck, rack, top + 40.0);
    w.finish()
}

/// The private picture as PNG bytes: what [`png()`] makes of
/// [`oneday_rack_svg`].
pub fn oneday_rack_png(
    deck: &Deck,
    rack: &[Option<CardId>; RACK],
    rulings: &JourneyRulings,
) -> Result<Vec<u8>, PictureError> {
    png(&oneday_rack_svg(deck, rack, rulings))
}

/// A polyline's `points` attribute.
fn points(pts: impl IntoIterator<Item = (f64, f64)>) -> String {
    let mut s = String::new();
    for (x, y) in pts {
        let _ = write!(s, "{x:.1},{y:.1} ");
    }
    s.trim_end().to_string()
}

/// Every deck line faintly, each along its stations; every station a dot.
fn draw_context(w: &mut Svg, deck: &Deck, point: &dyn Fn(StationIdx) -> Option<(f64, f64)>) {
    for (k, line) in deck.lines().iter().enumerate() {
        let colour = line_colour(deck, crate::kinds::oneday::LineIdx(k as u8));
        let pts = points(line.stations.iter().filter_map(|&s| point(s)));
        w.raw(&format!(
            r#"<polyline points="{pts}" fill="none" stroke="{colour}" stroke-opacity="0.3" stroke-width="5" stroke-linejoin="round" stroke-linecap="round"/>"#
        ));
    }
    for k in 0..deck.stations().len() {
        if let Some(p) = point(StationIdx(k as u8)) {
            w.circle(
                p,
                3.0,
                r##"fill="#ffffff" stroke="#9e9e9e" stroke-width="1.2""##,
            );
        }
    }
}

/// Each step of each leg along its line's stations, in the line's colour
/// over a white casing.
fn draw_legs(
    w: &mut Svg,
    deck: &Deck,
    stops: &[Option<StationIdx>],
    legs: &[Leg],
    point: &dyn Fn(StationIdx) -> Option<(f64, f64)>,
) {
    for leg in legs {
        let line = deck.line(leg.line);
        let colour = line_colour(deck, leg.line);
        for slot in leg.from..leg.to {
            let (Some(a), Some(b)) = (stops[slot - 1], stops[slot]) else {
                continue;
            };
            let (Some(pa), Some(pb)) = (deck.place(a, leg.line), deck.place(b, leg.line)) else {
                continue;
            };
            let (lo, hi) = (pa.min(pb) as usize, pa.max(pb) as usize);
            let pts = points(line.stations[lo..=hi].iter().filter_map(|&s| point(s)));
            for (stroke, width) in [("#ffffff", 11.0), (colour.as_str(), 7.0)] {
                w.raw(&format!(
                    r#"<polyline class="leg" points="{pts}" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-linejoin="round" stroke-linecap="round"/>"#
                ));
            }
        }
    }
}

/// The first break: a red dashed segment between its stations; its
/// label (the slots and the reason's code) and where it belongs, the
/// segment's middle.
fn draw_break(
    w: &mut Svg,
    b: &Break,
    point: &dyn Fn(StationIdx) -> Option<(f64, f64)>,
) -> Option<((f64, f64), String)> {
    let (a, c) = (point(b.from)?, point(b.to)?);
    w.line(
        a,
        c,
        &format!(
            r#"class="break" stroke="{BREAK}" stroke-width="4" stroke-dasharray="10 6" stroke-linecap="round""#
        ),
    );
    let label = format!("break {}|{}: {}", b.slot, b.slot + 1, b.reason.code());
    Some((((a.0 + c.0) / 2.0, (a.1 + c.1) / 2.0), label))
}

/// The stops numbered in rack order (a station met again beside its
/// earlier number); the break's label, then each distinct station's name,
/// each placed where it covers no other.
fn draw_stops(
    w: &mut Svg,
    deck: &Deck,
    stops: &[Option<StationIdx>],
    point: &dyn Fn(StationIdx) -> Option<(f64, f64)>,
    height: f64,
    label: Option<((f64, f64), String)>,
) {
    let mut placed: Vec<(StationIdx, (f64, f64))> = Vec::new();
    let mut placer = Placer::new(Rect {
        x: 0.0,
        y: 0.0,
        w: WIDTH,
        h: height,
    });
    for (k, s) in stops.iter().enumerate() {
        let Some((s, p)) = s.and_then(|s| Some((s, point(s)?))) else {
            continue;
        };
        let again = placed.iter().filter(|(t, _)| *t == s).count() as f64;
        let c = (p.0 + 22.0 * again, p.1);
        placer.reserve(Rect::around(c, 12.0));
        w.circle(
            c,
            11.0,
            &format!(
                r##"class="stop" data-slot="{}" fill="#ffffff" stroke="{INK}" stroke-width="2""##,
                k + 1
            ),
        );
        w.text_centred(c, 12.0, INK, &(k + 1).to_string());
        placed.push((s, c));
    }
    if let Some((mid, label)) = label {
        let r = placer.place(mid, text_width(&label, 13.0) + 8.0, 20.0);
        let style = format!(r##"fill="#ffffff" fill-opacity="0.9" stroke="{BREAK}""##);
        w.rect(r.x, r.y, r.w, r.h, 4.0, &style);
        w.text((r.x + 4.0, r.y + 14.5), 13.0, BREAK, &label);
    }
    for (k, &(s, c)) in placed.iter().enumerate() {
        if placed[..k].iter().any(|(t, _)| *t == s) {
            continue;
        }
        let name = &deck.station(s).name;
        let r = placer.place(c, text_width(name, 12.0) + 6.0, 16.0);
        w.rect(
            r.x,
            r.y,
            r.w,
            r.h,
            3.0,
            r##"fill="#ffffff" fill-opacity="0.85""##,
        );
        w.text((r.x + 3.0, r.y + 12.5), 12.0, INK, name);
    }
}

/// The rack as ten cards along the bottom: each card's face, and under it
/// its lines with the stations before|after it.
fn draw_strip(w: &mut Svg, deck: &Deck, rack: &[Option<CardId>; RACK], y: f64) {
    for (k, c) in rack.iter().enumerate() {
        let x = 24.0 + (STRIP_W + STRIP_GAP) * k as f64;
        w.text_centred(
            (x + STRIP_W / 2.0, y + 6.0),
            11.0,
            GREY,
            &(k + 1).to_string(),
        );
        let Some(id) = *c else {
            w.rect(
                x,
                y + 14.0,
                STRIP_W,
                STRIP_H - 14.0,
                5.0,
                r##"fill="#fafafa" stroke="#bdbdbd" stroke-dasharray="4 3""##,
            );
            continue;
        };
        card_face(w, deck, id, (x, y + 14.0), (STRIP_W, 62.0));
        let Some(s) = station_of(deck, id) else {
            continue;
        };
        for (j, stop) in deck.station(s).stops.iter().enumerate() {
            let ly = y + 94.0 + 15.0 * j as f64;
            let colour = line_colour(deck, stop.line);
            w.rect(
                x + 2.0,
                ly - 9.0,
                6.0,
                11.0,
                1.0,
                &format!(r#"fill="{colour}""#),
            );
            let text = format!(
                "{} {}|{}",
                deck.line(stop.line).name,
                stop.before,
                stop.after
            );
            w.text((x + 12.0, ly), fit(&text, STRIP_W - 14.0, 11.0), INK, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::oneday::tests::{is_png, parses};
    use super::*;
    use crate::kinds::oneday::case::OdCase;

    /// The rack of a case file.
    fn rack(text: &str) -> [Option<CardId>; RACK] {
        let case = OdCase::from_toml(text).unwrap();
        let ids = case.card_ids(Deck::zone1()).unwrap();
        std::array::from_fn(|k| Some(ids[k]))
    }

    const SEED: &str = include_str!("../../fixtures/cases-oneday/racks/seed/seed-001.toml");
    const NO_LINE: &str =
        include_str!("../../fixtures/cases-oneday/racks/no-common-line/no-common-line-001.toml");

    #[test]
    fn the_winning_journey_draws_ten_stops_and_no_break() {
        let deck = Deck::zone1();
        let rulings = JourneyRulings::default();
        let r = rack(SEED);
        let svg = oneday_rack_svg(deck, &r, &rulings);
        assert!(parses(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="stop""#).count(), 10);
        for k in 1..=10 {
            assert!(svg.contains(&format!(r#"data-slot="{k}""#)), "{k}");
        }
        assert!(!svg.contains(r#"class="break""#));
        assert!(svg.contains("A journey: 5 legs, 4 changes"), "{svg}");
        // The legs in their lines' colours.
        let legs = check_rack(deck, &r.map(Option::unwrap), &rulings)
            .unwrap()
            .legs;
        for leg in legs {
            let colour = line_colour(deck, leg.line);
            assert!(
                svg.contains(&format!(r#"stroke="{colour}" stroke-width="7""#)),
                "{leg}"
            );
        }
        // The strip: lines with before|after counts.
        let first = deck.station(station_of(deck, r[0].unwrap()).unwrap());
        let stop = first.stops[0];
        let line = &deck.line(stop.line).name;
        let words = format!("{line} {}|{}", stop.before, stop.after);
        assert!(svg.contains(&words), "{words}");
        assert!(svg.contains("Edgware Road (Bakerloo)"));
        assert!(is_png(&oneday_rack_png(deck, &r, &rulings).unwrap(), WIDTH));
    }

    #[test]
    fn a_broken_rack_draws_its_break() {
        let deck = Deck::zone1();
        let r = rack(NO_LINE);
        let svg = oneday_rack_svg(deck, &r, &JourneyRulings::default());
        assert!(parses(&svg), "{svg}");
        assert_eq!(svg.matches(r#"class="break""#).count(), 1);
        assert!(svg.contains("break 1|2: no-common-line"), "{svg}");
        assert!(svg.contains("Breaks between slots 1 and 2"));
        // Broken at the first step: no leg to draw, but ten stops.
        assert!(!svg.contains(r#"class="leg""#));
        assert_eq!(svg.matches(r#"class="stop""#).count(), 10);
    }

    #[test]
    fn a_rack_broken_later_draws_the_stretch_before() {
        let deck = Deck::zone1();
        let text = include_str!("../../fixtures/cases-oneday/racks/goes-back/goes-back-005.toml");
        let case = OdCase::from_toml(text).unwrap();
        let r = rack(text);
        let svg = oneday_rack_svg(deck, &r, &JourneyRulings::default());
        assert!(parses(&svg));
        assert_eq!(svg.matches(r#"class="break""#).count(), 1);
        let at = case.expect.break_at.unwrap();
        assert!(
            svg.contains(&format!("break {at}|{}: goes-back", at + 1)),
            "{svg}"
        );
        assert_eq!(at > 1, svg.contains(r#"class="leg""#));
    }

    #[test]
    fn an_empty_slot_or_unknown_card_is_drawn_not_refused() {
        let deck = Deck::zone1();
        let mut r = rack(SEED);
        r[6] = None;
        r[8] = Some(CardId(200));
        let svg = oneday_rack_svg(deck, &r, &JourneyRulings::default());
        assert!(parses(&svg));
        assert!(svg.contains("Slots 1 - 6 ride on"), "{svg}");
        assert!(svg.contains("no card #200"));
        assert_eq!(svg.matches(r#"class="stop""#).count(), 8);
    }
}
