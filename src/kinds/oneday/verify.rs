//! What `mornbot verify-dice` adds for a One Day in London game (RULINGS
//! OD5, OD8): the deck recomputed from the revealed seed (oneday-shuffle/1,
//! top first, as `scripts/verify_dice.py SEED COMMITMENT GAME deck` prints
//! it), and each reshuffle checked whole: a Fisher-Yates of n cards is the
//! draws `<prefix>-<i>` for i from n - 1 down to 1, each of i + 1 sides.
//! Each draw's value is checked by the dice's own verification.

use std::collections::BTreeMap;

use super::state::{State, SHUFFLE_VERSION};
use crate::kinds::Draws;

/// The deck and the reshuffles of a game whose recorded draws are
/// `recorded` (turn, name, sides, face), the seed's draws asked of
/// `seed`: the report's lines, and whether every shuffle is whole.
pub fn shuffles(seed: &mut dyn Draws, recorded: &[(u64, String, u32, u32)]) -> (String, bool) {
    let mut ok = true;
    let mut out = String::new();
    match State::deck_order(seed) {
        Ok(deck) => {
            let cards: Vec<String> = deck.iter().map(|c| c.0.to_string()).collect();
            out.push_str(&format!(
                "deck ({SHUFFLE_VERSION}), recomputed from the seed, top first: {}\n",
                cards.join(" ")
            ));
        }
        Err(e) => {
            ok = false;
            out.push_str(&format!("deck: not recomputed: {e}\n"));
        }
    }
    // Every shuffle's draws by prefix: the deck's, and each reshuffle's.
    let mut groups: BTreeMap<String, Vec<(u64, u32, u32)>> = BTreeMap::new();
    for (turn, name, sides, _) in recorded {
        let Some((prefix, i)) = name.rsplit_once('-') else {
            continue;
        };
        let Ok(i) = i.parse::<u32>() else { continue };
        if prefix == "deck" || prefix.starts_with("reshuffle-") {
            groups
                .entry(prefix.to_string())
                .or_default()
                .push((*turn, i, *sides));
        }
    }
    for (prefix, mut draws) in groups {
        draws.sort_by_key(|d| std::cmp::Reverse(d.1));
        let n = draws.first().map_or(0, |d| d.1 + 1);
        let whole =
            draws.iter().enumerate().all(|(k, &(t, i, sides))| {
                i == n - 1 - k as u32 && sides == i + 1 && t == draws[0].0
            }) && draws.len() as u32 == n.saturating_sub(1);
        ok &= whole;
        out.push_str(&format!(
            "{prefix}: {n} cards shuffled at turn {} by {} draws: {}\n",
            draws.first().map_or(0, |d| d.0),
            draws.len(),
            if whole { "whole" } else { "NOT WHOLE" }
        ));
    }
    (out, ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_reshuffle_passes_and_a_gap_is_found() {
        let mut seed = |_: u64, _: &str, sides: u32| Some(sides - 1);
        let mut rec: Vec<(u64, String, u32, u32)> = (1..72)
            .map(|i| (0, format!("deck-{i}"), i + 1, 1))
            .collect();
        rec.extend((1..4).map(|i| (40, format!("reshuffle-1-{i}"), i + 1, 1)));
        let (text, ok) = shuffles(&mut seed, &rec);
        assert!(ok, "{text}");
        assert!(text.contains("reshuffle-1: 4 cards shuffled at turn 40 by 3 draws: whole"));
        assert!(text.contains("deck (oneday-shuffle/1), recomputed from the seed, top first: "));
        rec.retain(|r| r.1 != "reshuffle-1-2");
        let (text, ok) = shuffles(&mut seed, &rec);
        assert!(!ok, "{text}");
    }
}
