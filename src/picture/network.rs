//! The network: lines in their colours side by side on shared segments,
//! stations, interchanges, Closed stations, and the last Move's route.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::projection::Projection;
use super::scene::Scene;
use super::writer::Svg;
use crate::engine::Disruption;
use crate::gsd::{LineState, StationMark};
use crate::map::{LineCode, Map, StationId, StationKind};

/// A line's stroke width, px.
pub(super) const LINE_WIDTH: f64 = 3.2;
/// The distance between lines drawn side by side, px.
const LINE_GAP: f64 = 3.4;

/// Every segment of the map (its ends in id order) with the lines along it,
/// in [`LineCode::ALL`] order.
fn segments(map: &Map) -> Vec<((StationId, StationId), Vec<LineCode>)> {
    let mut by_pair: HashMap<(StationId, StationId), Vec<LineCode>> = HashMap::new();
    let mut order = Vec::new();
    for line in map.lines() {
        for branch in &line.branches {
            for pair in branch.windows(2) {
                let key = (pair[0].min(pair[1]), pair[0].max(pair[1]));
                let lines = by_pair.entry(key).or_default();
                if lines.is_empty() {
                    order.push(key);
                }
                if !lines.contains(&line.code) {
                    lines.push(line.code);
                }
            }
        }
    }
    order
        .into_iter()
        .map(|k| {
            let mut lines = by_pair.remove(&k).unwrap_or_default();
            lines.sort();
            (k, lines)
        })
        .collect()
}

/// The line's state in the Disruptions box, if it is not Normal.
fn line_state(scene: &Scene, line: LineCode) -> Option<&LineState> {
    scene.state.disruptions.iter().find_map(|d| match d {
        Disruption::Line { line: l, state } if *l == line && *state != LineState::Normal => {
            Some(state)
        }
        _ => None,
    })
}

/// Whether any line is under a Power Failure (drawn dashed and faded,
/// so not as the plain network is).
pub(super) fn any_line_faded(scene: &Scene) -> bool {
    LineCode::ALL
        .iter()
        .any(|&l| matches!(line_state(scene, l), Some(LineState::PowerFailure)))
}

/// The lines, each segment's lines side by side; with a scene, a line
/// under a Power Failure dashed and faded (without, the plain network).
pub(super) fn draw_lines(w: &mut Svg, map: &Map, proj: &Projection, scene: Option<&Scene>) {
    draw_segments(w, map, proj, scene, |_| true);
}

/// The lines along the last Move's route drawn again, over its band: the
/// route shows under its own lines, over the others it crosses.
pub(super) fn draw_route_lines(w: &mut Svg, map: &Map, proj: &Projection, scene: &Scene) {
    let Some(m) = &scene.last_move else {
        return;
    };
    let on_route: HashSet<(StationId, StationId)> = m
        .route
        .windows(2)
        .map(|p| {
            let (a, b) = (p[0].station, p[1].station);
            (a.min(b), a.max(b))
        })
        .collect();
    if !on_route.is_empty() {
        draw_segments(w, map, proj, Some(scene), |k| on_route.contains(&k));
    }
}

/// The segments `pick` chooses, one path per line (its segments as
/// sub-paths: far fewer elements for the renderer than one per segment).
fn draw_segments(
    w: &mut Svg,
    map: &Map,
    proj: &Projection,
    scene: Option<&Scene>,
    pick: impl Fn((StationId, StationId)) -> bool,
) {
    let paths = line_paths(map, proj, pick);
    w.raw(r#"<g fill="none" stroke-linecap="round">"#);
    for line in LineCode::ALL {
        if paths[line.index()].is_empty() {
            continue;
        }
        let colour = map.line(line).colour.hex();
        let dash = match scene.and_then(|s| line_state(s, line)) {
            Some(LineState::PowerFailure) => r#" stroke-dasharray="4 5" stroke-opacity="0.55""#,
            _ => "",
        };
        w.raw(&format!(
            r#"<path d="{}" stroke="{colour}" stroke-width="{LINE_WIDTH}"{dash}/>"#,
            paths[line.index()]
        ));
    }
    w.raw("</g>");
}

/// Each line's path data (indexed by [`LineCode::index`]) along the
/// segments `pick` chooses, lines sharing a segment side by side.
pub(super) fn line_paths(
    map: &Map,
    proj: &Projection,
    pick: impl Fn((StationId, StationId)) -> bool,
) -> Vec<String> {
    let mut paths: Vec<String> = vec![String::new(); LineCode::ALL.len()];
    for ((a, b), lines) in segments(map).into_iter().filter(|(k, _)| pick(*k)) {
        let n = lines.len() as f64;
        for (i, &line) in lines.iter().enumerate() {
            let pa = proj.point(map.coordinates(a, Some(line)));
            let pb = proj.point(map.coordinates(b, Some(line)));
            let off = (i as f64 - (n - 1.0) / 2.0) * LINE_GAP;
            let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ox, oy) = (-dy / len * off, dx / len * off);
            let _ = write!(
                paths[line.index()],
                "M{:.1} {:.1}L{:.1} {:.1}",
                pa.0 + ox,
                pa.1 + oy,
                pb.0 + ox,
                pb.1 + oy
            );
        }
    }
    paths
}

/// Each Pegged segment crossed with a dotted bar.
pub(super) fn draw_pegs(w: &mut Svg, map: &Map, proj: &Projection, scene: &Scene) {
    for d in &scene.state.disruptions {
        if let Disruption::PeggedSegment { from, to, line } = d {
            let pa = proj.point(map.coordinates(*from, Some(*line)));
            let pb = proj.point(map.coordinates(*to, Some(*line)));
            w.line(
                pa,
                pb,
                r##"stroke="#000000" stroke-width="7" stroke-dasharray="2 3" stroke-opacity="0.8""##,
            );
        }
    }
}

/// Whether a station is Closed at the scene's Game Time: Lightly Damaged
/// (Rule 1.11.3) or outside the map's opening hours (Rules 1.13.4 -
/// 1.13.6; a Holiday opens as a Sunday, Rule 1.13.7). What Actions open for
/// one Turn (Opening MC, the Collection Plate) is not drawn.
pub(super) fn closed(map: &Map, scene: &Scene, id: StationId) -> bool {
    let s = &scene.state;
    if s.has_mark(id, StationMark::Damage) {
        return true;
    }
    !map.station_open(id, None, s.opening_day(s.time.day), s.time.minutes)
}

/// The stations `pick` chooses (`Some(closed)`; `None` skips one):
/// interchanges as white circles with black rims, others as small circles
/// rimmed in their line's colour; Closed ones grey and crossed.
pub(super) fn draw_stations(
    w: &mut Svg,
    map: &Map,
    proj: &Projection,
    pick: impl Fn(StationId) -> Option<bool>,
) {
    let mut out = String::new();
    for id in map.station_ids() {
        let Some(shut) = pick(id) else {
            continue;
        };
        let st = map.station(id);
        for site in &st.sites {
            let c = proj.point((site.lat, site.lon));
            let fill = if shut { "#bdbdbd" } else { "#ffffff" };
            let (r, rim, width) = if st.kind == StationKind::Interchange {
                (4.6, "#000000".to_string(), 1.7)
            } else {
                let first = site.lines.iter().next().unwrap_or(LineCode::NT);
                (2.6, map.line(first).colour.hex(), 1.4)
            };
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{fill}" stroke="{rim}" stroke-width="{width}"/>"#,
                c.0, c.1
            );
            if shut {
                let d = r + 1.5;
                let _ = write!(
                    out,
                    r##"<path d="M{:.1} {:.1}l{:.1} {:.1}M{:.1} {:.1}l{:.1} {:.1}" stroke="#616161" stroke-width="1.2"/>"##,
                    c.0 - d,
                    c.1 - d,
                    2.0 * d,
                    2.0 * d,
                    c.0 - d,
                    c.1 + d,
                    2.0 * d,
                    -2.0 * d
                );
            }
        }
    }
    w.raw(&out);
}

/// The stations on the last Move's route.
pub(super) fn route_stations(scene: &Scene) -> HashSet<StationId> {
    scene
        .last_move
        .iter()
        .flat_map(|m| m.route.iter().map(|p| p.station))
        .collect()
}

/// The last Move's route: a broad translucent band over the network, from
/// its start (a ring) to its end.
pub(super) fn draw_route(w: &mut Svg, map: &Map, proj: &Projection, scene: &Scene) {
    let Some(m) = &scene.last_move else {
        return;
    };
    let pts: Vec<(f64, f64)> = m
        .route
        .iter()
        .map(|p| proj.point(map.coordinates(p.station, p.line)))
        .collect();
    let mut d = String::new();
    for (i, p) in pts.iter().enumerate() {
        let _ = write!(d, "{}{:.1} {:.1}", if i == 0 { "M" } else { "L" }, p.0, p.1);
    }
    w.raw(&format!(
        r##"<path d="{d}" fill="none" stroke="#ff9800" stroke-width="14" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.45"/>"##
    ));
    if let Some(&start) = pts.first() {
        w.circle(
            start,
            9.0,
            r##"fill="none" stroke="#ff9800" stroke-width="3""##,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_segment_of_every_line_is_drawn_once() {
        let map = Map::london_1999();
        let segs = segments(map);
        let drawn: usize = segs.iter().map(|(_, l)| l.len()).sum();
        assert_eq!(drawn, map.segment_count());
        let id = |n: &str| map.lookup(n).unwrap();
        let key = (
            id("Baker Street").min(id("Great Portland Street")),
            id("Baker Street").max(id("Great Portland Street")),
        );
        let shared = &segs.iter().find(|(k, _)| *k == key).unwrap().1;
        assert_eq!(shared, &[LineCode::CL, LineCode::HC, LineCode::MP]);
    }
}
