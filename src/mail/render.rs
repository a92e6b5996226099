//! The mail texts, from the minijinja templates in `templates/` (compiled
//! into the binary, so a deployed daemon needs no template files). Every
//! rendered text is wrapped ([`super::wrap`]): prose at 72 columns, a GSD
//! (`{{ gsd | verbatim }}`) as it is.

use std::sync::OnceLock;

use minijinja::Environment;
use serde::Serialize;

const TEMPLATES: &[(&str, &str)] = &[
    ("accepted", include_str!("../../templates/accepted.txt")),
    ("buzz", include_str!("../../templates/buzz.txt")),
    ("ruling", include_str!("../../templates/ruling.txt")),
    (
        "parse_error",
        include_str!("../../templates/parse_error.txt"),
    ),
    ("stale", include_str!("../../templates/stale.txt")),
    ("refused", include_str!("../../templates/refused.txt")),
    ("notice", include_str!("../../templates/notice.txt")),
    ("help", include_str!("../../templates/help.txt")),
    ("status", include_str!("../../templates/status.txt")),
    ("commands", include_str!("../../templates/commands.txt")),
    ("unclear", include_str!("../../templates/unclear.txt")),
    ("speaker", include_str!("../../templates/speaker.txt")),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_keep_trailing_newline(true);
        // Plain text: nothing is HTML-escaped.
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
        env.add_filter("verbatim", |s: String| super::wrap::verbatim(&s));
        env.add_filter("quote", |s: String| super::wrap::quote(&s));
        for (name, text) in TEMPLATES {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("template {name}: {e}"));
        }
        env
    })
}

/// Renders template `name` with `ctx`, wrapped ([`super::wrap::wrap`]).
/// The templates are part of the binary and tested, so a failure here is
/// a bug: it is reported in the text rather than by a panic, so the daemon
/// keeps running.
pub fn render<S: Serialize>(name: &str, ctx: S) -> String {
    match env().get_template(name).and_then(|t| t.render(ctx)) {
        Ok(s) => super::wrap::wrap(&s),
        Err(e) => format!("(mornbot: template {name} failed: {e})\n"),
    }
}

/// A caret line under `needle` in `line` (under the whole line when the
/// needle is absent), for pointing at the offending part of a play.
pub fn caret(line: &str, needle: Option<&str>) -> String {
    let (start, len) = match needle.and_then(|n| {
        let n = n.trim();
        (!n.is_empty()).then_some(n)
    }) {
        // ASCII lower-casing keeps byte offsets valid for slicing `line`.
        Some(n) => match line.to_ascii_lowercase().find(&n.to_ascii_lowercase()) {
            Some(i) => (line[..i].chars().count(), n.chars().count()),
            None => (0, line.chars().count()),
        },
        None => (0, line.chars().count()),
    };
    format!(
        "{}^{}",
        " ".repeat(start),
        "~".repeat(len.saturating_sub(1))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_renders_with_an_empty_context() {
        for (name, _) in TEMPLATES {
            let s = render(name, minijinja::context! {});
            assert!(!s.contains("template"), "{name}: {s}");
        }
    }

    #[test]
    fn signature_separator_keeps_its_space() {
        let s = render(
            "refused",
            minijinja::context! { reason => "no", bot => "b@x" },
        );
        assert!(s.contains("\n-- \nmornbot"), "{s:?}");
    }

    #[test]
    fn buzz_lists_each_violation_with_its_rule() {
        let s = render(
            "buzz",
            minijinja::context! {
                player => "Alice", n => 3, game => "MN1", play => "Alice : Euston (VC)",
                caret => caret("Alice : Euston (VC)", Some("Euston")),
                violations => vec![
                    minijinja::context!{ rule => "1.6.2", message => "needs LV 3" },
                    minijinja::context!{ rule => "1.5.11", message => "no Black token" },
                ],
                gsd => "GSD", bot => "b@x",
            },
        );
        assert!(s.contains("Rule 1.6.2: needs LV 3\n"), "{s}");
        assert!(s.contains("Rule 1.5.11: no Black token\n"), "{s}");
        assert!(
            s.contains("    Alice : Euston (VC)\n            ^~~~~~\n"),
            "{s}"
        );
    }

    #[test]
    fn caret_falls_back_to_the_whole_line() {
        assert_eq!(caret("abc", Some("zz")), "^~~");
        assert_eq!(caret("abc def", Some("DEF")), "    ^~~");
        assert_eq!(caret("", None), "^");
    }
}
