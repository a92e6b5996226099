//! The state document (what a verdict mails the lounge) and the canonical
//! turn. Every line of the document is at most [`WIDTH`] columns, so no
//! mail client wraps it.

use super::actions::{tokens, Part};
use super::facts::Facts;
use super::state::State;
use super::turn::{Action, StationRef, Turn};

/// The widest line the state document writes.
pub const WIDTH: usize = 72;

/// The state document: trains, tokens and parts per player, the parts
/// left in the supply, closed stations, and who plays next (by
/// `deadline`, the caller's text, if given).
pub fn document(facts: &Facts, state: &State, deadline: Option<&str>) -> String {
    let mut out: Vec<String> = Vec::new();
    let title = format!(
        "XML Mornington Crescent (mc-xml), after {}",
        match state.turns {
            1 => "1 turn".to_string(),
            n => format!("{n} turns"),
        }
    );
    out.extend(wrap("", "", &title));
    match state.winner {
        // Still closed for rebuilding: no Build ended it, so the others
        // resigned (RULINGS MX15).
        Some(w) if state.rebuilding => out.extend(wrap(
            "",
            "  ",
            &format!(
                "Game over: {} won, the last player left.",
                state.trains[w].name
            ),
        )),
        Some(w) => out.extend(wrap(
            "",
            "  ",
            &format!(
                "Game over: {} built Mornington Crescent and won.",
                state.trains[w].name
            ),
        )),
        None => {
            let next = &state.current().name;
            let text = match deadline {
                Some(d) => format!("Next to play: {next}, by {d}."),
                None => format!("Next to play: {next}."),
            };
            out.extend(wrap("", "  ", &text));
        }
    }
    out.push(String::new());
    out.push("Trains".into());
    let col = state
        .trains
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(20);
    for t in &state.trains {
        let lead = format!("  {:<col$}  ", t.name);
        let indent = " ".repeat(col + 4);
        let lead = if lead.chars().count() > col + 4 {
            out.extend(wrap("  ", "  ", &t.name));
            indent.clone()
        } else {
            lead
        };
        out.extend(wrap(&lead, &indent, &format!("at {}", facts.name(t.at))));
        out.extend(wrap(
            &indent,
            &indent,
            &format!("{}; {}", tokens(t.tokens), held(t.parts)),
        ));
    }
    out.push(String::new());
    out.push("Station parts left to buy".into());
    let supply: Vec<String> = Part::ALL
        .iter()
        .map(|&p| {
            let bought = state.bought.get(p);
            match (state.supply(p), p.maximum(state.trains.len())) {
                (Some(left), Some(max)) => {
                    format!("{} of {max} {}", left, p.spec().plural)
                }
                _ => format!("{} unlimited ({bought} bought)", p.spec().plural),
            }
        })
        .collect();
    out.extend(wrap("  ", "  ", &supply.join("; ")));
    out.push(String::new());
    closed_lines(facts, state, &mut out);
    out.push(String::new());
    let rulings: Vec<String> = state
        .rulings
        .pairs()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    out.extend(wrap("", "  ", &format!("Rulings: {}", rulings.join(", "))));
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The "Closed stations" part of the document.
fn closed_lines(facts: &Facts, state: &State, out: &mut Vec<String>) {
    out.push("Closed stations".into());
    if state.rebuilding {
        out.extend(wrap(
            "  ",
            "    ",
            &format!(
                "{}, for rebuilding (only Build opens it)",
                facts.name(facts.mornington())
            ),
        ));
    }
    for c in &state.closed {
        out.extend(wrap(
            "  ",
            "    ",
            &format!(
                "{}, strength {} (Unblock costs {})",
                facts.name(c.station),
                c.strength,
                tokens(c.strength.saturating_mul(2))
            ),
        ));
    }
    if !state.rebuilding && state.closed.is_empty() {
        out.push("  none".into());
    }
}

/// "1 platform, 2 ticket machines", or "no station parts".
fn held(parts: super::state::Parts) -> String {
    let list: Vec<String> = Part::ALL
        .iter()
        .filter(|p| parts.get(**p) > 0)
        .map(|p| p.count(parts.get(*p)))
        .collect();
    if list.is_empty() {
        "no station parts".into()
    } else {
        list.join(", ")
    }
}

/// `text` in lines of at most [`WIDTH`] columns: the first begins with
/// `first`, the others with `rest`; a word too long for a line is cut.
fn wrap(first: &str, rest: &str, text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    let width = |s: &str| s.chars().count();
    for word in text.split_whitespace() {
        let sep = usize::from(!empty);
        if !empty && width(&line) + sep + width(word) > WIDTH {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        let mut word = word;
        loop {
            let sep = usize::from(!empty);
            let room = WIDTH.saturating_sub(width(&line) + sep);
            if width(word) <= room {
                if !empty {
                    line.push(' ');
                }
                line.push_str(word);
                empty = false;
                break;
            }
            if !empty || room == 0 {
                lines.push(std::mem::replace(&mut line, rest.to_string()));
                empty = true;
                continue;
            }
            let cut = word.char_indices().nth(room).map_or(word.len(), |(i, _)| i);
            line.push_str(&word[..cut]);
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            word = &word[cut..];
        }
    }
    if !empty || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The turn as compact canonical XML with Rule 6's names: one line if it
/// fits in [`WIDTH`] columns, else one element a line. It reads back as the
/// same turn.
pub fn canonical(facts: &Facts, turn: &Turn) -> String {
    let open = format!("<Turn player=\"{}\">", escape(&turn.player));
    let mut elements: Vec<String> = turn.actions.iter().map(|a| element(facts, a)).collect();
    elements.extend(
        turn.comments
            .iter()
            .map(|c| format!("<Comment>{c}</Comment>")),
    );
    let one = format!("{open}{}</Turn>", elements.concat());
    if one.chars().count() <= WIDTH && !one.contains('\n') {
        return one;
    }
    let mut out = open;
    for e in elements {
        out.push('\n');
        out.push_str(&e);
    }
    out.push_str("\n</Turn>");
    out
}

fn element(facts: &Facts, a: &Action) -> String {
    let name = a.kind().name();
    let attrs = match a {
        Action::Move { steps } => format!(" steps=\"{}\"", list(facts, steps)),
        Action::Shunt {
            player,
            steps,
            force,
        } => {
            let force = force.map_or(String::new(), |f| format!(" force=\"{f}\""));
            format!(
                " player=\"{}\" steps=\"{}\"{force}",
                escape(player),
                list(facts, steps)
            )
        }
        Action::Block { station, strength } => format!(
            " station=\"{}\" strength=\"{strength}\"",
            one(facts, station)
        ),
        Action::Unblock { station } => format!(" station=\"{}\"", one(facts, station)),
        Action::Steal { player, item } => {
            format!(" player=\"{}\" item=\"{}\"", escape(player), item.word())
        }
        Action::Buy { item } => format!(" item=\"{}\"", item.spec().item),
        Action::Work | Action::Slave | Action::Build => String::new(),
    };
    format!("<{name}{attrs}/>")
}

fn one(facts: &Facts, s: &StationRef) -> String {
    let name = escape(facts.name(s.id));
    match s.line {
        Some(l) => format!("{name} ({})", l.code()),
        None => name,
    }
}

fn list(facts: &Facts, steps: &[StationRef]) -> String {
    steps
        .iter()
        .map(|s| one(facts, s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text as an XML attribute value between double quotes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_to_the_width() {
        let long = "word ".repeat(40) + &"x".repeat(100);
        for l in wrap("  ", "    ", &long) {
            assert!(l.chars().count() <= WIDTH, "{l:?}");
        }
        assert_eq!(wrap("a: ", "", "b c"), ["a: b c"]);
    }
}

#[cfg(test)]
mod document_tests {
    use super::*;
    use crate::kinds::mcxml::read::read;
    use crate::kinds::mcxml::rulings::Rulings;
    use crate::kinds::mcxml::state::Closure;

    #[test]
    fn the_document_says_everything_within_72_columns() {
        let f = Facts::london();
        let long = "Bartholomew Fitzwilliam-Montgomery the Third of Cockfosters".to_string();
        let mut s = State::start(&[long, "Bob".into()], Rulings::default()).unwrap();
        s.trains[1].tokens = 12;
        *s.trains[1].parts.get_mut(Part::Ticket) = 2;
        *s.bought.get_mut(Part::Ticket) = 2;
        s.closed.push(Closure {
            station: f.map().lookup("Crossharbour and London Arena").unwrap(),
            strength: 3,
        });
        let doc = document(f, &s, Some("Monday 23 November 2026, 22:00 UTC"));
        for l in doc.lines() {
            assert!(l.chars().count() <= WIDTH, "{l:?}");
        }
        for want in [
            "Next to play: Bartholomew",
            "12 tokens; 2 ticket machines",
            "at Tottenham Court Road",
            "3 of 3 platforms",
            "ticket machines unlimited (2 bought)",
            "Mornington Crescent, for rebuilding",
            "Crossharbour and London Arena, strength 3 (Unblock costs 6 tokens)",
            "by Monday 23 November 2026, 22:00 UTC",
            "Rulings: build_at=adjacent, unblock_adjacent=false",
        ] {
            assert!(doc.contains(want), "{want:?} not in\n{doc}");
        }
    }

    #[test]
    fn the_canonical_turn_uses_rule_6s_names() {
        let f = Facts::london();
        let t = read(f, "<turn player='Rushton'><Move station=\"Green Park\"/><Unblock steps=\"Bank\"/><Block station=\"Knightsbridge\"/></turn>").unwrap().turn;
        let c = canonical(f, &t);
        assert_eq!(
            c,
            "<Turn player=\"Rushton\">\n<Move steps=\"Green Park\"/>\n<Unblock station=\"Bank\"/>\n<Block station=\"Knightsbridge\" strength=\"1\"/>\n</Turn>"
        );
        assert_eq!(read(f, &c).unwrap().turn, t);
        let short = read(f, "<Turn player=\"A\"><Work/></Turn>").unwrap().turn;
        assert_eq!(canonical(f, &short), "<Turn player=\"A\"><Work/></Turn>");
    }
}
