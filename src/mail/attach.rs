//! A picture attached to a reply (issue 18): a built reply (text only, from
//! [`crate::mail::outbound::build`]) becomes `multipart/mixed`, its text as
//! the first part exactly as it was (same Content-Type and transfer
//! encoding, so a text-only reader loses nothing) and the PNG second, as a
//! base64 `image/png` attachment.
//!
//! The result is a function of its inputs: the boundary derives from the
//! reply's Message-ID, so a reply rebuilt after a crash is byte for byte
//! the same mail. It adds about 4/3 of the PNG's size to the mail; the
//! caller weighs that against `[limits] reply_bytes`.

use base64::Engine;

use super::outbound::fnv1a;
use crate::envelope::NewMail;

/// A PNG to attach to a reply.
#[derive(Clone, PartialEq, Eq)]
pub struct Picture {
    /// The attachment's file name (`[A-Za-z0-9._-]`, at most 64).
    pub name: String,
    /// The PNG bytes.
    pub png: Vec<u8>,
}

impl std::fmt::Debug for Picture {
    // Its name and size: a reply logged is not 100 KB of numbers.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Picture({:?}, {} bytes)", self.name, self.png.len())
    }
}

/// Why a picture could not be attached.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttachError {
    /// The mail has no blank line between its headers and its body.
    #[error("the reply has no header/body separator")]
    NoBody,
    /// The reply is already multipart (only a text reply is extended).
    #[error("the reply is already multipart")]
    AlreadyMultipart,
    /// The file name is not a plain name (`[A-Za-z0-9._-]`, at most 64).
    #[error("attachment name {0:?} is not a plain file name")]
    BadName(String),
}

/// The top-level headers that describe the body: they move to the text
/// part.
const BODY_HEADERS: [&str; 2] = ["content-type", "content-transfer-encoding"];

/// Logical headers (each with its continuation lines and line ends) of a
/// header block whose lines end in CRLF or LF.
fn logical_headers(head: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut at = 0;
    for line in head.split_inclusive('\n') {
        if at > 0 && !line.starts_with([' ', '\t']) {
            out.push(&head[start..at]);
            start = at;
        }
        at += line.len();
    }
    if start < head.len() {
        out.push(&head[start..]);
    }
    out
}

fn is_header(h: &str, name: &str) -> bool {
    h.split_once(':')
        .is_some_and(|(n, _)| n.trim().eq_ignore_ascii_case(name))
}

/// Attaches `png` as `name` to a text reply: `multipart/mixed`, the text
/// part first.
pub fn attach_png(mail: NewMail, png: &[u8], name: &str) -> Result<NewMail, AttachError> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if name.is_empty() || name.len() > 64 || !name.chars().all(plain) {
        return Err(AttachError::BadName(name.to_string()));
    }
    let raw = String::from_utf8_lossy(&mail.raw).into_owned();
    let split = raw.find("\r\n\r\n").ok_or(AttachError::NoBody)?;
    let (head, body) = (&raw[..split + 2], &raw[split + 4..]);
    let headers = logical_headers(head);
    let (part_headers, top): (Vec<&str>, Vec<&str>) = headers
        .into_iter()
        .partition(|h| BODY_HEADERS.iter().any(|n| is_header(h, n)));
    if part_headers
        .iter()
        .any(|h| h.to_ascii_lowercase().contains("multipart/"))
    {
        return Err(AttachError::AlreadyMultipart);
    }
    let boundary = boundary(&mail.message_id, body);
    let mut out = String::with_capacity(raw.len() + png.len() * 4 / 3 + 1024);
    for h in &top {
        out.push_str(h);
    }
    if !top.iter().any(|h| is_header(h, "mime-version")) {
        out.push_str("MIME-Version: 1.0\r\n");
    }
    out.push_str(&format!(
        "Content-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n"
    ));
    out.push_str(&format!("--{boundary}\r\n"));
    if part_headers.is_empty() {
        out.push_str("Content-Type: text/plain; charset=us-ascii\r\n");
    }
    for h in &part_headers {
        out.push_str(h);
    }
    out.push_str("\r\n");
    out.push_str(body);
    if !body.ends_with("\r\n") {
        out.push_str("\r\n");
    }
    out.push_str(&format!(
        "--{boundary}\r\nContent-Type: image/png; name=\"{name}\"\r\n\
         Content-Disposition: attachment; filename=\"{name}\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n"
    ));
    let encoded = base64::engine::general_purpose::STANDARD.encode(png);
    for chunk in encoded.as_bytes().chunks(76) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push_str("\r\n");
    }
    out.push_str(&format!("--{boundary}--\r\n"));
    Ok(NewMail {
        raw: out.into_bytes(),
        ..mail
    })
}

/// A mail as a reader's client shows its text: its header, a blank line,
/// the text of its first part, then a line `[attachment: NAME, TYPE, N
/// bytes]` for each attachment. Only a `multipart/mixed` mail whose first
/// part is text (a verdict with its picture, a client's mail with files)
/// is changed: its Content-Type becomes the text's (`text/plain;
/// charset=utf-8`), so reading it again changes nothing. Any other mail
/// (a digest, a single part) is returned as it is.
pub fn as_read(raw: &str) -> String {
    use mail_parser::MimeHeaders;
    let Some(m) = mail_parser::MessageParser::default().parse(raw.as_bytes()) else {
        return raw.to_string();
    };
    let mixed = m.content_type().is_some_and(|c| {
        c.ctype().eq_ignore_ascii_case("multipart")
            && c.subtype().is_some_and(|s| s.eq_ignore_ascii_case("mixed"))
    });
    let Some(text) = m
        .body_text(0)
        .filter(|_| mixed && m.text_body.first() == Some(&1))
    else {
        return raw.to_string();
    };
    let crlf = raw.find("\r\n\r\n");
    let lf = raw.find("\n\n");
    let (head, eol) = match (crlf, lf) {
        (Some(c), Some(l)) if c < l => (&raw[..c + 2], "\r\n"),
        (_, Some(l)) => (&raw[..l + 1], "\n"),
        (Some(c), None) => (&raw[..c + 2], "\r\n"),
        (None, None) => (raw, "\n"),
    };
    let mut out = String::with_capacity(raw.len().min(1 << 20));
    for h in logical_headers(head) {
        if is_header(h, "content-type") {
            out.push_str(&format!("Content-Type: text/plain; charset=utf-8{eol}"));
        } else {
            out.push_str(h);
        }
    }
    out.push_str(eol);
    out.push_str(&text);
    for a in m.attachments() {
        let kind = a
            .content_type()
            .map_or("application/octet-stream".to_string(), |c| {
                format!("{}/{}", c.ctype(), c.subtype().unwrap_or("octet-stream"))
            });
        out.push_str(&format!(
            "{eol}[attachment: {}, {kind}, {} bytes]",
            a.attachment_name().unwrap_or("unnamed"),
            a.contents().len()
        ));
    }
    out
}

/// A boundary from the Message-ID, one that the text does not contain
/// (base64 never contains `=_`, which every boundary here does).
fn boundary(message_id: &str, body: &str) -> String {
    let mut seed = fnv1a(message_id.as_bytes());
    loop {
        let b = format!("=_mornbot_{seed:016x}");
        if !body.contains(&b) {
            return b;
        }
        seed = seed.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::outbound::{build, Auto, Identity, Reply};
    use mail_parser::{MessageParser, MimeHeaders};

    fn reply(body: &str) -> NewMail {
        let me = Identity {
            address: "bot@example.org".into(),
            name: "mornbot".into(),
            lounge: "lounge@example.org".into(),
        };
        let r = Reply {
            to: vec!["lounge@example.org".into()],
            subject: "Re: [MN12] Rushton's turn".into(),
            body: body.into(),
            in_reply_to: Some("turn-5@example.org".into()),
            references: vec!["root@example.org".into(), "turn-5@example.org".into()],
            message_id: "reply-5@example.org".into(),
            date: chrono::DateTime::from_timestamp(1_764_000_000, 0).unwrap(),
            auto: Auto::Replied,
            picture: None,
        };
        build(&me, &r).unwrap()
    }

    /// Bytes that look like a PNG and cover every byte value.
    fn png() -> Vec<u8> {
        let mut p = b"\x89PNG\r\n\x1a\n".to_vec();
        p.extend((0..=255u8).cycle().take(5000));
        p
    }

    #[test]
    fn the_text_comes_first_and_the_png_decodes_back() {
        let text = "LEGAL\r\n  Rushton moved to Euston (VC)\r\n\r\n+----+\r\n| GSD |\r\n+----+\r\n";
        let mail = attach_png(reply(text), &png(), "MN12-turn-5.png").unwrap();
        let raw = mail.raw.clone();
        let m = MessageParser::default().parse(&raw).expect("parses");
        let ct = m.content_type().unwrap();
        assert_eq!((ct.ctype(), ct.subtype()), ("multipart", Some("mixed")));
        // Headers of the reply survive: threading, loop protection.
        assert_eq!(m.message_id(), Some("reply-5@example.org"));
        assert_eq!(m.in_reply_to().as_text(), Some("turn-5@example.org"));
        assert!(m
            .header_raw("Auto-Submitted")
            .unwrap()
            .contains("auto-replied"));
        assert!(m.header_raw("X-Loop").is_some());
        // The text part first, as it was.
        assert_eq!(m.text_body_count(), 1);
        let body = m.body_text(0).unwrap();
        assert!(body.starts_with("LEGAL"), "{body}");
        assert!(body.contains("| GSD |"));
        let first = m.part(m.text_body[0]).unwrap();
        assert_eq!(m.parts[0].sub_parts().map(|p| p[0]), Some(m.text_body[0]));
        assert_eq!(first.content_type().unwrap().ctype(), "text");
        // The picture second, base64, byte for byte.
        assert_eq!(m.attachment_count(), 1);
        let a = m.attachment(0).unwrap();
        let act = a.content_type().unwrap();
        assert_eq!((act.ctype(), act.subtype()), ("image", Some("png")));
        assert_eq!(a.attachment_name(), Some("MN12-turn-5.png"));
        assert_eq!(a.contents(), png().as_slice());
        // No line over 998 characters; the same inputs, the same mail.
        assert!(raw.split(|&b| b == b'\n').all(|l| l.len() <= 998));
        assert_eq!(
            attach_png(reply(text), &png(), "MN12-turn-5.png")
                .unwrap()
                .raw,
            raw
        );
    }

    #[test]
    fn an_encoded_text_part_keeps_its_encoding() {
        // Not ASCII: lettre encodes the text; the part keeps that encoding.
        let text = "LEGAL: Brooke-Taylor's Piece reaches Kings Cross \u{2014} caf\u{e9}\r\n";
        let mail = attach_png(reply(text), &png(), "p.png").unwrap();
        let m = MessageParser::default().parse(&mail.raw).unwrap();
        assert_eq!(m.body_text(0).unwrap().trim_end(), text.trim_end());
        assert_eq!(m.attachment(0).unwrap().contents(), png().as_slice());
    }

    #[test]
    fn odd_names_and_multipart_mail_are_refused() {
        for bad in ["", "a b.png", "../x.png", "x\".png", &"a".repeat(65)] {
            assert!(matches!(
                attach_png(reply("x"), &png(), bad),
                Err(AttachError::BadName(_))
            ));
        }
        let once = attach_png(reply("x"), &png(), "p.png").unwrap();
        assert_eq!(
            attach_png(once, &png(), "p.png").unwrap_err(),
            AttachError::AlreadyMultipart
        );
    }
}

#[cfg(test)]
mod as_read_tests {
    use super::*;

    const HEAD: &str = "From: bot@example.org\r\nSubject: [MN1] Game State\r\nContent-Type: multipart/mixed;\r\n boundary=\"b1\"\r\nMIME-Version: 1.0\r\n\r\n";

    fn verdict() -> String {
        format!(
            "{HEAD}--b1\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nTurn 1: Rushton (legal)\r\n\r\nGSD\r\n\
             --b1\r\nContent-Type: image/png; name=\"MN1-after-turn-1.png\"\r\n\
             Content-Disposition: attachment; filename=\"MN1-after-turn-1.png\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b1--\r\n"
        )
    }

    #[test]
    fn a_verdict_reads_as_its_text_and_a_line_per_attachment() {
        let read = as_read(&verdict());
        assert!(read.starts_with("From: bot@example.org\r\nSubject: [MN1] Game State\r\n"));
        assert!(
            read.contains("Content-Type: text/plain; charset=utf-8\r\n"),
            "{read}"
        );
        assert!(!read.contains("boundary"), "{read}");
        let body = read.split_once("\r\n\r\n").unwrap().1;
        assert!(body.starts_with("Turn 1: Rushton (legal)\r\n"), "{body}");
        assert!(body.ends_with("[attachment: MN1-after-turn-1.png, image/png, 8 bytes]"));
        // Reading it again changes nothing.
        assert_eq!(as_read(&read), read);
    }

    #[test]
    fn other_mail_is_returned_as_it_is() {
        let plain = "From: a@example.org\nSubject: x\n\nRushton : Pass\n";
        assert_eq!(as_read(plain), plain);
        let digest = verdict().replace("multipart/mixed", "multipart/digest");
        assert_eq!(as_read(&digest), digest);
        // A mixed mail whose first part is not text.
        let odd = verdict().replace(
            "--b1\r\nContent-Type: text/plain; charset=us-ascii",
            "--b1\r\nContent-Type: application/pdf",
        );
        assert_eq!(as_read(&odd), odd);
    }
}
