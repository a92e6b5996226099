//! What a flood of hostile mail draws (issue 40): a mail of 100 lobby
//! commands from a stranger, 500 forged JOINs then CANCEL GAME, twelve
//! maximal legal plays (database, archive, peak memory after), 200
//! HISTORY requests under one player's From (replies sent and bytes).
//!
//! Each flood runs in a child process of its own (this binary, re-run
//! with `--flood NAME`), so that its peak memory (VmHWM) is its own: the
//! child builds the daemon's referee on a SQLite file with its lobby open,
//! sends the mails through `daemon::judge` (the daemon's own path), and
//! prints what was queued. `cargo bench --bench floods` prints the table
//! the README quotes.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use chrono::{TimeZone, Utc};
use mornbot::config::{Config, GameConfig, LobbyConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::judge;
use mornbot::daemon::letter::Context;
use mornbot::daemon::referee::Referee;
use mornbot::mail::inbox::{Incoming, Key, Raw};
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

const FLOODS: [&str; 5] = [
    "a mail of 100 lobby commands from a stranger",
    "a mail of 10 JOINs (the most a mail holds) from a stranger",
    "500 forged JOINs, then CANCEL GAME",
    "twelve maximal legal plays",
    "200 HISTORY requests under a player's From",
];

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Bytes in the files under `dir`.
fn size_of(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    let p = e.path();
                    if p.is_dir() {
                        size_of(&p)
                    } else {
                        e.metadata().map(|m| m.len()).unwrap_or(0)
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

/// A referee with game MN1 (Rushton, Warren, Acton) and an open lobby.
struct Bench {
    referee: Referee,
    store: Store,
    ctx: Context,
    uid: u32,
    dir: std::path::PathBuf,
}

impl Bench {
    fn new() -> Bench {
        let dir = std::env::temp_dir().join(format!("mornbot-floods-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut store = Store::open(&dir.join("m.db")).unwrap();
        let game = GameConfig {
            tag: "MN1".into(),
            start: "Monday 0900".into(),
            players: ["Rushton", "Warren", "Acton"]
                .iter()
                .map(|n| PlayerConfig {
                    name: n.to_string(),
                    address: format!("{}@example.org", n.to_lowercase()),
                })
                .collect(),
            referee: None,
            rulings: Default::default(),
            picture: false,
            kind: Default::default(),
            deadline: None,
            kind_rulings: Default::default(),
        };
        let speaker = SpeakerConfig {
            addresses: vec!["speaker@example.org".into()],
            ..SpeakerConfig::default()
        };
        let t0 = Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap();
        let map = Map::london_1999();
        let mut referee = Referee::load(map, me(), speaker, &[game], &mut store, t0).unwrap();
        referee
            .open_lobby(&mut store, LobbyConfig::default(), &mut || Ok([42u8; 32]))
            .unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = me().address;
        cfg.bot.lounge = me().lounge;
        let ctx = Context::new(map, &me(), &cfg);
        Bench {
            referee,
            store,
            ctx,
            uid: 0,
            dir,
        }
    }

    /// Sends `body` from `from` to the bot (`lounge`: to the lounge).
    fn send(&mut self, from: &str, subject: &str, body: &str) -> String {
        self.uid += 1;
        let raw = format!(
            "From: {from}\r\nTo: mornbot@example.test\r\nSubject: {subject}\r\n\
             Message-ID: <f{}@example.org>\r\n\r\n{}\r\n",
            self.uid,
            body.replace('\n', "\r\n")
        );
        let m = Incoming {
            raw: Raw::Full(raw.into_bytes()),
            origin: Origin {
                source: "bench".into(),
                uidvalidity: Some(1),
                uid: Some(self.uid),
            },
            received: Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap()
                + chrono::Duration::minutes(i64::from(self.uid)),
            key: Key::Seq(u64::from(self.uid)),
            behind: 0,
        };
        let h = judge(&mut self.referee, &mut self.store, &self.ctx, &m, false).unwrap();
        h.summary
    }

    /// Mails queued since `from` (outbox index): to strangers, in all,
    /// and their bytes.
    fn queued(&self, from: usize) -> (usize, usize, usize) {
        let known = [
            "lounge@example.test",
            "speaker@example.org",
            "rushton@example.org",
            "warren@example.org",
            "acton@example.org",
        ];
        let all = self.store.all_mail().unwrap();
        let new = &all[from..];
        let strangers = new
            .iter()
            .flat_map(|m| m.recipients.iter())
            .filter(|r| !known.contains(&r.as_str()))
            .count();
        let bytes = new.iter().map(|m| m.raw.len()).sum();
        (strangers, new.len(), bytes)
    }

    fn outbox(&self) -> usize {
        self.store.all_mail().unwrap().len()
    }
}

/// The largest legal play starting `play` under the default `[limits]`:
/// comments to `play_chars` characters in all, on lines of their own (a
/// line of mail carries at most 998 characters, RFC 5322), each at most
/// `comment_chars` long.
fn maximal(play: &str) -> String {
    let limits = mornbot::config::LimitsConfig::default();
    let longest = limits.comment_chars.min(998 - 2);
    let mut p = play.to_string();
    // (Each line break counts as one character, as a space would.)
    while p.len() + 4 <= limits.play_chars {
        let room = limits.play_chars - p.len() - 3;
        let mut text = "a comment ".repeat(100)[..room.min(longest)].to_string();
        if text.ends_with(' ') {
            text.pop();
            text.push('.');
        }
        p.push_str(&format!("\n{{{text}}}"));
    }
    assert_eq!(p.len(), limits.play_chars, "ASCII: bytes are characters");
    p
}

/// The child: one flood; prints time, mails, bytes, sizes and peak.
fn child(name: &str) {
    let mut b = Bench::new();
    let extra;
    let (took, q) = match FLOODS.iter().position(|f| *f == name).unwrap() {
        0 => {
            let tags: Vec<String> = (0..10).map(|i| format!("NEW GAME MN{}", 20 + i)).collect();
            b.send("speaker@example.org", "games", &tags.join("\n"));
            let before = b.outbox();
            let body: Vec<String> = (0..100)
                .map(|i| format!("JOIN MN{} as Mallory{i}", 20 + i % 10))
                .collect();
            let t = Instant::now();
            extra = b.send("mallory@example.net", "join", &body.join("\n"));
            (t.elapsed(), b.queued(before))
        }
        1 => {
            let tags: Vec<String> = (0..10).map(|i| format!("NEW GAME MN{}", 20 + i)).collect();
            b.send("speaker@example.org", "games", &tags.join("\n"));
            let before = b.outbox();
            let body: Vec<String> = (0..10)
                .map(|i| format!("JOIN MN{} as Mallory", 20 + i))
                .collect();
            let t = Instant::now();
            extra = b.send("mallory@example.net", "join", &body.join("\n"));
            (t.elapsed(), b.queued(before))
        }
        2 => {
            b.send("speaker@example.org", "game", "NEW GAME MN20");
            let before = b.outbox();
            let t = Instant::now();
            for i in 0..500 {
                b.send(
                    &format!("forged{i}@example.net"),
                    "join",
                    "JOIN MN20 as Anyone",
                );
            }
            let cancel = b.outbox();
            let said = b.send("speaker@example.org", "cancel", "CANCEL GAME MN20");
            // None of the forged joins was confirmed: none is mailed.
            let joiners = b.queued(cancel).0;
            extra = format!("{said}; {joiners} mails to the 500 joiners (none confirmed)");
            (t.elapsed(), b.queued(before))
        }
        _ => {
            let t = Instant::now();
            let plays = [
                "Rushton : Morden (NT) [Home: Tooting Broadway]",
                "Warren : Upminster (DS) [Home: Hornchurch]",
                "Acton : Epping (CN) [Home: Hainault]",
            ];
            let mut legal = 0;
            for k in 0..12 {
                let p = match k {
                    0..=2 => plays[k].to_string(),
                    _ => ["Rushton : Pass", "Warren : Pass", "Acton : Pass"][k % 3].to_string(),
                };
                let who = p.split(' ').next().unwrap().to_lowercase();
                let s = b.send(&format!("{who}@example.org"), "[MN1] turn", &maximal(&p));
                legal += usize::from(s == "legal");
            }
            let plays = format!("{legal} of 12 legal");
            if name == FLOODS[4] {
                let before = b.outbox();
                let t = Instant::now();
                let (mut answered, mut told, mut silence) = (0, 0, 0);
                for _ in 0..200 {
                    let sent = b.outbox();
                    let s = b.send("rushton@example.org", "history", "HISTORY MN1");
                    match (s.starts_with("not answered"), b.outbox() > sent) {
                        (false, _) => answered += 1,
                        (true, true) => told += 1,
                        (true, false) => silence += 1,
                    }
                }
                extra = format!(
                    "{answered} answered, {told} told the limit was reached, {silence} met \
                     with silence (command_replies_per_hour = {}); after {plays} plays",
                    mornbot::config::LimitsConfig::default().command_replies_per_hour
                );
                (t.elapsed(), b.queued(before))
            } else {
                let site = b.dir.join("site");
                mornbot::archive::build(
                    Map::london_1999(),
                    &b.store,
                    &site,
                    &mornbot::daemon::ArchiveSource,
                )
                .unwrap();
                drop(b.store);
                extra = format!(
                    "{plays}; database {:.0} KB, archive {:.0} KB",
                    std::fs::metadata(b.dir.join("m.db")).unwrap().len() as f64 / 1024.0,
                    size_of(&site) as f64 / 1024.0
                );
                let _ = std::fs::remove_dir_all(&b.dir);
                let peak = vm_hwm_kb();
                println!("{}\t0\t0\t0\t{peak}\t{extra}", t.elapsed().as_micros());
                return;
            }
        }
    };
    let _ = std::fs::remove_dir_all(&b.dir);
    // A long summary: how many commands were judged, and what was withheld.
    let extra = match extra.split_once("; not answered: ") {
        Some((judged, why)) => {
            format!("{} judged; not answered: {why}", judged.split("; ").count())
        }
        None => extra,
    };
    println!(
        "{}\t{}\t{}\t{}\t{}\t{extra}",
        took.as_micros(),
        q.0,
        q.1,
        q.2,
        vm_hwm_kb()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--flood") {
        return child(&args[i + 1]);
    }
    let exe = std::env::current_exe().unwrap();
    println!(
        "| flood | took | mails to strangers | mails in all | bytes | peak memory | outcome |"
    );
    println!("|---|---|---|---|---|---|---|");
    for name in FLOODS {
        let out = Command::new(&exe).args(["--flood", name]).output().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let f: Vec<&str> = line.split('\t').collect();
        let took: f64 = f[0].parse::<f64>().unwrap() / 1e3;
        println!(
            "| {name} | {took:.1} ms | {} | {} | {} | {:.1} MB | {} |",
            f[1],
            f[2],
            f[3],
            f[4].parse::<f64>().unwrap() / 1024.0,
            f.get(5).unwrap_or(&"")
        );
    }
}
