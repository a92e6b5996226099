//! Text from a mail, fit to become reply text (issue 39): whatever the
//! bot repeats of a mail (its subject in a reply's Subject, a line it
//! quotes, a name, a Buzz's reason) comes from the [`super::Inbound`]
//! [`super::parse`] makes, so it is cleaned here, once, as it is read:
//! control characters (Unicode `Cc`: NUL, ESC, DEL, the C1 controls...)
//! become a space, but a body keeps its line feeds and tabs; the
//! bidirectional controls that reorder what a reader sees (Trojan Source's
//! embeddings, overrides and isolates) are dropped.

/// A one-line header's text (Subject, display name): every control
/// character a space, trimmed.
pub(super) fn line(s: &str) -> String {
    clean(s, false).trim().to_string()
}

/// A body: control characters but line feeds and tabs become spaces.
pub(super) fn body(s: String) -> String {
    if s.chars().all(|c| fit(c, true)) {
        return s;
    }
    clean(&s, true)
}

fn clean(s: &str, body: bool) -> String {
    s.chars()
        .filter(|c| !is_bidi_control(*c))
        .map(|c| if fit(c, body) { c } else { ' ' })
        .collect()
}

/// Whether `c` may stay as it is.
fn fit(c: char, body: bool) -> bool {
    !(c.is_control() || is_bidi_control(c)) || (body && (c == '\n' || c == '\t'))
}

/// The bidirectional embeddings, overrides, isolates and marks.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_spaces_and_bidi_controls_go() {
        assert_eq!(line("Hi\0there\u{1b}[31m\r\n\u{7f}\u{85}"), "Hi there [31m");
        assert_eq!(line("abc\u{202e}fed"), "abcfed");
        assert_eq!(
            body("JOIN MN1 as Kit\0\nline\ttab\r\n\u{2066}x".into()),
            "JOIN MN1 as Kit \nline\ttab \nx"
        );
        // Clean text is returned as it came.
        assert_eq!(body("a\n\tb é".into()), "a\n\tb é");
    }
}
