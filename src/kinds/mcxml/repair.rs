//! What mail does to XML, undone before the XML parser sees it (RULINGS
//! MX16). Each tolerance is named and reported to the player:
//!
//! - `curly_quotes`: an attribute value delimited by curly quotes (“...”,
//!   ‘...’), as word processors and some clients type them;
//! - `html_entity`: a named HTML entity (`&nbsp;`, `&rsquo;`) left by an
//!   HTML-to-text conversion, which XML does not know;
//! - `bare_ampersand`: an `&` that starts no entity (`Elephant & Castle`);
//! - `wrapped_value`: an attribute value a client wrapped onto the next
//!   line (XML reads the newline as a space; the reader collapses it).
//!
//! Names in any case are reported by the reader, which matches them.

use std::fmt;

use serde::Serialize;

/// One thing the reader repaired, shown to the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// The line of the mail body.
    pub line: usize,
    /// What was repaired.
    pub kind: RepairKind,
}

/// The kinds of repair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum RepairKind {
    /// An attribute value's curly quotes read as straight ones.
    CurlyQuotes {
        /// The attribute.
        attribute: String,
    },
    /// An HTML entity read as its character.
    HtmlEntity {
        /// The entity as written.
        entity: String,
        /// The character it stands for.
        character: char,
    },
    /// A bare `&` read as `&amp;`.
    BareAmpersand,
    /// A value wrapped onto the next line, read with its whitespace
    /// collapsed.
    WrappedValue {
        /// The attribute.
        attribute: String,
        /// The value as read.
        value: String,
    },
    /// An element or attribute name in another case.
    NameCase {
        /// As written.
        written: String,
        /// As the ruleset writes it.
        canonical: String,
    },
    /// `<Block>` without `strength`: read as 1 (RULINGS MX4).
    DefaultStrength,
    /// An XML comment (`<!-- -->`): no part of the turn, ignored.
    XmlComment,
    /// The whole turn's markup written as HTML entities (`&lt;Turn ...&gt;`),
    /// as an HTML-to-text conversion can leave it.
    EscapedMarkup,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            RepairKind::CurlyQuotes { attribute } => {
                write!(
                    f,
                    "curly quotes around {attribute}= read as straight quotes"
                )
            }
            RepairKind::HtmlEntity { entity, character } => {
                write!(f, "the HTML entity {entity} read as {character:?}")
            }
            RepairKind::BareAmpersand => f.write_str("a bare & read as &amp;"),
            RepairKind::WrappedValue { attribute, value } => write!(
                f,
                "{attribute}= wrapped onto the next line, read as {value:?}"
            ),
            RepairKind::NameCase { written, canonical } => {
                write!(f, "{written} read as {canonical}")
            }
            RepairKind::DefaultStrength => {
                f.write_str("<Block> without strength= read as strength 1")
            }
            RepairKind::XmlComment => f.write_str("an XML comment <!-- --> ignored"),
            RepairKind::EscapedMarkup => f.write_str(
                "the turn's markup was written as HTML entities (&lt;Turn ...&gt;): read as XML",
            ),
        }
    }
}

/// The named HTML entities an HTML-to-text conversion leaves, beyond XML's
/// five.
const HTML_ENTITIES: [(&str, char); 24] = [
    ("nbsp", '\u{a0}'),
    ("rsquo", '’'),
    ("lsquo", '‘'),
    ("rdquo", '”'),
    ("ldquo", '“'),
    ("sbquo", '‚'),
    ("bdquo", '„'),
    ("ndash", '–'),
    ("mdash", '—'),
    ("hellip", '…'),
    ("copy", '©'),
    ("reg", '®'),
    ("trade", '™'),
    ("pound", '£'),
    ("euro", '€'),
    ("shy", '\u{ad}'),
    ("bull", '•'),
    ("middot", '·'),
    ("laquo", '«'),
    ("raquo", '»'),
    ("eacute", 'é'),
    ("times", '×'),
    ("prime", '′'),
    ("Prime", '″'),
];

const XML_ENTITIES: [&str; 5] = ["amp", "lt", "gt", "quot", "apos"];

fn is_double(c: char) -> bool {
    matches!(c, '"' | '“' | '”' | '„' | '″')
}

fn is_single(c: char) -> bool {
    matches!(c, '\'' | '‘' | '’' | '‚' | '′')
}

/// Repairs `text` (the `<Turn>` element as the mail has it), whose first
/// line is the mail's line `first_line`.
pub fn repair(text: &str, first_line: usize) -> (String, Vec<Repair>) {
    let mut r = Repairer {
        src: text,
        out: String::with_capacity(text.len() + 16),
        repairs: Vec::new(),
        first_line,
    };
    r.run();
    (r.out, r.repairs)
}

struct Repairer<'a> {
    src: &'a str,
    out: String,
    repairs: Vec<Repair>,
    first_line: usize,
}

impl Repairer<'_> {
    fn line_at(&self, pos: usize) -> usize {
        self.first_line + self.src[..pos].bytes().filter(|&b| b == b'\n').count()
    }

    fn note(&mut self, pos: usize, kind: RepairKind) {
        let line = self.line_at(pos);
        self.repairs.push(Repair { line, kind });
    }

    fn run(&mut self) {
        let s = self.src;
        let mut i = 0;
        while i < s.len() {
            let rest = &s[i..];
            if rest.starts_with("<!--") {
                let end = rest.find("-->").map_or(s.len(), |e| i + e + 3);
                self.out.push_str(&s[i..end]);
                i = end;
            } else if rest.starts_with("<![CDATA[") {
                let end = rest.find("]]>").map_or(s.len(), |e| i + e + 3);
                self.out.push_str(&s[i..end]);
                i = end;
            } else if rest.starts_with('<') {
                i = self.tag(i);
            } else if rest.starts_with('&') {
                i = self.ampersand(i);
            } else {
                let c = rest.chars().next().expect("not at the end");
                self.out.push(c);
                i += c.len_utf8();
            }
        }
    }

    /// An `&` at `i`: an entity XML knows is kept, an HTML one becomes its
    /// character reference, anything else is a bare `&`.
    fn ampersand(&mut self, i: usize) -> usize {
        let rest = &self.src[i + 1..];
        let name_len = rest
            .char_indices()
            .take(33)
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '#'))
            .filter(|&(_, c)| c == ';')
            .map(|(n, _)| n);
        if let Some(n) = name_len.filter(|&n| n > 0) {
            let name = &rest[..n];
            let numeric = name.strip_prefix('#').is_some_and(|d| {
                d.strip_prefix('x').map_or_else(
                    || !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()),
                    |h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()),
                )
            });
            if numeric || XML_ENTITIES.contains(&name) {
                self.out.push_str(&self.src[i..i + n + 2]);
                return i + n + 2;
            }
            if let Some(&(_, c)) = HTML_ENTITIES.iter().find(|(e, _)| *e == name) {
                self.out.push_str(&format!("&#{};", c as u32));
                self.note(
                    i,
                    RepairKind::HtmlEntity {
                        entity: format!("&{name};"),
                        character: c,
                    },
                );
                return i + n + 2;
            }
        }
        self.out.push_str("&amp;");
        self.note(i, RepairKind::BareAmpersand);
        i + 1
    }

    /// A tag from its `<` at `i` to its `>`: attribute values repaired.
    fn tag(&mut self, start: usize) -> usize {
        let s = self.src;
        let mut i = start;
        let mut last_name = String::new();
        let mut name = String::new();
        while i < s.len() {
            let c = s[i..].chars().next().expect("not at the end");
            if c == '>' {
                self.out.push(c);
                return i + 1;
            }
            if c == '=' {
                if !name.is_empty() {
                    last_name = std::mem::take(&mut name);
                }
                self.out.push(c);
                i += 1;
                // Whitespace may stand between = and the value.
                while let Some(w) = s[i..].chars().next().filter(|w| w.is_whitespace()) {
                    self.out.push(w);
                    i += w.len_utf8();
                }
                match s[i..].chars().next() {
                    Some(q) if is_double(q) || is_single(q) => i = self.value(i, &last_name),
                    _ => {}
                }
                continue;
            }
            if c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.') {
                name.push(c);
            } else if !name.is_empty() {
                last_name = std::mem::take(&mut name);
            }
            if c == '&' {
                i = self.ampersand(i);
                continue;
            }
            self.out.push(c);
            i += c.len_utf8();
        }
        i
    }

    /// An attribute value whose opening quote is at `i`.
    fn value(&mut self, i: usize, attribute: &str) -> usize {
        let s = self.src;
        let open = s[i..].chars().next().expect("a quote");
        let class: fn(char) -> bool = if is_double(open) {
            is_double
        } else {
            is_single
        };
        let body = i + open.len_utf8();
        let closes = |j: usize| {
            // A closing quote is followed by the tag's end or another
            // attribute, so `Regent’s Park` keeps its apostrophe.
            let after = s[j..].trim_start();
            after.is_empty()
                || after.starts_with('>')
                || after.starts_with('/')
                || after.starts_with('?')
                || attribute_follows(after)
        };
        let candidates: Vec<(usize, char)> = s[body..]
            .char_indices()
            .map(|(k, c)| (body + k, c))
            .take_while(|&(_, c)| c != '<')
            .filter(|&(_, c)| class(c))
            .collect();
        let close = if open == '"' || open == '\'' {
            // A straight quote ends at the same quote, as XML reads it.
            candidates.iter().find(|&&(_, c)| c == open).copied()
        } else {
            candidates
                .iter()
                .find(|&&(j, c)| closes(j + c.len_utf8()))
                .or(candidates.first())
                .copied()
        };
        let Some((end, close_char)) = close else {
            self.out.push(open);
            return body;
        };
        let value = &s[body..end];
        let curly = open != '"' && open != '\'' || close_char != open;
        if value.contains('\n') {
            let collapsed = value.split_whitespace().collect::<Vec<_>>().join(" ");
            self.note(
                i,
                RepairKind::WrappedValue {
                    attribute: attribute.to_string(),
                    value: collapsed,
                },
            );
        }
        if curly {
            self.note(
                i,
                RepairKind::CurlyQuotes {
                    attribute: attribute.to_string(),
                },
            );
            self.out.push('"');
        } else {
            self.out.push(open);
        }
        let mut k = body;
        while k < end {
            let c = s[k..].chars().next().expect("inside the value");
            if c == '&' {
                k = self.ampersand(k);
                continue;
            }
            if curly && c == '"' {
                self.out.push_str("&quot;");
            } else {
                self.out.push(c);
            }
            k += c.len_utf8();
        }
        self.out.push(if curly { '"' } else { open });
        end + close_char.len_utf8()
    }
}

/// Whether `text` starts with `name=` (an attribute).
fn attribute_follows(text: &str) -> bool {
    let name_end = text
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.')))
        .unwrap_or(text.len());
    name_end > 0 && text[name_end..].trim_start().starts_with('=')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curly_quotes_keep_apostrophes_inside() {
        let (out, r) = repair("<Move steps=“Regent’s Park”/>", 3);
        assert_eq!(out, "<Move steps=\"Regent’s Park\"/>");
        assert_eq!(r.len(), 1);
        assert_eq!(
            r[0].to_string(),
            "line 3: curly quotes around steps= read as straight quotes"
        );
        let (out, _) = repair("<Steal player=‘Bob’ item=‘lift’/>", 1);
        assert_eq!(out, "<Steal player=\"Bob\" item=\"lift\"/>");
    }

    #[test]
    fn entities_and_ampersands() {
        let (out, r) = repair(
            "<Turn player=\"A&amp;B\">Elephant & Castle&nbsp;&rsquo;&#39;</Turn>",
            1,
        );
        assert_eq!(
            out,
            "<Turn player=\"A&amp;B\">Elephant &amp; Castle&#160;&#8217;&#39;</Turn>"
        );
        let kinds: Vec<String> = r.iter().map(|r| r.to_string()).collect();
        assert_eq!(
            kinds,
            [
                "line 1: a bare & read as &amp;",
                "line 1: the HTML entity &nbsp; read as '\\u{a0}'",
                "line 1: the HTML entity &rsquo; read as '’'",
            ]
        );
    }

    #[test]
    fn a_wrapped_value_is_reported_collapsed() {
        let (out, r) = repair("<Move steps=\"Warren Street,\n  Oxford Circus\"/>", 7);
        assert_eq!(out, "<Move steps=\"Warren Street,\n  Oxford Circus\"/>");
        assert_eq!(
            r[0].to_string(),
            "line 7: steps= wrapped onto the next line, read as \"Warren Street, Oxford Circus\""
        );
    }

    #[test]
    fn comments_and_cdata_pass_untouched() {
        let text = "<!-- a & b --><![CDATA[x & y]]>";
        assert_eq!(repair(text, 1).0, text);
    }
}
