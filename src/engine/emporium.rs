//! The Emporium's goods (Rule 1.4.18), Garments (1.4.30) and sizes (1.4.31).

/// An Emporium good: name, price in Bronze, and qualities.
pub(crate) struct Good {
    pub name: &'static str,
    pub price: u32,
    pub qualities: &'static [&'static str],
}

const fn g(name: &'static str, price: u32, qualities: &'static [&'static str]) -> Good {
    Good {
        name,
        price,
        qualities,
    }
}

/// Rule 1.4.18's table. Zone Passes and Stubs are matched by pattern.
pub(crate) const GOODS: &[Good] = &[
    g("All Day Rover", 3, &["Small", "Papery"]),
    g("Book", 3, &["Papery"]),
    g("British Rail Coffee", 3, &["Edible"]),
    g("Casiotone", 3, &["Musical"]),
    g("Chocolate Bar", 1, &["Small", "Edible", "Dispensable"]),
    g("Drum", 2, &["Musical"]),
    g("Gloves", 3, &["Small", "Garment"]),
    g("Guitar", 4, &["Musical"]),
    g("Harmonica", 2, &["Small", "Musical"]),
    g("Knerdling Stick", 3, &["Small", "Unique", "Dispensable"]),
    g("Lukewarm Burger", 4, &["Edible"]),
    g("Magnifier", 6, &[]),
    g("Marmalade Sandwich", 2, &["Edible"]),
    g("Money Belt", 5, &[]),
    g("Newspaper", 1, &["Papery", "Dispensable"]),
    g("Overcoat", 6, &["Garment"]),
    g("Overpriced Baguette", 5, &["Edible"]),
    g("Piano", 9, &["Musical", "Huge"]),
    g("Remote Control (Off)", 3, &["Small", "Electrical"]),
    g("Saxophone", 5, &["Musical"]),
    g("Scarf", 3, &["Garment", "Woolen"]),
    g("Spanger", 6, &[]),
    g("Spectacles", 4, &["Small", "Garment"]),
    g("Vacuum Cleaner (Off)", 6, &["Large", "Electrical"]),
    g("Violin", 4, &["Musical"]),
    g("Zone 1 Pass", 3, &["Small", "Papery", "Dispensable"]),
    g("Zones 1-3 Pass", 4, &["Small", "Papery", "Dispensable"]),
    g("Zones 1-6 Pass", 8, &["Small", "Papery", "Dispensable"]),
];

/// A Zone Pass of zone 2-6 (Rule 1.4.18: "Zone <n> Pass", n from two to six).
pub(crate) const ZONE_PASS: Good = g("Zone Pass", 2, &["Small", "Papery", "Dispensable"]);
/// A Ticket Stub.
pub(crate) const STUB: Good = g("Stub", 2, &["Small", "Papery"]);

/// The good a possession's name is, if any ("Remote Control" finds the
/// "(Off)" entry; "Zone 4 Pass" the Zone Pass).
pub(crate) fn good(name: &str) -> Option<&'static Good> {
    let n = name.trim().to_lowercase();
    if let Some(z) = n
        .strip_prefix("zone ")
        .and_then(|r| r.strip_suffix(" pass"))
    {
        if let Ok(z) = z.trim().parse::<u8>() {
            return match z {
                1 => GOODS.iter().find(|g| g.name == "Zone 1 Pass"),
                2..=6 => Some(&ZONE_PASS),
                _ => None,
            };
        }
    }
    // An Electrical good switched On is the entry listed Off (Rule 1.4.33).
    let n = switch_state(&n).0.to_string();
    GOODS.iter().find(|g| {
        let gn = g.name.to_lowercase();
        gn == n
            || gn.strip_suffix(" (off)") == Some(n.as_str())
            || (gn == "all day rover" && n == "all day rover card")
    })
}

/// An Electrical Possession's name without its state, and whether it is On
/// (Rule 1.4.33): "Remote Control (On)" -> ("Remote Control", true); a name
/// with no state is Off.
pub(crate) fn switch_state(name: &str) -> (&str, bool) {
    let t = name.trim();
    let lower = t.to_ascii_lowercase();
    if lower.ends_with("(on)") {
        (t[..t.len() - 4].trim_end(), true)
    } else if lower.ends_with("(off)") {
        (t[..t.len() - 5].trim_end(), false)
    } else {
        (t, false)
    }
}

/// Garments (Rule 1.4.30), with the Lost & Found's (Rule 1.7.53).
pub(crate) fn is_garment(name: &str) -> bool {
    let n = name.to_lowercase();
    good(name).is_some_and(|g| g.qualities.contains(&"Garment"))
        || [
            "glove",
            "gloves",
            "money belt",
            "scarf",
            "spectacles",
            "overcoat",
        ]
        .contains(&n.as_str())
}

/// The Garment "type" for the one-of-a-type rule.
pub(crate) fn garment_type(name: &str) -> String {
    let n = name.to_lowercase();
    if n.starts_with("glove") {
        "glove".into()
    } else {
        n
    }
}

/// Musical instruments and their Busking rewards (Rule 1.7.20):
/// (Black, Blue, Red, Bronze, Gold).
pub(crate) fn busking_reward(instrument: &str) -> Option<[u32; 5]> {
    Some(match instrument.to_lowercase().as_str() {
        "yodel" | "yodeling" | "yodelling" => [0, 0, 0, 1, 0],
        "harmonica" => [0, 0, 0, 3, 0],
        "drum" => [2, 0, 1, 1, 0],
        "casiotone" => [1, 1, 1, 1, 0],
        "guitar" => [2, 2, 0, 1, 0],
        "violin" => [2, 0, 2, 1, 0],
        "saxophone" => [0, 2, 2, 2, 0],
        "piano" => [0, 0, 0, 0, 1],
        _ => return None,
    })
}

/// Cursed Possessions cannot be Discarded (Rules 1.4.22, 1.4.24, 1.4.47).
pub(crate) fn is_cursed(name: &str) -> bool {
    let n = name.to_lowercase();
    n.contains("podume") || n.contains("prison clamp")
}
