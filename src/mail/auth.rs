//! Who vouches for a sender: `Authentication-Results` (RFC 8601) read the
//! way RFC 8601 sections 4, 5 and 7 allow, and the one authentication gate.
//!
//! Any sender can write an `Authentication-Results` header claiming any
//! authserv-id; only the receiving server's own can be believed. A server
//! adds its header *at the top*, above the trace (`Received:`) header it
//! prepends for the hop (section 4), and is required to delete forged ones
//! naming its own authserv-id (section 5) — but mornbot cannot know that it
//! did. So [`read`] believes only what stands where nobody outside could
//! have written it:
//!
//! - It walks the header section from the top down. `Received:` headers of
//!   hops *inside* the trust boundary (see [`received_is_internal`]) are
//!   passed over; the first `Received:` from outside ends the walk: every
//!   header below it came with the message from outside.
//! - The first `Authentication-Results` met must carry the trusted
//!   authserv-id; those that follow it (before the boundary) and carry it
//!   too are part of the same block (a server may add one header per
//!   method). Another server's header ends the walk: a trusted-looking one
//!   under it was not added on top by the trusted server.
//! - Other headers (`Return-Path`, `Delivered-To`, `DKIM-Filter`, spam
//!   scores...) are passed over.
//!
//! A server that writes its `Authentication-Results` *below* its own
//! `Received:` (as some large providers do) cannot be told from a sender who
//! forged one there: its results read as [`AuthVerdict::Unknown`].
//!
//! Within a counted header, a result counts only when it is `pass` and its
//! authenticated domain is aligned with the `From` domain (see
//! [`AuthVerdict::Pass`]). Comments are removed and `;` inside quoted
//! strings does not split results, so a `reason="...; dkim=pass"` quoting
//! the sender's text is not read as a result.

use std::net::IpAddr;
use std::str::FromStr;

/// What the trusted `Authentication-Results` say of the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum AuthVerdict {
    /// A counted header shows `dkim=pass` with `header.d` or `header.i` in
    /// the `From` domain, `spf=pass` with `smtp.mailfrom` in the `From`
    /// domain, or `dmarc=pass` with `header.from` in the `From` domain. "In
    /// the domain" is equality or one being a sub-domain of the other (the
    /// shorter having at least two labels), DMARC's relaxed alignment
    /// without a public-suffix list.
    Pass,
    /// A counted header exists and shows no such aligned pass.
    Fail,
    /// No header counts (see the module docs), or no trusted authserv-id
    /// is configured.
    Unknown,
}

/// An IP network (`10.0.0.0/8`, `2001:db8::/32`, or one address) whose
/// hops are inside the trust boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    prefix: u8,
}

impl Network {
    /// Whether `ip` lies in the network.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for Network {
    type Err = String;

    fn from_str(s: &str) -> Result<Network, String> {
        let (addr, prefix) = match s.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s.trim(), None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{s:?} is not an IP address or network (e.g. 10.0.0.0/8)"))?;
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => most,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= most)
                .ok_or_else(|| format!("{s:?}: the prefix length must be 0 to {most}"))?,
        };
        Ok(Network { addr, prefix })
    }
}

impl<'de> serde::Deserialize<'de> for Network {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Network, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Whom [`read`] trusts.
#[derive(Clone, Copy, Debug)]
pub struct Trust<'a> {
    /// The authserv-id of the receiving server (any case).
    pub authserv_id: &'a str,
    /// Networks whose hops are inside the trust boundary, besides loopback.
    pub internal_networks: &'a [Network],
}

/// Where [`read`] stopped walking down the header section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// At a `Received:` header from outside (its value).
    Received(String),
    /// At another server's `Authentication-Results` (its authserv-id).
    OtherServer(String),
    /// At the end of the header section.
    End,
}

/// What [`read`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The verdict.
    pub verdict: AuthVerdict,
    /// The counted headers' values (comments kept), top first.
    pub counted: Vec<String>,
    /// Where the walk stopped.
    pub boundary: Boundary,
}

/// Reads the `Authentication-Results` of a header section (see the module
/// docs). `headers` are `(lowercased name, unfolded value)`, top first;
/// `from` is the `From` address. Without `trust`, the verdict is
/// [`AuthVerdict::Unknown`].
pub fn read(headers: &[(String, String)], from: &str, trust: Option<&Trust<'_>>) -> Reading {
    let unknown = |boundary| Reading {
        verdict: AuthVerdict::Unknown,
        counted: Vec::new(),
        boundary,
    };
    let Some(trust) = trust else {
        return unknown(Boundary::End);
    };
    let trusted = trust.authserv_id.trim().to_ascii_lowercase();
    let from_domain = from
        .rsplit_once('@')
        .map_or("", |(_, d)| d)
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let mut counted = Vec::new();
    let mut pass = false;
    let mut boundary = Boundary::End;
    for (name, value) in headers {
        match name.as_str() {
            "received" if received_is_internal(value, trust.internal_networks) => {}
            "received" => {
                boundary = Boundary::Received(value.clone());
                break;
            }
            "authentication-results" => {
                let (id, aligned_pass) = read_auth_results(value, &from_domain);
                if id != trusted {
                    boundary = Boundary::OtherServer(id);
                    break;
                }
                pass |= aligned_pass;
                counted.push(value.clone());
            }
            _ => {}
        }
    }
    let verdict = match (counted.is_empty(), pass) {
        (true, _) => AuthVerdict::Unknown,
        (false, true) => AuthVerdict::Pass,
        (false, false) => AuthVerdict::Fail,
    };
    Reading {
        verdict,
        counted,
        boundary,
    }
}

/// Why [`gate`] refuses a message that would change a game's state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthRefusal {
    /// No counted header.
    #[error(
        "the receiving server ({authserv_id}) did not authenticate it: no Authentication-Results \
         of its own stand above the first Received: header from outside"
    )]
    NoTrustedResults {
        /// The trusted authserv-id.
        authserv_id: String,
    },
    /// Counted headers, but no aligned pass.
    #[error(
        "the receiving server ({authserv_id}) reports no DKIM, SPF or DMARC pass for the From \
         address's domain"
    )]
    NoAlignedPass {
        /// The trusted authserv-id.
        authserv_id: String,
    },
}

/// The one authentication gate for every message that changes state (a
/// turn, a workflow step, a take-back, a Judgment, a Speaker or lifecycle
/// command): with a trusted authserv-id configured, only an
/// [`AuthVerdict::Pass`] goes through; without one, nothing can be
/// authenticated and everything goes through.
pub fn gate(verdict: AuthVerdict, trusted_authserv_id: Option<&str>) -> Result<(), AuthRefusal> {
    let Some(id) = trusted_authserv_id else {
        return Ok(());
    };
    let authserv_id = id.trim().to_string();
    match verdict {
        AuthVerdict::Pass => Ok(()),
        AuthVerdict::Fail => Err(AuthRefusal::NoAlignedPass { authserv_id }),
        AuthVerdict::Unknown => Err(AuthRefusal::NoTrustedResults { authserv_id }),
    }
}

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

/// Removes RFC 5322 comments (nested parentheses), respecting quotes.
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    let mut quoted = false;
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                if depth == 0 {
                    out.push(c);
                }
            }
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => {
                depth += 1;
                out.push(' ');
            }
            ')' if !quoted && depth > 0 => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Splits on `sep` outside quoted strings.
fn split_unquoted(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&s[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&s[start..]);
    out
}

/// The domain of an `Authentication-Results` property value: after the
/// last `@` when there is one, unquoted, lowercased.
fn value_domain(v: &str) -> String {
    let v = v.trim().trim_matches('"');
    let d = v.rsplit_once('@').map_or(v, |(_, d)| d);
    d.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// Same domain, or one a sub-domain of the other (the shorter with at least
/// two labels): relaxed alignment without a public-suffix list.
fn aligned(a: &str, b: &str) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    if a == b {
        return true;
    }
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    short.contains('.') && long.ends_with(&format!(".{short}"))
}

/// One `Authentication-Results` value: its authserv-id (lowercased) and
/// whether it shows an aligned pass for `from_domain`.
fn read_auth_results(value: &str, from_domain: &str) -> (String, bool) {
    let clean = strip_comments(value);
    let parts = split_unquoted(&clean, ';');
    let id = parts
        .first()
        .and_then(|p| p.split_whitespace().next())
        .unwrap_or("")
        .trim_matches('"')
        .to_ascii_lowercase();
    let mut pass = false;
    for resinfo in parts.iter().skip(1) {
        let mut words = resinfo.split_whitespace();
        let Some((method, result)) = words.next().and_then(|w| w.split_once('=')) else {
            continue;
        };
        let method = method.split('/').next().unwrap_or("").to_ascii_lowercase();
        if !result.trim_matches('"').eq_ignore_ascii_case("pass") {
            continue;
        }
        let wanted: &[&str] = match method.as_str() {
            "dkim" => &["header.d", "header.i"],
            "spf" => &["smtp.mailfrom"],
            "dmarc" => &["header.from"],
            _ => continue,
        };
        for prop in words {
            if let Some((k, v)) = prop.split_once('=') {
                if wanted.iter().any(|w| k.eq_ignore_ascii_case(w))
                    && aligned(&value_domain(v), from_domain)
                {
                    pass = true;
                }
            }
        }
    }
    (id, pass)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(lines: &[(&str, &str)]) -> Vec<(String, String)> {
        lines
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string()))
            .collect()
    }

    const NETS: &[Network] = &[];

    fn verdict(headers: &[(&str, &str)]) -> AuthVerdict {
        let trust = Trust {
            authserv_id: "mx.example.net",
            internal_networks: &[Network {
                addr: IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 0)),
                prefix: 8,
            }],
        };
        read(&h(headers), "tim@example.org", Some(&trust)).verdict
    }

    const PASS: (&str, &str) = (
        "Authentication-Results",
        "mx.example.net; dkim=pass header.d=example.org",
    );
    const OUTSIDE: (&str, &str) = (
        "Received",
        "from mail.example.org (mail.example.org [198.51.100.7]) by mx.example.net with ESMTPS id 1; Tue, 14 Jan 2025 14:20:01 +0000",
    );

    #[test]
    fn results_on_top_count() {
        assert_eq!(verdict(&[PASS, OUTSIDE]), AuthVerdict::Pass);
        assert_eq!(
            verdict(&[("Return-Path", "<tim@example.org>"), PASS, OUTSIDE]),
            AuthVerdict::Pass
        );
    }

    #[test]
    fn results_under_a_received_from_outside_do_not() {
        let r = read(
            &h(&[OUTSIDE, PASS]),
            "tim@example.org",
            Some(&Trust {
                authserv_id: "mx.example.net",
                internal_networks: NETS,
            }),
        );
        assert_eq!(r.verdict, AuthVerdict::Unknown);
        assert!(matches!(r.boundary, Boundary::Received(_)));
    }

    #[test]
    fn results_under_another_servers_do_not() {
        let other = ("Authentication-Results", "mx.other.test; none");
        assert_eq!(verdict(&[other, PASS, OUTSIDE]), AuthVerdict::Unknown);
        // ... nor do a trusted block's followers after another server's.
        let fail = ("Authentication-Results", "mx.example.net; dkim=none");
        assert_eq!(verdict(&[fail, other, PASS]), AuthVerdict::Fail);
    }

    #[test]
    fn internal_hops_are_passed_over() {
        for hop in [
            "from mx.example.net ([10.0.0.2]) by imap.example.net with LMTP id x; Tue, 14 Jan 2025 14:20:02 +0000",
            "from mx.example.net (mx.example.net [192.0.2.9]) by imap.example.net with LMTPS; x",
            "from localhost (localhost [127.0.0.1]) by lists.example.net (Postfix) with ESMTP; x",
            "from relay.example.net (relay.example.net [10.1.2.3]) by mx.example.net with ESMTP; x",
            "by mx.example.net (Postfix, from userid 0) id 4AB; Tue, 14 Jan 2025 14:20:01 +0000",
            "from [10.1.2.3] (helo=relay) by mx.example.net with esmtp (Exim 4.96); x",
            "from relay ([IPv6:::1]) by mx.example.net with ESMTP; x",
        ] {
            assert!(received_is_internal(hop, &[
                "10.0.0.0/8".parse().unwrap()
            ]), "{hop}");
            assert_eq!(
                verdict(&[("Received", hop), PASS, OUTSIDE]),
                AuthVerdict::Pass,
                "{hop}"
            );
        }
    }

    #[test]
    fn a_helo_never_makes_a_hop_internal() {
        for hop in [
            "from [127.0.0.1] (evil.test [203.0.113.9]) by mx.example.net with ESMTP; x",
            "from evil.test ([203.0.113.9] helo=[127.0.0.1]) by mx.example.net with esmtp; x",
            "from [127.0.0.1] by mx.example.net with ESMTP; x",
            "from evil.test (HELO [127.0.0.1]) by mx.example.net; x",
            "from mx.example.net by mx.example.net; x",
        ] {
            assert!(!received_is_internal(hop, &[]), "{hop}");
        }
    }

    #[test]
    fn quoted_semicolons_do_not_split_results() {
        let tricky = (
            "Authentication-Results",
            "mx.example.net; dkim=fail reason=\"bad; dkim=pass header.d=example.org\"",
        );
        assert_eq!(verdict(&[tricky, OUTSIDE]), AuthVerdict::Fail);
    }

    #[test]
    fn comments_and_alignment() {
        let (id, pass) = read_auth_results(
            "mx.example.net (version 1); dkim=pass (2048-bit key) header.d=mail.example.org header.s=s1; spf=fail smtp.mailfrom=x@evil.test",
            "example.org",
        );
        assert_eq!(id, "mx.example.net");
        assert!(pass);
        assert!(!aligned("org", "example.org"));
        assert!(!aligned("example.org", "badexample.org"));
        assert!(aligned("example.org", "example.org"));
    }

    #[test]
    fn networks() {
        let n: Network = "192.0.2.0/24".parse().unwrap();
        assert!(n.contains("192.0.2.200".parse().unwrap()));
        assert!(!n.contains("192.0.3.1".parse().unwrap()));
        assert!(!n.contains("::1".parse().unwrap()));
        let all: Network = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains("203.0.113.9".parse().unwrap()));
        let one: Network = "2001:db8::1".parse().unwrap();
        assert!(one.contains("2001:db8::1".parse().unwrap()));
        assert!(!one.contains("2001:db8::2".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<Network>().is_err());
        assert!("ten".parse::<Network>().is_err());
    }

    #[test]
    fn the_gate() {
        assert_eq!(gate(AuthVerdict::Unknown, None), Ok(()));
        assert_eq!(gate(AuthVerdict::Pass, Some("mx")), Ok(()));
        assert!(matches!(
            gate(AuthVerdict::Fail, Some("mx")),
            Err(AuthRefusal::NoAlignedPass { .. })
        ));
        let e = gate(AuthVerdict::Unknown, Some("mx")).unwrap_err();
        assert!(e.to_string().contains("(mx)"), "{e}");
    }
}
