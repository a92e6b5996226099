//! The sender: delivers the outbox over the sink's kept connection, with
//! backoff, drawing the pictures replies are owed as they go out.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::{watch, Notify};

use super::marker::Marker;
use super::referee::Painter;
use super::DaemonError;
use crate::mail::send::Sink;
use crate::store::{OutMail, Store};

/// Hours between drops of old delivered replies' text.
const PRUNE_HOURS: i64 = 24;

/// Drops the text of replies delivered more than `[outbox]
/// keep_sent_days` ago ([`Store::prune_sent`]). A failure is logged, not
/// fatal: delivery matters more than tidying, and the next day tries again.
fn prune(store: &mut Store, cfg: &crate::config::OutboxConfig) {
    let before = Utc::now() - chrono::Duration::days(i64::from(cfg.keep_sent_days));
    match store.prune_sent(before) {
        Ok(0) => {}
        Ok(n) => tracing::info!(replies = n, "dropped the text of old delivered replies"),
        Err(e) => tracing::warn!("dropping old delivered replies' text: {e}"),
    }
}

/// Delivers the outbox until `stop` turns true, retrying failures with
/// exponential backoff (1 s doubling to 10 minutes).
///
/// `painter` draws the pictures replies are owed, as they are sent.
pub async fn sender(
    db: PathBuf,
    mut sink: Sink,
    cfg: crate::config::OutboxConfig,
    painter: Painter,
    wake: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
) -> Result<(), DaemonError> {
    let mut store = Store::connect(&db)?;
    let marker = Marker::start(&db)?;
    let held = store.defer_unconfirmed(
        Utc::now() + chrono::Duration::seconds(cfg.unconfirmed_wait_secs as i64),
    )?;
    if held > 0 {
        tracing::warn!(
            "{held} replies were being delivered when the daemon stopped: retrying in {} s unless their copy comes back (through the list, or a private mail's to mornbot)",
            cfg.unconfirmed_wait_secs
        );
    }
    let result = deliver(
        &mut store, &marker, &mut sink, &cfg, &painter, &wake, &mut stop,
    )
    .await;
    marker.close().await;
    result
}

/// The sender's loop: the outbox delivered as replies fall due, until
/// `stop` turns true.
async fn deliver(
    store: &mut Store,
    marker: &Marker,
    sink: &mut Sink,
    cfg: &crate::config::OutboxConfig,
    painter: &Painter,
    wake: &Notify,
    stop: &mut watch::Receiver<bool>,
) -> Result<(), DaemonError> {
    let mut next_prune = Utc::now();
    loop {
        if Utc::now() >= next_prune {
            prune(store, cfg);
            next_prune = Utc::now() + chrono::Duration::hours(PRUNE_HOURS);
        }
        deliver_due(store, marker, sink, cfg, painter, stop).await?;
        if *stop.borrow() {
            if let Sink::Smtp(s) = sink {
                s.close().await;
            }
            return Ok(());
        }
        let wait = match store.next_mail_due()? {
            Some(t) => (t - Utc::now())
                .to_std()
                .unwrap_or(Duration::ZERO)
                .min(Duration::from_secs(60)),
            None => Duration::from_secs(60),
        };
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = stop.changed() => {}
        }
    }
}

/// Delivers the replies due now, oldest first, one after another over the
/// sink's kept connection, until one fails or `stop` turns true. Their
/// attempts are recorded first, in one transaction for the batch (see
/// [`Store::begin_attempts`]); those the batch did not reach are given
/// back. The pictures replies are owed are drawn a few replies ahead
/// ([`Drawing`]), while the reply before is in flight; replies accepted are
/// recorded as sent by `marker`'s thread, and all of them are before this
/// returns.
async fn deliver_due(
    store: &mut Store,
    marker: &Marker,
    sink: &mut Sink,
    cfg: &crate::config::OutboxConfig,
    painter: &Painter,
    stop: &watch::Receiver<bool>,
) -> Result<(), DaemonError> {
    let due = store.due_mail(Utc::now(), 100)?;
    if due.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = due.iter().map(|m| m.id).collect();
    store.begin_attempts(&ids, Utc::now())?;
    let mut drawing = Drawing::new(painter, &due);
    let mut tried = 0;
    for (k, m) in due.iter().enumerate() {
        tried += 1;
        // Drawn: the message with its picture, sent in place of the text
        // (the row's text and owed scene are not copied: the sink needs
        // neither).
        let drawn = drawing.take(k).await.map(|raw| OutMail {
            id: m.id,
            message_id: m.message_id.clone(),
            envelope_from: m.envelope_from.clone(),
            recipients: m.recipients.clone(),
            raw,
            attempts: m.attempts,
            owed: None,
        });
        match sink.send(drawn.as_ref().unwrap_or(m)).await {
            Ok(()) => {
                marker.sent(m.id, Utc::now()).await;
                tracing::info!(id = %m.message_id, to = ?m.recipients, "sent");
            }
            Err(e) => {
                let secs = (1u64 << m.attempts.min(20)).min(cfg.retry_max_secs.max(1));
                let retry = Utc::now() + chrono::Duration::seconds(secs as i64);
                tracing::warn!(id = %m.message_id, "delivery failed, retry at {retry}: {e}");
                store.mark_failed(m.id, &e.to_string(), retry)?;
                break;
            }
        }
        if *stop.borrow() {
            break;
        }
    }
    marker.flush().await?;
    if tried < ids.len() {
        store.end_attempts(&ids[tried..])?;
    }
    Ok(())
}

/// A reply's message being drawn: its bytes, or why its picture could
/// not be drawn.
type Drawn = tokio::task::JoinHandle<Result<Vec<u8>, String>>;

/// How many owed pictures are drawn at once ahead of the reply being sent.
/// One: drawing a picture (4 - 9 ms of CPU) takes less than submitting a
/// reply (7 - 11 ms to Postfix on loopback, more to a server further
/// away), so the next is drawn by the time it is wanted. Two kept a second
/// canvas and thread arena, 17 MB more peak memory in the mailstack bench,
/// for no throughput it could tell apart (1.69x and 1.59x of the floor
/// against 1.72x and 1.71x with one).
const DRAW_AHEAD: usize = 1;

/// The owed pictures of a batch of replies being drawn, in order, on the
/// blocking pool (they are CPU work: off the runtime's threads).
struct Drawing<'a> {
    painter: &'a Painter,
    due: &'a [OutMail],
    next: usize,
    running: std::collections::VecDeque<(usize, Drawn)>,
}

impl<'a> Drawing<'a> {
    fn new(painter: &'a Painter, due: &'a [OutMail]) -> Drawing<'a> {
        Drawing {
            painter,
            due,
            next: 0,
            running: Default::default(),
        }
    }

    /// Starts drawing the next owed pictures, up to [`DRAW_AHEAD`].
    fn top_up(&mut self) {
        while self.running.len() < DRAW_AHEAD && self.next < self.due.len() {
            let (k, m) = (self.next, &self.due[self.next]);
            self.next += 1;
            let Some(owed) = m.owed.clone() else { continue };
            let painter = self.painter.clone();
            let task = tokio::task::spawn_blocking(move || {
                painter.finish(&owed).map_err(|e| e.to_string())
            });
            self.running.push_back((k, task));
        }
    }

    /// The message the `k`th reply is sent as when it was owed a picture
    /// (`None`: as stored). Replies are taken in order.
    async fn take(&mut self, k: usize) -> Option<Vec<u8>> {
        self.top_up();
        let finished = match self.running.front() {
            Some((j, _)) if *j == k => {
                let (_, task) = self.running.pop_front()?;
                let drawn = task.await.map_err(|e| e.to_string()).and_then(|r| r);
                Some(drawn.unwrap_or_else(|e| {
                    // The text alone (a record that does not decode, or a
                    // panic drawing): the verdict must go out.
                    tracing::error!(id = %self.due[k].message_id, "sent without its picture: {e}");
                    self.due[k].raw.clone()
                }))
            }
            _ => None,
        };
        self.top_up();
        finished
    }
}
