//! Mail addresses as identities: one comparison, used everywhere an address
//! is matched (a player's, the bot's, the referee's, the list's).
//!
//! # Judgment calls
//!
//! - **ASCII case folding only.** Two addresses are the same when their
//!   bytes are equal after folding `A`-`Z` to `a`-`z` (local part and
//!   domain alike; RFC 5321 lets a server treat local parts case-
//!   sensitively, but every server a lounge uses folds them). Unicode case
//!   folding is never applied: it maps U+212A KELVIN SIGN to `k` and
//!   U+0130 to `i̇`, so a stranger could pass for a player.
//! - **ASCII addresses only.** An address with any non-ASCII character is
//!   refused ([`check_ascii`]) rather than compared: a look-alike of a
//!   player's address (Cyrillic `і` for `i`, a Kelvin sign for `k`) is
//!   never taken for it, and registered addresses are ASCII (`check-config`
//!   says so). Internationalised domains are written in their ASCII
//!   (`xn--`) form.

/// Whether `a` and `b` are the same address: equal bytes after trimming
/// white space and folding ASCII letters to lower case (see the module docs).
pub fn same(a: &str, b: &str) -> bool {
    a.trim()
        .as_bytes()
        .eq_ignore_ascii_case(b.trim().as_bytes())
}

/// The form an address is stored and shown in: trimmed, ASCII letters
/// lower-cased, every other character kept as it is.
pub fn normalize(a: &str) -> String {
    a.trim().to_ascii_lowercase()
}

pub use crate::text::{check_ascii, NonAscii};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_case_folds_and_nothing_else() {
        assert!(same("Tim@Example.ORG", "tim@example.org"));
        assert!(same(" tim@example.org\t", "tim@example.org"));
        // U+212A KELVIN SIGN lower-cases to "k" in Unicode: not here.
        assert!(!same("\u{212a}im@example.org", "kim@example.org"));
        assert_eq!("\u{212a}".to_lowercase(), "k");
        assert!(!same("t\u{0456}m@example.org", "tim@example.org"));
        assert!(!same("tim@example.org", "tim@example.org.evil"));
        assert_eq!(normalize(" \u{212a}IM@X.org "), "\u{212a}im@x.org");
    }

    #[test]
    fn non_ascii_addresses_are_refused_by_position() {
        assert_eq!(check_ascii("tim@example.org"), Ok(()));
        let e = check_ascii("\u{212a}im@example.org").unwrap_err();
        assert_eq!((e.code.as_str(), e.position), ("U+212A", 1));
        assert!(e.to_string().contains("U+212A"), "{e}");
        let e = check_ascii("t\u{0456}m@example.org").unwrap_err();
        assert_eq!((e.code.as_str(), e.position), ("U+0456", 2));
        assert!(check_ascii("tim @example.org").is_err());
        assert!(check_ascii("tim\u{b}@example.org").is_err());
    }
}
