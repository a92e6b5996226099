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
use crate::store::NewMail;

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

/// Splits raw header lines into logical headers (a folded header with its
/// continuation lines), each with its CRLFs.
fn logical_headers(head: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in head.split_inclusive("\r\n") {
        match out.last_mut() {
            Some(h) if line.starts_with([' ', '\t']) => h.push_str(line),
            _ => out.push(line.to_string()),
        }
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
    let (part_headers, top): (Vec<&String>, Vec<&String>) = headers
        .iter()
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
