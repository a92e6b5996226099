//! What mail does to text, undone before parsing; each tolerance is named
//! and tested.
//!
//! - CRLF and CR line ends become LF.
//! - `> ` quoting (any depth, `>>` or `> >`) is removed from every line.
//! - Tabs become spaces (stops of 8).
//! - No-break and other typographic spaces become plain spaces
//!   (quirk-realigned-table).
//! - Trailing spaces are dropped, but remembered: a Play line ending in a
//!   space was soft-broken by format=flowed and continues on the next line.
//! - A signature separator (`-- `) ends the document.
//! - A byte-order mark at the start is dropped (quirk-bom).
//! - A quoted signature (`> -- `) ends only its quote; an Outlook-style
//!   `-----Original Message-----` below a Token Table ends the document; a
//!   text with an unquoted Token Table drops its quoted lines, the previous
//!   mail (quirk-reply-with-gsd, [`own_gsd`]).
//!
//! Every cleaned line keeps its original line number and the columns removed
//! in front of it, so that errors point at the text the player wrote.

/// A line of the document after the tolerances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// 1-based line number in the original text.
    pub no: usize,
    /// Columns removed before `text` (quote markers).
    pub indent: usize,
    /// The cleaned text, trailing white space removed.
    pub text: String,
    /// The original line ended in white space (a format=flowed soft break).
    pub soft: bool,
}

/// Applies the tolerances to a whole document.
pub(crate) fn prepare(text: &str) -> Vec<Line> {
    // A byte-order mark, as Notepad saves UTF-8, is no text (quirk-bom).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let normalised: std::borrow::Cow<'_, str> = if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    };
    let raw_lines: Vec<&str> = normalised.split('\n').collect();
    // After a quoted signature, the rest of that quote is skipped.
    let mut quoted_sig = false;
    let mut border_seen = false;
    // Inside a table pasted from a spreadsheet (quirk-tsv-table).
    let mut tsv = false;
    for (i, raw) in raw_lines.iter().enumerate() {
        // What a reader sees: no invisible characters, accents composed
        // (quirk-invisible, quirk-nfc).
        let raw = crate::text::visible(raw);
        if raw == "-- " || raw == "--" {
            break;
        }
        let (indent, body) = unquote(&raw);
        if body == "-- " || body == "--" {
            // A signature in the quoted mail ends only the quote.
            quoted_sig = indent > 0;
            if quoted_sig {
                continue;
            }
            break;
        }
        if quoted_sig && indent > 0 {
            continue;
        }
        quoted_sig = false;
        // An Outlook-style quote below the GSD is the previous mail.
        if indent == 0
            && border_seen
            && (is_quote_separator(body) || outlook_rule(body, &raw_lines[i + 1..]))
        {
            break;
        }
        // A Markdown code fence holds the GSD; the fence is no text.
        let body = if is_fence(body) { "" } else { body };
        let body = tsv_row(body, &mut tsv);
        let expanded = expand_tabs(&body);
        // A soft break is a plain space (RFC 3676), not a no-break one.
        let soft = expanded.ends_with(' ');
        let expanded = wide_spaces(expanded);
        let expanded = crate::text::ascii_boxes(&expanded);
        let expanded = typeset(&expanded);
        let t = expanded.trim_start();
        border_seen |= indent == 0 && (t.starts_with("+-") || t.starts_with('|'));
        out.push(Line {
            no: i + 1,
            indent,
            text: expanded.trim_end().to_string(),
            soft,
        });
    }
    undouble(out)
}

/// quirk-double-spaced: a client that writes each line as a paragraph
/// (Yahoo's `<div>`s, some webmail's plain-text view) puts a blank line
/// after every line. When nearly every line of a text stands alone so, a
/// lone blank line is no text, and a run of them is one blank line.
fn undouble(lines: Vec<Line>) -> Vec<Line> {
    let blank = |l: &Line| l.text.trim().is_empty();
    let text_lines = lines.iter().filter(|l| !blank(l)).count();
    let alone = lines
        .windows(2)
        .filter(|w| !blank(&w[0]) && blank(&w[1]))
        .count();
    if text_lines < 8 || alone * 10 < text_lines * 9 {
        return lines;
    }
    let mut out = Vec::with_capacity(lines.len() / 2 + 1);
    let mut run = 0;
    for l in lines {
        if blank(&l) {
            run += 1;
            if run == 2 {
                out.push(l);
            }
            continue;
        }
        run = 0;
        out.push(l);
    }
    out
}

/// One line as the parser reads it, alone: what a reader sees, tabs
/// expanded, typographic spaces plain, box drawing ASCII, typeset marks
/// plain (the per-line tolerances of [`prepare`]).
pub(crate) fn clean(line: &str) -> String {
    let seen = crate::text::visible(line);
    let expanded = wide_spaces(expand_tabs(&seen));
    let boxed = crate::text::ascii_boxes(&expanded);
    typeset(&boxed).trim_end().to_string()
}

/// Outlook 365's reply separator: a rule of underscores, then the quoted
/// mail's `From:` line (quirk-reply-with-gsd).
fn outlook_rule(line: &str, after: &[&str]) -> bool {
    let t = line.trim();
    t.len() >= 10
        && t.chars().all(|c| c == '_')
        && after
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.is_empty())
            .is_some_and(|l| {
                let l = l.trim_start_matches('*');
                ["From:", "De:", "Von:", "Van:", "Da:"]
                    .iter()
                    .any(|h| l.len() >= h.len() && l[..h.len()].eq_ignore_ascii_case(h))
            })
}

/// A Markdown code fence: three or more backticks or tildes, and perhaps
/// a language word.
fn is_fence(line: &str) -> bool {
    let t = line.trim();
    (t.starts_with("```") || t.starts_with("~~~"))
        && t.trim_start_matches(['`', '~'])
            .chars()
            .all(|c| c.is_alphanumeric())
}

/// quirk-tsv-table: a Token Table pasted from a spreadsheet, its cells
/// separated by tabs, becomes a table drawn with `|`: from a heading line
/// of tab-separated headings while the lines have as many cells.
fn tsv_row<'t>(line: &'t str, tsv: &mut bool) -> std::borrow::Cow<'t, str> {
    if line.contains('|') || !line.contains('\t') {
        *tsv = false;
        return line.into();
    }
    let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
    let table = fields.len() >= 4
        && (*tsv || crate::gsd::parse::is_table_heading(&format!("| {} |", fields.join(" | "))));
    *tsv = table;
    if !table {
        return line.into();
    }
    format!("| {} |", fields.join(" | ")).into()
}

/// A line a client writes above the mail it quotes without `>`:
/// `-----Original Message-----` (Outlook), `-------- Original Message
/// --------` and `-------- Forwarded Message --------` (Thunderbird).
fn is_quote_separator(line: &str) -> bool {
    let t = line.trim().trim_matches('-').trim();
    line.trim().starts_with("-----")
        && (t.eq_ignore_ascii_case("Original Message")
            || t.eq_ignore_ascii_case("Forwarded Message"))
}

/// Drops the quoted lines when the text has a Token Table of its own,
/// unquoted: a reply with the new GSD below (or above) the quoted old one
/// is read for the new one (quirk-reply-with-gsd). A GSD only quoted is
/// read as it stands.
pub(crate) fn own_gsd(lines: Vec<Line>) -> Vec<Line> {
    let own = lines.iter().enumerate().any(|(i, l)| {
        l.indent == 0
            && l.text.trim_start().starts_with("+-")
            && lines[i + 1..]
                .iter()
                .find(|n| !n.text.trim().is_empty())
                .is_some_and(|n| n.indent == 0 && n.text.to_lowercase().contains("player"))
    });
    let quoted = lines.iter().any(|l| l.indent > 0);
    if own && quoted {
        lines.into_iter().filter(|l| l.indent == 0).collect()
    } else {
        lines
    }
}

/// Strips `>` quote markers (with one optional space after each).
fn unquote(line: &str) -> (usize, &str) {
    let mut rest = line;
    let mut removed = 0;
    loop {
        let trimmed = rest.trim_start_matches(' ');
        let lead = rest.len() - trimmed.len();
        if lead <= 3 && trimmed.starts_with('>') {
            let after = &trimmed[1..];
            let after = after.strip_prefix(' ').unwrap_or(after);
            removed += rest.len() - after.len();
            rest = after;
        } else {
            return (removed, rest);
        }
    }
}

/// Spaces a rich-text client writes to hold a column in a proportional
/// font (quirk-realigned-table): no-break, figure, thin and narrow no-break
/// spaces become plain ones, a character each, so columns stay counted.
fn wide_spaces(s: std::borrow::Cow<'_, str>) -> std::borrow::Cow<'_, str> {
    const SPACES: [char; 6] = [
        '\u{a0}', '\u{2007}', '\u{2009}', '\u{200a}', '\u{202f}', '\u{3000}',
    ];
    if !s.contains(SPACES) {
        return s;
    }
    s.replace(SPACES, " ").into()
}

/// Marks a word processor typesets (quirk-typeset-name): curly apostrophes
/// are `'`, Unicode hyphens `-`, so `D’Arcy` and `D'Arcy` are one name
/// wherever they stand.
fn typeset(s: &str) -> std::borrow::Cow<'_, str> {
    const APOSTROPHES: [char; 4] = ['\u{2018}', '\u{2019}', '\u{02bc}', '\u{2032}'];
    const HYPHENS: [char; 2] = ['\u{2010}', '\u{2011}'];
    if !s.contains(APOSTROPHES) && !s.contains(HYPHENS) {
        return s.into();
    }
    s.replace(APOSTROPHES, "'").replace(HYPHENS, "-").into()
}

fn expand_tabs(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\t') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut col = 0;
    for c in s.chars() {
        if c == '\t' {
            let n = 8 - col % 8;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_double_spaced_text_is_single_spaced() {
        let text: String = (1..=10)
            .map(|i| format!("line {i}\n\n"))
            .collect::<String>()
            + "\n\nafter a paragraph\n\nend\n";
        let lines = prepare(&text);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(&texts[..3], ["line 1", "line 2", "line 3"]);
        assert_eq!(&texts[10..], ["", "after a paragraph", "end"]);
        assert_eq!(lines[1].no, 3);
        // A text with lines together is left alone.
        let normal = prepare("a\nb\n\nc\n\nd\n");
        assert_eq!(normal.len(), 7);
    }

    #[test]
    fn a_byte_order_mark_is_no_text() {
        let lines = prepare("\u{feff}+---+\nx");
        assert_eq!(lines[0].text, "+---+");
        assert_eq!(lines[1].no, 2);
    }

    #[test]
    fn crlf_quotes_tabs_and_trailing_spaces() {
        let lines = prepare("> | a\t| b |  \r\n>> > x\r\nplain");
        assert_eq!(lines[0].text, "| a     | b |");
        assert_eq!(lines[0].indent, 2);
        assert!(lines[0].soft);
        assert_eq!(lines[1].text, "x");
        assert_eq!(lines[1].indent, 5);
        assert_eq!(lines[2].text, "plain");
        assert_eq!(lines[2].no, 3);
    }

    #[test]
    fn typographic_spaces_are_plain_spaces() {
        let lines = prepare("|\u{a0}Euston\u{a0}\u{a0}|\u{202f}ReSi\u{2007}|");
        assert_eq!(lines[0].text, "| Euston  | ReSi |");
    }

    #[test]
    fn signature_ends_the_document() {
        let lines = prepare("a\nb\n-- \nTim\n");
        assert_eq!(lines.len(), 2);
        let quoted = prepare("> a\n> -- \n> sig");
        assert_eq!(quoted.len(), 1);
    }
}
