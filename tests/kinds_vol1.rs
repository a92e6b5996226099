//! Volume 1 behind the kind interface (issue 41): every rule case of
//! fixtures/cases judged through `Kind`/`Position` comes to the engine's own
//! verdict, citing the same rules, and a game folded from its log lines
//! through the kind is the game the engine folds.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::engine::case::Case;
use mornbot::engine::{adjudicate, Game, Verdict};
use mornbot::gsd::{parse_play, render};
use mornbot::kinds::{Judged, Kind, Next, Position, Viewer};
use mornbot::map::Map;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

fn rules(j: &Judged) -> Vec<String> {
    match j {
        Judged::Illegal(b) | Judged::NeedsRuling(b) => b.iter().map(|b| b.rule.clone()).collect(),
        Judged::Legal { .. } | Judged::Over { .. } => Vec::new(),
    }
}

#[test]
fn every_rule_case_comes_to_the_engines_verdict_through_the_kind() {
    let map = Map::london_1999();
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases"),
        &mut all,
    );
    all.sort();
    let (mut judged, mut differ) = (0, Vec::new());
    for f in &all {
        let case = Case::from_toml(&std::fs::read_to_string(f).unwrap()).unwrap();
        let (Ok(state), Ok(play)) = (case.state(map), parse_play(&case.play.line, map)) else {
            continue; // a case of the grammar: nothing to judge
        };
        let engine = adjudicate(map, &state, &play);
        let position = Position::of_vol1(map, Game::new("MN1", state));
        // Read from a mail body, as a player writes it, then judged.
        let body = format!("Here is my turn.\n\n{}\n\n-- \nA player\n", case.play.line);
        let (order, _) = position
            .read(&body)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let kind = position.judge(&order, &play.player);
        judged += 1;
        let want_rules: Vec<String> = match engine.verdict {
            Verdict::Legal => Vec::new(),
            Verdict::Illegal => engine.violations.iter().map(|v| v.rule.clone()).collect(),
            Verdict::NeedsRuling => engine.rulings.iter().map(|v| v.rule.clone()).collect(),
        };
        let same = match (&kind, engine.verdict) {
            (Judged::Legal { position, .. } | Judged::Over { position, .. }, Verdict::Legal) => {
                let Position::MnVol1(v) = position else {
                    panic!("a Volume 1 position")
                };
                Some(&v.game.state) == engine.state.as_ref()
            }
            (Judged::Illegal(_), Verdict::Illegal)
            | (Judged::NeedsRuling(_), Verdict::NeedsRuling) => rules(&kind) == want_rules,
            _ => false,
        };
        if !same {
            differ.push(format!(
                "{}: kind {:?}, engine {:?} {want_rules:?}",
                case.id,
                rules(&kind),
                engine.verdict
            ));
        }
    }
    assert!(judged > 1500, "only {judged} cases judged");
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_volume_1_game_folds_from_its_log_lines_as_the_engine_plays_it() {
    let map = Map::london_1999();
    let def = vec![
        ("game".to_string(), "MN7".to_string()),
        ("start".to_string(), "Tuesday 1000".to_string()),
    ];
    let players = names(&["Ann", "Bob"]);
    let start = Kind::MnVol1.start(&players, &def).unwrap();
    assert_eq!(start.players(), names(&["Ann", "Bob", "Drone"]));
    assert_eq!(
        start.next(),
        Next::Act {
            players: names(&["Ann"]),
            step: "turn",
            lines_in: 0,
        }
    );
    // Ann enters at Euston, Bob's Turn times out, Ann moves on.
    let mut p = start.clone();
    let mut log = Vec::new();
    for (who, body) in [
        ("Ann", "Ann : Epping (CN) [Home: Finchley Central]"),
        ("Bob", ""),
        ("Ann", "Ann : Pass"),
    ] {
        let (order, judged) = if body.is_empty() {
            p.timeout()
        } else {
            let (o, _) = p.read(body).unwrap();
            let j = p.judge(&o, who);
            (o, j)
        };
        let Judged::Legal { position, .. } = judged else {
            panic!("{who}: {body}: {judged:?}")
        };
        log.push((who.to_string(), p.canonical(&order)));
        p = position;
    }
    assert_eq!(log[1].1, "Bob : Timeout");
    let folded = Kind::MnVol1.fold(&players, &def, &log).unwrap();
    assert_eq!(folded, p);
    // The engine's own fold of the same plays.
    let Position::MnVol1(s) = &start else {
        panic!()
    };
    let plays = log
        .iter()
        .map(|(_, l)| parse_play(l, map).unwrap())
        .collect();
    let game = Game::from_log(map, "MN7", s.game.start.clone(), plays).unwrap();
    assert_eq!(Position::of_vol1(map, game.clone()), p);
    // Rendered as the canonical GSD; encoded and decoded as the same game.
    let doc = p.render(&Viewer::Public, Some("Thu 03 Dec 12:00"));
    assert!(doc.starts_with(&render(&game.gsd(map))), "{doc}");
    assert!(doc.contains("Bob to play, by Thu 03 Dec 12:00"), "{doc}");
    assert_eq!(Kind::MnVol1.decode(p.encoding(), &p.encode()).unwrap(), p);
    assert!(Kind::MnVol1.decode("mc-xml/1", &p.encode()).is_err());
    // A Play by another than its sender, a mail of two Plays, a GSD
    // without a new Play: refused, never guessed.
    let (o, _) = p
        .read("Bob : Epping (CN) [Home: Finchley Central]")
        .unwrap();
    assert!(matches!(p.judge(&o, "Ann"), Judged::Illegal(b) if b[0].rule == "1.3.1"));
    assert!(p.read("Bob : Euston (NT)\nBob : Pass").is_err());
    assert!(p.read(&render(&game.gsd(map))).is_err());
    assert!(p.read("no play here").is_err());
    // A log line that no longer stands is named.
    let bad = vec![(
        "Bob".to_string(),
        "Bob : Epping (CN) [Home: Finchley Central]".to_string(),
    )];
    assert!(Kind::MnVol1.fold(&players, &def, &bad).is_err());
    assert!(p.picture_svg().unwrap().starts_with("<svg"));
}

#[test]
fn a_volume_1_definition_is_checked_by_its_kind() {
    let players = names(&["Ann", "Bob"]);
    let bad_time = vec![("start".to_string(), "Someday".to_string())];
    assert!(Kind::MnVol1.start(&players, &bad_time).is_err());
    let bad_key = vec![("no_such_ruling".to_string(), "true".to_string())];
    let e = Kind::MnVol1
        .start(&players, &bad_key)
        .unwrap_err()
        .to_string();
    assert!(e.contains("the keys are"), "{e}");
    let good = vec![("bare_move_any_line".to_string(), "true".to_string())];
    let Position::MnVol1(v) = Kind::MnVol1.start(&players, &good).unwrap() else {
        panic!()
    };
    assert!(v.game.state.rulings.bare_move_any_line);
}
