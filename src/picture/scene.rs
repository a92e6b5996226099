//! What a picture shows: a game state, and what only the Plays tell (the
//! last Move's route, which Blocks are Fires).

use std::collections::VecDeque;

use super::{check_station, PictureError};
use crate::engine::GameState;
use crate::gsd::{Action, Gsd, Move, Play};
use crate::map::{LineCode, Map, StationId};

/// One station of a route, with the line the Piece travels on there (the
/// line's site, where a station has two); `None` after an escalator link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoutePoint {
    /// The station.
    pub station: StationId,
    /// The line the route reaches it on.
    pub line: Option<LineCode>,
}

/// The last Play's Move: who moved, and the route drawn for it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LastMove {
    /// The player who moved.
    pub player: String,
    /// The route, start first: the shortest route along the Move's written
    /// lines in order (the engine judged the Move; the picture only shows
    /// where it went). One point when the Piece came onto the Map.
    pub route: Vec<RoutePoint>,
}

/// Everything a picture shows. It serialises both ways: a verdict's
/// picture is drawn from its stored scene when the verdict is sent.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scene {
    /// The game's tag, if known.
    pub game: Option<String>,
    /// The state.
    pub state: GameState,
    /// Which of the state's Blocks are Fires (Rule 1.9.4).
    pub fires: Vec<StationId>,
    /// The last Play's Move, if it moved a Piece along the map.
    pub last_move: Option<LastMove>,
}

impl Scene {
    /// A scene of a state alone: no Fires told apart, no route.
    pub fn of_state(state: GameState) -> Scene {
        Scene {
            game: None,
            state,
            fires: Vec::new(),
            last_move: None,
        }
    }

    /// The scene a GSD describes: its state ([`GameState::from_gsd`]), the
    /// Fires among the last Round's Blocks, and the last Play's route.
    pub fn from_gsd(map: &Map, gsd: &Gsd) -> Result<Scene, PictureError> {
        let state = GameState::from_gsd(gsd, map)?;
        Ok(Scene {
            game: gsd.game.clone(),
            fires: fires(&gsd.plays),
            last_move: last_move(map, &gsd.plays),
            state,
        })
    }

    /// The scene of game `tag` after `plays`, in `state` (their fold): the
    /// Fires among the last Round's Blocks, and the last Play's route, as
    /// [`Scene::from_gsd`] reads them from a GSD's plays.
    pub fn after_plays(map: &Map, tag: &str, state: GameState, plays: &[Play]) -> Scene {
        Scene {
            game: Some(tag.to_string()),
            fires: fires(plays),
            last_move: last_move(map, plays),
            state,
        }
    }

    /// Every station the scene names is on the map.
    pub(super) fn check(&self, map: &Map) -> Result<(), PictureError> {
        let s = &self.state;
        let players = s
            .players
            .iter()
            .flat_map(|p| p.station().into_iter().chain(p.home));
        let marks = s.disruptions.iter().flat_map(|d| match d {
            crate::engine::Disruption::Station { at, .. } => vec![*at],
            crate::engine::Disruption::PeggedSegment { from, to, .. } => vec![*from, *to],
            _ => vec![],
        });
        let route = self
            .last_move
            .iter()
            .flat_map(|m| m.route.iter().map(|p| p.station));
        players
            .chain(marks)
            .chain(s.wild.iter().copied())
            .chain(s.stacks.iter().map(|(id, _)| *id))
            .chain(s.blocks.iter().map(|b| b.station))
            .chain(self.fires.iter().copied())
            .chain(route)
            .try_for_each(|id| check_station(map, id))
    }
}

/// The stations set on Fire by each player's latest Play (a Fire lasts as
/// a Block does, until eir next Turn ends).
fn fires(plays: &[Play]) -> Vec<StationId> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for play in plays.iter().rev() {
        if seen.iter().any(|n| n.eq_ignore_ascii_case(&play.player)) {
            continue;
        }
        seen.push(&play.player);
        for a in play.actions() {
            if let Action::FireAtInterchange { station } | Action::FireAtOther { station } = a {
                out.extend(station.place.station());
            }
        }
    }
    out
}

/// Where a Move left its Piece: the far end of an escalator link, or the
/// destination with its line.
fn end_of(mv: &Move) -> Option<RoutePoint> {
    match mv {
        Move::To {
            escalator_to: Some(e),
            ..
        } => e.place.station().map(|station| RoutePoint {
            station,
            line: None,
        }),
        Move::To { dest, .. } => dest.place.station().map(|station| RoutePoint {
            station,
            line: dest.line,
        }),
        _ => None,
    }
}

/// The last Play's route, from where the same player's Move before it
/// ended.
fn last_move(map: &Map, plays: &[Play]) -> Option<LastMove> {
    let (last, earlier) = plays.split_last()?;
    let Move::To {
        dest,
        via,
        escalator_to,
    } = last.the_move()
    else {
        return None;
    };
    let to = dest.place.station()?;
    let start = earlier
        .iter()
        .rev()
        .filter(|p| p.player.eq_ignore_ascii_case(&last.player))
        .find_map(|p| end_of(p.the_move()));
    let mut portions = via.clone();
    portions.extend(dest.line);
    let mut route = match start {
        Some(s) => route(map, s.station, &portions, to)
            .or_else(|| {
                // The Piece may first have to ride the line it stands on
                // to the first written one: the shortest such route.
                let lines = s
                    .line
                    .into_iter()
                    .chain(map.station(s.station).lines.iter());
                lines
                    .filter_map(|l| {
                        let with: Vec<LineCode> =
                            std::iter::once(l).chain(portions.clone()).collect();
                        route(map, s.station, &with, to)
                    })
                    .min_by_key(Vec::len)
            })
            .unwrap_or_default(),
        None => Vec::new(),
    };
    if route.is_empty() {
        route.push(RoutePoint {
            station: to,
            line: dest.line,
        });
    }
    if let Some(e) = escalator_to.as_ref().and_then(|e| e.place.station()) {
        route.push(RoutePoint {
            station: e,
            line: None,
        });
    }
    Some(LastMove {
        player: last.player.clone(),
        route,
    })
}

/// The shortest route from `start` to `dest` along `portions` in order
/// (changing to the next portion's line at a station both serve); `None`
/// when there is none.
fn route(
    map: &Map,
    start: StationId,
    portions: &[LineCode],
    dest: StationId,
) -> Option<Vec<RoutePoint>> {
    let k = portions.len();
    if k == 0 || !map.station(start).lines.contains(portions[0]) {
        return None;
    }
    let n = map.stations().len();
    let idx = |s: StationId, p: usize| s.index() * k + p;
    let mut prev: Vec<Option<usize>> = vec![None; n * k];
    let mut seen = vec![false; n * k];
    let mut queue = VecDeque::from([(start, 0usize)]);
    seen[idx(start, 0)] = true;
    while let Some((s, p)) = queue.pop_front() {
        if s == dest && p == k - 1 {
            return Some(unwind(&prev, idx(s, p), k, portions));
        }
        let change =
            (p + 1 < k && map.station(s).lines.contains(portions[p + 1])).then_some((s, p + 1));
        let steps = map.neighbours(s, portions[p]).iter().map(|&t| (t, p));
        for (t, q) in change.into_iter().chain(steps) {
            if !seen[idx(t, q)] {
                seen[idx(t, q)] = true;
                prev[idx(t, q)] = Some(idx(s, p));
                queue.push_back((t, q));
            }
        }
    }
    None
}

/// The route ending at state `end`, start first, one point per station.
fn unwind(prev: &[Option<usize>], end: usize, k: usize, portions: &[LineCode]) -> Vec<RoutePoint> {
    let mut states = vec![end];
    while let Some(p) = prev[*states.last().expect("not empty")] {
        states.push(p);
    }
    states.reverse();
    let mut out: Vec<RoutePoint> = Vec::new();
    for s in states {
        let point = RoutePoint {
            station: StationId((s / k) as u16),
            line: Some(portions[s % k]),
        };
        // A change of line at a station is one point: keep the arrival's.
        if out.last().is_none_or(|l| l.station != point.station) {
            out.push(point);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gsd::parse_gsd;

    #[test]
    fn the_route_follows_the_written_lines_in_order() {
        let map = Map::london_1999();
        let id = |n: &str| map.lookup(n).unwrap();
        let r = route(
            map,
            id("Holborn"),
            &[LineCode::CN, LineCode::NT],
            id("Euston"),
        )
        .unwrap();
        let names: Vec<&str> = r
            .iter()
            .map(|p| map.station(p.station).name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "Holborn",
                "Tottenham Court Road",
                "Goodge Street",
                "Warren Street",
                "Euston"
            ]
        );
        assert_eq!(r[1].line, Some(LineCode::CN));
        assert_eq!(r[4].line, Some(LineCode::NT));
        // No Northern at Holborn: a route along NT alone does not start.
        assert!(route(map, id("Holborn"), &[LineCode::NT], id("Euston")).is_none());
    }

    #[test]
    fn a_gsd_gives_the_last_move_from_the_players_previous_position() {
        let map = Map::london_1999();
        let text = std::include_str!("../../fixtures/gsd/valid/22-long-game-forty-plays.txt");
        let gsd = parse_gsd(text, map).unwrap();
        let scene = Scene::from_gsd(map, &gsd).unwrap();
        let last = scene.last_move.expect("the example ends with a Move");
        assert_eq!(last.player, gsd.plays.last().unwrap().player);
        let end = last.route.last().unwrap().station;
        let piece = scene.state.players[scene.state.player_index(&last.player).unwrap()]
            .station()
            .unwrap();
        assert_eq!(end, piece, "the route ends where the Piece is");
    }
}
