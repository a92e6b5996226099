//! No poison message: judging one mail that fails or panics sets it aside
//! (issue 14), so the daemon goes on with the next one and a restart never
//! meets it again.
//!
//! Judging works on a copy of a game and commits before the copy replaces
//! it, so a failure or a panic leaves the referee as it was. The mail is
//! recorded in the `quarantine` table (with its bytes, for the operator)
//! and as processed, in one transaction; `mornbot status` lists it. Only
//! when that record cannot be written either (the database itself is
//! failing) does the error stop the daemon.

use std::panic::{catch_unwind, AssertUnwindSafe};

use chrono::{DateTime, Utc};

use super::referee::{Handled, Referee};
use super::DaemonError;
use crate::mail::inbox::Done;
use crate::store::{Origin, Store};

/// The kind of a [`Handled`] mail that was quarantined.
pub const KIND: &str = "quarantined";

/// How the daemon is done with a handled mail at its source: set aside
/// when it was quarantined, else judged.
pub fn done(h: &Handled) -> Done {
    if h.kind == KIND {
        Done::SetAside
    } else {
        Done::Judged
    }
}

/// Runs `judge` on one mail; when it fails or panics, quarantines the mail
/// (`raw`, from `origin`) and returns a `quarantined` [`Handled`].
pub fn guarded(
    referee: &mut Referee,
    store: &mut Store,
    raw: &[u8],
    origin: &Origin,
    now: DateTime<Utc>,
    judge: impl FnOnce(&mut Referee, &mut Store) -> Result<Handled, DaemonError>,
) -> Result<Handled, DaemonError> {
    let reason = match catch_unwind(AssertUnwindSafe(|| judge(referee, store))) {
        Ok(Ok(h)) => return Ok(h),
        Ok(Err(e)) => format!("judging it failed: {e}"),
        Err(panic) => format!("judging it panicked: {}", crate::panic_text(panic.as_ref())),
    };
    let message_id = message_id_of(raw);
    tracing::error!(id = %message_id, source = %origin.source, uid = ?origin.uid,
        "quarantined: {reason}; see `mornbot status`");
    store
        .quarantine(&message_id, origin, &reason, raw, now)
        .map_err(|e| {
            tracing::error!("could not record the quarantined mail: {e}");
            DaemonError::Store(e)
        })?;
    Ok(Handled {
        message_id,
        game: None,
        kind: KIND.into(),
        summary: reason,
        replies: 0,
    })
}

/// The mail's Message-ID, read without the parser (which may be what
/// failed): the first `Message-ID:` header of the head, at most 250
/// bytes; else the id mornbot makes up for a mail without one.
fn message_id_of(raw: &[u8]) -> String {
    let head = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .map_or(raw, |end| &raw[..end]);
    String::from_utf8_lossy(head)
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            let id = value.trim();
            (name.eq_ignore_ascii_case("message-id") && !id.is_empty() && id.len() <= 250)
                .then(|| id.to_string())
        })
        .unwrap_or_else(|| crate::mail::inbound::synthesized_message_id(raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_id_is_read_from_the_head_alone() {
        assert_eq!(
            message_id_of(b"From: a@b\r\nMessage-ID: <x@y>\r\n\r\nMessage-ID: <z@w>\r\n"),
            "<x@y>"
        );
        assert_eq!(message_id_of(b"message-id:   <x@y>  \n\nbody"), "<x@y>");
        assert!(message_id_of(b"From: a@b\n\nno id").ends_with("@mornbot.invalid"));
    }
}
