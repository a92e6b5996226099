//! The daemon: the mail source, the referee, the outbox sender, and the
//! loop that ties them together.
//!
//! One task reads messages oldest first, a fetch at a time (a turn out of
//! turn waits for posts received with it: [`together`]), and hands each to
//! the [`referee::Referee`], which commits its effects and replies in one
//! transaction; only then is the message marked seen at its source. A
//! second task delivers the outbox with exponential backoff. SIGTERM (or
//! the `shutdown` future) lets the message in hand finish, then both tasks
//! stop.

mod archive_source;
pub mod clock;
pub mod games_file;
pub mod letter;
mod marker;
pub mod quarantine;
pub mod referee;
mod sender;
mod start;
pub mod together;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::Notify;

use crate::config::Config;
use crate::mail::inbox::{Event, Inbox, Incoming, Raw};
use crate::mail::maildir::Maildir;
use crate::mail::outbound::Identity;
use crate::store::{Origin, Store, StoreError};
pub use archive_source::ArchiveSource;
use referee::{Handled, Referee, RefereeError};
pub use sender::sender;
pub use start::{marks as imap_marks, os_seed, run, run_prepared};

/// A failure that stops the daemon.
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Rebuilding the games.
    #[error(transparent)]
    Referee(#[from] RefereeError),
    /// A file or directory.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The configuration cannot be used.
    #[error("config: {0}")]
    Config(String),
    /// The IMAP server.
    #[error("imap: {0}")]
    Imap(String),
    /// The mail source.
    #[error("inbox: {0}")]
    Inbox(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DaemonError + '_ {
    move |source| DaemonError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Paths of the data directory.
#[derive(Clone, Debug)]
pub struct DataDir {
    /// The directory.
    pub root: PathBuf,
}

impl DataDir {
    /// The SQLite database.
    pub fn db(&self) -> PathBuf {
        self.root.join("mornbot.db")
    }
    /// The Maildir spool of the embedded default.
    pub fn lounge(&self) -> PathBuf {
        self.root.join("lounge")
    }
    /// The file outbox of the embedded default.
    pub fn outbox(&self) -> PathBuf {
        self.root.join("outbox")
    }
    /// The sample games file of the embedded default.
    pub fn games_file(&self) -> PathBuf {
        self.root.join("game.toml")
    }
}

/// The sample game written on the embedded default's first start.
pub const SAMPLE_GAME: &str = r#"# The games this lounge hosts. Edit, then restart `mornbot run`.
# Each game: a tag (used in subjects: "[MN1] my turn"), a starting Game Time,
# and the players in order of play with the addresses turns must come from.
[[game]]
tag = "MN1"
start = "Monday 0900"

[[game.player]]
name = "Rushton"
address = "rushton@example.org"

[[game.player]]
name = "Warren"
address = "warren@example.org"

[[game.player]]
name = "Acton"
address = "acton@example.org"
"#;

/// Everything `run` needs, resolved from the config.
pub struct Setup {
    /// Data directory.
    pub data: DataDir,
    /// Who the bot is.
    pub me: Identity,
    /// The config's own `[[game]]` tables, ensured at every start.
    pub games: Vec<crate::config::GameConfig>,
    /// The games file (`[bot] games_file`, or `<data_dir>/game.toml` on the
    /// embedded default), if there is one: imported when it changed.
    pub games_file: Option<PathBuf>,
    /// Whether this is the embedded default (Maildir + files).
    pub embedded: bool,
    /// Whether the games file was just written (first start).
    pub first_start: bool,
}

/// Prepares the data directory and the games list.
pub fn setup(cfg: &Config) -> Result<Setup, DaemonError> {
    let data = DataDir {
        root: cfg.bot.data_dir.clone(),
    };
    std::fs::create_dir_all(&data.root).map_err(io(&data.root))?;
    let embedded = cfg.imap.is_none();
    cfg.validate().map_err(DaemonError::Config)?;
    let mut first_start = false;
    let file = cfg
        .bot
        .games_file
        .clone()
        .or_else(|| embedded.then(|| data.games_file()));
    if let Some(file) = &file {
        if embedded && !file.exists() && cfg.bot.games_file.is_none() {
            std::fs::write(file, SAMPLE_GAME).map_err(io(file))?;
            first_start = true;
        }
    }
    Ok(Setup {
        data,
        me: Identity {
            address: crate::mail::address::normalize(&cfg.bot.address),
            name: cfg.bot.name.clone(),
            lounge: crate::mail::address::normalize(&cfg.bot.lounge),
        },
        games: cfg.games.clone(),
        games_file: file.filter(|f| f.exists()),
        embedded,
        first_start,
    })
}

impl Setup {
    /// Every configured game: the config's and the games file's.
    ///
    /// # Errors
    ///
    /// When the games file cannot be read or is not a file of `[[game]]`
    /// tables.
    pub fn all_games(&self) -> Result<Vec<crate::config::GameConfig>, DaemonError> {
        let mut games = self.games.clone();
        if let Some(file) = &self.games_file {
            games.extend(games_file::read(file)?);
        }
        Ok(games)
    }
}

/// Handles every message waiting in a Maildir spool, oldest first.
pub fn drain_maildir(
    md: &Maildir,
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
) -> Result<Vec<Handled>, DaemonError> {
    let mut done = Vec::new();
    for w in md.waiting().map_err(io(md.root()))? {
        let size = std::fs::metadata(&w.path).map(|m| m.len()).unwrap_or(0) as usize;
        let h = if size > ctx.limits.max_bytes {
            // Never read a huge file whole: its headers are enough to
            // refuse it politely.
            let Ok(head) = crate::mail::inbox::read_head(&w.path, 256 * 1024) else {
                continue;
            };
            quarantine::guarded(
                referee,
                store,
                &head,
                &origin_maildir(),
                w.received,
                |r, s| process_oversize(r, s, ctx, &head, size, origin_maildir(), w.received),
            )?
        } else {
            let raw = match std::fs::read(&w.path) {
                Ok(r) => r,
                // Gone meanwhile (another reader): nothing to do.
                Err(_) => continue,
            };
            let at = ctx.clock.map(w.received);
            quarantine::guarded(referee, store, &raw, &origin_maildir(), at, |r, s| {
                process(r, s, ctx, &raw, origin_maildir(), at, false)
            })?
        };
        tracing::info!(id = %h.message_id, kind = %h.kind, game = ?h.game, "{}", h.summary);
        crate::mail::inbox::finish(md, &w.path, quarantine::done(&h)).map_err(io(&w.path))?;
        done.push(h);
    }
    Ok(done)
}

fn origin_maildir() -> Origin {
    Origin {
        source: "maildir".into(),
        uidvalidity: None,
        uid: None,
    }
}

/// Runs the Speaker's due acts (reminders, Timeouts) and logs them;
/// returns whether any mail was queued.
pub fn speaker_tick(
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
) -> Result<bool, DaemonError> {
    let done = referee.tick(store, ctx.clock.now())?;
    for h in &done {
        tracing::info!(game = ?h.game, "{}", h.summary);
    }
    Ok(done.iter().any(|h| h.replies > 0))
}

/// The longest the loop sleeps without looking at the clock again (the
/// Speaker's due time is recomputed then, e.g. after a clock step).
const MAX_SLEEP: Duration = Duration::from_secs(3600);

/// The daemon loop: judges each message `inbox` brings, and does what the
/// Speaker owes when it is due, on a timer of its own raced against the
/// inbox (no source's keepalives or silence can delay a deadline), until
/// `shutdown` completes. A message is acknowledged to its source only
/// after its effects are committed.
pub async fn serve<I: Inbox, F: Future<Output = ()> + Unpin>(
    inbox: &mut I,
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
    wake: &Notify,
    shutdown: &mut F,
) -> Result<(), DaemonError> {
    loop {
        if speaker_tick(referee, store, ctx)? {
            wake.notify_one();
        }
        let sleep = match referee.next_due() {
            Some(t) => ctx.clock.real_until(t).min(MAX_SLEEP),
            None => MAX_SLEEP,
        };
        let timer = tokio::time::sleep(sleep);
        tokio::pin!(timer);
        // Messages waiting before the timer fires are judged first (they
        // came earlier), then the Speaker acts; the timer is not re-armed
        // by anything the inbox does.
        loop {
            tokio::select! {
                biased;
                _ = &mut *shutdown => return Ok(()),
                ev = inbox.next() => match ev.map_err(inbox_err)? {
                    Event::Mail(m) => {
                        let mut posts = vec![*m];
                        // The rest of its fetch is on its way: taken whole,
                        // to be judged in turn order (see `together`).
                        while posts.last().is_some_and(|m| m.behind > 0) {
                            tokio::select! {
                                biased;
                                _ = &mut *shutdown => return Ok(()),
                                ev = inbox.next() => {
                                    if let Event::Mail(n) = ev.map_err(inbox_err)? {
                                        posts.push(*n);
                                    }
                                }
                            }
                        }
                        if judge_together(inbox, referee, store, ctx, posts, shutdown).await? {
                            wake.notify_one();
                        }
                        // A turn changes what is due: recompute.
                        break;
                    }
                    Event::Idle => {}
                },
                _ = &mut timer => break,
            }
        }
    }
}

fn inbox_err(e: crate::mail::inbox::InboxError) -> DaemonError {
    DaemonError::Inbox(e.to_string())
}

/// Judges the posts of one fetch ([`together`]: a turn out of turn is put
/// off while posts received with it wait), acknowledging each to its
/// source once committed; stops between posts at `shutdown`. Returns
/// whether any reply was queued.
async fn judge_together<I: Inbox, F: Future<Output = ()> + Unpin>(
    inbox: &mut I,
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
    posts: Vec<Incoming>,
    shutdown: &mut F,
) -> Result<bool, DaemonError> {
    let mut together = together::Together::new(posts);
    let mut replied = false;
    while let Some((mut m, ask)) = together.take_next() {
        let uid = m.origin.uid;
        if ask.ahead_of_lower {
            m.origin.uid = None;
        }
        let h = judge(referee, store, ctx, &m, ask.may_put_off)?;
        m.origin.uid = uid;
        if h.kind == together::PUT_OFF {
            tracing::info!(id = %h.message_id, "out of turn while posts received with it wait: judged after them");
            together.put_off(m);
            continue;
        }
        together.judged();
        inbox
            .ack(&m, quarantine::done(&h))
            .await
            .map_err(inbox_err)?;
        tracing::info!(id = %h.message_id, kind = %h.kind, game = ?h.game, "{}", h.summary);
        replied |= h.replies > 0;
        if futures_util::FutureExt::now_or_never(&mut *shutdown).is_some() {
            // The rest is read again at the next start.
            break;
        }
    }
    Ok(replied)
}

/// Judges one message from an inbox, committing its effects; one whose
/// judging fails or panics is quarantined ([`quarantine`]), not retried.
/// With `put_off`, a turn out of turn is neither refused nor recorded: a
/// [`together::PUT_OFF`] [`Handled`], nothing changed.
pub fn judge(
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
    m: &Incoming,
    put_off: bool,
) -> Result<Handled, DaemonError> {
    let received = ctx.clock.map(m.received);
    let bytes = match &m.raw {
        Raw::Full(raw) => raw,
        Raw::Head { head, .. } => head,
    };
    quarantine::guarded(
        referee,
        store,
        bytes,
        &m.origin,
        received,
        |r, s| match &m.raw {
            Raw::Full(raw) => process(r, s, ctx, raw, m.origin.clone(), received, put_off),
            Raw::Head { head, size } => {
                process_oversize(r, s, ctx, head, *size, m.origin.clone(), received)
            }
        },
    )
}

/// Parses, classifies and judges one raw message, committing its effects:
/// a digest's posts one by one, each in its own transaction, then the
/// digest itself (see [`letter::letters`]); the summary covers them all.
///
/// Only the last commit records the mail's mailbox position: after a crash
/// between two posts the mail is read again, and the posts already judged
/// are duplicates by their Message-IDs.
///
/// With `put_off`, a mail that is one turn out of turn changes nothing and
/// comes back as a [`together::PUT_OFF`] [`Handled`] (a digest's posts are
/// always judged).
pub fn process(
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
    raw: &[u8],
    origin: Origin,
    received: DateTime<Utc>,
    put_off: bool,
) -> Result<Handled, DaemonError> {
    let (letters, itself) = letter::letters(raw, ctx, referee);
    let mut posts = Vec::with_capacity(letters.len());
    for l in &letters {
        let at = Origin {
            uid: None,
            ..origin.clone()
        };
        // Played when the lounge received it, not when the digest came
        // (a later post in the digest may answer it; RULINGS L9).
        let played = l.posted.map_or(received, |p| p.min(received));
        let h = referee.handle(store, at, l, played)?;
        tracing::info!(id = %h.message_id, kind = %h.kind, game = ?h.game, "digest post: {}", h.summary);
        posts.push(h);
    }
    if put_off && posts.is_empty() {
        return Ok(referee
            .handle_unless_out_of_turn(store, origin, &itself, received)?
            .unwrap_or_else(|| Handled {
                message_id: itself.message_id.clone(),
                game: itself.game.clone().ok(),
                kind: together::PUT_OFF.into(),
                summary: "out of turn; put off".into(),
                replies: 0,
            }));
    }
    let mut h = referee.handle(store, origin, &itself, received)?;
    if !posts.is_empty() {
        h.kind = "digest".into();
        h.replies += posts.iter().map(|p| p.replies).sum::<usize>();
        let each: Vec<&str> = posts.iter().map(|p| p.summary.as_str()).collect();
        let n = posts.len();
        let s = if n == 1 { "" } else { "s" };
        h.summary = format!("{n} post{s}: {}", each.join("; "));
    }
    Ok(h)
}

/// Handles a message too large to download, from its headers: a polite
/// refusal.
pub fn process_oversize(
    referee: &mut Referee,
    store: &mut Store,
    ctx: &letter::Context,
    headers: &[u8],
    size: usize,
    origin: Origin,
    received: DateTime<Utc>,
) -> Result<Handled, DaemonError> {
    let l = letter::oversize(headers, size, ctx);
    Ok(referee.handle(store, origin, &l, received)?)
}
