//! The body's lines as the classifier reads them: quotes (with `>` or
//! below an unmarked quoted header block), attributions, separators, a
//! list's footer and the signature set apart; and small text helpers.

// ---- The body's lines ----------------------------------------------------

/// A body line before the signature.
#[derive(Debug)]
pub(super) struct BodyLine<'b> {
    /// 1-based line number in the body.
    pub(super) no: usize,
    pub(super) text: &'b str,
    /// Quoted, an attribution, or after an Outlook-style separator.
    pub(super) quoted: bool,
}

impl BodyLine<'_> {
    /// Neither quoted nor blank: what the sender wrote.
    pub(super) fn is_content(&self) -> bool {
        !self.quoted && !self.text.trim().is_empty()
    }
}

pub(super) fn is_quote_line(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    line.len() - t.len() <= 3 && t.starts_with('>')
}

pub(super) fn is_separator(line: &str) -> bool {
    let t = line.trim();
    let core = t.trim_matches(|c| c == '-' || c == ' ').to_lowercase();
    let dashed = t.starts_with("---");
    (dashed
        && matches!(
            core.as_str(),
            "original message"
                | "forwarded message"
                | "forwarded message follows"
                | "ursprüngliche nachricht"
                | "weitergeleitete nachricht"
                | "message d'origine"
        ))
        || core == "begin forwarded message:"
}

pub(super) const ATTRIBUTION_ENDS: [&str; 10] = [
    "wrote:",
    "writes:",
    "schrieb:",
    "a écrit :",
    "a écrit:",
    "escribió:",
    "scrisse:",
    "skrev:",
    "schreef:",
    "kirjoitti:",
];

pub(super) fn is_attribution(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    ATTRIBUTION_ENDS.iter().any(|e| lower.ends_with(e))
}

/// The header words of a quoted message's block as Outlook (and Apple
/// Mail, and the big webmails) write it above an unmarked quote, in the
/// languages of the big clients: (From, Subject) forms.
pub(super) const QUOTE_FROM: [&str; 7] = ["from", "von", "de", "da", "van", "från", "fra"];
pub(super) const QUOTE_SUBJECT: [&str; 8] = [
    "subject",
    "betreff",
    "objet",
    "oggetto",
    "asunto",
    "assunto",
    "onderwerp",
    "ämne",
];

/// The header word of a line (`From:`, `De :`), lowercased, if it has one.
pub(super) fn header_word(line: &str) -> Option<String> {
    let (word, _) = line.trim_start().trim_start_matches('*').split_once(':')?;
    let word = word.trim().trim_end_matches('*').trim();
    (!word.is_empty() && word.len() <= 12 && !word.contains(char::is_whitespace))
        .then(|| word.to_lowercase())
}

/// Whether line `i` starts an unmarked quoted header block: `From:` (or a
/// localised form) followed within six lines by `Subject:` (or its form),
/// each line of the block a header line (RULINGS L2).
pub(super) fn starts_header_block(raw: &[&str], i: usize) -> bool {
    if !header_word(raw[i]).is_some_and(|w| QUOTE_FROM.contains(&w.as_str())) {
        return false;
    }
    for line in raw.iter().skip(i + 1).take(6) {
        match header_word(line) {
            Some(w) if QUOTE_SUBJECT.contains(&w.as_str()) => return true,
            Some(_) => {}
            None => return false,
        }
    }
    false
}

/// `On Mon, 16 Nov 2026 at 10:00, X wrote:` (any client's attribution with
/// a date or time in it): what follows is quoted even without `>`.
pub(super) fn is_dated_attribution(line: &str) -> bool {
    is_attribution(line) && line.chars().any(|c| c.is_ascii_digit())
}

/// Whether the first non-blank line after line `i` is not `>`-quoted
/// (a quote without marks follows; with marks, the lines say so
/// themselves, and a bottom-posted reply below them stays content).
pub(super) fn unmarked_after(raw: &[&str], i: usize) -> bool {
    raw.iter()
        .skip(i + 1)
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| !is_quote_line(l))
}

/// Words of which one marks a list footer.
pub(super) const FOOTER_WORDS: [&str; 4] = ["mailing list", "unsubscribe", "listinfo", "mailman"];

/// The line index where a list footer starts, if the body ends with one
/// (see the module docs).
pub(super) fn footer_start(raw: &[&str]) -> Option<usize> {
    let rule = |t: &str| {
        let t = t.trim();
        (t.len() >= 10 && t.chars().all(|c| c == '_')) || t.starts_with("-=-=-")
    };
    let i = raw.iter().rposition(|l| rule(l))?;
    let after: Vec<&str> = raw[i + 1..]
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let said = after.iter().any(|l| {
        let lower = l.to_lowercase();
        FOOTER_WORDS.iter().any(|w| lower.contains(w))
    });
    let quote = after.iter().any(|l| l.starts_with("From:"));
    (after.len() <= 8 && said && !quote).then_some(i)
}

pub(super) fn body_lines(body: &str) -> Vec<BodyLine<'_>> {
    let mut lines: Vec<BodyLine<'_>> = Vec::new();
    let mut forwarded = false;
    let raw: Vec<&str> = body
        .split('\n')
        .map(|t| t.strip_suffix('\r').unwrap_or(t))
        .collect();
    let footer = footer_start(&raw);
    for (i, &text) in raw.iter().enumerate() {
        if text == "-- " || text == "--" || footer == Some(i) {
            break;
        }
        let underscores = text.trim().len() >= 10 && text.trim().chars().all(|c| c == '_');
        let next_from = raw
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with("From:"));
        if is_separator(text)
            || (underscores && next_from)
            || starts_header_block(&raw, i)
            || (!is_quote_line(text) && is_dated_attribution(text) && unmarked_after(&raw, i))
        {
            forwarded = true;
        }
        lines.push(BodyLine {
            no: i + 1,
            text,
            quoted: forwarded || is_quote_line(text),
        });
    }
    // Attribution lines introducing a quote.
    for i in 0..lines.len() {
        if lines[i].quoted || !is_attribution(lines[i].text) {
            continue;
        }
        let next_quoted = lines[i + 1..]
            .iter()
            .find(|l| !l.text.trim().is_empty())
            .is_some_and(|l| l.quoted);
        if !next_quoted {
            continue;
        }
        lines[i].quoted = true;
        // A Gmail attribution wrapped over two lines: "On ..., X <" / "x@y> wrote:".
        if i > 0 {
            let prev = lines[i - 1].text.trim_start();
            let before_blank = i < 2 || lines[i - 2].text.trim().is_empty();
            if !lines[i].text.trim_start().starts_with("On ")
                && strip_word_ci(prev, "on").is_some()
                && before_blank
            {
                lines[i - 1].quoted = true;
            }
        }
    }
    lines
}

// ---- Small text helpers ----------------------------------------------------

/// `s` without the ASCII prefix `p` (any case).
pub(super) fn strip_prefix_ci<'t>(s: &'t str, p: &str) -> Option<&'t str> {
    let head = s.get(..p.len())?;
    head.eq_ignore_ascii_case(p).then(|| &s[p.len()..])
}

/// `s` without the word or phrase `w` (any case) when a non-word character
/// (or the end) follows it.
pub(super) fn strip_word_ci<'t>(s: &'t str, w: &str) -> Option<&'t str> {
    let rest = strip_prefix_ci(s, w)?;
    (!rest.starts_with(|c: char| c.is_alphanumeric() || c == '\'' || c == '’')).then_some(rest)
}

/// The remainder after the first of `forms` that `line` starts with.
pub(super) fn lead<'t>(line: &'t str, forms: &[&str]) -> Option<&'t str> {
    forms.iter().find_map(|f| strip_word_ci(line, f))
}

pub(super) const SEPARATORS: &str = "!:-–—,.;";

pub(super) fn trim_separators(s: &str) -> &str {
    s.trim_start_matches(|c: char| c.is_whitespace() || SEPARATORS.contains(c))
}

/// The content lines after `line` (a line number), joined.
pub(super) fn following(lines: &[BodyLine<'_>], line: usize) -> String {
    lines
        .iter()
        .filter(|l| l.no > line && l.is_content())
        .map(|l| l.text.trim())
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn join_text(first: &str, rest: &str) -> String {
    let first = first.trim();
    match (first.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => first.to_string(),
        (false, false) => format!("{first}\n{rest}"),
    }
}

/// The 1-based column of `part`, a suffix of `line`.
pub(super) fn column_of(line: &str, part: &str) -> usize {
    let offset = line.len().saturating_sub(part.len());
    line.get(..offset).map_or(0, |s| s.chars().count()) + 1
}

/// A player's name as the grammar allows it (`check_name`).
pub(super) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 40
        && !name.contains([':', '|', '[', ']', '{', '}', '*', ',', '(', ')'])
        && !name.chars().any(char::is_control)
}

/// The name before the colon of a `Name : ...` line.
pub(super) fn play_head(t: &str) -> Option<&str> {
    let (name, _) = t.split_once(':')?;
    let name = name.trim();
    (valid_name(name) && name.split_whitespace().count() <= 4).then_some(name)
}

pub(super) fn unbalanced(text: &str) -> bool {
    let mut depth: i64 = 0;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

pub(super) fn is_border(s: &str) -> bool {
    let t = s.trim();
    t.starts_with('+') && t.len() > 2 && t.chars().all(|c| matches!(c, '+' | '-' | ' ' | '='))
}

/// A line with its quote markers removed.
pub(super) fn unquoted(line: &str) -> &str {
    let mut rest = line;
    loop {
        let t = rest.trim_start_matches(' ');
        match t.strip_prefix('>') {
            Some(after) if rest.len() - t.len() <= 3 => rest = after,
            _ => return rest,
        }
    }
}
