//! The systemd units in `deploy/`: the template `mornbot@.service` (one
//! daemon per lounge, issue 20) keeps every instance's config, state,
//! passwords and user apart through `%i`, and carries every option of the
//! single-lounge `mornbot.service` (its hardening above all) unchanged.
#![allow(clippy::disallowed_methods)] // a test: reading the unit files is its job

use std::collections::BTreeMap;

/// A unit file as `(section, key) -> values`, in order (a key may repeat,
/// e.g. `LoadCredential=` or `SystemCallFilter=`).
type Unit = BTreeMap<(String, String), Vec<String>>;

fn parse(text: &str) -> Unit {
    let mut unit = Unit::new();
    let mut section = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.to_string();
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("line {}: not key=value: {line}", n + 1));
        assert!(
            !section.is_empty(),
            "line {}: key before any section",
            n + 1
        );
        unit.entry((section.clone(), k.trim().to_string()))
            .or_default()
            .push(v.trim().to_string());
    }
    unit
}

fn load(name: &str) -> Unit {
    let path = format!("{}/deploy/{name}", env!("CARGO_MANIFEST_DIR"));
    parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

fn one<'a>(unit: &'a Unit, section: &str, key: &str) -> &'a str {
    match unit.get(&(section.to_string(), key.to_string())) {
        Some(v) if v.len() == 1 => &v[0],
        other => panic!("[{section}] {key}: expected one value, found {other:?}"),
    }
}

/// The keys whose values name the instance's own files: they differ
/// between the two units, every other option is the same.
const PER_INSTANCE: [&str; 6] = [
    "Description",
    "ExecStart",
    "StateDirectory",
    "WorkingDirectory",
    "LoadCredential",
    "User",
];

#[test]
fn the_template_keeps_each_instance_apart() {
    let t = load("mornbot@.service");
    assert_eq!(
        one(&t, "Service", "ExecStart"),
        "/usr/local/bin/mornbot run --config /etc/mornbot/%i.toml"
    );
    assert_eq!(one(&t, "Service", "StateDirectory"), "mornbot/%i");
    assert_eq!(
        one(&t, "Service", "WorkingDirectory"),
        "/var/lib/mornbot/%i"
    );
    assert_eq!(one(&t, "Service", "DynamicUser"), "yes");
    // Without User=, every instance of a template shares one dynamic user
    // (named after the template), so one lounge could read another's data.
    assert_eq!(one(&t, "Service", "User"), "mornbot-%i");
    let creds = &t[&("Service".to_string(), "LoadCredential".to_string())];
    assert_eq!(
        creds,
        &[
            "imap.pass:/etc/mornbot/%i.imap.pass",
            "smtp.pass:/etc/mornbot/%i.smtp.pass"
        ]
    );
    assert!(one(&t, "Unit", "Description").contains("%i"));
    // Nothing shared by accident: every path in the service names the
    // instance.
    for ((section, key), values) in &t {
        for v in values {
            if v.contains("/etc/mornbot") || v.contains("/var/lib/mornbot") {
                assert!(
                    v.contains("%i"),
                    "[{section}] {key}={v} is shared by all instances"
                );
            }
        }
    }
}

#[test]
fn the_template_is_hardened_like_the_single_unit() {
    let single = load("mornbot.service");
    let t = load("mornbot@.service");
    for ((section, key), values) in &single {
        if PER_INSTANCE.contains(&key.as_str()) {
            continue;
        }
        let got = t.get(&(section.clone(), key.clone()));
        assert_eq!(
            got,
            Some(values),
            "[{section}] {key}: the template differs from mornbot.service"
        );
    }
    for (section, key) in t.keys() {
        assert!(
            PER_INSTANCE.contains(&key.as_str())
                || single.contains_key(&(section.clone(), key.clone())),
            "[{section}] {key}: only in the template; add it to mornbot.service too, or list it as per-instance"
        );
    }
}

#[test]
fn the_deploy_guide_says_how_to_run_many_lounges() {
    let text = std::fs::read_to_string(format!("{}/deploy/README.md", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    assert!(text.contains("## Running many lounges"), "{text}");
    assert!(text.contains("systemctl enable --now mornbot@"), "{text}");
    assert!(text.contains("deploy/mornbot@.service"), "{text}");
}
