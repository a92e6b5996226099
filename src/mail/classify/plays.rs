//! A GSD or a Play line in the body, with the lines that continue it.

use super::*;

/// The unquoted GSD starting at or after line index `from`: found where
/// the GSD parser finds it ([`crate::gsd::locate`]), the quoted lines
/// blanked so that a quoted table is not the sender's.
pub(super) fn find_gsd(lines: &[BodyLine<'_>], from: usize) -> Option<Excerpt> {
    let own: Vec<&str> = lines[from.min(lines.len())..]
        .iter()
        .map(|l| if l.quoted { "" } else { l.text })
        .collect();
    let found = crate::gsd::locate(&own)?;
    let first = from + found.first;
    let start = from + found.table;
    let mut end = (start..lines.len())
        .find(|&k| lines[k].quoted)
        .unwrap_or(lines.len());
    while end > first && lines[end - 1].text.trim().is_empty() {
        end -= 1;
    }
    let text = lines[first..end]
        .iter()
        .map(|l| l.text)
        .collect::<Vec<_>>()
        .join("\n");
    Some(Excerpt {
        text,
        line: lines[first].no,
        column: 1,
    })
}

/// Is `t` (a trimmed line) a Play line for these players?
pub(super) fn is_play(t: &str, players: &[String], ctx: &ClassifyContext<'_>) -> bool {
    let Some(head) = play_head(t) else {
        return false;
    };
    if players.is_empty() {
        // (A Play line is short: long lines are not worth a parse.)
        t.len() <= 500 && parse_play(t, ctx.map).is_ok()
    } else {
        head.eq_ignore_ascii_case("drone") || players.iter().any(|p| p.eq_ignore_ascii_case(head))
    }
}

/// The first unquoted Play line at or after line index `from`, with its
/// continuation lines.
pub(super) fn find_play(
    lines: &[BodyLine<'_>],
    from: usize,
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Option<Excerpt> {
    let i = (from..lines.len())
        .find(|&i| lines[i].is_content() && is_play(lines[i].text.trim(), players, ctx))?;
    Some(play_excerpt(lines, i, lines[i].text, 1))
}

/// A Play starting with `first_text` on line index `i` (at `column`), with
/// the lines that continue it.
pub(super) fn play_excerpt(
    lines: &[BodyLine<'_>],
    i: usize,
    first_text: &str,
    column: usize,
) -> Excerpt {
    let mut text = first_text.trim_end().to_string();
    for next in lines.iter().skip(i + 1).take(8) {
        let t = next.text.trim();
        if !next.is_content() || !(t.starts_with('[') || t.starts_with('{') || unbalanced(&text)) {
            break;
        }
        text.push('\n');
        text.push_str(next.text.trim_end());
    }
    Excerpt {
        text,
        line: lines[i].no,
        column,
    }
}

/// The replacement posted with a take-back.
pub(super) fn replacement(
    first: &BodyLine<'_>,
    rest: &str,
    lines: &[BodyLine<'_>],
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Option<Request> {
    let mut r = rest.trim_start();
    for w in [
        "my most recent turn",
        "my last turn",
        "my turn",
        "that turn",
        "the turn",
        "turn",
    ] {
        if let Some(x) = strip_word_ci(r, w) {
            r = x;
            break;
        }
    }
    let r = trim_separators(r).trim_end();
    let idx = lines.iter().position(|l| l.no == first.no).unwrap_or(0);
    if !r.is_empty() && is_play(r, players, ctx) {
        let e = play_excerpt(lines, idx, r, column_of(first.text, r.trim_end()));
        return Some(Request::turn(e.text, false, e.line, e.column));
    }
    if let Some(gsd) = find_gsd(lines, idx + 1) {
        return Some(Request::turn(gsd.text, true, gsd.line, gsd.column));
    }
    find_play(lines, idx + 1, players, ctx).map(|e| Request::turn(e.text, false, e.line, e.column))
}
