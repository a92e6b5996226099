//! An mc-xml game drawn on the network ([`mcxml_svg`], [`mcxml_png`]): the
//! plain network of the map, each train as a disc in its player's colour
//! with eir initial, closed stations greyed, crossed and ringed, a label at
//! every station with a train or a closure, and a panel below with each
//! player's tokens and parts, the supply and who plays next.

use std::collections::BTreeMap;

use super::boxes::LabelBox;
use super::layout::{Placer, Rect};
use super::network;
use super::projection::Projection;
use super::writer::{text_width, Svg};
use super::{png, PictureError, MARGIN, WIDTH};
use crate::kinds::mcxml::{Facts, Part, State};
use crate::map::StationId;

/// Players' colours, in order of play (as Volume 1's pictures): none is a
/// line's colour.
const COLOURS: [&str; 8] = [
    "#d81b60", "#5e35b1", "#2e7d32", "#ef6c00", "#1565c0", "#6d4c41", "#827717", "#00838f",
];
const SIZE: f64 = 13.0;
const LEADING: f64 = 16.0;
const PANEL_LEADING: f64 = 20.0;

fn colour(i: usize) -> &'static str {
    COLOURS[i % COLOURS.len()]
}

/// The picture of an mc-xml state as SVG text.
pub fn mcxml_svg(facts: &Facts, state: &State) -> String {
    let map = facts.map();
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let panel = panel_lines(facts, state);
    let height = proj.height() + PANEL_LEADING * (panel.len() as f64 + 1.0);
    let mut w = Svg::new(WIDTH, height);
    network::draw_lines(&mut w, map, &proj, None);
    network::draw_stations(&mut w, map, &proj, |id| Some(state.is_closed(facts, id)));
    draw_marks(&mut w, facts, &proj, state);
    let top = proj.height();
    w.line(
        (0.0, top),
        (WIDTH, top),
        r##"stroke="#9e9e9e" stroke-width="1""##,
    );
    for (k, (text, fill)) in panel.iter().enumerate() {
        let y = top + PANEL_LEADING * (k as f64 + 1.0);
        w.text((MARGIN, y), SIZE + 2.0, fill, text);
    }
    w.finish()
}

/// The picture of an mc-xml state as PNG bytes.
pub fn mcxml_png(facts: &Facts, state: &State) -> Result<Vec<u8>, PictureError> {
    png(&mcxml_svg(facts, state))
}

/// Label lines per station: the trains there, and its closure.
fn notes(facts: &Facts, state: &State) -> BTreeMap<StationId, Vec<(String, &'static str)>> {
    let mut notes: BTreeMap<StationId, Vec<(String, &'static str)>> = BTreeMap::new();
    for (i, t) in state.trains.iter().enumerate() {
        notes
            .entry(t.at)
            .or_default()
            .push((t.name.clone(), colour(i)));
    }
    if state.rebuilding {
        notes
            .entry(facts.mornington())
            .or_default()
            .push(("closed for rebuilding".into(), "#616161"));
    }
    for c in &state.closed {
        notes
            .entry(c.station)
            .or_default()
            .push((format!("closed, strength {}", c.strength), "#c62828"));
    }
    notes
}

fn draw_marks(w: &mut Svg, facts: &Facts, proj: &Projection, state: &State) {
    let map = facts.map();
    let at = |id: StationId| proj.point(map.coordinates(id, None));
    for c in &state.closed {
        w.circle(
            at(c.station),
            12.0,
            r##"fill="none" stroke="#c62828" stroke-width="3.5""##,
        );
    }
    let mut here: BTreeMap<StationId, Vec<usize>> = BTreeMap::new();
    for (i, t) in state.trains.iter().enumerate() {
        here.entry(t.at).or_default().push(i);
    }
    for (id, players) in &here {
        let c = at(*id);
        let n = players.len() as f64;
        for (k, &i) in players.iter().enumerate() {
            let angle = std::f64::consts::TAU * k as f64 / n - std::f64::consts::FRAC_PI_2;
            let r = if players.len() == 1 { 0.0 } else { 9.0 };
            let p = (c.0 + r * angle.cos(), c.1 + r * angle.sin());
            w.circle(
                p,
                8.0,
                &format!(
                    r##"fill="{}" stroke="#ffffff" stroke-width="1.5""##,
                    colour(i)
                ),
            );
            let initial: String = state.trains[i].name.chars().take(1).collect();
            w.text_centred(p, 11.0, "#ffffff", &initial);
        }
    }
    let notes = notes(facts, state);
    let mut placer = Placer::new(Rect {
        x: 2.0,
        y: 2.0,
        w: WIDTH - 4.0,
        h: proj.height() - 4.0,
    });
    for id in notes.keys() {
        placer.reserve(Rect::around(at(*id), 12.0));
    }
    let placed: Vec<(StationId, LabelBox)> = notes
        .iter()
        .map(|(id, lines)| {
            let name = facts.name(*id);
            let width = lines
                .iter()
                .map(|(t, _)| text_width(t, SIZE))
                .chain([text_width(name, SIZE + 1.0)])
                .fold(0.0, f64::max)
                + 10.0;
            let height = LEADING * (lines.len() as f64 + 1.0) + 6.0;
            let r = placer.place(at(*id), width, height);
            (*id, LabelBox::snapped(r.x, r.y, r.w, r.h))
        })
        .collect();
    for (id, b) in &placed {
        let c = at(*id);
        let near = (c.0.clamp(b.x, b.x + b.w), c.1.clamp(b.y, b.y + b.h));
        w.line(c, near, r##"stroke="#455a64" stroke-width="1""##);
    }
    for (id, b) in placed {
        w.label_box(b);
        w.text(
            (b.x + 5.0, b.y + LEADING),
            SIZE + 1.0,
            "#000000",
            facts.name(id),
        );
        for (k, (text, fill)) in notes[&id].iter().enumerate() {
            w.text(
                (b.x + 5.0, b.y + LEADING * (k as f64 + 2.0)),
                SIZE,
                fill,
                text,
            );
        }
    }
}

/// The panel: who plays next, each player, the supply.
fn panel_lines(facts: &Facts, state: &State) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let head = match state.winner {
        Some(w) => format!(
            "XML Mornington Crescent, after {} turns: {} built Mornington Crescent and won",
            state.turns, state.trains[w].name
        ),
        None => format!(
            "XML Mornington Crescent, after {} turns: {} to play",
            state.turns,
            state.current().name
        ),
    };
    out.push((head, "#000000"));
    for (i, t) in state.trains.iter().enumerate() {
        let parts: Vec<String> = Part::ALL
            .iter()
            .filter(|p| t.parts.get(**p) > 0)
            .map(|p| p.count(t.parts.get(*p)))
            .collect();
        let parts = if parts.is_empty() {
            "no station parts".to_string()
        } else {
            parts.join(", ")
        };
        out.push((
            format!(
                "{} at {}: {} tokens; {parts}",
                t.name,
                facts.name(t.at),
                t.tokens
            ),
            colour(i),
        ));
    }
    let supply: Vec<String> = Part::ALL
        .iter()
        .map(|&p| match state.supply(p) {
            Some(n) => p.count(n),
            None => format!("{} unlimited", p.spec().plural),
        })
        .collect();
    out.push((format!("Left to buy: {}", supply.join(", ")), "#424242"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::mcxml::{Closure, Rulings};

    #[test]
    fn the_picture_shows_trains_and_closures() {
        let f = Facts::london();
        let players = vec!["Alice".to_string(), "Bob".to_string()];
        let mut s = State::start(&players, Rulings::default()).unwrap();
        s.trains[1].at = f.map().lookup("Euston").unwrap();
        s.closed.push(Closure {
            station: f.map().lookup("Warren Street").unwrap(),
            strength: 2,
        });
        let svg = mcxml_svg(f, &s);
        for want in [
            "Tottenham Court Road",
            "closed for rebuilding",
            "closed, strength 2",
            "Bob at Euston: 0 tokens",
            "Alice to play",
        ] {
            assert!(svg.contains(want), "{want}");
        }
        let png = mcxml_png(f, &s).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
