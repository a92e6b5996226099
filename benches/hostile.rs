//! What one hostile 1 MiB mail costs (issue 14: "a 1 MiB mail of any
//! content costs < 2 s and < 100 MB, and the next mail is judged").
//!
//! Each kind of mail runs in a child process of its own (this binary,
//! re-run with `--variant NAME`), so that its peak memory (VmHWM) is its
//! own: the child builds the daemon's referee on a SQLite file, judges the
//! hostile mail through `daemon::judge` (the daemon's own path, quarantine
//! guard included), then the next legal turn, and prints the times, its
//! peak and the verdicts. `cargo bench --bench
//! hostile` prints the table the README quotes.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::Command;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::judge;
use mornbot::daemon::letter::Context;
use mornbot::daemon::referee::Referee;
use mornbot::mail::inbox::{Incoming, Key, Raw};
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

/// The mail's size: just under `[bot] max_message_bytes` (1 MiB), so that
/// it is read whole.
const SIZE: usize = (1 << 20) - 4096;

const HEAD: &str = "From: rushton@example.org\nTo: lounge@example.test\n\
                    Subject: [MN1] turn\nMessage-ID: <hostile@example.org>\n";

/// Fills `unit` up to [`SIZE`] after `before`, then `after`.
fn fill(before: &str, unit: &str, after: &str) -> Vec<u8> {
    let n = (SIZE - HEAD.len() - before.len() - after.len()) / unit.len();
    format!("{HEAD}{before}{}{after}", unit.repeat(n)).into_bytes()
}

/// Bytes from a fixed-seed generator (no randomness in a bench's input).
fn noise(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Standard base64 (RFC 4648), without line breaks.
fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len() * 4 / 3 + 4);
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Every kind of 1 MiB mail, by name.
fn variants() -> Vec<(&'static str, Vec<u8>)> {
    let mut binary = format!("{HEAD}\n").into_bytes();
    binary.extend(noise(SIZE - binary.len()));
    let b64 = {
        let text = base64(&noise(SIZE * 3 / 4 - 16384));
        let lines: Vec<&str> = text
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        format!(
            "{HEAD}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\
             Content-Type: text/plain\n\nRushton : Morden (NT) [Home: Tooting Broadway]\n--b\n\
             Content-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n{}\n--b--\n",
            lines.join("\n")
        )
        .into_bytes()
    };
    vec![
        (
            "baseline: a legal turn (small)",
            format!("{HEAD}\nRushton : Morden (NT) [Home: Tooting Broadway]\n").into_bytes(),
        ),
        ("RULES x 174k", fill("\n", "RULES\n", "")),
        ("one play, [LV+1] x 150k", fill("\nRushton : ", "[LV+1] ", "Euston (NT)\n")),
        ("one play, [Blocking Euston] x 58k", fill("\nRushton : ", "[Blocking Euston] ", "Euston (NT)\n")),
        ("70k play lines", fill("\n", "Rushton : Pass\n", "")),
        ("one line of 1 MiB", fill("\n", "a", "\n")),
        ("8-bit noise", binary),
        ("base64 attachment", b64),
        (
            "nested multiparts",
            fill(
                "MIME-Version: 1.0\n",
                "Content-Type: multipart/mixed; boundary=b\n\n--b\n",
                "Content-Type: text/plain\n\nhello\n",
            ),
        ),
        ("1 MiB of header lines", fill("", "X-Junk: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", "\nHELP\n")),
        (
            "quoted-printable soft breaks",
            fill(
                "MIME-Version: 1.0\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n",
                "R=\n",
                "\n",
            ),
        ),
        (
            "HTML only, nested divs",
            fill("MIME-Version: 1.0\nContent-Type: text/html\n\n<html><body>", "<div>", "Rushton : Pass</body></html>\n"),
        ),
        ("1 MiB of quoted reply", fill("\nRushton : Pass\n\nOn Monday someone wrote:\n", "> Rushton : Pass\n", "")),
    ]
}

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

fn incoming(raw: Vec<u8>, uid: u32) -> Incoming {
    Incoming {
        raw: Raw::Full(raw),
        origin: Origin {
            source: "bench".into(),
            uidvalidity: Some(1),
            uid: Some(uid),
        },
        received: Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap()
            + chrono::Duration::minutes(i64::from(uid)),
        key: Key::Seq(u64::from(uid)),
        behind: 0,
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

/// The child: judges a first turn, the variant, and the next turn.
fn child(name: &str) {
    let (_, raw) = variants()
        .into_iter()
        .find(|(n, _)| *n == name)
        .expect("a variant");
    let dir = std::env::temp_dir().join(format!("mornbot-hostile-{}", std::process::id()));
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
    let t0 = Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap();
    let speaker = SpeakerConfig::default();
    let map = Map::london_1999();
    let mut referee = Referee::load(map, me(), speaker, &[game], &mut store, t0).unwrap();
    let mut cfg = Config::default();
    cfg.bot.address = me().address;
    cfg.bot.lounge = me().lounge;
    let ctx = Context::new(map, &me(), &cfg);
    let before = vm_hwm_kb();
    let started = Instant::now();
    let h = judge(&mut referee, &mut store, &ctx, &incoming(raw, 1), false).unwrap();
    let took = started.elapsed();
    let peak = vm_hwm_kb();
    // The next turn: Warren's after a legal first turn, else Rushton's.
    let next = if store.turns("MN1").unwrap().len() == 1 {
        "From: warren@example.org\nTo: lounge@example.test\nSubject: [MN1] turn\n\
         Message-ID: <next@example.org>\n\nWarren : Upminster (DS) [Home: Hornchurch]\n"
    } else {
        "From: rushton@example.org\nTo: lounge@example.test\nSubject: [MN1] turn\n\
         Message-ID: <next@example.org>\n\nRushton : Morden (NT) [Home: Tooting Broadway]\n"
    };
    let started = Instant::now();
    let n = judge(
        &mut referee,
        &mut store,
        &ctx,
        &incoming(next.as_bytes().to_vec(), 2),
        false,
    )
    .unwrap();
    let next_took = started.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{}\t{}\t{before}\t{peak}\t{} / {}\t{}",
        took.as_micros(),
        next_took.as_micros(),
        h.kind,
        h.summary.chars().take(60).collect::<String>(),
        n.summary
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--variant") {
        return child(&args[i + 1]);
    }
    let exe = std::env::current_exe().unwrap();
    println!(
        "| 1 MiB mail ({SIZE} bytes) | judged in | next turn | peak memory (before it) | verdict / next |"
    );
    println!("|---|---|---|---|---|");
    let mut worst = (Duration::ZERO, 0u64);
    for (name, _) in variants() {
        let out = Command::new(&exe)
            .args(["--variant", name])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let f: Vec<&str> = line.split('\t').collect();
        let took = Duration::from_micros(f[0].parse().unwrap());
        let next = Duration::from_micros(f[1].parse().unwrap());
        let (before, peak): (u64, u64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        worst = (worst.0.max(took), worst.1.max(peak));
        println!(
            "| {name} | {:.1} ms | {:.1} ms | {:.1} MB ({:.1} MB) | {} / {} |",
            took.as_secs_f64() * 1e3,
            next.as_secs_f64() * 1e3,
            peak as f64 / 1024.0,
            before as f64 / 1024.0,
            f[4],
            f.get(5).unwrap_or(&"")
        );
    }
    println!(
        "worst: {:.1} ms (target < 2,000 ms), peak {:.1} MB (target < 100 MB)",
        worst.0.as_secs_f64() * 1e3,
        worst.1 as f64 / 1024.0
    );
}
