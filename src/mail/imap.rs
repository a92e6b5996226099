//! Mail in over IMAP (async-imap on tokio, rustls with ring).
//!
//! The lounge folder is read by UID: everything above the stored
//! high-water UID is fetched oldest first, judged, committed, and only then
//! flagged `\Seen`. A changed UIDVALIDITY resets the high-water mark; every
//! message is then read again, and those already judged are recognised by
//! Message-ID and skipped. Between batches the client waits with IDLE
//! (re-issued every `idle_secs` by its own timer, which server keepalives
//! such as Dovecot's `* OK Still here` cannot reset; RFC 2177 asks for
//! under 29 minutes) or polls with `UID SEARCH`, as configured; connection
//! failures reconnect with backoff.
//!
//! The adapter is a task of its own feeding a [`ChannelInbox`]: it knows
//! nothing of the referee or the Speaker, whose timer the daemon loop
//! races against this inbox.

use std::sync::Arc;
use std::time::Duration;

use async_imap::Session;
use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::config::{ImapConfig, Security, Wait};
use crate::envelope::Origin;
use crate::mail::inbox::{ChannelFeed, ChannelInbox, Done, Event, InboxError, Incoming, Key, Raw};

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

/// Where the adapter keeps each folder's UIDVALIDITY and high-water UID:
/// the daemon gives it the store (the mail knows nothing of the store).
pub trait Marks: Send {
    /// The folder's UIDVALIDITY and highest UID committed, if known.
    ///
    /// # Errors
    ///
    /// What failed (the daemon stops: its database failed).
    fn mailbox(&mut self, folder: &str) -> Result<Option<(u32, u32)>, String>;
    /// Records the folder's UIDVALIDITY and highest UID committed.
    ///
    /// # Errors
    ///
    /// As [`Marks::mailbox`].
    fn set_mailbox(&mut self, folder: &str, validity: u32, uid: u32) -> Result<(), String>;
}

/// Opens the marks, once, inside the adapter's task (a connection of its
/// own to the database).
pub type OpenMarks = Box<dyn FnOnce() -> Result<Box<dyn Marks>, String> + Send + Sync>;

/// Starts the IMAP adapter: a task that reads the folder and feeds the
/// returned inbox. `marks` opens where the folder's high-water UID is kept;
/// messages over `max_bytes` come as their header only. The task ends
/// (logged out, its database connection closed) after the inbox is
/// dropped; the handle says when.
pub fn spawn(
    cfg: ImapConfig,
    marks: OpenMarks,
    max_bytes: usize,
) -> Result<(ChannelInbox, tokio::task::JoinHandle<()>), ImapError> {
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
    let (inbox, feed) = ChannelInbox::pair(64);
    let task = tokio::spawn(async move {
        let mut a = Adapter {
            cfg,
            password,
            tls,
            marks: Some(marks),
            max_bytes,
            feed,
        };
        if let Err(e) = a.serve().await {
            let _ = a.feed.tx.send(Err(InboxError::Fatal(e.to_string()))).await;
        }
    });
    Ok((inbox, task))
}

/// The adapter task's state.
struct Adapter {
    cfg: ImapConfig,
    password: String,
    tls: Arc<rustls::ClientConfig>,
    marks: Option<OpenMarks>,
    max_bytes: usize,
    feed: ChannelFeed,
}

/// Flags `\Seen` what is at or below the high-water mark `hw` and still
/// unseen: the daemon committed it, then was stopped before the flags
/// (fetch_new commits first). Without this a judged mail would look unread
/// in the lounge folder forever.
async fn flag_judged(s: &mut Session<Conn>, hw: u32) -> Result<(), ImapError> {
    if hw == 0 {
        return Ok(());
    }
    let unseen: Vec<u32> = s
        .uid_search(format!("UID 1:{hw} UNSEEN"))
        .await
        .map_err(proto)?
        .into_iter()
        .filter(|u| *u <= hw)
        .collect();
    if unseen.is_empty() {
        return Ok(());
    }
    let set = uid_set(&unseen);
    tracing::info!(uids = %set, "imap: flagging mail judged before a stop");
    flag_seen(s, set).await
}

/// Flags the UID set `set` `\Seen`.
async fn flag_seen(s: &mut Session<Conn>, set: String) -> Result<(), ImapError> {
    let _: Vec<_> = s
        .uid_store(set, "+FLAGS.SILENT (\\Seen)")
        .await
        .map_err(proto)?
        .try_collect()
        .await
        .map_err(proto)?;
    Ok(())
}

/// A UID set for a command (`3,5,8`).
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The daemon dropped its inbox: stop.
struct Gone;

impl From<Gone> for ImapError {
    fn from(_: Gone) -> ImapError {
        ImapError::Protocol("the daemon stopped".into())
    }
}

impl Adapter {
    /// Sessions until the daemon goes away; reconnects with backoff.
    async fn serve(&mut self) -> Result<(), ImapError> {
        let open = self.marks.take().expect("the adapter serves once");
        let mut store = open().map_err(ImapError::Fatal)?;
        let mut backoff = Duration::from_millis(250);
        loop {
            if self.feed.tx.is_closed() {
                return Ok(());
            }
            match self.session(store.as_mut()).await {
                Ok(()) => return Ok(()),
                Err(ImapError::Fatal(e)) => return Err(ImapError::Fatal(e)),
                Err(e) => {
                    tracing::warn!("imap: {e}; reconnecting in {backoff:?}");
                    tokio::select! {
                        _ = self.feed.tx.closed() => return Ok(()),
                        _ = tokio::time::sleep(backoff) => {}
                    }
                    backoff = (backoff * 2).min(Duration::from_secs(60));
                }
            }
        }
    }

    /// One connection: fetch, then wait, until the daemon goes away.
    async fn session(&mut self, store: &mut dyn Marks) -> Result<(), ImapError> {
        let cfg = self.cfg.clone();
        let mut s = login(&cfg, &self.password, self.tls.clone()).await?;
        let mb = s.select(&cfg.folder).await.map_err(proto)?;
        let validity = mb.uid_validity.unwrap_or(0);
        let fatal = ImapError::Fatal;
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
        if let Some((_, hw)) = store.mailbox(&cfg.folder).map_err(fatal)? {
            flag_judged(&mut s, hw).await?;
        }
        let idle_ok =
            cfg.wait == Wait::Idle && s.capabilities().await.map_err(proto)?.has_str("IDLE");
        loop {
            self.fetch_new(&mut s, store, validity).await?;
            // New mail announced while we fetched (an untagged EXISTS in
            // the middle of a SEARCH or FETCH) is not announced again when
            // IDLE starts: look again before waiting.
            let mut announced = false;
            while let Ok(u) = s.unsolicited_responses.try_recv() {
                announced |= matches!(
                    u,
                    async_imap::types::UnsolicitedResponse::Exists(_)
                        | async_imap::types::UnsolicitedResponse::Recent(_)
                );
            }
            if announced {
                continue;
            }
            if idle_ok {
                let mut h = s.idle();
                h.init().await.map_err(proto)?;
                let gone;
                {
                    // `wait` ends on new data; our own timer (not the
                    // crate's timeout, which every keepalive resets) ends
                    // it for the re-IDLE.
                    let (fut, interrupt) = h.wait();
                    tokio::pin!(fut);
                    let mut interrupt = Some(interrupt);
                    let re_idle = tokio::time::sleep(Duration::from_secs(cfg.idle_secs.max(1)));
                    tokio::pin!(re_idle);
                    gone = loop {
                        tokio::select! {
                            r = &mut fut => { r.map_err(proto)?; break false; }
                            _ = &mut re_idle, if interrupt.is_some() => { interrupt = None; }
                            _ = self.feed.tx.closed() => break true,
                        }
                    };
                }
                s = h.done().await.map_err(proto)?;
                if gone {
                    let _ = s.logout().await;
                    return Ok(());
                }
            } else {
                tokio::select! {
                    _ = self.feed.tx.closed() => { let _ = s.logout().await; return Ok(()); }
                    _ = tokio::time::sleep(Duration::from_millis(cfg.poll_ms)) => {}
                }
            }
            // The loop may want to look at the Speaker: harmless wake.
            if self.feed.tx.send(Ok(Event::Idle)).await.is_err() {
                let _ = s.logout().await;
                return Ok(());
            }
        }
    }

    /// Fetches every message above the high-water UID, hands each to the
    /// daemon, and flags it `\Seen` once the daemon has committed it.
    async fn fetch_new(
        &mut self,
        s: &mut Session<Conn>,
        store: &mut dyn Marks,
        validity: u32,
    ) -> Result<(), ImapError> {
        let folder = self.cfg.folder.clone();
        let fatal = ImapError::Fatal;
        let last = store
            .mailbox(&folder)
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
        let metas = self.sizes(s, &uids, last).await?;
        // Bodies come a chunk at a time, in one UID FETCH; an oversize
        // message's header alone is fetched.
        for chunk in metas.chunks(32) {
            let mut bodies = self.bodies(s, chunk).await?;
            let mut ready = Vec::new();
            for &(uid, size, received) in chunk {
                // Expunged meanwhile: nothing to judge.
                let Some(bytes) = bodies.remove(&uid) else {
                    continue;
                };
                let raw = if size as usize > self.max_bytes {
                    Raw::Head {
                        head: bytes,
                        size: size as usize,
                    }
                } else {
                    Raw::Full(bytes)
                };
                ready.push(Incoming {
                    raw,
                    origin: Origin {
                        source: folder.clone(),
                        uidvalidity: Some(validity),
                        uid: Some(uid),
                    },
                    received,
                    key: Key::Uid(uid),
                    behind: 0,
                });
            }
            // The daemon is told how many follow each one, so it takes
            // the chunk whole before judging any (UIDs need not follow
            // delivery order: see `daemon::serve`).
            let mut sent = Vec::new();
            let count = ready.len();
            for (k, mut m) in ready.into_iter().enumerate() {
                m.behind = count - k - 1;
                let uid = m.origin.uid.unwrap_or_default();
                self.feed
                    .tx
                    .send(Ok(Event::Mail(Box::new(m))))
                    .await
                    .map_err(|_| Gone)?;
                sent.push(uid);
            }
            if sent.is_empty() {
                continue;
            }
            // Wait until the daemon has committed each one.
            let mut acked = Vec::new();
            let mut aside = Vec::new();
            while acked.len() < sent.len() {
                match self.feed.acks.recv().await {
                    Some((Key::Uid(u), done)) => {
                        acked.push(u);
                        if done == Done::SetAside {
                            aside.push(u);
                        }
                    }
                    Some(_) => {}
                    None => return Err(Gone.into()),
                }
            }
            // Judged before the folder changed (a duplicate) commits no
            // UID: move the mark past it.
            let top = *acked.iter().max().unwrap_or(&0);
            let hw = store.mailbox(&folder).map_err(fatal)?.map_or(0, |(_, u)| u);
            if top > hw {
                store.set_mailbox(&folder, validity, top).map_err(fatal)?;
            }
            // Committed: now the flags. A crash before this only leaves the
            // messages unflagged; the high-water mark already covers them.
            flag_seen(s, uid_set(&acked)).await?;
            if !aside.is_empty() {
                self.set_aside(s, &aside).await?;
            }
        }
        Ok(())
    }

    /// Moves quarantined messages (already flagged `\Seen`, and below the
    /// high-water mark) to the quarantine folder, creating it when needed:
    /// `UID MOVE` (RFC 6851), or a copy when the server cannot move. A
    /// failure here is logged, not fatal: the message is recorded in the
    /// database and will not be read again either way.
    async fn set_aside(&self, s: &mut Session<Conn>, uids: &[u32]) -> Result<(), ImapError> {
        let folder = &self.cfg.quarantine_folder;
        let set = uid_set(uids);
        // Exists already: the server says so, and that is fine.
        let _ = s.create(folder).await;
        if let Err(e) = s.uid_mv(&set, folder).await {
            tracing::warn!(%folder, "UID MOVE failed ({e}): copying instead");
            if let Err(e) = s.uid_copy(&set, folder).await {
                tracing::error!(%folder, uids = %set, "quarantined mail not set aside: {e}");
                return Ok(());
            }
        }
        tracing::warn!(%folder, uids = %set, "quarantined mail set aside");
        Ok(())
    }

    /// UID, size and arrival time of each message, oldest first (sizes
    /// first, so an oversize message is never downloaded whole).
    async fn sizes(
        &self,
        s: &mut Session<Conn>,
        uids: &[u32],
        last: u32,
    ) -> Result<Vec<(u32, u32, DateTime<Utc>)>, ImapError> {
        let set = uid_set(uids);
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
                    f.internal_date()
                        .map(|d| d.with_timezone(&Utc))
                        .unwrap_or_else(Utc::now),
                ))
            })
            .filter(|m| m.0 > last)
            .collect();
        metas.sort_unstable();
        Ok(metas)
    }

    /// The bodies of a chunk (headers only for those over the limit).
    async fn bodies(
        &self,
        s: &mut Session<Conn>,
        chunk: &[(u32, u32, DateTime<Utc>)],
    ) -> Result<std::collections::HashMap<u32, Vec<u8>>, ImapError> {
        let set = |pick: &dyn Fn(u32) -> bool| -> String {
            chunk
                .iter()
                .filter(|(_, size, _)| pick(*size))
                .map(|(uid, _, _)| uid.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let max = self.max_bytes;
        let mut bodies = std::collections::HashMap::new();
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
                // BODY[HEADER] comes back as the header section, not the
                // body: without it an oversize mail looked expunged and
                // was skipped, never answered.
                if let (Some(uid), Some(body)) = (f.uid, f.body().or_else(|| f.header())) {
                    bodies.insert(uid, body.to_vec());
                }
            }
        }
        Ok(bodies)
    }
}
