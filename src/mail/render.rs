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
    ("help", include_str!("../../templates/help.txt")),
    ("status", include_str!("../../templates/status.txt")),
    ("commands", include_str!("../../templates/commands.txt")),
    ("unclear", include_str!("../../templates/unclear.txt")),
    // Games of other kinds (issue 41): the shared texts, and a kind's own
    // where it says more (`<kind>/<name>`, see `render_for`).
    (
        "order_accepted",
        include_str!("../../templates/order_accepted.txt"),
    ),
    (
        "order_illegal",
        include_str!("../../templates/order_illegal.txt"),
    ),
    (
        "order_timeout",
        include_str!("../../templates/order_timeout.txt"),
    ),
    (
        "mc-xml/order_illegal",
        include_str!("../../templates/mc-xml/order_illegal.txt"),
    ),
    (
        "money-run/order_illegal",
        include_str!("../../templates/money-run/order_illegal.txt"),
    ),
    (
        "one-day/order_accepted",
        include_str!("../../templates/one-day/order_accepted.txt"),
    ),
    (
        "one-day/order_illegal",
        include_str!("../../templates/one-day/order_illegal.txt"),
    ),
    (
        "one-day/order_timeout",
        include_str!("../../templates/one-day/order_timeout.txt"),
    ),
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

/// Renders the template `name` as game kind `kind` words it: the kind's
/// own (`<kind>/<name>`) when it has one, else the shared `name`.
pub fn render_for<S: Serialize>(kind: &str, name: &str, ctx: S) -> String {
    let own = format!("{kind}/{name}");
    if env().get_template(&own).is_ok() {
        render(&own, ctx)
    } else {
        render(name, ctx)
    }
}

/// The one signature of every mail the bot sends: added where a reply is
/// made (`daemon::referee`), never by a template, so no mail is signed
/// twice. A mail about a game names it.
pub fn signature(game: Option<&str>, bot: &str) -> String {
    match game {
        Some(g) => format!("-- \nmornbot, referee of {g}. Send HELP to {bot} for commands.\n"),
        None => format!("-- \nmornbot. Send HELP to {bot} for commands.\n"),
    }
}

/// `body` and, below it, its [`signature`].
pub fn signed(body: &str, game: Option<&str>, bot: &str) -> String {
    let body = body.trim_end_matches('\n');
    format!("{body}\n{}", signature(game, bot))
}

/// `note` added to a signed `body`, above its signature (where a reader
/// sees it; a client greys or hides what follows `-- `).
pub fn add_above_signature(body: &mut String, note: &str) {
    let at = body.rfind("\n-- \n").map_or(body.len(), |i| i + 1);
    body.insert_str(at, note);
}

/// What a person would find wrong in a mail the bot sends (issue 39),
/// none when it reads well: it ends with exactly one signature (a `-- `
/// line and the bot's two lines), its prose says no sentence twice, and a
/// sentence naming the player to move says by when eir turn is due.
/// Prose is what the bot writes in its own words: not a play line, a
/// table, a GSD, a quote, a list item or an indented block, nor a
/// notice's headline (its first line, set off by a blank line, with no
/// full stop). Sentences (and clauses
/// after a `;`) are compared by their words, small words such as "has",
/// "the", "in" or "game" aside, so "Nothing changed." and "Nothing has
/// changed in the game." are the same sentence. The tests run it over
/// every mail they see.
pub fn faults(text: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n");
    let mut out = Vec::new();
    let mut lines: Vec<&str> = text.lines().collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let sigs: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == "-- ").collect();
    match sigs[..] {
        [i] if lines.len() - i - 1 <= 2 => {}
        [i] => out.push(format!(
            "{} lines after the signature: {:?}",
            lines.len() - i - 1,
            &lines[i + 1..]
        )),
        _ => out.push(format!("{} signatures", sigs.len())),
    }
    let end = sigs.first().copied().unwrap_or(lines.len());
    let mut seen: Vec<(Vec<String>, String)> = Vec::new();
    for s in sentences(&lines[..end], false) {
        if names_next_without_deadline(&s) {
            out.push(format!("names the player to move, not when: {s:?}"));
        }
    }
    for s in sentences(&lines[..end], true) {
        let words = sentence_words(&s);
        if words.len() < 2 {
            continue;
        }
        match seen.iter().find(|(w, _)| *w == words) {
            Some((_, first)) => out.push(format!("said twice: {first:?} and {s:?}")),
            None => seen.push((words, s)),
        }
    }
    out
}

/// Whether a sentence names the player to move ("It is Rushton's turn",
/// "Next to play: Warren", "Acton moves first") without saying by when
/// eir turn is due, or why none is (a pause, a turn held): every mail
/// that names the next player says so (issue 39).
fn names_next_without_deadline(s: &str) -> bool {
    let l = s.to_lowercase();
    let names = l.starts_with("next to play")
        || l.contains(" moves first")
        || l.match_indices("it is ").any(|(i, _)| {
            let mut w = l[i + 6..].split_whitespace();
            let first = w.next().unwrap_or_default();
            let who = if first == "still" {
                w.next().unwrap_or_default()
            } else {
                first
            };
            who.ends_with("'s") && w.next().is_some_and(|t| t.starts_with("turn"))
        });
    let when = [
        "due by", "paused", "held", " by mon", " by tue", " by wed", " by thu", " by fri",
        " by sat", " by sun",
    ];
    names && !when.iter().any(|w| l.contains(w))
}

/// The sentences (and, with `clauses`, the `;` clauses) of the prose
/// among `lines`.
fn sentences(lines: &[&str], clauses: bool) -> Vec<String> {
    // A notice's headline says what the mail is about, with no full stop
    // (`Turn 4 is Legal`): a title, not a sentence of the text.
    let headline = lines.len() > 1
        && lines[1].trim().is_empty()
        && !lines[0].trim_end().ends_with(['.', '!', '?', ':']);
    let mut paras: Vec<String> = Vec::new();
    let mut para = String::new();
    for (i, l) in lines.iter().enumerate() {
        // A list item (`  - a change`, `  Rushton: address`) is a fact of
        // a list, not a sentence: lists of two games' STATUS may share one.
        let prose = !(i == 0 && headline) && is_prose(l) && !l.starts_with("  ");
        if !prose || l.trim().is_empty() {
            if !para.is_empty() {
                paras.push(std::mem::take(&mut para));
            }
            continue;
        }
        para.push(' ');
        para.push_str(l.trim());
    }
    if !para.is_empty() {
        paras.push(para);
    }
    let mut out = Vec::new();
    for p in paras {
        let p = p.replace("e.g.", "eg").replace("i.e.", "ie");
        let mut start = 0;
        let b = p.as_bytes();
        for i in 0..b.len() {
            let ends = (matches!(b[i], b'.' | b'?' | b'!') || clauses && b[i] == b';')
                && b.get(i + 1).is_none_or(|c| c.is_ascii_whitespace());
            if ends {
                out.push(p[start..=i].trim().to_string());
                start = i + 1;
            }
        }
        if !p[start..].trim().is_empty() {
            out.push(p[start..].trim().to_string());
        }
    }
    out
}

/// Whether a line is the bot's prose: not a play line (`Name : ...`), a
/// GSD's `Game` line, a table, a quote or an indented block.
fn is_prose(line: &str) -> bool {
    let play = line
        .split_once(" : ")
        .is_some_and(|(name, _)| !name.starts_with(' ') && name.split_whitespace().count() <= 3);
    let game_line = line
        .strip_prefix("Game ")
        .is_some_and(|t| !t.trim().is_empty() && !t.trim().contains(' '));
    !(play
        || game_line
        || line.starts_with("    ")
        || line.starts_with('\t')
        || line.starts_with(['|', '+', '>']))
}

/// A sentence's words, lower case, the small words that change no
/// meaning left out.
fn sentence_words(s: &str) -> Vec<String> {
    const SMALL: [&str; 17] = [
        "a", "an", "the", "has", "have", "had", "been", "is", "was", "in", "of", "to", "it",
        "this", "that", "game", "any",
    ];
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !SMALL.contains(&w.as_str()))
        .collect()
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
    #[test]
    fn a_kind_says_more_where_it_has_its_own_text_and_shares_the_rest() {
        let ctx = || {
            minijinja::context! {
                n => 2, game => "MX1", player => "Ann", breaches => vec!["Rule 3: no"],
                repairs => Vec::<String>::new(), reason => "Nothing has changed.",
            }
        };
        let own = render_for("mc-xml", "order_illegal", ctx());
        assert!(own.contains("<Turn player=\"Ann\">"), "{own}");
        let money = render_for("money-run", "order_illegal", ctx());
        assert!(money.contains("place M e4"), "{money}");
        assert!(!money.contains("<Turn"), "{money}");
        let shared = render_for("no-such-kind", "order_illegal", ctx());
        assert!(!shared.contains("<Turn"), "{shared}");
        assert!(!shared.contains("place M e4"), "{shared}");
        assert!(shared.contains("Rule 3: no") && own.contains("Rule 3: no"));
        assert_eq!(
            render_for(
                "mc-xml",
                "order_timeout",
                minijinja::context! { player => "Ann" }
            ),
            render("order_timeout", minijinja::context! { player => "Ann" })
        );
    }

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
        let s = signed(
            &render("refused", minijinja::context! { reason => "no" }),
            Some("MN1"),
            "b@x",
        );
        assert!(s.ends_with("\n-- \nmornbot, referee of MN1. Send HELP to b@x for commands.\n"));
        assert!(faults(&s).is_empty(), "{:?}", faults(&s));
    }

    /// Every template, rendered with every part it can show, reads well
    /// once signed: no template signs itself (the signature is added with
    /// the mail, once) and none says a sentence twice.
    #[test]
    fn every_template_signed_once_says_nothing_twice() {
        let v = |rule: &str, message: &str| minijinja::context! { rule, message };
        let full = minijinja::context! {
            reason => "Rule 1.3.2: it is not your turn.", text => "A notice.",
            player => "Rushton", n => 4, game => "MN1", play => "Rushton : Euston (NT)",
            timeout => "Mon 16 Nov 2026 21:00 GMT", withdrawn => "Rushton : Pass",
            changes => vec!["Rushton moves to Euston"], dice => vec!["a d6 = 3"],
            diffs => vec!["LV: yours 1, mornbot's 0"], winner => "", window => 36,
            next => "Warren", deadline => "Tue 17 Nov 2026 21:00 GMT",
            gsd => "Game MN1\n\nRushton : Pass\nWarren : Pass\nRushton : Pass",
            caret => "^~~", violations => vec![v("1.6.2", "needs LV 3"), v("1.5.11", "no Black token")],
            rulings => vec![v("1.4.36", "the Clamp's giver is not shown")], referee => "Warren",
            what => "play", line => 3, column => 9, source => "Rushton : Eustn (NT)",
            expected => "a station", found => "\"Eustn\"", suggestions => vec!["Euston"],
            based_on => 2, at => 3, last => "Acton : Pass", turns => 3, time => "Monday 0900",
            questionable => "", players => vec![minijinja::context! { name => "Rushton", active => true }],
            requests => vec!["Paused by the Speaker."], parts => vec!["one part\n", "another\n"],
            games => "MN1", example => "MN1", lounge => "lounge@x", bot => "b@x",
            unknown => vec![minijinja::context! { line => "STRAT MN1", meant => "START MN1" }],
            looks => "command", word => "STATUS", form => "STATUS [game]", meant => "START MN1",
            commands => crate::mail::commands::help_list("MN1"),
            steps => crate::mail::commands::steps_list(), rules_url => "https://example.org/v1",
            example_game => "MN1", example_player => "Rushton",
            until => "Tue 17 Nov 2026 21:00 GMT", due => "Thu 19 Nov 2026 09:00 GMT",
            whose => "It is Warren's turn, due by Tue 17 Nov 2026 21:00 GMT (Rule 1.3.5).",
        };
        for (name, text) in TEMPLATES {
            assert!(
                !text.lines().any(|l| l.trim_end() == "--"),
                "{name} signs itself: the signature is added with the mail"
            );
            let s = signed(&render(name, full.clone()), Some("MN1"), "b@x");
            let f = faults(&s);
            assert!(f.is_empty(), "{name}: {f:?}\n{s}");
            let bare = render(name, minijinja::context! {});
            assert!(!bare.contains("template"), "{name}: {bare}");
        }
    }

    #[test]
    fn faults_finds_two_signatures_and_a_sentence_said_twice() {
        let twice = "No game MN9; nothing changed.\n\nNothing has changed in the game.\n-- \nm\n";
        assert_eq!(faults(twice).len(), 1, "{:?}", faults(twice));
        let two_sigs = "Hello.\n-- \nmornbot\n-- \nmornbot\n";
        assert_eq!(faults(two_sigs), vec!["2 signatures"]);
        assert_eq!(faults("Hello.\n"), vec!["0 signatures"]);
        // A note below the signature is hidden by clients.
        assert_eq!(faults("Hi.\n-- \nm\nx\n(note)\n").len(), 1);
        // Plays, tables, quotes and the headline are not prose.
        let ok = "Turn 4 is Legal\n\nTurn 4 is legal.\n\n    Rushton : Pass\n    Rushton : Pass\n\
                  | a |\n| a |\n> x.\n> x.\nGame MN1\nRushton : Pass\nRushton : Pass\n-- \nm\n";
        assert!(faults(ok).is_empty(), "{:?}", faults(ok));
        // The player to move, and by when.
        for (said, wrong) in [
            ("It is Rushton's turn.", true),
            ("The turn stands: it is still Rushton's turn.", true),
            ("Next to play: Warren.", true),
            ("Acton moves first in MN1.", true),
            (
                "It is Rushton's turn, due by Tue 17 Nov 2026 21:00 GMT.",
                false,
            ),
            ("Next to play: Warren, by Tue 17 Nov 2026 21:00 GMT.", false),
            ("It is Rushton's turn; the game is paused.", false),
            ("It is no longer Rushton's turn to play.", false),
            ("Acton buzzes Rushton's turn 4: it is Questionable.", false),
        ] {
            let f = faults(&signed(said, None, "b@x"));
            assert_eq!(!f.is_empty(), wrong, "{said}: {f:?}");
        }
        let mut body = signed("Text.", None, "b@x");
        add_above_signature(&mut body, "\n(A note.)\n");
        assert_eq!(
            body,
            "Text.\n\n(A note.)\n-- \nmornbot. Send HELP to b@x for commands.\n"
        );
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
