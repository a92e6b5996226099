//! An archive record's final GSD, and `mornbot check` replaying it (the
//! Game Archive, Rule 1.1.5): shared by the by-mail tests that end games.

/// The final GSD out of an archive record.
pub fn final_gsd(record: &str) -> String {
    let (_, rest) = record
        .split_once("replays with `mornbot check`):\n")
        .unwrap_or_else(|| panic!("no GSD in {record}"));
    let (gsd, _) = rest.split_once("The log, ").expect("the log after the GSD");
    gsd.trim_matches('\n').to_string()
}

/// Asserts `mornbot check` replays `gsd` clean.
pub fn check_clean(gsd: &str, label: &str) {
    let dir = std::env::temp_dir().join(format!("mornbot-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("final.gsd");
    std::fs::write(&file, gsd).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .arg("check")
        .arg(&file)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "mornbot check: {said}\n{gsd}");
    assert!(said.contains("replay as legal"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}
