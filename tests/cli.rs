//! The `mornbot` binary as users run it: help, `map stats`, exit codes.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::{Command, Output};

use serde_json::Value;

fn mornbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(args)
        .output()
        .expect("run mornbot")
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn help_lists_subcommands() {
    let out = mornbot(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in ["run", "map", "gsd"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(sub)),
            "{sub} missing from:\n{text}"
        );
    }
    let out = mornbot(&["map", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in ["stats", "fosdyke", "check"] {
        assert!(text.contains(sub), "{sub} missing from:\n{text}");
    }
}

#[test]
fn map_stats_json_counts_the_map() {
    let v = stdout_json(&mornbot(&["map", "stats", "--json"]));
    assert_eq!(v["stations"], 295);
    assert_eq!(v["lines"], 13);
    assert_eq!(v["escalator_links"], 3);
    assert_eq!(v["ghost_stations"], 9);
    let segments = v["segments"].as_u64().unwrap();
    assert!((390..420).contains(&segments), "{segments}");
}

#[test]
fn map_stats_station_record() {
    let v = stdout_json(&mornbot(&[
        "map",
        "stats",
        "--json",
        "--station",
        "camden town",
    ]));
    assert_eq!(v["name"], "Camden Town");
    assert_eq!(v["lines"], serde_json::json!(["NT"]));
    assert_eq!(v["call"], 4);
    assert_eq!(v["current"], 22);
    assert_eq!(v["zones"], serde_json::json!([2]));
    assert_eq!(v["interchange"], false);
    assert_eq!(v["british_rail"], false);
    assert_eq!(v["terminus_of"], serde_json::json!([]));
    assert_eq!(v["categories"], serde_json::json!(["Populated"]));
    let mut n: Vec<&str> = v["neighbours"]["NT"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    n.sort();
    assert_eq!(
        n,
        [
            "Chalk Farm",
            "Euston",
            "Kentish Town",
            "Mornington Crescent"
        ]
    );
    for key in ["quadrants", "categories", "neighbours", "terminus_of"] {
        assert!(v.get(key).is_some(), "{key}");
    }

    let bs = stdout_json(&mornbot(&[
        "map",
        "stats",
        "--json",
        "--station",
        "Baker Street",
    ]));
    assert_eq!(bs["call"], 10);
    assert_eq!(bs["interchange"], true);
    assert_eq!(
        bs["lines"],
        serde_json::json!(["BL", "CL", "HC", "JL", "MP"])
    );

    let brixton = stdout_json(&mornbot(&[
        "map",
        "stats",
        "--json",
        "--station",
        "Brixton",
    ]));
    assert_eq!(brixton["terminus_of"], serde_json::json!(["VC"]));
    assert_eq!(brixton["call"], 1);
    assert_eq!(brixton["british_rail"], true);
}

#[test]
fn unknown_station_exits_2_with_suggestions() {
    let out = mornbot(&["map", "stats", "--json", "--station", "Mornington Cresent"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown station \"Mornington Cresent\""),
        "{err}"
    );
    assert!(err.contains("Mornington Crescent"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn fosdyke_between_two_stations() {
    let out = mornbot(&["map", "fosdyke", "Amersham", "Island Gardens"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Q2,Z5"), "{text}");
    let v = stdout_json(&mornbot(&[
        "map", "fosdyke", "Aldgate", "Shadwell", "--json",
    ]));
    assert_eq!(v["fosdyke"]["r"], 3);
    assert_eq!(v["fosdyke"]["l"], 1);
}

/// The embedded default: `run` in an empty directory writes the sample
/// game, judges a mail dropped into the spool, writes the reply to the
/// outbox, and exits 0 on SIGTERM; a restart judges nothing twice.
#[test]
fn run_on_the_embedded_default_judges_spool_mail_and_stops_on_sigterm() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("mornbot-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .arg("run")
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let data = dir.join("mornbot-data");
    let wait = |what: &str, f: &dyn Fn() -> bool| {
        let t = Instant::now();
        while !f() {
            assert!(t.elapsed() < Duration::from_secs(30), "timed out: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let stop = |child: std::process::Child| {
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let child = start();
    wait("the spool", &|| data.join("lounge/new").is_dir());
    std::fs::write(
        data.join("lounge/new/t1.eml"),
        "From: rushton@example.org\nTo: lounge@localhost\nSubject: [MN1] turn\n\
         Message-ID: <t1@example.org>\n\nRushton : Epping (CN) [Home: Hainault]\n",
    )
    .unwrap();
    let outbox = data.join("outbox");
    let replies = || -> Vec<String> {
        std::fs::read_dir(&outbox)
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                    .map(|e| std::fs::read_to_string(e.path()).unwrap())
                    .collect()
            })
            .unwrap_or_default()
    };
    // The verdict, and the dice commitment posted at the first start
    // (RULINGS S14).
    wait("the reply", &|| replies().len() == 2);
    let err = stop(child);
    assert!(err.contains("first start: wrote a sample game"), "{err}");
    assert!(data.join("game.toml").exists());
    let mut heads: Vec<String> = replies()
        .iter()
        .map(|r| {
            let head = mornbot::cli::demo::headline_of(r);
            let subject = format!("Subject: [MN1] {head}");
            assert!(r.lines().any(|l| l.trim_end() == subject), "{r}");
            head
        })
        .collect();
    heads.sort();
    assert_eq!(heads, ["Dice: the commitment", "Turn 1: Rushton (legal)"]);
    // The message was marked seen; a restart (same spool) judges nothing
    // again and writes no second reply.
    let child = start();
    std::fs::write(
        data.join("lounge/new/t1-again.eml"),
        "From: rushton@example.org\nSubject: [MN1] turn\n\
         Message-ID: <t1@example.org>\n\nRushton : Epping (CN) [Home: Hainault]\n",
    )
    .unwrap();
    wait("the duplicate to be seen", &|| {
        !data.join("lounge/new/t1-again.eml").exists()
    });
    let err = stop(child);
    assert!(!err.contains("first start"), "{err}");
    assert_eq!(replies().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_plays_its_scripted_game() {
    let dir = std::env::temp_dir().join(format!("mornbot-demo-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = mornbot(&["demo", "--dir", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("33 turns accepted, 0 unexpected verdicts"),
        "{text}"
    );
    // A second demo into the same directory is refused, not mixed in.
    let again = mornbot(&["demo", "--dir", dir.to_str().unwrap()]);
    assert_ne!(again.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deadline_prints_rfc3339_utc_and_refuses_bad_timestamps() {
    let out = mornbot(&["deadline", "--kind", "turn", "2026-11-20T10:00:00Z"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "2026-11-23T22:00:00Z"
    );
    let out = mornbot(&["deadline", "--kind", "buzz", "2026-11-20T10:00:00+01:00"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "2026-11-21T21:00:00Z"
    );
    let out = mornbot(&["deadline", "--kind", "judgment", "2026-11-20T10:00:00Z"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "2026-11-23T10:00:00Z"
    );
    let out = mornbot(&["deadline", "--kind", "turn", "Friday 10am"]);
    assert_eq!(out.status.code(), Some(2));
    let out = mornbot(&["deadline", "--kind", "nap", "2026-11-20T10:00:00Z"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_map_file_names_file_line_and_station() {
    let dir = std::env::temp_dir().join(format!("mornbot-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad-map.toml");
    let text = mornbot::map::LONDON_1999.replacen("\"Oval\"", "\"Ovall\"", 1);
    let line = text[..text.find("\"Ovall\"").unwrap()]
        .matches('\n')
        .count()
        + 1;
    std::fs::write(&path, &text).unwrap();
    let p = path.to_str().unwrap();
    let out = mornbot(&["map", "--map", p, "check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{p}:{line}: station \"Ovall\"")),
        "{err}"
    );

    // The same map named by a config file is refused by `run` too.
    let cfg = dir.join("config.toml");
    std::fs::write(&cfg, "[map]\nfile = \"bad-map.toml\"\n").unwrap();
    let out = mornbot(&["run", "--config", cfg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Ovall"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_config_is_refused() {
    let dir = std::env::temp_dir().join(format!("mornbot-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("config.toml");
    std::fs::write(&cfg, "[mapp]\n").unwrap();
    let out = mornbot(&["run", "--config", cfg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mapp"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_config_refuses_a_cache_of_no_games() {
    let dir = std::env::temp_dir().join(format!("mornbot-cache0-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("config.toml");
    std::fs::write(&cfg, "[bot]\ncached_games = 0\n").unwrap();
    let out = mornbot(&["check-config", cfg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("[bot] cached_games must be at least 1"),
        "{err}"
    );
    std::fs::write(&cfg, "[bot]\ncached_games = 1\n").unwrap();
    let out = mornbot(&["check-config", cfg.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gsd_parse_fmt_and_play() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/gsd/valid/00-rule-1.2.0-example.txt"
    );
    let v = stdout_json(&mornbot(&["gsd", "parse", fixture]));
    assert_eq!(v["players"].as_array().unwrap().len(), 4);
    assert_eq!(v["plays"].as_array().unwrap().len(), 4);
    let out = mornbot(&["gsd", "fmt", fixture]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("+---"), "{text}");
    assert!(text.contains("Rushton : [LV+3] Mornington Crescent (NT via: VC)"));
    let v = stdout_json(&mornbot(&[
        "gsd",
        "play",
        "rushton : [lv + 1] euston (vc via: cn,nt)",
    ]));
    assert_eq!(v["canonical"], "rushton : [LV+1] Euston (VC via: CN,NT)");
}

#[test]
fn gsd_bad_input_exits_2_with_line_and_column() {
    let bad = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/gsd/invalid/01-unknown-station-near-miss.txt"
    );
    let expect = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/gsd/invalid/01-unknown-station-near-miss.expect"
    ))
    .unwrap();
    let pos = expect.split_whitespace().next().unwrap().to_string();
    for sub in ["parse", "fmt"] {
        let out = mornbot(&["gsd", sub, bad]);
        assert_eq!(out.status.code(), Some(2), "{sub}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("{bad}:{pos}: expected")), "{err}");
        assert!(out.stdout.is_empty());
    }
    let out = mornbot(&["gsd", "play", "Rushton : Eustn (VC)"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("1:11: expected"));
}

fn root(p: &str) -> String {
    format!("{}/{p}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn case_runner_reports_pass_fail_and_exit_code() {
    let out = mornbot(&["case", &root("fixtures/cases/move/lv-exact-001.toml")]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("PASS lv-exact-001"), "{text}");
    assert_eq!(text.lines().last(), Some("1 passed, 0 failed"));
    // A case whose expectation is wrong fails, with the reason.
    let dir = std::env::temp_dir().join(format!("mornbot-case-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = std::fs::read_to_string(root("fixtures/cases/move/lv-exact-002.toml"))
        .unwrap()
        .replace("verdict = \"illegal\"", "verdict = \"legal\"");
    std::fs::write(dir.join("x.toml"), bad).unwrap();
    let out = mornbot(&["case", dir.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["pass"], false);
    assert!(
        first["why"][0].as_str().unwrap().contains("1.6.2"),
        "{first}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_replays_and_compares_the_tables() {
    let out = mornbot(&["check", &root("fixtures/check/legal-opening.txt")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = mornbot(&["check", &root("fixtures/check/wrong-tokens.txt")]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Rule 1.16.5: Alice Tokens"), "{text}");
}

#[test]
fn adjudicate_a_play_against_a_gsd() {
    let gsd = root("fixtures/check/legal-opening.txt");
    let out = mornbot(&[
        "adjudicate",
        "--gsd",
        &gsd,
        "--play",
        "Bob : [LV+1] South Wimbledon (NT)",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "legal", "{v}");
    assert!(v["gsd"]
        .as_str()
        .unwrap()
        .contains("Bob : [LV+1] South Wimbledon (NT)"));
    assert!(out.status.success());
    let out = mornbot(&[
        "adjudicate",
        "--gsd",
        &gsd,
        "--play",
        "Bob : [LV+2] South Wimbledon (NT)",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("ILLEGAL") && text.contains("Rule 1.6.2") && text.contains("needs LV 1"),
        "{text}"
    );
    let out = mornbot(&["adjudicate", "--gsd", &gsd, "--play", "Bob : Eustn (VC)"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_coverage_lists_every_rule() {
    let out = mornbot(&[
        "rules",
        "--coverage",
        "--cases",
        &root("fixtures/cases"),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = v.as_array().unwrap();
    assert!(rules.len() > 170);
    let r162 = rules.iter().find(|r| r["rule"] == "1.6.2").unwrap();
    assert_eq!(r162["status"], "adjudicated");
    assert!(r162["cases"].as_u64().unwrap() >= 1);
    // Shunts of Players and Stacks, Double and Triple Shunts are
    // adjudicated, as are Visits and Late Arrivals.
    let r1101 = rules.iter().find(|r| r["rule"] == "1.10.1").unwrap();
    assert_eq!(r1101["status"], "adjudicated");
    let r1102 = rules.iter().find(|r| r["rule"] == "1.10.2").unwrap();
    assert_eq!(r1102["status"], "adjudicated");
    assert!(r1102["cases"].as_u64().unwrap() >= 14);
    let r179 = rules.iter().find(|r| r["rule"] == "1.7.9").unwrap();
    assert_eq!(r179["status"], "adjudicated");
    let r1103 = rules.iter().find(|r| r["rule"] == "1.16.1").unwrap();
    assert_eq!(r1103["status"], "speaker");
    // The buzz workflow and the deadlines are the Speaker's.
    for n in ["1.16.2", "1.16.4", "1.3.5", "1.1.10"] {
        let r = rules.iter().find(|r| r["rule"] == n).unwrap();
        assert_eq!(r["status"], "speaker", "{n}");
    }
}

/// `mornbot rules --coverage | head -1`: the reader has left before the
/// CLI writes; it ends quietly (no panic message, exit 0).
#[test]
fn a_broken_pipe_ends_the_cli_quietly() {
    for args in [
        &["rules", "--coverage"][..],
        &["map", "stats", "--json"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The reader leaves at once: every write meets a closed pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn adjudicate_prints_the_gsd_of_the_state_after_the_play_courier_included() {
    // Delivering the Parcel undefines the Courier's stations (Rule 1.11.2):
    // the printed GSD is the engine's state, not the input's boxes.
    let gsd = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/gsd/cli/courier-parcel-carried.txt"
    );
    let play = "Alice : Colliers Wood (NT) [Delivering Parcel]";
    let out = stdout_json(&mornbot(&[
        "adjudicate",
        "--gsd",
        gsd,
        "--play",
        play,
        "--json",
    ]));
    assert_eq!(out["verdict"], "legal", "{out}");
    let after = out["gsd"].as_str().unwrap();
    assert!(!after.contains("Courier"), "{after}");
    assert!(after.ends_with(&format!("{play}\n")), "{after}");
    // And before it, the input's Courier box is read.
    let before = std::fs::read_to_string(gsd).unwrap();
    assert!(before.contains("Pick-up: Upminster, Destination: Colliers Wood"));
}
