//! The state a case describes (`[state]`).

use std::collections::BTreeMap;

use super::{Case, CasePlayer};
use crate::engine::state::{Block, GameState, PlayerState, Position};
use crate::gsd::{parse_play, Colour, Tokens};
use crate::map::Map;

pub(super) fn tokens(map: &BTreeMap<String, u32>) -> Result<Tokens, String> {
    let mut t = Tokens::default();
    for (k, v) in map {
        let c = Colour::parse(k).ok_or_else(|| format!("unknown token colour {k:?}"))?;
        t.set(c, *v);
    }
    Ok(t)
}

pub(super) fn position(text: &str, map: &Map) -> Result<Position, String> {
    let t = crate::gsd::parse::read_target(text, map)
        .map_err(|e| format!("{text:?}: expected {}", e.0))?;
    let station = map
        .find(&t.station)
        .ok_or_else(|| format!("{text:?} is not a station of the map"))?;
    Ok(Position {
        station,
        line: t.line,
    })
}

/// A Ghost Station named as a position: `Aldwych` or `Aldwych (GH)`.
pub(super) fn ghost(text: &str, map: &Map) -> Option<crate::map::GhostId> {
    let t = text.trim();
    let t = t
        .strip_suffix("(GH)")
        .or_else(|| t.strip_suffix("(gh)"))
        .unwrap_or(t);
    map.find_ghost(t)
}

fn station(text: &str, map: &Map) -> Result<crate::map::StationId, String> {
    map.lookup(text).map_err(|e| e.to_string())
}

impl Case {
    /// Builds the starting state.
    pub fn state(&self, map: &Map) -> Result<GameState, String> {
        let s = &self.state;
        let time = crate::gsd::parse::game_time(&s.time)
            .ok_or_else(|| format!("bad time {:?}", s.time))?;
        let players = s
            .order
            .iter()
            .map(|name| {
                let cp = s.players.iter().find(|p| p.name.eq_ignore_ascii_case(name));
                player(name, cp, map)
            })
            .collect::<Result<Vec<_>, _>>()?;
        for cp in &s.players {
            if !s.order.iter().any(|n| n.eq_ignore_ascii_case(&cp.name)) {
                return Err(format!("player {:?} is not in the order of play", cp.name));
            }
        }
        let to_play = s
            .order
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&s.to_play))
            .ok_or("to_play is not in the order")?;
        let disruptions = s
            .disruptions
            .iter()
            .map(|d| {
                crate::gsd::parse::disruption(d, map)
                    .map_err(|e| format!("disruption {d:?}: expected {}", e.0))
                    .and_then(|g| {
                        crate::engine::Disruption::from_gsd(&g, map).map_err(|e| e.to_string())
                    })
            })
            .collect::<Result<_, _>>()?;
        let wild = s
            .wild
            .iter()
            .map(|w| station(w, map))
            .collect::<Result<_, _>>()?;
        let mut stacks = Vec::new();
        for (st, toks) in &s.stacks {
            let colours = crate::gsd::parse::token_codes(toks)
                .ok_or_else(|| format!("bad stack {toks:?}"))?;
            stacks.push((station(st, map)?, colours));
        }
        let blocks: Vec<Block> = s
            .blocks
            .iter()
            .map(|b| {
                Ok(Block {
                    station: station(&b.station, map)?,
                    by: b.by.clone(),
                })
            })
            .collect::<Result<_, String>>()?;
        let history = s
            .history
            .iter()
            .map(|h| {
                parse_play(&h.line, map)
                    .map_err(|e| format!("history {:?} does not parse: {e}", h.line))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mc = map.landmark(crate::map::Landmark::MorningtonCrescent);
        // A Piece already resting at Mornington Crescent has won (Rule 1.1.1).
        let winner = players
            .iter()
            .find(|p| !crate::engine::is_drone(&p.name) && p.at.is_some_and(|a| a.station == mc))
            .map(|p| p.name.clone());
        let courier = match s.courier.as_slice() {
            [] => None,
            [p, d] => Some(crate::engine::CourierStations {
                pickup: station(p, map)?,
                destination: station(d, map)?,
            }),
            _ => return Err("courier = [Pick-Up, Destination]".into()),
        };
        let lodes = s
            .lodes
            .iter()
            .map(|l| station(l, map))
            .collect::<Result<_, _>>()?;
        let lost_found = s
            .lost_found
            .iter()
            .map(|i| {
                crate::gsd::parse::item(i, map).map_err(|e| format!("lost_found {i:?}: {}", e.0))
            })
            .collect::<Result<_, _>>()?;
        let mut state = GameState {
            to_play,
            courier,
            lodes,
            lost_found,
            disruptions,
            wild,
            stacks,
            rulings: s.rulings.clone(),
            winner,
            ..GameState::new(time, players)
        };
        state.resolve_cascade_focus().map_err(|e| e.to_string())?;
        if !history.is_empty() {
            state.recover_round(&history);
            state.turn = history.len() as u64;
        }
        if !s.gambits.is_empty() {
            let text = toml::to_string(&toml::Table::from_iter([(
                "gambit".to_string(),
                toml::Value::Array(s.gambits.clone()),
            )]))
            .map_err(|e| e.to_string())?;
            state.gambits.lounge = crate::engine::gambit::read_registry(&text, map)?;
        }
        state.gambits.denials.extend(s.denials.iter().cloned());
        state.blocks.extend(blocks);
        state.visits.extend(s.visits.iter().cloned());
        for b in &s.began {
            state.began.push(crate::engine::Began {
                player: b.player.clone(),
                at: station(&b.at, map)?,
            });
        }
        state.prisons.extend(s.prisons.iter().cloned());
        state.blasted.extend(s.blasted.iter().cloned());
        state.poid = s.poid.as_deref().map(|p| station(p, map)).transpose()?;
        state.poid_placer.clone_from(&s.poid_placer);
        state.poid_blast = s
            .poid_blast
            .as_deref()
            .map(|p| station(p, map))
            .transpose()?;
        for p in &s.packages {
            state.packages.push(crate::engine::Package {
                at: station(&p.at, map)?,
                by: p.by.clone(),
            });
        }
        for t in &s.toffs {
            state.toffs.push(crate::engine::Toff {
                player: t.player.clone(),
                toward: station(&t.at, map)?,
            });
        }
        Ok(state)
    }
}

/// One player of `[state]`: named in `[[state.players]]`, or joining as
/// Rule 1.1.8 says.
fn player(name: &str, cp: Option<&CasePlayer>, map: &Map) -> Result<PlayerState, String> {
    let mut p = PlayerState::joining(name);
    let Some(cp) = cp else {
        return Ok(p);
    };
    p.active = cp.active;
    match cp.at.as_deref().and_then(|a| ghost(a, map)) {
        Some(g) => p.ghost = Some(g),
        None => p.at = cp.at.as_deref().map(|a| position(a, map)).transpose()?,
    }
    p.piece_b = cp.at_b.as_deref().map(|a| position(a, map)).transpose()?;
    p.home = cp.home.as_deref().map(|h| station(h, map)).transpose()?;
    // The GSD's ranges, so no arithmetic on them overflows.
    if cp.lv > crate::gsd::parse::MAX_LV {
        return Err(format!("{}: lv {} is above 999", cp.name, cp.lv));
    }
    if !(-999..=999).contains(&cp.charge) {
        return Err(format!(
            "{}: charge {} is outside -999..999",
            cp.name, cp.charge
        ));
    }
    p.lv = cp.lv;
    p.charge = cp.charge;
    if let Some(t) = &cp.tokens {
        p.tokens = tokens(t)?;
        if Colour::ALL
            .iter()
            .any(|c| p.tokens.get(*c) > crate::gsd::parse::MAX_COUNT)
        {
            return Err(format!("{}: a token count is above 9999", cp.name));
        }
    }
    p.possessions = cp
        .possessions
        .iter()
        .map(|x| {
            crate::gsd::parse::possession(x, map)
                .map_err(|e| format!("possession {x:?}: expected {}", e.0))
        })
        .collect::<Result<_, _>>()?;
    Ok(p)
}
