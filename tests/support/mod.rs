//! Test support: a private mail stack (scripts/mailstack) and mail helpers.
#![allow(dead_code)]

pub mod fake_lounge;
pub mod fake_referee;
pub mod letters;
pub mod live;
pub mod lobby;
pub mod record;
pub mod stack_mail;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A running Dovecot + Postfix + mlmmj stack on loopback, stopped on drop.
pub struct Stack {
    pub dir: PathBuf,
    pub env: HashMap<String, String>,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mailstack")
}

fn run(args: &[&str], extra_env: &[(&str, &str)]) -> Result<String, String> {
    let mut c = Command::new(script());
    c.args(args).stdin(Stdio::null());
    for (k, v) in extra_env {
        c.env(k, v);
    }
    let out = c.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "scripts/mailstack {args:?} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Stack {
    /// Starts a stack, or returns None (with a visible note) when not root:
    /// the servers need root to start and drop privileges.
    pub fn start() -> Option<Stack> {
        Stack::start_with(&[])
    }

    /// Starts a stack with extra `scripts/mailstack` environment (e.g.
    /// `MAILSTACK_IDLE_NOTIFY`). A stack that cannot run fails the test,
    /// unless `MORNBOT_SKIP_MAILSTACK=1` says to skip (with a visible note).
    pub fn start_with(env: &[(&str, &str)]) -> Option<Stack> {
        if std::env::var("MORNBOT_SKIP_MAILSTACK").as_deref() == Ok("1") {
            eprintln!("SKIPPED: MORNBOT_SKIP_MAILSTACK=1");
            return None;
        }
        assert!(
            is_root(),
            "the mail-server tests need root (scripts/test runs them as root); \
             set MORNBOT_SKIP_MAILSTACK=1 to skip them"
        );
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir = PathBuf::from(format!("/tmp/mbt-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut all = vec![("MAILSTACK_BASE_PORT", "auto")];
        all.extend_from_slice(env);
        let out = run(&["start", dir.to_str().unwrap()], &all).unwrap_or_else(|e| panic!("{e}"));
        let env = out
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Some(Stack { dir, env })
    }

    pub fn port(&self, name: &str) -> u16 {
        self.env[name].parse().unwrap()
    }

    pub fn adduser(&self, name: &str, password: &str) {
        run(
            &["adduser", self.dir.to_str().unwrap(), name, password],
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }

    pub fn subscribe(&self, address: &str) {
        run(&["subscribe", self.dir.to_str().unwrap(), address], &[])
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Restarts the stack on the same ports (mail, users and list kept).
    pub fn restart(&self) {
        let mut env: Vec<(&str, &str)> = Vec::new();
        for k in [
            "IMAP_PORT",
            "IMAPS_PORT",
            "SMTP_PORT",
            "SMTPS_PORT",
            "LMTP_PORT",
        ] {
            if let Some(v) = self.env.get(k) {
                env.push((k, v.as_str()));
            }
        }
        run(&["start", self.dir.to_str().unwrap()], &env).unwrap_or_else(|e| panic!("{e}"));
    }

    pub fn stop(&self) {
        let _ = run(&["stop", self.dir.to_str().unwrap()], &[]);
    }

    pub fn cert(&self) -> PathBuf {
        self.dir.join("cert.pem")
    }

    /// Files in a user's Maildir (new and cur), read whole.
    pub fn maildir(&self, user: &str) -> Vec<String> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let d = self.dir.join(format!("mail/{user}/Maildir/{sub}"));
            if let Ok(rd) = std::fs::read_dir(&d) {
                let mut names: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
                names.sort();
                for p in names {
                    if let Ok(t) = std::fs::read(&p) {
                        out.push(String::from_utf8_lossy(&t).replace("\r\n", "\n"));
                    }
                }
            }
        }
        out
    }

    pub fn log_tail(&self) -> String {
        let mut s = String::new();
        for f in ["log", "postfix.log", "dovecot.log"] {
            if let Ok(t) = std::fs::read_to_string(self.dir.join(f)) {
                let lines: Vec<&str> = t.lines().collect();
                let from = lines.len().saturating_sub(30);
                s.push_str(&format!("--- {f}\n{}\n", lines[from..].join("\n")));
            }
        }
        s
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.stop();
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Sends one raw message over plain SMTP on loopback (what a player's
/// mail client does), returning when the server accepted it.
pub fn smtp_send(port: u16, from: &str, to: &[&str], raw: &str) {
    use std::io::{BufRead, BufReader, Write};
    let s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_nodelay(true).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut w = s;
    let expect = |code: &str, r: &mut BufReader<std::net::TcpStream>| loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        assert!(
            line.starts_with(code),
            "SMTP: expected {code}, got {line:?}"
        );
        if line.as_bytes().get(3) == Some(&b' ') {
            break;
        }
    };
    expect("220", &mut r);
    write!(w, "EHLO player.example.test\r\n").unwrap();
    expect("250", &mut r);
    write!(w, "MAIL FROM:<{from}>\r\n").unwrap();
    expect("250", &mut r);
    for t in to {
        write!(w, "RCPT TO:<{t}>\r\n").unwrap();
        expect("250", &mut r);
    }
    write!(w, "DATA\r\n").unwrap();
    expect("354", &mut r);
    let mut data = raw.replace("\r\n", "\n").replace('\n', "\r\n");
    if !data.ends_with("\r\n") {
        data.push_str("\r\n");
    }
    // Dot-stuffing.
    let data = data.replace("\r\n.", "\r\n..");
    w.write_all(data.as_bytes()).unwrap();
    write!(w, ".\r\n").unwrap();
    expect("250", &mut r);
    write!(w, "QUIT\r\n").unwrap();
}

/// Asserts that a mail the bot sent (as its outbox holds it) reads as a
/// person expects (issue 39): one signature, at its end, and no sentence
/// said twice (`mornbot::mail::render::faults`). Every harness runs it on
/// every mail it sees.
pub fn assert_reads_well(raw: &str) {
    let text = mornbot::mail::attach::as_read(&raw.replace("\r\n", "\n"));
    // A single part is read as a client shows it: its transfer encoding
    // (quoted-printable, for a reply that echoes a non-ASCII name) undone.
    let single = mail_parser::MessageParser::default()
        .parse(text.as_bytes())
        .filter(|m| m.parts.len() == 1)
        .and_then(|m| m.body_text(0).map(|b| b.replace("\r\n", "\n")));
    let body = single.unwrap_or_else(|| text.split_once("\n\n").map_or("", |(_, b)| b).to_string());
    let faults = mornbot::mail::render::faults(&as_written(&body));
    assert!(faults.is_empty(), "{faults:#?}\n{text}");
}

/// A mail's text as the bot wrote it, from the text a reader's client
/// shows: without the lounge's footer (`live::FOOTER`, which mlmmj adds
/// to each post) and the `[attachment: ...]` lines of its picture.
pub fn as_written(body: &str) -> String {
    let body = body.split(live::FOOTER).next().unwrap_or_default();
    body.lines()
        .filter(|l| !l.starts_with("[attachment: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The text of a raw mail the bot sent, once [`assert_reads_well`] has
/// checked it.
pub fn read_well(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw).into_owned();
    assert_reads_well(&text);
    text
}

/// Polls until `f` returns Some, or panics after `limit` with `what`.
pub fn wait_until<T>(limit: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let t = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        if t.elapsed() > limit {
            panic!("timed out after {limit:?} waiting for {what}");
        }
        // Not faster: a poll may read a mailbox of verdicts with their
        // pictures, and the daemon under test needs the cores.
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A header's value in a raw message (first occurrence, unfolded).
pub fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let head = raw.split("\n\n").next().unwrap_or("");
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

pub const PLAYERS: [&str; 3] = ["rushton", "warren", "acton"];

/// The stack with the bot's and players' mailboxes and the lounge list.
pub fn lounge() -> Option<Stack> {
    lounge_with(&[])
}

/// [`lounge`] with extra `scripts/mailstack` environment.
pub fn lounge_with(env: &[(&str, &str)]) -> Option<Stack> {
    let s = Stack::start_with(env)?;
    for u in ["bot"].iter().chain(PLAYERS.iter()) {
        s.adduser(u, &format!("{u}-pw"));
        s.subscribe(&format!("{u}@example.test"));
    }
    Some(s)
}

pub fn config(s: &Stack, data: &Path, extra: &str) -> PathBuf {
    config_bot(s, data, "", extra)
}

/// [`config`], with `bot` added to its `[bot]` table.
pub fn config_bot(s: &Stack, data: &Path, bot: &str, extra: &str) -> PathBuf {
    let pw = s.dir.join("bot.pass");
    std::fs::write(&pw, "bot-pw\n").unwrap();
    let mut cfg = format!(
        r#"[bot]
address = "bot@example.test"
lounge = "lounge@example.test"
data_dir = "{data}"
{bot}
[imap]
host = "127.0.0.1"
port = {imap}
security = "starttls"
user = "bot"
password_file = "{pw}"
wait = "poll"
poll_ms = 20
ca_file = "{cert}"

[smtp]
host = "127.0.0.1"
port = {smtp}
security = "starttls"
user = "bot"
password_file = "{pw}"
ca_file = "{cert}"

[[game]]
tag = "MN1"
start = "Monday 0900"
"#,
        data = data.display(),
        bot = bot,
        imap = s.port("IMAP_PORT"),
        smtp = s.port("SMTP_PORT"),
        pw = pw.display(),
        cert = s.cert().display(),
    );
    for p in PLAYERS {
        let name = format!("{}{}", p[..1].to_uppercase(), &p[1..]);
        cfg.push_str(&format!(
            "[[game.player]]\nname = \"{name}\"\naddress = \"{p}@example.test\"\n"
        ));
    }
    cfg.push_str(extra);
    let path = s.dir.join("bot.toml");
    std::fs::write(&path, cfg).unwrap();
    path
}

pub struct Daemon {
    pub child: Child,
}

impl Daemon {
    pub fn start(cfg: &Path, log: &Path) -> Daemon {
        Daemon::start_with(cfg, log, &[])
    }

    pub fn start_with(cfg: &Path, log: &Path, env: &[(&str, &str)]) -> Daemon {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .args(["run", "--config", cfg.to_str().unwrap()])
            .env("MORNBOT_LOG", "info")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        Daemon { child }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, and the exit status.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        wait_until(
            Duration::from_secs(20),
            "the daemon to exit on SIGTERM",
            || self.child.try_wait().unwrap(),
        )
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Runs a future to completion on a private current-thread runtime.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// A plain IMAP session on loopback as `user` (password `<user>-pw`).
pub async fn imap_login(port: u16, user: &str) -> async_imap::Session<tokio::net::TcpStream> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    tcp.set_nodelay(true).unwrap();
    let mut client = async_imap::Client::new(tcp);
    client.read_response().await.unwrap();
    client
        .login(user, format!("{user}-pw"))
        .await
        .map_err(|(e, _)| e)
        .unwrap()
}

/// Every message of a user's INBOX, read over IMAP, as a reader's client
/// shows its text (`mornbot::mail::attach::as_read`: a verdict's picture
/// as an `[attachment: ...]` line).
pub fn imap_all(port: u16, user: &str) -> Vec<String> {
    imap_folder(port, user, "INBOX")
}

/// Every message of one of a user's folders, read over IMAP, as a reader's
/// client shows its text.
pub fn imap_folder(port: u16, user: &str, folder: &str) -> Vec<String> {
    imap_folder_raw(port, user, folder)
        .iter()
        .map(|m| mornbot::mail::attach::as_read(m))
        .collect()
}

/// Every message of one of a user's folders, read over IMAP, as stored
/// (line ends as `\n`).
pub fn imap_folder_raw(port: u16, user: &str, folder: &str) -> Vec<String> {
    imap_search_raw(port, user, folder, None)
}

/// The messages of a user's folder that an IMAP SEARCH matches (all of
/// them without criteria), as stored. The server picks them: a poll for
/// one reply does not fetch and parse a whole game's verdicts, pictures
/// and all, every 20 ms.
pub fn imap_search_raw(port: u16, user: &str, folder: &str, search: Option<&str>) -> Vec<String> {
    block_on(async {
        use futures_util::TryStreamExt;
        let mut s = imap_login(port, user).await;
        let mb = s.select(folder).await.unwrap();
        let mut out = Vec::new();
        let set = match search {
            None => (mb.exists > 0).then(|| "1:*".to_string()),
            Some(q) => {
                let mut seqs: Vec<u32> = s.search(q).await.unwrap().into_iter().collect();
                seqs.sort_unstable();
                (!seqs.is_empty()).then(|| {
                    seqs.iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                })
            }
        };
        if let Some(set) = set {
            let msgs: Vec<_> = s
                .fetch(set, "BODY.PEEK[]")
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            for m in msgs {
                if let Some(b) = m.body() {
                    out.push(String::from_utf8_lossy(b).replace("\r\n", "\n"));
                }
            }
        }
        let _ = s.logout().await;
        out
    })
}

pub fn to_test_domain(s: &str) -> String {
    s.replace("@example.org", "@example.test")
        .replace("lounge@localhost", "lounge@example.test")
        .replace("mornbot@localhost", "bot@example.test")
}

/// The reply to `id` in `user`'s mailbox, if it arrived.
pub fn reply_to(port: u16, user: &str, id: &str) -> Option<String> {
    let search = format!("HEADER In-Reply-To \"{id}\"");
    imap_search_raw(port, user, "INBOX", Some(&search))
        .iter()
        .map(|m| mornbot::mail::attach::as_read(m))
        .find(|m| header(m, "In-Reply-To").is_some_and(|v| v.contains(id)))
}

impl Stack {
    /// Whether the bot's Maildir holds `id` flagged Seen.
    pub fn maildir_seen(&self, user: &str, id: &str) -> bool {
        let cur = self.dir.join(format!("mail/{user}/Maildir/cur"));
        std::fs::read_dir(cur).is_ok_and(|rd| {
            rd.filter_map(|e| e.ok()).any(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.rsplit_once(":2,")
                    .is_some_and(|(_, f)| f.contains('S'))
                    && std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(id))
            })
        })
    }
}

impl Stack {
    /// The lounge's list directory (mlmmj).
    pub fn list_dir(&self) -> PathBuf {
        self.dir.join("lists/lounge")
    }

    /// Runs mlmmj's `prog` on the lounge as the list's owner (vmail), by
    /// full path as mlmmj insists.
    fn mlmmj(&self, prog: &str, args: &[&str]) {
        let list = self.list_dir();
        let out = Command::new("runuser")
            .args(["-u", "vmail", "--", &format!("/usr/bin/{prog}"), "-L"])
            .arg(&list)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{prog} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Makes `address` (a subscriber) take the lounge as mlmmj's digest
    /// (`true`) or post by post (`false`).
    pub fn digest_mode(&self, address: &str, digest: bool) {
        let (from, to) = if digest { ("-N", "-d") } else { ("-d", "") };
        self.mlmmj("mlmmj-unsub", &["-a", address, from, "-q", "-s"]);
        let mut sub = vec!["-a", address, "-f", "-q", "-s"];
        if !to.is_empty() {
            sub.push(to);
        }
        self.mlmmj("mlmmj-sub", &sub);
    }

    /// How many posts the lounge has archived.
    pub fn list_index(&self) -> u64 {
        std::fs::read_to_string(self.list_dir().join("index"))
            .map(|s| s.trim().parse().unwrap_or(0))
            .unwrap_or(0)
    }

    /// Has mlmmj send its digest now (mlmmj-maintd, the digest's
    /// interval run out) of the posts archived after `since`, once the
    /// posts with Message-IDs `ids` are among them.
    pub fn send_digest(&self, since: u64, ids: &[&str]) {
        self.wait_archived(since, ids);
        let an_hour_ago = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            - 3600;
        let l = self.list_dir();
        std::fs::write(l.join("lastdigest"), format!("{since}:{an_hour_ago}:1")).unwrap();
        std::fs::write(l.join("control/digestinterval"), "1\n").unwrap();
        let _ = Command::new("chown")
            .arg("vmail:vmail")
            .arg(l.join("lastdigest"))
            .arg(l.join("control/digestinterval"))
            .status();
        self.mlmmj("mlmmj-maintd", &["-F"]);
    }

    /// Waits until the lounge has archived (and so numbered, in the order
    /// its digest lists them) the posts `ids`, after its `since`th.
    pub fn wait_archived(&self, since: u64, ids: &[&str]) {
        let archived = |id: &str| {
            self.archived_after(since)
                .iter()
                .any(|m| header(m, "Message-ID") == Some(&format!("<{id}>")))
        };
        wait_until(
            Duration::from_secs(30),
            "the list to archive the posts",
            || ids.iter().all(|id| archived(id)).then_some(()),
        );
    }

    /// The lounge's posts archived after its `since`th, read whole.
    pub fn archived_after(&self, since: u64) -> Vec<String> {
        (since + 1..=self.list_index())
            .filter_map(|i| std::fs::read(self.list_dir().join(format!("archive/{i}"))).ok())
            .map(|t| String::from_utf8_lossy(&t).replace("\r\n", "\n"))
            .collect()
    }
}
