//! The posts a MIME digest carries, each read as a message of its own
//! (RULINGS L6).
//!
//! A list sends a digest as one mail holding many posts: mlmmj as a
//! `multipart/digest` (a `text/plain` table of contents, then one
//! `message/rfc822` part a post), Mailman as a `multipart/mixed` around a
//! `multipart/digest`. [`read`] finds those posts and reads each with
//! [`parse`], so that each is judged as if it had come alone: its own
//! Message-ID (a post already judged is a duplicate), sender, threading,
//! subject, body and never-reply markers (the bot's own post in a digest is
//! [`AutoKind::Own`]). It is pure and never panics.
//!
//! # Judgment calls
//!
//! - **What is a post**: a part of a `multipart/digest` that is a message
//!   (`message/rfc822`, or a part with no `Content-Type`, which RFC 2046
//!   section 5.1.5 makes one), anywhere in the mail; and so inside a
//!   `message/rfc822` attachment outside a digest (a digest forwarded as an
//!   attachment), down to [`MAX_NESTING`] attachments deep. A single post
//!   forwarded as an attachment is not a digest and, as any attachment, is
//!   not read. A bounce, the bot's own mail and its loops are never opened
//!   (what they return is someone else's mail).
//! - **From the lounge, or forwarded**: a digest whose From is the lounge's
//!   address or one of its list manager's ([`Limits::list_address`]) comes
//!   from the lounge ([`Digest::from_list`]); any other was forwarded by its
//!   sender.
//! - **Authentication**: a post's own `Authentication-Results` are never
//!   read (anyone can write them into a part). A post takes the digest's
//!   verdict when the digest comes from the lounge (the list checked each
//!   post's author when it accepted the post, as RULINGS L1 has it) or when
//!   the post is its forwarder's own (same From); any other post is
//!   [`AuthVerdict::Unknown`].
//! - **List-Id**: a post without one takes the digest's, when the digest
//!   comes from the lounge (Mailman keeps few headers in a digest).
//! - **At most [`MAX_POSTS`]** are read; the rest are counted
//!   ([`Digest::unread`]), so that one mail cannot make the bot judge and
//!   answer thousands.

use chrono::{DateTime, Utc};
use mail_parser::{Encoding, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::address;
use super::inbound::{self, parse, AuthVerdict, AutoKind, Inbound, InboundError, Limits};

/// The most posts read from one digest.
pub const MAX_POSTS: usize = 100;

/// The most `message/rfc822` attachments looked into for a forwarded
/// digest, one inside the other.
pub const MAX_NESTING: usize = 3;

/// One post of a digest.
#[derive(Clone, Debug)]
pub struct Post {
    /// Its bytes, as the digest holds them.
    pub raw: Vec<u8>,
    /// The post as read (see the module docs for what it takes from the
    /// digest).
    pub read: Result<Inbound, InboundError>,
    /// When the lounge received it: the date of its topmost `Received:`
    /// header, written by the list's own server as the post came in (a
    /// digest the lounge sent only; a forwarded one's posts have none).
    /// The post was played then, not when the digest reached the bot.
    pub arrived: Option<DateTime<Utc>>,
}

/// The posts of a digest.
#[derive(Clone, Debug)]
pub struct Digest {
    /// The posts, in the digest's order (at most [`MAX_POSTS`]).
    pub posts: Vec<Post>,
    /// Posts past [`MAX_POSTS`], not read.
    pub unread: usize,
    /// Whether the digest comes from the lounge itself rather than
    /// forwarded by its sender.
    pub from_list: bool,
}

/// The posts of `raw` when it is (or carries) a MIME digest; `None` when it
/// holds none. `mail` is `raw` as [`parse`] read it.
pub fn read(raw: &[u8], mail: &Inbound, limits: &Limits) -> Option<Digest> {
    if matches!(
        mail.auto,
        Some(AutoKind::Bounce | AutoKind::Loop | AutoKind::Own)
    ) {
        return None;
    }
    // mail-parser may panic on malformed nesting (see `parse`).
    let found = std::panic::catch_unwind(|| {
        let msg = MessageParser::new().parse(raw)?;
        let mut found = Found::default();
        collect(&msg, 0, false, 0, &mut found);
        Some(found)
    })
    .ok()
    .flatten()?;
    if found.posts.is_empty() {
        return None;
    }
    let from_list = limits
        .list_address
        .as_deref()
        .is_some_and(|l| address::same(&mail.from, l) || inbound::is_manager_of(&mail.from, l));
    let posts = found
        .posts
        .into_iter()
        .map(|raw| {
            let read = parse(&raw, limits).map(|mut post| {
                let own = address::same(&post.from, &mail.from);
                post.auth = if from_list || own {
                    mail.auth
                } else {
                    AuthVerdict::Unknown
                };
                if from_list && post.list_id.is_none() {
                    post.list_id.clone_from(&mail.list_id);
                }
                post
            });
            let arrived = if from_list { arrived(&raw) } else { None };
            Post { raw, read, arrived }
        })
        .collect();
    Some(Digest {
        posts,
        unread: found.unread,
        from_list,
    })
}

/// The date of the topmost `Received:` header of the mail `raw`: the text
/// after its last `;` (RFC 5322 section 3.6.7), a trailing comment such as
/// `(UTC)` ignored.
pub fn arrived(raw: &[u8]) -> Option<DateTime<Utc>> {
    let head = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"))
        .map_or(raw, |end| &raw[..end]);
    let head = String::from_utf8_lossy(head);
    let mut field: Option<String> = None;
    for line in head.lines() {
        match &mut field {
            Some(f) if line.starts_with([' ', '\t']) => f.push_str(line),
            Some(_) => break,
            None if line
                .get(..9)
                .is_some_and(|n| n.eq_ignore_ascii_case("received:")) =>
            {
                field = Some(line[9..].to_string());
            }
            None => {}
        }
    }
    let field = field?;
    let (_, date) = field.rsplit_once(';')?;
    let mut date = date.trim();
    if date.ends_with(')') {
        date = date.rsplit_once('(').map_or(date, |(d, _)| d.trim_end());
    }
    DateTime::parse_from_rfc2822(date)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// The posts found so far.
#[derive(Default)]
struct Found {
    posts: Vec<Vec<u8>>,
    unread: usize,
}

/// Walks part `id` of `msg`: `in_digest` when its parent is a
/// `multipart/digest`, `depth` attachments deep.
fn collect(msg: &Message<'_>, id: usize, in_digest: bool, depth: usize, found: &mut Found) {
    let Some(part) = msg.parts.get(id) else {
        return;
    };
    match &part.body {
        PartType::Multipart(children) => {
            let digest = part.content_type().is_some_and(|ct| {
                ct.ctype().eq_ignore_ascii_case("multipart")
                    && ct
                        .subtype()
                        .is_some_and(|s| s.eq_ignore_ascii_case("digest"))
            });
            for &c in children {
                // Part ids grow down the tree: a smaller one is no child.
                if c as usize > id {
                    collect(msg, c as usize, digest, depth, found);
                }
            }
        }
        PartType::Message(inner) if in_digest => match post_bytes(msg, part, inner) {
            Some(_) if found.posts.len() >= MAX_POSTS => found.unread += 1,
            Some(bytes) => found.posts.push(bytes.to_vec()),
            None => {}
        },
        PartType::Message(inner) if depth < MAX_NESTING => {
            collect(inner, 0, false, depth + 1, found);
        }
        _ => {}
    }
}

/// The bytes of a `message/rfc822` part: where it lies in the mail that
/// holds it, or, when it was transfer-encoded, its decoded bytes.
fn post_bytes<'m>(
    holder: &'m Message<'_>,
    part: &MessagePart<'_>,
    inner: &'m Message<'_>,
) -> Option<&'m [u8]> {
    if part.encoding != Encoding::None {
        return Some(&inner.raw_message);
    }
    let (start, end) = (part.offset_body as usize, part.offset_end as usize);
    holder.raw_message.get(start..end).filter(|b| !b.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            own_addresses: vec!["mornbot@example.org".into()],
            list_address: Some("lounge@lists.example.org".into()),
            ..Limits::default()
        }
    }

    /// A digest (mlmmj's shape) of `posts`, from `from`.
    fn digest(from: &str, posts: &[&str]) -> String {
        let mut s = format!(
            "From: {from}\nTo: mornbot@example.org\nSubject: Digest of lounge issue 1\n\
             Message-ID: <digest-1@lists.example.org>\nMIME-Version: 1.0\n\
             Content-Type: multipart/digest; boundary=\"b1\"\n\n--b1\n\
             Content-Type: text/plain; charset=UTF-8\n\nTopics: 1. my turn\n"
        );
        for p in posts {
            s.push_str("\n--b1\nContent-Type: message/rfc822\n\n");
            s.push_str(p);
        }
        s.push_str("\n--b1--\n");
        s
    }

    const TURN: &str = "From: Cryer <barry@example.com>\nSubject: [MN12] turn\n\
        Message-ID: <p1@example.com>\n\nCryer : [LV+1] Edgware Road (BL)";
    const CHAT: &str = "From: tim@example.org\nSubject: hello\nMessage-ID: <p2@example.org>\n\
        Authentication-Results: mx.example.net; dkim=pass header.d=example.org\n\nGood luck all.";

    fn posts(raw: &str) -> Option<Digest> {
        let mail = parse(raw.as_bytes(), &limits()).unwrap();
        read(raw.as_bytes(), &mail, &limits())
    }

    fn ids(d: &Digest) -> Vec<String> {
        d.posts
            .iter()
            .map(|p| p.read.as_ref().unwrap().message_id.clone())
            .collect()
    }

    #[test]
    fn each_post_is_its_own_message_lf_and_crlf() {
        for raw in [
            digest("lounge+help@lists.example.org", &[TURN, CHAT]),
            digest("lounge+help@lists.example.org", &[TURN, CHAT]).replace('\n', "\r\n"),
        ] {
            let d = posts(&raw).unwrap();
            assert!(d.from_list);
            assert_eq!(ids(&d), ["p1@example.com", "p2@example.org"]);
            let p = d.posts[0].read.as_ref().unwrap();
            assert_eq!(p.from, "barry@example.com");
            assert_eq!(p.body.trim_end(), "Cryer : [LV+1] Edgware Road (BL)");
            assert_eq!(p.subject, "[MN12] turn");
        }
    }

    #[test]
    fn a_post_arrived_when_the_lists_server_received_it() {
        let post = "Received: from mail.example.test (localhost [127.0.0.1])\n\
            \tby lists.example.org (Postfix) with ESMTP id 2C9B2\n\
            \tfor <lounge@lists.example.org>; Thu, 26 Nov 2026 11:21:01 +0000 (UTC)\n\
            Received: from forged; Mon, 1 Jan 2001 00:00:00 +0000\n";
        let raw = format!("{post}{TURN}");
        for (from, want) in [
            (
                "lounge+help@lists.example.org",
                Some("2026-11-26T11:21:01Z"),
            ),
            ("barry@example.com", None),
        ] {
            let d = posts(&digest(from, &[&raw])).unwrap();
            let want = want.map(|w| w.parse::<DateTime<Utc>>().unwrap());
            assert_eq!(d.posts[0].arrived, want, "{from}");
        }
        assert_eq!(arrived(TURN.as_bytes()), None);
        assert_eq!(arrived(b"Received: no date\n\nbody"), None);
        assert_eq!(arrived("Receivedé: x; y\n\n".as_bytes()), None);
    }

    #[test]
    fn untyped_parts_of_a_digest_are_messages() {
        let raw = digest("lounge+help@lists.example.org", &[TURN])
            .replace("Content-Type: message/rfc822\n", "");
        assert_eq!(ids(&posts(&raw).unwrap()), ["p1@example.com"]);
    }

    #[test]
    fn a_mailman_digest_inside_multipart_mixed() {
        let inner = digest("x@y", &[TURN, CHAT]);
        let body = &inner[inner.find("\n\n").unwrap() + 2..];
        let raw = format!(
            "From: lounge-request@lists.example.org\nSubject: lounge Digest, Vol 1, Issue 2\n\
             Message-ID: <mm-digest@lists.example.org>\nMIME-Version: 1.0\n\
             Content-Type: multipart/mixed; boundary=\"out\"\n\n--out\n\
             Content-Type: text/plain\n\nToday's Topics:\n\n--out\n\
             Content-Type: multipart/digest; boundary=\"b1\"\n\n{body}\n--out\n\
             Content-Type: text/plain\n\n_____\nlounge mailing list\n--out--\n"
        );
        let d = posts(&raw).unwrap();
        assert!(d.from_list);
        assert_eq!(ids(&d), ["p1@example.com", "p2@example.org"]);
    }

    #[test]
    fn a_digest_forwarded_as_an_attachment() {
        let digest = digest("lounge+help@lists.example.org", &[TURN, CHAT]);
        let raw = format!(
            "From: tim@example.org\nTo: mornbot@example.org\nSubject: Fwd: digest\n\
             Message-ID: <fwd@example.org>\nMIME-Version: 1.0\n\
             Content-Type: multipart/mixed; boundary=\"f\"\n\n--f\n\
             Content-Type: text/plain\n\nYou missed these.\n--f\n\
             Content-Type: message/rfc822\nContent-Disposition: attachment\n\n{digest}\n--f--\n"
        );
        let mail = parse(
            raw.as_bytes(),
            &Limits {
                trusted_authserv_id: Some("mx.example.net".into()),
                ..limits()
            },
        )
        .unwrap();
        let d = read(raw.as_bytes(), &mail, &limits()).unwrap();
        assert!(!d.from_list);
        assert_eq!(ids(&d), ["p1@example.com", "p2@example.org"]);
        // The post's own Authentication-Results say pass: not believed.
        let mut forwarded = mail.clone();
        forwarded.auth = AuthVerdict::Fail;
        let d = read(raw.as_bytes(), &forwarded, &limits()).unwrap();
        assert_eq!(d.posts[0].read.as_ref().unwrap().auth, AuthVerdict::Unknown);
        // The forwarder's own post takes the forwarder's verdict.
        assert_eq!(d.posts[1].read.as_ref().unwrap().auth, AuthVerdict::Fail);
    }

    #[test]
    fn no_digest_no_posts() {
        // A single post forwarded as an attachment is not a digest.
        let raw = format!(
            "From: tim@example.org\nSubject: Fwd\nMIME-Version: 1.0\n\
             Content-Type: multipart/mixed; boundary=\"f\"\n\n--f\n\
             Content-Type: text/plain\n\nsee below\n--f\n\
             Content-Type: message/rfc822\n\n{TURN}\n--f--\n"
        );
        assert!(posts(&raw).is_none());
        assert!(posts("From: tim@example.org\n\nhello").is_none());
        // A bounce returning a digest is not opened.
        let raw = digest("MAILER-DAEMON@example.org", &[TURN]);
        assert!(posts(&raw).is_none());
    }

    #[test]
    fn at_most_max_posts_are_read() {
        let many: Vec<String> = (0..MAX_POSTS + 3)
            .map(|i| format!("From: a@b.c\nMessage-ID: <{i}@b.c>\n\nhi"))
            .collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        let d = posts(&digest("lounge+help@lists.example.org", &refs)).unwrap();
        assert_eq!((d.posts.len(), d.unread), (MAX_POSTS, 3));
    }

    #[test]
    fn a_base64_post_is_decoded() {
        use std::fmt::Write;
        let b64 = {
            // A tiny base64 encoder for the test.
            const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut s = String::new();
            for c in TURN.as_bytes().chunks(3) {
                let n = c.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - c.len()));
                for i in 0..=c.len() {
                    s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
                }
                for _ in c.len()..3 {
                    s.push('=');
                }
            }
            s
        };
        let mut raw = digest("lounge+help@lists.example.org", &[]);
        let at = raw.rfind("\n--b1--").unwrap();
        let mut part = String::new();
        write!(
            part,
            "\n--b1\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n{b64}"
        )
        .unwrap();
        raw.insert_str(at, &part);
        assert_eq!(ids(&posts(&raw).unwrap()), ["p1@example.com"]);
    }
}
