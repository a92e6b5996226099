//! Replies recorded as sent on a thread of their own.
//!
//! Recording a reply as sent is a small write, but it waits for the
//! database's write lock, which the judging holds while it commits: 2.7 ms
//! a reply measured in the mailstack bench (11 ms while the judging held
//! the database; then the sent reply's 150 KB were written too), while the
//! SMTP submission itself took about 11 ms. Done between one submission
//! and the next, that wait made the sender a fifth slower than the stack
//! could take mail. So the sender hands each mark to this thread and
//! submits the next reply at once; the marks that wait together are
//! written in one commit.
//!
//! Exactly-once is unchanged: a reply is marked only after the server
//! accepted it, as before, and a reply accepted but not yet marked when the
//! daemon dies is what it always was after a kill between the two, an
//! unconfirmed attempt (see [`Store::begin_attempts`]). The sender waits
//! for every mark ([`Marker::flush`]) before it reads the outbox again, so
//! a reply marked late is never taken for one still due.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use tokio::sync::{mpsc, oneshot};

use crate::store::{Store, StoreError};

/// What the marking thread is asked to do.
enum Job {
    /// Record reply `id` sent at the time.
    Sent(i64, DateTime<Utc>),
    /// Answer once every mark asked for before is written (or the first
    /// that failed).
    Flush(oneshot::Sender<Result<(), StoreError>>),
}

/// Marks waiting at most: the sender waits for room past them, so that
/// replies sent but not yet marked stay few (while the judging holds the
/// database the marks queue up), and so do those a kill leaves unconfirmed.
const WAITING: usize = 8;

/// The thread recording replies as sent, with its own connection.
pub(super) struct Marker {
    jobs: mpsc::Sender<Job>,
    /// The database, to name in an error.
    db: PathBuf,
    /// The thread, joined by [`Marker::close`].
    thread: std::thread::JoinHandle<()>,
}

impl Marker {
    /// Starts the thread over the database at `db`.
    pub(super) fn start(db: &Path) -> Result<Marker, StoreError> {
        let mut store = Store::connect(db)?;
        let (jobs, mut rx) = mpsc::channel(WAITING);
        let thread = std::thread::Builder::new()
            .name("mornbot-marker".into())
            .spawn(move || run(&mut store, &mut rx))
            .map_err(|e| StoreError::Io {
                path: db.to_path_buf(),
                detail: format!("the thread recording sent replies: {e}"),
            })?;
        Ok(Marker {
            jobs,
            db: db.to_path_buf(),
            thread,
        })
    }

    /// Stops the thread once it has done what it was asked, and waits for
    /// it: its connection to the database is closed on return (a clean
    /// stop is recorded only when every connection is).
    pub(super) async fn close(self) {
        let Marker { jobs, thread, .. } = self;
        drop(jobs);
        let _ = tokio::task::spawn_blocking(move || thread.join()).await;
    }

    /// Records reply `id` as sent at `at`, soon: waits only while
    /// [`WAITING`] marks are.
    pub(super) async fn sent(&self, id: i64, at: DateTime<Utc>) {
        // A closed channel (the thread gone) is reported by the next flush.
        let _ = self.jobs.send(Job::Sent(id, at)).await;
    }

    /// Waits until every mark asked for is written: the first error since
    /// the last flush, if any.
    pub(super) async fn flush(&self) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        let gone = || StoreError::Io {
            path: self.db.clone(),
            detail: "the thread recording sent replies stopped".into(),
        };
        self.jobs.send(Job::Flush(tx)).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }
}

/// The thread: marks written as they come, those waiting together in one
/// commit; an error kept for the next flush (the marks after it are not
/// written: the sender stops at the flush, and the replies stay
/// unconfirmed, as after a kill).
fn run(store: &mut Store, rx: &mut mpsc::Receiver<Job>) {
    let mut failed: Option<StoreError> = None;
    while let Some(first) = rx.blocking_recv() {
        let mut marks = Vec::new();
        let mut flushes = Vec::new();
        let waiting = std::iter::from_fn(|| rx.try_recv().ok());
        for job in std::iter::once(first).chain(waiting) {
            match job {
                Job::Sent(id, at) => marks.push((id, at)),
                Job::Flush(tx) => flushes.push(tx),
            }
        }
        if failed.is_none() && !marks.is_empty() {
            failed = store.mark_all_sent(&marks).err();
        }
        for tx in flushes {
            let _ = tx.send(match failed.take() {
                Some(e) => Err(e),
                None => Ok(()),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Commit, NewMail};

    /// Marks asked for are in the database (seen by another connection)
    /// once a flush returns; a flush with nothing to write returns at
    /// once.
    #[tokio::test]
    async fn a_flush_returns_once_every_mark_is_written() {
        let dir = std::env::temp_dir().join(format!("mornbot-marker-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("db.sqlite");
        let _ = std::fs::remove_file(&path);
        let mut store = Store::open(&path).unwrap();
        let mail = |n: u32| NewMail {
            message_id: format!("r{n}@bot"),
            envelope_from: "bot@x".into(),
            recipients: vec!["a@x".into()],
            raw: format!("Subject: {n}\r\n\r\nhi\r\n").into_bytes(),
        };
        store
            .commit(&Commit {
                received_at: Some(Utc::now()),
                outbox: (1..=3).map(mail).collect(),
                ..Commit::default()
            })
            .unwrap();
        let due = store.due_mail(Utc::now(), 10).unwrap();
        assert_eq!(due.len(), 3);
        let marker = Marker::start(&path).unwrap();
        marker.flush().await.unwrap();
        marker.sent(due[0].id, Utc::now()).await;
        marker.sent(due[1].id, Utc::now()).await;
        marker.flush().await.unwrap();
        assert_eq!(store.outbox_counts().unwrap(), (1, 2));
        let left = store.due_mail(Utc::now(), 10).unwrap();
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].id, due[2].id);
        // What was queued is kept as it was.
        let kept = store.all_mail().unwrap();
        assert_eq!(kept[1].raw, mail(2).raw);
        drop(marker);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
