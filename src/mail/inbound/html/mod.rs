//! HTML to text that keeps line structure (see the module docs of
//! [`crate::mail::inbound`]): a small tree of the elements, built
//! forgivingly, then written out as lines in `render`.

use entities::decode_entities;
use render::{render_nodes, Out};
use sheet::{Element, Sheet};
use style::declarations_hide;

mod entities;
mod render;
mod sheet;
mod style;

/// An HTML node of the small tree the converter builds.
#[derive(Debug)]
enum Node {
    Text(String),
    Elem { name: String, children: Vec<Node> },
}

const VOID: [&str; 15] = [
    "br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "source", "embed",
    "param", "track", "keygen",
];
const SKIPPED: [&str; 6] = ["head", "script", "style", "title", "template", "noscript"];
const BLOCK: [&str; 33] = [
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "address",
    "section", "article", "header", "footer", "nav", "aside", "main", "center", "form", "fieldset",
    "figure", "hr", "caption", "tr", "td", "th", "tbody", "body",
];
const MAX_DEPTH: usize = 128;

/// An element open while the tree is built: its name, its children so
/// far, and whether its reader does not see it ([`hides`]).
type Open = (String, Vec<Node>, bool);

/// Converts HTML to text that keeps line structure (see the module docs).
pub fn html_to_text(html: &str) -> String {
    let tree = build_tree(html);
    let mut out = Out::default();
    render_nodes(&tree, &mut out);
    let text = out.buf.replace('\u{a0}', " ");
    let lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |i| i + 1);
    lines[first..last.max(first)].join("\n")
}

/// Builds the tree of `html`, forgivingly: unclosed elements are closed,
/// end tags implied as browsers do, `<script>` and the like skipped.
fn build_tree(html: &str) -> Vec<Node> {
    // What the mail's sheets hide, wherever they stand (issue 40).
    let sheet = Sheet::of_html(html);
    // Stack of open elements: (name, children). Index 0 is the root.
    let mut stack: Vec<Open> = vec![(String::new(), Vec::new(), false)];
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            push_text(&mut stack, rest);
            break;
        };
        if lt > 0 {
            push_text(&mut stack, &rest[..lt]);
        }
        let tag = &rest[lt..];
        if let Some(after) = tag.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        if tag.starts_with("<!") || tag.starts_with("<?") {
            rest = tag.find('>').map_or("", |e| &tag[e + 1..]);
            continue;
        }
        let (closing, body) = match tag[1..].strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, &tag[1..]),
        };
        if !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
            push_text(&mut stack, "<");
            rest = &tag[1..];
            continue;
        }
        let name_len = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == ':' || c == '-'))
            .unwrap_or(body.len());
        let name = body[..name_len].to_ascii_lowercase();
        let Some(end) = tag_end(body, name_len) else {
            break; // an unterminated tag ends the document
        };
        let self_closing = body[..end].ends_with('/');
        let hidden = !closing && hides(&name, &body[name_len..end], &sheet);
        rest = &body[end + 1..];
        if closing {
            if let Some(i) = open_index(&stack, &[name.as_str()], &[]) {
                close_to(&mut stack, i);
            }
            continue;
        }
        if SKIPPED.contains(&name.as_str()) && !self_closing {
            // Raw content up to the matching end tag.
            let close = format!("</{name}");
            rest = find_ci(rest, &close).map_or("", |i| {
                rest[i..].find('>').map_or("", |e| &rest[i + e + 1..])
            });
            continue;
        }
        close_implied(&mut stack, &name);
        if (BLOCK.contains(&name.as_str())
            || matches!(name.as_str(), "pre" | "table" | "blockquote"))
            && stack.last().is_some_and(|(n, _, _)| n == "p")
        {
            close_top(&mut stack);
        }
        if VOID.contains(&name.as_str()) || self_closing {
            if let Some(top) = stack.last_mut().filter(|_| !hidden) {
                top.1.push(Node::Elem {
                    name,
                    children: Vec::new(),
                });
            }
        } else if stack.len() < MAX_DEPTH {
            stack.push((name, Vec::new(), hidden));
        }
    }
    close_to(&mut stack, 1);
    stack.pop().map(|(_, c, _)| c).unwrap_or_default()
}

/// The byte offset in `body` of the `>` ending a tag whose name takes
/// `name_len` bytes, skipping quoted attribute values.
fn tag_end(body: &str, name_len: usize) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in body[name_len..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(name_len + i),
            _ => {}
        }
    }
    None
}

/// Closes what a start tag `name` implies is ended: an open cell, row or
/// list item.
fn close_implied(stack: &mut Vec<Open>, name: &str) {
    match name {
        "td" | "th" => {
            if let Some(i) = open_index(stack, &["td", "th"], &["tr", "table"]) {
                close_to(stack, i);
            }
        }
        "tr" => {
            if let Some(i) = open_index(stack, &["tr"], &["table"]) {
                close_to(stack, i);
            }
        }
        "li" => {
            if let Some(i) = open_index(stack, &["li"], &["ul", "ol"]) {
                close_to(stack, i);
            }
        }
        _ => {}
    }
}

/// Closes the innermost open element, adding it to its parent's children.
fn close_top(stack: &mut Vec<Open>) {
    if stack.len() > 1 {
        if let Some((name, children, hidden)) = stack.pop() {
            // What its reader does not see is not read (issue 40).
            if let Some(top) = stack.last_mut().filter(|_| !hidden) {
                top.1.push(Node::Elem { name, children });
            }
        }
    }
}

/// Closes the element at `idx` and every element opened inside it.
fn close_to(stack: &mut Vec<Open>, idx: usize) {
    while stack.len() > idx.max(1) {
        close_top(stack);
    }
}

/// Index of the nearest open element named in `names`, not looking past
/// one named in `stop`.
fn open_index(stack: &[Open], names: &[&str], stop: &[&str]) -> Option<usize> {
    for (i, (n, _, _)) in stack.iter().enumerate().rev().take_while(|(i, _)| *i > 0) {
        if names.contains(&n.as_str()) {
            return Some(i);
        }
        if stop.contains(&n.as_str()) {
            return None;
        }
    }
    None
}

/// Whether a start tag's attributes hide its element from the reader: the
/// `hidden` attribute, a style that hides ([`declarations_hide`]), or a
/// rule of the mail's sheets that reaches its name, `id` or a class.
fn hides(name: &str, attrs: &str, sheet: &Sheet) -> bool {
    // An attribute written twice counts both times: what one reader takes
    // of the two, another may not.
    let attrs = attributes(attrs);
    let values = |key: &'static str| {
        attrs
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| decode_entities(v).to_lowercase())
    };
    if attrs.iter().any(|(k, _)| k == "hidden") || values("style").any(|v| declarations_hide(&v)) {
        return true;
    }
    if sheet.is_empty() {
        return false;
    }
    let mut e = Element {
        name,
        id: None,
        classes: values("class")
            .flat_map(|v| v.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .collect(),
    };
    if sheet.hides(&e) {
        return true;
    }
    values("id").any(|id| {
        e.id = Some(id.trim().to_string());
        sheet.hides(&e)
    })
}

/// A start tag's attributes after its name: each name, lower-cased, with
/// its value as written (quotes removed; empty when it has none).
fn attributes(attrs: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    let mut rest = attrs;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/' || c == '>')
            .unwrap_or(rest.len());
        if name_end == 0 {
            break;
        }
        let name = rest[..name_end].to_ascii_lowercase();
        rest = rest[name_end..].trim_start();
        let mut value = "";
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (v, r) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let body = &after[1..];
                    let end = body.find(q).unwrap_or(body.len());
                    (&body[..end], body.get(end + 1..).unwrap_or(""))
                }
                _ => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            value = v;
            rest = r;
        }
        out.push((name, value));
    }
    out
}

fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let n = needle.len();
    hay.char_indices().map(|(i, _)| i).find(|&i| {
        hay.get(i..i + n)
            .is_some_and(|s| s.eq_ignore_ascii_case(needle))
    })
}

fn push_text(stack: &mut [Open], text: &str) {
    if let Some(top) = stack.last_mut() {
        top.1.push(Node::Text(decode_entities(text)));
    }
}
