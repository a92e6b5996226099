//! The picture in two layers, for the game archive: the network alone,
//! drawn once ([`network_svg`]), and per game state only what the game
//! puts on it ([`overlay_svg`]), transparent, with the same size and
//! viewBox, so that a web page stacks the overlay on the network. The
//! overlay of a turn is a few kilobytes where the whole picture is fifty.
//!
//! The layers are the picture of [`super::svg`] less its panel (the
//! archive page says in words what the panel says), drawn the way
//! [`super::draw_png`] draws it: the game over the plain network. Only a
//! line under a Power Failure differs: the overlay cannot undraw it, so it
//! fades it and breaks it with white dashes over its colour.

use super::network;
use super::projection::Projection;
use super::scene::Scene;
use super::writer::Svg;
use super::{PictureError, MARGIN, WIDTH};
use crate::engine::Disruption;
use crate::gsd::LineState;
use crate::map::{LineCode, Map};

/// The network's lines and stations, every station open, on white: the
/// layer under every [`overlay_svg`] of the same map (and the pixels
/// [`super::draw_png`] keeps).
pub fn network_svg(map: &Map) -> String {
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let mut w = Svg::new(WIDTH, proj.height());
    network::draw_lines(&mut w, map, &proj, None);
    network::draw_stations(&mut w, map, &proj, |_| Some(false));
    w.finish()
}

/// What the game of `scene` puts on the network, on a transparent canvas
/// the size of [`network_svg`]: the lines under a Power Failure, the last
/// Move's route, Pegged segments, Closed stations, the Pieces, Homes,
/// Blocks and every label. Fails if the scene names a station the map
/// lacks.
pub fn overlay_svg(map: &Map, scene: &Scene) -> Result<String, PictureError> {
    scene.check(map)?;
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let mut w = Svg::clear(WIDTH, proj.height());
    draw_power_failures(&mut w, map, &proj, scene);
    super::draw_on_network(&mut w, map, &proj, scene);
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
    let paths = network::line_paths(map, proj, |_| true);
    let width = network::LINE_WIDTH + 0.4;
    w.raw(r##"<g fill="none" stroke="#ffffff" stroke-linecap="butt">"##);
    for line in failed {
        let d = &paths[line.index()];
        w.raw(&format!(
            r#"<path d="{d}" stroke-width="{width:.1}" stroke-opacity="0.45"/><path d="{d}" stroke-width="{width:.1}" stroke-dasharray="5 4" stroke-dashoffset="-4"/>"#
        ));
    }
    w.raw("</g>");
}
