//! The station attributes a Gambit's steps name (Rules 1.18.1, 1.18.2):
//! a closed vocabulary, documented in `grammar/gambits.md`, read once at
//! the boundary into typed [`Attribute`]s. An attribute the vocabulary does
//! not know is an error naming it, never a default.
//!
//! "Valid attributes which may be given in this context is any information
//! which may be inferred about a Station from its representation on the
//! Map, or which is defined in this ruleset" (Rule 1.18.1): mornbot
//! supports the station itself, a Line calling at it, its Zone, its
//! Quadrant, its Current and Call, and its categories (RULINGS E112).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::map::{Category, LineCode, Map, StationId};

/// One thing a Station can be, as a Gambit's step names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum Attribute {
    /// `Temple`: this very Station.
    Station(StationId),
    /// `Northern Line`, `Line NT`: a Line calling at the Station.
    Line(LineCode),
    /// `Zone 2`: the Station is in that Zone (either, on a boundary).
    Zone(u8),
    /// `Quadrant 3`: the Station is in that Quadrant (Rule 1.17.2); `Quadrant
    /// 0` is the Circle.
    Quadrant(u8),
    /// `Holy Station`, `A-Z Station`, `Terminus`: a category of Rule
    /// 1.17.6.
    Category(Category),
    /// `Current 5`: the Station's Current (Rule 1.17.8).
    Current(u32),
    /// `Call 4`: the Station's Call (Rule 1.17.10).
    Call(u32),
}

/// One step of a Gambit: an attribute, and whether it must be met by
/// "another" Station than the earlier steps with the same attribute (the
/// Easter Gambit's "another Holy Station").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// What the Station must be.
    pub attribute: Attribute,
    /// `another ...`: a Station none of the earlier steps with the same
    /// attribute was.
    pub another: bool,
}

/// Why a list of steps does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StepError(pub String);

impl Attribute {
    /// Whether `station` has this attribute on `map`.
    pub fn holds(self, map: &Map, station: StationId) -> bool {
        let s = map.station(station);
        match self {
            Attribute::Station(id) => id == station,
            Attribute::Line(l) => s.lines.contains(l),
            Attribute::Zone(z) => s.zones.contains(&z),
            Attribute::Quadrant(q) => s.quadrants.contains(&q),
            Attribute::Category(c) => s.categories.contains(c),
            Attribute::Current(n) => s.current == n,
            Attribute::Call(n) => s.call == n,
        }
    }

    /// The attribute as a step writes it: `Holy Station`, `Zone 2`.
    pub fn text(self, map: &Map) -> String {
        match self {
            Attribute::Station(id) => map.station(id).name.clone(),
            Attribute::Line(l) => format!("{} Line", map.line(l).name),
            Attribute::Zone(z) => format!("Zone {z}"),
            Attribute::Quadrant(q) => format!("Quadrant {q}"),
            Attribute::Category(Category::Terminus) => "Terminus".into(),
            Attribute::Category(c) => format!("{} Station", c.name()),
            Attribute::Current(n) => format!("Current {n}"),
            Attribute::Call(n) => format!("Call {n}"),
        }
    }
}

impl Step {
    /// The step as written: `another Holy Station`.
    pub fn text(self, map: &Map) -> String {
        let a = self.attribute.text(map);
        if self.another {
            format!("another {a}")
        } else {
            a
        }
    }
}

/// Steps as written, joined by ` -> `.
pub struct StepsText<'a>(pub &'a [Step], pub &'a Map);

impl fmt::Display for StepsText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|s| s.text(self.1)).collect();
        f.write_str(&parts.join(" -> "))
    }
}

/// steps = step , { "->" , step } ;
///
/// Quirk `quirk-broken-arrow`: `- >` (the arrow broken by a space, as the
/// seed of Rule 1.18.2 writes "Heathrow Terminals 1,2,3 - > Hatton Cross")
/// reads as `->` (RULINGS E113).
pub fn parse_steps(text: &str, map: &Map) -> Result<Vec<Step>, StepError> {
    let text = text.replace("- >", "->").replace('→', "->");
    text.split("->").map(|s| parse_step(s, map)).collect()
}

/// step = [ "another" ] , attribute ;
/// attribute = station | line-name , "Line" | "Line" , line-code
///           | "Zone" , digits | "Quadrant" , digit | "Current" , digits
///           | "Call" , digits | category , "Station" | "Terminus" ;
pub fn parse_step(text: &str, map: &Map) -> Result<Step, StepError> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return Err(StepError(
            "a station attribute between the arrows, e.g. Holy Station".into(),
        ));
    }
    let lower = t.to_lowercase();
    let (another, rest) = match lower.strip_prefix("another ") {
        Some(_) => (true, &t["another ".len()..]),
        None => (false, t.as_str()),
    };
    let attribute = attribute(rest, map)?;
    if another && matches!(attribute, Attribute::Station(_)) {
        return Err(StepError(format!(
            "\"another {rest}\": a Station is itself, never another; `another` goes before an attribute many Stations share (another Holy Station)"
        )));
    }
    Ok(Step { attribute, another })
}

/// One attribute, trimmed and single-spaced.
fn attribute(t: &str, map: &Map) -> Result<Attribute, StepError> {
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower.split(' ').collect();
    let number = |w: &str, what: &str| -> Result<u32, StepError> {
        w.parse()
            .map_err(|_| StepError(format!("{what} and a number, not {t:?}")))
    };
    match words.as_slice() {
        ["zone", n] => {
            let z = number(n, "Zone")?;
            return match u8::try_from(z) {
                Ok(z @ 1..=6) => Ok(Attribute::Zone(z)),
                _ => Err(StepError(format!("{t:?}: the Zones are 1 to 6"))),
            };
        }
        ["quadrant", n] => {
            let q = number(n, "Quadrant")?;
            return match u8::try_from(q) {
                Ok(q @ 0..=4) => Ok(Attribute::Quadrant(q)),
                _ => Err(StepError(format!(
                    "{t:?}: the Quadrants are 1 to 4 (0, the Circle)"
                ))),
            };
        }
        ["current", n] => return Ok(Attribute::Current(number(n, "Current")?)),
        ["call", n] => return Ok(Attribute::Call(number(n, "Call")?)),
        ["line", code] | [code, "line"] if LineCode::parse(code).is_some() => {
            return Ok(Attribute::Line(LineCode::parse(code).expect("checked")));
        }
        ["terminus"] | ["terminus", "station"] => {
            return Ok(Attribute::Category(Category::Terminus));
        }
        _ => {}
    }
    if let Some(name) = lower.strip_suffix(" line") {
        if let Some(l) = map.lines().iter().find(|l| l.name.to_lowercase() == name) {
            return Ok(Attribute::Line(l.code));
        }
    }
    if let Some(c) = lower.strip_suffix(" station").and_then(category) {
        return Ok(Attribute::Category(c));
    }
    if let Some(id) = map.find(t) {
        return Ok(Attribute::Station(id));
    }
    let near = map.suggest(t, 3);
    let hint = if near.is_empty() {
        String::new()
    } else {
        format!(" (a station? nearest: {})", near.join(", "))
    };
    Err(StepError(format!(
        "{t:?} is not a station attribute mornbot knows{hint}: a Station, a Line (Northern Line), Zone N, Quadrant N, Current N, Call N, or a category and \"Station\" (Holy Station, A-Z Station, Terminus); see grammar/gambits.md"
    )))
}

/// A category by the name a step gives it: Rule 1.17.6's names, and
/// `A-Z` (the Easter Gambit's spelling of "A to Z").
fn category(name: &str) -> Option<Category> {
    match name {
        "a-z" | "a to z" | "a-to-z" | "az" => Some(Category::AToZ),
        _ => Category::parse(name),
    }
}

/// Whether `stations`, oldest first, meet `steps` in sequence; else the
/// index of the first step they do not meet. "another" asks a Station
/// other than every earlier one met by a step with the same attribute.
pub fn first_unmet(steps: &[Step], stations: &[StationId], map: &Map) -> Option<usize> {
    if steps.len() != stations.len() {
        return Some(steps.len().min(stations.len()));
    }
    (0..steps.len()).find(|&i| {
        let (step, at) = (steps[i], stations[i]);
        let again = step.another
            && (0..i).any(|j| steps[j].attribute == step.attribute && stations[j] == at);
        !step.attribute.holds(map, at) || again
    })
}

/// gambit-directive = ( "Gambit" | "Manoeuvre" ) , [ ":" ] , steps , ";" ,
///                    ( "cost" | "costs" ) , tokens ;
///
/// The steps and cost of a `[Declaring the <Name> Gambit]` (Rule 1.18.1,
/// RULINGS E114), `text` being what follows the keyword; `at` its offset.
pub(crate) fn gambit_directive(
    (at, text): (usize, &str),
    map: &Map,
) -> Result<super::Directive, super::directive::DirectiveErr> {
    let expected = "the steps and the cost: {Gambit: Holy Station -> Hill Station -> Populated Station; cost 6Bu}";
    let text = text.strip_prefix(':').unwrap_or(text).trim_start();
    let Some(semi) = text.rfind(';') else {
        return Err((at, expected.into(), vec![]));
    };
    let (steps, cost) = (&text[..semi], text[semi + 1..].trim());
    let lower = cost.to_ascii_lowercase();
    let tokens = ["costs ", "cost "]
        .iter()
        .find_map(|k| lower.starts_with(k).then(|| &cost[k.len()..]));
    let Some(list) = tokens.and_then(|t| super::parse_token_list(t.trim())) else {
        return Err((
            at + semi + 1,
            format!("`cost` and its Tokens after the `;`: {expected}"),
            vec![],
        ));
    };
    let steps = parse_steps(steps, map).map_err(|e| (at, e.0, vec![]))?;
    Ok(super::Directive::Gambit { steps, cost: list })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> &'static Map {
        Map::london_1999()
    }

    #[test]
    fn reads_each_kind_of_attribute() {
        let m = map();
        let steps = parse_steps(
            "Temple -> Northern Line -> Line CN -> Zone 2 -> Quadrant 0 -> Current 5 -> Call 4 -> A-Z Station -> another Holy Station -> Terminus",
            m,
        )
        .unwrap();
        assert_eq!(
            steps[0].attribute,
            Attribute::Station(m.lookup("Temple").unwrap())
        );
        assert_eq!(steps[1].attribute, Attribute::Line(LineCode::NT));
        assert_eq!(steps[2].attribute, Attribute::Line(LineCode::CN));
        assert_eq!(steps[3].attribute, Attribute::Zone(2));
        assert_eq!(steps[4].attribute, Attribute::Quadrant(0));
        assert_eq!(steps[5].attribute, Attribute::Current(5));
        assert_eq!(steps[6].attribute, Attribute::Call(4));
        assert_eq!(steps[7].attribute, Attribute::Category(Category::AToZ));
        assert!(steps[8].another);
        assert_eq!(steps[9].attribute, Attribute::Category(Category::Terminus));
    }

    #[test]
    fn an_unknown_attribute_is_named_in_the_error() {
        let e = parse_steps("Holy Station -> Spooky Station", map()).unwrap_err();
        assert!(e.0.contains("\"Spooky Station\""), "{e}");
        assert!(parse_steps("Zone 9", map()).is_err());
        assert!(parse_steps("another Temple", map()).is_err());
        assert!(parse_steps("Temple -> -> Angel", map()).is_err());
    }

    #[test]
    fn the_broken_arrow_of_the_seed_reads() {
        let s = parse_steps(
            "Heathrow Terminal 4 -> Heathrow Terminal 123 - > Hatton Cross",
            map(),
        )
        .unwrap();
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn another_asks_a_different_station() {
        let m = map();
        let steps = parse_steps("Holy Station -> A-Z Station -> another Holy Station", m).unwrap();
        let id = |n| m.lookup(n).unwrap();
        let temple = id("Temple");
        let baker = id("Baker Street");
        assert_eq!(first_unmet(&steps, &[temple, baker, id("Angel")], m), None);
        assert_eq!(first_unmet(&steps, &[temple, baker, temple], m), Some(2));
        assert_eq!(first_unmet(&steps, &[baker, baker, temple], m), Some(0));
    }

    #[test]
    fn a_step_text_reads_back_as_itself() {
        let m = map();
        let text = "Temple -> Northern Line -> Zone 2 -> Quadrant 3 -> A to Z Station -> another Holy Station -> Terminus -> Current 5 -> Call 4";
        let steps = parse_steps(text, m).unwrap();
        assert_eq!(
            parse_steps(&StepsText(&steps, m).to_string(), m).unwrap(),
            steps
        );
    }
}
