//! One `Authentication-Results` header (RFC 8601): its authserv-id and
//! whether a result aligned with the sender's domain passes.

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
pub(super) fn aligned(a: &str, b: &str) -> bool {
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
pub(super) fn read_auth_results(value: &str, from_domain: &str) -> (String, bool) {
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
