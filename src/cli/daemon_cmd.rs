//! `mornbot run`, `check-config`, `deadline`: the daemon's commands.

use std::path::Path;

use anyhow::Context as _;

use super::{map_cmd, Exit};
use crate::config::Config;
use crate::map::Map;

/// Reads, validates and resolves a config file; `None`: the embedded
/// default (data in `./mornbot-data/`).
pub fn load_config(path: Option<&Path>) -> anyhow::Result<Result<Config, String>> {
    let Some(path) = path else {
        return Ok(Ok(Config::default()));
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let cfg = match Config::from_toml(&text, &path.display().to_string()) {
        Ok(c) => c.resolve_paths(path),
        Err(e) => return Ok(Err(e.to_string())),
    };
    if let Err(e) = cfg.validate() {
        return Ok(Err(format!("{}: {e}", path.display())));
    }
    Ok(Ok(cfg))
}

/// The map a config names, for the life of the process.
pub(super) fn map_of(cfg: &Config) -> anyhow::Result<Result<&'static Map, String>> {
    Ok(match &cfg.map.file {
        None => Ok(Map::london_1999()),
        Some(f) => map_cmd::load(Some(f))?.map(|m| &*Box::leak(Box::new(m))),
    })
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MORNBOT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour only for a terminal: journald and log files get plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Resolves when SIGTERM or SIGINT arrives.
pub async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = match signal(SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `mornbot run [--config FILE]`.
pub(super) fn run(config: Option<&Path>) -> anyhow::Result<Exit> {
    let cfg = match load_config(config)? {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mornbot: {e}");
            return Ok(Exit::BadInput);
        }
    };
    let map = match map_of(&cfg)? {
        Ok(m) => m,
        Err(e) => {
            eprintln!("mornbot: {e}");
            return Ok(Exit::BadInput);
        }
    };
    init_tracing();
    let setup = crate::daemon::setup(&cfg)?;
    if setup.embedded {
        let d = &setup.data;
        eprintln!(
            "mornbot: embedded default (no [imap] configured): watching the Maildir spool {}\n\
             \x20        replies go to {}, state to {}",
            d.lounge().display(),
            d.outbox().display(),
            d.db().display()
        );
        if setup.first_start {
            eprintln!(
                "mornbot: first start: wrote a sample game to {} (players Rushton, Warren, \
                 Acton).\n\
                 \x20        Try it: deliver a mail the Maildir way, written in tmp/ and then\n\
                 \x20        renamed into new/ (a file still being written is never read), e.g.\n\n\
                 \x20          printf 'From: rushton@example.org\\nSubject: [MN1] turn\\n\
                 Message-ID: <t1@example.org>\\n\\nRushton : Epping (CN) [Home: Hainault]\\n' \\\n\
                 \x20            > {spool}/tmp/t1.eml && mv {spool}/tmp/t1.eml {spool}/new/\n\n\
                 \x20        and read the verdict in {}/. `mornbot demo` plays a whole game.",
                d.games_file().display(),
                d.outbox().display(),
                spool = d.lounge().display(),
            );
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(crate::daemon::run_prepared(
        cfg,
        setup,
        map,
        crate::daemon::clock::Clock::from_env(),
        terminated(),
    ))?;
    eprintln!("mornbot: stopped");
    Ok(Exit::Ok)
}

/// `mornbot check-config FILE`: validates and tries both logins.
pub(super) fn check_config(path: &Path) -> anyhow::Result<Exit> {
    let cfg = match load_config(Some(path))? {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return Ok(Exit::BadInput);
        }
    };
    if let Err(e) = map_of(&cfg)? {
        eprintln!("{e}");
        return Ok(Exit::BadInput);
    }
    let setup = match crate::daemon::setup(&cfg) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return Ok(Exit::BadInput);
        }
    };
    let games = match setup.all_games() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return Ok(Exit::BadInput);
        }
    };
    println!("config {}: valid; {} game(s)", path.display(), games.len());
    let mut ok = true;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    if let Some(imap) = &cfg.imap {
        let r: Result<(), String> = rt.block_on(async {
            let pw = crate::config::read_secret(&imap.secret)?
                .ok_or("[imap] needs password_file or password_env")?;
            let ca = match &imap.ca_file {
                Some(f) => Some(std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?),
                None => None,
            };
            let tls = crate::mail::imap::tls_config(ca.as_deref())?;
            let mut s = crate::mail::imap::login(imap, &pw, tls)
                .await
                .map_err(|e| e.to_string())?;
            s.select(&imap.folder)
                .await
                .map_err(|e| format!("select {}: {e}", imap.folder))?;
            let _ = s.logout().await;
            Ok(())
        });
        match r {
            Ok(()) => println!("imap {}: login and select {} ok", imap.host, imap.folder),
            Err(e) => {
                ok = false;
                println!("imap {}: FAILED: {e}", imap.host);
            }
        }
    }
    if let Some(smtp) = &cfg.smtp {
        let r: Result<(), String> = rt.block_on(async {
            let pw = crate::config::read_secret(&smtp.secret)?;
            let ca = match &smtp.ca_file {
                Some(f) => Some(std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?),
                None => None,
            };
            crate::mail::send::SmtpSink::new(smtp.clone(), pw, ca)
                .check()
                .await
                .map_err(|e| e.to_string())
        });
        match r {
            Ok(()) => println!("smtp {}: connect and login ok", smtp.host),
            Err(e) => {
                ok = false;
                println!("smtp {}: FAILED: {e}", smtp.host);
            }
        }
    }
    Ok(if ok { Exit::Ok } else { Exit::Failure })
}

/// `mornbot deadline --kind K TIMESTAMP`.
pub(super) fn deadline(kind: &str, timestamp: &str) -> anyhow::Result<Exit> {
    use crate::speaker::{parse_timestamp, Kind};
    let kind = match kind {
        "turn" => Kind::Turn,
        "buzz" => Kind::Buzz,
        "judgment" => Kind::Judgment,
        other => {
            eprintln!("mornbot deadline: --kind must be turn, buzz or judgment, not {other:?}");
            return Ok(Exit::BadInput);
        }
    };
    match parse_timestamp(timestamp) {
        Ok(t) => {
            println!(
                "{}",
                crate::speaker::deadline::deadline(kind, t)
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            );
            Ok(Exit::Ok)
        }
        Err(e) => {
            eprintln!("mornbot deadline: {e}");
            Ok(Exit::BadInput)
        }
    }
}
