//! Possessions and their items (`possession`, `item` in
//! `grammar/gsd.ebnf`): Hats, Papers, Stubs and the goods of
//! `grammar/possessions.toml`.

use super::*;
use crate::gsd::goods::{Good, Quality};

/// possession = "*" item "*" | "(" item ")" | item   (Rules 1.4.12, 1.4.15, 1.4.30)
/// An item's error: what was expected, nearest station names, and the byte
/// offset in the item's text where the problem is.
pub(crate) type ItemErr = (String, Vec<String>, usize);

pub(crate) fn possession(text: &str, map: &Map) -> Result<Possession, ItemErr> {
    let lead = text.len() - text.trim_start().len();
    let mut t = text.trim();
    let mut start = lead;
    let mut worn = false;
    let mut nantucket = false;
    if t.len() > 2
        && t.starts_with('(')
        && t.ends_with(')')
        && split_top_level(&t[1..t.len() - 1], ',').len() == 1
    {
        nantucket = true;
        let inner = &t[1..t.len() - 1];
        start += 1 + (inner.len() - inner.trim_start().len());
        t = inner.trim();
    }
    if t.len() > 2 && t.starts_with('*') && t.ends_with('*') {
        worn = true;
        let inner = &t[1..t.len() - 1];
        start += 1 + (inner.len() - inner.trim_start().len());
        t = inner.trim();
    }
    let item = item(t, map).map_err(|(m, s, off)| (m, s, start + off))?;
    Ok(Possession {
        item,
        worn,
        nantucket,
    })
}

/// item = "Hat" "(" letter ")" | "Hats" "(" letters ")" | day "'s Paper" | station "Stub" | "Toff Clamp" "(" station ")" | name { "*" }
pub(crate) fn item(t: &str, map: &Map) -> Result<Item, ItemErr> {
    let lead = t.len() - t.trim_start().len();
    let t = t.trim();
    if t.is_empty() {
        return Err(("a possession".into(), vec![], 0));
    }
    let lower = t.to_ascii_lowercase();
    for kw in ["hats", "hat"] {
        if lower.starts_with(kw) {
            let rest = t[kw.len()..].trim();
            if rest.starts_with('(') && rest.ends_with(')') {
                let open = lead + t.find('(').unwrap_or(0);
                return hat_letters(&rest[1..rest.len() - 1], open);
            }
        }
    }
    if let Some(day) = lower
        .strip_suffix("'s paper")
        .or_else(|| lower.strip_suffix("\u{2019}s paper"))
    {
        if let Some(d) = parse_day(day) {
            return Ok(Item::Paper(d));
        }
    }
    if let Some(day) = lower.strip_suffix(" rover card") {
        if let Some(d) = parse_day(day) {
            return Ok(Item::Rover(d));
        }
    }
    // `Toff Clamp (Euston)`: the Station a Toff Clamp points at (Rule
    // 1.4.44, RULINGS E64).
    if let Some(head) = lower
        .strip_prefix("toff clamp (")
        .filter(|r| r.ends_with(')'))
        .map(|_| &t["toff clamp (".len()..t.len() - 1])
    {
        return match place(head, map) {
            Ok((name, Place::Station(at))) => Ok(Item::Toff { name, at }),
            Ok((_, Place::Ghost(_))) => Err((
                "a station of the 1999 map in `Toff Clamp (...)` (Rule 1.4.44)".to_string(),
                vec![],
                lead,
            )),
            Err(e) => Err((
                "a station of the 1999 map in `Toff Clamp (...)` (Rule 1.4.44)".to_string(),
                e.1,
                lead,
            )),
        };
    }
    // Quirk: "Euston Ticket Stub" for "Euston Stub".
    let stub_head = t
        .strip_suffix(" Ticket Stub")
        .or_else(|| {
            lower
                .strip_suffix(" ticket stub")
                .map(|_| &t[..t.len() - 12])
        })
        .or_else(|| t.strip_suffix(" Stub"))
        .or_else(|| lower.strip_suffix(" stub").map(|_| &t[..t.len() - 5]));
    if let Some(head) =
        stub_head.filter(|h| !h.trim().is_empty() && !h.eq_ignore_ascii_case("ticket"))
    {
        // A Ghost Station sells no Stub: only a station of the map.
        let found = place(head, map).and_then(|(name, p)| match p {
            Place::Station(at) => Ok(Item::Stub { name, at }),
            Place::Ghost(_) => Err(StationErr(String::new(), vec![])),
        });
        return found.map_err(|e| {
            (
                "a station of the 1999 map before `Stub` (Rule 1.7.33)".to_string(),
                e.1,
                lead,
            )
        });
    }
    let stars = t.chars().rev().take_while(|c| *c == '*').count();
    let name = t[..t.len() - stars].trim();
    let balanced = name.chars().try_fold(0i32, |d, c| match c {
        '(' => Some(d + 1),
        ')' if d == 0 => None,
        ')' => Some(d - 1),
        _ => Some(d),
    }) == Some(0);
    // A name that could read as a mark (worn, Nantucket) or split a list is
    // refused rather than guessed at.
    if name.is_empty()
        || !balanced
        || name.starts_with(['(', '*'])
        || name.contains(['|', '{', '}', '[', ']', ','])
        || name.chars().any(char::is_control)
    {
        return Err(("a possession's name".into(), vec![], lead));
    }
    named(name, stars.min(255) as u8).ok_or_else(|| {
        (
            "a Possession of Volume 1 (grammar/possessions.toml)".into(),
            Good::suggest(name),
            lead,
        )
    })
}

/// The Hats of `Hats (A, C)` by their letters (Rule 1.4.6); `open` is the
/// byte offset of the `(` before `letters`.
fn hat_letters(letters: &str, open: usize) -> Result<Item, ItemErr> {
    let mut hats: Vec<Hat> = Vec::new();
    for (i, c) in letters.char_indices() {
        if c.is_whitespace() || c == ',' {
            continue;
        }
        let at = open + 1 + i;
        let h = Hat::from_letter(c).ok_or_else(|| {
            (
                "a Hat letter (A B C H O S T V, Rule 1.4.6)".to_string(),
                vec![],
                at,
            )
        })?;
        if hats.contains(&h) {
            return Err(("each Hat once".to_string(), vec![], at));
        }
        hats.push(h);
    }
    if hats.is_empty() {
        return Err(("at least one Hat letter".into(), vec![], open));
    }
    hats.sort();
    Ok(Item::Hats(hats))
}

/// A Possession written by its name: a kind of `grammar/possessions.toml`
/// by name or alias, a Zone Pass of zone 2 to 6, a Hat by its category
/// (`Compass Hat`, `Hat (Compass)`), or an Electrical kind with its state
/// (`Vacuum Cleaner (On)`).
fn named(name: &str, stars: u8) -> Option<Item> {
    let lower = name.to_ascii_lowercase();
    let good = |good| Item::Good {
        good,
        stars,
        on: false,
        n: None,
    };
    if let Some(z) = lower
        .strip_prefix("zone ")
        .and_then(|r| r.strip_suffix(" pass"))
        .and_then(|z| z.trim().parse::<u8>().ok())
    {
        return match z {
            1 => Some(good(Good::Zone1Pass)),
            2..=6 => Some(Item::ZonePass(z)),
            _ => None,
        };
    }
    if let Some(g) = Good::from_name(name) {
        return Some(good(g));
    }
    if let Some(h) = hat_category(&lower) {
        return Some(Item::Hats(vec![h]));
    }
    for (suffix, on) in [(" (on)", true), (" (off)", false)] {
        if let Some(base) = lower.strip_suffix(suffix) {
            let (g, n) = Good::from_name(base)
                .map(|g| (g, None))
                .or_else(|| numbered(base).map(|(g, n)| (g, Some(n))))
                .filter(|(g, _)| g.is(Quality::Electrical))?;
            return Some(Item::Good {
                good: g,
                stars,
                on,
                n,
            });
        }
    }
    let (g, n) = numbered(&lower)?;
    Some(Item::Good {
        good: g,
        stars,
        on: false,
        n: Some(n),
    })
}

/// A numbered kind with its number (Rule 1.4.46): `Remote Control 2`,
/// `Radio Clamp 2`, `Radio Control 2`.
fn numbered(lower: &str) -> Option<(Good, u32)> {
    let (base, n) = lower.trim().rsplit_once(' ')?;
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = n.parse::<u32>().ok().filter(|n| *n > 0)?;
    Some((Good::numbered(base)?, n))
}

/// A Hat written by its category (Rule 1.4.6): `Compass Hat`, `Hat (Compass)`.
fn hat_category(lower: &str) -> Option<Hat> {
    let cat = lower.strip_suffix(" hat").or_else(|| {
        lower
            .strip_prefix("hat (")
            .and_then(|r| r.strip_suffix(')'))
    })?;
    Some(match cat.trim() {
        "a-z" | "a to z" | "a" => Hat::AToZ,
        "british rail" | "br" => Hat::BritishRail,
        "compass" => Hat::Compass,
        "terminus" => Hat::Terminus,
        "verdant" => Hat::Verdant,
        "hard" => Hat::Hard,
        "silly" => Hat::Silly,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toff_clamp_carries_its_station_when_written() {
        let map = Map::london_1999();
        let euston = map.find("Euston").unwrap();
        for text in ["Toff Clamp (Euston)", "toff clamp (euston)"] {
            assert_eq!(
                item(text, map).unwrap(),
                Item::Toff {
                    name: "Euston".into(),
                    at: euston
                },
                "{text}"
            );
        }
        assert_eq!(
            crate::gsd::render::item_text(&item("Toff Clamp (euston)", map).unwrap()),
            "Toff Clamp (Euston)"
        );
        assert_eq!(item("Toff Clamp", map).unwrap().good(), Good::ToffClamp);
        let (expected, _, _) = item("Toff Clamp (Nowhere)", map).unwrap_err();
        assert!(expected.contains("Toff Clamp"), "{expected}");
        // A Ghost Station is no place to point at.
        assert!(item("Toff Clamp (British Museum)", map).is_err());
    }

    #[test]
    fn a_numbered_kind_carries_its_number_and_state() {
        let map = Map::london_1999();
        let on = item("Remote Control 2 (On)", map).unwrap();
        assert_eq!(
            (on.good(), on.number(), on.is_on()),
            (Good::RemoteControl, Some(2), true)
        );
        let alias = item("Radio Control 12", map).unwrap();
        assert_eq!(
            (alias.good(), alias.number()),
            (Good::RemoteControl, Some(12))
        );
        let clamp = item("Radio Clamp 3", map).unwrap();
        assert_eq!((clamp.good(), clamp.number()), (Good::RadioClamp, Some(3)));
        // Only the numbered kinds take a number, and it starts at 1.
        assert!(item("Book 2", map).is_err());
        assert!(item("Radio Clamp 0", map).is_err());
    }
}
