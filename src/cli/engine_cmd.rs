//! `mornbot case`, `mornbot adjudicate`.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::Exit;
use crate::engine::case::{Case, CaseResult};
use crate::engine::{adjudicate as judge, GameState, PlayerState, Position, Verdict};
use crate::gsd::{parse_gsd, parse_play, render, Gsd, Move};
use crate::map::Map;

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("reading {}", path.display()))?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for e in entries {
            collect(&e, out)?;
        }
    } else if path.extension().is_some_and(|e| e == "toml") || path.is_file() {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// `mornbot case FILE_OR_DIR... [--json]`.
pub(super) fn case(paths: &[PathBuf], json: bool) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    let mut files = Vec::new();
    for p in paths {
        if !p.exists() {
            eprintln!("mornbot: {}: no such file or directory", p.display());
            return Ok(Exit::BadInput);
        }
        collect(p, &mut files)?;
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        let result = match Case::from_toml(&text) {
            Ok(c) => c.run(map),
            Err(e) => CaseResult {
                id: f.display().to_string(),
                pass: false,
                why: vec![format!("{}: {}", f.display(), e.trim())],
                verdict: None,
                ignored: vec![],
            },
        };
        if result.pass {
            passed += 1;
        } else {
            failed += 1;
        }
        if json {
            println!("{}", serde_json::to_string(&result)?);
        } else if result.pass {
            if result.ignored.is_empty() {
                println!("PASS {}", result.id);
            } else {
                println!(
                    "PASS {} (ignored keys: {})",
                    result.id,
                    result.ignored.join(", ")
                );
            }
        } else {
            println!("FAIL {}: {}", result.id, result.why.join("; "));
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { Exit::Ok } else { Exit::Failure })
}

/// The state a GSD describes: its tables, Game Time, and each Piece where
/// its player's last Play left it; the next player is the one after the
/// last Play's (Rule 1.3.2).
pub fn state_of(g: &Gsd, map: &Map) -> Result<GameState, String> {
    let time = g.time.ok_or("the GSD has no Game Time")?;
    let mut players = Vec::new();
    for row in &g.players {
        let mut p = PlayerState::joining(&row.name);
        p.active = row.active;
        p.home = row.home.as_deref().and_then(|h| map.find(h));
        p.lv = row.lv;
        p.charge = row.charge;
        p.tokens = row.tokens;
        if let Some(l) = g
            .luggage
            .iter()
            .find(|l| l.player.eq_ignore_ascii_case(&row.name))
        {
            p.possessions = l.items.clone();
        }
        for play in g
            .plays
            .iter()
            .rev()
            .filter(|pl| pl.player.eq_ignore_ascii_case(&row.name))
        {
            if let Move::To {
                station,
                line,
                escalator_to,
                ..
            } = play.the_move()
            {
                if let Some(g) = map.lookup_ghost(station) {
                    p.ghost = Some(g.to_string());
                    break;
                }
                let target = escalator_to.as_deref().unwrap_or(station);
                p.at = map.find(target).map(|s| Position {
                    station: s,
                    line: if escalator_to.is_some() { None } else { *line },
                });
                break;
            }
        }
        players.push(p);
    }
    if players.is_empty() {
        return Err("the GSD has no players".into());
    }
    let mut state = GameState {
        disruptions: g.disruptions.clone(),
        wild: g.wild.iter().filter_map(|w| map.find(w)).collect(),
        stacks: g
            .stacks
            .iter()
            .filter_map(|s| map.find(&s.station).map(|id| (id, s.tokens.clone())))
            .collect(),
        turn: g.plays.len() as u64,
        ..GameState::new(time, players)
    };
    state.recover_round(map, &g.plays);
    state.to_play = match g.plays.last().and_then(|p| state.player_index(&p.player)) {
        Some(i) => state.next_active(i),
        None => state.players.iter().position(|p| p.active).unwrap_or(0),
    };
    Ok(state)
}

/// `mornbot adjudicate --gsd FILE --play LINE [--json]`.
pub(super) fn adjudicate(gsd: &Path, line: &str, json: bool) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    let text =
        std::fs::read_to_string(gsd).with_context(|| format!("reading {}", gsd.display()))?;
    let g = match parse_gsd(&text, map) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}:{e}", gsd.display());
            return Ok(Exit::BadInput);
        }
    };
    let play = match parse_play(line, map) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("play:{e}");
            return Ok(Exit::BadInput);
        }
    };
    let state = match state_of(&g, map) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", gsd.display());
            return Ok(Exit::BadInput);
        }
    };
    let out = judge(map, &state, &play);
    let mut next = g.clone();
    if let Some(after) = &out.state {
        next.plays.push(play.clone());
        next.time = Some(after.time);
        for (row, p) in next.players.iter_mut().zip(&after.players) {
            row.lv = p.lv;
            row.charge = p.charge;
            row.tokens = p.tokens;
            row.home = p.home.map(|h| map.station(h).name.clone());
        }
        next.disruptions = after.disruptions.clone();
        next.wild = after
            .wild
            .iter()
            .map(|w| map.station(*w).name.clone())
            .collect();
    }
    if json {
        println!(
            "{}",
            serde_json::json!({"verdict": out.verdict, "violations": out.violations, "rulings": out.rulings, "changes": out.changes, "gsd": out.state.as_ref().map(|_| render(&next))})
        );
    } else {
        println!(
            "{}",
            match out.verdict {
                Verdict::Legal => "LEGAL",
                Verdict::Illegal => "ILLEGAL",
                Verdict::NeedsRuling => "NEEDS A HUMAN RULING",
            }
        );
        for v in out.violations.iter().chain(&out.rulings) {
            println!("  Rule {}: {}", v.rule, v.message);
        }
        for c in &out.changes {
            println!("  {c}");
        }
        if out.state.is_some() {
            println!();
            print!("{}", render(&next));
        }
    }
    Ok(match out.verdict {
        Verdict::Legal => Exit::Ok,
        _ => Exit::Failure,
    })
}

/// `mornbot rules --coverage [--cases DIR] [--json]`.
pub(super) fn rules(cases: &Path, json: bool) -> anyhow::Result<Exit> {
    let mut files = Vec::new();
    if cases.exists() {
        collect(cases, &mut files)?;
    }
    let mut case_rules = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(&f).with_context(|| format!("reading {}", f.display()))?;
        if let Ok(c) = Case::from_toml(&text) {
            case_rules.push(c.rules);
        }
    }
    let report = crate::engine::coverage::coverage(&case_rules);
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(Exit::Ok);
    }
    for c in &report {
        let status = match c.status {
            crate::engine::coverage::Status::Adjudicated => {
                format!("adjudicated ({} cases)", c.cases)
            }
            crate::engine::coverage::Status::Partly => {
                format!("partly adjudicated ({} cases): {}", c.cases, c.note)
            }
            crate::engine::coverage::Status::Data => format!("map/grammar data: {}", c.note),
            crate::engine::coverage::Status::Speaker => format!("by the Speaker: {}", c.note),
            crate::engine::coverage::Status::Ruling => "needs a human ruling".to_string(),
        };
        println!("{:<8} {:<40} {status}", c.rule, c.title);
    }
    let done = report
        .iter()
        .filter(|c| c.status != crate::engine::coverage::Status::Ruling)
        .count();
    println!(
        "{done} of {} rules adjudicated, applied as data, or run by the Speaker; the rest need a human ruling",
        report.len()
    );
    Ok(Exit::Ok)
}

/// The state at a game's start for the players of a GSD (Rules 1.1.2, 1.1.8):
/// everyone joins with the defaults, the Drone stands at Mornington
/// Crescent, and Game Time is the GSD's, wound back by the plays' durations.
pub fn start_of(g: &Gsd, map: &Map) -> Result<GameState, String> {
    let now = g.time.ok_or("the GSD has no Game Time")?;
    let minutes: u32 = g
        .plays
        .iter()
        .map(|p| {
            let actions: u32 = p
                .actions_before()
                .chain(p.actions_after())
                .map(|a| a.spec().duration.minutes().unwrap_or(0))
                .sum();
            actions
                + match p.the_move() {
                    Move::Timeout => 60,
                    Move::Pass(_) | Move::Farkle(_) => 0,
                    _ => 10,
                }
        })
        .sum();
    let players: Vec<PlayerState> = g
        .players
        .iter()
        .map(|row| {
            // The Drone starts at Mornington Crescent with no Tokens
            // (Rule 1.1.2; Rule 1.2.0's example table).
            let mut p = if crate::engine::is_drone(&row.name) {
                PlayerState::drone(map)
            } else {
                PlayerState::joining(&row.name)
            };
            p.active = row.active;
            p
        })
        .collect();
    if players.is_empty() {
        return Err("the GSD has no players".into());
    }
    let first = g.plays.first().and_then(|p| {
        players
            .iter()
            .position(|q| q.name.eq_ignore_ascii_case(&p.player))
    });
    let to_play = first
        .or_else(|| players.iter().position(|p| p.active))
        .unwrap_or(0);
    Ok(GameState {
        to_play,
        ..GameState::new(crate::engine::time::rewind(now, minutes), players)
    })
}

/// `mornbot check FILE`.
pub(super) fn check(file: &Path) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let g = match parse_gsd(&text, map) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}:{e}", file.display());
            return Ok(Exit::BadInput);
        }
    };
    let start = match start_of(&g, map) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(Exit::BadInput);
        }
    };
    let (end, stop) = crate::engine::replay(map, start.clone(), &g.plays);
    let mut clean = true;
    if let Some((i, out)) = &stop {
        clean = false;
        let p = &g.plays[*i];
        let kind = match out.verdict {
            Verdict::Illegal => "ILLEGAL",
            _ => "NEEDS A HUMAN RULING",
        };
        println!(
            "play {} ({}): {kind}: {}",
            i + 1,
            crate::gsd::render_play(p),
            p.player
        );
        for v in out.violations.iter().chain(&out.rulings) {
            println!("  Rule {}: {}", v.rule, v.message);
        }
        println!("the tables are compared with the replay up to play {i}");
    } else {
        println!("all {} plays replay as legal", g.plays.len());
    }
    // Rule 1.16.5: the tables at the top must tally with the plays.
    let diffs = if stop.is_none() {
        let replayed = crate::engine::Game {
            tag: g.game.clone().unwrap_or_default(),
            start,
            plays: g.plays.clone(),
            state: end,
            resigned: Vec::new(),
        };
        crate::gsd::table_diffs(&g, &replayed.gsd(map), ("the GSD says", "the replay gives"))
    } else {
        Vec::new()
    };
    for d in &diffs {
        clean = false;
        println!("Rule 1.16.5: {d}");
    }
    Ok(if clean { Exit::Ok } else { Exit::Failure })
}
