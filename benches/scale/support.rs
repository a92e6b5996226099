//! The scale bench's moving parts: the games file, the spool, the outbox
//! read back, and the daemon process (see `benches/scale.rs`).

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// What the bench was asked to do.
pub struct Options {
    /// The numbers of games to measure.
    pub ns: Vec<usize>,
    /// The `mornbot` binary.
    pub bin: PathBuf,
    /// The longest wait for the next verdict (or for the daemon to stop).
    pub timeout: Duration,
    /// Whether verdicts carry the game's picture.
    pub picture: bool,
    /// Keep the temporary directories.
    pub keep: bool,
}

/// One N's figures.
pub struct Row {
    /// Games in the daemon.
    pub n: usize,
    /// The warm-up (one first turn per game), spawn to last verdict.
    pub warmup_total: Duration,
    /// The warm-up's first verdict to its last, per turn.
    pub warmup_per_turn: Duration,
    /// Spawn to the verdict on the turn waiting in the spool.
    pub startup: Duration,
    /// Turns measured after the start-up.
    pub turns: usize,
    /// Their drop to the last verdict, per turn.
    pub per_turn: Duration,
    /// Their first verdict to the last, per turn.
    pub per_turn_steady: Duration,
    /// The daemon's peak resident memory (`VmHWM`), kB.
    pub peak_rss_kb: u64,
    /// Its resident memory at the end (`VmRSS`), kB.
    pub rss_kb: u64,
}

/// Turns measured after the start-up, in as many games.
const SAMPLE: usize = 200;
/// The players of every game, in order of play.
const PLAYERS: [&str; 3] = ["Rushton", "Warren", "Acton"];
/// A legal first turn (the first player's), and the second player's next.
const FIRST: &str = "Rushton : Morden (NT) [Home: Tooting Broadway]";
const SECOND: &str = "Warren : Upminster (DS) [Home: Hornchurch]";

type R<T> = Result<T, String>;

fn err(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// `12.3 ms`, `1.23 ms`, or `0.123 ms`.
pub fn fmt_ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.3} ms")
    }
}

fn tag(i: usize) -> String {
    format!("S{:06}", i + 1)
}

fn address(player: &str, tag: &str) -> String {
    format!(
        "{}.{}@example.org",
        player.to_lowercase(),
        tag.to_lowercase()
    )
}

/// The games file: `n` games, each with three players of its own.
fn games_file(n: usize, picture: bool) -> String {
    let mut s = String::with_capacity(n * 260);
    s.push_str("# Written by `cargo bench --bench scale`.\n");
    for i in 0..n {
        let t = tag(i);
        s.push_str(&format!(
            "\n[[game]]\ntag = \"{t}\"\nstart = \"Monday 0900\"\npicture = {picture}\n"
        ));
        for p in PLAYERS {
            s.push_str(&format!(
                "\n[[game.player]]\nname = \"{p}\"\naddress = \"{}\"\n",
                address(p, &t)
            ));
        }
    }
    s
}

/// A post to the lounge: `player`'s `play` in game `game`.
struct Post {
    id: String,
    raw: String,
}

fn post(game: usize, player: &str, play: &str, kind: &str) -> Post {
    let t = tag(game);
    let id = format!("{kind}-{}@bench.example.org", t.to_lowercase());
    let raw = format!(
        "From: {player} <{}>\nTo: lounge@localhost\nSubject: [{t}] turn\n\
         Message-ID: <{id}>\n\n{play}\n",
        address(player, &t)
    );
    Post { id, raw }
}

/// Writes `posts` into the spool's `tmp/`, dated a few seconds ago (so
/// that the spool's settling wait does not apply), then renames them all
/// into `new/`; returns when the first rename began.
fn drop_posts(lounge: &Path, posts: &[Post]) -> R<Instant> {
    let tmp = lounge.join("tmp");
    let new = lounge.join("new");
    let past = SystemTime::now() - Duration::from_secs(5);
    let mut names = Vec::with_capacity(posts.len());
    for (i, p) in posts.iter().enumerate() {
        let name = format!("{i:06}.{}.bench", p.id.split('@').next().unwrap_or("post"));
        let path = tmp.join(&name);
        std::fs::write(&path, &p.raw).map_err(err(&path))?;
        let f = std::fs::File::options()
            .write(true)
            .open(&path)
            .map_err(err(&path))?;
        f.set_modified(past).map_err(err(&path))?;
        names.push(name);
    }
    let at = Instant::now();
    for name in names {
        let from = tmp.join(&name);
        std::fs::rename(&from, new.join(&name)).map_err(err(&from))?;
    }
    Ok(at)
}

/// A verdict read back from the outbox.
struct Verdict {
    headline: String,
    /// When the bench saw the file.
    seen: Instant,
    /// When the daemon wrote it.
    written: SystemTime,
}

/// The outbox, read back: each reply file once, by the post it answers.
struct Outbox {
    dir: PathBuf,
    read: HashSet<OsString>,
    by_post: HashMap<String, Verdict>,
}

impl Outbox {
    fn new(dir: PathBuf) -> Outbox {
        Outbox {
            dir,
            read: HashSet::new(),
            by_post: HashMap::new(),
        }
    }

    /// Reads the reply files written since the last call.
    fn poll(&mut self) -> R<()> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            // Not made yet: the daemon makes it when it starts.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("{}: {e}", self.dir.display())),
        };
        for e in entries {
            let e = e.map_err(err(&self.dir))?;
            let name = e.file_name();
            if !name.to_string_lossy().ends_with(".eml") || self.read.contains(&name) {
                continue;
            }
            let seen = Instant::now();
            let path = e.path();
            let text = std::fs::read_to_string(&path).map_err(err(&path))?;
            let written = e
                .metadata()
                .and_then(|m| m.modified())
                .map_err(err(&path))?;
            self.read.insert(name);
            if let Some(id) = in_reply_to(&text) {
                let headline = mornbot::cli::demo::headline_of(&text);
                self.by_post.insert(
                    id,
                    Verdict {
                        headline,
                        seen,
                        written,
                    },
                );
            }
        }
        Ok(())
    }

    /// Forgets every reply (after the directory was emptied).
    fn clear(&mut self) {
        self.read.clear();
        self.by_post.clear();
    }
}

/// The Message-ID a reply answers (its `In-Reply-To`), without brackets.
fn in_reply_to(mail: &str) -> Option<String> {
    for line in mail.lines() {
        if line.trim().is_empty() {
            return None;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("In-Reply-To") {
                let v = v.trim();
                return Some(v.trim_start_matches('<').trim_end_matches('>').to_string());
            }
        }
    }
    None
}

/// `mornbot run` in a directory, its log in a file there.
struct Daemon {
    child: Option<Child>,
    log: PathBuf,
    spawned: Instant,
}

impl Daemon {
    fn start(bin: &Path, dir: &Path, label: &str) -> R<Daemon> {
        let log = dir.join(format!("{label}.log"));
        let mut file = std::fs::File::create(&log).map_err(err(&log))?;
        // The spawn's time beside the daemon's own log lines: where a
        // start's time went can be read from the kept log.
        use std::io::Write as _;
        writeln!(
            file,
            "bench: spawning the daemon at {}",
            chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        )
        .map_err(err(&log))?;
        let spawned = Instant::now();
        let child = Command::new(bin)
            .arg("run")
            .current_dir(dir)
            .env("MORNBOT_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .map_err(|e| format!("{}: cannot start: {e}", bin.display()))?;
        Ok(Daemon {
            child: Some(child),
            log,
            spawned,
        })
    }

    fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// The last lines of its log, for a failure's message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    /// Fails if the daemon has exited.
    fn alive(&mut self) -> R<()> {
        let Some(c) = self.child.as_mut() else {
            return Err("the daemon is not running".into());
        };
        match c.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(status)) => {
                self.child = None;
                Err(format!(
                    "the daemon exited ({status}); its log ends:\n{}",
                    self.log_tail()
                ))
            }
            Err(e) => Err(format!("waiting for the daemon: {e}")),
        }
    }

    /// `VmHWM` and `VmRSS` from `/proc/PID/status`, kB.
    fn memory_kb(&self) -> R<(u64, u64)> {
        let path = PathBuf::from(format!("/proc/{}/status", self.pid()));
        let text = std::fs::read_to_string(&path).map_err(err(&path))?;
        let field = |name: &str| -> R<u64> {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
                .ok_or_else(|| format!("{}: no {name}", path.display()))
        };
        Ok((field("VmHWM:")?, field("VmRSS:")?))
    }

    /// SIGTERM, then waits for a clean exit (status 0).
    fn stop(mut self, timeout: Duration) -> R<()> {
        self.alive()?;
        let pid = self.pid().to_string();
        let status = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .map_err(|e| format!("kill -TERM {pid}: {e}"))?;
        if !status.success() {
            return Err(format!("kill -TERM {pid}: {status}"));
        }
        let t = Instant::now();
        let mut child = self.child.take().expect("alive");
        loop {
            match child.try_wait() {
                Ok(Some(s)) if s.success() => return Ok(()),
                Ok(Some(s)) => {
                    return Err(format!(
                        "the daemon stopped with {s} after SIGTERM; its log ends:\n{}",
                        self.log_tail()
                    ))
                }
                Ok(None) if t.elapsed() > timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "the daemon did not stop within {timeout:?} of SIGTERM"
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => return Err(format!("waiting for the daemon: {e}")),
            }
        }
    }
}

impl Drop for Daemon {
    /// A daemon left running by a failure is killed.
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// How much longer than `timeout` the first verdict after a start may
/// take, per game in the daemon (a first start creates every game; today's
/// daemon replays every game at start).
const START_ALLOWANCE_PER_GAME: Duration = Duration::from_millis(20);

/// Waits until every post of `ids` has its verdict, failing if the daemon
/// exits or `timeout` passes without a new one (`first_timeout` before the
/// first); prints progress every 10 s when `progress` names the phase.
fn wait_verdicts(
    daemon: &mut Daemon,
    outbox: &mut Outbox,
    ids: &[String],
    every: Duration,
    (first_timeout, timeout): (Duration, Duration),
    progress: Option<&str>,
) -> R<()> {
    let mut last_count = 0;
    let mut last_new = Instant::now();
    let mut last_print = Instant::now();
    loop {
        outbox.poll()?;
        let count = ids
            .iter()
            .filter(|id| outbox.by_post.contains_key(*id))
            .count();
        if count == ids.len() {
            return Ok(());
        }
        daemon.alive()?;
        if count > last_count {
            last_count = count;
            last_new = Instant::now();
        } else if last_new.elapsed() > if count == 0 { first_timeout } else { timeout } {
            return Err(format!(
                "no verdict for {:?}: {count} of {} posts answered; the daemon's log ends:\n{}",
                last_new.elapsed(),
                ids.len(),
                daemon.log_tail()
            ));
        }
        if let Some(phase) = progress {
            if last_print.elapsed() >= Duration::from_secs(10) {
                last_print = Instant::now();
                let secs = daemon.spawned.elapsed().as_secs_f64();
                eprintln!(
                    "scale:   {phase}: {count} of {} answered after {secs:.0} s",
                    ids.len()
                );
            }
        }
        std::thread::sleep(every);
    }
}

/// Checks that every post of `ids` was judged legal; returns the first and
/// last verdicts' seen instants and write times.
fn legal(outbox: &Outbox, ids: &[String]) -> R<((Instant, Instant), (SystemTime, SystemTime))> {
    let bad: Vec<String> = ids
        .iter()
        .filter_map(|id| {
            let v = &outbox.by_post[id];
            (!v.headline.contains("(legal)")).then(|| format!("<{id}>: {}", v.headline))
        })
        .collect();
    if !bad.is_empty() {
        return Err(format!(
            "{} of {} turns were not judged legal, e.g.\n  {}",
            bad.len(),
            ids.len(),
            bad[..bad.len().min(5)].join("\n  ")
        ));
    }
    let vs = || ids.iter().map(|id| &outbox.by_post[id]);
    let seen = (
        vs().map(|v| v.seen).min().expect("some"),
        vs().map(|v| v.seen).max().expect("some"),
    );
    let written = (
        vs().map(|v| v.written).min().expect("some"),
        vs().map(|v| v.written).max().expect("some"),
    );
    Ok((seen, written))
}

/// The span between two write times, per gap between `n` verdicts.
fn per_gap(w: (SystemTime, SystemTime), n: usize) -> Duration {
    w.1.duration_since(w.0).unwrap_or_default() / (n.max(2) - 1) as u32
}

fn empty_dir(dir: &Path) -> R<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(err(dir))?;
    }
    std::fs::create_dir_all(dir).map_err(err(dir))
}

/// Measures one N in a fresh temporary directory (deleted afterwards,
/// unless kept or the run failed).
pub fn run_one(n: usize, opts: &Options) -> R<Row> {
    let dir = std::env::temp_dir().join(format!("mornbot-scale-{}-{n}", std::process::id()));
    empty_dir(&dir)?;
    let row =
        measure(n, opts, &dir).map_err(|e| format!("{e}\n(files kept in {})", dir.display()))?;
    if !opts.keep {
        std::fs::remove_dir_all(&dir).map_err(err(&dir))?;
    }
    Ok(row)
}

fn measure(n: usize, opts: &Options, dir: &Path) -> R<Row> {
    let data = dir.join("mornbot-data");
    let lounge = data.join("lounge");
    for sub in ["tmp", "new", "cur"] {
        empty_dir(&lounge.join(sub))?;
    }
    let games = data.join("game.toml");
    std::fs::write(&games, games_file(n, opts.picture)).map_err(err(&games))?;
    let mut outbox = Outbox::new(data.join("outbox"));
    let poll_big = Duration::from_millis(if n > 1000 { 1000 } else { 50 });
    let poll = Duration::from_millis(5);
    let starting = (
        opts.timeout + START_ALLOWANCE_PER_GAME * n as u32,
        opts.timeout,
    );
    let running = (opts.timeout, opts.timeout);

    // 1. Warm-up: a first turn in every game.
    eprintln!("scale: N = {n}: warm-up, one first turn in each game");
    let posts: Vec<Post> = (0..n).map(|i| post(i, "Rushton", FIRST, "w")).collect();
    let ids: Vec<String> = posts.iter().map(|p| p.id.clone()).collect();
    drop_posts(&lounge, &posts)?;
    drop(posts);
    let mut d = Daemon::start(&opts.bin, dir, "warm-up")?;
    wait_verdicts(
        &mut d,
        &mut outbox,
        &ids,
        poll_big,
        starting,
        Some("warm-up"),
    )?;
    let warmup_total = d.spawned.elapsed();
    let (_, written) = legal(&outbox, &ids)?;
    let warmup_per_turn = per_gap(written, n);
    d.stop(opts.timeout)?;
    eprintln!(
        "scale: N = {n}: warm-up done in {:.1} s, {} per turn",
        warmup_total.as_secs_f64(),
        fmt_ms(warmup_per_turn)
    );
    // What the daemon keeps is in its database: the judged spool files and
    // the warm-up's replies go, so that the next start reads the games.
    empty_dir(&lounge.join("cur"))?;
    empty_dir(&data.join("outbox"))?;
    outbox.clear();

    // 2. Start-up: a turn waiting in the spool before the daemon starts.
    let first = n / 2;
    let start_post = post(first, "Warren", SECOND, "start");
    drop_posts(&lounge, std::slice::from_ref(&start_post))?;
    let mut d = Daemon::start(&opts.bin, dir, "measured")?;
    let start_ids = [start_post.id.clone()];
    wait_verdicts(&mut d, &mut outbox, &start_ids, poll, starting, None)?;
    let startup = outbox.by_post[&start_post.id].seen - d.spawned;
    legal(&outbox, &start_ids)?;

    // 3. One turn in each of SAMPLE games spread over the whole range.
    let others: Vec<usize> = (0..n).filter(|&i| i != first).collect();
    let k = SAMPLE.min(others.len());
    let posts: Vec<Post> = (0..k)
        .map(|j| post(others[j * others.len() / k], "Warren", SECOND, "turn"))
        .collect();
    let ids: Vec<String> = posts.iter().map(|p| p.id.clone()).collect();
    let dropped = drop_posts(&lounge, &posts)?;
    wait_verdicts(&mut d, &mut outbox, &ids, poll, running, None)?;
    let ((_, last_seen), written) = legal(&outbox, &ids)?;
    let per_turn = (last_seen - dropped) / k as u32;
    let per_turn_steady = per_gap(written, k);

    // 4. Memory, then a clean stop.
    let (peak_rss_kb, rss_kb) = d.memory_kb()?;
    d.stop(opts.timeout)?;
    eprintln!(
        "scale: N = {n}: start-up {:.2} s, {} per turn, peak RSS {:.1} MB",
        startup.as_secs_f64(),
        fmt_ms(per_turn),
        peak_rss_kb as f64 / 1024.0
    );
    Ok(Row {
        n,
        warmup_total,
        warmup_per_turn,
        startup,
        turns: k,
        per_turn,
        per_turn_steady,
        peak_rss_kb,
        rss_kb,
    })
}
