//! Comment directives: the choices a Play states in a `{comment}` (Rule
//! 1.3.1), e.g. `{claims Gold from Rushton}`, `{LV 3}`, `{waits 2 hours}`,
//! `{Tokens to Euston}` (`grammar/gsd.ebnf`, "directive").
//!
//! A comment is a directive when it starts with a directive's keyword;
//! then the rest must read as that directive, or the Play is refused with
//! the column and what was expected. Any other comment is prose. The engine
//! reads directives only from here, never from comment text.

use serde::Serialize;

use super::action::{parse_token_list, TokenList};
use super::model::{Colour, Item, Target};
use super::parse::{item, read_target};
use crate::map::Map;

/// A choice a Play states in a comment, typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "directive", content = "value", rename_all = "kebab-case")]
pub enum Directive {
    /// `{claims <Colour>|<Possession> [from <Player>|Token Stack]}`: what a
    /// Shunt claims (Rules 1.10.1, 1.10.2).
    Claims {
        /// What is claimed.
        what: Claim,
        /// From whom, when the Play says.
        from: Option<String>,
    },
    /// `{LV <N>}`: the new LV of a Huff (Rule 1.10.15); none needed when
    /// both LVs are zero (RULINGS E134).
    Lv(u32),
    /// `{pays <Colour>}` or `{pays 10 <Colour> Tokens}`: the colour a
    /// Bonanza is paid in (Rule 1.4.10).
    Pays(Colour),
    /// `{upkeep <Colour>}`: what a Bifurcated Player loses as eir Turn
    /// begins, 2 Bronze or 1 Token of another colour (Rule 1.7.42).
    Upkeep(Colour),
    /// `{waits <duration>}`: how long a `[Waiting]` lasts, in minutes (Rule 1.7.52).
    Waits(u32),
    /// `{rolled <N>}`: a die roll recorded (Rule 1.13.7).
    Rolled(u32),
    /// `{rolled <name> <N>}`: a named die of a rule the bot rolls for,
    /// e.g. `{rolled courier-pickup 123}` (RULINGS E85); one per draw, in
    /// the order [`crate::engine::dice_needed`] lists them.
    RolledNamed {
        /// The draw's name (`courier-pickup`, `gold-rush`, `frobisher-3`...).
        name: String,
        /// The face rolled.
        value: u32,
    },
    /// `{gives <Tokens>}`: the Tokens of [Giving Tokens] (Rule 1.7.27).
    Gives(TokenList),
    /// `{cascades <Tokens>}`: the Plastic Tokens a Player transfers to the
    /// Token Cascade's focus at the start of eir Turn (Rule 1.7.36,
    /// RULINGS E92), e.g. `{cascades 2Re,1Bk}`.
    Cascades(TokenList),
    /// `{destroys <Colour>}`: the Token a Blonk destroys (Rule 1.10.16);
    /// none needed when the victim holds one colour (RULINGS E134).
    Destroys(Colour),
    /// `{takes <Colour>}`: the Token a Shadow or a Beg takes (Rules 1.10.5, 1.7.61).
    Takes(Colour),
    /// `{plays <Instrument>}`: what a Busker plays (Rule 1.7.20).
    Plays(Item),
    /// `{yodels}`: a Busker yodels (Rule 1.7.20).
    Yodels,
    /// `{recycles <N> <Colour>}` or `{recycles <Possession>}` (Rule 1.7.39).
    Recycles(Recycle),
    /// `{Tokens to <Station>}`: the Stack the Turn's spent Tokens go to
    /// (Rule 1.4.19).
    TokensTo(Target),
    /// `{generates <Colour>}`: the colour of the Token a `[Generating
    /// Token]` gains (Rule 1.7.54).
    Generates(Colour),
    /// `{tithes <Colour> from <Player>}`: the Token a `[Collecting Tithe]`
    /// takes from one Player's Piece (Rule 1.7.31); one such directive per
    /// Piece tithed whose holder leaves a choice (none where e holds one
    /// colour, RULINGS E134).
    Tithes {
        /// The colour chosen.
        colour: Colour,
        /// The Player whose Piece pays it.
        from: String,
    },
    /// `{Rat to <Player>}`: a `[Releasing Rat]` places the Rat in that
    /// Player's Luggage (Rule 1.4.35); the k-th such directive goes with
    /// the k-th `[Releasing Rat]`.
    RatTo(String),
    /// `{into Nantucket <Possession>}`: a `[Reshuffling]` moves this Small
    /// Possession into the player's Nantucket (Rule 1.4.15, RULINGS E77).
    IntoNantucket(Item),
    /// `{out of Nantucket <Possession>}`: a `[Reshuffling]` takes it out.
    OutOfNantucket(Item),
    /// `{loses <Tokens>}`: the four Metallic Tokens a `[Magno-Gone]` loses
    /// (Rule 1.4.45, RULINGS E78), e.g. `{loses 2Go,2Si}`.
    Loses(TokenList),
    /// `{attracts <Colour> from <Player>|<Station>}`: the Metallic Token an
    /// `[Attracting]` takes from one Player or one Token Stack (Rule
    /// 1.4.45, RULINGS E78); one per source.
    Attracts {
        /// The colour chosen.
        colour: Colour,
        /// The Player, or the station of the Stack, it is taken from.
        from: String,
    },
    /// `{specifies <N>}`: the number, 0 to 80, a `[Finding]` at the Lost
    /// Property Office adds to its d20 (Rule 1.7.53).
    Specifies(u32),
    /// `{Pick-up <Station>, Destination <Station>}`: the two stations a
    /// `[Courier Call (Fixed)]` selects (Rule 1.11.2, RULINGS E86), as the
    /// GSD's Courier box writes them.
    Courier {
        /// The Pick-Up Station.
        pickup: Target,
        /// The Destination Station.
        destination: Target,
    },
    /// `{magnifies <S|L|R|Q|Z> for <Player>|<Station>|<Line>}`: the
    /// Fosdyke Requirement component a `[Magnify]` loosens by one on the
    /// Turn's Actions operating on that object (Rule 1.4.48, RULINGS E79).
    Magnifies {
        /// The component's class letter.
        class: char,
        /// The object as written: a Player, a station or a Line Code.
        on: String,
    },
    /// `{Gambit: <step> -> <step> -> ...; cost <Tokens>}`: the station
    /// attributes and the cost a `[Declaring the <Name> Gambit]` declares
    /// (Rule 1.18.1, RULINGS E114).
    Gambit {
        /// The steps, oldest first.
        steps: Vec<super::gambit::Step>,
        /// The cost recorded for the Gambit.
        cost: TokenList,
    },
    /// `{gains <Tokens>}`: the gain a `[Using the <Name> Gambit]` shows in
    /// the Comments (Rule 1.18.3, RULINGS E118).
    Gains(TokenList),
}

/// What a `{claims ...}` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Claim {
    /// A Token of this colour: `Red`, `a Red Token`, `1 Red`.
    Token(Colour),
    /// A Possession.
    Possession(Item),
}

/// What a `{recycles ...}` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Recycle {
    /// `3 Red` or `3Re`: Tokens of one colour.
    Tokens(u32, Colour),
    /// A Possession.
    Possession(Item),
}

/// Why a directive did not read: the byte offset in the comment, what was
/// expected, and the nearest station names.
pub(crate) type DirectiveErr = (usize, String, Vec<String>);

/// directive = claims | lv | pays | upkeep | waits | rolled | gives | cascades | destroys
///           | takes | plays | yodels | recycles | tokens-to
///           | generates | tithes | rat-to | into-nantucket
///           | out-of-nantucket | loses | attracts | magnifies
///           | gambit | gains
///
/// `Ok(None)`: the comment is prose.
pub(crate) fn directive(text: &str, map: &Map) -> Result<Option<Directive>, DirectiveErr> {
    let words: Vec<&str> = text.split_whitespace().take(3).collect();
    let first = words.first().map(|w| w.to_ascii_lowercase());
    let second = words.get(1).map(|w| w.to_ascii_lowercase());
    let Some(first) = first else {
        return Ok(None);
    };
    // The rest after the keyword(s): `n` words in.
    let rest_after = |n: usize| -> (usize, &str) {
        let mut at = 0;
        for _ in 0..n {
            let t = &text[at..];
            let start = at + (t.len() - t.trim_start().len());
            let end = text[start..]
                .find(char::is_whitespace)
                .map_or(text.len(), |e| start + e);
            at = end;
        }
        let t = &text[at..];
        let start = at + (t.len() - t.trim_start().len());
        (
            start,
            text[start..].trim_end().trim_end_matches('.').trim_end(),
        )
    };
    let d = match (first.as_str(), second.as_deref()) {
        ("claims", _) => claims(rest_after(1), map)?,
        ("lv", _) => Directive::Lv(number(rest_after(1), "a number, the new LV: {LV 3}")?),
        ("pays", _) => Directive::Pays(pays(rest_after(1))?),
        ("upkeep", _) => Directive::Upkeep(colour(
            rest_after(1),
            "the colour of Piece B's upkeep: {upkeep Bronze} (2 Bronze) or {upkeep Red} (1 Red)",
        )?),
        ("waits", _) => Directive::Waits(waits(rest_after(1))?),
        ("rolled", Some(w)) if is_draw_name(w) => {
            let (at, r) = rest_after(2);
            Directive::RolledNamed {
                name: w.to_ascii_lowercase(),
                value: number((at, r), "the number rolled: {rolled courier-pickup 123}")?,
            }
        }
        ("rolled", _) => {
            // Quirk: players write "rolled a 4" as often as "rolled 4".
            let (at, r) = rest_after(1);
            let (at, r) = match r.strip_prefix("a ").or_else(|| r.strip_prefix("A ")) {
                Some(n) => (at + 2, n.trim_start()),
                None => (at, r),
            };
            Directive::Rolled(number((at, r), "the number rolled: {rolled 4}")?)
        }
        ("gives", _) => {
            let (at, r) = rest_after(1);
            Directive::Gives(parse_token_list(r).ok_or_else(|| {
                (
                    at,
                    "the Tokens given, e.g. {gives 2Re,1Bu}".to_string(),
                    vec![],
                )
            })?)
        }
        ("cascades", _) => {
            let (at, r) = rest_after(1);
            Directive::Cascades(parse_token_list(&r.replace(' ', "")).ok_or_else(|| {
                (
                    at,
                    "the Plastic Tokens transferred to the Cascade's focus, e.g. {cascades 2Re,1Bk}"
                        .to_string(),
                    vec![],
                )
            })?)
        }
        ("destroys", _) => Directive::Destroys(colour(
            rest_after(1),
            "the colour of the Token destroyed: {destroys Red}",
        )?),
        ("takes", _) => Directive::Takes(colour(
            rest_after(1),
            "the colour of the Token taken: {takes Red}",
        )?),
        ("plays", _) => {
            let (at, r) = rest_after(1);
            Directive::Plays(item(r, map).map_err(|e| {
                (
                    at + e.2,
                    format!("the instrument played: {{plays Guitar}} ({})", e.0),
                    e.1,
                )
            })?)
        }
        ("yodels" | "yodel" | "yodelling" | "yodeling", _) => {
            let (at, r) = rest_after(1);
            if !r.is_empty() {
                return Err((at, "nothing after `yodels`".into(), vec![]));
            }
            Directive::Yodels
        }
        ("recycles", _) => Directive::Recycles(recycles(rest_after(1), map)?),
        ("generates", _) => Directive::Generates(colour(
            rest_after(1),
            "the colour of the Token generated: {generates Gold}",
        )?),
        ("tithes", _) => tithes(rest_after(1))?,
        ("rat", Some("to")) => {
            let (at, r) = rest_after(2);
            if r.is_empty() {
                return Err((at, "the Player given the Rat: {Rat to Bob}".into(), vec![]));
            }
            Directive::RatTo(r.to_string())
        }
        ("tokens", Some("to")) => tokens_to(rest_after(2), map)?,
        ("into", Some("nantucket")) => {
            Directive::IntoNantucket(nantucket_item(rest_after(2), map)?)
        }
        ("out", Some("of"))
            if text
                .split_whitespace()
                .nth(2)
                .is_some_and(|w| w.eq_ignore_ascii_case("nantucket")) =>
        {
            Directive::OutOfNantucket(nantucket_item(rest_after(3), map)?)
        }
        ("loses", _) => {
            let (at, r) = rest_after(1);
            Directive::Loses(parse_token_list(&r.replace(' ', "")).ok_or_else(|| {
                (
                    at,
                    "the Tokens lost, e.g. {loses 2Go,2Si}".to_string(),
                    vec![],
                )
            })?)
        }
        ("attracts", _) => attracts(rest_after(1))?,
        ("gambit" | "gambit:" | "manoeuvre" | "manoeuvre:", _) => {
            let (at, r) = rest_after(1);
            let r = if first.ends_with(':') {
                r
            } else {
                r.strip_prefix(':').unwrap_or(r)
            };
            super::gambit::gambit_directive((at, r), map)?
        }
        ("gains", _) => {
            let (at, r) = rest_after(1);
            Directive::Gains(parse_token_list(r).ok_or_else(|| {
                (
                    at,
                    "the Tokens gained, e.g. {gains 1Go,2Si}".to_string(),
                    vec![],
                )
            })?)
        }
        ("magnifies", _) => magnifies(rest_after(1))?,
        ("specifies", _) => Directive::Specifies(number(
            rest_after(1),
            "the number, zero to eighty, added to the d20: {specifies 40}",
        )?),
        ("pick-up:" | "pick-up" | "pickup:" | "pickup", _) => courier(rest_after(1), map)?,
        ("spent", Some("tokens")) => {
            let (at, r) = rest_after(2);
            let lower = r.to_ascii_lowercase();
            if lower != "to" && !lower.starts_with("to ") {
                return Err((
                    at,
                    "`to` and the Stack's station: {spent Tokens to Euston}".into(),
                    vec![],
                ));
            }
            tokens_to(rest_after(3), map)?
        }
        _ => return Ok(None),
    };
    Ok(Some(d))
}

/// A draw's name in `{rolled <name> <N>}`: a letter, then letters, digits
/// and `-` (not the `a` of "rolled a 4").
fn is_draw_name(w: &str) -> bool {
    w.len() > 1
        && w.starts_with(|c: char| c.is_ascii_alphabetic())
        && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// claims = "claims" ( colour-claim | possession ) [ "from" ( player | "Token Stack" ) ]
fn claims((at, text): (usize, &str), map: &Map) -> Result<Directive, DirectiveErr> {
    if text.is_empty() {
        return Err((
            at,
            "what is claimed: {claims Red} or {claims Book from Rushton}".into(),
            vec![],
        ));
    }
    let lower = text.to_ascii_lowercase();
    let (what, from) = match lower.rfind(" from ") {
        Some(j) => (
            &text[..j],
            Some(text[j + " from ".len()..].trim().to_string()),
        ),
        None => (text, None),
    };
    if from.as_deref().is_some_and(str::is_empty) {
        return Err((at + text.len(), "who the claim is from".into(), vec![]));
    }
    let what = what.trim();
    let claim = match token_colour(what) {
        Some(c) => Claim::Token(c),
        None => Claim::Possession(item(what, map).map_err(|e| {
            (
                at + e.2,
                format!("a Token colour or a Possession ({})", e.0),
                e.1,
            )
        })?),
    };
    Ok(Directive::Claims { what: claim, from })
}

/// The Token colour a claim names: `Red`, `a Red Token`, `1 Red`.
fn token_colour(what: &str) -> Option<Colour> {
    let w = what.trim();
    let w = w
        .strip_prefix("a ")
        .or_else(|| w.strip_prefix("A "))
        .or_else(|| w.strip_prefix("1 "))
        .unwrap_or(w);
    let w = w
        .strip_suffix(" Token")
        .or_else(|| w.strip_suffix(" token"))
        .unwrap_or(w);
    Colour::parse(w)
}

fn number((at, text): (usize, &str), expected: &str) -> Result<u32, DirectiveErr> {
    text.parse::<u32>()
        .ok()
        .filter(|n| *n <= 9999)
        .ok_or_else(|| (at, expected.to_string(), vec![]))
}

fn colour((at, text): (usize, &str), expected: &str) -> Result<Colour, DirectiveErr> {
    Colour::parse(text).ok_or_else(|| (at, expected.to_string(), vec![]))
}

/// pays = "pays" [ "10" ] colour [ "Tokens" ]
fn pays((at, text): (usize, &str)) -> Result<Colour, DirectiveErr> {
    let t = text.strip_prefix("10 ").unwrap_or(text).trim();
    let t = t
        .strip_suffix(" Tokens")
        .or_else(|| t.strip_suffix(" tokens"))
        .unwrap_or(t);
    Colour::parse(t).ok_or_else(|| {
        (
            at,
            "the colour paid: {pays Red} or {pays 10 Red Tokens}".to_string(),
            vec![],
        )
    })
}

/// waits = "waits" ( hhmm | amount unit { [","|"and"] amount unit } )
fn waits((at, text): (usize, &str)) -> Result<u32, DirectiveErr> {
    parse_wait(text).ok_or_else(|| {
        (
            at,
            "a length of time: {waits 0130} or {waits 2 hours}".to_string(),
            vec![],
        )
    })
}

/// recycles = "recycles" ( count colour | tokens | possession )
fn recycles((at, text): (usize, &str), map: &Map) -> Result<Recycle, DirectiveErr> {
    if let Some(list) = parse_token_list(&text.replace(' ', "")).filter(|l| l.0.len() == 1) {
        let (n, c) = list.0[0];
        return Ok(Recycle::Tokens(n, c));
    }
    item(text, map).map(Recycle::Possession).map_err(|e| {
        (
            at + e.2,
            format!(
                "what is Recycled: {{recycles 3 Red}} or {{recycles Book}} ({})",
                e.0
            ),
            e.1,
        )
    })
}

/// tithes = "tithes" , colour , "from" , player
fn tithes((at, text): (usize, &str)) -> Result<Directive, DirectiveErr> {
    let expected = || {
        (
            at,
            "a colour and the Player it is taken from: {tithes Red from Bob}".to_string(),
            vec![],
        )
    };
    let (colour, from) = colour_from(text).ok_or_else(expected)?;
    Ok(Directive::Tithes {
        colour,
        from: from.to_string(),
    })
}

/// `colour from who` (tithes, attracts): the colour and who, or `None`.
fn colour_from(text: &str) -> Option<(Colour, &str)> {
    let (c, rest) = text.split_once(char::is_whitespace)?;
    let colour = Colour::parse(c)?;
    let rest = rest.trim_start();
    let from = rest
        .strip_prefix("from ")
        .or_else(|| rest.strip_prefix("From "))
        .map(str::trim)
        .filter(|f| !f.is_empty())?;
    Some((colour, from))
}

/// into-nantucket = "into Nantucket" , item ; out-of-nantucket = "out of Nantucket" , item
fn nantucket_item((at, text): (usize, &str), map: &Map) -> Result<Item, DirectiveErr> {
    item(text, map).map_err(|e| {
        (
            at + e.2,
            format!(
                "the Possession moved: {{into Nantucket Rover Card}} ({})",
                e.0
            ),
            e.1,
        )
    })
}

/// attracts = "attracts" , colour , "from" , ( player | station )
fn attracts((at, text): (usize, &str)) -> Result<Directive, DirectiveErr> {
    let expected = || {
        (
            at,
            "a colour and the Player or Stack's station it is taken from: {attracts Gold from Bob}"
                .to_string(),
            vec![],
        )
    };
    let (colour, from) = colour_from(text).ok_or_else(expected)?;
    Ok(Directive::Attracts {
        colour,
        from: from.to_string(),
    })
}

/// magnifies = "magnifies" , ( "S" | "L" | "R" | "Q" | "Z" ) , "for" , ( player | station | line-code )
fn magnifies((at, text): (usize, &str)) -> Result<Directive, DirectiveErr> {
    let expected = || {
        (
            at,
            "a Fosdyke class (S, L, R, Q or Z) and what the Actions operate on: {magnifies S for Bob}"
                .to_string(),
            vec![],
        )
    };
    let (c, rest) = text.split_once(char::is_whitespace).ok_or_else(expected)?;
    let class = match c {
        "S" | "L" | "R" | "Q" | "Z" => c.chars().next().ok_or_else(expected)?,
        _ => return Err(expected()),
    };
    let rest = rest.trim_start();
    let on = rest
        .strip_prefix("for ")
        .or_else(|| rest.strip_prefix("For "))
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .ok_or_else(expected)?;
    Ok(Directive::Magnifies {
        class,
        on: on.to_string(),
    })
}

/// courier = ( "Pick-up" | "Pickup" ) , [ ":" ] , station , [ "," ] , "Destination" , [ ":" ] , station
fn courier((at, text): (usize, &str), map: &Map) -> Result<Directive, DirectiveErr> {
    let expected = "the two stations: {Pick-up Acton Town, Destination Upminster}";
    let text = text.strip_prefix(':').unwrap_or(text);
    let lower = text.to_ascii_lowercase();
    let Some(d) = lower.find("destination") else {
        return Err((at, expected.to_string(), vec![]));
    };
    let pick = text[..d].trim().trim_end_matches(',').trim();
    let dest = text[d + "destination".len()..].trim_start();
    let dest = dest.strip_prefix(':').unwrap_or(dest).trim();
    let read = |s: &str, what: &str| {
        read_target(s, map).map_err(|e| (at, format!("{} for the {what} Station", e.0), e.1))
    };
    Ok(Directive::Courier {
        pickup: read(pick, "Pick-Up")?,
        destination: read(dest, "Destination")?,
    })
}

/// tokens-to = ["spent"] "Tokens to" station
fn tokens_to((at, text): (usize, &str), map: &Map) -> Result<Directive, DirectiveErr> {
    read_target(text, map)
        .map(Directive::TokensTo)
        .map_err(|e| (at, format!("{} for the spent Tokens' Stack", e.0), e.1))
}

/// A length of Game Time: `0130` (hours and minutes), or amounts with
/// units, `2 hours`, `90 minutes`, `1 day 3 hours`, `45 mins`.
pub(crate) fn parse_wait(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()) {
        let (h, m) = (
            text[..2].parse::<u32>().ok()?,
            text[2..].parse::<u32>().ok()?,
        );
        return (m < 60).then_some(h * 60 + m);
    }
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("and"))
        .collect();
    if words.is_empty() || words.len() % 2 != 0 {
        return None;
    }
    let mut total: u32 = 0;
    for pair in words.chunks(2) {
        let n: u32 = pair[0].parse().ok()?;
        let unit = match pair[1].to_ascii_lowercase().as_str() {
            "minute" | "minutes" | "min" | "mins" => 1,
            "hour" | "hours" | "hr" | "hrs" => 60,
            "day" | "days" => 24 * 60,
            "week" | "weeks" => 7 * 24 * 60,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests;
