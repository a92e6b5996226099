//! The rule-case format of `fixtures/cases/**/*.toml` (our DATC): a state,
//! a play, and what the adjudicator must say. Other tools read this format;
//! keys this version does not know are reported (and ignored), so a case
//! written for a later version still runs.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::state::{Block, GameState, PlayerState, Position};
use super::{adjudicate, Verdict};
use crate::gsd::{parse_play, Colour, Tokens};
use crate::map::Map;

/// A case file.
#[derive(Debug, Deserialize)]
pub struct Case {
    /// Unique id, e.g. `lv-exact-001`.
    pub id: String,
    /// The rules the case exercises.
    pub rules: Vec<String>,
    /// One line on what it shows.
    pub summary: String,
    /// The state before the play.
    pub state: CaseState,
    /// The play.
    pub play: CasePlay,
    /// What must come out.
    pub expect: Expect,
    /// Keys of the file this version does not know (ignored).
    #[serde(skip)]
    pub unknown_keys: Vec<String>,
}

/// `[state]`.
#[derive(Debug, Deserialize)]
pub struct CaseState {
    /// Game Time as in a GSD (`Monday 0900`).
    pub time: String,
    /// Order of play.
    pub order: Vec<String>,
    /// Whose Turn it is.
    pub to_play: String,
    /// The Disruptions box, item by item.
    #[serde(default)]
    pub disruptions: Vec<String>,
    /// Wild Stations.
    #[serde(default)]
    pub wild: Vec<String>,
    /// Token Stacks, bottom to top (`"ReGo"`).
    #[serde(default)]
    pub stacks: BTreeMap<String, String>,
    /// Players (any not listed join as Rule 1.1.8 says).
    #[serde(default)]
    pub players: Vec<CasePlayer>,
    /// Blocks in force for one Round.
    #[serde(default)]
    pub blocks: Vec<CaseBlock>,
    /// The game's choices on contested rulings (an extension of the format;
    /// omitted: RULINGS.md's decisions).
    #[serde(default)]
    pub rulings: crate::engine::Rulings,
    /// Visits of players' latest Moves (Rule 1.7.9; an extension of the
    /// format): `[[state.visits]]` with `player`, `place` and `late`.
    #[serde(default)]
    pub visits: Vec<crate::engine::Visit>,
    /// Earlier Plays, oldest first, as GSD lines (`[[state.history]]` with
    /// `line`): what rules read from earlier Turns (a Round's Blocks and
    /// Line States, Visits, the Drone Stick) is recovered from them as from
    /// a GSD's Plays; `blocks` and `visits` given too are added.
    #[serde(default)]
    pub history: Vec<CasePlay>,
}

/// `[[state.players]]`.
#[derive(Debug, Deserialize)]
pub struct CasePlayer {
    /// Name.
    pub name: String,
    /// `Holborn (CN)`; omitted: not on the Map.
    pub at: Option<String>,
    /// Home Station.
    pub home: Option<String>,
    /// LV.
    #[serde(default)]
    pub lv: u32,
    /// Charge.
    #[serde(default)]
    pub charge: i32,
    /// Tokens, absent colours 0; omitted entirely: Rule 1.1.8's 2 Bk, 2 Re, 2 Br.
    pub tokens: Option<BTreeMap<String, u32>>,
    /// Possessions as in the Luggage Rack.
    #[serde(default)]
    pub possessions: Vec<String>,
    /// Inactive when false.
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

/// `[[state.blocks]]`.
#[derive(Debug, Deserialize)]
pub struct CaseBlock {
    /// The station.
    pub station: String,
    /// Who placed it.
    pub by: String,
}

/// `[play]`, and each `[[state.history]]`.
#[derive(Debug, Deserialize)]
pub struct CasePlay {
    /// The play, exactly as written in a GSD.
    pub line: String,
}

/// `[expect]`.
#[derive(Debug, Deserialize)]
pub struct Expect {
    /// `legal`, `illegal`, `ruling` (the play must get "needs a human
    /// ruling") or `unparsable` (the play line must be refused by the
    /// grammar, e.g. a directive naming no station).
    pub verdict: String,
    /// Illegal: at least one of these must be cited; ruling: one of these
    /// must be the rule a human is asked about.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Rules that must not be cited (a verdict must cite the rule the play
    /// breaks, not a neighbour).
    #[serde(default)]
    pub forbid_rules: Vec<String>,
    /// Unparsable: text the parse error must contain.
    pub message: Option<String>,
    /// Wild Stations after a legal play, oldest first.
    pub wild: Option<Vec<String>>,
    /// Game Time after a legal play.
    pub time: Option<String>,
    /// The winner after the play (`""`: none).
    pub winner: Option<String>,
    /// Stations Blocked after the play.
    pub blocked: Option<Vec<String>>,
    /// Token Stacks after the play.
    pub stacks: Option<BTreeMap<String, String>>,
    /// The whole Disruptions box after the play, in any order (an extension
    /// of the format: other readers may ignore it).
    pub disruptions: Option<Vec<String>>,
    /// Players after the play.
    #[serde(default)]
    pub players: BTreeMap<String, ExpectPlayer>,
}

/// `[expect.players.NAME]`.
#[derive(Debug, Deserialize)]
pub struct ExpectPlayer {
    /// Position.
    pub at: Option<String>,
    /// LV.
    pub lv: Option<u32>,
    /// Charge.
    pub charge: Option<i32>,
    /// Tokens (absent colours 0).
    pub tokens: Option<BTreeMap<String, u32>>,
    /// Possessions.
    pub possessions: Option<Vec<String>>,
    /// Home Station.
    pub home: Option<String>,
}

/// The result of running one case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CaseResult {
    /// The case id (or the file when it could not be read).
    pub id: String,
    /// Whether the adjudicator said what the case expects.
    pub pass: bool,
    /// Why not.
    pub why: Vec<String>,
    /// The verdict given.
    pub verdict: Option<Verdict>,
    /// Keys of the case file that were ignored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

fn tokens(map: &BTreeMap<String, u32>) -> Result<Tokens, String> {
    let mut t = Tokens::default();
    for (k, v) in map {
        let c = Colour::parse(k).ok_or_else(|| format!("unknown token colour {k:?}"))?;
        t.set(c, *v);
    }
    Ok(t)
}

fn position(text: &str, map: &Map) -> Result<Position, String> {
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
fn ghost(text: &str, map: &Map) -> Option<crate::map::GhostId> {
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
    /// Parses a case file, noting keys it does not know.
    pub fn from_toml(text: &str) -> Result<Case, String> {
        let de = toml::Deserializer::parse(text).map_err(|e| e.to_string())?;
        let mut unknown = Vec::new();
        let mut case: Case = serde_ignored::deserialize(de, |path| unknown.push(path.to_string()))
            .map_err(|e| e.to_string())?;
        case.unknown_keys = unknown;
        Ok(case)
    }

    /// Builds the starting state.
    pub fn state(&self, map: &Map) -> Result<GameState, String> {
        let s = &self.state;
        let time = crate::gsd::parse::game_time(&s.time)
            .ok_or_else(|| format!("bad time {:?}", s.time))?;
        let mut players = Vec::new();
        for name in &s.order {
            let mut p = PlayerState::joining(name);
            if let Some(cp) = s.players.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
                p.active = cp.active;
                match cp.at.as_deref().and_then(|a| ghost(a, map)) {
                    Some(g) => p.ghost = Some(g),
                    None => p.at = cp.at.as_deref().map(|a| position(a, map)).transpose()?,
                }
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
            }
            players.push(p);
        }
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
        let mut state = GameState {
            to_play,
            disruptions,
            wild,
            stacks,
            rulings: s.rulings.clone(),
            winner,
            ..GameState::new(time, players)
        };
        if !history.is_empty() {
            state.recover_round(&history);
            state.turn = history.len() as u64;
        }
        state.blocks.extend(blocks);
        state.visits.extend(s.visits.iter().cloned());
        Ok(state)
    }

    /// Runs the case.
    pub fn run(&self, map: &Map) -> CaseResult {
        let result = |why: Vec<String>, verdict| CaseResult {
            id: self.id.clone(),
            pass: why.is_empty(),
            why,
            verdict,
            ignored: self.unknown_keys.clone(),
        };
        let state = match self.state(map) {
            Ok(s) => s,
            Err(e) => return result(vec![format!("bad state: {e}")], None),
        };
        let play = match (
            parse_play(&self.play.line, map),
            self.expect.verdict.as_str(),
        ) {
            (Ok(p), _) => p,
            (Err(e), "unparsable") => {
                let msg = e.to_string();
                let mut why = Vec::new();
                if let Some(want) = &self.expect.message {
                    if !msg.contains(want.as_str()) {
                        why.push(format!("the parse error {msg:?} does not say {want:?}"));
                    }
                }
                return result(why, None);
            }
            (Err(e), _) => return result(vec![format!("the play does not parse: {e}")], None),
        };
        let out = adjudicate(map, &state, &play);
        let want = match self.expect.verdict.as_str() {
            "legal" => Verdict::Legal,
            "illegal" => Verdict::Illegal,
            "ruling" => Verdict::NeedsRuling,
            "unparsable" => {
                return result(
                    vec![format!(
                    "expected the play to be refused by the grammar; it parsed and was judged {:?}",
                    out.verdict
                )],
                    Some(out.verdict),
                )
            }
            v => {
                return result(
                    vec![format!(
                        "expect.verdict must be legal, illegal, ruling or unparsable, not {v:?}"
                    )],
                    Some(out.verdict),
                )
            }
        };
        let mut why = Vec::new();
        if out.verdict != want {
            let detail: Vec<String> = out
                .violations
                .iter()
                .chain(&out.rulings)
                .map(|v| format!("{}: {}", v.rule, v.message))
                .collect();
            why.push(format!(
                "expected {}, got {:?} {}",
                self.expect.verdict,
                out.verdict,
                detail.join("; ")
            ));
            return result(why, Some(out.verdict));
        }
        let cited = match want {
            Verdict::Illegal => &out.violations,
            Verdict::NeedsRuling => &out.rulings,
            Verdict::Legal => &out.violations,
        };
        self.check_citations(cited, &mut why);
        if let Some(after) = &out.state {
            self.check_state(map, after, &mut why);
        }
        result(why, Some(out.verdict))
    }

    /// The rules cited: one of `expect.rules`, none of `expect.forbid_rules`.
    fn check_citations(&self, cited: &[super::Violation], why: &mut Vec<String>) {
        let list = || {
            cited
                .iter()
                .map(|v| format!("{} ({})", v.rule, v.message))
                .collect::<Vec<_>>()
                .join("; ")
        };
        if !cited.is_empty()
            && !self.expect.rules.is_empty()
            && !cited.iter().any(|v| self.expect.rules.contains(&v.rule))
        {
            why.push(format!(
                "expected a citation of {:?}, cited {}",
                self.expect.rules,
                list()
            ));
        }
        if let Some(v) = cited
            .iter()
            .find(|v| self.expect.forbid_rules.contains(&v.rule))
        {
            why.push(format!(
                "Rule {} must not be cited, but was ({}); cited {}",
                v.rule,
                v.message,
                list()
            ));
        }
    }

    fn check_state(&self, map: &Map, after: &GameState, why: &mut Vec<String>) {
        let e = &self.expect;
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
        for (name, ep) in &e.players {
            let Some(p) = after.player_index(name).map(|i| &after.players[i]) else {
                why.push(format!("no player {name}"));
                continue;
            };
            if let Some(at) = &ep.at {
                if let Some(g) = ghost(at, map) {
                    if p.ghost != Some(g) {
                        why.push(format!(
                            "{name}.at: expected the Ghost Station {}, got {:?}",
                            map.ghost(g),
                            p.ghost.map(|x| map.ghost(x))
                        ));
                    }
                    continue;
                }
                let want = position(at, map).ok();
                let got = p.at;
                let same = match (want, got) {
                    (Some(w), Some(g)) => {
                        w.station == g.station && (w.line.is_none() || w.line == g.line)
                    }
                    _ => false,
                };
                if !same {
                    why.push(format!(
                        "{name}.at: expected {at}, got {}",
                        got.map(|g| g.text(map)).unwrap_or("off the Map".into())
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
