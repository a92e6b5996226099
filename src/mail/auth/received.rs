//! `Received:` headers: whether a hop is inside the trust boundary, read
//! from its `from` clause's comment.

use super::*;

/// Whether a `Received:` header records a hop inside the trust boundary:
/// one with no `from` clause (the message was made on that host), one over
/// LMTP or `local` delivery (RFC 2033: LMTP never crosses the Internet), or
/// one whose peer address is loopback or in `internal`. The peer address is
/// the first IP literal in the `from` clause's comment, which the receiving
/// server writes (`from HELO (rdns [192.0.2.1])`), never one given after
/// `helo=`; a bare literal (`from [192.0.2.1]`) counts only beside a
/// `helo=` comment (Exim's form), since elsewhere it is the client's HELO.
pub fn received_is_internal(value: &str, internal: &[Network]) -> bool {
    let clauses = value.rsplit_once(';').map_or(value, |(c, _)| c);
    let tokens = tokenize(clauses);
    let keyword = |t: &Token| {
        matches!(t, Token::Word(w) if ["from", "by", "via", "with", "id", "for"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k)))
    };
    let Some(from_at) = tokens
        .iter()
        .position(|t| matches!(t, Token::Word(w) if w.eq_ignore_ascii_case("from")))
    else {
        return true;
    };
    let with = tokens
        .iter()
        .position(|t| matches!(t, Token::Word(w) if w.eq_ignore_ascii_case("with")))
        .and_then(|i| tokens.get(i + 1));
    if let Some(Token::Word(p)) = with {
        let p = p.to_ascii_lowercase();
        if p.starts_with("lmtp") || p == "local" {
            return true;
        }
    }
    let clause: Vec<&Token> = tokens[from_at + 1..]
        .iter()
        .take_while(|t| !keyword(t))
        .collect();
    let mut peer = None;
    let mut exim = false;
    for t in &clause {
        if let Token::Comment(c) = t {
            exim |= c.to_ascii_lowercase().contains("helo=");
            if peer.is_none() {
                peer = comment_ip(c);
            }
        }
    }
    if peer.is_none() && exim {
        if let Some(Token::Word(w)) = clause.first() {
            peer = ip_literal(w);
        }
    }
    peer.is_some_and(|ip| ip.is_loopback() || internal.iter().any(|n| n.contains(ip)))
}

enum Token {
    Word(String),
    Comment(String),
}

/// Top-level words and (nested) comments of a header value.
fn tokenize(s: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut comment = String::new();
    let mut depth = 0usize;
    let mut escaped = false;
    for c in s.chars() {
        if depth > 0 {
            if escaped {
                escaped = false;
                comment.push(c);
                continue;
            }
            match c {
                '\\' => escaped = true,
                '(' => {
                    depth += 1;
                    comment.push(c);
                }
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push(Token::Comment(std::mem::take(&mut comment)));
                    } else {
                        comment.push(c);
                    }
                }
                c => comment.push(c),
            }
            continue;
        }
        if c == '(' || c.is_whitespace() {
            if !word.is_empty() {
                out.push(Token::Word(std::mem::take(&mut word)));
            }
            if c == '(' {
                depth = 1;
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(Token::Word(word));
    }
    out
}

/// The first IP literal of a `Received:` comment not given after `helo=`
/// (or after a `HELO`/`EHLO` word).
fn comment_ip(c: &str) -> Option<IpAddr> {
    let mut after_helo = false;
    for w in c.split_whitespace() {
        let lower = w.to_ascii_lowercase();
        if lower == "helo" || lower == "ehlo" {
            after_helo = true;
            continue;
        }
        if lower.starts_with("helo=") || lower.starts_with("ehlo=") || after_helo {
            after_helo = false;
            continue;
        }
        if let Some(ip) = ip_literal(w) {
            return Some(ip);
        }
    }
    None
}

/// The address in `[192.0.2.1]` or `[IPv6:2001:db8::1]` within a word.
fn ip_literal(w: &str) -> Option<IpAddr> {
    let open = w.find('[')?;
    let close = open + w[open..].find(']')?;
    let inner = &w[open + 1..close];
    let inner = inner
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("ipv6:"))
        .map_or(inner, |_| &inner[5..]);
    inner.parse().ok()
}
