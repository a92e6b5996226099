//! Replies as RFC 5322 bytes, ready for the outbox.
//!
//! Every reply carries `Auto-Submitted` (RFC 3834) and `X-Loop`, so no
//! well-behaved responder answers it and the bot recognises its own mail
//! coming back through the list; threading headers tie it to the message it
//! answers; and its Message-ID is derived from that message's, so a reply
//! rebuilt after a crash is the same reply, never a second one.

use chrono::{DateTime, Utc};
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, SinglePart};
use lettre::Message;

use crate::store::NewMail;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auto {
    /// An answer to a message (`auto-replied`).
    Replied,
    /// Sent on the bot's own initiative, e.g. a Timeout (`auto-generated`).
    Generated,
}

/// One reply.
#[derive(Clone, Debug)]
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

/// FNV-1a, 64 bits: stable across builds and platforms.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn header(name: &'static str, value: &str) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value.to_string())
}

/// Builds the message and its envelope.
pub fn build(me: &Identity, r: &Reply) -> Result<NewMail, OutboundError> {
    let err = |e: &dyn std::fmt::Display| OutboundError(e.to_string());
    let from = Mailbox::new(
        Some(me.name.clone()),
        me.address.parse().map_err(|e| err(&e))?,
    );
    let mut b = Message::builder()
        .from(from)
        .subject(r.subject.clone())
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
    if let Some(id) = &r.in_reply_to {
        b = b.in_reply_to(format!("<{id}>"));
    }
    if !r.references.is_empty() {
        let refs: Vec<String> = r.references.iter().map(|x| format!("<{x}>")).collect();
        b = b.references(refs.join(" "));
    }
    // 7bit keeps a GSD readable in any client and in the list archive.
    // lettre would pick quoted-printable for any line of 76 characters or
    // more (RFC 5322's SHOULD), but GSD boxes are that wide: 7bit is valid
    // up to 998, so an ASCII text within that is sent as it is.
    let body = if r.body.is_ascii() && r.body.lines().all(|l| l.len() < 998) {
        let mut crlf = String::with_capacity(r.body.len() + r.body.len() / 40);
        for line in r.body.lines() {
            crlf.push_str(line);
            crlf.push_str("\r\n");
        }
        Body::dangerous_pre_encoded(crlf.into_bytes(), ContentTransferEncoding::SevenBit)
    } else {
        Body::new(r.body.clone())
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
        };
        assert!(build(&me(), &r).is_err());
    }
}
