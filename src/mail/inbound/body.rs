//! The plain-text body: which parts are read, format=flowed un-flowed, line
//! ends made LF (see the module docs of [`crate::mail::inbound`]).

use super::*;

/// The plain-text body (see the module docs), and a note when a part
/// labelled UTF-8 (or unlabelled) was not, and was read as Windows-1252.
pub(super) fn body_text(msg: &Message<'_>) -> (String, Option<&'static str>) {
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
    let mut note = None;
    for part in chosen {
        match &part.body {
            PartType::Text(t) => {
                let (t, n) = undamaged(msg, part, t);
                note = note.or(n);
                let ct = part.content_type();
                let attr = |name: &str| {
                    ct.and_then(|c| c.attribute(name))
                        .is_some_and(|v| v.trim().eq_ignore_ascii_case(name_value(name)))
                };
                let text = normalise(&t);
                texts.push(if attr("format") {
                    if attr("delsp") {
                        super::flowed::unflow(&delete_soft_spaces(&text))
                    } else {
                        super::flowed::unflow(&text)
                    }
                } else {
                    text
                });
            }
            PartType::Html(h) => texts.push(html_to_text(&normalise(h))),
            _ => {}
        }
    }
    (texts.join("\n"), note)
}

/// A text part's text; when decoding it as UTF-8 (what it said, or what
/// an unlabelled part is taken for) replaced bytes with U+FFFD, its bytes
/// decoded again, as Windows-1252 when they are not UTF-8 (what Outlook
/// and Notepad on Windows write): `Zoë`, never `Zo\u{fffd}`.
fn undamaged<'t>(
    msg: &Message<'_>,
    part: &mail_parser::MessagePart<'_>,
    text: &'t str,
) -> (std::borrow::Cow<'t, str>, Option<&'static str>) {
    if !text.contains('\u{fffd}') {
        return (text.into(), None);
    }
    let charset = part
        .content_type()
        .and_then(|c| c.attribute("charset"))
        .map(|c| c.trim().to_ascii_lowercase());
    if !charset
        .as_deref()
        .is_none_or(|c| matches!(c, "utf-8" | "utf8" | "us-ascii" | "ascii"))
    {
        return (text.into(), None);
    }
    let raw = msg.raw_message();
    let (from, to) = (
        part.raw_body_offset() as usize,
        part.raw_end_offset() as usize,
    );
    let Some(body) = raw.get(from..to.min(raw.len())) else {
        return (text.into(), None);
    };
    let bytes = match part.encoding {
        mail_parser::Encoding::QuotedPrintable => {
            mail_parser::decoders::quoted_printable::quoted_printable_decode(body)
        }
        mail_parser::Encoding::Base64 => {
            use base64::Engine;
            let clean: Vec<u8> = body
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            base64::engine::general_purpose::STANDARD.decode(clean).ok()
        }
        mail_parser::Encoding::None => Some(body.to_vec()),
    };
    match bytes.map(|b| crate::text::decode(&b)) {
        Some(d) if d.note.is_some() => (d.text.into(), d.note),
        _ => (text.into(), None),
    }
}

/// The value of a Content-Type parameter that switches its behaviour on.
fn name_value(name: &str) -> &'static str {
    if name == "format" {
        "flowed"
    } else {
        "yes"
    }
}

/// LF line ends, no byte-order mark; what a reader sees: no invisible
/// characters (zero-width spaces, byte-order marks in mid-text, soft
/// hyphens, bidirectional controls), accents composed (NFC), so that a
/// Play starting with a zero-width space is its player's and `Zoë` typed
/// decomposed is `Zoë` (`crate::text::visible`).
fn normalise(text: &str) -> String {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let t = crate::text::visible(t);
    if t.contains('\r') {
        t.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        t.into_owned()
    }
}

/// For `delsp=yes` (RFC 3676 section 4.2): the space before a soft break is
/// not content. It is removed and the break kept soft by joining the line to
/// the next one here; `flowed::unflow` then does the rest.
pub(super) fn delete_soft_spaces(text: &str) -> String {
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
