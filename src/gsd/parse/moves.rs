//! A Play's Move (`move`, `simple-move`, `spec` in `grammar/gsd.ebnf`):
//! one Piece's or two, to a station with its Line Codes, or Pass, Farkle,
//! Timeout.

use nom::bytes::complete::tag_no_case;
use nom::character::complete::{char, multispace0, space0};
use nom::Parser;

use super::*;

/// What `move_` read: the Move, the bytes it used, and for a Bifurcated
/// Move the byte range (in `s`) between Piece A's Move and `B:`, where
/// Neutral Actions and comments may stand (Rule 1.7.42).
pub(super) struct ReadMove {
    pub(super) mv: Move,
    pub(super) used: usize,
    pub(super) between: Option<(usize, usize)>,
}

/// move = "A:" simple-move { action | comment } "B:" simple-move | simple-move.
pub(super) fn move_(s: &str, base: usize, src: &Src, map: &Map) -> Result<ReadMove, ParseError> {
    if let Ok((rest, _)) = (
        tag_no_case::<_, _, nom::error::Error<&str>>("A"),
        space0,
        char(':'),
        space0,
    )
        .parse(s)
    {
        let a_start = s.len() - rest.len();
        // Piece B starts at " B:" (outside brackets).
        let b_at = find_piece_b(rest).ok_or_else(|| {
            src.error(
                base + a_start,
                "`B:` and the second Piece's Move (Rule 1.7.42)",
                base + a_start,
            )
        })?;
        let a_text = rest[..b_at].trim_end();
        let (a, a_used) = simple_move(a_text, base + a_start, src, map)?;
        let after_b = &rest[b_at..];
        let (r2, _) = (
            tag_no_case::<_, _, nom::error::Error<&str>>("B"),
            space0,
            char(':'),
            space0,
        )
            .parse(after_b)
            .map_err(|_| src.error(base + a_start + b_at, "`B:`", base + a_start + b_at))?;
        let b_start = s.len() - r2.len();
        let (b, used) = simple_move(r2, base + b_start, src, map)?;
        return Ok(ReadMove {
            mv: Move::Bifurcated(Box::new(a), Box::new(b)),
            used: b_start + used,
            between: Some((a_start + a_used, a_start + b_at)),
        });
    }
    let (mv, used) = simple_move(s, base, src, map)?;
    Ok(ReadMove {
        mv,
        used,
        between: None,
    })
}

/// Where Piece B's `B:` starts: a `B` after a space, outside brackets,
/// parentheses and comments, followed by `:`.
fn find_piece_b(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    let bytes = s.as_bytes();
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            'B' | 'b' if depth == 0 && i > 0 && bytes[i - 1] == b' ' => {
                let rest = s[i + 1..].trim_start();
                if rest.starts_with(':') {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// simple-move = station [ "(" spec ")" ] | "Pass" [ "(" position ")" ] | "Farkle" [...] | "Timeout"
fn simple_move(s: &str, base: usize, src: &Src, map: &Map) -> Result<(Move, usize), ParseError> {
    let word_end = s
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    let word = &s[..word_end];
    for (kw, which) in [("pass", 0), ("farkle", 1), ("timeout", 2)] {
        if word.eq_ignore_ascii_case(kw) {
            let rest = &s[word_end..];
            let t = rest.trim_start();
            let mut used = word_end;
            let mut position = None;
            if which < 2 && t.starts_with('(') {
                let close =
                    matching_paren(t).ok_or_else(|| src.error(base + used, "`)`", base + used))?;
                let inner = &t[1..close];
                let off = base + s.len() - t.len() + 1;
                position =
                    Some(read_target(inner, map).map_err(|StationErr(m, sg)| {
                        src.error(off, m, off).with_suggestions(sg)
                    })?);
                used = s.len() - t.len() + close + 1;
            }
            return Ok((
                match which {
                    0 => Move::Pass(position),
                    1 => Move::Farkle(position),
                    _ => Move::Timeout,
                },
                used,
            ));
        }
    }
    // A station: the longest prefix before a bracket that names a station.
    let stop = s.find(['[', '{']).unwrap_or(s.len());
    let region = &s[..stop];
    let Some(((station_name, dest_place), end)) = destination(region, map) else {
        let guess = region[..region.find('(').unwrap_or(region.len())].trim();
        let suggestions = station(guess, map).err().map(|e| e.1).unwrap_or_default();
        return Err(src
            .error_on(
                base,
                "a Move: a station of the 1999 map, Pass, Timeout or Farkle (Rule 1.5.0)",
                region,
            )
            .with_suggestions(suggestions));
    };
    let after = &s[end..];
    let t = after.trim_start();
    let spec_at = end + (after.len() - t.len());
    let bare = |station| Move::To {
        dest: Target {
            station,
            place: dest_place,
            line: None,
        },
        via: vec![],
        escalator_to: None,
    };
    if !t.starts_with('(') {
        return Ok((bare(station_name), end));
    }
    let close = matching_paren(t)
        .ok_or_else(|| src.error(base + spec_at, "`)` closing the Line Codes", base + spec_at))?;
    let inner = &t[1..close];
    // A Ghost Station's Line Code is GH (Rule 1.11.6): it names no line.
    if inner.trim().eq_ignore_ascii_case("GH") && matches!(dest_place, Place::Ghost(_)) {
        return Ok((bare(station_name), spec_at + close + 1));
    }
    let (line, via, escalator_to) = spec(inner, map).map_err(|(off, m, sg)| {
        src.error(base + spec_at + 1 + off, m, base + spec_at + 1 + off)
            .with_suggestions(sg)
    })?;
    Ok((
        Move::To {
            dest: Target {
                station: station_name,
                place: dest_place,
                line,
            },
            via,
            escalator_to,
        },
        spec_at + close + 1,
    ))
}

/// The station a Move's `region` starts with, and the bytes its name
/// takes: the name may end before a bracket, after one, or at the end.
fn destination(region: &str, map: &Map) -> Option<((String, Place), usize)> {
    let mut cands: Vec<usize> = region.match_indices('(').map(|(i, _)| i).collect();
    cands.extend(region.match_indices(')').map(|(i, _)| i + 1));
    cands.push(region.len());
    cands.sort_unstable();
    cands.dedup();
    let mut found = None;
    // Shortest first: "Kensington (Olympia)" is the only name with brackets.
    for &end in cands.iter() {
        let name = region[..end].trim();
        if name.is_empty() {
            continue;
        }
        if let Some(p) = place_quiet(name, map) {
            found = Some((p, end));
            break;
        }
    }
    found
}

fn matching_paren(t: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

type SpecErr = (usize, String, Vec<String>);

/// What a Move's parentheses say: its line, the via lines, the escalator end.
type SpecParts = (Option<LineCode>, Vec<LineCode>, Option<Target>);

/// spec = [ line-code ] , [ [","] "via" [":"] line-code { "," line-code } ] , [ "for" station ]
fn spec(inner: &str, map: &Map) -> Result<SpecParts, SpecErr> {
    let expected = "Line Codes such as `VC via: CN,NT` or `for Bank` (Rule 1.2.0)";
    let at = |rest: &str| inner.len() - rest.len();
    let (rest, _) = multispace0::<_, nom::error::Error<&str>>(inner)
        .map_err(|_| (0, expected.to_string(), vec![]))?;
    // The destination's Line Code, unless the spec starts with via/for.
    let starts_kw = |r: &str| {
        let l = r.to_lowercase();
        l.starts_with("via") || l.starts_with("for ")
    };
    let (rest, line) = if starts_kw(rest) || rest.is_empty() {
        (rest, None)
    } else {
        match line_code(rest) {
            Ok((r, lc)) => (r, Some(lc)),
            Err(_) => {
                return Err((
                    at(rest),
                    "a Line Code (BL CN CL DS EL HC JL MP NT PD VC WC DL)".to_string(),
                    vec![],
                ));
            }
        }
    };
    let rest = rest.trim_start();
    let rest = rest.strip_prefix(',').map(str::trim_start).unwrap_or(rest);
    let (rest, via) = if rest.to_lowercase().starts_with("via") {
        match via_list(rest) {
            Ok((r, v)) => (r, v),
            Err(_) => {
                return Err((
                    at(rest),
                    "Line Codes after `via:`, separated by commas".into(),
                    vec![],
                ))
            }
        }
    } else {
        (rest, vec![])
    };
    if via.len() > MAX_VIA {
        return Err((
            at(rest),
            format!("at most {MAX_VIA} Line Codes after `via:` (a route is at most 40 stations)"),
            vec![],
        ));
    }
    let rest = rest.trim_start();
    if let Some(after) = rest.strip_prefix(',') {
        // A via list that stops at something that is not a Line Code.
        let word = after.trim_start();
        return Err((
            at(word),
            "a Line Code (BL CN CL DS EL HC JL MP NT PD VC WC DL)".to_string(),
            vec![],
        ));
    }
    let (rest, escalator) = if let Ok((r, _)) = (
        tag_no_case::<_, _, nom::error::Error<&str>>("for"),
        char(' '),
    )
        .parse(rest)
    {
        let name = r.trim();
        match place(name, map) {
            Ok((station, place)) => (
                "",
                Some(Target {
                    station,
                    place,
                    line: None,
                }),
            ),
            Err(StationErr(m, s)) => return Err((at(r), m, s)),
        }
    } else {
        (rest, None)
    };
    let rest = rest.trim();
    if !rest.is_empty() {
        return Err((at(rest), expected.to_string(), vec![]));
    }
    if line.is_none() && via.is_empty() && escalator.is_none() {
        return Err((0, expected.to_string(), vec![]));
    }
    Ok((line, via, escalator))
}
