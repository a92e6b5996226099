//! Helpers of `tests/kinds_stack_oneday.rs`: the store read as the
//! operator reads it (the seed, the draws, the log), the leak checker over
//! the bot's outbox, and the end's count of every mailbox.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use mornbot::kinds::oneday::State;

use crate::oneday_plan::TAG;
use crate::oneday_support::names_only;
use crate::support::header;
use crate::support::live::Live;
use crate::support::stack_mail::draws_of;

/// The bot's store, read-only.
pub fn db(l: &Live) -> rusqlite::Connection {
    l.db().expect("the bot's store")
}

/// The game's seed, as the operator reads it from the store.
pub fn seed_hex(l: &Live) -> String {
    db(l)
        .query_row("SELECT seed FROM dice WHERE game = ?1", [TAG], |r| r.get(0))
        .unwrap()
}

/// The kind's draws (the deck's shuffle, the reshuffles), START's order
/// left out.
pub fn kind_draws(l: &Live) -> Vec<(u64, String, u32, u32)> {
    draws_of(l, TAG)
        .into_iter()
        .filter(|d| d.1.starts_with("deck-") || d.1.starts_with("reshuffle-"))
        .collect()
}

/// The game's log as the store records it: (player, line).
pub fn stored_log(l: &Live) -> Vec<(String, String)> {
    let db = db(l);
    let mut q = db
        .prepare("SELECT player, play FROM turns WHERE game = ?1 ORDER BY n")
        .unwrap();
    q.query_map([TAG], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// A mail's subject and text parts (its pictures left out), decoded.
pub fn text_of(raw: &str) -> String {
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .expect("a mail");
    let mut out = m.subject().unwrap_or("").to_string();
    for i in 0..m.text_body.len() {
        if let Some(t) = m.body_text(i) {
            out.push('\n');
            out.push_str(&t);
        }
    }
    out
}

/// The leak checker: what the bot queued is read by its reader at the
/// moment it is queued.
pub struct Leaks {
    /// The outbox rows checked so far.
    last: i64,
    /// The players by the local part of their address.
    pub players: BTreeMap<String, String>,
    /// The Message-IDs of the mails checked, and whom each private mail
    /// was for.
    pub checked: BTreeMap<String, Option<String>>,
    /// How many of OD1's mails were read, by reader.
    pub read: BTreeMap<String, usize>,
}

impl Leaks {
    pub fn new(players: &[(String, String)]) -> Leaks {
        Leaks {
            last: 0,
            players: players.iter().cloned().collect(),
            checked: BTreeMap::new(),
            read: BTreeMap::new(),
        }
    }

    /// The reader of a mail to `to`: a player of OD1 alone, or the public.
    /// The bot's blind copy of a private mail (RULINGS OD16) is the
    /// operator's, and reads nothing new.
    fn reader(&self, to: &[String]) -> Option<String> {
        let to: Vec<&String> = to.iter().filter(|a| *a != "bot@example.test").collect();
        match to[..] {
            [one] => one
                .strip_suffix("@example.test")
                .and_then(|w| self.players.get(w))
                .cloned(),
            _ => None,
        }
    }

    /// Reads every mail queued since the last check against `s`, the
    /// game as it stands now; panics on a leak.
    pub fn check(&mut self, l: &Live, s: &State) {
        let db = db(l);
        let mut q = db
            .prepare("SELECT id, recipients, raw FROM outbox WHERE id > ?1 ORDER BY id")
            .unwrap();
        let rows: Vec<(i64, String, Vec<u8>)> = q
            .query_map([self.last], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (id, to, raw) in rows {
            self.last = id;
            let raw = String::from_utf8_lossy(&raw).replace("\r\n", "\n");
            let to: Vec<String> = to.split(',').map(|t| t.trim().to_string()).collect();
            let mid = header(&raw, "Message-ID").unwrap_or("").to_string();
            let text = text_of(&raw);
            let reader = self.reader(&to);
            let private = text
                .lines()
                .next()
                .is_some_and(|s| s.contains("alone: your cards"));
            self.checked
                .insert(mid, private.then(|| reader.clone().expect("a player")));
            // OD1's mails only: the other games name stations of their own.
            if !text.contains(TAG) {
                continue;
            }
            *self
                .read
                .entry(reader.clone().unwrap_or("the public".into()))
                .or_insert(0) += 1;
            let visible: BTreeSet<_> = s.visible(reader.as_deref());
            if let Err(e) = names_only(&text, &visible) {
                panic!("a leak to {to:?} (read by {reader:?}): {e}");
            }
        }
    }
}

/// The bot's mails in `user`'s mailbox (read from the Maildir), by
/// Message-ID: how many copies, and whom the private ones are for.
pub fn mailbox(l: &Live, user: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for m in l.stack.maildir(user) {
        if !header(&m, "From").is_some_and(|f| f.contains("bot@example.test")) {
            continue;
        }
        let id = header(&m, "Message-ID").unwrap_or("").to_string();
        *out.entry(id).or_insert(0) += 1;
    }
    out
}

/// How many private mails ("For <name> alone") `user`'s mailbox holds.
pub fn privates_in(l: &Live, user: &str, name: &str) -> usize {
    l.stack
        .maildir(user)
        .iter()
        .filter(|m| header(m, "Subject").is_some_and(|s| s.contains(&format!("For {name} alone"))))
        .count()
}

/// The Message-IDs of the private mails ("For <name> alone") in
/// `user`'s mailbox, with how many copies of each.
pub fn private_ids(l: &Live, user: &str, name: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for m in l.stack.maildir(user) {
        if header(&m, "Subject").is_some_and(|s| s.contains(&format!("For {name} alone"))) {
            *out.entry(header(&m, "Message-ID").unwrap_or("").to_string())
                .or_insert(0) += 1;
        }
    }
    out
}

/// Every mailbox's mails of the bot were checked when queued; each
/// private mail is in its player's mailbox once and in no other but the
/// bot's own.
pub fn mailboxes_checked(l: &Live, leaks: &Leaks, users: &[&str]) {
    for u in users {
        for (id, n) in mailbox(l, u) {
            let Some(whose) = leaks.checked.get(&id) else {
                panic!("{u} holds {id}, a mail the leak checker never read");
            };
            assert_eq!(n, 1, "{u}: {id} delivered {n} times");
            if let Some(p) = whose {
                assert_eq!(
                    leaks.players.get(*u),
                    Some(p),
                    "{p}'s private mail {id} in {u}'s mailbox"
                );
            }
        }
    }
    let bot = mailbox(l, "bot");
    for (id, whose) in &leaks.checked {
        let Some(p) = whose else { continue };
        let (who, _) = leaks.players.iter().find(|(_, n)| *n == p).unwrap();
        assert_eq!(
            mailbox(l, who).get(id),
            Some(&1),
            "{p}'s private mail {id} not in {who}'s mailbox once"
        );
        // Its blind copy, which confirms it (RULINGS OD16), read by the
        // bot as its own mail and not answered.
        assert_eq!(
            bot.get(id),
            Some(&1),
            "the bot's copy of {p}'s private mail {id}"
        );
        let bare = id.trim_matches(|c| c == '<' || c == '>');
        let kind: String = db(l)
            .query_row(
                "SELECT kind FROM processed WHERE message_id = ?1",
                [bare],
                |r| r.get(0),
            )
            .unwrap_or_else(|e| panic!("the bot's copy of {id} not read: {e}"));
        assert_eq!(kind, "auto", "the bot's copy of {id}");
    }
    let to_bot: i64 = db(l)
        .query_row(
            "SELECT count(*) FROM outbox WHERE recipients = 'bot@example.test'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(to_bot, 0, "a mail to the bot alone: a copy answered");
}

/// How many private mails the mirror's log means each player gets: one
/// at the start, one for each line that changes eir secrets.
pub fn privates_expected(
    names: &[String],
    positions: &[mornbot::kinds::Position],
) -> BTreeMap<String, usize> {
    names
        .iter()
        .map(|n| {
            let changes = positions
                .windows(2)
                .filter(|w| w[0].secrets(n) != w[1].secrets(n))
                .count();
            (n.clone(), 1 + changes)
        })
        .collect()
}

/// HTML's escapes of the characters station names hold, undone.
pub fn unescape(html: &str) -> String {
    html.replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The crash window RULINGS OD16 is for, made certain while the daemon is
/// down: `name`'s newest private mail, when the kill left it unsent, is
/// submitted over SMTP as the sender submits it (to its player and, blind,
/// to the bot) and marked attempted, as a kill between the server's
/// acceptance and the `sent` mark leaves it. Its outbox row, or none when
/// the daemon had sent it before the kill.
pub fn cut_short_private(l: &Live, name: &str) -> Option<i64> {
    let db = rusqlite::Connection::open(l.stack.dir.join("bot-data/mornbot.db")).unwrap();
    let subject = format!("%For {name} alone%");
    let row: Option<(i64, String, Vec<u8>)> = db
        .query_row(
            "SELECT id, recipients, raw FROM outbox WHERE sent_at IS NULL
             AND CAST(raw AS TEXT) LIKE ?1 ORDER BY id DESC LIMIT 1",
            [subject],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .ok();
    let (id, to, raw) = row?;
    let to: Vec<&str> = to.split(',').collect();
    assert!(to.contains(&"bot@example.test"), "no blind copy: {to:?}");
    crate::support::smtp_send(
        l.smtp,
        "bot@example.test",
        &to,
        &String::from_utf8_lossy(&raw),
    );
    db.execute(
        "UPDATE outbox SET attempt_started_at = coalesce(attempt_started_at, 1) WHERE id = ?1",
        [id],
    )
    .unwrap();
    Some(id)
}

/// Outbox row `id`'s delivery: (sent, attempts the sender counted).
pub fn delivery(l: &Live, id: i64) -> (bool, u32) {
    db(l)
        .query_row(
            "SELECT sent_at IS NOT NULL, attempts FROM outbox WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

/// SIGKILLs the daemon as soon as it has committed mail `id`, polling its
/// store every 2 ms (not [`Live::processed`]'s 100: the replies the commit
/// queued should still be unsent, as a kill between judging and sending
/// leaves them).
pub fn kill_once_processed(l: &mut Live, id: &str) {
    let db = db(l);
    let t = std::time::Instant::now();
    let seen = |db: &rusqlite::Connection| {
        db.query_row(
            "SELECT 1 FROM processed WHERE message_id = ?1",
            [id],
            |_| Ok(()),
        )
        .is_ok()
    };
    while !seen(&db) {
        assert!(
            t.elapsed() < std::time::Duration::from_secs(30),
            "the bot never processed {id}"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    l.daemon.kill();
}

/// Waits until the bot has read its blind copy of every private mail the
/// leak checker has seen (RULINGS OD16).
pub fn copies_read(l: &Live, leaks: &Leaks) {
    let ids: Vec<String> = leaks
        .checked
        .iter()
        .filter(|(_, whose)| whose.is_some())
        .map(|(id, _)| id.trim_matches(|c| c == '<' || c == '>').to_string())
        .collect();
    crate::support::wait_until(
        std::time::Duration::from_secs(60),
        "the bot to read its copy of every private mail",
        || {
            let db = db(l);
            ids.iter()
                .all(|id| {
                    db.query_row(
                        "SELECT 1 FROM processed WHERE message_id = ?1",
                        [id],
                        |_| Ok(()),
                    )
                    .is_ok()
                })
                .then_some(())
        },
    );
}
