//! Reading a turn from a mail body (Rule 2; RULINGS MX4, MX16, MX17): the
//! one unquoted `<Turn>` element is found in the text, what mail did to it
//! is repaired and reported (`repair.rs`), a real XML parser reads it, and
//! the tree is validated into a typed [`Turn`] with every station resolved.
//! Anything else is a located [`ReadError`]: never a panic, never a guess.

use std::fmt;

use roxmltree::{Document, Node, NodeType, ParsingOptions};
use serde::Serialize;
use thiserror::Error;

use super::actions::{ActionKind, Part};
use super::facts::Facts;
use super::locate::{find_turn, line_of, mask_quotes};
use super::repair::{repair, Repair, RepairKind};
use super::turn::{Action, Foreign, Item, StationRef, Turn};
use crate::map::LineCode;

/// A turn read, with what the reader repaired to read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Read {
    /// The turn.
    pub turn: Turn,
    /// What was repaired, in the order met (shown to the player).
    pub repairs: Vec<Repair>,
}

/// Why a mail holds no readable turn, and where.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
pub struct ReadError {
    /// The line of the mail body (0: the mail as a whole).
    pub line: usize,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        write!(f, "{}", self.kind)
    }
}

/// What is wrong with a turn that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
pub enum ReadErrorKind {
    /// No unquoted `<Turn>` at all.
    #[error("no <Turn> element: a turn is <Turn player=\"Name\"> ... </Turn> (Rule 2)")]
    NoTurn,
    /// A second unquoted `<Turn>`.
    #[error("a second <Turn> at line {0}: a mail holds one turn")]
    SecondTurn(usize),
    /// The `<Turn>` never ends.
    #[error("the <Turn> is not closed: expected </Turn>")]
    Unclosed,
    /// Not well-formed XML, as the parser says.
    #[error("not well-formed XML: {0}")]
    Xml(String),
    /// A needed attribute is missing or empty.
    #[error("<{element}> needs {attribute}=\"...\" (Rule 6)")]
    MissingAttribute {
        /// The element.
        element: &'static str,
        /// The attribute.
        attribute: &'static str,
    },
    /// The same attribute twice (by synonym or case).
    #[error("<{element}> has {attribute}= twice (steps= and station= are one attribute)")]
    TwiceAttribute {
        /// The element.
        element: &'static str,
        /// The attribute.
        attribute: &'static str,
    },
    /// A number that is not one.
    #[error("{attribute}=\"{value}\": expected a whole number")]
    NotANumber {
        /// The attribute.
        attribute: &'static str,
        /// The value.
        value: String,
    },
    /// A station name that names no station.
    #[error("no station is named {name:?}{}", did_you_mean(.suggestions))]
    UnknownStation {
        /// The name as written.
        name: String,
        /// The nearest names.
        suggestions: Vec<String>,
    },
    /// A Ghost Station of Volume 1 (Rule 1.11.6): on the map's list, on no
    /// line.
    #[error("{0} is a Ghost Station (Volume 1, Rule 1.11.6), on no line: not a station of mc-xml")]
    GhostStation(String),
    /// Two commas with nothing between, or a comma at an end.
    #[error("an empty station name in {0:?}")]
    EmptyStation(String),
    /// An item that is not one.
    #[error("item=\"{value}\": expected {expected}")]
    UnknownItem {
        /// The value.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}

fn did_you_mean(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", s.join(", "))
    }
}

fn err(line: usize, kind: ReadErrorKind) -> ReadError {
    ReadError { line, kind }
}

/// Reads the one turn of a mail body.
pub fn read(facts: &Facts, body: &str) -> Result<Read, ReadError> {
    let mut masked = mask_quotes(body);
    let mut escaped = false;
    if let Err(e) = find_turn(&masked) {
        // An HTML-to-text conversion that left the markup itself escaped
        // (`&lt;Turn player=&quot;A&quot;&gt;`): read it as the player typed it.
        if e.kind == ReadErrorKind::NoTurn && masked.to_ascii_lowercase().contains("&lt;turn") {
            masked = unescape_markup(&masked);
            escaped = true;
        }
    }
    let (start, end) = find_turn(&masked)?;
    let first_line = line_of(body, start);
    let (fixed, mut repairs) = repair(&masked[start..end], first_line);
    if escaped {
        repairs.insert(
            0,
            Repair {
                line: first_line,
                kind: RepairKind::EscapedMarkup,
            },
        );
    }
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: 100_000,
    };
    let doc = Document::parse_with_options(&fixed, options).map_err(|e| {
        let line = first_line + e.pos().row as usize - 1;
        err(line, ReadErrorKind::Xml(e.to_string()))
    })?;
    let mut v = Validator {
        facts,
        doc: &doc,
        text: &fixed,
        first_line,
        repairs: &mut repairs,
    };
    let turn = v.turn(doc.root_element())?;
    Ok(Read { turn, repairs })
}

struct Validator<'a, 'd> {
    facts: &'a Facts,
    doc: &'a Document<'d>,
    text: &'a str,
    first_line: usize,
    repairs: &'a mut Vec<Repair>,
}

/// Markup written as entities, made markup again: `&lt;`, `&gt;`,
/// `&quot;`, `&apos;`, `&#39;`, then `&amp;` (newlines untouched, so lines
/// keep their numbers).
fn unescape_markup(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The attributes an action takes: (canonical name, synonyms, required).
fn attributes(kind: ActionKind) -> &'static [(&'static str, &'static [&'static str], bool)] {
    match kind {
        ActionKind::Move => &[("steps", &["steps", "station"], true)],
        ActionKind::Shunt => &[
            ("player", &["player"], true),
            ("steps", &["steps", "station"], true),
            ("force", &["force"], false),
        ],
        ActionKind::Block => &[
            ("station", &["station"], true),
            ("strength", &["strength"], false),
        ],
        ActionKind::Unblock => &[("station", &["station", "steps"], true)],
        ActionKind::Steal => &[("player", &["player"], true), ("item", &["item"], true)],
        ActionKind::Buy => &[("item", &["item"], true)],
        ActionKind::Work | ActionKind::Slave | ActionKind::Build => &[],
    }
}

fn expected(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Move => "steps",
        ActionKind::Shunt => "player, steps, force",
        ActionKind::Block => "station, strength",
        ActionKind::Unblock => "station",
        ActionKind::Steal => "player, item",
        ActionKind::Buy => "item",
        ActionKind::Work | ActionKind::Slave | ActionKind::Build => "none",
    }
}

impl Validator<'_, '_> {
    fn line(&self, node: Node) -> usize {
        self.first_line + self.doc.text_pos_at(node.range().start).row as usize - 1
    }

    fn name_case(&mut self, node: Node, written: &str, canonical: &str) {
        if written != canonical {
            let line = self.line(node);
            self.repairs.push(Repair {
                line,
                kind: RepairKind::NameCase {
                    written: written.to_string(),
                    canonical: canonical.to_string(),
                },
            });
        }
    }

    fn foreign(&mut self, turn: &mut Turn, node: Node, what: String) {
        let line = self.line(node);
        turn.foreign.push(Foreign { line, what });
    }

    fn turn(&mut self, root: Node) -> Result<Turn, ReadError> {
        self.name_case(root, &format!("<{}>", root.tag_name().name()), "<Turn>");
        let mut turn = Turn::empty("");
        for a in root.attributes() {
            if a.name().eq_ignore_ascii_case("player") {
                self.name_case(root, &format!("{}=", a.name()), "player=");
                turn.player = collapse(a.value());
            } else {
                self.foreign(&mut turn, root, format!("{}= on <Turn>", a.name()));
            }
        }
        for child in root.children() {
            let line = self.line(child);
            match child.node_type() {
                NodeType::Element => {
                    let name = child.tag_name().name();
                    if name.eq_ignore_ascii_case("Comment") {
                        self.name_case(child, &format!("<{name}>"), "<Comment>");
                        for a in child.attributes() {
                            self.foreign(&mut turn, child, format!("{}= on <Comment>", a.name()));
                        }
                        turn.comments.push(self.inner(child).to_string());
                    } else if let Some(kind) = ActionKind::from_name(name) {
                        self.name_case(child, &format!("<{name}>"), &format!("<{}>", kind.name()));
                        let action = self.action(&mut turn, child, kind)?;
                        turn.actions.push(action);
                    } else {
                        self.foreign(&mut turn, child, format!("<{name}>"));
                    }
                }
                NodeType::Text => {
                    let t = child.text().unwrap_or("").trim();
                    if !t.is_empty() {
                        let shown: String = t.chars().take(40).collect();
                        self.foreign(&mut turn, child, format!("the text {shown:?}"));
                    }
                }
                NodeType::Comment => self.repairs.push(Repair {
                    line,
                    kind: RepairKind::XmlComment,
                }),
                NodeType::PI => {
                    let name = child.pi().map_or("?", |p| p.target);
                    self.foreign(&mut turn, child, format!("<?{name}?>"));
                }
                NodeType::Root => {}
            }
        }
        Ok(turn)
    }

    /// A Comment's content as written: the text between its tags.
    fn inner(&self, node: Node) -> &str {
        let whole = &self.text[node.range()];
        if whole.ends_with("/>") {
            return "";
        }
        let open = whole.find('>').map_or(0, |k| k + 1);
        let close = whole.rfind('<').unwrap_or(whole.len());
        &whole[open..close.max(open)]
    }

    /// One action; what it holds that the ruleset does not have is noted
    /// in `turn.foreign`.
    fn action(
        &mut self,
        turn: &mut Turn,
        node: Node,
        kind: ActionKind,
    ) -> Result<Action, ReadError> {
        let line = self.line(node);
        let element = kind.name();
        for c in node.children() {
            match c.node_type() {
                NodeType::Text if c.text().is_some_and(|t| t.trim().is_empty()) => {}
                NodeType::Comment => {}
                NodeType::Element => {
                    let what = format!("<{}> inside <{element}>", c.tag_name().name());
                    self.foreign(turn, c, what);
                }
                _ => {
                    let shown: String = c.text().unwrap_or("").trim().chars().take(40).collect();
                    self.foreign(turn, c, format!("the text {shown:?} inside <{element}>"));
                }
            }
        }
        let spec = attributes(kind);
        let mut values: Vec<Option<String>> = vec![None; spec.len()];
        for a in node.attributes() {
            let lower = a.name().to_ascii_lowercase();
            let Some(k) = spec
                .iter()
                .position(|(_, syn, _)| syn.contains(&lower.as_str()))
            else {
                let what = format!("{}= on <{element}> (it takes {})", a.name(), expected(kind));
                self.foreign(turn, node, what);
                continue;
            };
            if values[k].is_some() {
                return Err(err(
                    line,
                    ReadErrorKind::TwiceAttribute {
                        element,
                        attribute: spec[k].0,
                    },
                ));
            }
            if a.name() != lower {
                self.name_case(node, &format!("{}=", a.name()), &format!("{lower}="));
            }
            values[k] = Some(collapse(a.value()));
        }
        for (k, (name, _, required)) in spec.iter().enumerate() {
            if *required && values[k].as_deref().is_none_or(str::is_empty) {
                return Err(err(
                    line,
                    ReadErrorKind::MissingAttribute {
                        element,
                        attribute: name,
                    },
                ));
            }
        }
        self.typed(kind, values, line)
    }

    /// The action from its attributes' values, in [`attributes`] order.
    fn typed(
        &mut self,
        kind: ActionKind,
        mut values: Vec<Option<String>>,
        line: usize,
    ) -> Result<Action, ReadError> {
        let mut take = |k: usize| values[k].take().unwrap_or_default();
        let facts = self.facts;
        Ok(match kind {
            ActionKind::Move => Action::Move {
                steps: stations(facts, &take(0), line)?,
            },
            ActionKind::Shunt => {
                let player = take(0);
                let steps = stations(facts, &take(1), line)?;
                let force = values_opt(take(2))
                    .map(|f| number("force", &f, line))
                    .transpose()?;
                Action::Shunt {
                    player,
                    steps,
                    force,
                }
            }
            ActionKind::Block => {
                let station = station(facts, &take(0), line)?;
                let strength = match values_opt(take(1)) {
                    Some(s) => number("strength", &s, line)?,
                    None => {
                        self.repairs.push(Repair {
                            line,
                            kind: RepairKind::DefaultStrength,
                        });
                        1
                    }
                };
                Action::Block { station, strength }
            }
            ActionKind::Unblock => Action::Unblock {
                station: station(facts, &take(0), line)?,
            },
            ActionKind::Steal => {
                let player = take(0);
                let item = item(&take(1), true, line)?;
                Action::Steal { player, item }
            }
            ActionKind::Buy => match item(&take(0), false, line)? {
                Item::Part(p) => Action::Buy { item: p },
                Item::Token => unreachable!("item() refuses tokens for Buy"),
            },
            ActionKind::Work => Action::Work,
            ActionKind::Slave => Action::Slave,
            ActionKind::Build => Action::Build,
        })
    }
}

fn values_opt(v: String) -> Option<String> {
    (!v.is_empty()).then_some(v)
}

/// An attribute value with its whitespace collapsed (MX16: a value a
/// client wrapped reads as written on one line).
fn collapse(v: &str) -> String {
    v.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn number(attribute: &'static str, value: &str, line: usize) -> Result<u32, ReadError> {
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = value.parse() {
            return Ok(n);
        }
    }
    Err(err(
        line,
        ReadErrorKind::NotANumber {
            attribute,
            value: value.to_string(),
        },
    ))
}

/// One station, `Name` or `Name (XX)`.
fn station(facts: &Facts, text: &str, line: usize) -> Result<StationRef, ReadError> {
    try_station(facts, text, line)
}

/// A station, or the error for a name that names none.
fn try_station(facts: &Facts, text: &str, line: usize) -> Result<StationRef, ReadError> {
    let map = facts.map();
    let text = text.trim();
    let (name, code) = match text.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((name, code)) if LineCode::parse(code).is_some() => {
            (name.trim(), LineCode::parse(code))
        }
        _ => (text, None),
    };
    if let Some(id) = map.find(name) {
        return Ok(StationRef { id, line: code });
    }
    let kind = match map.find_ghost(name) {
        Some(g) => ReadErrorKind::GhostStation(map.ghost(g).to_string()),
        None => ReadErrorKind::UnknownStation {
            name: text.to_string(),
            suggestions: map.suggest(name, 5),
        },
    };
    Err(err(line, kind))
}

/// A comma-separated list of stations. A name with commas of its own
/// (`Heathrow Terminals 1, 2, 3`) is read whole: the longest run of pieces
/// that names a station wins.
fn stations(facts: &Facts, text: &str, line: usize) -> Result<Vec<StationRef>, ReadError> {
    let pieces: Vec<&str> = text.split(',').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        if pieces[i].trim().is_empty() {
            return Err(err(line, ReadErrorKind::EmptyStation(text.to_string())));
        }
        let mut found = None;
        for k in (2..=3.min(pieces.len() - i)).rev() {
            if pieces[i..i + k].iter().any(|p| p.trim().is_empty()) {
                continue;
            }
            let joined = pieces[i..i + k].join(",");
            if let Ok(s) = try_station(facts, &joined, line) {
                found = Some((s, k));
                break;
            }
        }
        let (s, k) = match found {
            Some(f) => f,
            None => (station(facts, pieces[i], line)?, 1),
        };
        out.push(s);
        i += k;
    }
    Ok(out)
}

/// An `item` (MX10: case-insensitive, singular or plural).
fn item(value: &str, token: bool, line: usize) -> Result<Item, ReadError> {
    let v = value.to_ascii_lowercase();
    let v = v.trim_end_matches('s');
    let part = |p: Part| Ok(Item::Part(p));
    match v {
        "token" if token => Ok(Item::Token),
        "platform" => part(Part::Platform),
        "lift" => part(Part::Lift),
        "ticket machine" | "ticket" | "ticketmachine" => part(Part::Ticket),
        "station announcer" | "announcer" | "stationannouncer" => part(Part::Announcer),
        _ => Err(err(
            line,
            ReadErrorKind::UnknownItem {
                value: value.to_string(),
                expected: if token {
                    "token, platform, lift, ticket machine or station announcer"
                } else {
                    "platform, lift, ticket machine or station announcer"
                },
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f() -> &'static Facts {
        Facts::london()
    }

    #[test]
    fn the_turn_is_found_among_greetings_quotes_and_signatures() {
        let body = "Hi,\n> <Turn player=\"Bob\"><Slave/></Turn>\n\n<Turn player=\"Alice\">\n<Work/>\n</Turn>\n-- \nAlice\n";
        let r = read(f(), body).unwrap();
        assert_eq!(r.turn.player, "Alice");
        assert_eq!(r.turn.actions, [Action::Work]);
        assert!(r.repairs.is_empty());
    }

    #[test]
    fn errors_name_their_line() {
        let e = read(
            f(),
            "a\nb\n<Turn player=\"A\">\n<Move steps=\"Holbron\"/>\n</Turn>",
        )
        .unwrap_err();
        assert_eq!(e.line, 4);
        assert!(
            e.to_string()
                .starts_with("line 4: no station is named \"Holbron\" (did you mean Holborn"),
            "{e}"
        );
        let e = read(f(), "<Turn player=\"A\"/>\n<Turn player=\"A\"/>").unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::SecondTurn(2));
        let e = read(f(), "no turn here").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no <Turn> element: a turn is <Turn player=\"Name\"> ... </Turn> (Rule 2)"
        );
        let e = read(f(), "x\n<Turn player=\"A\">\n<Work>\n</Turn>").unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Xml(_)), "{e}");
        assert_eq!(e.line, 4);
    }

    #[test]
    fn a_comment_is_kept_as_written_and_foreign_content_is_noted() {
        let r = read(
            f(),
            "<Turn player=\"A\"><Comment> a <b>c</b> </Comment><Pass/>text</Turn>",
        )
        .unwrap();
        assert_eq!(r.turn.comments, [" a <b>c</b> "]);
        let what: Vec<&str> = r.turn.foreign.iter().map(|x| x.what.as_str()).collect();
        assert_eq!(what, ["<Pass>", "the text \"text\""]);
    }

    #[test]
    fn station_lists_read_names_with_commas_whole() {
        let r = read(f(), "<Turn player=\"A\"><Move steps=\"Hatton Cross, Heathrow Terminals 1, 2, 3 (PD), Heathrow Terminal 4\"/></Turn>").unwrap();
        let Action::Move { steps } = &r.turn.actions[0] else {
            panic!("a Move");
        };
        let names: Vec<&str> = steps.iter().map(|s| f().name(s.id)).collect();
        assert_eq!(
            names,
            [
                "Hatton Cross",
                "Heathrow Terminal 123",
                "Heathrow Terminal 4"
            ]
        );
        assert_eq!(steps[1].line, Some(LineCode::PD));
    }

    #[test]
    fn items_and_synonyms() {
        let r = read(f(), "<Turn player=\"A\"><Unblock steps=\"Bank\"/><Steal player=\"B\" item=\"Station Announcers\"/><Shunt player=\"B\" station=\"Bank\" force=\"1\"/></Turn>").unwrap();
        assert!(matches!(r.turn.actions[0], Action::Unblock { .. }));
        assert_eq!(
            r.turn.actions[1],
            Action::Steal {
                player: "B".into(),
                item: Item::Part(Part::Announcer)
            }
        );
        assert!(matches!(
            r.turn.actions[2],
            Action::Shunt { force: Some(1), .. }
        ));
    }
}
