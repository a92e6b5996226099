//! What a case expects of the state after a legal play (`[expect]`).

use super::state::{ghost, position, tokens};
use super::{Case, ExpectPlayer};
use crate::engine::state::GameState;
use crate::gsd::{Colour, Tokens};
use crate::map::Map;

impl Case {
    pub(super) fn check_state(&self, map: &Map, after: &GameState, why: &mut Vec<String>) {
        let e = &self.expect;
        check_gambits(e, after, why);
        if let Some(t) = &e.time {
            if crate::gsd::parse::game_time(t) != Some(after.time) {
                why.push(format!("time: expected {t}, got {}", after.time));
            }
        }
        if let Some(w) = &e.winner {
            // `winner = ""`: no one has won.
            let want = Some(w.as_str()).filter(|w| !w.is_empty());
            if after.winner.as_deref() != want {
                why.push(format!("winner: expected {w}, got {:?}", after.winner));
            }
        }
        if let Some(b) = &e.blocked {
            let mut want: Vec<String> = b
                .iter()
                .filter_map(|s| map.find(s))
                .map(|i| map.station(i).name.clone())
                .collect();
            let mut got: Vec<String> = after
                .blocks
                .iter()
                .map(|b| map.station(b.station).name.clone())
                .collect();
            want.sort();
            got.sort();
            got.dedup();
            if want != got {
                why.push(format!("blocked: expected {want:?}, got {got:?}"));
            }
        }
        if let Some(w) = &e.wild {
            let want: Vec<String> = w
                .iter()
                .map(|s| {
                    map.find(s)
                        .map_or(s.clone(), |i| map.station(i).name.clone())
                })
                .collect();
            let got: Vec<String> = after
                .wild
                .iter()
                .map(|i| map.station(*i).name.clone())
                .collect();
            if want != got {
                why.push(format!("wild: expected {want:?}, got {got:?}"));
            }
        }
        if let Some(ds) = &e.disruptions {
            let mut want = Vec::new();
            for d in ds {
                match crate::gsd::parse::disruption(d, map) {
                    Ok(d) => want.push(crate::gsd::render::disruption_text(&d)),
                    Err(e) => why.push(format!("disruption {d:?}: expected {}", e.0)),
                }
            }
            let mut got: Vec<String> = after.disruptions.iter().map(|d| d.text(map)).collect();
            want.sort();
            got.sort();
            if want != got {
                why.push(format!("disruptions: expected {want:?}, got {got:?}"));
            }
        }
        if let Some(want) = &e.courier {
            let got: Vec<String> = after
                .courier
                .iter()
                .flat_map(|c| [c.pickup, c.destination])
                .map(|id| map.station(id).name.clone())
                .collect();
            let want: Vec<String> = want
                .iter()
                .map(|w| {
                    map.find(w)
                        .map_or(w.clone(), |id| map.station(id).name.clone())
                })
                .collect();
            if want != got {
                why.push(format!("courier: expected {want:?}, got {got:?}"));
            }
        }
        if let Some(stacks) = &e.stacks {
            for (st, toks) in stacks {
                let want = crate::gsd::parse::token_codes(toks);
                let got = map
                    .find(st)
                    .and_then(|id| after.stack(id).cloned())
                    .unwrap_or_default();
                if want.as_ref() != Some(&got) {
                    why.push(format!(
                        "stack at {st}: expected {toks}, got {}",
                        got.iter().map(|c| c.code()).collect::<String>()
                    ));
                }
            }
        }
        if let Some(ps) = &e.packages {
            let mut want: Vec<String> = ps
                .iter()
                .map(|s| {
                    map.find(s)
                        .map_or(s.clone(), |i| map.station(i).name.clone())
                })
                .collect();
            let mut got: Vec<String> = after
                .packages
                .iter()
                .map(|p| map.station(p.at).name.clone())
                .collect();
            want.sort();
            got.sort();
            if want != got {
                why.push(format!("packages: expected {want:?}, got {got:?}"));
            }
        }
        if let Some(p) = &e.poid {
            let want = map.find(p).map(|i| map.station(i).name.clone());
            let got = after.poid.map(|i| map.station(i).name.clone());
            if want != got {
                why.push(format!("poid: expected {p:?}, got {got:?}"));
            }
        }
        if let Some(p) = &e.poid_blast {
            let want = map.find(p).map(|i| map.station(i).name.clone());
            let got = after.poid_blast.map(|i| map.station(i).name.clone());
            if want != got {
                why.push(format!("poid_blast: expected {p:?}, got {got:?}"));
            }
        }
        if let Some(bs) = &e.blasted {
            let mut want: Vec<String> = bs.iter().map(|b| b.to_lowercase()).collect();
            let mut got: Vec<String> = after.blasted.iter().map(|b| b.to_lowercase()).collect();
            want.sort();
            got.sort();
            if want != got {
                why.push(format!("blasted: expected {want:?}, got {got:?}"));
            }
        }
        for (name, ep) in &e.players {
            match after.player_index(name) {
                Some(i) => check_player(map, name, ep, &after.players[i], why),
                None => why.push(format!("no player {name}")),
            }
        }
    }
}

/// What `[expect.players.NAME]` says of one player.
fn check_player(
    map: &Map,
    name: &str,
    ep: &ExpectPlayer,
    p: &crate::engine::PlayerState,
    why: &mut Vec<String>,
) {
    if let Some(at) = &ep.at {
        if let Some(g) = ghost(at, map) {
            if p.ghost != Some(g) {
                why.push(format!(
                    "{name}.at: expected the Ghost Station {}, got {:?}",
                    map.ghost(g),
                    p.ghost.map(|x| map.ghost(x))
                ));
            }
            return;
        }
        let want = position(at, map).ok();
        let got = p.at;
        let same = match (want, got) {
            (Some(w), Some(g)) => w.station == g.station && (w.line.is_none() || w.line == g.line),
            _ => false,
        };
        if !same {
            why.push(format!(
                "{name}.at: expected {at}, got {}",
                got.map(|g| g.text(map)).unwrap_or("off the Map".into())
            ));
        }
    }
    if let Some(b) = &ep.at_b {
        let want = (!b.is_empty()).then(|| position(b, map).ok()).flatten();
        let same = match (want, p.piece_b) {
            (None, None) => b.is_empty(),
            (Some(w), Some(g)) => w.station == g.station && (w.line.is_none() || w.line == g.line),
            _ => false,
        };
        if !same {
            why.push(format!(
                "{name}.at_b: expected {}, got {}",
                if b.is_empty() { "no Piece B" } else { b },
                p.piece_b
                    .map(|g| g.text(map))
                    .unwrap_or("no Piece B".into())
            ));
        }
    }
    if let Some(lv) = ep.lv {
        if p.lv != lv {
            why.push(format!("{name}.lv: expected {lv}, got {}", p.lv));
        }
    }
    if let Some(ch) = ep.charge {
        if p.charge != ch {
            why.push(format!("{name}.charge: expected {ch}, got {}", p.charge));
        }
    }
    if let Some(t) = &ep.tokens {
        match tokens(t) {
            Ok(want) if want == p.tokens => {}
            Ok(_) => why.push(format!(
                "{name}.tokens: expected {t:?}, got {}",
                fmt_tokens(&p.tokens)
            )),
            Err(e) => why.push(e),
        }
    }
    if let Some(h) = &ep.home {
        let got = p.home.map(|i| map.station(i).name.clone());
        if map.find(h).map(|i| map.station(i).name.clone()) != got {
            why.push(format!("{name}.home: expected {h}, got {got:?}"));
        }
    }
    if let Some(want) = &ep.possessions {
        let got: Vec<String> = p
            .possessions
            .iter()
            .map(crate::gsd::possession_text)
            .collect();
        let want: Vec<String> = want
            .iter()
            .map(|w| {
                crate::gsd::parse::possession(w, map)
                    .map(|x| crate::gsd::possession_text(&x))
                    .unwrap_or(w.clone())
            })
            .collect();
        if want != got {
            why.push(format!(
                "{name}.possessions: expected {want:?}, got {got:?}"
            ));
        }
    }
}

fn fmt_tokens(t: &Tokens) -> String {
    Colour::ALL
        .iter()
        .filter(|c| t.get(**c) > 0)
        .map(|c| format!("{}={}", c.code(), t.get(*c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The Gambits declared and the Denials pending after the play (Rules
/// 1.18.1, 1.18.4).
fn check_gambits(e: &super::Expect, after: &GameState, why: &mut Vec<String>) {
    if let Some(want) = &e.declared {
        let got: Vec<&str> = after
            .gambits
            .declared
            .iter()
            .map(|g| g.name.as_str())
            .collect();
        if *want != got {
            why.push(format!("declared: expected {want:?}, got {got:?}"));
        }
    }
    if let Some(want) = &e.denials {
        let got: Vec<String> = after
            .gambits
            .denials
            .iter()
            .map(|d| format!("{} by {}", d.gambit, d.target))
            .collect();
        if *want != got {
            why.push(format!("denials: expected {want:?}, got {got:?}"));
        }
    }
}
