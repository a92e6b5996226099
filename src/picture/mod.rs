//! Pictures of a game (issue 18): the 1999 network drawn from the map data,
//! and on it the game as a state shows it, as SVG text and as PNG bytes.
//!
//! The map data has no schematic coordinates, only each station site's
//! geographic position, so the picture is geographic: an equirectangular
//! projection with longitude scaled by the cosine of the map's middle
//! latitude, fitted to the canvas ([`Projection`]). Lines are drawn in the
//! colours of the map file (`colour = "#RRGGBB"` per line, the one source of
//! truth), several lines on one segment side by side; stations as small
//! circles, interchanges as white circles with black rims.
//!
//! On the network: the last Move's route (a broad highlight under the
//! lines), each Piece (a disc in its player's colour with eir initial), and
//! a label at every station the game marks: the Pieces there, Homes,
//! Blocks, Fires, the Disruptions box's station marks (Peg, Bulkhead,
//! Maelberg, Damage, Defamed), Token Stacks with their counts and Wild
//! Stations. Stations Closed at the Game Time by the map's opening hours or
//! by Damage are greyed. A panel below names the game, the Game Time, who
//! is to play, every player with eir position, LV and Home, the Line States
//! and the game-wide Disruptions.
//!
//! Pure: [`svg()`] is a function of the map and a [`Scene`]; [`png()`]
//! rasterises with resvg using the font embedded in the binary (no system
//! font lookup, no files, no browser).

mod boxes;
mod canvas;
mod deflate;
mod dirty;
mod glyphs;
mod key;
mod layers;
mod layout;
mod mcxml;
mod moneyrun;
mod network;
mod oneday;
mod oneday_rack;
mod overlay;
mod panel;
mod projection;
mod quantize;
mod raster;
mod scanlines;
mod scene;
mod writer;

pub use layers::{network_svg, overlay_svg};
pub use mcxml::{mcxml_png, mcxml_svg};
pub use moneyrun::{moneyrun_png, moneyrun_svg};
pub use oneday::{oneday_rack_png, oneday_rack_svg, oneday_table_png, oneday_table_svg, RackSlot};
pub use projection::Projection;
pub use raster::{png, FONT_FAMILY};
pub use scene::{LastMove, RoutePoint, Scene};

use crate::map::{Map, StationId};

/// The picture's width in pixels: legible on a phone when zoomed.
pub const WIDTH: f64 = 1600.0;
/// The margin around the network, px: the picture's network is drawn with
/// `Projection::fit(map, WIDTH, MARGIN)`.
pub const MARGIN: f64 = 30.0;

/// Why a picture cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The state names a station the map lacks (a state built for another
    /// map): never skipped silently.
    #[error("station #{id} is not on the map {map:?} ({count} stations)")]
    UnknownStation {
        /// The station id.
        id: u16,
        /// The map's name.
        map: String,
        /// How many stations the map has.
        count: usize,
    },
    /// The GSD does not describe a game state.
    #[error(transparent)]
    State(#[from] crate::engine::StateError),
    /// The SVG could not be read back for rasterising (a bug).
    #[error("the picture's SVG does not parse: {0}")]
    Svg(String),
    /// The PNG could not be encoded.
    #[error("the picture's PNG could not be encoded: {0}")]
    Png(String),
}

/// The picture of a game as SVG text: the network, the game on it and the
/// panel below. Fails if the scene names a station the map lacks.
pub fn svg(map: &Map, scene: &Scene) -> Result<String, PictureError> {
    scene.check(map)?;
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let panel = panel::Panel::new(map, scene);
    let mut w = writer::Svg::new(WIDTH, proj.height() + panel.height());
    network::draw_lines(&mut w, map, &proj, Some(scene));
    network::draw_stations(&mut w, map, &proj, |_| Some(false));
    draw_game(&mut w, map, &proj, scene, &panel);
    Ok(w.finish())
}

/// The picture of a game as PNG bytes: what [`png()`] makes of [`svg()`],
/// about twice as fast. The plain network (its lines and open stations,
/// the same in every picture of a map) is rasterised once and kept; each
/// picture rasterises only the game over a kept copy of it (see
/// `canvas`).
pub fn draw_png(map: &Map, scene: &Scene) -> Result<Vec<u8>, PictureError> {
    scene.check(map)?;
    if network::any_line_faded(scene) {
        // A faded line is not the plain network's: drawn whole.
        return png(&svg(map, scene)?);
    }
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let panel = panel::Panel::new(map, scene);
    let mut w = writer::Svg::clear(WIDTH, proj.height() + panel.height());
    w.keep_text_apart();
    draw_game(&mut w, map, &proj, scene, &panel);
    let network = raster::network(map)?;
    let (svg, aside) = w.finish_apart();
    raster::png_over(&network, &svg, &aside)
}

/// The game over the plain network ([`network_svg`]): the last Move's
/// route, its lines and stations drawn again over it, Pegs, Closed
/// stations, the marks and Pieces, and the panel.
fn draw_game(
    w: &mut writer::Svg,
    map: &Map,
    proj: &Projection,
    scene: &Scene,
    panel: &panel::Panel,
) {
    draw_on_network(w, map, proj, scene);
    panel.draw(w, proj.height());
}

/// What the game puts on the plain network (the picture less its panel).
fn draw_on_network(w: &mut writer::Svg, map: &Map, proj: &Projection, scene: &Scene) {
    network::draw_route(w, map, proj, scene);
    network::draw_route_lines(w, map, proj, scene);
    network::draw_pegs(w, map, proj, scene);
    let route = network::route_stations(scene);
    network::draw_stations(w, map, proj, |id| {
        let shut = network::closed(map, scene, id);
        (shut || route.contains(&id)).then_some(shut)
    });
    overlay::draw(w, map, proj, scene);
}

/// A station id checked against the map.
fn check_station(map: &Map, id: StationId) -> Result<(), PictureError> {
    if id.index() < map.stations().len() {
        Ok(())
    } else {
        Err(PictureError::UnknownStation {
            id: id.0,
            map: map.name().to_string(),
            count: map.stations().len(),
        })
    }
}
