//! The picture in two layers, for the game archive: the network alone,
//! drawn once ([`network_svg`]), and per game state only what the game
//! puts on it ([`overlay_svg`]), transparent, with the same size and
//! viewBox, so that a web page stacks the overlay on the network. The
//! overlay of a turn is a few kilobytes where the whole picture is fifty.
//!
//! The layers draw the same things as [`super::svg`] (which stays the one
//! picture for mail), in the same colours and places; what the game
//! changes on the network is drawn over it instead of into it: a Closed
//! station's grey symbol over the white one, a line under a Power Failure
//! faded and broken by white dashes over its colour, the last Move's
//! route as a translucent band over the lines rather than under them. No
//! panel: the archive page says in words what the panel says.

use super::network::{self, draw_station};
use super::projection::Projection;
use super::scene::Scene;
use super::writer::Svg;
use super::{overlay, PictureError, MARGIN, WIDTH};
use crate::engine::Disruption;
use crate::gsd::LineState;
use crate::map::{LineCode, Map};

/// The network's lines and stations, every station open, on white: the
/// layer under every [`overlay_svg`] of the same map.
pub fn network_svg(map: &Map) -> String {
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let mut w = Svg::new(WIDTH, proj.height());
    let paths = network::line_paths(map, &proj);
    w.raw(r#"<g fill="none" stroke-linecap="round">"#);
    for line in LineCode::ALL {
        w.raw(&format!(
            r#"<path d="{}" stroke="{}" stroke-width="{}"/>"#,
            paths[line.index()],
            map.line(line).colour.hex(),
            network::LINE_WIDTH
        ));
    }
    w.raw("</g>");
    let mut stations = String::new();
    for id in map.station_ids() {
        draw_station(&mut stations, map, &proj, id, false);
    }
    w.raw(&stations);
    w.finish()
}

/// What the game of `scene` puts on the network, on a transparent canvas
/// the size of [`network_svg`]: the lines under a Power Failure, Pegged
/// segments, Closed stations, the last Move's route, the Pieces, Homes,
/// Blocks and every label. Fails if the scene names a station the map
/// lacks.
pub fn overlay_svg(map: &Map, scene: &Scene) -> Result<String, PictureError> {
    scene.check(map)?;
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let mut w = Svg::transparent(WIDTH, proj.height());
    draw_power_failures(&mut w, map, &proj, scene);
    network::draw_pegged(&mut w, map, &proj, scene);
    let mut shut = String::new();
    for id in map.station_ids() {
        if network::closed(map, scene, id) {
            draw_station(&mut shut, map, &proj, id, true);
        }
    }
    w.raw(&shut);
    network::draw_route(&mut w, map, &proj, scene);
    overlay::draw(&mut w, map, &proj, scene);
    Ok(w.finish())
}

/// Each line under a Power Failure, faded and dashed as [`super::svg`]
/// draws it: white over its colour, solid at 45 % and in the gaps of its
/// 4-on 5-off dashes.
fn draw_power_failures(w: &mut Svg, map: &Map, proj: &Projection, scene: &Scene) {
    let failed: Vec<LineCode> = scene
        .state
        .disruptions
        .iter()
        .filter_map(|d| match d {
            Disruption::Line { line, state } if *state == LineState::PowerFailure => Some(*line),
            _ => None,
        })
        .collect();
    if failed.is_empty() {
        return;
    }
    let paths = network::line_paths(map, proj);
    let width = network::LINE_WIDTH + 0.4;
    w.raw(r##"<g fill="none" stroke="#ffffff" stroke-linecap="butt">"##);
    for line in failed {
        let d = &paths[line.index()];
        w.raw(&format!(
            r#"<path d="{d}" stroke-width="{width:.1}" opacity="0.45"/><path d="{d}" stroke-width="{width:.1}" stroke-dasharray="5 4" stroke-dashoffset="-4"/>"#
        ));
    }
    w.raw("</g>");
}
