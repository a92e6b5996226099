//! A GSD or a Play line in the body, with the lines that continue it.

use super::*;

/// The unquoted GSD starting at or after line index `from`: found where
/// the GSD parser finds it ([`crate::kinds::vol1::locate_gsd`]), the quoted lines
/// blanked so that a quoted table is not the sender's.
pub(super) fn find_gsd(lines: &[BodyLine<'_>], from: usize) -> Option<Excerpt> {
    let own: Vec<&str> = lines[from.min(lines.len())..]
        .iter()
        .map(|l| if l.quoted { "" } else { l.text })
        .collect();
    let found = crate::kinds::vol1::locate_gsd(&own)?;
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
    Some(play_excerpt(lines, i, lines[i].text, 1, players, ctx))
}

/// The most lines a Play continues over: a Play of the longest line the
/// daemon reads (`[limits] line_chars`, 4,000) wrapped at 72 columns; and
/// the most lines below one that a client's wrap is looked for in.
const PLAY_LINES: usize = 64;
const WRAP_LOOKAHEAD: usize = 8;

/// A Play starting with `first_text` on line index `i` (at `column`), with
/// the lines that continue it: straight below it (no blank line), a line
/// starting with `[` or `{`, every line while its brackets are open, a
/// Bifurcated player's `A:` or `B:` line, and a line that starts no Play
/// when the Play read with it (and perhaps the lines after it) parses: a
/// client's wrap at 72 or 78 columns (quirk-wrapped-play, as the GSD
/// reader reads it: `Wimbledon` / `Park (DS)` is Wimbledon Park).
pub(super) fn play_excerpt(
    lines: &[BodyLine<'_>],
    i: usize,
    first_text: &str,
    column: usize,
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Excerpt {
    let mut text = first_text.trim_end().to_string();
    let end = (i + 1 + PLAY_LINES).min(lines.len());
    let mut k = i + 1;
    let joined = |text: &str, upto: usize, k: usize| {
        let mut t = text.to_string();
        for l in &lines[k..=upto] {
            t.push('\n');
            t.push_str(l.text.trim_end());
        }
        t
    };
    while k < end {
        let next = &lines[k];
        let t = next.text.trim();
        if !next.is_content() {
            break;
        }
        let take = if t.starts_with('[') || t.starts_with('{') || unbalanced(&text) || piece(t) {
            1
        } else if is_play(t, players, ctx) {
            0
        } else {
            (k..end.min(k + WRAP_LOOKAHEAD))
                .take_while(|&j| {
                    lines[j].is_content()
                        && (j == k || !is_play(lines[j].text.trim(), players, ctx))
                })
                .find(|&j| parse_play(&joined(&text, j, k), ctx.map).is_ok())
                .map_or(0, |j| j + 1 - k)
        };
        if take == 0 {
            break;
        }
        text = joined(&text, k + take - 1, k);
        k += take;
    }
    // Past the bound, a line that would go on is read too: the Play then
    // parses whole, or is refused, never read cut short.
    if k == end
        && lines
            .get(k)
            .is_some_and(|l| l.is_content() && !is_play(l.text.trim(), players, ctx))
    {
        text = joined(&text, k, k);
    }
    Excerpt {
        text,
        line: lines[i].no,
        column,
    }
}

/// `A:` or `B:` at the front of a line: a Bifurcated Piece's Move.
fn piece(t: &str) -> bool {
    let mut c = t.chars();
    matches!(c.next(), Some('A' | 'B' | 'a' | 'b')) && c.as_str().trim_start().starts_with(':')
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
        let e = play_excerpt(
            lines,
            idx,
            r,
            column_of(first.text, r.trim_end()),
            players,
            ctx,
        );
        return Some(Request::turn(e.text, false, e.line, e.column));
    }
    if let Some(gsd) = find_gsd(lines, idx + 1) {
        return Some(Request::turn(gsd.text, true, gsd.line, gsd.column));
    }
    find_play(lines, idx + 1, players, ctx).map(|e| Request::turn(e.text, false, e.line, e.column))
}
