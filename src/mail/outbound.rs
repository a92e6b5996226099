//! Replies as RFC 5322 bytes, ready for the outbox.
//!
//! Every reply carries `Auto-Submitted` (RFC 3834) and `X-Loop`, so no
//! well-behaved responder answers it and the bot recognises its own mail
//! coming back through the list; threading headers tie it to the message it
//! answers; and its Message-ID is derived from that message's, so a reply
//! rebuilt after a crash is the same reply, never a second one.
//!
//! # Header hygiene and size
//!
//! What a reply repeats of the message it answers is cleaned first, since
//! that message may be hostile: control characters (VT, ESC, CR... every
//! Unicode `Cc`) and the invisible format characters that reorder or hide
//! text (bidirectional overrides and isolates, zero-width characters) never
//! reach the Subject: each becomes a space, runs of white space are one,
//! and a Subject is at most [`MAX_SUBJECT_CHARS`] characters. A Message-ID
//! in `In-Reply-To` or `References` is kept only when it is at most
//! [`MAX_ID_BYTES`] of printable ASCII without `<`, `>` or white space
//! (RFC 5322 caps a line at 998 characters: a 100 KB id would make one);
//! at most [`MAX_REFERENCES`] are kept, the first and the most recent. A
//! reply longer than its size limit ([`DEFAULT_REPLY_BYTES`], or the
//! `[limits] reply_bytes` given to [`build_limited`]) is cut at a line
//! boundary and ends with a note saying what was left out.

use chrono::{DateTime, Utc};
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, SinglePart};
use lettre::Message;

use crate::envelope::NewMail;

/// Who the bot is, on its replies.
#[derive(Clone, Debug)]
pub struct Identity {
    /// The bot's address (From, envelope sender).
    pub address: String,
    /// Display name.
    pub name: String,
    /// The lounge list's posting address.
    pub lounge: String,
}

impl Identity {
    /// The `X-Loop` value: the bot's own address (a common convention,
    /// e.g. procmail's and Debian's bug tracker's).
    pub fn loop_token(&self) -> &str {
        &self.address
    }

    /// The domain of Message-IDs.
    pub fn domain(&self) -> &str {
        self.address.rsplit('@').next().unwrap_or("mornbot.invalid")
    }
}

/// Why the reply is sent (RFC 3834 `Auto-Submitted` value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Auto {
    /// An answer to a message (`auto-replied`).
    Replied,
    /// Sent on the bot's own initiative, e.g. a Timeout (`auto-generated`).
    Generated,
}

/// One reply. It serialises both ways without its picture (a reply whose
/// picture is drawn when it is sent is stored so).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    /// Recipients (the lounge, or one player privately).
    pub to: Vec<String>,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// The Message-ID answered, if any (without angle brackets).
    pub in_reply_to: Option<String>,
    /// Its References chain plus itself.
    pub references: Vec<String>,
    /// This reply's Message-ID (without angle brackets).
    pub message_id: String,
    /// The Date header.
    pub date: DateTime<Utc>,
    /// RFC 3834 kind.
    pub auto: Auto,
    /// A picture attached after the text (issue 18), if any: the mail
    /// becomes `multipart/mixed` with the text part first.
    #[serde(skip)]
    pub picture: Option<super::attach::Picture>,
}

/// A reply that cannot be built (a malformed address in the config or in
/// the message answered).
#[derive(Debug, thiserror::Error)]
#[error("cannot build reply: {0}")]
pub struct OutboundError(String);

/// The stable Message-ID of the `k`th reply to the message `answered`.
pub fn reply_id(answered: &str, k: usize, me: &Identity) -> String {
    format!(
        "{:016x}.{k}.mornbot@{}",
        fnv1a(answered.as_bytes()),
        me.domain()
    )
}

/// The Message-ID (without angle brackets) at the root of game `tag`'s
/// thread, e.g. `mn1.game@example.test`: derived from the tag and the
/// bot's domain, so it is the same after a restart and on every notice.
/// No mail carries it; mail clients thread the game's notices under it as
/// under a message they have not seen.
pub fn game_root(tag: &str, me: &Identity) -> String {
    let tag: String = tag
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("{tag}.game@{}", me.domain())
}

/// The Subject of a notice on game `tag`'s thread: the tag, then what the
/// notice is (its headline: `[MN1] Turn 4: Rushton (legal)`, `[MN1]
/// Cancelled`). The game's notices stay together by their References,
/// rooted at [`game_root`], which is how mail clients thread.
pub fn notice_subject(tag: &str, headline: &str) -> String {
    header_text(&format!("[{tag}] {headline}"), MAX_SUBJECT_CHARS)
}

/// The References of a notice on a game's thread: its root first, then
/// the References of the message it answers and that message itself (each
/// once).
pub fn thread_references(root: &str, answered: Option<(&str, &[String])>) -> Vec<String> {
    let mut refs = vec![root.to_string()];
    if let Some((id, theirs)) = answered {
        for r in theirs.iter().map(String::as_str).chain([id]) {
            if !refs.iter().any(|x| x == r) {
                refs.push(r.to_string());
            }
        }
    }
    refs
}

/// FNV-1a, 64 bits: stable across builds and platforms.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

pub use crate::config::limits::{DEFAULT_REPLY_BYTES, MIN_REPLY_BYTES};
/// The longest Subject, in characters.
pub const MAX_SUBJECT_CHARS: usize = 200;
/// The longest Message-ID repeated in `In-Reply-To` or `References`.
pub const MAX_ID_BYTES: usize = 250;
/// The most ids in `References`.
pub const MAX_REFERENCES: usize = 20;

/// Text fit for a header: control and invisible format characters become
/// spaces, white space runs become one space, trimmed, at most `max`
/// characters (an ellipsis marks a cut).
pub fn header_text(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max * 4));
    let mut space = false;
    let mut n = 0;
    for c in s.chars() {
        if c.is_whitespace() || c.is_control() || is_invisible(c) {
            space = !out.is_empty();
            continue;
        }
        if n + usize::from(space) + 1 > max {
            out.push('…');
            return out;
        }
        if space {
            out.push(' ');
            n += 1;
            space = false;
        }
        out.push(c);
        n += 1;
    }
    out
}

/// Format characters that reorder or hide text (Trojan Source's):
/// bidirectional marks, embeddings, overrides and isolates, zero-width
/// characters, the byte-order mark.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{061c}' | '\u{00ad}')
}

/// Whether a Message-ID (without angle brackets) may be repeated in a
/// header (see the module docs).
pub fn usable_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_BYTES
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>')
}

/// The References worth repeating: usable ids, each once, at most
/// [`MAX_REFERENCES`] (the first and the most recent).
fn usable_references(refs: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for r in refs.iter().map(String::as_str).filter(|r| usable_id(r)) {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    if out.len() > MAX_REFERENCES {
        out.drain(1..out.len() + 1 - MAX_REFERENCES);
    }
    out
}

/// `body` cut at a line boundary to at most `budget` bytes, with a note of
/// what was left out; `None` when it fits.
fn cut_body(body: &str, budget: usize, limit: usize) -> Option<String> {
    if body.len() <= budget {
        return None;
    }
    let note_room = 400;
    let keep = budget.saturating_sub(note_room);
    let mut end = 0;
    for (i, _) in body.match_indices('\n') {
        if i + 1 > keep {
            break;
        }
        end = i + 1;
    }
    if end == 0 {
        // One enormous line: cut inside it, at a character boundary.
        end = keep.min(body.len());
        while !body.is_char_boundary(end) {
            end -= 1;
        }
    }
    let (kept, cut) = body.split_at(end);
    let first_cut_line = kept.matches('\n').count() + 1;
    let lines = cut.lines().count();
    let start = header_text(cut.lines().next().unwrap_or(""), 60);
    let mut out = kept.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "\n[mornbot: this reply was cut to fit [limits] reply_bytes = {limit}: \
         {lines} line(s), {} bytes, were left out, from line {first_cut_line} \
         (\"{start}\") on.]\n",
        cut.len()
    ));
    Some(out)
}

fn header(name: &'static str, value: &str) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value.to_string())
}

/// Builds the message and its envelope, at most [`DEFAULT_REPLY_BYTES`]
/// long (see [`build_limited`]).
pub fn build(me: &Identity, r: &Reply) -> Result<NewMail, OutboundError> {
    build_limited(me, r, DEFAULT_REPLY_BYTES)
}

/// Builds the message and its envelope, its text at most `reply_bytes`
/// long (at least [`MIN_REPLY_BYTES`]): a longer body is cut at a line,
/// saying what was left out. Its picture, if any, is attached after the
/// text.
pub fn build_limited(
    me: &Identity,
    r: &Reply,
    reply_bytes: usize,
) -> Result<NewMail, OutboundError> {
    let text = build_text(me, r, reply_bytes)?;
    match &r.picture {
        // `reply_bytes` bounds the text; the picture has its own bound,
        // checked where it is drawn.
        Some(p) => super::attach::attach_png(text, &p.png, &p.name)
            .map_err(|e| OutboundError(e.to_string())),
        None => Ok(text),
    }
}

/// The text reply, at most `reply_bytes` long.
fn build_text(me: &Identity, r: &Reply, reply_bytes: usize) -> Result<NewMail, OutboundError> {
    let limit = reply_bytes.max(MIN_REPLY_BYTES);
    let mut mail = build_once(me, r, &r.body)?;
    // The body's encoding may grow it (quoted-printable, base64): shrink
    // the budget by what is still over until the whole message fits.
    let mut budget = limit;
    for _ in 0..8 {
        if mail.raw.len() <= limit {
            return Ok(mail);
        }
        let body = cut_body(&r.body, budget, limit).unwrap_or_else(|| r.body.clone());
        mail = build_once(me, r, &body)?;
        budget = budget.saturating_sub(mail.raw.len().saturating_sub(limit) + 64);
    }
    if mail.raw.len() <= limit {
        Ok(mail)
    } else {
        Err(OutboundError(format!(
            "the reply does not fit in {limit} bytes"
        )))
    }
}

fn build_once(me: &Identity, r: &Reply, body: &str) -> Result<NewMail, OutboundError> {
    let err = |e: &dyn std::fmt::Display| OutboundError(e.to_string());
    let from = Mailbox::new(
        Some(me.name.clone()),
        me.address.parse().map_err(|e| err(&e))?,
    );
    let mut b = Message::builder()
        .from(from)
        .subject(header_text(&r.subject, MAX_SUBJECT_CHARS))
        .message_id(Some(format!("<{}>", r.message_id)))
        .date(r.date.into())
        .raw_header(header(
            "Auto-Submitted",
            match r.auto {
                Auto::Replied => "auto-replied",
                Auto::Generated => "auto-generated",
            },
        ))
        .raw_header(header("X-Loop", me.loop_token()));
    for to in &r.to {
        b = b.to(to.parse().map_err(|e| err(&e))?);
    }
    if let Some(id) = r.in_reply_to.as_deref().filter(|id| usable_id(id)) {
        b = b.in_reply_to(format!("<{id}>"));
    }
    let refs = usable_references(&r.references);
    if !refs.is_empty() {
        let refs: Vec<String> = refs.iter().map(|x| format!("<{x}>")).collect();
        b = b.references(refs.join(" "));
    }
    // 7bit keeps a GSD readable in any client and in the list archive.
    // lettre would pick quoted-printable for any line of 76 characters or
    // more (RFC 5322's SHOULD), but GSD boxes are that wide: 7bit is valid
    // up to 998, so an ASCII text within that is sent as it is.
    let body = if body.is_ascii() && body.lines().all(|l| l.len() < 998) {
        let mut crlf = String::with_capacity(body.len() + body.len() / 40);
        for line in body.lines() {
            crlf.push_str(line);
            crlf.push_str("\r\n");
        }
        Body::dangerous_pre_encoded(crlf.into_bytes(), ContentTransferEncoding::SevenBit)
    } else {
        Body::new(body.to_string())
    };
    let part = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(body);
    let msg = b.singlepart(part).map_err(|e| err(&e))?;
    Ok(NewMail {
        message_id: r.message_id.clone(),
        envelope_from: me.address.clone(),
        recipients: r.to.clone(),
        raw: msg.formatted(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me() -> Identity {
        Identity {
            address: "mornbot@example.test".into(),
            name: "mornbot".into(),
            lounge: "lounge@example.test".into(),
        }
    }

    #[test]
    fn replies_carry_loop_and_thread_headers() {
        let r = Reply {
            to: vec!["lounge@example.test".into()],
            subject: "Re: [MN1] turn 3".into(),
            body: "Alice : Euston (VC via: CN,NT) [Blocking Warren Street]\n| table |\n".into(),
            in_reply_to: Some("abc@x".into()),
            references: vec!["root@x".into(), "abc@x".into()],
            message_id: reply_id("abc@x", 0, &me()),
            date: DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
            auto: Auto::Replied,
            picture: None,
        };
        let m = build(&me(), &r).unwrap();
        let text = String::from_utf8(m.raw.clone()).unwrap();
        assert!(text.contains("Auto-Submitted: auto-replied\r\n"), "{text}");
        assert!(text.contains("X-Loop: mornbot@example.test\r\n"), "{text}");
        assert!(text.contains("In-Reply-To: <abc@x>\r\n"), "{text}");
        assert!(text.contains("References: <root@x> <abc@x>\r\n"), "{text}");
        assert!(text.contains(&format!("Message-ID: <{}>\r\n", r.message_id)));
        assert!(text.contains("Content-Transfer-Encoding: 7bit"), "{text}");
        assert!(
            text.contains("[Blocking Warren Street]\r\n| table |"),
            "{text}"
        );
        // Rebuilding gives the same bytes: a retry is the same message.
        assert_eq!(build(&me(), &r).unwrap().raw, m.raw);
        assert_eq!(m.recipients, vec!["lounge@example.test"]);
    }

    fn reply(subject: &str, body: &str, answered: &str) -> Reply {
        Reply {
            to: vec!["tim@example.test".into()],
            subject: subject.into(),
            body: body.into(),
            in_reply_to: Some(answered.into()),
            references: vec!["root@x".into(), answered.into()],
            message_id: reply_id(answered, 0, &me()),
            date: DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
            auto: Auto::Replied,
            picture: None,
        }
    }

    fn lines_of(m: &NewMail) -> Vec<String> {
        String::from_utf8_lossy(&m.raw)
            .split("\r\n")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn control_characters_never_reach_the_subject() {
        let hostile =
            "Re: [MN1]\u{b}turn\u{1b}[31m 3\r\nBcc: x@evil.test\u{202e}gnp.exe\u{7f}\u{85}";
        let m = build(&me(), &reply(hostile, "ok\n", "a@x")).unwrap();
        let subject = lines_of(&m)
            .into_iter()
            .find(|l| l.starts_with("Subject:"))
            .unwrap();
        assert_eq!(
            subject,
            "Subject: Re: [MN1] turn [31m 3 Bcc: x@evil.test gnp.exe"
        );
        assert!(!lines_of(&m).iter().any(|l| l.starts_with("Bcc")));
        assert_eq!(header_text(&"x".repeat(500), 10), "xxxxxxxxxx…");
        assert_eq!(header_text(" \t a \u{b}\u{b} b ", 10), "a b");
    }

    #[test]
    fn overlong_or_odd_ids_are_not_repeated() {
        let huge = format!("{}@evil.test", "a".repeat(100_000));
        let mut r = reply("Re: x", "ok\n", &huge);
        r.references.push("spaced id@x".into());
        r.references.push("ok@x".into());
        let m = build(&me(), &r).unwrap();
        for l in lines_of(&m) {
            assert!(l.len() <= 998, "a line of {} bytes", l.len());
        }
        let text = String::from_utf8_lossy(&m.raw).into_owned();
        assert!(!text.contains("In-Reply-To"), "{text}");
        assert!(text.contains("References: <root@x> <ok@x>\r\n"), "{text}");
        // A long chain keeps the first and the most recent.
        let mut r = reply("Re: x", "ok\n", "last@x");
        r.references = (0..100).map(|i| format!("r{i}@x")).collect();
        let m = build(&me(), &r).unwrap();
        let text = String::from_utf8_lossy(&m.raw).into_owned();
        assert!(text.contains("<r0@x> <r81@x>"), "{text}");
        assert!(!text.contains("<r80@x>"), "{text}");
        assert!(text.contains("<r99@x>"), "{text}");
    }

    #[test]
    fn a_reply_over_the_limit_is_cut_and_says_so() {
        let body: String = (0..40_000).map(|i| format!("RULES line {i}\n")).collect();
        let m = build_limited(&me(), &reply("Re: x", &body, "a@x"), 64 * 1024).unwrap();
        assert!(m.raw.len() <= 64 * 1024, "{}", m.raw.len());
        let text = String::from_utf8_lossy(&m.raw).into_owned();
        assert!(text.contains("RULES line 0\r\n"));
        assert!(
            text.contains("[mornbot: this reply was cut to fit [limits] reply_bytes = 65536:"),
            "{}",
            &text[text.len() - 400..]
        );
        assert!(text.contains("were left out, from line"), "{text}");
        // The default cap, and a non-ASCII body (base64 grows it).
        let m = build(&me(), &reply("Re: x", &body, "a@x")).unwrap();
        assert!(m.raw.len() <= DEFAULT_REPLY_BYTES);
        let wide = "é".repeat(300_000);
        let m = build_limited(&me(), &reply("Re: x", &wide, "a@x"), 32 * 1024).unwrap();
        assert!(m.raw.len() <= 32 * 1024, "{}", m.raw.len());
        // Under the limit nothing changes.
        let small = build(&me(), &reply("Re: x", "short\n", "a@x")).unwrap();
        assert!(!String::from_utf8_lossy(&small.raw).contains("[mornbot: this reply was cut"));
    }

    #[test]
    fn a_game_thread_has_one_root_and_says_what_each_notice_is() {
        assert_eq!(game_root("MN1", &me()), "mn1.game@example.test");
        assert_eq!(game_root("M N<1>", &me()), "m-n-1-.game@example.test");
        assert!(usable_id(&game_root("MN1", &me())));
        assert_eq!(
            notice_subject("MN1", "Turn 4: Rushton (legal)"),
            "[MN1] Turn 4: Rushton (legal)"
        );
        assert_eq!(notice_subject("MN1", "Cancelled\n"), "[MN1] Cancelled");
        let root = game_root("MN1", &me());
        assert_eq!(thread_references(&root, None), vec![root.clone()]);
        let theirs = vec![root.clone(), "v1@x".to_string()];
        assert_eq!(
            thread_references(&root, Some(("p2@x", &theirs))),
            vec![root.clone(), "v1@x".into(), "p2@x".into()]
        );
    }

    #[test]
    fn reply_ids_are_stable_and_distinct() {
        assert_eq!(reply_id("a@x", 0, &me()), reply_id("a@x", 0, &me()));
        assert_ne!(reply_id("a@x", 0, &me()), reply_id("a@x", 1, &me()));
        assert_ne!(reply_id("a@x", 0, &me()), reply_id("b@x", 0, &me()));
        assert!(reply_id("a@x", 0, &me()).ends_with("@example.test"));
    }

    #[test]
    fn a_bad_address_is_an_error_not_a_panic() {
        let r = Reply {
            to: vec!["not an address".into()],
            subject: "x".into(),
            body: "x".into(),
            in_reply_to: None,
            references: vec![],
            message_id: "x@y".into(),
            date: Utc::now(),
            auto: Auto::Generated,
            picture: None,
        };
        assert!(build(&me(), &r).is_err());
    }
}
