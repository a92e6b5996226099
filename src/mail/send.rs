//! Mail out: the outbox's replies delivered over SMTP (lettre), or written
//! as files on the embedded default.
//!
//! Both sinks are idempotent per Message-ID as far as they can be: the file
//! sink names each file after the Message-ID (a rewrite replaces it); over
//! SMTP a reply whose delivery succeeded but whose `sent` mark was lost to a
//! crash is sent again with the same Message-ID, which receiving servers and
//! list managers deduplicate.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::Address;

use crate::config::{Security, SmtpConfig};
use crate::envelope::OutMail;

/// A delivery that failed; the outbox retries it later.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SendError(pub String);

fn e(x: impl std::fmt::Display) -> SendError {
    SendError(x.to_string())
}

/// Writes replies as `<outbox>/<Message-ID>.eml`.
#[derive(Clone, Debug)]
pub struct FileSink {
    dir: PathBuf,
}

impl FileSink {
    /// A sink writing into `dir` (created if needed).
    pub fn new(dir: &Path) -> std::io::Result<FileSink> {
        std::fs::create_dir_all(dir)?;
        Ok(FileSink {
            dir: dir.to_path_buf(),
        })
    }

    /// The file a reply is written to.
    pub fn path_of(&self, message_id: &str) -> PathBuf {
        let safe: String = message_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-@".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(format!("{safe}.eml"))
    }

    /// Writes one reply atomically (temporary file, then rename).
    pub fn send(&self, m: &OutMail) -> Result<(), SendError> {
        let path = self.path_of(&m.message_id);
        let tmp = path.with_extension("eml.tmp");
        std::fs::write(&tmp, &m.raw).map_err(e)?;
        std::fs::rename(&tmp, &path).map_err(e)
    }
}

/// An SMTP client keeping one connection open between replies.
pub struct SmtpSink {
    cfg: SmtpConfig,
    password: Option<String>,
    ca: Option<Vec<u8>>,
    conn: Option<AsyncSmtpConnection>,
}

impl SmtpSink {
    /// A client for `cfg`; `password` read from its secret; `ca` an extra
    /// PEM root to trust.
    pub fn new(cfg: SmtpConfig, password: Option<String>, ca: Option<Vec<u8>>) -> SmtpSink {
        SmtpSink {
            cfg,
            password,
            ca,
            conn: None,
        }
    }

    fn port(&self) -> u16 {
        self.cfg.port.unwrap_or(match self.cfg.security {
            Security::Tls => 465,
            _ => 587,
        })
    }

    fn tls(&self) -> Result<TlsParameters, SendError> {
        let mut b = TlsParameters::builder(self.cfg.host.clone());
        if let Some(pem) = &self.ca {
            b = b.add_root_certificate(Certificate::from_pem(pem).map_err(e)?);
        }
        b.build_rustls().map_err(e)
    }

    async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let hello = ClientId::Domain("mornbot.localhost".into());
        let host = self.cfg.host.as_str();
        let port = self.port();
        let timeout = Some(Duration::from_secs(30));
        let mut conn = match self.cfg.security {
            Security::Tls => AsyncSmtpConnection::connect_tokio1(
                (host, port),
                timeout,
                &hello,
                Some(self.tls()?),
                None::<IpAddr>,
            )
            .await
            .map_err(e)?,
            Security::Starttls | Security::Plain => {
                // Our own socket, so that TCP_NODELAY is set: lettre 0.11.23
                // does not, which costs about 40 ms a message (Nagle meets
                // delayed ACK on the DATA terminator).
                let tcp = tokio::time::timeout(
                    Duration::from_secs(30),
                    tokio::net::TcpStream::connect((host, port)),
                )
                .await
                .map_err(|_| SendError(format!("connecting to {host}:{port}: timed out")))?
                .map_err(|x| SendError(format!("connecting to {host}:{port}: {x}")))?;
                tcp.set_nodelay(true).map_err(e)?;
                let mut c = AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &hello)
                    .await
                    .map_err(e)?;
                if self.cfg.security == Security::Starttls {
                    c.starttls(self.tls()?, &hello).await.map_err(e)?;
                }
                c
            }
        };
        if let (Some(user), Some(pw)) = (&self.cfg.user, &self.password) {
            conn.auth(
                &[Mechanism::Plain, Mechanism::Login],
                &Credentials::new(user.clone(), pw.clone()),
            )
            .await
            .map_err(e)?;
        }
        Ok(conn)
    }

    /// Delivers one reply, reconnecting if the kept connection broke.
    pub async fn send(&mut self, m: &OutMail) -> Result<(), SendError> {
        let from: Address = m.envelope_from.parse().map_err(e)?;
        let to: Vec<Address> = m
            .recipients
            .iter()
            .map(|r| r.parse().map_err(e))
            .collect::<Result<_, _>>()?;
        let envelope = Envelope::new(Some(from), to).map_err(e)?;
        for attempt in 0..2 {
            if self.conn.as_ref().is_none_or(|c| c.has_broken()) {
                self.conn = Some(self.connect().await?);
            }
            let conn = self.conn.as_mut().expect("connected above");
            match conn.send(&envelope, &m.raw).await {
                Ok(_) => return Ok(()),
                Err(err) => {
                    // A permanent refusal is final; anything else may be a
                    // connection the server closed while idle: retry once
                    // on a fresh one.
                    self.conn = None;
                    if err.is_permanent() || attempt == 1 {
                        return Err(e(err));
                    }
                }
            }
        }
        unreachable!("the loop returns")
    }

    /// Connects and logs in, then quits: `mornbot check-config`.
    pub async fn check(&mut self) -> Result<(), SendError> {
        let mut c = self.connect().await?;
        c.quit().await.map_err(e)?;
        Ok(())
    }

    /// Closes the kept connection politely.
    pub async fn close(&mut self) {
        if let Some(mut c) = self.conn.take() {
            let _ = c.quit().await;
        }
    }
}

/// Where replies go.
pub enum Sink {
    /// Files (the embedded default).
    Files(FileSink),
    /// SMTP.
    Smtp(Box<SmtpSink>),
}

impl Sink {
    /// Delivers one reply.
    pub async fn send(&mut self, m: &OutMail) -> Result<(), SendError> {
        match self {
            Sink::Files(f) => f.send(m),
            Sink::Smtp(s) => s.send(m).await,
        }
    }
}
