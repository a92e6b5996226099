//! The contested readings of Money Run a game may choose (RULINGS.md,
//! section Money Run): the defaults are the rulings adopted there.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One game's choices on the contested rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulings {
    /// `equal_stacking` (MR7): a coin may lie on one of equal size.
    pub equal_stacking: bool,
    /// `coin_from_under_pawn` (MR8): a coin move may take the top coin of
    /// a square a pawn stands on (default: no, it is under the pawn).
    pub coin_from_under_pawn: bool,
    /// `coin_onto_opponent` (MR8): a coin move may end on a square holding
    /// an opponent's pawn (default: no, EFAQ 1).
    pub coin_onto_opponent: bool,
    /// `shared_squares` (MR10): two pawns may stand on one square.
    pub shared_squares: bool,
}

impl Default for Rulings {
    fn default() -> Rulings {
        Rulings {
            equal_stacking: true,
            coin_from_under_pawn: false,
            coin_onto_opponent: false,
            shared_squares: true,
        }
    }
}

/// A `key=value` that is not a ruling of Money Run.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulingsError {
    /// The key names no ruling.
    #[error("unknown money-run ruling {key:?}: the rulings are {}", KEYS.join(", "))]
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// The value is not true or false.
    #[error("money-run ruling {key}: {value:?} is not true or false")]
    BadValue {
        /// The key.
        key: &'static str,
        /// The value as written.
        value: String,
    },
    /// A `key=value` without its `=`.
    #[error("money-run ruling {0:?}: expected key=value")]
    NoEquals(String),
}

/// Every key, in the order [`Rulings::pairs`] gives them.
pub const KEYS: [&str; 4] = [
    "equal_stacking",
    "coin_from_under_pawn",
    "coin_onto_opponent",
    "shared_squares",
];

impl Rulings {
    /// Parses `(key, value)` pairs over the defaults; a key given twice
    /// takes its last value.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Rulings, RulingsError> {
        let mut r = Rulings::default();
        for (k, v) in pairs {
            r.set(k.as_ref(), v.as_ref())?;
        }
        Ok(r)
    }

    /// Parses `key=value` words (as `NEW GAME ... ruling shared_squares=false`).
    pub fn from_words<S: AsRef<str>>(words: &[S]) -> Result<Rulings, RulingsError> {
        let mut pairs = Vec::new();
        for w in words {
            let w = w.as_ref();
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| RulingsError::NoEquals(w.to_string()))?;
            pairs.push((k.trim(), v.trim()));
        }
        Rulings::from_pairs(pairs)
    }

    /// Sets one ruling from text.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulingsError> {
        let k = key.trim().to_ascii_lowercase();
        let Some(&name) = KEYS.iter().find(|n| **n == k) else {
            return Err(RulingsError::UnknownKey {
                key: key.to_string(),
            });
        };
        let v = match value.trim().to_ascii_lowercase().as_str() {
            // As the lounge writes a switch: `ruling shared_squares=off`.
            "true" | "yes" | "on" => true,
            "false" | "no" | "off" => false,
            _ => {
                return Err(RulingsError::BadValue {
                    key: name,
                    value: value.to_string(),
                })
            }
        };
        *match name {
            "equal_stacking" => &mut self.equal_stacking,
            "coin_from_under_pawn" => &mut self.coin_from_under_pawn,
            "coin_onto_opponent" => &mut self.coin_onto_opponent,
            _ => &mut self.shared_squares,
        } = v;
        Ok(())
    }

    /// Every ruling as `(key, value)`, in [`KEYS`] order.
    pub fn pairs(&self) -> [(&'static str, String); 4] {
        [
            (KEYS[0], self.equal_stacking.to_string()),
            (KEYS[1], self.coin_from_under_pawn.to_string()),
            (KEYS[2], self.coin_onto_opponent.to_string()),
            (KEYS[3], self.shared_squares.to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_parse_and_round_trip() {
        let r = Rulings::from_words(&["shared_squares=no", "coin_onto_opponent = TRUE"]).unwrap();
        assert!(!r.shared_squares && r.coin_onto_opponent && r.equal_stacking);
        assert_eq!(Rulings::from_pairs(r.pairs()).unwrap(), r);
        let off = Rulings::from_words(&["shared_squares=off", "equal_stacking=On"]).unwrap();
        assert!(!off.shared_squares && off.equal_stacking);
        let e = Rulings::from_pairs([("shared", "x")]).unwrap_err();
        assert!(e.to_string().contains("shared_squares"), "{e}");
        let e = Rulings::from_pairs([("shared_squares", "maybe")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "money-run ruling shared_squares: \"maybe\" is not true or false"
        );
        assert!(matches!(
            Rulings::from_words(&["equal_stacking"]),
            Err(RulingsError::NoEquals(_))
        ));
    }
}
