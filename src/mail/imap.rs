//! Mail in over IMAP (async-imap on tokio, rustls with ring).
//!
//! The lounge folder is read by UID: everything above the stored
//! high-water UID is fetched oldest first, judged, committed, and only then
//! flagged `\Seen`. A changed UIDVALIDITY resets the high-water mark; every
//! message is then read again, and those already judged are recognised by
//! Message-ID and skipped. Between batches the client waits with IDLE
//! (re-issued before the server's 29-minute timeout) or polls with
//! `UID SEARCH`, as configured; connection failures reconnect with backoff.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::Session;
use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::Notify;

use crate::config::{ImapConfig, Security, Wait};
use crate::daemon::letter::Context;
use crate::daemon::referee::Referee;
use crate::store::{Origin, Store};

/// An IMAP failure (the daemon reconnects).
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    /// Network or TLS.
    #[error("{0}")]
    Io(String),
    /// The server said no.
    #[error("{0}")]
    Protocol(String),
    /// The database failed: not retried.
    #[error("{0}")]
    Fatal(String),
}

fn io_err(e: impl std::fmt::Display) -> ImapError {
    ImapError::Io(e.to_string())
}

fn proto(e: impl std::fmt::Display) -> ImapError {
    ImapError::Protocol(e.to_string())
}

/// The byte stream under the client: TCP or TLS over TCP.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug> Io for T {}

type Conn = Box<dyn Io>;

/// A TLS client configuration trusting the web roots plus `extra_ca`.
pub fn tls_config(extra_ca: Option<&[u8]>) -> Result<Arc<rustls::ClientConfig>, String> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(pem) = extra_ca {
        for cert in CertificateDer::pem_slice_iter(pem) {
            let cert = cert.map_err(|e| format!("ca_file: {e}"))?;
            roots.add(cert).map_err(|e| format!("ca_file: {e}"))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let cfg = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(cfg))
}

async fn tls_wrap(
    tcp: TcpStream,
    host: &str,
    tls: Arc<rustls::ClientConfig>,
) -> Result<Conn, ImapError> {
    let name = rustls::pki_types::ServerName::try_from(host.to_string()).map_err(io_err)?;
    let s = tokio_rustls::TlsConnector::from(tls)
        .connect(name, tcp)
        .await
        .map_err(io_err)?;
    Ok(Box::new(s))
}

/// Connects, secures and logs in.
pub async fn login(
    cfg: &ImapConfig,
    password: &str,
    tls: Arc<rustls::ClientConfig>,
) -> Result<Session<Conn>, ImapError> {
    let port = cfg.port.unwrap_or(match cfg.security {
        Security::Tls => 993,
        _ => 143,
    });
    let tcp = tokio::time::timeout(
        Duration::from_secs(30),
        TcpStream::connect((cfg.host.as_str(), port)),
    )
    .await
    .map_err(|_| ImapError::Io(format!("connecting to {}:{port}: timed out", cfg.host)))?
    .map_err(|e| ImapError::Io(format!("connecting to {}:{port}: {e}", cfg.host)))?;
    tcp.set_nodelay(true).map_err(io_err)?;
    let client = match cfg.security {
        Security::Tls => {
            let mut c = async_imap::Client::new(tls_wrap(tcp, &cfg.host, tls).await?);
            c.read_response().await.map_err(io_err)?;
            c
        }
        Security::Plain => {
            let mut c = async_imap::Client::new(Box::new(tcp) as Conn);
            c.read_response().await.map_err(io_err)?;
            c
        }
        Security::Starttls => {
            let mut c = async_imap::Client::new(tcp);
            c.read_response().await.map_err(io_err)?;
            c.run_command_and_check_ok("STARTTLS", None)
                .await
                .map_err(proto)?;
            let tcp = c.into_inner();
            async_imap::Client::new(tls_wrap(tcp, &cfg.host, tls).await?)
        }
    };
    client
        .login(&cfg.user, password)
        .await
        .map_err(|(e, _)| ImapError::Protocol(format!("login as {}: {e}", cfg.user)))
}

/// A session that ended without error: shutdown was asked.
enum Next {
    Stop,
}

/// Serves the lounge folder until `shutdown` completes.
pub async fn serve<F: Future<Output = ()> + Unpin>(
    cfg: &ImapConfig,
    referee: &mut Referee,
    store: &mut Store,
    ctx: &Context,
    wake: &Notify,
    shutdown: &mut F,
) -> Result<(), ImapError> {
    let password = crate::config::read_secret(&cfg.secret)
        .map_err(ImapError::Fatal)?
        .ok_or_else(|| ImapError::Fatal("[imap] needs password_file or password_env".into()))?;
    let ca = match &cfg.ca_file {
        Some(f) => {
            Some(std::fs::read(f).map_err(|e| ImapError::Fatal(format!("{}: {e}", f.display())))?)
        }
        None => None,
    };
    let tls = tls_config(ca.as_deref()).map_err(ImapError::Fatal)?;
    let mut backoff = Duration::from_millis(250);
    loop {
        let r = session(
            cfg,
            &password,
            tls.clone(),
            referee,
            store,
            ctx,
            wake,
            shutdown,
        )
        .await;
        match r {
            Ok(Next::Stop) => return Ok(()),
            Err(ImapError::Fatal(e)) => return Err(ImapError::Fatal(e)),
            Err(e) => {
                tracing::warn!("imap: {e}; reconnecting in {backoff:?}");
                tokio::select! {
                    _ = &mut *shutdown => return Ok(()),
                    _ = tokio::time::sleep(backoff) => {}
                }
                backoff = (backoff * 2).min(Duration::from_secs(60));
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn session<F: Future<Output = ()> + Unpin>(
    cfg: &ImapConfig,
    password: &str,
    tls: Arc<rustls::ClientConfig>,
    referee: &mut Referee,
    store: &mut Store,
    ctx: &Context,
    wake: &Notify,
    shutdown: &mut F,
) -> Result<Next, ImapError> {
    let mut s = login(cfg, password, tls).await?;
    let mb = s.select(&cfg.folder).await.map_err(proto)?;
    let validity = mb.uid_validity.unwrap_or(0);
    let fatal = |e: crate::store::StoreError| ImapError::Fatal(e.to_string());
    match store.mailbox(&cfg.folder).map_err(fatal)? {
        Some((v, _)) if v == validity => {}
        Some((v, _)) => {
            // The folder was rebuilt: read everything again; Message-IDs
            // already judged are skipped by the referee.
            tracing::warn!(folder = %cfg.folder, old = v, new = validity, "UIDVALIDITY changed: resync by Message-ID");
            store.set_mailbox(&cfg.folder, validity, 0).map_err(fatal)?;
        }
        None => store.set_mailbox(&cfg.folder, validity, 0).map_err(fatal)?,
    }
    tracing::info!(folder = %cfg.folder, validity, "imap: connected");
    let idle_ok = cfg.wait == Wait::Idle && s.capabilities().await.map_err(proto)?.has_str("IDLE");
    loop {
        fetch_new(&mut s, cfg, validity, referee, store, ctx, wake).await?;
        let fatal_d = |e: crate::daemon::DaemonError| ImapError::Fatal(e.to_string());
        if crate::daemon::speaker_tick(referee, store, ctx).map_err(fatal_d)? {
            wake.notify_one();
        }
        if idle_ok {
            // IDLE until new mail, the re-IDLE interval, or the Speaker's
            // next deadline, whichever comes first.
            let wait = crate::daemon::until_due(referee, ctx, Duration::from_secs(cfg.idle_secs))
                .max(Duration::from_millis(1));
            let mut h = s.idle();
            h.init().await.map_err(proto)?;
            let stop_now;
            {
                let (fut, interrupt) = h.wait_with_timeout(wait);
                tokio::select! {
                    r = fut => { r.map_err(proto).map(|r| matches!(r, IdleResponse::ManualInterrupt))?; stop_now = false; }
                    _ = &mut *shutdown => { drop(interrupt); stop_now = true; }
                }
            }
            s = h.done().await.map_err(proto)?;
            if stop_now {
                let _ = s.logout().await;
                return Ok(Next::Stop);
            }
        } else {
            let wait = crate::daemon::until_due(referee, ctx, Duration::from_millis(cfg.poll_ms));
            tokio::select! {
                _ = &mut *shutdown => { let _ = s.logout().await; return Ok(Next::Stop); }
                _ = tokio::time::sleep(wait) => {}
            }
        }
    }
}

/// Fetches and handles every message above the high-water UID.
async fn fetch_new(
    s: &mut Session<Conn>,
    cfg: &ImapConfig,
    validity: u32,
    referee: &mut Referee,
    store: &mut Store,
    ctx: &Context,
    wake: &Notify,
) -> Result<(), ImapError> {
    let fatal = |e: crate::store::StoreError| ImapError::Fatal(e.to_string());
    let last = store
        .mailbox(&cfg.folder)
        .map_err(fatal)?
        .map(|(_, u)| u)
        .unwrap_or(0);
    let mut uids: Vec<u32> = s
        .uid_search(format!("UID {}:*", last + 1))
        .await
        .map_err(proto)?
        .into_iter()
        .filter(|u| *u > last)
        .collect();
    if uids.is_empty() {
        return Ok(());
    }
    uids.sort_unstable();
    // Sizes first, so an oversize message is never downloaded whole.
    let set = uids
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let metas: Vec<_> = s
        .uid_fetch(&set, "(UID RFC822.SIZE INTERNALDATE)")
        .await
        .map_err(proto)?
        .try_collect()
        .await
        .map_err(proto)?;
    let mut metas: Vec<(u32, u32, DateTime<Utc>)> = metas
        .iter()
        .filter_map(|f| {
            Some((
                f.uid?,
                f.size.unwrap_or(0),
                ctx.clock.map(
                    f.internal_date()
                        .map(|d| d.with_timezone(&Utc))
                        .unwrap_or_else(Utc::now),
                ),
            ))
        })
        .filter(|m| m.0 > last)
        .collect();
    metas.sort_unstable();
    // Bodies come a chunk at a time, in one UID FETCH; an oversize
    // message's header alone is fetched.
    for chunk in metas.chunks(32) {
        let set = |pick: &dyn Fn(u32) -> bool| -> String {
            chunk
                .iter()
                .filter(|(_, size, _)| pick(*size))
                .map(|(uid, _, _)| uid.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let max = ctx.limits.max_bytes;
        let mut bodies: std::collections::HashMap<u32, Vec<u8>> = Default::default();
        for (uids, what) in [
            (set(&|size| size as usize <= max), "(UID BODY.PEEK[])"),
            (set(&|size| size as usize > max), "(UID BODY.PEEK[HEADER])"),
        ] {
            if uids.is_empty() {
                continue;
            }
            let fetched: Vec<_> = s
                .uid_fetch(&uids, what)
                .await
                .map_err(proto)?
                .try_collect()
                .await
                .map_err(proto)?;
            for f in &fetched {
                if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                    bodies.insert(uid, body.to_vec());
                }
            }
        }
        let mut done = Vec::new();
        for &(uid, size, received) in chunk {
            // Expunged meanwhile: nothing to judge.
            let Some(raw) = bodies.remove(&uid) else {
                continue;
            };
            let origin = Origin {
                source: cfg.folder.clone(),
                uidvalidity: Some(validity),
                uid: Some(uid),
            };
            let h = if size as usize > max {
                crate::daemon::process_oversize(
                    referee,
                    store,
                    ctx,
                    &raw,
                    size as usize,
                    origin,
                    received,
                )
            } else {
                crate::daemon::process(referee, store, ctx, &raw, origin, received)
            }
            .map_err(|e| ImapError::Fatal(e.to_string()))?;
            tracing::info!(uid, id = %h.message_id, kind = %h.kind, game = ?h.game, "{}", h.summary);
            if h.kind == "duplicate" {
                // Judged before the folder changed: move the mark past it.
                let hw = store
                    .mailbox(&cfg.folder)
                    .map_err(fatal)?
                    .map_or(0, |(_, u)| u);
                if uid > hw {
                    store
                        .set_mailbox(&cfg.folder, validity, uid)
                        .map_err(fatal)?;
                }
            }
            if h.replies > 0 {
                wake.notify_one();
            }
            done.push(uid.to_string());
        }
        if done.is_empty() {
            continue;
        }
        // Committed: now the flags. A crash before this only leaves the
        // messages unflagged; the high-water mark already covers them.
        let _: Vec<_> = s
            .uid_store(done.join(","), "+FLAGS.SILENT (\\Seen)")
            .await
            .map_err(proto)?
            .try_collect()
            .await
            .map_err(proto)?;
    }
    Ok(())
}
