//! Helpers of the tests that play a hosted game by real mail over the
//! loopback stack (`tests/kinds_stack.rs`, `tests/kinds_stack_players.rs`,
//! `tests/kinds_stack_build.rs`, `tests/kinds_stack_moneyrun.rs`,
//! `tests/kinds_stack_oneday.rs`): waiting for answers, reading the lounge
//! as a subscriber reads it, joining, killing and restarting the daemon,
//! the win and the seed revealed, the dice's draws and `verify-dice`, and
//! counting at the end that every mail was answered exactly once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::live::Live;
use super::{assert_reads_well, header, imap_search_raw, Daemon};

/// A mail's text with quoted-printable soft breaks undone, on one line.
pub fn flat(raw: &str) -> String {
    raw.replace("\r\n", "\n")
        .replace("=\n", "")
        .replace("=3D", "=")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last lines of the daemon's log, for a failure's message.
pub fn log_tail(l: &Live) -> String {
    let log = l.log();
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// Polls until `f` returns Some, or panics after `limit` with `what` and
/// the end of the daemon's log.
pub fn wait<T>(l: &Live, limit: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let t = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            t.elapsed() < limit,
            "timed out after {limit:?} waiting for {what}; the daemon's log ends:\n{}",
            log_tail(l)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The mails in `user`'s INBOX answering `id` (In-Reply-To), as a reader's
/// client shows them; the server searches, so a poll does not fetch every
/// verdict with its picture.
pub fn answers(l: &Live, user: &str, id: &str) -> Vec<String> {
    let search = format!("HEADER In-Reply-To \"{id}\"");
    imap_search_raw(l.imap, user, "INBOX", Some(&search))
        .iter()
        .map(|m| mornbot::mail::attach::as_read(m))
        .filter(|m| header(m, "In-Reply-To").is_some_and(|v| v.contains(id)))
        .collect()
}

/// Waits for the first answer to `id` in `user`'s INBOX.
pub fn answer(l: &Live, user: &str, id: &str) -> String {
    wait(
        l,
        Duration::from_secs(60),
        &format!("{user}'s answer to {id}"),
        || answers(l, user, id).into_iter().next(),
    )
}

/// The answer to `id` posted to the lounge, as Rushton (a subscriber who
/// plays MN1 only) receives it.
pub fn in_lounge(l: &Live, id: &str) -> String {
    let m = answer(l, "rushton", id);
    assert_eq!(header(&m, "To"), Some("lounge@example.test"), "{m}");
    m
}

/// The `n` answers to `id` posted to the lounge, in either order, as
/// Rushton receives them.
pub fn all_in_lounge(l: &Live, id: &str, n: usize) -> Vec<String> {
    let got = wait(
        l,
        Duration::from_secs(60),
        &format!("{n} lounge answers to {id}"),
        || Some(answers(l, "rushton", id)).filter(|got| got.len() >= n),
    );
    for m in &got {
        assert_eq!(header(m, "To"), Some("lounge@example.test"), "{m}");
    }
    got
}

/// The answer to `id` sent to `who` alone (not through the lounge).
pub fn private(l: &Live, who: &str, id: &str) -> String {
    let m = answer(l, who, id);
    assert_eq!(
        header(&m, "To"),
        Some(format!("{who}@example.test").as_str()),
        "{m}"
    );
    m
}

/// The order of play in a start notice (`1. Cat 2. Ann 3. Bob`), of `n`
/// players.
pub fn order_of(start: &str, n: usize) -> Vec<String> {
    let from = start
        .find("The order of play")
        .unwrap_or_else(|| panic!("no order of play in {start}"));
    let start = &start[from..];
    (1..=n)
        .map(|k| {
            let at = start
                .find(&format!(" {k}. "))
                .unwrap_or_else(|| panic!("no {k}. in {start}"));
            start[at + 4..]
                .split_whitespace()
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// A player: eir name and the local part of eir address.
#[derive(Clone)]
pub struct P {
    pub name: String,
    pub who: String,
}

/// A plain-text turn.
pub fn turn(name: &str, actions: &str) -> String {
    format!("My turn.\n\n<Turn player=\"{name}\">{actions}</Turn>\n\nCheers\n")
}

/// How many copies of each of the bot's mails `user`'s mailbox holds, by
/// Message-ID.
pub fn copies(l: &Live, user: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for msg in imap_search_raw(l.imap, user, "INBOX", Some("FROM \"bot@example.test\"")) {
        if header(&msg, "From").is_some_and(|f| f.contains("bot@example.test")) {
            *m.entry(header(&msg, "Message-ID").unwrap_or("").to_string())
                .or_insert(0) += 1;
        }
    }
    m
}

/// What the run expects to be answered, and how often: every mail that
/// comes back is counted at the end.
#[derive(Default)]
pub struct Expect {
    /// (Message-ID, mailbox, how many answers it must hold).
    pub answers: Vec<(String, String, usize)>,
    /// (Message-ID, how many mails the bot queued answering it).
    pub queued: Vec<(String, usize)>,
}

impl Expect {
    /// A mail answered in the lounge alone: one notice, one copy in each
    /// subscriber's mailbox (`sender`'s too when `subscribed`).
    pub fn lounge(&mut self, id: &str, sender: &str, subscribed: bool) {
        self.answers.push((id.into(), "rushton".into(), 1));
        if sender != "rushton" {
            self.answers
                .push((id.into(), sender.into(), usize::from(subscribed)));
        }
        self.queued.push((id.into(), 1));
    }

    /// A mail answered to its sender alone.
    pub fn private(&mut self, id: &str, sender: &str) {
        self.answers.push((id.into(), sender.into(), 1));
        self.answers.push((id.into(), "rushton".into(), 0));
        self.queued.push((id.into(), 1));
    }

    /// A mail answered twice: to its sender, and in the lounge (so a
    /// subscribed sender holds both).
    pub fn both(&mut self, id: &str, sender: &str, subscribed: bool) {
        self.answers
            .push((id.into(), sender.into(), 1 + usize::from(subscribed)));
        self.answers.push((id.into(), "rushton".into(), 1));
        self.queued.push((id.into(), 2));
    }

    /// Checks, once the run is over, that every mail was answered exactly
    /// as expected, that the bot queued what it should, that none of
    /// `users` holds a mail of the bot twice (and each holds one), and that
    /// every mail the bot sent reads well.
    pub fn check(&self, l: &Live, users: &[&str]) {
        for (id, user, n) in &self.answers {
            let got = answers(l, user, id).len();
            assert_eq!(got, *n, "{user}'s answers to {id}\nlog:\n{}", log_tail(l));
        }
        for (id, n) in &self.queued {
            let sent = l.sent_answering(id);
            assert_eq!(sent.len(), *n, "the bot's mails answering {id}: {sent:#?}");
        }
        for u in users {
            let got = copies(l, u);
            assert!(!got.is_empty(), "{u} received nothing from the bot");
            for (id, n) in got {
                assert_eq!(n, 1, "{u}: {id} delivered {n} times");
            }
        }
        for (_, m) in l.sent() {
            assert_reads_well(&m);
        }
    }
}

/// `who` joins game `tag` as `name` by mail (JOIN, then CONFIRM of the
/// token mornbot sends), the lounge told "`name` joins `tag`"; the
/// answers expected are added to `e`.
pub fn join(l: &mut Live, e: &mut Expect, tag: &str, who: &str, name: &str) {
    let id = l.mail_bot(who, "join", &format!("JOIN {tag} as {name}"));
    let request = private(l, who, &id);
    e.private(&id, who);
    let id = l.mail_bot(
        who,
        "Re: join",
        &format!("CONFIRM {}", super::live::token(&request)),
    );
    let joined = flat(&in_lounge(l, &id));
    assert!(
        joined.contains(&format!("{name} joins {tag} (Rule 1.1.8)")),
        "{joined}"
    );
    // To the joiner: eir confirmation, and the lounge's notice.
    e.both(&id, who, true);
}

/// `who` asks to join game `tag`, under way, as `name`, and each of
/// `players` consents in turn (RULINGS MX13): the ask is announced in the
/// lounge, each consent but the last is recorded privately, and the last
/// announces the join in the lounge; that announcement, on one line.
pub fn join_late(
    l: &mut Live,
    e: &mut Expect,
    tag: &str,
    (who, name): (&str, &str),
    players: &[&P],
) -> String {
    let id = l.mail_bot(who, "join", &format!("JOIN {tag} as {name}"));
    let told = flat(&private(l, who, &id));
    assert!(
        told.contains(&format!("Your ask to join {tag} as {name} is announced")),
        "{told}"
    );
    let ask = flat(&in_lounge(l, &id));
    assert!(
        ask.contains(&format!("{name} asks to join {tag}, under way")),
        "{ask}"
    );
    assert!(ask.contains(&format!("CONSENT {tag} {name}")), "{ask}");
    e.both(&id, who, true);
    let (last, first) = players.split_last().expect("a player");
    for (i, p) in first.iter().enumerate() {
        let id = l.mail_bot(&p.who, "consent", &format!("CONSENT {tag} {name}"));
        let told = flat(&private(l, &p.who, &id));
        assert!(
            told.contains(&format!(
                "Your consent to {name} joining {tag} is recorded; still to consent:"
            )),
            "{told}"
        );
        for q in &players[i + 1..] {
            assert!(told.contains(&q.name), "{told}");
        }
        e.private(&id, &p.who);
    }
    let id = l.mail_bot(&last.who, "consent", &format!("CONSENT {tag} {name}"));
    let joined = flat(&in_lounge(l, &id));
    assert!(
        joined.contains(&format!(
            "Every player consented: {name} joins {tag}, last in the order of play"
        )),
        "{joined}"
    );
    e.lounge(&id, &last.who, true);
    joined
}

/// Waits until the lounge has delivered `id` to the bot's mailbox.
pub fn delivered_to_bot(l: &Live, id: &str) {
    wait(l, Duration::from_secs(30), "delivery to the bot", || {
        l.stack
            .maildir("bot")
            .iter()
            .any(|m| m.contains(&format!("<{id}>")))
            .then_some(())
    });
}

/// SIGKILLs the daemon `pause` after post `id` reached it (at a moment of
/// its work that varies with the machine's speed), and starts it again.
pub fn kill_after(l: &mut Live, id: &str, pause: Duration) {
    delivered_to_bot(l, id);
    std::thread::sleep(pause);
    l.daemon.kill();
    let cfg = l.stack.dir.join("bot.toml");
    l.daemon = Daemon::start(&cfg, &l.log);
}

/// Stops the daemon (SIGTERM, a clean exit) and starts it again with `env`
/// added to its environment (`MORNBOT_CLOCK_SPEED` for a fast clock).
pub fn restart(l: &mut Live, env: &[(&str, &str)]) {
    assert!(l.daemon.terminate().success());
    let cfg = l.stack.dir.join("bot.toml");
    l.daemon = Daemon::start_with(&cfg, &l.log, env);
}

/// The 64 hex digits after the first `word` that has them in `text`.
pub fn hex_after(text: &str, word: &str) -> String {
    text.match_indices(word)
        .map(|(at, _)| &text[at + word.len()..])
        .filter_map(|rest| rest.get(..64))
        .find(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no 64 hex digits after {word:?} in {text}"))
        .to_string()
}

/// A Timeout by a fast clock: the daemon, restarted with its clock
/// `speed` times faster, plays a Timeout whose mail has `subject`; as soon
/// as that mail is queued the daemon is restarted at normal speed (so
/// that the next player's deadline is not raced), and the Timeout comes
/// through the lounge: it, as read, and the IMAP search that finds it.
pub fn fast_timeout(l: &mut Live, speed: &str, subject: &str) -> (String, String) {
    restart(l, &[("MORNBOT_CLOCK_SPEED", speed)]);
    wait(l, Duration::from_secs(120), "the Timeout, queued", || {
        (l.queued_with(subject) > 0).then_some(())
    });
    restart(l, &[]);
    let search = format!("SUBJECT \"{subject}\"");
    let timeout = wait(
        l,
        Duration::from_secs(60),
        "the Timeout in the lounge",
        || imap_search_raw(l.imap, "rushton", "INBOX", Some(&search)).pop(),
    );
    assert_eq!(header(&timeout, "To"), Some("lounge@example.test"));
    (mornbot::mail::attach::as_read(&timeout), search)
}

/// `who`'s turn `n` of MN1, Volume 1's game in the lounge, `play` (which
/// starts with eir name): judged legal in the lounge.
pub fn mn1_turn(l: &mut Live, e: &mut Expect, who: &str, n: usize, play: &str) {
    let id = l.post(who, "[MN1] my turn", play);
    let v = in_lounge(l, &id);
    let name = play.split(' ').next().unwrap();
    assert!(v.contains(&format!("Turn {n}: {name} (legal)")), "{v}");
    e.lounge(&id, who, true);
}

/// Checks `reveal`, the lounge's notice that game `tag` is over, on one
/// line: it reveals the seed of the game's dice, matching `committed`,
/// the commitment NEW GAME published (RULINGS S14, MX13).
pub fn seed_revealed(reveal: &str, tag: &str, committed: &str) {
    let over = format!("{tag} is over, so mornbot reveals the seed of its dice");
    assert!(reveal.contains(&over), "{reveal}");
    let seed = mornbot::dice::Seed::from_hex(&hex_after(reveal, "seed ")).unwrap();
    assert!(
        mornbot::dice::matches_commitment(&seed, committed),
        "the revealed seed does not match the commitment {committed}: {reveal}"
    );
    assert_eq!(hex_after(reveal, "commitment "), committed, "{reveal}");
}

/// The two lounge answers to `p`'s winning mail `id` (line `n` of `tag`),
/// in either order, expected of `e`: its verdict, whose subject says `p`
/// wins, and the notice revealing the seed of the game's dice, checked
/// against `committed` (RULINGS S14). The verdict, on one line.
pub fn won_and_revealed(
    l: &Live,
    e: &mut Expect,
    (tag, n): (&str, usize),
    (id, p): (&str, &P),
    committed: &str,
) -> String {
    let both = all_in_lounge(l, id, 2);
    e.answers.push((id.into(), "rushton".into(), 2));
    e.answers.push((id.into(), p.who.clone(), 2));
    e.queued.push((id.into(), 2));
    let subject = format!("[{tag}] Turn {n}: ");
    let (verdict, reveal): (Vec<&String>, Vec<&String>) = both
        .iter()
        .partition(|m| header(m, "Subject").is_some_and(|s| s.starts_with(&subject)));
    let ([won], [reveal]) = (&verdict[..], &reveal[..]) else {
        panic!("a verdict and a seed in {both:#?}")
    };
    assert_eq!(
        header(won, "Subject"),
        Some(format!("{subject}{}, legal, and wins", p.name).as_str()),
        "{won}"
    );
    seed_revealed(&flat(reveal), tag, committed);
    flat(won)
}

/// `mornbot verify-dice tag` run on the bot's database: its report, the
/// command having succeeded.
pub fn verify_dice(l: &Live, tag: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(["verify-dice", tag, "--db"])
        .arg(l.stack.dir.join("bot-data/mornbot.db"))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{report}");
    report
}

/// Game `tag`'s draws as the bot's store records them: (turn, name,
/// sides, value), in the order made.
pub fn draws_of(l: &Live, tag: &str) -> Vec<(u64, String, u32, u32)> {
    let db = l.db().expect("the bot's store");
    let mut q = db
        .prepare("SELECT turn, name, sides, value FROM draws WHERE game = ?1 ORDER BY rowid")
        .unwrap();
    q.query_map([tag], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The Speaker opens `mx`, an mc-xml game for two, beside the game under
/// test, `tag`; Ann, Bob and Cat join `tag`, Dana and Eve `mx`.
pub fn open_mx_and_join(l: &mut Live, e: &mut Expect, tag: &str, mx: &str) {
    let id = l.mail_bot(
        "speaker",
        "new game",
        &format!("NEW GAME {mx} kind mc-xml players 2 deadline 48h plain"),
    );
    let open = flat(&in_lounge(l, &id));
    assert!(open.contains("XML Mornington Crescent (mc-xml)"), "{open}");
    e.both(&id, "speaker", false);
    for (who, name) in [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")] {
        join(l, e, tag, who, name);
    }
    for (who, name) in [("dana", "Dana"), ("eve", "Eve")] {
        join(l, e, mx, who, name);
    }
}

/// `p`'s mail `id` of game `tag`, judged in the lounge as line `n` of its
/// log with the subject's `verdict` (`legal`, `legal, turn open`):
/// expected of `e`; the verdict, on one line.
pub fn verdict_in_lounge(
    l: &Live,
    e: &mut Expect,
    (tag, n): (&str, usize),
    (id, p): (&str, &P),
    verdict: &str,
) -> String {
    let v = in_lounge(l, id);
    let subject = format!("[{tag}] Turn {n}: {}, {verdict}", p.name);
    assert_eq!(
        header(&v, "Subject"),
        Some(subject.as_str()),
        "{v}\nlog:\n{}",
        log_tail(l)
    );
    e.lounge(id, &p.who, true);
    flat(&v)
}

/// A turn of `mx`, the mc-xml game beside the one under test: `p`'s
/// `<Slave/>`, legal in the lounge as its turn `n`.
pub fn mx_turn(l: &mut Live, e: &mut Expect, mx: &str, p: &P, n: usize) {
    let id = l.post(
        &p.who,
        &format!("[{mx}] my turn"),
        &turn(&p.name, "<Slave/>"),
    );
    let v = flat(&in_lounge(l, &id));
    assert!(
        v.contains(&format!("{}'s turn {n} of {mx} is legal", p.name)),
        "{v}"
    );
    assert!(v.contains("slaved: +5 tokens (60 min)"), "{v}");
    e.lounge(&id, &p.who, true);
}
