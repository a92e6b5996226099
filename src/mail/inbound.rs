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
//!   row is one cell is written as a GSD box (`+- Title ---+`). Attachments
//!   (`Content-Disposition: attachment`) are never read.
//! - **format=flowed** (RFC 3676) parts are un-flowed with
//!   [`crate::gsd::unflow`]; with `delsp=yes` the space before each soft
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
//! - **References.** At most [`MAX_REFERENCES`] ids are kept (the first,
//!   which names the thread, and the most recent), so that a hostile chain
//!   costs nothing downstream.

use chrono::{DateTime, Utc};
use mail_parser::{Address, HeaderValue, Message, MessageParser, MimeHeaders, PartType};

use super::address;

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
    Ok(Inbound {
        message_id: env.message_id,
        in_reply_to: env.in_reply_to,
        references: env.references,
        from,
        from_name: env.from_name,
        to,
        subject: env.subject,
        date,
        body: body_text(&msg),
        auto: env.auto,
        auth,
        list_id: env.list_id,
        raw_size: raw.len(),
        reply_to: addresses(msg.reply_to()),
        original_from: headers
            .iter()
            .find(|(n, _)| n == "x-original-from")
            .and_then(|(_, v)| addr_spec(v)),
    })
}

/// The header section of a raw message (up to its first blank line), at
/// most 256 KiB: what an oversize message is read for.
fn header_block(raw: &[u8]) -> &[u8] {
    let cap = &raw[..raw.len().min(256 * 1024)];
    let end = cap
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|i| i + 2)
        .into_iter()
        .chain(cap.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4))
        .min()
        .unwrap_or(cap.len());
    &cap[..end]
}

fn addresses(a: Option<&Address<'_>>) -> Vec<String> {
    a.map(|a| {
        a.iter()
            .filter_map(|x| x.address())
            .map(address::normalize)
            .filter(|s| !s.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

/// The addr-spec in a raw address header value: the part in `<>`, else
/// the first word with an `@`; lowercased.
fn addr_spec(value: &str) -> Option<String> {
    let a = match (value.rfind('<'), value.rfind('>')) {
        (Some(i), Some(j)) if i < j => &value[i + 1..j],
        _ => value.split_whitespace().find(|w| w.contains('@'))?,
    };
    let a = a.trim().trim_matches(['"', '\'', ',']);
    (a.contains('@') && !a.contains(char::is_whitespace)).then(|| a.to_ascii_lowercase())
}

/// The root part's headers: lowercased name, unfolded raw value.
fn raw_headers(msg: &Message<'_>) -> Vec<(String, String)> {
    msg.headers_raw()
        .map(|(name, value)| (name.to_ascii_lowercase(), unfold(value)))
        .collect()
}

fn unfold(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\r' | '\n' => {}
            '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> impl Iterator<Item = &'h str> + 'h {
    let name = name.to_string();
    headers
        .iter()
        .filter(move |(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

fn ids(v: &HeaderValue<'_>) -> Vec<String> {
    let clean = |s: &str| s.trim().trim_matches(['<', '>']).trim().to_string();
    match v {
        HeaderValue::Text(t) => vec![clean(t)],
        HeaderValue::TextList(l) => l.iter().map(|t| clean(t)).collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect()
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The id given to a message without a Message-ID: stable for its bytes.
pub fn synthesized_message_id(raw: &[u8]) -> String {
    format!("missing-{:016x}@mornbot.invalid", fnv1a(raw))
}

fn envelope(msg: &Message<'_>, raw: &[u8], limits: &Limits) -> Envelope {
    let headers = raw_headers(msg);
    let message_id = msg
        .message_id()
        .map(|s| s.trim().trim_matches(['<', '>']).trim())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| synthesized_message_id(raw));
    let first_from = msg.from().and_then(|a| a.iter().next());
    let from = first_from
        .and_then(|a| a.address())
        .map(address::normalize)
        .filter(|s| !s.is_empty() && !s.contains(char::is_whitespace));
    let from_name = first_from
        .and_then(|a| a.name())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let subject = msg
        .subject()
        .map(|s| s.replace(['\r', '\n'], " ").trim().to_string())
        .unwrap_or_default();
    let list_id = header(&headers, "list-id").next().and_then(|v| {
        let inner = match (v.rfind('<'), v.rfind('>')) {
            (Some(a), Some(b)) if a < b => &v[a + 1..b],
            _ => v,
        };
        let inner = inner.trim();
        (!inner.is_empty()).then(|| inner.to_string())
    });
    let auto = auto_kind(msg, &headers, from.as_deref(), &subject, limits);
    Envelope {
        message_id,
        in_reply_to: ids(msg.in_reply_to()).into_iter().next(),
        references: capped(ids(msg.references())),
        from,
        from_name,
        subject,
        auto,
        list_id,
    }
}

/// The most `References` ids kept: the first and the most recent.
pub const MAX_REFERENCES: usize = 32;

fn capped(mut refs: Vec<String>) -> Vec<String> {
    if refs.len() > MAX_REFERENCES {
        refs.drain(1..refs.len() + 1 - MAX_REFERENCES);
    }
    refs
}

/// Why the sender cannot be told (see the module docs), if it cannot.
fn sender_problem(msg: &Message<'_>, from: &str) -> Option<String> {
    let froms = msg
        .headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case("from"))
        .count();
    if froms > 1 {
        return Some(format!(
            "it has {froms} From: headers, so its sender cannot be told"
        ));
    }
    let mailboxes = msg.from().map_or(0, |a| a.iter().count());
    if mailboxes > 1 {
        return Some(format!(
            "its From: header names {mailboxes} addresses, so its sender cannot be told"
        ));
    }
    address::check_ascii(from).err().map(|e| e.to_string())
}

fn split_addr(addr: &str) -> (&str, &str) {
    match addr.rsplit_once('@') {
        Some((l, d)) => (l, d),
        None => (addr, ""),
    }
}

const MANAGER_WORDS: [&str; 13] = [
    "owner",
    "request",
    "bounces",
    "bounce",
    "admin",
    "help",
    "confirm",
    "subscribe",
    "unsubscribe",
    "join",
    "leave",
    "probe",
    "moderators",
];

/// Is `from` an address of the manager of the list `list` (its
/// `lounge+owner@`, `lounge-request@`, `owner-lounge@`, ...)?
pub(crate) fn is_manager_of(from: &str, list: &str) -> bool {
    let (local, domain) = split_addr(from);
    let list = address::normalize(list);
    let (l_local, l_domain) = split_addr(&list);
    if l_local.is_empty() || domain != l_domain {
        return false;
    }
    if local == format!("owner-{l_local}") {
        return true;
    }
    ['+', '-'].iter().any(|&sep| {
        local
            .strip_prefix(l_local)
            .and_then(|r| r.strip_prefix(sep))
            .is_some_and(|rest| {
                let word = rest.split(['+', '-', '=', '.']).next().unwrap_or("");
                MANAGER_WORDS.contains(&word)
            })
    })
}

/// Is `from` an address of the list software (see [`AutoKind::ListNotice`])?
fn is_list_manager(from: &str, list: Option<&str>) -> bool {
    if list.is_some_and(|l| is_manager_of(from, l)) {
        return true;
    }
    let (local, _) = split_addr(from);
    let generic = (local.starts_with("owner-") && local.len() > 6)
        || local.ends_with("-owner")
        || local.ends_with("+owner")
        || local.ends_with("-request")
        || local.ends_with("-bounces")
        || local.contains("-bounces+")
        || local.contains("+bounces-");
    generic && !local.starts_with(['-', '+'])
}

const AUTO_SUBJECTS: [&str; 8] = [
    "auto:",
    "automatic reply:",
    "auto-reply:",
    "autoreply:",
    "out of office:",
    "out of office autoreply:",
    "abwesenheitsnotiz:",
    "automatische antwort:",
];

fn auto_kind(
    msg: &Message<'_>,
    headers: &[(String, String)],
    from: Option<&str>,
    subject: &str,
    limits: &Limits,
) -> Option<AutoKind> {
    let first_word = |v: &str| {
        v.split([';', ' ', '('])
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    if let Some(token) = limits.loop_token.as_deref() {
        if header(headers, "x-loop").any(|v| v.eq_ignore_ascii_case(token.trim())) {
            return Some(AutoKind::Loop);
        }
    }
    if let Some(from) = from {
        if limits.own_addresses.iter().any(|a| address::same(a, from)) {
            return Some(AutoKind::Own);
        }
    }
    let report = msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let null_return = header(headers, "return-path")
        .any(|v| v.chars().filter(|c| !c.is_whitespace()).collect::<String>() == "<>");
    let daemon = from.is_some_and(|f| {
        matches!(
            split_addr(f).0,
            "mailer-daemon" | "postmaster" | "mail-daemon" | "mailerdaemon"
        )
    });
    if report || null_return || daemon || header(headers, "x-failed-recipients").next().is_some() {
        return Some(AutoKind::Bounce);
    }
    if header(headers, "x-list-administrivia").any(|v| first_word(v) == "yes")
        || from.is_some_and(|f| is_list_manager(f, limits.list_address.as_deref()))
    {
        return Some(AutoKind::ListNotice);
    }
    if header(headers, "auto-submitted").any(|v| first_word(v) != "no") {
        return Some(AutoKind::AutoSubmitted);
    }
    let precedence = header(headers, "precedence")
        .any(|v| matches!(first_word(v).as_str(), "bulk" | "junk" | "auto_reply"));
    let autoreply = ["x-autoreply", "x-autorespond", "x-autoresponder"]
        .iter()
        .any(|h| header(headers, h).any(|v| first_word(v) != "no"));
    let lower = subject.to_lowercase();
    let auto_subject = AUTO_SUBJECTS.iter().any(|p| lower.starts_with(p));
    if precedence || autoreply || auto_subject {
        return Some(AutoKind::Bulk);
    }
    None
}

/// The plain-text body (see the module docs).
fn body_text(msg: &Message<'_>) -> String {
    let parts: Vec<_> = msg.text_bodies().collect();
    let is_plain = |p: &mail_parser::MessagePart<'_>| {
        matches!(p.body, PartType::Text(_))
            && p.content_type()
                .is_none_or(|ct| ct.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain")))
    };
    let chosen: Vec<_> = if parts.iter().any(|p| is_plain(p)) {
        parts.iter().filter(|p| is_plain(p)).collect()
    } else {
        parts.iter().collect()
    };
    let mut texts = Vec::new();
    for part in chosen {
        match &part.body {
            PartType::Text(t) => {
                let ct = part.content_type();
                let attr = |name: &str| {
                    ct.and_then(|c| c.attribute(name))
                        .is_some_and(|v| v.trim().eq_ignore_ascii_case(name_value(name)))
                };
                let text = normalise(t);
                texts.push(if attr("format") {
                    if attr("delsp") {
                        crate::gsd::unflow(&delete_soft_spaces(&text))
                    } else {
                        crate::gsd::unflow(&text)
                    }
                } else {
                    text
                });
            }
            PartType::Html(h) => texts.push(html_to_text(&normalise(h))),
            _ => {}
        }
    }
    texts.join("\n")
}

/// The value of a Content-Type parameter that switches its behaviour on.
fn name_value(name: &str) -> &'static str {
    if name == "format" {
        "flowed"
    } else {
        "yes"
    }
}

/// LF line ends, no byte-order mark.
fn normalise(text: &str) -> String {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    if t.contains('\r') {
        t.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        t.to_string()
    }
}

/// For `delsp=yes` (RFC 3676 section 4.2): the space before a soft break is
/// not content. It is removed and the break kept soft by joining the line to
/// the next one here; [`crate::gsd::unflow`] then does the rest.
fn delete_soft_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The quote depth of the soft-broken line being continued.
    let mut joining: Option<usize> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let depth = raw.chars().take_while(|c| *c == '>').count();
        let mut body = &raw[depth..];
        match joining {
            Some(d) if d == depth => body = body.strip_prefix(' ').unwrap_or(body),
            _ => {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&raw[..depth]);
            }
        }
        if body.ends_with(' ') && body.trim() != "--" {
            out.push_str(&body[..body.len() - 1]);
            joining = Some(depth);
        } else {
            out.push_str(body);
            joining = None;
        }
    }
    out
}

// ---- HTML to text -------------------------------------------------------

/// An HTML node of the small tree the converter builds.
#[derive(Debug)]
enum Node {
    Text(String),
    Elem { name: String, children: Vec<Node> },
}

const VOID: [&str; 15] = [
    "br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source", "embed",
    "param", "track", "keygen",
];
const SKIPPED: [&str; 6] = ["head", "script", "style", "title", "template", "noscript"];
const BLOCK: [&str; 33] = [
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "address",
    "section", "article", "header", "footer", "nav", "aside", "main", "center", "form", "fieldset",
    "figure", "hr", "caption", "tr", "td", "th", "tbody", "body",
];
const MAX_DEPTH: usize = 128;

/// Converts HTML to text that keeps line structure (see the module docs).
pub fn html_to_text(html: &str) -> String {
    let tree = build_tree(html);
    let mut out = Out::default();
    render_nodes(&tree, &mut out);
    let text = out.buf.replace('\u{a0}', " ");
    let lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    lines[first..last.max(first)].join("\n")
}

fn build_tree(html: &str) -> Vec<Node> {
    // Stack of open elements: (name, children). Index 0 is the root.
    let mut stack: Vec<(String, Vec<Node>)> = vec![(String::new(), Vec::new())];
    let mut rest = html;
    fn close_top(stack: &mut Vec<(String, Vec<Node>)>) {
        if stack.len() > 1 {
            if let Some((name, children)) = stack.pop() {
                if let Some(top) = stack.last_mut() {
                    top.1.push(Node::Elem { name, children });
                }
            }
        }
    }
    /// Closes the element at `idx` and every element opened inside it.
    fn close_to(stack: &mut Vec<(String, Vec<Node>)>, idx: usize) {
        while stack.len() > idx.max(1) {
            close_top(stack);
        }
    }
    /// Index of the nearest open element named in `names`, not looking past
    /// one named in `stop`.
    fn open_index(stack: &[(String, Vec<Node>)], names: &[&str], stop: &[&str]) -> Option<usize> {
        for (i, (n, _)) in stack.iter().enumerate().rev().take_while(|(i, _)| *i > 0) {
            if names.contains(&n.as_str()) {
                return Some(i);
            }
            if stop.contains(&n.as_str()) {
                return None;
            }
        }
        None
    }
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            push_text(&mut stack, rest);
            break;
        };
        if lt > 0 {
            push_text(&mut stack, &rest[..lt]);
        }
        let tag = &rest[lt..];
        if let Some(after) = tag.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        if tag.starts_with("<!") || tag.starts_with("<?") {
            rest = tag.find('>').map_or("", |e| &tag[e + 1..]);
            continue;
        }
        let (closing, body) = match tag[1..].strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, &tag[1..]),
        };
        if !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
            push_text(&mut stack, "<");
            rest = &tag[1..];
            continue;
        }
        let name_len = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == ':' || c == '-'))
            .unwrap_or(body.len());
        let name = body[..name_len].to_ascii_lowercase();
        // The end of the tag, skipping quoted attribute values.
        let mut end = None;
        let mut quote: Option<char> = None;
        for (i, c) in body[name_len..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => {
                    end = Some(name_len + i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            break; // an unterminated tag ends the document
        };
        let self_closing = body[..end].ends_with('/');
        rest = &body[end + 1..];
        if closing {
            if let Some(i) = open_index(&stack, &[name.as_str()], &[]) {
                close_to(&mut stack, i);
            }
            continue;
        }
        if SKIPPED.contains(&name.as_str()) && !self_closing {
            // Raw content up to the matching end tag.
            let close = format!("</{name}");
            rest = find_ci(rest, &close).map_or("", |i| {
                rest[i..].find('>').map_or("", |e| &rest[i + e + 1..])
            });
            continue;
        }
        // Implied end tags.
        match name.as_str() {
            "td" | "th" => {
                if let Some(i) = open_index(&stack, &["td", "th"], &["tr", "table"]) {
                    close_to(&mut stack, i);
                }
            }
            "tr" => {
                if let Some(i) = open_index(&stack, &["tr"], &["table"]) {
                    close_to(&mut stack, i);
                }
            }
            "li" => {
                if let Some(i) = open_index(&stack, &["li"], &["ul", "ol"]) {
                    close_to(&mut stack, i);
                }
            }
            _ => {}
        }
        if (BLOCK.contains(&name.as_str())
            || matches!(name.as_str(), "pre" | "table" | "blockquote"))
            && stack.last().is_some_and(|(n, _)| n == "p")
        {
            close_top(&mut stack);
        }
        if VOID.contains(&name.as_str()) || self_closing {
            if let Some(top) = stack.last_mut() {
                top.1.push(Node::Elem {
                    name,
                    children: Vec::new(),
                });
            }
        } else if stack.len() < MAX_DEPTH {
            stack.push((name, Vec::new()));
        }
    }
    close_to(&mut stack, 1);
    stack.pop().map(|(_, c)| c).unwrap_or_default()
}

fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let n = needle.len();
    hay.char_indices().map(|(i, _)| i).find(|&i| {
        hay.get(i..i + n)
            .is_some_and(|s| s.eq_ignore_ascii_case(needle))
    })
}

fn push_text(stack: &mut [(String, Vec<Node>)], text: &str) {
    if let Some(top) = stack.last_mut() {
        top.1.push(Node::Text(decode_entities(text)));
    }
}

fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let semi = after
            .char_indices()
            .take(12)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let decoded = semi.and_then(|i| entity(&after[..i]).map(|c| (c, i)));
        match decoded {
            Some((c, i)) => {
                out.push(c);
                rest = &after[i + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        return Some(
            char::from_u32(code)
                .filter(|c| *c != '\0')
                .unwrap_or('\u{fffd}'),
        );
    }
    Some(match name {
        "nbsp" => '\u{a0}',
        "amp" | "AMP" => '&',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        "pound" => '£',
        "euro" => '€',
        "copy" => '©',
        "reg" => '®',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "middot" => '·',
        "deg" => '°',
        "times" => '×',
        "eacute" => 'é',
        "egrave" => 'è',
        "agrave" => 'à',
        "aacute" => 'á',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "auml" => 'ä',
        "szlig" => 'ß',
        "ccedil" => 'ç',
        _ => return None,
    })
}

/// The text being written, with HTML's white-space collapsing.
#[derive(Default)]
struct Out {
    buf: String,
    /// Inside `<pre>`: text is kept as it is.
    pre: usize,
    /// White space is pending (written before the next word, unless at the
    /// start of a line).
    space: bool,
}

impl Out {
    fn at_line_start(&self) -> bool {
        self.buf.is_empty() || self.buf.ends_with('\n')
    }

    fn text(&mut self, s: &str) {
        if self.pre > 0 {
            self.buf.push_str(s);
            self.space = false;
            return;
        }
        for c in s.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c') {
                self.space = true;
            } else {
                if self.space && !self.at_line_start() {
                    self.buf.push(' ');
                }
                self.space = false;
                self.buf.push(c);
            }
        }
    }

    fn newline(&mut self) {
        let trimmed = self.buf.trim_end_matches(' ').len();
        self.buf.truncate(trimmed);
        self.buf.push('\n');
        self.space = false;
    }

    fn block(&mut self) {
        if !self.at_line_start() {
            self.newline();
        }
        self.space = false;
    }

    /// A block set off by a blank line (a `<pre>` or a data table).
    fn paragraph(&mut self) {
        self.block();
        if !self.buf.is_empty() && !self.buf.ends_with("\n\n") {
            self.buf.push('\n');
        }
    }
}

fn render_nodes(nodes: &[Node], out: &mut Out) {
    for n in nodes {
        render(n, out);
    }
}

fn render(node: &Node, out: &mut Out) {
    let (name, children) = match node {
        Node::Text(t) => {
            out.text(t);
            return;
        }
        Node::Elem { name, children } => (name.as_str(), children),
    };
    match name {
        "br" => out.newline(),
        "pre" | "xmp" | "listing" | "plaintext" => {
            out.paragraph();
            out.pre += 1;
            let mut skip_first_newline = true;
            for c in children {
                match c {
                    Node::Text(t) if skip_first_newline => {
                        out.text(t.strip_prefix('\n').unwrap_or(t));
                    }
                    c => render(c, out),
                }
                skip_first_newline = false;
            }
            out.pre -= 1;
            out.paragraph();
        }
        "blockquote" => {
            out.block();
            let mut inner = Out {
                pre: out.pre,
                ..Out::default()
            };
            render_nodes(children, &mut inner);
            let text = inner.buf.trim_end_matches('\n');
            for line in text.split('\n') {
                if line.is_empty() {
                    out.buf.push('>');
                } else {
                    out.buf.push_str("> ");
                    out.buf.push_str(line);
                }
                out.buf.push('\n');
            }
            out.space = false;
        }
        "table" => {
            if is_data_table(children) {
                out.paragraph();
                render_data_table(children, out);
                out.paragraph();
            } else {
                out.block();
                render_nodes(children, out);
                out.block();
            }
        }
        _ if BLOCK.contains(&name) => {
            out.block();
            render_nodes(children, out);
            out.block();
        }
        _ => render_nodes(children, out),
    }
}

fn contains_elem(nodes: &[Node], names: &[&str]) -> bool {
    nodes.iter().any(|n| match n {
        Node::Text(_) => false,
        Node::Elem { name, children } => {
            names.contains(&name.as_str()) || contains_elem(children, names)
        }
    })
}

/// The rows of a table: each a list of (is a `<th>`, cell nodes).
fn table_rows(nodes: &[Node]) -> Vec<Vec<(bool, &[Node])>> {
    let mut rows = Vec::new();
    for n in nodes {
        if let Node::Elem { name, children } = n {
            match name.as_str() {
                "tr" => rows.push(
                    children
                        .iter()
                        .filter_map(|c| match c {
                            Node::Elem { name, children } if name == "td" || name == "th" => {
                                Some((name == "th", children.as_slice()))
                            }
                            _ => None,
                        })
                        .collect(),
                ),
                "thead" | "tbody" | "tfoot" => rows.extend(table_rows(children)),
                _ => {}
            }
        }
    }
    rows
}

fn is_data_table(nodes: &[Node]) -> bool {
    if contains_elem(nodes, &["table", "pre", "blockquote"]) {
        return false;
    }
    let rows = table_rows(nodes);
    rows.len() > 1 || rows.iter().any(|r| r.len() > 1)
}

/// The most text a padded HTML table may render to (see `render_data_table`).
const MAX_TABLE_BYTES: usize = 1 << 20;

fn render_data_table(nodes: &[Node], out: &mut Out) {
    let rows: Vec<(bool, Vec<String>)> = table_rows(nodes)
        .into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| {
            let head = r.iter().all(|(th, _)| *th);
            let cells = r
                .iter()
                .map(|(_, children)| {
                    let mut cell = Out::default();
                    render_nodes(children, &mut cell);
                    cell.buf
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                        .replace('\u{a0}', " ")
                        .trim()
                        .to_string()
                })
                .collect();
            (head, cells)
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let ncols = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let mut widths = vec![0usize; ncols];
    for (_, cells) in &rows {
        for (i, c) in cells.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let total: usize = widths.iter().map(|w| w + 3).sum::<usize>() + 1;
    // Padding every row to every column grows as rows x columns: a hostile
    // table of a few hundred KB would need gigabytes. Past a bound, the
    // cells go out unpadded, one row a line (linear in the input).
    if rows.len().saturating_mul(total) > MAX_TABLE_BYTES {
        for (_, cells) in &rows {
            out.buf.push_str(&cells.join(" | "));
            out.buf.push('\n');
        }
        out.space = false;
        return;
    }
    let border = |out: &mut Out| {
        out.buf.push('+');
        for w in &widths {
            out.buf.push_str(&"-".repeat(w + 2));
            out.buf.push('+');
        }
        out.buf.push('\n');
    };
    let row = |out: &mut Out, cells: &[String]| {
        out.buf.push('|');
        for (i, w) in widths.iter().enumerate() {
            let c = cells.get(i).map_or("", String::as_str);
            out.buf.push(' ');
            out.buf.push_str(c);
            out.buf
                .push_str(&" ".repeat(w.saturating_sub(c.chars().count()) + 1));
            out.buf.push('|');
        }
        out.buf.push('\n');
    };
    let boxed = rows.len() > 1 && rows[0].1.len() == 1 && ncols == 1;
    if boxed {
        // A GSD box: `+- Title ---+`, its lines, a border.
        let title = &rows[0].1[0];
        let dashes = total.saturating_sub(title.chars().count() + 4).max(2);
        out.buf
            .push_str(&format!("+- {title} {}+\n", "-".repeat(dashes)));
        for (_, cells) in &rows[1..] {
            row(out, cells);
        }
        border(out);
    } else {
        let heads = rows.iter().take_while(|r| r.0).count().max(1);
        border(out);
        for (i, (_, cells)) in rows.iter().enumerate() {
            row(out, cells);
            if i + 1 == heads && rows.len() > heads {
                border(out);
            }
        }
        border(out);
    }
    out.space = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_too_wide_to_pad_is_rendered_unpadded() {
        // One row of N cells, then N rows of one: padded, N x N cells.
        let n = 3000;
        let mut html = String::from("<table><tr>");
        for i in 0..n {
            html.push_str(&format!("<td>c{i}</td>"));
        }
        html.push_str("</tr>");
        for _ in 0..n {
            html.push_str("<tr><td>x</td></tr>");
        }
        html.push_str("</table>");
        let text = html_to_text(&html);
        assert!(text.len() < 4 * html.len(), "{} bytes", text.len());
        assert!(text.contains("c0 | c1 | c2"));
    }

    #[test]
    fn fnv_is_stable_and_spreads() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(synthesized_message_id(b"x"), synthesized_message_id(b"y"));
    }

    #[test]
    fn html_pre_keeps_spaces_and_lines() {
        let t = html_to_text("<html><body><pre>\n| a  |  b |\n|  c | d  |\n</pre>ok</body></html>");
        assert_eq!(t, "| a  |  b |\n|  c | d  |\n\nok");
    }

    #[test]
    fn html_br_nbsp_and_paragraphs() {
        let t = html_to_text(
            "<div>Hello&nbsp;&nbsp;there</div><div><br></div><p class=MsoNormal>a<o:p></o:p></p><p>b<br>c</p>",
        );
        assert_eq!(t, "Hello  there\n\na\nb\nc");
    }

    #[test]
    fn html_collapses_white_space_outside_pre() {
        assert_eq!(html_to_text("  a \n\t b  <b> c </b>d"), "a b c d");
    }

    #[test]
    fn html_blockquote_is_quoted() {
        assert_eq!(
            html_to_text("<p>mine</p><blockquote><p>theirs</p><p>more</p></blockquote>"),
            "mine\n> theirs\n> more"
        );
    }

    #[test]
    fn html_data_table_has_borders() {
        let t = html_to_text(
            "<table><tr><th>Player</th><th>LV</th></tr><tr><td>Rushton</td><td>3</td></tr></table>",
        );
        assert_eq!(
            t,
            "+---------+----+\n| Player  | LV |\n+---------+----+\n| Rushton | 3  |\n+---------+----+"
        );
    }

    #[test]
    fn html_single_column_table_is_a_box() {
        let t =
            html_to_text("<table><tr><td>Wild Stations</td></tr><tr><td>Euston</td></tr></table>");
        assert!(t.starts_with("+- Wild Stations --"), "{t}");
        assert!(t.contains("| Euston"), "{t}");
    }

    #[test]
    fn html_layout_table_is_not_piped() {
        let t = html_to_text("<table><tr><td><pre>x  y</pre></td></tr></table>");
        assert_eq!(t, "x  y");
    }

    #[test]
    fn html_entities_comments_scripts() {
        assert_eq!(
            html_to_text("<!-- c --><style>p{}</style><script>x<y</script>a &amp; b &lt; &#65;&#x42; &bogus; &"),
            "a & b < AB &bogus; &"
        );
        assert_eq!(html_to_text("1 < 2 <3"), "1 < 2 <3");
    }

    #[test]
    fn html_survives_deep_nesting() {
        let deep = "<div>".repeat(10_000) + "x" + &"</div>".repeat(10_000);
        assert_eq!(html_to_text(&deep), "x");
    }

    #[test]
    fn delsp_removes_the_soft_space() {
        assert_eq!(
            crate::gsd::unflow(&delete_soft_spaces("abc \ndef\n> q \n> r\nend")),
            "abcdef\n> qr\nend"
        );
        assert_eq!(delete_soft_spaces("\n\nx"), "\n\nx");
    }

    #[test]
    fn list_manager_addresses() {
        let list = Some("lounge@lists.example.org");
        for a in [
            "lounge+owner@lists.example.org",
            "lounge-owner@lists.example.org",
            "lounge+help@lists.example.org",
            "lounge-bounces@lists.example.org",
            "lounge+bounces-12-tim=example.org@lists.example.org",
            "owner-lounge@lists.example.org",
            "lounge-request@lists.example.org",
        ] {
            assert!(is_list_manager(a, list), "{a}");
        }
        for a in [
            "lounge@lists.example.org",
            "tim@example.org",
            "lounge+help@elsewhere.org",
            "helpful@lists.example.org",
        ] {
            assert!(!is_list_manager(a, list), "{a}");
        }
        assert!(is_list_manager("games-request@other.org", None));
        assert!(!is_list_manager("jane-admin@other.org", None));
    }
}
