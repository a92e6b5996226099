//! Raw mail to [`Inbound`]: see the module docs of [`crate::mail`].
//!
//! [`parse`] reads one RFC 5322 message with `mail-parser` and keeps what the
//! referee needs: threading headers, the sender, a plain-text body in which
//! a fixed-width GSD keeps its line structure, why the bot must never answer
//! it ([`AutoKind`]), and whether a trusted `Authentication-Results` header
//! vouches for the sender ([`AuthVerdict`]). It is pure: bytes and a
//! [`Limits`] in, data out; it never panics, whatever the bytes.
//!
//! # Judgment calls
//!
//! - **Errors still carry an [`Envelope`].** An oversize or unreadable
//!   message yields [`InboundError`], whose variants carry what could be read
//!   of the headers (sender, Message-ID, subject, threading, and the
//!   [`AutoKind`]) so that the caller can reply "too big" or "unreadable" —
//!   and knows when it must not. A message without a usable `From` address
//!   is [`InboundError::Unreadable`]: nobody to answer.
//! - **Body.** The inline `text/plain` parts are preferred (all of them, in
//!   order, joined by a newline); other `text/*` parts only when there is no
//!   `text/plain`; an HTML-only message is converted by this module's own
//!   converter, because `mail-parser`'s `body_text` collapses every run of
//!   white space and all line ends except `<br>` and `</p>`, which would flatten a GSD. The
//!   converter keeps `<pre>` verbatim, breaks lines at `<br>` and at block
//!   elements (one line per `<p>` or `<div>`, as Outlook and Gmail write
//!   them, without blank lines between, because a blank line ends a GSD
//!   table; a `<pre>` or data table is set off by blank lines, so that
//!   prose after a GSD is not read as a Play), keeps `&nbsp;` runs as
//!   spaces, prefixes `<blockquote>` lines
//!   with `> `, and writes a data `<table>` (no nested table or `<pre>`) as
//!   `| cell | cell |` rows between `+---+` borders, a border after the
//!   heading rows (`<th>` rows, or else the first row); a table whose first
//!   row is one cell is written as a GSD box (`+- Title ---+`). What its
//!   reader is not shown is not read (issue 40): an element with the
//!   `hidden` attribute, an inline style that hides it, or a rule of the
//!   mail's `<style>` sheets that hides it by its name, `id` or a class
//!   (`html::sheet`). Attachments
//!   (`Content-Disposition: attachment`) are never read.
//! - **format=flowed** (RFC 3676) parts are un-flowed with
//!   `flowed::unflow`; with `delsp=yes` the space before each soft
//!   break is deleted first (by this module, since `unflow` keeps it).
//!   Line ends become LF and a leading byte-order mark is dropped.
//! - **Message-ID.** Without one, `missing-<16 hex digits>@mornbot.invalid`
//!   from a 64-bit FNV-1a hash of the raw bytes: the same bytes always get
//!   the same id, so a redelivered message is still recognised.
//! - **Never-reply markers**, tested in this order, the first one wins:
//!   [`AutoKind::Loop`], [`AutoKind::Own`], [`AutoKind::Bounce`],
//!   [`AutoKind::ListNotice`], [`AutoKind::AutoSubmitted`],
//!   [`AutoKind::Bulk`]. `Precedence: list` and `List-Id` mark every post
//!   the list distributes and are not markers. See [`AutoKind`] for each.
//! - **Authentication.** Only the topmost `Authentication-Results` block
//!   added by [`Limits::trusted_authserv_id`], above the first `Received:`
//!   header from outside, counts: see [`crate::mail::auth`].
//! - **The sender.** Exactly one `From:` header holding exactly one
//!   address, or the message is [`InboundError::Unreadable`] with no
//!   sender to answer: with two, whichever was chosen could be forged. A
//!   `From` address with a non-ASCII character is refused the same way
//!   (see [`crate::mail::address`]); addresses are lower-cased by ASCII
//!   rules only.
//! - **Text fit for replies.** The subject, the display name and the
//!   body are cleaned as they are read (`clean.rs`): a control character
//!   (NUL, ESC, DEL...) becomes a space, but the body keeps its line feeds
//!   and tabs; bidirectional controls are dropped. Nothing downstream (a
//!   command, a name, a quoted line, a Buzz's reason) can carry one into a
//!   reply.
//! - **References.** At most [`MAX_REFERENCES`] ids are kept (the first,
//!   which names the thread, and the most recent), so that a hostile chain
//!   costs nothing downstream.

use chrono::{DateTime, Utc};
use mail_parser::{Address, HeaderValue, Message, MessageParser, MimeHeaders, PartType};

use super::address;

mod auto;
mod body;
mod clean;
mod flowed;
mod headers;
mod html;
#[cfg(test)]
mod tests;

use auto::auto_kind;
pub(crate) use auto::is_manager_of;
use body::body_text;
use headers::{
    addr_spec, addresses, envelope, header, header_block, raw_headers, sender_problem, split_addr,
};
pub use headers::{synthesized_message_id, MAX_REFERENCES};
pub use html::html_to_text;

/// The default largest message [`parse`] reads: 1 MiB.
pub const DEFAULT_MAX_BYTES: usize = 1 << 20;

/// What [`parse`] needs to know besides the bytes: the size limit and the
/// bot's own identity (for loop detection and authentication).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest message read, in bytes; larger ones are
    /// [`InboundError::Oversize`]. Default [`DEFAULT_MAX_BYTES`].
    pub max_bytes: usize,
    /// The bot's own addresses (any case): mail `From` one of them is
    /// [`AutoKind::Own`].
    pub own_addresses: Vec<String>,
    /// The value the bot writes in the `X-Loop` header of its own mail: an
    /// `X-Loop` equal to it (ignoring case) is [`AutoKind::Loop`].
    pub loop_token: Option<String>,
    /// The authserv-id of the receiving server whose
    /// `Authentication-Results` are trusted; `None` trusts none, and every
    /// message is [`AuthVerdict::Unknown`].
    pub trusted_authserv_id: Option<String>,
    /// Networks whose `Received:` hops are inside the trust boundary,
    /// besides loopback and LMTP (see [`crate::mail::auth`]).
    pub internal_networks: Vec<crate::mail::auth::Network>,
    /// The lounge's posting address (`lounge@example.org`), to recognise the
    /// list manager's own addresses (`lounge+owner@`, `lounge-request@`,
    /// `lounge+help@`, `owner-lounge@`, ...). Without it only the
    /// unmistakable manager addresses are recognised (see
    /// [`AutoKind::ListNotice`]).
    pub list_address: Option<String>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            own_addresses: Vec::new(),
            loop_token: None,
            trusted_authserv_id: None,
            internal_networks: Vec::new(),
            list_address: None,
        }
    }
}

/// Why the bot must never reply to a message (RFC 3834 and common practice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum AutoKind {
    /// `Auto-Submitted` (RFC 3834) with any value but `no`.
    AutoSubmitted,
    /// A delivery report: `Content-Type: multipart/report`, an empty
    /// `Return-Path` (`<>`), an `X-Failed-Recipients` header, or `From`
    /// `MAILER-DAEMON@` / `postmaster@` / `mail-daemon@`.
    Bounce,
    /// From the list manager itself, not from a member: an
    /// `X-List-Administrivia: yes` header, or `From` an address of the list
    /// software: with [`Limits::list_address`] `lounge@d`, any
    /// `lounge+WORD...@d` or `lounge-WORD...@d` where WORD is one of owner,
    /// request, bounces, bounce, admin, help, confirm, subscribe,
    /// unsubscribe, join, leave, probe, moderators, or `owner-lounge@d`;
    /// and for any list, `owner-*@`, `*-owner@`, `*+owner@`, `*-request@`,
    /// `*-bounces@`, `*-bounces+*@`, `*+bounces-*@`. Posts the list
    /// distributes carry `List-Id` and `Precedence: list` too, and are not
    /// notices.
    ListNotice,
    /// An `X-Loop` header equal to [`Limits::loop_token`]: the bot's own
    /// mail coming back.
    Loop,
    /// `From` one of [`Limits::own_addresses`].
    Own,
    /// Bulk or vacation mail without RFC 3834 markers: `Precedence: bulk`,
    /// `junk` or `auto_reply`; an `X-Autoreply`, `X-Autorespond` or
    /// `X-Autoresponder` header (other than `no`); or a subject beginning
    /// with an auto-reply prefix (`Auto:`, `Automatic reply:`,
    /// `Auto-Reply:`, `Autoreply:`, `Out of Office:`, `Out of Office
    /// AutoReply:`, `Abwesenheitsnotiz:`, `Automatische Antwort:`; a
    /// judgment call: only these colon-ended prefixes, never words anywhere
    /// in the subject, so a player writing "out of office until Monday" is
    /// still heard).
    Bulk,
}

pub use super::auth::AuthVerdict;

/// What could be read of a message's headers: enough to reply to it, or to
/// know not to. Carried by [`InboundError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// As [`Inbound::message_id`] (synthesized when missing).
    pub message_id: String,
    /// As [`Inbound::in_reply_to`].
    pub in_reply_to: Option<String>,
    /// As [`Inbound::references`].
    pub references: Vec<String>,
    /// The lowercased `From` addr-spec, when there is one.
    pub from: Option<String>,
    /// As [`Inbound::from_name`].
    pub from_name: Option<String>,
    /// As [`Inbound::subject`].
    pub subject: String,
    /// As [`Inbound::auto`]: when set, do not reply even to say it failed.
    pub auto: Option<AutoKind>,
    /// As [`Inbound::list_id`].
    pub list_id: Option<String>,
}

/// Why [`parse`] could not produce an [`Inbound`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InboundError {
    /// The message is larger than [`Limits::max_bytes`]; its headers were
    /// read (up to the first blank line, at most 256 KiB) into `envelope`.
    #[error("the message is {bytes} bytes, over the limit of {limit}")]
    Oversize {
        /// The message's size.
        bytes: usize,
        /// The limit.
        limit: usize,
        /// What could be read of the headers (boxed: the error stays small).
        envelope: Option<Box<Envelope>>,
    },
    /// No headers could be read, or there is no usable `From` address.
    #[error("unreadable message: {reason}")]
    Unreadable {
        /// What was wrong.
        reason: String,
        /// What could be read of the headers (boxed: the error stays small).
        envelope: Option<Box<Envelope>>,
    },
}

impl InboundError {
    /// What could be read of the message's headers, if anything.
    pub fn envelope(&self) -> Option<&Envelope> {
        match self {
            InboundError::Oversize { envelope, .. } | InboundError::Unreadable { envelope, .. } => {
                envelope.as_deref()
            }
        }
    }
}

/// A lounge message, reduced to what the referee reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    /// `Message-ID` without angle brackets; synthesized
    /// (`missing-<hex>@mornbot.invalid`, stable for the same bytes) when the
    /// header is missing or empty.
    pub message_id: String,
    /// The first id of `In-Reply-To`, without angle brackets.
    pub in_reply_to: Option<String>,
    /// The ids of `References`, oldest first, without angle brackets.
    pub references: Vec<String>,
    /// The `From` addr-spec, lowercased.
    pub from: String,
    /// The `From` display name, when there is a non-empty one.
    pub from_name: Option<String>,
    /// Every addr-spec of `To` and `Cc`, lowercased, in order.
    pub to: Vec<String>,
    /// The decoded `Subject` (RFC 2047), trimmed; empty when missing.
    pub subject: String,
    /// The `Date` header, when present and valid.
    pub date: Option<DateTime<Utc>>,
    /// The plain-text body: decoded, un-flowed, LF line ends (see the
    /// module docs for how parts and HTML are chosen and converted).
    pub body: String,
    /// Why the bot must never reply, when it must not.
    pub auto: Option<AutoKind>,
    /// What the trusted `Authentication-Results` say of the sender.
    pub auth: AuthVerdict,
    /// The `List-Id` (the part between `<` and `>`, else the whole value).
    pub list_id: Option<String>,
    /// The size of the raw message in bytes.
    pub raw_size: usize,
    /// Every addr-spec of `Reply-To`, lowercased, in order.
    pub reply_to: Vec<String>,
    /// The addr-spec of `X-Original-From` (lists that rewrite From for
    /// DMARC keep the author there), lowercased.
    pub original_from: Option<String>,
    /// A sentence for the reply when the body was not what it said it
    /// was (bytes that are not UTF-8, read as Windows-1252).
    pub read_as: Option<&'static str>,
}

/// Reads one raw RFC 5322 message. Never panics.
///
/// # Errors
///
/// [`InboundError::Oversize`] when `raw` is longer than
/// [`Limits::max_bytes`]; [`InboundError::Unreadable`] when no header can
/// be read or there is no `From` address. Both carry an [`Envelope`] when
/// any header could be read.
pub fn parse(raw: &[u8], limits: &Limits) -> Result<Inbound, InboundError> {
    if raw.len() > limits.max_bytes {
        let head = header_block(raw);
        let envelope = MessageParser::new().parse_headers(head).map(|m| {
            let mut env = envelope(&m, raw, limits);
            if env
                .from
                .as_deref()
                .is_some_and(|f| sender_problem(&m, f).is_some())
            {
                env.from = None;
            }
            Box::new(env)
        });
        return Err(InboundError::Oversize {
            bytes: raw.len(),
            limit: limits.max_bytes,
            envelope,
        });
    }
    // mail-parser has known panics on malformed nested messages: one mail
    // must never take the daemon down, so a panic is an unreadable mail.
    let parsed = std::panic::catch_unwind(|| MessageParser::new().parse(raw));
    let Ok(Some(msg)) = parsed else {
        return Err(InboundError::Unreadable {
            reason: if parsed.is_err() {
                "the mail's MIME structure could not be read".into()
            } else {
                "no mail headers".into()
            },
            envelope: None,
        });
    };
    let env = envelope(&msg, raw, limits);
    let Some(from) = env.from.clone() else {
        return Err(InboundError::Unreadable {
            reason: "no From address".into(),
            envelope: Some(Box::new(env)),
        });
    };
    if let Some(reason) = sender_problem(&msg, &from) {
        return Err(InboundError::Unreadable {
            reason,
            envelope: Some(Box::new(Envelope { from: None, ..env })),
        });
    }
    let headers = raw_headers(&msg);
    let trust = limits
        .trusted_authserv_id
        .as_deref()
        .map(|id| crate::mail::auth::Trust {
            authserv_id: id,
            internal_networks: &limits.internal_networks,
        });
    let auth = crate::mail::auth::read(&headers, &from, trust.as_ref()).verdict;
    let mut to = addresses(msg.to());
    to.extend(addresses(msg.cc()));
    let date = msg
        .date()
        .filter(|d| d.is_valid())
        .and_then(|d| DateTime::<Utc>::from_timestamp(d.to_timestamp(), 0));
    let (body, read_as) = body_text(&msg);
    Ok(Inbound {
        message_id: env.message_id,
        in_reply_to: env.in_reply_to,
        references: env.references,
        from,
        from_name: env.from_name,
        to,
        subject: env.subject,
        date,
        body: clean::body(body),
        auto: env.auto,
        auth,
        list_id: env.list_id,
        raw_size: raw.len(),
        reply_to: addresses(msg.reply_to()),
        original_from: headers
            .iter()
            .find(|(n, _)| n == "x-original-from")
            .and_then(|(_, v)| addr_spec(v)),
        read_as,
    })
}
