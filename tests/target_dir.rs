//! `./scripts/test` and the tests work whatever the user's cargo
//! environment says about the target directory (issue 39, item 12):
//! nothing assumes `./target`, and the script asks cargo where it is.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // a test: reading files and running the script is its job

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` (recursively), or `dir` itself.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    match std::fs::read_dir(dir) {
        Ok(rd) => {
            for e in rd.flatten() {
                files(&e.path(), out);
            }
        }
        Err(_) => out.push(dir.to_path_buf()),
    }
}

#[test]
fn no_script_test_bench_or_guide_assumes_a_target_directory() {
    let mut all = Vec::new();
    for d in [
        "scripts",
        "tests",
        "benches",
        "deploy",
        ".ci",
        "README.md",
        "CONTRIBUTING.md",
    ] {
        files(&root().join(d), &mut all);
    }
    assert!(all.len() > 20, "{all:?}");
    let mut found = Vec::new();
    for f in &all {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue; // not text (pictures, mail fixtures in other charsets)
        };
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            // Comments may say where cargo puts things; code may not.
            let markdown = f.extension().is_some_and(|e| e == "md");
            if code.starts_with("//") || code.starts_with('#') && !markdown {
                continue;
            }
            let hard = line.match_indices("target/").any(|(i, _)| {
                let before = line[..i].chars().last();
                before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'))
            });
            if hard && !f.ends_with("target_dir.rs") {
                found.push(format!("{}:{}: {line}", f.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a path under ./target, which CARGO_TARGET_DIR or CARGO_BUILD_TARGET_DIR may move \
         (ask `cargo metadata`, or use CARGO_TARGET_TMPDIR): {found:#?}"
    );
}

/// What `scripts/test`'s own `target_dir` says, in `env`.
fn target_dir(env: &[(&str, &str)]) -> String {
    let script = std::fs::read_to_string(root().join("scripts/test")).unwrap();
    let start = script
        .find("target_dir() {")
        .expect("scripts/test asks cargo for its target directory");
    let end = start + script[start..].find("\n}\n").expect("the function's end") + 3;
    let mut c = Command::new("bash");
    c.arg("-c")
        .arg(format!(
            "set -euo pipefail\n{}\ntarget_dir",
            &script[start..end]
        ))
        .current_dir(root())
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn scripts_test_finds_the_target_directory_cargo_uses() {
    let root = root();
    assert_eq!(target_dir(&[]), root.join("target").display().to_string());
    assert_eq!(
        target_dir(&[("CARGO_TARGET_DIR", "elsewhere")]),
        root.join("elsewhere").display().to_string()
    );
    assert_eq!(
        target_dir(&[("CARGO_TARGET_DIR", "/tmp/mornbot-target-a")]),
        "/tmp/mornbot-target-a"
    );
    assert_eq!(
        target_dir(&[("CARGO_BUILD_TARGET_DIR", "/tmp/mornbot-target-b")]),
        "/tmp/mornbot-target-b"
    );
}
