//! The daemon's start and stop around its loop ([`super::serve`]): the
//! database opened (its check beside the start), the games loaded, the
//! dice seeded, the outbox's sender started; at the end, the sender and
//! the mail source let finish, and a clean stop recorded.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::{watch, Notify};

use super::referee::{Painter, Referee};
use super::{games_file, io, letter, sender, serve, setup, DaemonError, Setup};
use crate::config::Config;
use crate::mail::inbox::MaildirInbox;
use crate::mail::maildir::Maildir;
use crate::mail::send::{FileSink, Sink, SmtpSink};
use crate::map::Map;
use crate::store::Store;

/// How long a stopping IMAP adapter may take to log out before it is cut
/// off (its connection to the database then closes all the same).
const ADAPTER_STOP: Duration = Duration::from_secs(10);

/// Runs the daemon until `shutdown` completes.
pub async fn run(
    cfg: Config,
    map: &'static Map,
    clock: crate::daemon::clock::Clock,
    shutdown: impl Future<Output = ()>,
) -> Result<(), DaemonError> {
    let setup = setup(&cfg)?;
    run_prepared(cfg, setup, map, clock, shutdown).await
}

/// A fresh 32-byte seed for a game's dice from the operating system's
/// randomness (RULINGS S14): the only place the bot's dice meet the OS.
///
/// # Errors
///
/// When the OS has no randomness to give.
pub fn os_seed() -> Result<[u8; 32], String> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// [`run`] on a [`setup`] already done (the CLI's, which told the operator
/// where things are).
pub async fn run_prepared(
    cfg: Config,
    setup: Setup,
    map: &'static Map,
    clock: crate::daemon::clock::Clock,
    shutdown: impl Future<Output = ()>,
) -> Result<(), DaemonError> {
    let (mut store, mut referee) = load(&cfg, &setup, map)?;
    let mut ctx = letter::Context::new(map, &setup.me, &cfg);
    ctx.clock = clock;
    let wake = Arc::new(Notify::new());
    let (stop_tx, stop_rx) = watch::channel(false);
    let painter = Painter::new(map, setup.me.clone(), &cfg.limits);
    let sender_task = tokio::spawn(sender(
        setup.data.db(),
        sink(&cfg, &setup)?,
        cfg.outbox.clone(),
        painter,
        wake.clone(),
        stop_rx.clone(),
    ));
    tokio::pin!(shutdown);
    let result = if let Some(imap) = &cfg.imap {
        let (mut inbox, adapter) =
            crate::mail::imap::spawn(imap.clone(), marks(setup.data.db()), ctx.limits.max_bytes)
                .map_err(|e| DaemonError::Imap(e.to_string()))?;
        let served = serve(
            &mut inbox,
            &mut referee,
            &mut store,
            &ctx,
            &wake,
            &mut shutdown,
        )
        .await;
        // The adapter stops when its inbox is gone: let it log out and
        // close its own connection to the database.
        drop(inbox);
        adapter_stopped(adapter).await;
        served
    } else {
        let md = Maildir::create(&setup.data.lounge())
            .map_err(io(&setup.data.lounge()))?
            .keep_seen_for(cfg.bot.spool_keep_days);
        let mut inbox = MaildirInbox::new(md, ctx.limits.max_bytes, Duration::from_millis(100));
        serve(
            &mut inbox,
            &mut referee,
            &mut store,
            &ctx,
            &wake,
            &mut shutdown,
        )
        .await
    };
    let _ = stop_tx.send(true);
    wake.notify_one();
    match sender_task.await {
        Ok(r) => r?,
        Err(e) => tracing::error!("sender task: {e}"),
    }
    if result.is_ok() {
        stopped_clean(store, &setup);
    }
    result
}

/// Opens the database (its check beside the start), imports the games
/// file when it changed, loads every game and does what a start owes
/// them: the dice seeded and committed, the lobby opened, old endings
/// scored.
fn load(cfg: &Config, setup: &Setup, map: &'static Map) -> Result<(Store, Referee), DaemonError> {
    let began = std::time::Instant::now();
    // The database's check runs beside the start (a third of it at
    // 100,000 games); nothing is committed before it passes.
    let mut store = Store::open_checking(&setup.data.db(), cfg.bot.check_db_every_start)?;
    // The games file is imported when it changed since its last import: a
    // lounge may configure 100,000 games, recorded in the database, and
    // parsing them again at each start would be most of the start.
    let import = games_file::changed(setup, &store)?;
    let mut configured = setup.games.clone();
    if let Some((_, games)) = &import {
        configured.extend(games.iter().cloned());
    }
    let loaded = Referee::load(
        map,
        setup.me.clone(),
        cfg.speaker.clone(),
        &configured,
        &mut store,
        Utc::now(),
    );
    // Damage found by the check explains a failed load (its commits were
    // rolled back), so it is said first.
    let read = began.elapsed();
    store.checked()?;
    let mut referee = loaded?;
    drop(configured);
    tracing::info!(
        games = referee.tags().count(),
        read_ms = read.as_millis() as u64,
        checked_ms = began.elapsed().as_millis() as u64,
        "games loaded and the database checked"
    );
    // The bot's dice (RULINGS S14): a seed from the OS for each game not yet
    // seeded, and the commitments published.
    let published = referee.commit_dice(&mut store, Utc::now(), &mut os_seed)?;
    if published > 0 {
        tracing::info!(games = published, "published dice commitments");
    }
    // The lobby's secret (tokens, lobby games' seeds): drawn once from the OS.
    referee.open_lobby(&mut store, cfg.lobby.clone(), &mut os_seed)?;
    referee.set_absence_limits(cfg.absence.clone());
    referee.set_rules_url(cfg.bot.rules_url.clone());
    let scored = referee.score_old_endings(&mut store)?;
    if scored > 0 {
        tracing::info!(
            games = scored,
            "scored games that ended before Points were kept"
        );
    }
    if let Some((stamp, games)) = import {
        tracing::info!(games = games.len(), "imported the games file");
        games_file::imported(&mut store, &stamp)?;
    }
    referee.set_limits(cfg.limits.clone());
    referee.set_cached_games(cfg.bot.cached_games);
    Ok((store, referee))
}

/// Where replies go: the SMTP server, or files on the embedded default.
fn sink(cfg: &Config, setup: &Setup) -> Result<Sink, DaemonError> {
    Ok(if let Some(smtp) = &cfg.smtp {
        let password = crate::config::read_secret(&smtp.secret).map_err(DaemonError::Config)?;
        let ca = match &smtp.ca_file {
            Some(f) => Some(std::fs::read(f).map_err(io(f))?),
            None => None,
        };
        Sink::Smtp(Box::new(SmtpSink::new(smtp.clone(), password, ca)))
    } else {
        Sink::Files(FileSink::new(&setup.data.outbox()).map_err(io(&setup.data.outbox()))?)
    })
}

/// Waits for the IMAP adapter's task to end, at most [`ADAPTER_STOP`];
/// then cuts it off.
async fn adapter_stopped(mut adapter: tokio::task::JoinHandle<()>) {
    if tokio::time::timeout(ADAPTER_STOP, &mut adapter)
        .await
        .is_err()
    {
        tracing::warn!("the IMAP adapter did not log out in time: cut off");
        adapter.abort();
        let _ = adapter.await;
    }
}

/// A clean stop: the next start on this very file may skip the database's
/// check (see `store::gate`), once every connection to it is closed.
fn stopped_clean(store: Store, setup: &Setup) {
    drop(store);
    match Store::mark_clean(&setup.data.db()) {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!("the database is still open elsewhere: the next start checks it")
        }
        Err(e) => tracing::warn!("recording a clean stop: {e}"),
    }
}

/// The IMAP adapter's marks: the store, on a connection of its own.
struct StoreMarks(Store);

impl crate::mail::imap::Marks for StoreMarks {
    fn mailbox(&mut self, folder: &str) -> Result<Option<(u32, u32)>, String> {
        self.0.mailbox(folder).map_err(|e| e.to_string())
    }

    fn set_mailbox(&mut self, folder: &str, validity: u32, uid: u32) -> Result<(), String> {
        self.0
            .set_mailbox(folder, validity, uid)
            .map_err(|e| e.to_string())
    }
}

/// The IMAP adapter's marks on the database at `db`, opened inside its
/// task ([`crate::mail::imap::spawn`]).
pub fn marks(db: std::path::PathBuf) -> crate::mail::imap::OpenMarks {
    Box::new(move || {
        let store = Store::connect(&db).map_err(|e| e.to_string())?;
        Ok(Box::new(StoreMarks(store)) as Box<dyn crate::mail::imap::Marks>)
    })
}
