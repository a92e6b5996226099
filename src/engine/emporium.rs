//! What the rules do with Possessions beyond their table entry
//! (`grammar/possessions.toml`): Garment types (Rule 1.4.30), Busking
//! rewards (1.7.20), and finding a carried Possession by what a Play names.

use crate::gsd::{Good, Item, Possession};

/// The Garment "type" of Rule 1.4.30 (one Worn at a time): every Hat is
/// one type, and the pair of Gloves and a single Glove are one.
pub(crate) fn garment_type(g: Good) -> Good {
    match g {
        Good::GloveLeft | Good::GloveRight => Good::Gloves,
        other => other,
    }
}

/// Musical instruments and their Busking rewards (Rule 1.7.20's table):
/// (Black, Blue, Red, Bronze, Gold); `None` is a yodel.
pub(crate) fn busking_reward(instrument: Option<Good>) -> Option<[u32; 5]> {
    Some(match instrument {
        None => [0, 0, 0, 1, 0],
        Some(Good::Harmonica) => [0, 0, 0, 3, 0],
        Some(Good::Drum) => [2, 0, 1, 1, 0],
        Some(Good::Casiotone) => [1, 1, 1, 1, 0],
        Some(Good::Guitar) => [2, 2, 0, 1, 0],
        Some(Good::Violin) => [2, 0, 2, 1, 0],
        Some(Good::Saxophone) => [0, 2, 2, 2, 0],
        Some(Good::Piano) => [0, 0, 0, 0, 1],
        _ => return None,
    })
}

/// Whether a carried Possession is the one a Play names: the same kind
/// and what its form writes (the day, the station, the zone, the Hats);
/// the state (On/Off, asterisks) and a number (Rule 1.4.46) are not part
/// of the name unless written.
pub(crate) fn names(named: &Item, carried: &Possession) -> bool {
    match (named, &carried.item) {
        (
            Item::Good {
                good: a,
                on: on_a,
                n: n_a,
                ..
            },
            Item::Good {
                good: b,
                on: on_b,
                n: n_b,
                ..
            },
        ) => a == b && (!*on_a || *on_b) && (n_a.is_none() || n_a == n_b),
        (Item::Hats(a), Item::Hats(b)) => a.iter().all(|h| b.contains(h)),
        // `Toff Clamp` names any Toff Clamp, whatever its Station.
        (
            Item::Good {
                good: Good::ToffClamp,
                ..
            },
            Item::Toff { .. },
        ) => true,
        (a, b) => a == b,
    }
}
