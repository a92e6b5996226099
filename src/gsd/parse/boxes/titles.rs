//! A box's heading, however it is written: its names (`Disruptions`,
//! `Disrupted Services`, ...), Markdown's and Thunderbird's marks around
//! it, an underline, the Plays' own heading and the two-way state lines.

use super::*;

/// Every name of a box, folded (`fold_title`), and its canonical title.
pub(super) const TITLE_NAMES: [(&str, &str); 16] = [
    ("disruptions", "Disruptions"),
    ("disruptedservices", "Disruptions"),
    ("gametime", "Game Time"),
    ("time", "Game Time"),
    ("wildstations", "Wild Stations"),
    ("wild", "Wild Stations"),
    ("courier", "Courier"),
    ("courierstations", "Courier"),
    ("tokenstacks", "Token Stacks"),
    ("stacks", "Token Stacks"),
    ("luggagerack", "Luggage Rack"),
    ("luggage", "Luggage Rack"),
    ("lost&found", "Lost & Found"),
    ("lostandfound", "Lost & Found"),
    ("lostfound", "Lost & Found"),
    ("lostnfound", "Lost & Found"),
];

/// Headings of the Plays, folded.
pub(super) const PLAYS_HEADINGS: [&str; 6] =
    ["plays", "play", "turns", "moves", "history", "playssofar"];

/// A heading's text without Markdown's marks: `### Disruptions`,
/// `**Game Time:** Wednesday 2340*` and Thunderbird's `*Title:*` are their
/// words; what follows the closing mark is the heading's content
/// (quirk-marked-heading).
pub(super) fn unmark(t: &str) -> std::borrow::Cow<'_, str> {
    let t = t.trim_start_matches('#').trim_start();
    for mark in ["**", "__", "*", "_"] {
        if let Some(rest) = t.strip_prefix(mark) {
            if let Some(close) = rest.find(mark) {
                let (head, after) = (&rest[..close], &rest[close + mark.len()..]);
                if !head.is_empty()
                    && !head.starts_with(' ')
                    && head.chars().any(char::is_alphabetic)
                {
                    let head = head.trim_end();
                    let sep = if head.ends_with(':') || after.trim().is_empty() {
                        ""
                    } else {
                        ":"
                    };
                    return format!("{head}{sep}{after}").into();
                }
            }
        }
    }
    t.into()
}

/// Lower case, letters, digits and `&` only: `Lost & Found` is `lost&found`.
pub(super) fn fold_title(t: &str) -> String {
    t.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '&')
        .collect()
}

/// The canonical title of a box, by any of its names.
pub(super) fn title_of(name: &str) -> Option<&'static str> {
    let key = fold_title(name);
    TITLE_NAMES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, title)| *title)
}

/// The box a misspelt heading meant: a full title within two edits of it,
/// or contained in it (`Current Disruptions`).
pub(super) fn near_title(name: &str) -> Option<&'static str> {
    let key = fold_title(name);
    if key.chars().count() < 4 {
        return None;
    }
    TITLE_NAMES
        .iter()
        .filter(|(k, _)| k.len() > 6)
        .find(|(k, _)| edit_distance(&key, k) <= 2 || key.contains(k))
        .map(|(_, title)| *title)
}

/// A heading's underline: `-----`, `=====` (quirk-borderless-box).
pub(super) fn is_underline(s: &str) -> bool {
    let t = s.trim();
    t.len() >= 3 && t.chars().all(|c| matches!(c, '-' | '=' | '~' | '_'))
}

/// A Token Stacks entry written `Station: tokens`, which reads like a
/// Play's head.
pub(super) fn stacks_entry(title: &str, t: &str) -> bool {
    title == "Token Stacks"
        && t.split_once(':').is_some_and(|(_, r)| {
            stacks::split_stacks(r)
                .iter()
                .all(|(n, tk)| n.is_none() && tk.is_some())
        })
}

/// A row without its list marker (`- `, `* `, `+ `, `• `).
pub(super) fn unlisted(t: &str) -> &str {
    for m in ["- ", "* ", "+ ", "\u{2022} "] {
        if let Some(rest) = t.strip_prefix(m) {
            return rest.trim_start();
        }
    }
    t
}

/// quirk-state-line: `Bridges: Up`, `Bridges: Down`, `Knip: In`,
/// `Knip: Out`, with their colon.
pub(super) fn state_line(name: &str, rest: &str) -> Option<Heading> {
    let words: Vec<String> = name
        .split_whitespace()
        .chain(rest.split_whitespace())
        .map(|w| w.to_lowercase())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        _ if rest.trim().is_empty() => None, // `Bridges Up` alone is a Disruption's entry
        ["bridges", "up"] => Some(Heading::State(Disruption::BridgesUp, true)),
        ["bridges", "down"] => Some(Heading::State(Disruption::BridgesUp, false)),
        ["knip", "in"] => Some(Heading::State(Disruption::Knip, true)),
        ["knip", "out"] => Some(Heading::State(Disruption::Knip, false)),
        _ => None,
    }
}
