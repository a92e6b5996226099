//! Text for reading in a mail client: prose wrapped at [`WIDTH`] columns,
//! what must not move left alone, quotes of what players wrote.
//!
//! [`wrap`] runs on every rendered template (`render::render`). It refills
//! a paragraph (a run of non-blank lines) only when one of its lines is
//! longer than [`WIDTH`], so a template's own line breaks stand when they
//! fit. It never touches:
//!
//! - lines starting with four spaces or a tab (play lines, carets,
//!   indented blocks), `|` or `+` (tables), `>` (quotes);
//! - anything between [`verbatim`] markers (a GSD, whose Play lines are
//!   as long as they are);
//! - the signature (from the `-- ` line on).
//!
//! A line starting with two spaces and then text (`  - a change`,
//! `  Rule 1.6.2: ...`) is a list item: wrapped on its own, continued
//! under its text.
//!
//! [`cut_sign_off`] takes the writer's sign-off (`Cheers,` and a name, a
//! `-- ` signature) off a text before it is quoted.

/// The widest line of wrapped prose.
pub const WIDTH: usize = 72;

const VERBATIM_START: char = '\u{2}';
const VERBATIM_END: char = '\u{3}';

/// `text` marked to be left exactly as it is by [`wrap`] (a GSD).
pub fn verbatim(text: &str) -> String {
    format!("{VERBATIM_START}{text}{VERBATIM_END}")
}

/// `text` with its prose wrapped at [`WIDTH`] (see the module docs), the
/// [`verbatim`] markers removed.
pub fn wrap(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut rest = text;
    let mut signed = false;
    while !rest.is_empty() {
        let (prose, after) = match rest.find(VERBATIM_START) {
            Some(i) => (&rest[..i], &rest[i + VERBATIM_START.len_utf8()..]),
            None => (rest, ""),
        };
        if signed {
            out.push_str(prose);
        } else {
            signed = wrap_prose(prose, &mut out);
        }
        if after.is_empty() && prose.len() == rest.len() {
            break;
        }
        let (kept, next) = match after.find(VERBATIM_END) {
            Some(i) => (&after[..i], &after[i + VERBATIM_END.len_utf8()..]),
            None => (after, ""),
        };
        out.push_str(kept);
        rest = next;
    }
    out.retain(|c| c != VERBATIM_START && c != VERBATIM_END);
    out
}

/// Whether a line is left as it is.
fn fixed(line: &str) -> bool {
    line.trim().is_empty()
        || line.starts_with("    ")
        || line.starts_with('\t')
        || line.starts_with(['|', '+', '>'])
}

/// A list item: two spaces, then text.
fn item(line: &str) -> bool {
    line.starts_with("  ") && !line[2..].starts_with([' ', '\t'])
}

/// Wraps `prose` (no verbatim markers) into `out`; returns whether it
/// reached the signature, after which nothing is wrapped.
fn wrap_prose(prose: &str, out: &mut String) -> bool {
    let mut para: Vec<&str> = Vec::new();
    let mut pos = 0;
    for piece in prose.split_inclusive('\n') {
        pos += piece.len();
        let line = piece.trim_end_matches('\n');
        if line == "-- " || line == "--" {
            flush(&mut para, out);
            out.push_str(piece);
            out.push_str(&prose[pos..]);
            return true;
        }
        if fixed(line) || item(line) {
            flush(&mut para, out);
            if item(line) && line.chars().count() > WIDTH {
                fill(&line[2..], "  ", "    ", out);
            } else {
                out.push_str(piece);
            }
        } else {
            para.push(line);
        }
    }
    let open = !prose.is_empty() && !prose.ends_with('\n');
    flush(&mut para, out);
    if open && out.ends_with('\n') {
        // The prose stops mid-line, where a verbatim block goes on.
        out.pop();
    }
    false
}

/// Writes a paragraph: as it is when every line fits, else refilled.
fn flush(para: &mut Vec<&str>, out: &mut String) {
    if para.is_empty() {
        return;
    }
    if para.iter().all(|l| l.chars().count() <= WIDTH) {
        for l in para.iter() {
            out.push_str(l);
            out.push('\n');
        }
    } else {
        fill(&para.join(" "), "", "", out);
    }
    para.clear();
}

/// Fills `text`'s words into lines of at most [`WIDTH`] columns, the first
/// starting with `first`, the others with `next`; a word longer than a
/// line has a line of its own.
fn fill(text: &str, first: &str, next: &str, out: &mut String) {
    let mut line = String::from(first);
    let mut len = first.chars().count();
    let mut empty = true;
    for word in text.split_whitespace() {
        let w = word.chars().count();
        if !empty && len + 1 + w > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = String::from(next);
            len = next.chars().count();
            empty = true;
        }
        if !empty {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += w;
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

/// `text` as a quote: wrapped to fit after `> `, each line so marked (an
/// empty line as `>`); control characters are dropped.
pub fn quote(text: &str) -> String {
    let clean: String = text
        .chars()
        .filter(|c| *c == '\n' || !c.is_control())
        .collect();
    let mut out = String::new();
    for para in clean.split("\n\n").filter(|p| !p.trim().is_empty()) {
        if !out.is_empty() {
            out.push_str(">\n");
        }
        let mut filled = String::new();
        let lines: Vec<&str> = para.lines().map(str::trim_end).collect();
        if lines.iter().all(|l| l.chars().count() <= WIDTH - 2) {
            for l in lines {
                filled.push_str(l);
                filled.push('\n');
            }
        } else {
            fill_at(&lines.join(" "), WIDTH - 2, &mut filled);
        }
        for l in filled.lines() {
            out.push_str(if l.is_empty() { ">" } else { "> " });
            out.push_str(l);
            out.push('\n');
        }
    }
    if out.is_empty() {
        out.push_str(">\n");
    }
    out
}

/// [`fill`] at another width.
fn fill_at(text: &str, width: usize, out: &mut String) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}

/// Sign-offs that end a mail, before the writer's name (compared without
/// case and trailing punctuation).
const SIGN_OFFS: &[&str] = &[
    "cheers",
    "cheers all",
    "regards",
    "best regards",
    "kind regards",
    "warm regards",
    "many regards",
    "best wishes",
    "all the best",
    "best",
    "thanks",
    "thanks all",
    "thank you",
    "many thanks",
    "thx",
    "ta",
    "yours",
    "yours truly",
    "sincerely",
    "love",
    "ciao",
    "br",
    "grüße",
    "viele grüße",
    "cordialement",
    "saluti",
    "groeten",
    "hälsningar",
];

fn sign_off(line: &str) -> bool {
    let l = line
        .trim()
        .trim_end_matches([',', '.', '!', ';', ' '])
        .to_lowercase();
    SIGN_OFFS.contains(&l.as_str())
}

/// A name after a sign-off: a short line.
fn name_like(line: &str) -> bool {
    let t = line.trim();
    t.chars().count() <= 40 && t.split_whitespace().count() <= 4
}

/// `text` without the writer's sign-off: from a `-- ` signature line on,
/// or from a lone sign-off line (`Cheers,`, `Regards`, `Thanks!`...)
/// followed by at most two short lines (a name); or a last line like
/// `Cheers, Alan`. Trailing blank lines go too.
pub fn cut_sign_off(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut end = lines.len();
    if let Some(i) = lines
        .iter()
        .position(|l| l.trim_end() == "--" || *l == "-- ")
    {
        end = i;
    }
    let content = |k: usize| -> Vec<usize> {
        (k..end)
            .filter(|&j| !lines[j].trim().is_empty())
            .collect::<Vec<_>>()
    };
    if let Some(i) = (0..end).find(|&i| {
        let after = content(i + 1);
        i > 0
            && sign_off(lines[i])
            && after.len() <= 2
            && after.iter().all(|&j| name_like(lines[j]))
    }) {
        end = i;
    } else if let Some(&last) = content(0).last() {
        // `Cheers, Alan` on one line.
        if let Some((head, name)) = lines[last].split_once(',') {
            if sign_off(head) && !name.trim().is_empty() && name_like(name) && last > 0 {
                end = last;
            }
        }
    }
    let mut kept: Vec<&str> = lines[..end].to_vec();
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_prose_is_refilled_at_72_and_short_lines_stand() {
        let long = "word ".repeat(40);
        let text = format!("Short line.\nAnother.\n\n{long}\n");
        let w = wrap(&text);
        assert!(w.starts_with("Short line.\nAnother.\n\n"), "{w}");
        assert!(w.lines().all(|l| l.chars().count() <= WIDTH), "{w}");
        assert_eq!(w.split_whitespace().count(), 43);
        assert!(w.ends_with("word\n"), "{w:?}");
    }

    #[test]
    fn indented_tables_quotes_verbatim_and_signature_are_left_alone() {
        let play = format!("    Rushton : {}", "Euston (VC) ".repeat(10));
        let gsd = format!(
            "Game MN1\n+--+\n| x |\nRushton : {}\n",
            "[LV+1] ".repeat(20)
        );
        let sig = format!("-- \nmornbot {}\n", "x".repeat(80));
        let text = format!(
            "{play}\n| {}|\n> {}\n\nThe GSD:\n\n{}{sig}",
            "t".repeat(90),
            "q".repeat(90),
            verbatim(&gsd)
        );
        let w = wrap(&text);
        assert_eq!(
            w,
            text.replace(['\u{2}', '\u{3}'], ""),
            "nothing to wrap here"
        );
    }

    #[test]
    fn a_list_item_is_wrapped_under_its_text() {
        let text = format!("What changed:\n  - {}\n", "token ".repeat(20));
        let w = wrap(&text);
        let lines: Vec<&str> = w.lines().collect();
        assert!(lines[1].starts_with("  - token"), "{w}");
        assert!(lines[2].starts_with("    token"), "{w}");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{w}");
    }

    #[test]
    fn prose_cut_by_a_verbatim_block_keeps_its_place() {
        let text = format!("a {}\n\n{}after\n", "b ".repeat(50), verbatim("GSD\n"));
        let w = wrap(&text);
        assert!(w.contains("\n\nGSD\nafter\n"), "{w}");
        let text = format!("x{}y\n", verbatim("G"));
        assert_eq!(wrap(&text), "xGy\n");
    }

    #[test]
    fn quotes_are_marked_and_wrapped() {
        let q = quote(&format!("{}\n\nsecond\u{1b}", "long ".repeat(30)));
        assert!(q.lines().all(|l| l.starts_with('>')), "{q}");
        assert!(q.lines().all(|l| l.chars().count() <= WIDTH), "{q}");
        assert!(q.contains(">\n> second\n"), "{q}");
        assert!(!q.contains('\u{1b}'));
        assert_eq!(quote(""), ">\n");
    }

    #[test]
    fn sign_offs_are_cut() {
        let cases = [
            ("Euston was closed.\nCheers,\nAlan", "Euston was closed."),
            (
                "Euston was closed.\n\nRegards\nAlan Smith\n",
                "Euston was closed.",
            ),
            ("Euston was closed.\n\nThanks!\n", "Euston was closed."),
            ("Euston was closed.\nCheers, Alan", "Euston was closed."),
            (
                "Euston was closed.\n-- \nAlan\nPhone 123",
                "Euston was closed.",
            ),
            (
                "Euston was closed.\n\nBest,\nA.\n-- \nsig",
                "Euston was closed.",
            ),
            // Words that only look like a sign-off stay.
            (
                "Thanks to the closure, Euston was shut.\nSee Rule 1.6.1",
                "Thanks to the closure, Euston was shut.\nSee Rule 1.6.1",
            ),
            (
                "Cheers,\nthe LV was 2 and the move needed 3 stations so it cannot be",
                "Cheers,\nthe LV was 2 and the move needed 3 stations so it cannot be",
            ),
            ("Cheers", "Cheers"),
        ];
        for (text, want) in cases {
            assert_eq!(cut_sign_off(text), want, "{text:?}");
        }
    }
}
