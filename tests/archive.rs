//! `mornbot archive build`: the site written from a store holding real
//! games (every turn judged Legal by the engine): the files, the links
//! between them, escaping, verdicts from the events, incremental and
//! deterministic builds, and turns taken back.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

#[path = "archive_support/games.rs"]
mod games;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use mornbot::daemon::referee::{Event, Judged, Refused};
use mornbot::engine::Violation;
use mornbot::map::Map;
use mornbot::store::{Commit, Store};

/// A name no page may show as markup.
const HOSTILE: &str = "<b>Eve</b><script>x=1</script>";

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mornbot-archive-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// MN1: three players (one with a hostile name), 12 turns, an attempt at
/// turn 3 the bot buzzed, turn 2 Legal by Judgment. MN2: two players, 4
/// turns, then Warren Resigned and the game ended.
fn store(dir: &Path) -> PathBuf {
    let map = Map::london_1999();
    let db = dir.join("mornbot.db");
    let mut s = Store::open(&db).unwrap();
    games::write_game(&mut s, map, "MN1", &["Rushton", "Warren", HOSTILE], 12);
    games::write_game(&mut s, map, "MN2", &["Acton", "Warren"], 4);
    let mut c = Commit::default();
    Event::BotBuzz(Refused {
        turn: 3,
        player: HOSTILE.into(),
        play: format!("{HOSTILE} : Bank (CN)"),
        message_id: "buzzed@example.test".into(),
        violations: vec![Violation {
            rule: "1.6.2".into(),
            message: "Bank is not on a line from <here>".into(),
        }],
        rulings: vec![],
    })
    .record("MN1", &mut c);
    Event::Judged(Judged {
        turn: 2,
        legal: true,
    })
    .record("MN1", &mut c);
    Event::Resigned(4, "Warren".into()).record("MN2", &mut c);
    Event::Ended(4).record("MN2", &mut c);
    s.commit(&c).unwrap();
    db
}

fn build(db: &Path, site: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(["archive", "build", "--db"])
        .arg(db)
        .arg(site)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    text
}

/// Every file of a site, by path relative to its root.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// The values of every `href="..."` and `src="..."` in a page.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap();
            out.push(rest[..end].to_string());
        }
    }
    out
}

fn page(site: &BTreeMap<String, Vec<u8>>, name: &str) -> String {
    String::from_utf8(
        site.get(name)
            .unwrap_or_else(|| panic!("{name} missing"))
            .clone(),
    )
    .unwrap()
}

/// The Play lines of a page's GSD section.
fn plays_in(html: &str) -> usize {
    let gsd = &html[html.find("<pre class=\"gsd\">").unwrap()..];
    let gsd = &gsd[..gsd.find("</pre>").unwrap()];
    gsd.lines().filter(|l| l.contains(" : ")).count()
}

#[test]
fn the_site_has_every_game_and_turn_and_every_link_resolves() {
    let d = fresh("links");
    let db = store(&d);
    let out = build(&db, &d.join("site"));
    assert!(out.contains("2 game(s), 16 turn page(s)"), "{out}");
    let site = files(&d.join("site"));
    for n in 1..=12 {
        assert!(
            site.contains_key(&format!("MN1/turn-{n:03}.html")),
            "turn {n}"
        );
        // The turn's overlay is inline in its page: one file a turn.
        assert!(
            !site.contains_key(&format!("MN1/turn-{n:03}.svg")),
            "turn {n}"
        );
        assert!(
            page(&site, &format!("MN1/turn-{n:03}.html")).contains("<svg class=\"overlay\""),
            "turn {n}"
        );
    }
    assert!(!site.contains_key("MN1/turn-013.html"));
    let mut checked = 0;
    for (name, bytes) in &site {
        if !name.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes.clone()).unwrap();
        assert!(html.contains("<meta name=\"viewport\""), "{name}");
        assert!(
            !html.contains("<script"),
            "{name}: no script, and no unescaped name"
        );
        let dir = Path::new(name).parent().unwrap();
        for link in links(&html) {
            assert!(!link.contains("://"), "{name}: {link} leaves the site");
            let target = dir.join(&link);
            let mut parts: Vec<&str> = Vec::new();
            for c in target.iter().map(|c| c.to_str().unwrap()) {
                match c {
                    ".." => assert!(parts.pop().is_some(), "{name}: {link} leaves the site"),
                    "." => {}
                    c => parts.push(c),
                }
            }
            let rel = parts.join("/");
            assert!(site.contains_key(&rel), "{name}: {link} -> {rel} missing");
            checked += 1;
        }
    }
    assert!(checked > 16 * 6, "{checked} links checked");
    // The turn pages link back and forth.
    let t5 = page(&site, "MN1/turn-005.html");
    assert!(t5.contains("href=\"turn-004.html\"") && t5.contains("href=\"turn-006.html\""));
    let last = page(&site, "MN1/turn-012.html");
    assert!(last.contains("href=\"turn-011.html\"") && !last.contains("turn-013"));
}

#[test]
fn the_index_pages_and_turn_pages_say_what_the_store_holds() {
    let d = fresh("content");
    let db = store(&d);
    build(&db, &d.join("site"));
    let site = files(&d.join("site"));
    let index = page(&site, "index.html");
    let row = |tag: &str| {
        let at = index.find(&format!(">{tag}</a>")).unwrap();
        index[at..at + index[at..].find("</tr>").unwrap()].to_string()
    };
    let mn1 = row("MN1");
    assert!(
        mn1.contains(">running<") && mn1.contains("<td>12</td>"),
        "{mn1}"
    );
    assert!(mn1.contains("&lt;b&gt;Eve&lt;/b&gt;&lt;script&gt;x=1&lt;/script&gt;"));
    let mn2 = row("MN2");
    // Warren Resigned, and Acton, the last player left, won.
    assert!(
        mn2.contains(">ended<") && mn2.contains("<td>Acton</td>"),
        "{mn2}"
    );
    assert!(page(&site, "MN2/index.html").contains("Warren Resigned after turn 4"));

    // Each turn page: its play as logged, its verdict, the GSD after it.
    let store = Store::open(&db).unwrap();
    let turns = store.turns("MN1").unwrap();
    for t in &turns {
        let html = page(&site, &format!("MN1/turn-{:03}.html", t.n));
        let play = esc(&t.play);
        assert!(
            html.contains(&format!("<pre class=\"play\">{play}</pre>")),
            "turn {}",
            t.n
        );
        assert!(html.contains("id=\"verdict\"") && html.contains("id=\"gsd\""));
        // The tables after turn n, without the Plays: a turn page is sized
        // by the game, not by its square (issue 40); it links the whole GSD.
        assert_eq!(plays_in(&html), 0, "turn {}", t.n);
        assert!(
            html.contains("<pre class=\"gsd\">Game MN1\n+--"),
            "turn {}",
            t.n
        );
        assert!(html.contains("<a href=\"gsd.html\">"), "turn {}", t.n);
    }
    // The game's one page of the whole GSD holds every play, in order.
    let whole = page(&site, "MN1/gsd.html");
    assert_eq!(plays_in(&whole), turns.len());
    let last = esc(&turns.last().unwrap().play);
    let pre = &whole[whole.find("<pre class=\"gsd\">").unwrap()..];
    assert!(pre[..pre.find("</pre>").unwrap()]
        .trim_end()
        .ends_with(&last));
    let t2 = page(&site, "MN1/turn-002.html");
    assert!(t2.contains("Legal by Judgment"), "the Judged event");
    let t3 = page(&site, "MN1/turn-003.html");
    assert!(t3.contains("was buzzed as Illegal") && t3.contains("Rule 1.6.2"));
    assert!(
        t3.contains("from &lt;here&gt;"),
        "the violation's words are escaped"
    );
    // Turn 1's verdict is the engine's judgment of its play at the start.
    let map = Map::london_1999();
    let def = games::definition("MN1", &["Rushton", "Warren", HOSTILE]);
    let start = mornbot::daemon::referee::start_state(&def, map).unwrap();
    let play = mornbot::gsd::parse_play(&turns[0].play, map).unwrap();
    let out = mornbot::engine::adjudicate(map, &start, &play);
    assert!(!out.changes.is_empty());
    let t1 = page(&site, "MN1/turn-001.html");
    assert!(t1.contains("Legal</span>"));
    for c in &out.changes {
        assert!(t1.contains(&format!("<li>{}</li>", esc(c))), "{c}");
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn builds_are_deterministic_incremental_and_follow_take_backs() {
    let d = fresh("incremental");
    let db = store(&d);
    build(&db, &d.join("a"));
    build(&db, &d.join("b"));
    let (a, b) = (files(&d.join("a")), files(&d.join("b")));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert!(a == b, "the same database gives the same bytes");
    let again = build(&db, &d.join("a"));
    assert!(again.contains("0 file(s) written"), "{again}");

    // Two turns taken back: their files go, the new last turn has no next.
    let mut s = Store::open(&db).unwrap();
    s.commit(&Commit {
        truncate: vec![("MN1".into(), 10)],
        ..Commit::default()
    })
    .unwrap();
    drop(s);
    // An overlay file a site built before overlays went inline still has.
    std::fs::write(d.join("a/MN1/turn-003.svg"), "<svg/>").unwrap();
    let out = build(&db, &d.join("a"));
    assert!(out.contains("3 removed"), "{out}");
    let a = files(&d.join("a"));
    assert!(!a.contains_key("MN1/turn-011.html") && !a.contains_key("MN1/turn-012.html"));
    assert!(!a.contains_key("MN1/turn-003.svg"));
    assert!(!page(&a, "MN1/turn-010.html").contains("turn-011"));
}
