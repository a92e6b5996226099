//! `mornbot map ...`

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde_json::{json, Value};

use super::{Exit, MapCommand};
use crate::map::{Map, StationId, StationKind};
use crate::picture::{self, Scene};

/// Loads the map named on the command line, or the embedded one.
pub(super) fn load(path: Option<&Path>) -> anyhow::Result<Result<Map, String>> {
    match path {
        None => Ok(
            Map::from_toml(crate::map::LONDON_1999, "maps/london-1999.toml")
                .map_err(|e| e.to_string()),
        ),
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            Ok(Map::from_toml(&text, &p.display().to_string()).map_err(|e| e.to_string()))
        }
    }
}

pub(super) fn run(path: Option<&Path>, command: MapCommand) -> anyhow::Result<Exit> {
    let map = match load(path)? {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return Ok(Exit::BadInput);
        }
    };
    match command {
        MapCommand::Check => {
            println!(
                "{}: {} stations, {} lines, {} segments: ok",
                map.name(),
                map.stations().len(),
                map.lines().len(),
                map.segment_count()
            );
            Ok(Exit::Ok)
        }
        MapCommand::Stats {
            json,
            kind: Some(kind),
            station: None,
        } => kind_stats(map, &kind, json),
        MapCommand::Stats {
            json,
            kind: _,
            station: None,
        } => {
            let stats = stats(&map);
            if json {
                println!("{stats}");
            } else {
                for (k, v) in stats.as_object().expect("stats is an object") {
                    println!("{k:>16}  {v}");
                }
            }
            Ok(Exit::Ok)
        }
        MapCommand::Stats {
            json,
            kind: _,
            station: Some(name),
        } => {
            let Some(id) = find(&map, &name) else {
                return Ok(Exit::BadInput);
            };
            let record = station_record(&map, id);
            if json {
                println!("{record}");
            } else {
                println!("{}", serde_json::to_string_pretty(&record)?);
            }
            Ok(Exit::Ok)
        }
        MapCommand::Fosdyke { from, to, json } => {
            let (Some(a), Some(b)) = (find(&map, &from), find(&map, &to)) else {
                return Ok(Exit::BadInput);
            };
            let code = map.fosdyke(a, b);
            if json {
                println!(
                    "{}",
                    json!({"from": map.station(a).name, "to": map.station(b).name, "fosdyke": code, "code": code.to_string()})
                );
            } else {
                println!(
                    "{} -> {}: {}",
                    map.station(a).name,
                    map.station(b).name,
                    code
                );
            }
            Ok(Exit::Ok)
        }
        MapCommand::Draw { gsd, output } => draw(&map, &gsd, &output),
        MapCommand::OnedayDeck => super::oneday_cmd::deck(&map),
    }
}

/// `mornbot map draw --gsd FILE -o OUT`: the picture of a GSD's game, SVG
/// when `OUT` ends in `.svg`, else PNG.
fn draw(map: &Map, gsd: &Path, output: &Path) -> anyhow::Result<Exit> {
    let text = super::gsd_cmd::read(gsd)?;
    let g = match crate::gsd::parse_gsd(&text, map) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{}:{e}", gsd.display());
            return Ok(Exit::BadInput);
        }
    };
    let as_svg = output
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("svg"));
    let drawn = Scene::from_gsd(map, &g).and_then(|scene| {
        if as_svg {
            picture::svg(map, &scene).map(String::into_bytes)
        } else {
            picture::draw_png(map, &scene)
        }
    });
    let bytes = match drawn {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{}: {e}", gsd.display());
            return Ok(Exit::BadInput);
        }
    };
    std::fs::write(output, &bytes).with_context(|| format!("writing {}", output.display()))?;
    Ok(Exit::Ok)
}

/// A station by name, or by its Venbacker Number (a face of the die,
/// RULINGS.md M19): `--station 295` is Woodside Park.
fn find(map: &Map, name: &str) -> Option<StationId> {
    if let Ok(n) = name.trim().parse::<u32>() {
        let id = crate::map::Venbacker::new(n).and_then(|v| map.by_venbacker(v));
        if id.is_none() {
            eprintln!(
                "mornbot: no station has Venbacker Number {n} (1-{})",
                map.stations().len()
            );
        }
        return id;
    }
    match map.lookup(name) {
        Ok(id) => Some(id),
        Err(e) => {
            eprintln!("mornbot: {e}");
            None
        }
    }
}

/// The whole-map counts of `mornbot map stats --json`.
/// `mornbot map stats --kind KIND`: the map as the kind sees it.
fn kind_stats(map: Map, kind: &str, json: bool) -> anyhow::Result<Exit> {
    if kind == crate::kinds::oneday::case::KIND {
        return super::oneday_cmd::stats(&map, json);
    }
    if kind != crate::kinds::mcxml::case::KIND {
        eprintln!("mornbot: unknown kind {kind:?}: the kinds with map facts are mc-xml and oneday");
        return Ok(Exit::BadInput);
    }
    // The facts borrow their map for the program's life; this command
    // ends right after.
    let facts = crate::kinds::mcxml::Facts::new(Box::leak(Box::new(map)));
    let names = |ids: &[StationId]| ids.iter().map(|s| facts.name(*s)).collect::<Vec<_>>();
    let report = json!({
        "stations": facts.station_count(),
        "segments": facts.segment_count(),
        "termini": facts.termini().len(),
        "interchanges": facts.interchanges().len(),
        "termini_list": names(facts.termini()),
        "interchanges_list": names(facts.interchanges()),
    });
    if json {
        println!("{report}");
        return Ok(Exit::Ok);
    }
    println!("mc-xml: the plain graph of every line (RULINGS MX1, MX2)");
    println!("{:>16}  {}", "stations", facts.station_count());
    println!("{:>16}  {}", "segments", facts.segment_count());
    println!(
        "{:>16}  {} (one adjacent station)",
        "termini",
        facts.termini().len()
    );
    println!(
        "{:>16}  {} (3 or more adjacent stations)",
        "interchanges",
        facts.interchanges().len()
    );
    println!("\ntermini: {}", names(facts.termini()).join(", "));
    let listed: Vec<String> = facts
        .interchanges()
        .iter()
        .map(|s| format!("{} ({})", facts.name(*s), facts.degree(*s)))
        .collect();
    println!("\ninterchanges (adjacent stations): {}", listed.join(", "));
    Ok(Exit::Ok)
}

pub fn stats(map: &Map) -> Value {
    let count =
        |f: &dyn Fn(&crate::map::Station) -> bool| map.stations().iter().filter(|s| f(s)).count();
    json!({
        "stations": map.stations().len(),
        "lines": map.lines().len(),
        "segments": map.segment_count(),
        "branches": map.lines().iter().map(|l| l.branches.len()).sum::<usize>(),
        "interchanges": count(&|s| s.kind == StationKind::Interchange),
        "co_located": count(&|s| s.kind == StationKind::CoLocated),
        "termini": count(&|s| !s.terminus_of.is_empty()),
        "british_rail": count(&|s| s.british_rail),
        "south_of_thames": count(&|s| s.thames == crate::map::Bank::South),
        "escalator_links": map.escalator_links().len(),
        "walking_pairs": map.walking_pairs().len(),
        "ghost_stations": map.ghosts().len(),
        "restricted_stations": map.station_restrictions().len(),
        "restricted_segments": map.segment_restrictions().len(),
        "total_current": map.stations().iter().map(|s| s.current as u64).sum::<u64>(),
    })
}

/// One station's record, as `mornbot map stats --station NAME --json` prints it.
pub fn station_record(map: &Map, id: StationId) -> Value {
    let s = map.station(id);
    let codes = |set: crate::map::LineSet| set.iter().map(|l| l.code()).collect::<Vec<_>>();
    let neighbours: BTreeMap<&str, Vec<&str>> = s
        .lines
        .iter()
        .map(|l| {
            (
                l.code(),
                map.neighbours(id, l)
                    .iter()
                    .map(|&n| map.station(n).name.as_str())
                    .collect(),
            )
        })
        .collect();
    json!({
        "name": s.name,
        "lines": codes(s.lines),
        "zones": s.zones,
        "categories": s.categories.names(),
        "interchange": s.kind == StationKind::Interchange,
        "co_located": s.kind == StationKind::CoLocated,
        "kind": s.kind,
        "terminus_of": codes(s.terminus_of),
        "call": s.call,
        "current": s.current,
        "venbacker": s.venbacker,
        "quadrants": s.quadrants,
        "british_rail": s.british_rail,
        "thames": s.thames,
        "neighbours": neighbours,
        "escalator_link": map.escalator_partner(id).map(|p| map.station(p).name.as_str()),
        "sites": s.sites,
    })
}
