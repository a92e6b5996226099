//! Where the lounge's mail comes from, behind one small trait.
//!
//! The daemon loop owns scheduling: it races [`Inbox::next`] against the
//! Speaker's own timer and the shutdown signal, so no source (an IMAP
//! server's `* OK Still here` keepalives, a Maildir poll) can delay a
//! deadline. Every adapter's `next` is cancel-safe: dropping the future
//! loses no message, and a message handed out is marked done at its source
//! only by [`Inbox::ack`], after its effects are committed.

use std::collections::VecDeque;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::envelope::Origin;
use crate::mail::maildir::Maildir;

/// A message's bytes as the source gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Raw {
    /// The whole message.
    Full(Vec<u8>),
    /// Only its header: the message is larger than the limit and was
    /// never downloaded whole.
    Head {
        /// The header bytes.
        head: Vec<u8>,
        /// The whole message's size.
        size: usize,
    },
}

/// How the source finds a message again to mark it done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A spool file.
    Path(PathBuf),
    /// An IMAP UID in the selected folder.
    Uid(u32),
    /// A test's own numbering.
    Seq(u64),
}

/// One message from the lounge's source.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// Its bytes.
    pub raw: Raw,
    /// Where it came from (stored with what it caused).
    pub origin: Origin,
    /// When the source received it, in real (wall-clock) time.
    pub received: DateTime<Utc>,
    /// How to mark it done.
    pub key: Key,
    /// How many messages of the same fetch the source hands over right
    /// behind this one (0 for the last, or a source whose order needs no
    /// second look, as a Maildir spool's): the daemon takes them all before
    /// judging, so it can judge posts received together in turn order (see
    /// `daemon::together`).
    pub behind: usize,
}

/// What [`Inbox::next`] brings.
#[derive(Clone, Debug)]
pub enum Event {
    /// A message to judge.
    Mail(Box<Incoming>),
    /// The source woke without mail (a server keepalive, a re-IDLE, a
    /// poll that found nothing): the loop checks the Speaker and waits
    /// again, with the Speaker's timer unchanged.
    Idle,
}

/// How the daemon is done with a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// Judged and committed: mark it seen.
    Judged,
    /// Judging it failed or panicked and it was quarantined: move it aside
    /// (a Maildir's `quarantine/` directory, an IMAP folder), so that no
    /// one takes it for mail still waiting.
    SetAside,
}

/// A source failure.
#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    /// Reading the source failed; the daemon stops (its supervisor
    /// restarts it, and nothing acknowledged is read again).
    #[error("{0}")]
    Fatal(String),
}

/// A source of lounge mail.
pub trait Inbox: Send {
    /// Waits for the next event. Cancel-safe: the loop drops this future
    /// whenever the Speaker's timer or shutdown wins the race.
    fn next(&mut self) -> impl Future<Output = Result<Event, InboxError>> + Send;
    /// Marks a message done at its source, after its effects are committed
    /// (or its quarantine recorded).
    fn ack(
        &mut self,
        m: &Incoming,
        done: Done,
    ) -> impl Future<Output = Result<(), InboxError>> + Send;
}

/// The first `limit` bytes of a file, cut at the end of its header.
pub fn read_head(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::new();
    std::fs::File::open(path)?
        .take(limit as u64)
        .read_to_end(&mut buf)?;
    cut_at_header_end(&mut buf);
    Ok(buf)
}

fn cut_at_header_end(buf: &mut Vec<u8>) {
    for sep in [&b"\r\n\r\n"[..], &b"\n\n"[..]] {
        if let Some(i) = buf.windows(sep.len()).position(|w| w == sep) {
            buf.truncate(i + sep.len());
            return;
        }
    }
}

/// Marks a spool file done: seen (into `cur/`), or set aside.
pub fn finish(md: &Maildir, path: &Path, done: Done) -> std::io::Result<()> {
    match done {
        Done::Judged => md.mark_seen(path),
        Done::SetAside => md.set_aside(path),
    }
}

/// The embedded default's source: a Maildir spool, polled.
pub struct MaildirInbox {
    md: Maildir,
    max_bytes: usize,
    poll: Duration,
    queue: VecDeque<Incoming>,
}

impl MaildirInbox {
    /// Reads `md`, refusing to load files over `max_bytes` whole, and
    /// looking for new files every `poll`.
    pub fn new(md: Maildir, max_bytes: usize, poll: Duration) -> MaildirInbox {
        MaildirInbox {
            md,
            max_bytes,
            poll,
            queue: VecDeque::new(),
        }
    }

    /// Reads the spool's waiting files into the queue (synchronously: no
    /// await point, so `next` stays cancel-safe).
    fn scan(&mut self) -> Result<(), InboxError> {
        let waiting = self
            .md
            .waiting()
            .map_err(|e| InboxError::Fatal(format!("{}: {e}", self.md.root().display())))?;
        for w in waiting {
            let size = std::fs::metadata(&w.path).map(|m| m.len()).unwrap_or(0) as usize;
            let raw = if size > self.max_bytes {
                // Never read a huge file whole: its headers are enough to
                // refuse it politely.
                match read_head(&w.path, 256 * 1024) {
                    Ok(head) => Raw::Head { head, size },
                    Err(_) => continue,
                }
            } else {
                match std::fs::read(&w.path) {
                    Ok(r) => Raw::Full(r),
                    // Gone meanwhile (another reader): nothing to do.
                    Err(_) => continue,
                }
            };
            self.queue.push_back(Incoming {
                raw,
                origin: Origin {
                    source: "maildir".into(),
                    uidvalidity: None,
                    uid: None,
                },
                received: w.received,
                behind: 0,
                key: Key::Path(w.path),
            });
        }
        Ok(())
    }
}

impl Inbox for MaildirInbox {
    async fn next(&mut self) -> Result<Event, InboxError> {
        if self.queue.is_empty() {
            self.scan()?;
        }
        // One at a time (`behind` 0): the spool's order, by its files'
        // times to the nanosecond, is the order the posts came in (RULINGS
        // L12 concerns IMAP's numbering).
        if let Some(m) = self.queue.pop_front() {
            return Ok(Event::Mail(Box::new(m)));
        }
        tokio::time::sleep(self.poll).await;
        Ok(Event::Idle)
    }

    async fn ack(&mut self, m: &Incoming, done: Done) -> Result<(), InboxError> {
        if let Key::Path(p) = &m.key {
            finish(&self.md, p, done)
                .map_err(|e| InboxError::Fatal(format!("{}: {e}", p.display())))?;
        }
        Ok(())
    }
}

/// An inbox fed through a channel: the IMAP adapter's task sends into
/// it, and tests drive it by hand (keepalives included).
pub struct ChannelInbox {
    rx: tokio::sync::mpsc::Receiver<Result<Event, InboxError>>,
    acks: tokio::sync::mpsc::UnboundedSender<(Key, Done)>,
}

/// The sending side of a [`ChannelInbox`].
pub struct ChannelFeed {
    /// Events for the daemon.
    pub tx: tokio::sync::mpsc::Sender<Result<Event, InboxError>>,
    /// Keys of the messages the daemon has committed, in order, and how.
    pub acks: tokio::sync::mpsc::UnboundedReceiver<(Key, Done)>,
}

impl ChannelInbox {
    /// A connected pair: the inbox for the daemon, the feed for the
    /// source.
    pub fn pair(capacity: usize) -> (ChannelInbox, ChannelFeed) {
        let (tx, rx) = tokio::sync::mpsc::channel(capacity.max(1));
        let (atx, arx) = tokio::sync::mpsc::unbounded_channel();
        (
            ChannelInbox { rx, acks: atx },
            ChannelFeed { tx, acks: arx },
        )
    }
}

impl Inbox for ChannelInbox {
    async fn next(&mut self) -> Result<Event, InboxError> {
        match self.rx.recv().await {
            Some(e) => e,
            None => Err(InboxError::Fatal("the mail source stopped".into())),
        }
    }

    async fn ack(&mut self, m: &Incoming, done: Done) -> Result<(), InboxError> {
        // A source that went away will read the message again and find
        // it judged (by Message-ID): nothing is lost.
        let _ = self.acks.send((m.key.clone(), done));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_cut_at_its_blank_line() {
        let mut b = b"Subject: x\r\n\r\nbody".to_vec();
        cut_at_header_end(&mut b);
        assert_eq!(b, b"Subject: x\r\n\r\n");
        let mut b = b"Subject: x\n\nbody\n\nmore".to_vec();
        cut_at_header_end(&mut b);
        assert_eq!(b, b"Subject: x\n\n");
    }

    #[tokio::test(start_paused = true)]
    async fn an_empty_spool_wakes_idle_and_a_delivered_file_comes_once_acked() {
        let dir = std::env::temp_dir().join(format!("mornbot-inbox-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let md = Maildir::create(&dir).unwrap();
        let mut inbox = MaildirInbox::new(md, 1 << 20, Duration::from_millis(100));
        assert!(matches!(inbox.next().await.unwrap(), Event::Idle));
        // Delivered "long ago" so the settle time has passed.
        let path = dir.join("new").join("1.eml");
        std::fs::write(&path, b"Subject: hi\n\nbody\n").unwrap();
        let old = std::time::SystemTime::now() - Duration::from_secs(10);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let Event::Mail(m) = inbox.next().await.unwrap() else {
            panic!("expected the delivered file");
        };
        assert_eq!(m.raw, Raw::Full(b"Subject: hi\n\nbody\n".to_vec()));
        inbox.ack(&m, Done::Judged).await.unwrap();
        assert!(matches!(inbox.next().await.unwrap(), Event::Idle));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(start_paused = true)]
    async fn a_quarantined_file_is_moved_aside_not_marked_seen() {
        let dir = std::env::temp_dir().join(format!("mornbot-aside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let md = Maildir::create(&dir).unwrap();
        let path = md.deliver(b"Subject: poison\n\nbody\n", "p1").unwrap();
        let old = std::time::SystemTime::now() - Duration::from_secs(10);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let mut inbox = MaildirInbox::new(md, 1 << 20, Duration::from_millis(100));
        let Event::Mail(m) = inbox.next().await.unwrap() else {
            panic!("expected the delivered file");
        };
        inbox.ack(&m, Done::SetAside).await.unwrap();
        let aside: Vec<_> = std::fs::read_dir(dir.join("quarantine"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert_eq!(
            std::fs::read(&aside[0]).unwrap(),
            b"Subject: poison\n\nbody\n"
        );
        assert_eq!(std::fs::read_dir(dir.join("cur")).unwrap().count(), 0);
        assert_eq!(std::fs::read_dir(dir.join("new")).unwrap().count(), 0);
        assert!(matches!(inbox.next().await.unwrap(), Event::Idle));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
