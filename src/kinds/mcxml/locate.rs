//! Finding the one `<Turn>` element of a mail body (RULINGS MX16): quoted
//! lines (`> ...`) are not read, text around the element is the mail's, and
//! a second unquoted `<Turn>` is an error.

use super::read::{ReadError, ReadErrorKind};

fn err(line: usize, kind: ReadErrorKind) -> ReadError {
    ReadError { line, kind }
}

/// The body with every quoted line (`> ...`) blanked, byte for byte, so
/// offsets and lines stay those of the body.
pub(super) fn mask_quotes(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        if line.trim_start().starts_with('>') {
            let keep_newline = line.ends_with('\n');
            let n = line.len() - usize::from(keep_newline);
            out.extend(std::iter::repeat_n(' ', n));
            if keep_newline {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

pub(super) fn line_of(text: &str, pos: usize) -> usize {
    1 + text[..pos].bytes().filter(|&b| b == b'\n').count()
}

/// Byte offsets of every `<Turn` start tag (any case).
fn turn_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = text[i..].find('<') {
        let at = i + k;
        let name = bytes.get(at + 1..at + 5);
        let after = bytes.get(at + 5).copied();
        if name.is_some_and(|n| n.eq_ignore_ascii_case(b"turn"))
            && after.is_none_or(|c| c.is_ascii_whitespace() || c == b'>' || c == b'/')
        {
            out.push(at);
        }
        i = at + 1;
    }
    out
}

/// The span of the one `<Turn>` element: from its `<` to the end of its
/// `</Turn>` (or of its start tag, if it closes itself).
pub(super) fn find_turn(text: &str) -> Result<(usize, usize), ReadError> {
    let starts = turn_starts(text);
    let Some(&start) = starts.first() else {
        return Err(err(0, ReadErrorKind::NoTurn));
    };
    let tag_end =
        tag_end(text, start).ok_or_else(|| err(line_of(text, start), ReadErrorKind::Unclosed))?;
    let end = if text[..tag_end].ends_with("/>") {
        tag_end
    } else {
        close_tag(text, tag_end)
            .ok_or_else(|| err(line_of(text, start), ReadErrorKind::Unclosed))?
    };
    if let Some(&second) = starts.iter().find(|&&s| s >= end) {
        return Err(err(
            line_of(text, start),
            ReadErrorKind::SecondTurn(line_of(text, second)),
        ));
    }
    Ok((start, end))
}

/// The offset after the `>` ending the tag that starts at `start`, quotes
/// (straight or curly) skipped.
fn tag_end(text: &str, start: usize) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (k, c) in text[start..].char_indices() {
        match quote {
            Some(q) if c == q || (q == '“' && c == '”') || (q == '‘' && c == '’') => {
                quote = None
            }
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '“') => quote = Some(c),
            None if c == '>' => return Some(start + k + 1),
            None if c == '<' && k > 0 => return None,
            None => {}
        }
    }
    None
}

/// The offset after the first `</Turn>` (any case, spaces before `>`) from
/// `from`.
fn close_tag(text: &str, from: usize) -> Option<usize> {
    let lower = text[from..].to_ascii_lowercase();
    let mut i = 0;
    while let Some(k) = lower[i..].find("</turn") {
        let after = i + k + "</turn".len();
        let rest = &lower[after..];
        let spaces = rest.len() - rest.trim_start().len();
        if rest.trim_start().starts_with('>') {
            return Some(from + after + spaces + 1);
        }
        i = after;
    }
    None
}
