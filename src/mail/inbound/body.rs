//! The plain-text body: which parts are read, format=flowed un-flowed, line
//! ends made LF (see the module docs of [`crate::mail::inbound`]).

use super::*;

/// The plain-text body (see the module docs).
pub(super) fn body_text(msg: &Message<'_>) -> String {
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
