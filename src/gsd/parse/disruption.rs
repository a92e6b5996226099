//! The Disruptions box's entries (`disruption`, `line-state` in
//! `grammar/gsd.ebnf`): marked stations, pegged segments, Line states.

use super::*;

/// disruption = station "(" mark ")" | segment "(Peg)" | line-code ":" line-state | keyword ...
pub(crate) fn disruption(item: &str, map: &Map) -> Result<Disruption, (String, Vec<String>)> {
    let t = item.trim();
    let fold: String = t
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let keywords = [
        ("in knip", Disruption::Knip),
        ("knip", Disruption::Knip),
        ("bridges up", Disruption::BridgesUp),
        ("parks and greens", Disruption::ParksAndGreens),
        ("parks & greens", Disruption::ParksAndGreens),
        ("gapminding", Disruption::Gapminding),
        ("venbacker ladder", Disruption::VenbackerLadder),
        ("dollis hill loop", Disruption::DollisHillLoop),
        ("sgronk", Disruption::Sgronk),
        ("sgronk!", Disruption::Sgronk),
        ("speed craze", Disruption::SpeedCraze),
        ("charge in", Disruption::ChargeSpiral(Spiral::Inwards)),
        ("charge out", Disruption::ChargeSpiral(Spiral::Outwards)),
        ("upcoming holiday", Disruption::UpcomingHoliday(None)),
    ];
    if let Some((_, d)) = keywords.iter().find(|(k, _)| *k == fold) {
        return Ok(d.clone());
    }
    if let Some(day) = fold
        .strip_prefix("upcoming holiday:")
        .or_else(|| fold.strip_prefix("upcoming holiday :"))
    {
        return parse_day(day)
            .map(|d| Disruption::UpcomingHoliday(Some(d)))
            .ok_or_else(|| {
                (
                    "a day after `Upcoming Holiday:` (Rule 1.13.7)".to_string(),
                    vec![],
                )
            });
    }
    if fold.starts_with("token cascade") {
        return token_cascade(t);
    }
    if let Some(colour) = fold.strip_suffix(" bock") {
        return Colour::parse(colour).map(Disruption::Bock).ok_or_else(|| {
            (
                "a token colour before `Bock` (Rule 1.8.8)".to_string(),
                vec![],
            )
        });
    }
    if let Some((lc, state)) = t.split_once(':') {
        if let Some(line) = read_line_code(lc) {
            return line_state(state.trim()).map(|state| Disruption::Line { line, state }).ok_or_else(|| {
                ("a Line State: Normal, One Way: <Direction>, Electrified, Power Failure!, Soaped or Speed Limit: <N> (Rule 1.20)".to_string(), vec![])
            });
        }
    }
    let expected = "a disruption: <Station> (Peg|Bulkhead|Maelberg|Damage|*Damage*|Defamed), <Station> to <Station> (<LC>) (Peg), <LC>: <Line State>, <Colour> Bock, Upcoming Holiday[: <Day>], In Knip, Bridges Up, Parks and Greens, Gapminding, Venbacker Ladder, Dollis Hill Loop, Sgronk, Speed Craze, Charge In, Charge Out or Token Cascade: <Player> (<N> Moves) (Rule 1.2.2)";
    let Some(open) = t.rfind('(') else {
        return Err((expected.to_string(), vec![]));
    };
    if !t.ends_with(')') {
        return Err((expected.to_string(), vec![]));
    }
    let mark_text = t[open + 1..t.len() - 1].trim();
    let head = t[..open].trim();
    let mark = StationMark::ALL
        .iter()
        .find(|(_, w)| w.eq_ignore_ascii_case(mark_text))
        .map(|(m, _)| *m);
    let Some(mark) = mark else {
        return Err((expected.to_string(), vec![]));
    };
    // A Pegged Line Segment: "A - B (LC) (Peg)".
    if mark == StationMark::Peg {
        if let Some(open2) = head.rfind('(') {
            if head.ends_with(')') {
                if let Some(line) = read_line_code(&head[open2 + 1..head.len() - 1]) {
                    let ends = head[..open2].trim();
                    let Some((a, b)) = ends.split_once(" - ").or_else(|| split_to(ends)) else {
                        return Err((
                            "a Line Segment `<Station> to <Station> (<LC>) (Peg)` (Rule 1.11.5)"
                                .into(),
                            vec![],
                        ));
                    };
                    let (a, b) = (
                        station(a, map).map_err(|e| (e.0, e.1))?,
                        station(b, map).map_err(|e| (e.0, e.1))?,
                    );
                    return Ok(Disruption::PeggedSegment {
                        from: a,
                        to: b,
                        line,
                    });
                }
            }
        }
    }
    let st = station(head, map).map_err(|e| (e.0, e.1))?;
    Ok(Disruption::Station { station: st, mark })
}

/// token-cascade = "Token Cascade" ":" player "(" digits ("Move" | "Moves") ")"
/// (Rules 1.7.36, 1.7.37; RULINGS.md E91). No comma: the box is
/// comma-separated.
fn token_cascade(t: &str) -> Result<Disruption, (String, Vec<String>)> {
    let expected = || {
        (
            "`Token Cascade: <Player> (<N> Moves)`: the focus Player and the Piece Moves made since the Cascade began (Rule 1.7.36)".to_string(),
            vec![],
        )
    };
    // The fold matched "token cascade": the first "cascade" ends it
    // (ASCII lowering keeps byte offsets).
    let at = t
        .to_ascii_lowercase()
        .find("cascade")
        .ok_or_else(expected)?
        + "cascade".len();
    let rest = t[at..].trim_start();
    let rest = rest.strip_prefix(':').ok_or_else(expected)?;
    let (focus, count) = rest.rsplit_once('(').ok_or_else(expected)?;
    let count = count.strip_suffix(')').ok_or_else(expected)?.trim();
    let focus = focus.trim();
    let lower = count.to_ascii_lowercase();
    let digits = lower
        .strip_suffix("moves")
        .or_else(|| lower.strip_suffix("move"))
        .ok_or_else(expected)?
        .trim();
    let bad_name = focus.is_empty() || focus.contains(['[', '{', '|', ':', '(', ')']);
    if bad_name || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(expected());
    }
    let moves = digits.parse::<u32>().map_err(|_| expected())?;
    Ok(Disruption::TokenCascade {
        focus: focus.to_string(),
        moves,
    })
}

/// Splits "A to B" at the word "to" (any case), as Rule 1.5.4 names a Line Segment.
fn split_to(s: &str) -> Option<(&str, &str)> {
    let lower = s.to_ascii_lowercase();
    let at = lower.find(" to ")?;
    Some((&s[..at], &s[at + 4..]))
}

/// line-state = "Normal" | "One Way" ":" direction | ... (Rule 1.20)
fn line_state(s: &str) -> Option<LineState> {
    let f = s.trim().to_lowercase();
    Some(match f.as_str() {
        "normal" => LineState::Normal,
        "electrified" => LineState::Electrified,
        "power failure!" | "power failure" => LineState::PowerFailure,
        "soaped" => LineState::Soaped,
        _ => {
            if let Some(d) = f
                .strip_prefix("one way")
                .map(|r| r.trim_start().trim_start_matches(':').trim())
            {
                const DIRS: [&str; 6] = ["N-S", "S-N", "E-W", "W-E", "Clockwise", "Anti-Clockwise"];
                let dir = DIRS.iter().find(|x| x.eq_ignore_ascii_case(d))?;
                LineState::OneWay(dir.to_string())
            } else if let Some(n) = f
                .strip_prefix("speed limit")
                .map(|r| r.trim_start().trim_start_matches(':').trim())
            {
                LineState::SpeedLimit(at_most(n, MAX_LV)?)
            } else {
                return None;
            }
        }
    })
}
