//! The order of play (Rule 1.1.12, RULINGS S17): among every order of a
//! new game's players, those that least often put a player after the same
//! player as in the lounge's other games; the bot's dice pick one of them.
//! Pure: the history and the die's face come in as values.

use std::collections::HashMap;

/// The most players (besides the Drone) whose orders are all weighed:
/// 8! = 40,320 orders.
pub const MAX_PLAYERS: usize = 8;

/// The name of the die that picks among the best orders (RULINGS S17).
pub const DRAW_NAME: &str = "order-of-play";

/// Why no order can be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    /// Fewer than two players.
    #[error("a game needs at least two players to start, not {0}")]
    TooFew(usize),
    /// More than [`MAX_PLAYERS`].
    #[error("at most {MAX_PLAYERS} players can be ordered, not {0}")]
    TooMany(usize),
}

/// How often each player has followed each other player: `(before,
/// after)` by lower-case name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Follows(HashMap<(String, String), u32>);

impl Follows {
    /// Counts every adjacent pair of each order of play, cyclically (the
    /// last player is followed by the first, the Drone left out: its place
    /// is fixed, last).
    pub fn of<'a>(orders: impl IntoIterator<Item = &'a [String]>) -> Follows {
        let mut f = Follows::default();
        for order in orders {
            let humans: Vec<&String> = order
                .iter()
                .filter(|n| !crate::kinds::vol1::is_reserved(n))
                .collect();
            for (a, b) in cyclic(&humans) {
                *f.0.entry(key(a, b)).or_default() += 1;
            }
        }
        f
    }

    /// How often `after` has followed `before`.
    pub fn count(&self, before: &str, after: &str) -> u32 {
        self.0.get(&key(before, after)).copied().unwrap_or(0)
    }
}

fn key(a: &str, b: &str) -> (String, String) {
    (a.to_lowercase(), b.to_lowercase())
}

/// The adjacent pairs of `order`, cyclically.
fn cyclic<T: Copy>(order: &[T]) -> impl Iterator<Item = (T, T)> + '_ {
    let n = order.len();
    (0..if n >= 2 { n } else { 0 }).map(move |i| (order[i], order[(i + 1) % n]))
}

/// The best orders for a game's players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// The tied orders, in lexicographic order of their names (face `k` of
    /// the die is the `k`-th).
    pub orders: Vec<Vec<String>>,
    /// The most often any player will then have followed the same player.
    pub worst: u32,
    /// How many times, all told, the pairs of each best order had already
    /// occurred.
    pub repeats: u32,
}

/// Every order of `players`, scored against `history`: the least `worst`
/// (the most times one player will have followed the same player, this
/// game included), then the least `repeats`; all ties kept.
///
/// # Errors
///
/// [`OrderError`] for fewer than two players or more than
/// [`MAX_PLAYERS`].
pub fn best_orders(players: &[String], history: &Follows) -> Result<Best, OrderError> {
    let n = players.len();
    if n < 2 {
        return Err(OrderError::TooFew(n));
    }
    if n > MAX_PLAYERS {
        return Err(OrderError::TooMany(n));
    }
    let mut sorted = players.to_vec();
    sorted.sort_by_key(|p| (p.to_lowercase(), p.clone()));
    // Each pair's count looked up once: the loop below runs up to 8! times.
    let counts: Vec<Vec<u32>> = sorted
        .iter()
        .map(|a| sorted.iter().map(|b| history.count(a, b)).collect())
        .collect();
    let mut idx: Vec<usize> = (0..n).collect();
    let mut best = Best {
        orders: Vec::new(),
        worst: u32::MAX,
        repeats: u32::MAX,
    };
    loop {
        let (mut worst, mut repeats) = (0, 0);
        for (a, b) in cyclic(&idx) {
            let c = counts[a][b];
            worst = worst.max(c + 1);
            repeats += c;
        }
        match (worst, repeats).cmp(&(best.worst, best.repeats)) {
            std::cmp::Ordering::Less => {
                best.worst = worst;
                best.repeats = repeats;
                best.orders.clear();
                best.orders
                    .push(idx.iter().map(|&i| sorted[i].clone()).collect());
            }
            std::cmp::Ordering::Equal => {
                best.orders
                    .push(idx.iter().map(|&i| sorted[i].clone()).collect());
            }
            std::cmp::Ordering::Greater => {}
        }
        if !next_permutation(&mut idx) {
            break;
        }
    }
    Ok(best)
}

/// The order face `face` (1-based) of the die picks; `None` off the die.
pub fn by_face(best: &Best, face: u32) -> Option<&[String]> {
    let i = usize::try_from(face).ok()?.checked_sub(1)?;
    best.orders.get(i).map(Vec::as_slice)
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn with_no_history_every_order_ties() {
        let best =
            best_orders(&names(&["Warren", "Acton", "Rushton"]), &Follows::default()).unwrap();
        assert_eq!(best.orders.len(), 6);
        assert_eq!(best.orders[0], names(&["Acton", "Rushton", "Warren"]));
        assert_eq!(best.orders[5], names(&["Warren", "Rushton", "Acton"]));
        assert_eq!((best.worst, best.repeats), (1, 0));
        assert_eq!(by_face(&best, 1), Some(&best.orders[0][..]));
        assert_eq!(by_face(&best, 0), None);
        assert_eq!(by_face(&best, 7), None);
    }

    #[test]
    fn a_pair_already_played_is_avoided() {
        // Acton has followed Rushton (and Warren Acton, Rushton Warren,
        // cyclically): only the reversed cycle avoids all three.
        let past = [names(&["Rushton", "Acton", "Warren", "Drone"])];
        let history = Follows::of(past.iter().map(Vec::as_slice));
        assert_eq!(history.count("rushton", "ACTON"), 1);
        assert_eq!(history.count("Warren", "Rushton"), 1);
        assert_eq!(history.count("Warren", "Drone"), 0);
        let best = best_orders(&names(&["Rushton", "Acton", "Warren"]), &history).unwrap();
        assert_eq!((best.worst, best.repeats), (1, 0));
        for o in &best.orders {
            assert_eq!(history.count(&o[0], &o[1]), 0, "{o:?}");
        }
        // The three rotations of Acton, Rushton, Warren... reversed.
        assert_eq!(best.orders.len(), 3);
    }

    #[test]
    fn the_worst_pair_is_minimised_first() {
        // Two players always follow each other: the worst is 3 whatever.
        let past = [names(&["A", "B"]), names(&["B", "A"])];
        let history = Follows::of(past.iter().map(Vec::as_slice));
        let best = best_orders(&names(&["A", "B"]), &history).unwrap();
        assert_eq!(best.worst, 3);
        assert_eq!(best.orders.len(), 2);
    }

    #[test]
    fn sizes_are_bounded() {
        let f = Follows::default();
        assert_eq!(best_orders(&names(&["A"]), &f), Err(OrderError::TooFew(1)));
        let nine: Vec<String> = (0..9).map(|i| format!("P{i}")).collect();
        assert_eq!(best_orders(&nine, &f), Err(OrderError::TooMany(9)));
        let eight = &nine[..8];
        assert_eq!(best_orders(eight, &f).unwrap().orders.len(), 40_320);
    }
}
