//! The headers [`parse`] reads: the envelope of a message,
//! its addresses and ids, and why its sender cannot be told.

use super::*;

/// The header section of a raw message (up to its first blank line), at
/// most 256 KiB: what an oversize message is read for.
pub(super) fn header_block(raw: &[u8]) -> &[u8] {
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

pub(super) fn addresses(a: Option<&Address<'_>>) -> Vec<String> {
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
pub(super) fn addr_spec(value: &str) -> Option<String> {
    let a = match (value.rfind('<'), value.rfind('>')) {
        (Some(i), Some(j)) if i < j => &value[i + 1..j],
        _ => value.split_whitespace().find(|w| w.contains('@'))?,
    };
    let a = a.trim().trim_matches(['"', '\'', ',']);
    (a.contains('@') && !a.contains(char::is_whitespace)).then(|| a.to_ascii_lowercase())
}

/// The root part's headers: lowercased name, unfolded raw value.
pub(super) fn raw_headers(msg: &Message<'_>) -> Vec<(String, String)> {
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

pub(super) fn header<'h>(
    headers: &'h [(String, String)],
    name: &str,
) -> impl Iterator<Item = &'h str> + 'h {
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
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
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

pub(super) fn envelope(msg: &Message<'_>, raw: &[u8], limits: &Limits) -> Envelope {
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
        .map(super::clean::line)
        .filter(|s| !s.is_empty());
    let subject = msg.subject().map(super::clean::line).unwrap_or_default();
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
pub(super) fn sender_problem(msg: &Message<'_>, from: &str) -> Option<String> {
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

pub(super) fn split_addr(addr: &str) -> (&str, &str) {
    match addr.rsplit_once('@') {
        Some((l, d)) => (l, d),
        None => (addr, ""),
    }
}
