//! What a turn costs as the daemon's games grow (issue 20): `cargo bench
//! --bench scale`.
//!
//! Drives the release binary (`mornbot run`, the embedded default: the
//! Maildir spool `<data_dir>/lounge/`, replies as files in
//! `<data_dir>/outbox/`, the games in `<data_dir>/game.toml`) from outside,
//! so it measures whatever the daemon does inside. For each N (100, 10,000
//! and 100,000; `MORNBOT_SCALE_N="100,1000"` overrides), in a fresh
//! temporary directory:
//!
//! 1. **Warm-up**: a games file of N games (tags `S000001`...; three
//!    players each, every player with an address of their own), and one
//!    legal first turn for every game dropped into the spool; the daemon
//!    runs until every game has its verdict, then stops (SIGTERM). Reported
//!    apart: the time per warm-up turn, from the first verdict to the last.
//! 2. **Start-up**: one more turn dropped before the daemon starts; the
//!    time from spawning it to that turn's verdict in the outbox.
//! 3. **Per turn**: one turn in each of 200 games spread over the whole
//!    range, dropped together; the time from the drop to the last verdict,
//!    divided by the turns (and, beside it, the steady rate: the span
//!    between the first and the last verdict's files, per turn).
//! 4. **Peak RSS**: the daemon's `VmHWM` (`/proc/PID/status`), read after
//!    the last verdict, before SIGTERM.
//!
//! Every verdict must be the legal one, and the daemon must start and stop
//! cleanly: anything else (a daemon that exits, no verdict within
//! `MORNBOT_SCALE_TIMEOUT_SECS`, 300, of the last one; the first after a
//! start may take 20 ms more per game) fails the bench with a message and
//! the daemon's log, never a row of zeros. Spool files are written in `tmp/` with
//! a modification time in the past, then renamed into `new/`, so the
//! spool's one-second settling wait is not measured. Between the warm-up
//! and the measured run the judged spool files (`cur/`) and the warm-up's
//! replies are deleted (the daemon's state is in its database), so the
//! start-up measures the games, not a directory listing.
//!
//! The table goes to stdout, and as JSON to `<target>/scale.json`.
//! Environment: `MORNBOT_BIN` (another binary, e.g. another worktree's, to
//! compare), `MORNBOT_SCALE_PICTURE=1` (the verdicts carry the game's
//! picture, the games file's default; off here, so the figures are the
//! daemon's and not the rasteriser's), `MORNBOT_SCALE_KEEP=1` (keep the
//! temporary directories).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // a bench drives a process: IO and clocks are its job

#[path = "scale/support.rs"]
mod support;

use std::path::PathBuf;
use std::time::Duration;

use support::{fmt_ms, run_one, Options, Row};

/// The games file's sizes measured unless `MORNBOT_SCALE_N` says otherwise.
const DEFAULT_N: [usize; 3] = [100, 10_000, 100_000];

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn options() -> Result<Options, String> {
    let ns = match std::env::var("MORNBOT_SCALE_N") {
        Ok(v) => v
            .split(',')
            .map(|s| {
                let s = s.trim().replace('_', "");
                match s.parse::<usize>() {
                    Ok(n) if n >= 2 => Ok(n),
                    _ => Err(format!(
                        "MORNBOT_SCALE_N: {s:?} is not a number of games >= 2"
                    )),
                }
            })
            .collect::<Result<Vec<_>, _>>()?,
        Err(_) => DEFAULT_N.to_vec(),
    };
    let bin = std::env::var_os("MORNBOT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_mornbot")));
    if !bin.is_file() {
        return Err(format!(
            "{}: no mornbot binary (cargo bench builds it; MORNBOT_BIN names another)",
            bin.display()
        ));
    }
    let timeout = match std::env::var("MORNBOT_SCALE_TIMEOUT_SECS") {
        Ok(v) => v
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("MORNBOT_SCALE_TIMEOUT_SECS: {v:?} is not a number"))?,
        Err(_) => 300,
    };
    Ok(Options {
        ns,
        bin,
        timeout: Duration::from_secs(timeout),
        picture: env_flag("MORNBOT_SCALE_PICTURE"),
        keep: env_flag("MORNBOT_SCALE_KEEP"),
    })
}

/// `<target>/scale.json`: cargo's target directory as cargo resolved it
/// when it built this bench (whatever CARGO_TARGET_DIR,
/// CARGO_BUILD_TARGET_DIR or build.target-dir said, relative or not): the
/// parent of its `tmp/`.
fn json_path() -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(&tmp).join("scale.json")
}

fn print_table(rows: &[Row]) {
    println!(
        "| games in the daemon | warm-up, per turn | first verdict after start | per turn (steady) | peak RSS |"
    );
    println!("|---|---|---|---|---|");
    for r in rows {
        println!(
            "| {} | {} ({} turns in {:.1} s) | {:.2} s | {} ({}) | {:.1} MB |",
            group(r.n),
            fmt_ms(r.warmup_per_turn),
            group(r.n),
            r.warmup_total.as_secs_f64(),
            r.startup.as_secs_f64(),
            fmt_ms(r.per_turn),
            fmt_ms(r.per_turn_steady),
            r.peak_rss_kb as f64 / 1024.0,
        );
    }
}

/// `100000` as `100,000`.
fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn write_json(rows: &[Row], opts: &Options) -> Result<PathBuf, String> {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "games": r.n,
                "warmup_turns": r.n,
                "warmup_total_s": r.warmup_total.as_secs_f64(),
                "warmup_per_turn_ms": ms(r.warmup_per_turn),
                "startup_to_first_verdict_s": r.startup.as_secs_f64(),
                "measured_turns": r.turns,
                "per_turn_ms": ms(r.per_turn),
                "per_turn_steady_ms": ms(r.per_turn_steady),
                "peak_rss_kb": r.peak_rss_kb,
                "rss_at_end_kb": r.rss_kb,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "bench": "scale",
        "binary": opts.bin.display().to_string(),
        "picture": opts.picture,
        "rows": rows,
    });
    let path = json_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn main() {
    let opts = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("scale: {e}");
            std::process::exit(2);
        }
    };
    eprintln!(
        "scale: {} with N = {:?} (pictures {})",
        opts.bin.display(),
        opts.ns,
        if opts.picture { "on" } else { "off" }
    );
    let mut rows = Vec::new();
    for &n in &opts.ns {
        match run_one(n, &opts) {
            Ok(r) => rows.push(r),
            Err(e) => {
                eprintln!("scale: FAILED at N = {n}: {e}");
                if !rows.is_empty() {
                    print_table(&rows);
                }
                std::process::exit(1);
            }
        }
    }
    print_table(&rows);
    match write_json(&rows, &opts) {
        Ok(p) => eprintln!("scale: wrote {}", p.display()),
        Err(e) => {
            eprintln!("scale: {e}");
            std::process::exit(1);
        }
    }
}
