//! What a mail's `<style>` sheets hide (issue 40): the rules whose
//! declarations hide an element, as an inline style would
//! ([`super::style::declarations_hide`]), and the elements their selectors
//! reach, by name, `id` and `class`.
//!
//! A browser is not copied: what a selector asks that mornbot does not
//! check (an ancestor, an attribute, a pseudo-class such as `:hover`) is
//! taken as met, and rules inside `@media` count unless the media are print
//! or speech only. A sheet may so hide more than a reader would see
//! hidden, never less: text some reader is not shown is not read as a play.

use std::collections::{HashMap, HashSet};

/// Selectors kept under one name before a name alone hides (a sheet of
/// many selectors on one class costs no more than one).
const PER_KEY: usize = 8;
/// Classes of one selector checked; the others are taken as met.
const CLASSES: usize = 4;
/// The most a nested rule's `&` is expanded into: bytes of selectors, and
/// how deep (past either, a nested selector stands for itself, and its
/// subject is what counts).
const NESTED_BYTES: usize = 4096;
const NESTED_DEPTH: usize = 16;

/// The elements a sheet hides.
#[derive(Default)]
pub(super) struct Sheet {
    by_id: HashMap<String, Vec<Compound>>,
    by_class: HashMap<String, Vec<Compound>>,
    by_tag: HashMap<String, Vec<Compound>>,
    /// A hiding selector that names nothing (`*`, `:not(.x)`): every
    /// element is hidden.
    every: bool,
}

/// An element as a sheet sees it: its name, `id` and classes, lower-cased
/// (mail is read in quirks mode, where classes and ids ignore case).
pub(super) struct Element<'a> {
    pub(super) name: &'a str,
    pub(super) id: Option<String>,
    pub(super) classes: HashSet<String>,
}

/// What a selector's subject (its last compound) asks of an element.
#[derive(Clone, Default)]
struct Compound {
    tag: Option<String>,
    id: Option<String>,
    classes: Vec<String>,
}

impl Compound {
    fn matches(&self, e: &Element<'_>) -> bool {
        self.tag.as_deref().is_none_or(|t| t == e.name)
            && self.id.as_ref().is_none_or(|i| e.id.as_ref() == Some(i))
            && self.classes.iter().all(|c| e.classes.contains(c))
    }
}

/// A block of the sheet being read, and whether its rules count.
struct Frame {
    kind: Kind,
    off: bool,
}

enum Kind {
    /// `@media`, `@supports` and the like: rules inside count.
    Group,
    /// A style rule: its selectors, and its declarations so far.
    Rule(String, String),
    /// `@font-face`, `@keyframes`, `@page`...: nothing inside counts.
    Skip,
}

impl Sheet {
    /// The sheets of `html`: every `<style>` element's text, wherever it
    /// stands (in a comment too: Outlook's conditional comments hold
    /// sheets its readers apply), unless its `media` are print only.
    pub(super) fn of_html(html: &str) -> Sheet {
        let mut sheet = Sheet::default();
        let mut rest = html;
        while let Some(i) = super::find_ci(rest, "<style") {
            let after = &rest[i + 6..];
            rest = after;
            if !after.starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/') {
                continue;
            }
            let Some(end) = super::tag_end(after, 0) else {
                break;
            };
            let body = &after[end + 1..];
            let close = super::find_ci(body, "</style").unwrap_or(body.len());
            let media = super::attributes(&after[..end])
                .into_iter()
                .find(|(k, _)| k == "media");
            if !media.is_some_and(|(_, m)| not_for_screens(&m.to_ascii_lowercase())) {
                sheet.add(&body[..close]);
            }
            rest = &body[close..];
        }
        sheet
    }

    /// Whether the sheet hides nothing.
    pub(super) fn is_empty(&self) -> bool {
        !self.every && self.by_id.is_empty() && self.by_class.is_empty() && self.by_tag.is_empty()
    }

    /// Whether the sheet hides `e`.
    pub(super) fn hides(&self, e: &Element<'_>) -> bool {
        let any = |v: Option<&Vec<Compound>>| v.is_some_and(|v| v.iter().any(|c| c.matches(e)));
        self.every
            || e.id.as_ref().is_some_and(|i| any(self.by_id.get(i)))
            || e.classes.iter().any(|c| any(self.by_class.get(c)))
            || any(self.by_tag.get(e.name))
    }

    /// Reads one sheet's rules.
    fn add(&mut self, css: &str) {
        let css = without_comments(css);
        let mut frames: Vec<Frame> = Vec::new();
        let (mut start, mut quote) = (0, None);
        let mut chars = css.char_indices();
        while let Some((i, c)) = chars.next() {
            match (quote, c) {
                (_, '\\') => {
                    chars.next();
                }
                // A string ends at its quote, or unclosed at a line's end
                // (a browser's bad string), not at the sheet's end.
                (Some(q), c) if c == q || c == '\n' => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '{') => {
                    let nest = frames.len() < NESTED_DEPTH;
                    let f = open(css[start..i].trim(), frames.last(), nest);
                    frames.push(f);
                    start = i + 1;
                }
                (None, ';' | '}') => {
                    if let Some(Frame {
                        kind: Kind::Rule(_, decls),
                        ..
                    }) = frames.last_mut()
                    {
                        decls.push_str(&css[start..i]);
                        decls.push(';');
                    }
                    if c == '}' {
                        if let Some(f) = frames.pop() {
                            self.close(f);
                        }
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        // A sheet cut short is closed at its end, as a browser closes it.
        if let Some(Frame {
            kind: Kind::Rule(_, decls),
            ..
        }) = frames.last_mut()
        {
            decls.push_str(&css[start..]);
        }
        while let Some(f) = frames.pop() {
            self.close(f);
        }
    }

    /// A block ends: a rule that hides adds its selectors.
    fn close(&mut self, f: Frame) {
        let Kind::Rule(selectors, decls) = f.kind else {
            return;
        };
        if f.off || !super::style::declarations_hide(&decls) {
            return;
        }
        for s in split_top(&selectors, ',') {
            if let Some(c) = subject(s) {
                self.insert(c);
            }
        }
    }

    fn insert(&mut self, c: Compound) {
        let (map, key) = if let Some(id) = &c.id {
            (&mut self.by_id, id.clone())
        } else if let Some(class) = c.classes.first() {
            (&mut self.by_class, class.clone())
        } else if let Some(tag) = &c.tag {
            (&mut self.by_tag, tag.clone())
        } else {
            self.every = true;
            return;
        };
        let v = map.entry(key).or_default();
        if v.len() < PER_KEY {
            v.push(c);
        } else if v.len() == PER_KEY {
            // Past the bound, the name alone hides (one more entry, that
            // asks nothing else).
            v.push(Compound::default());
        }
    }
}

/// The block a prelude opens, inside `parent`; a nested rule's `&`
/// expanded when `expand`.
fn open(prelude: &str, parent: Option<&Frame>, expand: bool) -> Frame {
    let off = parent.is_some_and(|p| p.off);
    let Some(at) = prelude.strip_prefix('@') else {
        let selectors = match parent.map(|p| &p.kind) {
            Some(Kind::Rule(outer, _)) if expand => nest(outer, prelude),
            _ => prelude.to_string(),
        };
        return Frame {
            kind: Kind::Rule(selectors, String::new()),
            off,
        };
    };
    let name_len = at
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(at.len());
    let (name, query) = at.split_at(name_len);
    match name.to_ascii_lowercase().as_str() {
        "media" => Frame {
            kind: Kind::Group,
            off: off || not_for_screens(&query.to_ascii_lowercase()),
        },
        "supports" | "container" | "layer" | "document" | "-moz-document" | "scope"
        | "starting-style" => Frame {
            kind: Kind::Group,
            off,
        },
        _ => Frame {
            kind: Kind::Skip,
            off: true,
        },
    }
}

/// A nested rule's selectors (CSS nesting): each `&` stands for each of
/// the outer rule's selectors.
fn nest(outer: &str, inner: &str) -> String {
    let outers = split_top(outer, ',');
    let mut all = String::new();
    for i in split_top(inner, ',') {
        let amps = i.matches('&').count();
        let more: usize = outers.iter().map(|o| i.len() + amps * o.len() + 1).sum();
        if amps > 0 && all.len() + more <= NESTED_BYTES {
            for o in &outers {
                all.push_str(&i.replace('&', o));
                all.push(',');
            }
        } else {
            all.push_str(i);
            all.push(',');
        }
    }
    all
}

/// Whether a media query list (`print`, `only print, speech`) leaves out
/// every screen.
fn not_for_screens(query: &str) -> bool {
    let queries = split_top(query, ',');
    !queries.is_empty()
        && queries.iter().all(|q| {
            let q = q.trim();
            let q = q.strip_prefix("only ").unwrap_or(q).trim_start();
            let ty = q.split(|c: char| c.is_whitespace() || c == '(').next();
            matches!(
                ty,
                Some("print" | "speech" | "aural" | "braille" | "embossed")
            )
        })
}

/// `css` without its comments: `/* ... */`, and the `<!--` and `-->` old
/// sheets wrap themselves in.
fn without_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        out.push(' ');
        rest = rest[i + 2..]
            .find("*/")
            .map_or("", |e| &rest[i + 2 + e + 2..]);
    }
    out.push_str(rest);
    out.replace("<!--", " ").replace("-->", " ")
}

/// `s` split at `sep` outside brackets, parentheses and quotes; the empty
/// pieces left out.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut out = Vec::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth -= 1,
            (None, c) if c == sep && depth <= 0 => {
                out.push(s[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// The compound a selector applies to (after its last combinator), or
/// `None` when it applies to a pseudo-element or cannot be read (a browser
/// drops a rule it cannot read).
fn subject(selector: &str) -> Option<Compound> {
    let spaced = selector.replace(['>', '+', '~'], " ");
    let last = split_top(&spaced, ' ').pop()?.to_string();
    let mut c = Compound::default();
    let mut s = last.as_str();
    if let Some(r) = s.strip_prefix('*') {
        s = r;
    } else if s.starts_with(|ch: char| ch.is_alphabetic()) {
        let (tag, r) = ident(s);
        c.tag = Some(tag.to_lowercase());
        s = r;
    }
    while let Some(ch) = s.chars().next() {
        s = &s[ch.len_utf8()..];
        match ch {
            '.' | '#' => {
                let (name, r) = ident(s);
                if name.is_empty() {
                    return None;
                }
                if ch == '#' {
                    c.id = Some(name.to_lowercase());
                } else if c.classes.len() < CLASSES {
                    c.classes.push(name.to_lowercase());
                }
                s = r;
            }
            '[' => s = s.find(']').map_or("", |e| &s[e + 1..]),
            ':' => {
                if s.starts_with(':') {
                    return None; // `::before`: a pseudo-element
                }
                let (name, r) = ident(s);
                if matches!(
                    name.to_ascii_lowercase().as_str(),
                    "before" | "after" | "first-line" | "first-letter" | "marker" | "selection"
                ) {
                    return None;
                }
                s = r;
                if s.starts_with('(') {
                    s = after_parens(s);
                }
            }
            '&' => {}
            _ => return None,
        }
    }
    Some(c)
}

/// What follows the parenthesised group `s` starts with (all of it when
/// unclosed).
fn after_parens(s: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &s[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// A CSS identifier at the start of `s` (escapes undone), and the rest.
fn ident(s: &str) -> (String, &str) {
    let mut name = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c == '\\' {
            chars.next();
            let hex: String = s[i + 1..]
                .chars()
                .take_while(char::is_ascii_hexdigit)
                .take(6)
                .collect();
            if hex.is_empty() {
                if let Some((_, e)) = chars.next() {
                    name.push(e);
                }
            } else {
                name.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                for _ in 0..hex.len() {
                    chars.next();
                }
                chars.next_if(|(_, c)| c.is_ascii_whitespace());
            }
        } else if c.is_alphanumeric() || c == '-' || c == '_' || !c.is_ascii() {
            name.push(c);
            chars.next();
        } else {
            return (name, &s[i..]);
        }
    }
    (name, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el<'a>(name: &'a str, id: Option<&str>, classes: &[&str]) -> Element<'a> {
        Element {
            name,
            id: id.map(str::to_string),
            classes: classes.iter().map(|c| c.to_string()).collect(),
        }
    }

    fn sheet(css: &str) -> Sheet {
        let mut s = Sheet::default();
        s.add(css);
        s
    }

    #[test]
    fn selectors_reach_classes_ids_and_names() {
        let s = sheet(
            "<!-- p.MsoNormal{margin:0} /* .c{display:none} */ \
             .x, #Y , div.a.b > span.z:hover{display : none !important}\
             u{visibility:hidden} .n{color:red} -->",
        );
        assert!(s.hides(&el("p", None, &["q", "x"])));
        assert!(s.hides(&el("p", Some("y"), &[])));
        assert!(s.hides(&el("span", None, &["z"])));
        assert!(!s.hides(&el("div", None, &["z"])), "span.z: not a div");
        assert!(s.hides(&el("u", None, &[])));
        for shown in [
            el("p", None, &["msonormal"]),
            el("p", None, &["c"]),
            el("p", None, &["n"]),
            el("p", Some("x"), &["y"]),
        ] {
            assert!(!s.hides(&shown));
        }
    }

    #[test]
    fn at_rules_count_unless_for_print_only() {
        let s = sheet(
            "@media screen and (max-width:600px){.m{display:none}}\
             @media print{.p{display:none}} @media only print, speech{.q{display:none}}\
             @font-face{font-family:x} @supports (display:grid){@media all{#s{opacity:0}}}\
             @keyframes k{from{display:none}} .nest{ & .in {display:none} }",
        );
        assert!(s.hides(&el("div", None, &["m"])));
        assert!(s.hides(&el("div", Some("s"), &[])));
        assert!(s.hides(&el("div", None, &["in"])));
        assert!(!s.hides(&el("div", None, &["p"])));
        assert!(!s.hides(&el("div", None, &["q"])));
        assert!(!s.hides(&el("div", None, &["nest"])));
        assert!(
            !sheet("a::before{display:none} .k{content:'}'} .k2{color:red}").hides(&el(
                "a",
                None,
                &["k2"]
            ))
        );
        assert!(sheet("*{display:none}").hides(&el("p", None, &[])));
    }

    #[test]
    fn a_sheet_of_many_selectors_on_one_name_stays_cheap() {
        let css: String = (0..10_000)
            .map(|i| format!(".a.b{i}{{display:none}}"))
            .collect();
        let s = sheet(&css);
        assert_eq!(s.by_class["a"].len(), PER_KEY + 1);
        assert!(s.hides(&el("p", None, &["a"])), "past the bound, `a` hides");
    }
}
