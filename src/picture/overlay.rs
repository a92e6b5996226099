//! The game on the network: Pieces, Homes and a label at every station the
//! game marks.

use std::collections::BTreeMap;

use super::boxes::LabelBox;
use super::layout::{Placer, Rect};
use super::projection::Projection;
use super::scene::Scene;
use super::writer::{text_width, Svg};
use crate::engine::{is_drone, Disruption};
use crate::gsd::StationMark;
use crate::map::{Map, StationId};

/// Players' colours, in order of play: none is a line's colour.
const PLAYER_COLOURS: [&str; 8] = [
    "#d81b60", "#5e35b1", "#2e7d32", "#ef6c00", "#1565c0", "#6d4c41", "#827717", "#00838f",
];
/// The label text size, px.
const SIZE: f64 = 13.0;
/// A label line's height, px.
const LEADING: f64 = 16.0;

/// The colour of the `i`th player (the Drone is grey).
pub(super) fn player_colour(scene: &Scene, i: usize) -> &'static str {
    if is_drone(&scene.state.players[i].name) {
        "#616161"
    } else {
        PLAYER_COLOURS[i % PLAYER_COLOURS.len()]
    }
}

/// One line of a station's label: its text and colour.
struct Note {
    text: String,
    colour: &'static str,
}

/// What the game marks at each station, as label lines.
fn notes(scene: &Scene) -> BTreeMap<StationId, Vec<Note>> {
    let s = &scene.state;
    let mut out: BTreeMap<StationId, Vec<Note>> = BTreeMap::new();
    let mut add = |id: StationId, text: String, colour: &'static str| {
        out.entry(id).or_default().push(Note { text, colour });
    };
    for (i, p) in s.players.iter().enumerate() {
        if let Some(at) = p.station() {
            add(at, p.name.clone(), player_colour(scene, i));
        }
    }
    for (i, p) in s.players.iter().enumerate() {
        if let Some(h) = p.home {
            add(h, format!("Home of {}", p.name), player_colour(scene, i));
        }
    }
    for b in &s.blocks {
        let what = if scene.fires.contains(&b.station) {
            "Fire"
        } else {
            "Blocked"
        };
        add(b.station, format!("{what} by {}", b.by), "#c62828");
    }
    for d in &s.disruptions {
        if let Disruption::Station { at, mark } = d {
            let colour = match mark {
                StationMark::HeavyDamage | StationMark::Damage => "#c62828",
                _ => "#37474f",
            };
            add(*at, mark.text().to_string(), colour);
        }
    }
    for (id, tokens) in &s.stacks {
        let n = tokens.len();
        let top = tokens.last().map(|c| c.code()).unwrap_or("-");
        add(
            *id,
            format!(
                "Stack: {n} token{} (top {top})",
                if n == 1 { "" } else { "s" }
            ),
            "#37474f",
        );
    }
    for id in &s.wild {
        add(*id, "Wild Station".to_string(), "#6a1b9a");
    }
    if let Some(m) = &scene.last_move {
        if m.route.len() > 1 {
            add(
                m.route[0].station,
                format!("{} moved from here", m.player),
                "#e65100",
            );
        }
    }
    out
}

/// Pieces, Homes, Blocks and the labels.
pub(super) fn draw(w: &mut Svg, map: &Map, proj: &Projection, scene: &Scene) {
    let notes = notes(scene);
    let at = |id: StationId| proj.point(map.coordinates(id, None));
    let mut placer = Placer::new(Rect {
        x: 2.0,
        y: 2.0,
        w: super::WIDTH - 4.0,
        h: proj.height() - 4.0,
    });
    for id in notes.keys() {
        placer.reserve(Rect::around(at(*id), 10.0));
    }
    draw_symbols(w, map, proj, scene);
    // The busiest stations first: they have the fewest good places.
    let mut order: Vec<&StationId> = notes.keys().collect();
    order.sort_by_key(|id| std::cmp::Reverse(notes[id].len()));
    let placed: Vec<(StationId, LabelBox)> = order
        .into_iter()
        .map(|id| {
            let lines = &notes[id];
            let name = &map.station(*id).name;
            let width = lines
                .iter()
                .map(|n| text_width(&n.text, SIZE))
                .chain([text_width(name, SIZE + 1.0)])
                .fold(0.0, f64::max)
                + 10.0;
            let height = LEADING * (lines.len() as f64 + 1.0) + 6.0;
            let r = placer.place(at(*id), width, height);
            (*id, LabelBox::snapped(r.x, r.y, r.w, r.h))
        })
        .collect();
    // Every leader line under every box: none crosses a label.
    for (id, b) in &placed {
        let c = at(*id);
        let near = (c.0.clamp(b.x, b.x + b.w), c.1.clamp(b.y, b.y + b.h));
        w.line(c, near, r##"stroke="#455a64" stroke-width="1""##);
    }
    for (id, b) in placed {
        w.label_box(b);
        let name = &map.station(id).name;
        w.text((b.x + 5.0, b.y + LEADING), SIZE + 1.0, "#000000", name);
        for (k, n) in notes[&id].iter().enumerate() {
            let y = b.y + LEADING * (k as f64 + 2.0);
            w.text((b.x + 5.0, y), SIZE, n.colour, &n.text);
        }
    }
}

/// The symbols at the stations: Block rings, Home squares, Pieces as discs
/// with the player's initial (several at one station around it).
fn draw_symbols(w: &mut Svg, map: &Map, proj: &Projection, scene: &Scene) {
    let s = &scene.state;
    let at = |id: StationId| proj.point(map.coordinates(id, None));
    for b in &s.blocks {
        let colour = if scene.fires.contains(&b.station) {
            "#ff6d00"
        } else {
            "#c62828"
        };
        w.circle(
            at(b.station),
            12.0,
            &format!(r#"fill="none" stroke="{colour}" stroke-width="3.5""#),
        );
    }
    for id in &s.wild {
        w.circle(
            at(*id),
            15.0,
            r##"fill="none" stroke="#6a1b9a" stroke-width="2" stroke-dasharray="3 2""##,
        );
    }
    for (i, p) in s.players.iter().enumerate() {
        if let Some(h) = p.home {
            let c = at(h);
            w.rect(
                c.0 - 8.0,
                c.1 - 8.0,
                16.0,
                16.0,
                2.0,
                &format!(
                    r#"fill="none" stroke="{}" stroke-width="3""#,
                    player_colour(scene, i)
                ),
            );
        }
    }
    let mut here: BTreeMap<StationId, Vec<usize>> = BTreeMap::new();
    for (i, p) in s.players.iter().enumerate() {
        if let Some(id) = p.station() {
            here.entry(id).or_default().push(i);
        }
    }
    for (id, players) in here {
        let c = at(id);
        let n = players.len();
        for (k, &i) in players.iter().enumerate() {
            let angle = std::f64::consts::TAU * k as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
            let d = if n == 1 { 0.0 } else { 8.0 };
            let p = (c.0 + d * angle.cos(), c.1 + d * angle.sin());
            w.circle(
                p,
                7.5,
                &format!(
                    r##"fill="{}" stroke="#000000" stroke-width="1.5""##,
                    player_colour(scene, i)
                ),
            );
            let initial: String = s.players[i].name.chars().take(1).collect();
            w.text_centred(p, 10.0, "#ffffff", &initial);
        }
    }
}
