//! The daemon against the real mail stack (Dovecot, Postfix: see
//! scripts/mailstack), measured end to end. Needs root. Run with
//! `cargo bench --bench mailstack`.
//!
//! 1. Throughput: 1,000 lounge posts (20 turns in each of 50 games) queued
//!    in the bot's mailbox before the daemon starts; the time until every
//!    reply has been delivered. Against the stack's own floor, measured in
//!    the same run: the same 1,000 replies (read back from the daemon's
//!    outbox: same sizes, same envelopes) submitted again the way the
//!    daemon's sender submits them, one after another over one kept SMTP
//!    connection (`SmtpSink`), timed until the last is in its Maildir.
//! 2. Turn-around: a post sent over SMTP until the reply is in the player's
//!    Maildir, median of 40, against the stack's own floor measured in the
//!    same run: one delivery seen by an IMAP client with the same wait
//!    strategy, plus one SMTP send until it is in a Maildir.
//! 3. The daemon's resident memory while serving the 50 games.
//!
//! `MAILSTACK_NO_PICTURES=1` turns the games' pictures off (a diagnosis:
//! what the verdicts' pictures cost). `MAILSTACK_PIN=1` (a diagnosis: does
//! the daemon's own pipeline pace the run, or only the CPU it shares with
//! the stack?) runs the stack on CPU 0 and the bench, the daemon and the
//! floor's sender on CPU 1, with `taskset`.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use mornbot::config::Config;
use mornbot::daemon::referee::Painter;
use mornbot::mail::address::normalize;
use mornbot::mail::outbound::Identity;
use mornbot::mail::send::SmtpSink;
use mornbot::map::Map;
use mornbot::store::{OutMail, Store};

use support::{block_on, imap_login, smtp_send, wait_until, Daemon, Stack};

const GAMES: usize = 50;
const TURNS: usize = 20;
const TRIALS: usize = 40;

fn count_new(stack: &Stack, user: &str) -> usize {
    ["new", "cur"]
        .iter()
        .map(|sub| {
            std::fs::read_dir(stack.dir.join(format!("mail/{user}/Maildir/{sub}")))
                .map(|rd| rd.count())
                .unwrap_or(0)
        })
        .sum()
}

/// The first 20 legal plays of the demo game.
fn plays() -> Vec<(&'static str, &'static str)> {
    use mornbot::cli::demo::{script, Body, Expect};
    script()
        .into_iter()
        .filter(|s| s.expect == Expect::Legal)
        .map(|s| match s.body {
            Body::Text(t) => (s.from, t),
            Body::GsdPlus { play, .. } => (s.from, play),
        })
        .take(TURNS)
        .collect()
}

fn write_config(stack: &Stack, wait: &str, games: usize) -> std::path::PathBuf {
    let pw = stack.dir.join("bot.pass");
    std::fs::write(&pw, "bot-pw\n").unwrap();
    let mut cfg = format!(
        "[bot]\naddress = \"bot@example.test\"\nlounge = \"archive@example.test\"\n\
         data_dir = \"{data}\"\n\n[imap]\nhost = \"127.0.0.1\"\nport = {imap}\n\
         security = \"plain\"\nuser = \"bot\"\npassword_file = \"{pw}\"\nwait = \"{wait}\"\n\
         poll_ms = 20\n\n[smtp]\nhost = \"127.0.0.1\"\nport = {smtp}\nsecurity = \"plain\"\n\n",
        data = stack.dir.join(format!("bot-data-{wait}-{games}")).display(),
        imap = stack.port("IMAP_PORT"),
        smtp = stack.port("SMTP_PORT"),
        pw = pw.display(),
    );
    for g in 1..=games {
        cfg.push_str(&format!("[[game]]\ntag = \"MN{g}\"\n"));
        // Diagnosis: how much of the time the verdicts' pictures take.
        if std::env::var_os("MAILSTACK_NO_PICTURES").is_some() {
            cfg.push_str("picture = false\n");
        }
        for p in ["Rushton", "Warren", "Acton"] {
            cfg.push_str(&format!(
                "[[game.player]]\nname = \"{p}\"\naddress = \"{}@example.test\"\n",
                p.to_lowercase()
            ));
        }
    }
    let path = stack.dir.join(format!("bot-{wait}-{games}.toml"));
    std::fs::write(&path, cfg).unwrap();
    path
}

fn post(game: usize, n: usize, from: &str, play: &str, to: &str) -> String {
    let user = from.split('@').next().unwrap();
    format!(
        "From: {user}@example.test\nTo: {to}\nSubject: [MN{game}] turn {n}\n\
         Message-ID: <b-{game}-{n}-{}@example.test>\n\n{play}\n",
        std::process::id()
    )
}

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Where the daemon's time went, from its log's timestamps: seconds from
/// its first line until the last post was judged and until the last reply
/// was submitted over SMTP.
fn timeline(log: &str) -> String {
    let at = |l: &str| {
        l.split_whitespace()
            .next()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
    };
    let Some(start) = log.lines().find_map(at) else {
        return "timeline: no timestamps in the log".into();
    };
    let last = |pat: &str| {
        log.lines()
            .filter(|l| l.contains(pat))
            .filter_map(at)
            .next_back()
            .map_or(f64::NAN, |t| (t - start).as_seconds_f64())
    };
    format!(
        "timeline from the daemon's first log line: last post judged at {:.2} s, last reply submitted at {:.2} s",
        last("kind=turn"),
        last(": sent id=")
    )
}

/// The CPU time (user + system) process `pid` has used, in seconds.
fn cpu_secs(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which may hold spaces: utime and
    // stime are the 12th and 13th, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(") ").map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0.0))
        .collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

/// The machine's busy CPU time so far, in seconds (all cores: `/proc/stat`'s
/// first line less idle and iowait, 100 ticks a second).
fn machine_busy_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let f: Vec<f64> = stat
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap_or(0.0))
        .collect();
    let idle = f.get(3).unwrap_or(&0.0) + f.get(4).unwrap_or(&0.0);
    (f.iter().sum::<f64>() - idle) / 100.0
}

/// The 1-minute load average, as the kernel reports it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .next()
        .unwrap_or("?")
        .to_string()
}

/// Pins every thread of this process, and so whatever it starts from now
/// on, to CPU `cpu`.
fn pin_self(cpu: usize) {
    let ok = std::process::Command::new("taskset")
        .args([
            "-a",
            "-p",
            "-c",
            &cpu.to_string(),
            &std::process::id().to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "MAILSTACK_PIN: taskset could not pin the bench to CPU {cpu}"
    );
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Waits for a new message in `user`'s INBOX the way the daemon would:
/// IMAP IDLE, or UID SEARCH polling every 20 ms. Returns the time from
/// `start` (which sends the mail) until the client saw it.
fn imap_watch(port: u16, user: &str, wait: &str, start: impl FnOnce()) -> Duration {
    block_on(async {
        let mut s = imap_login(port, user).await;
        let mb = s.select("INBOX").await.unwrap();
        let next = mb.uid_next.unwrap_or(1);
        if wait == "idle" {
            let mut h = s.idle();
            h.init().await.unwrap();
            let (fut, _stop) = h.wait_with_timeout(Duration::from_secs(20));
            let t = Instant::now();
            start();
            fut.await.unwrap();
            t.elapsed()
        } else {
            let t = Instant::now();
            start();
            loop {
                let found = s.uid_search(format!("UID {next}:*")).await.unwrap();
                if found.iter().any(|u| *u >= next) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            t.elapsed()
        }
    })
}

/// Appends messages to `user`'s INBOX in order.
fn imap_append(port: u16, user: &str, msgs: &[String]) {
    block_on(async {
        let mut s = imap_login(port, user).await;
        for m in msgs {
            s.append("INBOX", None, None, m.replace('\n', "\r\n"))
                .await
                .unwrap();
        }
        let _ = s.logout().await;
    })
}

/// The stack's floor for the throughput figure: every reply the daemon
/// queued in `data` (its SQLite outbox), submitted again as its sender
/// does, over one SMTP connection kept open between replies, with the
/// `[smtp]` section of `cfg`. The outbox keeps a sent reply's text and the
/// scene of its picture, so each is drawn again first (before the clock
/// starts): the same bytes as sent. Returns how many were sent, the time
/// from the first submission until the last is in its recipient's Maildir,
/// and the machine's busy CPU time over it.
fn stack_floor(stack: &Stack, cfg: &Path, data: &Path) -> (usize, Duration, f64) {
    let text = std::fs::read_to_string(cfg).unwrap();
    let config = Config::from_toml(&text, "bench").unwrap();
    let me = Identity {
        address: normalize(&config.bot.address),
        name: config.bot.name.clone(),
        lounge: normalize(&config.bot.lounge),
    };
    let painter = Painter::new(Map::london_1999(), me, &config.limits);
    let mails: Vec<OutMail> = Store::open(&data.join("mornbot.db"))
        .unwrap()
        .all_mail()
        .unwrap()
        .into_iter()
        .map(|m| match &m.owed {
            Some(owed) => OutMail {
                raw: painter.finish(owed).unwrap(),
                owed: None,
                ..m
            },
            None => m,
        })
        .collect();
    let smtp = config.smtp.unwrap();
    // Each recipient's Maildir count when every copy has landed.
    let mut expect: HashMap<String, usize> = HashMap::new();
    for r in mails.iter().flat_map(|m| &m.recipients) {
        let user = r.split('@').next().unwrap().to_string();
        *expect
            .entry(user.clone())
            .or_insert_with(|| count_new(stack, &user)) += 1;
    }
    let t = Instant::now();
    let busy = machine_busy_secs();
    block_on(async {
        let mut sink = SmtpSink::new(smtp, None, None);
        for m in &mails {
            sink.send(m).await.unwrap();
        }
        sink.close().await;
    });
    wait_until(Duration::from_secs(300), "the floor's deliveries", || {
        expect
            .iter()
            .all(|(user, n)| count_new(stack, user) >= *n)
            .then_some(())
    });
    (mails.len(), t.elapsed(), machine_busy_secs() - busy)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` would too: only
    // run when asked for as a bench.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let pin = std::env::var_os("MAILSTACK_PIN").is_some();
    if pin {
        // The stack's processes inherit the CPU of the bench that starts
        // them, and keep it.
        pin_self(0);
    }
    let Some(stack) = Stack::start() else {
        return;
    };
    for u in ["bot", "archive", "rushton", "warren", "acton", "floor"] {
        stack.adduser(u, &format!("{u}-pw"));
    }
    if pin {
        pin_self(1);
        println!(
            "pinned: the stack on CPU 0; the bench, the daemon and the floor's sender on CPU 1"
        );
    }
    let smtp = stack.port("SMTP_PORT");
    let imap = stack.port("IMAP_PORT");
    let plays = plays();
    assert_eq!(plays.len(), TURNS);

    // 1. Throughput: queue 1,000 posts in the bot's INBOX. IMAP APPEND
    // keeps their order (Postfix delivers concurrently, so SMTP would
    // shuffle a game's turns); round-robin over the games.
    let queued = Instant::now();
    let total = GAMES * TURNS;
    // The lounge also gets the dice commitment notice, one for up to
    // 1,000 games (RULINGS S14), sent before the replies.
    let notices = GAMES.div_ceil(1000);
    let posts: Vec<String> = (0..TURNS)
        .flat_map(|n| {
            let (from, play) = plays[n];
            (1..=GAMES).map(move |g| post(g, n, from, play, "bot@example.test"))
        })
        .collect();
    imap_append(imap, "bot", &posts);
    println!(
        "queued {total} posts in {:.2} s (IMAP APPEND)",
        queued.elapsed().as_secs_f64()
    );
    let cfg = write_config(&stack, "poll", GAMES);
    let log = stack.dir.join("bench.log");
    let t = Instant::now();
    let busy = machine_busy_secs();
    let mut daemon = Daemon::start(&cfg, &log);
    let mut peak_rss = 0;
    wait_until(Duration::from_secs(300), "every reply", || {
        peak_rss = peak_rss.max(rss_kb(daemon.child.id()));
        (count_new(&stack, "archive") >= total + notices).then_some(())
    });
    let took = t.elapsed();
    let busy = machine_busy_secs() - busy;
    let log_text = std::fs::read_to_string(&log).unwrap();
    let legal = log_text.matches(" legal ").count();
    let turns = log_text.lines().filter(|l| l.contains("kind=turn")).count();
    println!("  log: {} lines, {turns} turns", log_text.lines().count());
    for l in log_text
        .lines()
        .filter(|l| l.contains("kind=") && !l.contains(" legal "))
        .take(5)
    {
        println!("  not legal: {l}");
    }
    println!(
        "throughput: {total} posts fetched, judged and answered in {:.2} s ({:.0}/s); {legal} legal",
        took.as_secs_f64(),
        total as f64 / took.as_secs_f64()
    );
    println!("  {}", timeline(&log_text));
    println!(
        "memory: daemon serving {GAMES} games: peak VmRSS {:.1} MB, now {:.1} MB",
        peak_rss as f64 / 1024.0,
        rss_kb(daemon.child.id()) as f64 / 1024.0
    );
    let cpu = cpu_secs(daemon.child.id());
    println!(
        "  daemon CPU time: {cpu:.2} s ({:.1} ms a post) over {:.2} s; the machine's: {busy:.2} s",
        cpu * 1000.0 / total as f64,
        took.as_secs_f64()
    );
    daemon.terminate();
    let data = stack.dir.join(format!("bot-data-poll-{GAMES}"));
    let (sent, floor, busy) = stack_floor(&stack, &cfg, &data);
    assert_eq!(sent, total + notices, "one reply a post, and the notices");
    // What the stack itself needs of the machine's cores while delivering:
    // the CPU the daemon has left beside it.
    println!(
        "  machine CPU busy during the floor: {busy:.2} s over {:.2} s ({})",
        floor.as_secs_f64(),
        if pin {
            "the stack on CPU 0, the floor's sender on CPU 1".to_string()
        } else {
            format!(
                "{} cores",
                std::thread::available_parallelism().map_or(0, |n| n.get())
            )
        }
    );
    println!(
        "throughput floor: the stack alone delivers the same {sent} replies (one SMTP \
         connection, sent one by one) in {:.2} s; mornbot {:.2} s = {:.2}x the floor \
         (load average {})",
        floor.as_secs_f64(),
        took.as_secs_f64(),
        took.as_secs_f64() / floor.as_secs_f64(),
        load_average()
    );

    // 2. Turn-around against the floor, for each wait strategy.
    for wait in ["poll", "idle"] {
        let cfg = write_config(&stack, wait, 1);
        let mut d = Daemon::start(&cfg, &stack.dir.join(format!("bench-{wait}.log")));
        std::thread::sleep(Duration::from_millis(800));
        let mut turn = Vec::new();
        let mut floor = Vec::new();
        for i in 0..TRIALS {
            // The bot's own: a Pass every time is legal for whoever is to
            // play; STATUS is answered privately to the sender: use it, as
            // it exercises fetch, classify, commit and send like a turn.
            let before = count_new(&stack, "rushton");
            let raw = format!(
                "From: rushton@example.test\nTo: bot@example.test\nSubject: status\n\
                 Message-ID: <ta-{wait}-{i}-{}@example.test>\n\nSTATUS MN1\n",
                std::process::id()
            );
            let t = Instant::now();
            smtp_send(smtp, "rushton@example.test", &["bot@example.test"], &raw);
            wait_until(Duration::from_secs(20), "the reply", || {
                (count_new(&stack, "rushton") > before).then_some(())
            });
            turn.push(t.elapsed());

            // Floor: a delivery seen by an IMAP client with the same
            // strategy, plus one SMTP send until it is in a Maildir.
            let seen = imap_watch(imap, "floor", wait, || {
                smtp_send(
                    smtp,
                    "acton@example.test",
                    &["floor@example.test"],
                    "Subject: f\n\nx\n",
                );
            });
            let before = count_new(&stack, "warren");
            let t1 = Instant::now();
            smtp_send(
                smtp,
                "acton@example.test",
                &["warren@example.test"],
                "Subject: f\n\nx\n",
            );
            wait_until(Duration::from_secs(20), "the floor send", || {
                (count_new(&stack, "warren") > before).then_some(())
            });
            floor.push(seen + t1.elapsed());
        }
        let (mt, mf) = (median(turn), median(floor));
        println!(
            "turn-around ({wait}): median {:.1} ms; stack floor {:.1} ms; mornbot adds {:.1} ms",
            ms(mt),
            ms(mf),
            ms(mt) - ms(mf)
        );
        d.terminate();
    }
}
