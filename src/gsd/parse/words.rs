//! The words inside tables, boxes and Plays: player names, counts,
//! Token codes, stations and their Line Codes, `via:` lists and game times.

use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{map_res, opt, recognize};
use nom::multi::separated_list1;
use nom::sequence::preceded;
use nom::Parser;

use super::*;

/// Player names: no `: | [ ] { } *`, not empty, at most 40 characters.
pub(super) fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a player's name".into());
    }
    if name.chars().count() > 40
        || name.contains([':', '|', '[', ']', '{', '}', '*', ',', '(', ')'])
        || name.chars().any(char::is_control)
    {
        return Err("a player's name (letters, digits, spaces, - ' .)".into());
    }
    Ok(())
}

/// A player's name as written in the Token Table, the Plays and the Luggage
/// Rack, read the same wherever a client typeset it (quirk-typeset-name):
/// curly apostrophes are `'`, Unicode hyphens `-`, runs of spaces one.
pub(super) fn player_name(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['\u{2018}', '\u{2019}', '\u{02bc}'], "'")
        .replace(['\u{2010}', '\u{2011}'], "-")
}

pub(super) fn strip_keyword<'t>(t: &'t str, kw: &str) -> Option<&'t str> {
    let head = t.get(..kw.len())?;
    if !head.eq_ignore_ascii_case(kw) {
        return None;
    }
    let rest = &t[kw.len()..];
    (rest.is_empty() || rest.starts_with([' ', ':'])).then_some(rest)
}

/// Splits at `sep` outside parentheses.
pub(super) fn split_top_level(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            // "Heathrow Terminals 1, 2, 3", the ruleset's own spelling,
            // is one station, not three items of a list.
            c if c == sep && depth <= 0 && !terminals_comma(&s[start..i], &s[i + 1..]) => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Whether a `,` between `before` and `after` is inside "Terminals 1, 2, 3".
fn terminals_comma(before: &str, after: &str) -> bool {
    before.trim_end().ends_with(|c: char| c.is_ascii_digit())
        && after.trim_start().starts_with(|c: char| c.is_ascii_digit())
        && before.to_ascii_lowercase().contains("terminals")
}

pub(super) fn parse_charge(s: &str) -> Option<i32> {
    let t = s.trim().trim_end_matches('%').trim();
    // A typeset minus (U+2212) or dash is a minus.
    let t = &t.replacen(['\u{2212}', '\u{2013}'], "-", 1);
    let t = t.strip_prefix('+').unwrap_or(t);
    t.parse().ok().filter(|c: &i32| (-999..=999).contains(c))
}

/// A whole number from 0 to `max`.
pub(super) fn at_most(s: &str, max: u32) -> Option<u32> {
    s.parse().ok().filter(|n| *n <= max)
}

/// The largest LV a GSD may state: far beyond any reachable one, and small
/// enough that no arithmetic on it overflows.
pub const MAX_LV: u32 = 999;
/// The largest Token count a GSD may state (per colour, per player).
pub const MAX_COUNT: u32 = 9999;
/// The most Line Codes a `via:` list may hold: each Move Portion covers at
/// least one station, and no route is searched beyond 40.
pub const MAX_VIA: usize = 40;

/// `BrSiGo` -> colours; spaces and commas between codes are allowed.
pub(crate) fn token_codes(s: &str) -> Option<Vec<Colour>> {
    let compact: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    if compact.len() % 2 != 0 || !compact.is_ascii() {
        return None;
    }
    (0..compact.len())
        .step_by(2)
        .map(|i| Colour::parse(&compact[i..i + 2]))
        .collect()
}

/// Resolves a station name to its canonical spelling (Ghost Stations too).
pub(crate) fn station(name: &str, map: &Map) -> Result<String, StationErr> {
    place(name, map).map(|(n, _)| n)
}

/// Resolves a station name to its canonical spelling and what it is.
pub(crate) fn place(name: &str, map: &Map) -> Result<(String, Place), StationErr> {
    let name = name.trim();
    if name.is_empty() {
        return Err(StationErr("a station name".into(), vec![]));
    }
    place_quiet(name, map).ok_or_else(|| {
        StationErr(
            "a station of the 1999 map".to_string(),
            map.suggest(name, 5),
        )
    })
}

/// Resolves a station name without computing suggestions: for parsers
/// trying alternatives.
pub(crate) fn station_quiet(name: &str, map: &Map) -> Option<String> {
    place_quiet(name, map).map(|(n, _)| n)
}

/// [`place`] without suggestions.
pub(crate) fn place_quiet(name: &str, map: &Map) -> Option<(String, Place)> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    match map.find(name) {
        Some(id) => Some((map.station(id).name.clone(), Place::Station(id))),
        None => map
            .find_ghost(name)
            .map(|g| (map.ghost(g).to_string(), Place::Ghost(g))),
    }
}

/// A Line Code, accepting `BK` for the Bakerloo.
pub(crate) fn read_line_code(s: &str) -> Option<LineCode> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("BK") {
        return Some(LineCode::BL);
    }
    LineCode::parse(t).filter(|_| t.len() == 2)
}

/// Reads `Moorgate (NT)`, `Moorgate NT` or `Moorgate`: a station with an
/// optional Line Code (Rule 1.2.0's destination form).
pub(crate) fn read_target(s: &str, map: &Map) -> Result<Target, StationErr> {
    let t = s.trim();
    let target = |(station, place): (String, Place), line| Target {
        station,
        place,
        line,
    };
    // "Station (LC)"
    if let Some(open) = t.rfind('(') {
        if t.ends_with(')') {
            let code = &t[open + 1..t.len() - 1];
            if let Some(line) = read_line_code(code) {
                return Ok(target(place(&t[..open], map)?, Some(line)));
            }
            // A Ghost Station's Line Code is GH (Rule 1.11.6): it names no line.
            if code.trim().eq_ignore_ascii_case("GH") {
                if let Some(p @ (_, Place::Ghost(_))) = place_quiet(&t[..open], map) {
                    return Ok(target(p, None));
                }
            }
        }
    }
    if let Some(p) = place_quiet(t, map) {
        return Ok(target(p, None));
    }
    // "Station LC"
    if let Some((head, code)) = t.rsplit_once(' ') {
        if let Some(line) = read_line_code(code) {
            if let Some(p) = place_quiet(head, map) {
                return Ok(target(p, Some(line)));
            }
        }
    }
    place(t, map).map(|p| target(p, None))
}

/// The canonical text of a target: `Moorgate (NT)` or `Moorgate`.
pub(crate) fn target_text(t: &Target) -> String {
    match t.line {
        Some(l) => format!("{} ({l})", t.station),
        None => t.station.clone(),
    }
}

// ---- nom productions for words ------------------------------------------

/// line-code = "BL" | "CN" | ... (Rule 1.17.4)
pub(super) fn line_code(i: &str) -> Res<'_, LineCode> {
    map_res(take_while1(|c: char| c.is_ascii_alphabetic()), |w: &str| {
        read_line_code(w).ok_or(())
    })
    .parse(i)
}

/// via-list = "via" , [ ":" ] , line-code , { "," , line-code }
pub(super) fn via_list(i: &str) -> Res<'_, Vec<LineCode>> {
    preceded(
        (tag_no_case("via"), space0, opt(char(':')), space0),
        separated_list1((space0, char(','), space0), line_code),
    )
    .parse(i)
}

/// hhmm = 4 digits, 0000-2359 (2400 is not a time of day)
fn hhmm(i: &str) -> Res<'_, u16> {
    map_res(recognize(digit1), |d: &str| {
        if d.len() != 4 {
            return Err(());
        }
        let (h, m): (u16, u16) = (
            d[..2].parse().map_err(|_| ())?,
            d[2..].parse().map_err(|_| ())?,
        );
        if h < 24 && m < 60 {
            Ok(h * 60 + m)
        } else {
            Err(())
        }
    })
    .parse(i)
}

/// game-time = day , hhmm , [ "*" ]; the `*` may stand anywhere in it.
pub(crate) fn game_time(t: &str) -> Option<GameTime> {
    let night_train = t.contains('*');
    let clean: String = t.chars().filter(|c| *c != '*').collect();
    let clean = clean.trim();
    let (day, rest) = clean.split_once(char::is_whitespace)?;
    let day = parse_day(day)?;
    let rest = rest.trim().replace(':', "");
    let (left, minutes) = hhmm(&rest).ok()?;
    left.trim().is_empty().then_some(GameTime {
        day,
        minutes,
        night_train,
    })
}

#[cfg(test)]
mod tests {
    use super::split_top_level;

    #[test]
    fn heathrow_terminals_1_2_3_is_one_item_of_a_list() {
        assert_eq!(
            split_top_level("Heathrow Terminals 1, 2, 3, Amersham, Bank (Peg)", ','),
            ["Heathrow Terminals 1, 2, 3", " Amersham", " Bank (Peg)"]
        );
        assert_eq!(split_top_level("1, 2, 3", ','), ["1", " 2", " 3"]);
    }
}
