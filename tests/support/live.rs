//! A lounge with the daemon running against the real stack: players post
//! through Postfix and mlmmj, read what arrives in their Dovecot mailboxes,
//! and the bot's store (read-only) says what it made of each message and
//! every mail it sent, so that a test can also prove a mail was *not* sent.

use std::path::PathBuf;
use std::time::Duration;

use super::{header, imap_all, lounge_with, smtp_send, wait_until, Daemon, Stack};

/// A Mailman-style footer, as the lounge adds it to every post.
pub const FOOTER: &str = "_______________________________________________\n\
    lounge mailing list\nlounge@example.test\n\
    https://lists.example.test/mailman/listinfo/lounge\n";

/// The 20-hex-digit token in a join's confirmation request.
pub fn token(mail: &str) -> String {
    let text = mail.replace("=\n", "");
    let i = text.find("CONFIRM ").expect("a CONFIRM line");
    let t: String = text[i + 8..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    assert_eq!(t.len(), 20, "{text}");
    t
}

/// The stack, its lounge (with [`FOOTER`]) and the daemon.
pub struct Live {
    pub stack: Stack,
    pub daemon: Daemon,
    pub smtp: u16,
    pub imap: u16,
    pub log: PathBuf,
    n: usize,
}

impl Live {
    /// The lounge with the bot running, `extra` added to its config and
    /// `env` to its environment.
    pub fn start(extra: &str, env: &[(&str, &str)]) -> Option<Live> {
        Live::start_bot("", extra, env)
    }

    /// [`Live::start`], with `bot` added to the config's `[bot]` table.
    pub fn start_bot(bot: &str, extra: &str, env: &[(&str, &str)]) -> Option<Live> {
        let stack = lounge_with(&[])?;
        std::fs::write(stack.list_dir().join("control/footer"), FOOTER).unwrap();
        let cfg = super::config_bot(&stack, &stack.dir.join("bot-data"), bot, extra);
        let log = stack.dir.join("mornbot.log");
        let daemon = Daemon::start_with(&cfg, &log, env);
        Some(Live {
            smtp: stack.port("SMTP_PORT"),
            imap: stack.port("IMAP_PORT"),
            stack,
            daemon,
            log,
            n: 0,
        })
    }

    /// Sends a mail from `who@example.test` to `rcpt`: `head` (From, To,
    /// Subject and any other header but the Message-ID), then `body`;
    /// returns its Message-ID.
    pub fn send(&mut self, who: &str, rcpt: &str, head: &str, body: &str) -> String {
        self.n += 1;
        let id = format!("m{}@player.example.test", self.n);
        let raw = format!("{head}\nMessage-ID: <{id}>\n\n{body}\n");
        smtp_send(self.smtp, &format!("{who}@example.test"), &[rcpt], &raw);
        id
    }

    /// A post by `who` to the lounge.
    pub fn post(&mut self, who: &str, subject: &str, body: &str) -> String {
        let head = format!("From: {who}@example.test\nTo: lounge@example.test\nSubject: {subject}");
        self.send(who, "lounge@example.test", &head, body)
    }

    /// A post by `who` to the lounge answering `id` (on its thread).
    pub fn answer(&mut self, who: &str, id: &str, body: &str) -> String {
        let head = format!(
            "From: {who}@example.test\nTo: lounge@example.test\n\
             Subject: Re: [MN1] Game State\nIn-Reply-To: <{id}>\nReferences: <{id}>"
        );
        self.send(who, "lounge@example.test", &head, body)
    }

    /// A mail from `who` to the bot alone.
    pub fn mail_bot(&mut self, who: &str, subject: &str, body: &str) -> String {
        let head = format!("From: {who}@example.test\nTo: bot@example.test\nSubject: {subject}");
        self.send(who, "bot@example.test", &head, body)
    }

    /// Every mail in `user`'s INBOX (IMAP).
    pub fn mailbox(&self, user: &str) -> Vec<String> {
        imap_all(self.imap, user)
    }

    /// The mails in `user`'s INBOX answering `id` (In-Reply-To).
    pub fn answers(&self, user: &str, id: &str) -> Vec<String> {
        self.mailbox(user)
            .into_iter()
            .filter(|m| header(m, "In-Reply-To").is_some_and(|v| v.contains(id)))
            .collect()
    }

    /// Waits for the first mail in `user`'s INBOX for which `f` holds.
    pub fn wait_for(&self, user: &str, what: &str, f: impl Fn(&str) -> bool) -> String {
        wait_until(Duration::from_secs(60), what, || {
            self.mailbox(user).into_iter().find(|m| f(m))
        })
    }

    /// Waits for the reply to `id` in `user`'s INBOX.
    pub fn reply(&self, user: &str, id: &str) -> String {
        let what = format!("{user}'s reply to {id}\nlog:\n{}", self.log());
        wait_until(Duration::from_secs(30), &what, || {
            self.answers(user, id).into_iter().next()
        })
    }

    /// The daemon's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The bot's store, read-only, once the daemon has created it.
    pub fn db(&self) -> Option<rusqlite::Connection> {
        rusqlite::Connection::open_with_flags(
            self.stack.dir.join("bot-data/mornbot.db"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .ok()
    }

    /// What the bot made of message `id` (its kind and summary), once it
    /// has been committed.
    pub fn processed(&self, id: &str) -> (String, String) {
        let what = format!("the bot to process {id}\nlog:\n{}", self.log());
        wait_until(Duration::from_secs(30), &what, || {
            self.db()?
                .query_row(
                    "SELECT kind, summary FROM processed WHERE message_id = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .ok()
        })
    }

    /// Every mail the bot has queued or sent: its recipients and text.
    pub fn sent(&self) -> Vec<(Vec<String>, String)> {
        let db = self.db().expect("the bot's store");
        let mut q = db
            .prepare("SELECT recipients, raw FROM outbox ORDER BY id")
            .unwrap();
        q.query_map([], |r| {
            let to: String = r.get(0)?;
            let raw: Vec<u8> = r.get(1)?;
            Ok((
                to.split(',').map(str::to_string).collect(),
                String::from_utf8_lossy(&raw).replace("\r\n", "\n"),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    /// How many mails the bot has queued or sent whose text holds `text`
    /// (0 before the store exists); cheap enough to poll.
    pub fn queued_with(&self, text: &str) -> usize {
        self.db()
            .and_then(|db| {
                db.query_row(
                    "SELECT count(*) FROM outbox WHERE instr(CAST(raw AS TEXT), ?1) > 0",
                    [text],
                    |r| r.get::<_, i64>(0),
                )
                .ok()
            })
            .map_or(0, |n| n as usize)
    }

    /// The mails the bot sent answering `id` (In-Reply-To), once `id` is
    /// processed.
    pub fn sent_answering(&self, id: &str) -> Vec<(Vec<String>, String)> {
        self.processed(id);
        self.sent()
            .into_iter()
            .filter(|(_, m)| header(m, "In-Reply-To").is_some_and(|v| v.contains(id)))
            .collect()
    }
}
