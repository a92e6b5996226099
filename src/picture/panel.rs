//! The panel under the network: the game, its time, the players, the Line
//! States and game-wide Disruptions, the last Move, and a key.

use super::overlay::player_colour;
use super::scene::Scene;
use super::writer::{text_width, Svg};
use super::WIDTH;
use crate::engine::Disruption;
use crate::gsd::render::disruption_text;
use crate::map::Map;

/// The panel's left margin, px.
pub(super) const LEFT: f64 = 30.0;
const TITLE: f64 = 22.0;
const SIZE: f64 = 15.0;
const ROW: f64 = 22.0;

/// The panel's lines, laid out.
pub(super) struct Panel {
    title: String,
    /// Each player's line and colour.
    players: Vec<(String, &'static str)>,
    /// Further lines: the last Move, Line States, Disruptions.
    lines: Vec<String>,
}

/// Joins items into lines no wider than the panel.
fn wrap(label: &str, items: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = format!("{label}: ");
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item}, ")
        } else {
            item.clone()
        };
        if text_width(&(line.clone() + &piece), SIZE) > WIDTH - 2.0 * LEFT {
            out.push(std::mem::replace(&mut line, format!("    {piece}")));
        } else {
            line.push_str(&piece);
        }
    }
    out.push(line);
    out
}

impl Panel {
    /// The panel of a scene.
    pub(super) fn new(map: &Map, scene: &Scene) -> Panel {
        let s = &scene.state;
        let mut title = match &scene.game {
            Some(tag) => format!("Mornington Nomic {tag}"),
            None => "Mornington Nomic".to_string(),
        };
        title.push_str(&format!("  \u{b7}  {}  \u{b7}  turn {}", s.time, s.turn));
        match (&s.winner, s.players.get(s.to_play)) {
            (Some(w), _) => title.push_str(&format!("  \u{b7}  won by {w}")),
            (None, Some(p)) => title.push_str(&format!("  \u{b7}  to play: {}", p.name)),
            (None, None) => {}
        }
        let players = s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let at = match (&p.at, p.ghost) {
                    (Some(pos), _) => format!("at {}", pos.text(map)),
                    (None, Some(g)) => format!("at {} (Ghost Station)", map.ghost(g)),
                    (None, None) => "off the Map".to_string(),
                };
                let home = p
                    .home
                    .map(|h| format!(", Home {}", map.station(h).name))
                    .unwrap_or_default();
                let inactive = if p.active { "" } else { " (Inactive)" };
                (
                    format!("{}{inactive}: LV {}, {at}{home}", p.name, p.lv),
                    player_colour(scene, i),
                )
            })
            .collect();
        let mut lines = Vec::new();
        if let Some(m) = &scene.last_move {
            let names: Vec<String> = m
                .route
                .iter()
                .map(|p| map.station(p.station).name.clone())
                .collect();
            let path = match names.len() {
                0 | 1 => format!("to {}", names.join("")),
                n => format!(
                    "{} to {} ({} station{})",
                    names[0],
                    names[n - 1],
                    n - 1,
                    if n == 2 { "" } else { "s" }
                ),
            };
            lines.push(format!("Last Move: {} {path}", m.player));
        }
        let (line_states, others): (Vec<&Disruption>, Vec<&Disruption>) = s
            .disruptions
            .iter()
            .filter(|d| !matches!(d, Disruption::Station { .. }))
            .partition(|d| matches!(d, Disruption::Line { .. }));
        let text = |ds: Vec<&Disruption>| -> Vec<String> {
            ds.iter().map(|d| disruption_text(&d.to_gsd(map))).collect()
        };
        if !line_states.is_empty() {
            lines.extend(wrap("Line States", &text(line_states)));
        }
        if !others.is_empty() {
            lines.extend(wrap("Disruptions", &text(others)));
        }
        Panel {
            title,
            players,
            lines,
        }
    }

    fn player_rows(&self) -> usize {
        self.players.len().div_ceil(2)
    }

    /// The panel's height, px.
    pub(super) fn height(&self) -> f64 {
        16.0 + TITLE + 12.0 + ROW * (self.player_rows() + self.lines.len() + 1) as f64 + 14.0
    }

    /// Draws the panel from `top` down.
    pub(super) fn draw(&self, w: &mut Svg, top: f64) {
        w.line(
            (LEFT, top + 4.0),
            (WIDTH - LEFT, top + 4.0),
            r##"stroke="#9e9e9e" stroke-width="1""##,
        );
        let mut y = top + 16.0 + TITLE;
        w.text((LEFT, y), TITLE, "#000000", &self.title);
        y += 12.0;
        let rows = self.player_rows();
        for (i, (text, colour)) in self.players.iter().enumerate() {
            let x = LEFT
                + if i < rows {
                    0.0
                } else {
                    (WIDTH - 2.0 * LEFT) / 2.0
                };
            let yy = y + ROW * ((i % rows) as f64 + 1.0);
            w.circle(
                (x + 8.0, yy - 5.0),
                7.0,
                &format!(r##"fill="{colour}" stroke="#000000" stroke-width="1.5""##),
            );
            w.text((x + 22.0, yy), SIZE, colour, text);
        }
        y += ROW * rows as f64;
        for line in &self.lines {
            y += ROW;
            w.text((LEFT, y), SIZE, "#212121", line);
        }
        y += ROW;
        super::key::draw(w, y);
    }
}
