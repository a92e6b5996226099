//! `mornbot gsd ...`

use std::io::Read;
use std::path::Path;

use anyhow::Context;

use super::{Exit, GsdCommand};
use crate::gsd::{parse_gsd, parse_play, render, render_play};
use crate::map::Map;

/// Reads a GSD from a file, or standard input for `-`: UTF-8, else
/// Windows-1252 (said on standard error), never with replacement
/// characters.
pub(super) fn read(path: &Path) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
    } else {
        bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    }
    let decoded = crate::text::decode(&bytes);
    if let Some(note) = decoded.note {
        eprintln!("{}: {note}", path.display());
    }
    Ok(decoded.text)
}

pub(super) fn run(command: GsdCommand) -> anyhow::Result<Exit> {
    let map = Map::london_1999();
    match command {
        GsdCommand::Parse { file } => {
            let text = read(&file)?;
            match parse_gsd(&text, map) {
                Ok(g) => {
                    println!("{}", serde_json::to_string_pretty(&g)?);
                    Ok(Exit::Ok)
                }
                Err(e) => {
                    eprintln!("{}:{e}", file.display());
                    Ok(Exit::BadInput)
                }
            }
        }
        GsdCommand::Fmt { file } => {
            let text = read(&file)?;
            match parse_gsd(&text, map) {
                Ok(g) => {
                    print!("{}", render(&g));
                    Ok(Exit::Ok)
                }
                Err(e) => {
                    eprintln!("{}:{e}", file.display());
                    Ok(Exit::BadInput)
                }
            }
        }
        GsdCommand::Play { line } => match parse_play(&line, map) {
            Ok(p) => {
                println!(
                    "{}",
                    serde_json::json!({ "canonical": render_play(&p), "play": p })
                );
                Ok(Exit::Ok)
            }
            Err(e) => {
                eprintln!("{e}");
                Ok(Exit::BadInput)
            }
        },
    }
}
