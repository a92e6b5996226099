//! End to end against real servers: Dovecot (IMAP), Postfix (SMTP) and an
//! mlmmj list, started by scripts/mailstack on loopback. Three scripted
//! players post to the lounge list over SMTP; the daemon (the real binary)
//! reads the lounge over IMAP and replies over SMTP; replies are read back
//! over IMAP from the players' mailboxes.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mornbot::cli::demo::{self, Body, Expect};
use support::{header, smtp_send, wait_until, Stack};

const PLAYERS: [&str; 3] = ["rushton", "warren", "acton"];

/// The stack with the bot's and players' mailboxes and the lounge list.
fn lounge() -> Option<Stack> {
    let s = Stack::start()?;
    for u in ["bot"].iter().chain(PLAYERS.iter()) {
        s.adduser(u, &format!("{u}-pw"));
        s.subscribe(&format!("{u}@example.test"));
    }
    Some(s)
}

fn config(s: &Stack, data: &Path) -> PathBuf {
    let pw = s.dir.join("bot.pass");
    std::fs::write(&pw, "bot-pw\n").unwrap();
    let mut cfg = format!(
        r#"[bot]
address = "bot@example.test"
lounge = "lounge@example.test"
data_dir = "{data}"

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
    let path = s.dir.join("bot.toml");
    std::fs::write(&path, cfg).unwrap();
    path
}

struct Daemon {
    child: Child,
}

impl Daemon {
    fn start(cfg: &Path, log: &Path) -> Daemon {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_mornbot"))
            .args(["run", "--config", cfg.to_str().unwrap()])
            .env("MORNBOT_LOG", "info")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        Daemon { child }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, and the exit status.
    fn terminate(&mut self) -> std::process::ExitStatus {
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

/// Every message of a user's INBOX, read over IMAP.
fn imap_all(port: u16, user: &str) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use futures_util::TryStreamExt;
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await.unwrap();
        let mut s = client
            .login(user, format!("{user}-pw"))
            .await
            .map_err(|(e, _)| e)
            .unwrap();
        let mb = s.select("INBOX").await.unwrap();
        let mut out = Vec::new();
        if mb.exists > 0 {
            let msgs: Vec<_> = s
                .fetch("1:*", "BODY.PEEK[]")
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

fn to_test_domain(s: &str) -> String {
    s.replace("@example.org", "@example.test")
        .replace("lounge@localhost", "lounge@example.test")
        .replace("mornbot@localhost", "bot@example.test")
}

/// The reply to `id` in `user`'s mailbox, if it arrived.
fn reply_to(port: u16, user: &str, id: &str) -> Option<String> {
    imap_all(port, user)
        .into_iter()
        .find(|m| header(m, "In-Reply-To").is_some_and(|v| v.contains(id)))
}

fn html_only(raw: &str, play: &str) -> String {
    let head = raw.split("\n\n").next().unwrap();
    let head: String = head
        .lines()
        .filter(|l| !l.starts_with("Content-Type"))
        .map(|l| format!("{l}\n"))
        .collect();
    format!(
        "{head}MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n\
         <html><body><p>My turn:</p><p>{}</p></body></html>\n",
        play.replace('&', "&amp;")
    )
}

#[test]
fn a_scripted_game_by_mail_against_real_servers() {
    let Some(stack) = lounge() else { return };
    let data = stack.dir.join("bot-data");
    let cfg = config(&stack, &data);
    let log = stack.dir.join("mornbot.log");
    let mut daemon = Daemon::start(&cfg, &log);
    let imap = stack.port("IMAP_PORT");
    let smtp = stack.port("SMTP_PORT");
    let mut gsds: Vec<String> = Vec::new();
    let mut last_verdict: Option<String> = None;
    let mut accepted = 0;
    let steps = demo::script();
    for (i, step) in steps.iter().enumerate() {
        let (id, raw) = demo::mail(i, step, &gsds);
        let id = to_test_domain(&id);
        let mut raw = to_test_domain(&String::from_utf8(raw).unwrap().replace("\r\n", "\n"));
        let from = to_test_domain(step.from);
        let user = from.split('@').next().unwrap().to_string();
        let play = match &step.body {
            Body::Text(t) => t.lines().last().unwrap_or("").to_string(),
            Body::GsdPlus { play, .. } => play.to_string(),
        };
        // Vary the mail forms: an HTML-only turn, and a quoted reply to
        // the last verdict with the play below the quote.
        if play == "Warren : Balham (NT)" {
            raw = html_only(&raw, &play);
        }
        if play == "Rushton : Leytonstone (CN)" {
            let prev = last_verdict.clone().expect("a verdict before");
            let prev_id = header(&prev, "Message-ID").unwrap().to_string();
            let quoted: String = prev
                .split("\n\n")
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n\n")
                .lines()
                .map(|l| format!("> {l}\n"))
                .collect();
            raw = raw.replacen(
                "Subject: [MN1] my turn\n",
                &format!("Subject: Re: [lounge] [MN1] Turn\nIn-Reply-To: {prev_id}\nReferences: {prev_id}\n"),
                1,
            );
            raw = raw.replacen(
                &format!("\n\n{play}\n"),
                &format!("\n\nOn Monday, mornbot wrote:\n{quoted}\n{play}\n\n-- \nRushton\nRushton : Pass\n"),
                1,
            );
        }
        let rcpt = header(&raw, "To").unwrap().to_string();
        smtp_send(smtp, &from, &[&rcpt], &raw);
        let got = if step.expect == Expect::Ignored {
            // Judged once the bot has seen it: then no reply may come.
            wait_until(
                Duration::from_secs(30),
                "the bot to see the message",
                || {
                    let seen = stack.maildir_seen("bot", &id);
                    seen.then_some(())
                },
            );
            std::thread::sleep(Duration::from_millis(300));
            match reply_to(imap, &user, &id) {
                None => Expect::Ignored,
                Some(r) => demo::verdict_of(&r),
            }
        } else {
            let reply = wait_until(
                Duration::from_secs(30),
                &format!("a reply to step {} ({play})", i + 1),
                || reply_to(imap, &user, &id),
            );
            let v = demo::verdict_of(&reply);
            if v == Expect::Legal {
                // Lounge posts come through the list, with our headers.
                assert!(header(&reply, "List-Id").is_some(), "{reply}");
                assert_eq!(header(&reply, "Auto-Submitted"), Some("auto-replied"));
                assert_eq!(header(&reply, "X-Loop"), Some("bot@example.test"));
                gsds.push(demo::gsd_in(&reply.replace('\n', "\r\n")));
                accepted += 1;
                last_verdict = Some(reply);
            }
            v
        };
        assert_eq!(
            got,
            step.expect,
            "step {} ({play}); log:\n{}",
            i + 1,
            std::fs::read_to_string(&log).unwrap_or_default()
        );
    }
    assert!(accepted >= 30, "{accepted} turns");
    // The bot's own posts came back to it through the list and were not
    // answered: every message the bot sent answers a player's message.
    let bot_posts: Vec<String> = imap_all(imap, "rushton")
        .into_iter()
        .filter(|m| header(m, "From").is_some_and(|f| f.contains("bot@example.test")))
        .collect();
    for m in &bot_posts {
        let irt = header(m, "In-Reply-To").unwrap_or("");
        assert!(irt.contains("demo-"), "a reply to something else: {m}");
    }
    assert!(daemon.terminate().success(), "SIGTERM exits 0");
}

impl Stack {
    /// Whether the bot's Maildir holds `id` flagged Seen.
    fn maildir_seen(&self, user: &str, id: &str) -> bool {
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
