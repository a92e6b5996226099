//! The contested readings of the mc-xml seed that a game may choose
//! (RULINGS.md, section mc-xml): the defaults are the rulings adopted there.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Where `Build` is played (RULINGS MX3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildAt {
    /// From a station adjacent to Mornington Crescent, which is closed for
    /// rebuilding; the Build moves the train onto it.
    #[default]
    Adjacent,
    /// On Mornington Crescent itself: a Move may end there (never pass
    /// through) while it is closed for rebuilding.
    On,
}

impl fmt::Display for BuildAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BuildAt::Adjacent => "adjacent",
            BuildAt::On => "on",
        })
    }
}

/// One game's choices on the contested rulings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulings {
    /// `build_at`: where Build is played (MX3).
    pub build_at: BuildAt,
    /// `unblock_adjacent`: whether Unblock needs the train adjacent to the
    /// closed station, as Block does (MX9; the seed gives no condition).
    pub unblock_adjacent: bool,
}

/// A `key=value` that is not a ruling of mc-xml.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulingsError {
    /// The key names no ruling.
    #[error("unknown mc-xml ruling {key:?}: the rulings are {}", KEYS.join(", "))]
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// The value is not one the ruling takes.
    #[error("mc-xml ruling {key}: {value:?} is not {expected}")]
    BadValue {
        /// The key.
        key: &'static str,
        /// The value as written.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// A `key=value` without its `=`.
    #[error("mc-xml ruling {0:?}: expected key=value")]
    NoEquals(String),
}

/// Every key, in the order [`Rulings::pairs`] gives them.
pub const KEYS: [&str; 2] = ["build_at", "unblock_adjacent"];

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

    /// Parses `key=value` words (as `NEW GAME ... ruling build_at=on`).
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
        let v = value.trim().to_ascii_lowercase();
        match key.trim().to_ascii_lowercase().as_str() {
            "build_at" => {
                self.build_at = match v.as_str() {
                    "adjacent" => BuildAt::Adjacent,
                    "on" => BuildAt::On,
                    _ => return Err(bad("build_at", value, "adjacent or on")),
                }
            }
            "unblock_adjacent" => {
                self.unblock_adjacent = match v.as_str() {
                    "true" | "yes" => true,
                    "false" | "no" => false,
                    _ => return Err(bad("unblock_adjacent", value, "true or false")),
                }
            }
            _ => {
                return Err(RulingsError::UnknownKey {
                    key: key.to_string(),
                })
            }
        }
        Ok(())
    }

    /// Every ruling as `(key, value)`, in [`KEYS`] order.
    pub fn pairs(&self) -> [(&'static str, String); 2] {
        [
            ("build_at", self.build_at.to_string()),
            ("unblock_adjacent", self.unblock_adjacent.to_string()),
        ]
    }
}

fn bad(key: &'static str, value: &str, expected: &'static str) -> RulingsError {
    RulingsError::BadValue {
        key,
        value: value.to_string(),
        expected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_recommended_rulings() {
        let r = Rulings::default();
        assert_eq!(r.build_at, BuildAt::Adjacent);
        assert!(!r.unblock_adjacent);
    }

    #[test]
    fn pairs_parse_and_round_trip() {
        let r = Rulings::from_words(&["build_at=on", "unblock_adjacent = true"]).unwrap();
        assert_eq!(r.build_at, BuildAt::On);
        assert!(r.unblock_adjacent);
        assert_eq!(Rulings::from_pairs(r.pairs()).unwrap(), r);
    }

    #[test]
    fn errors_name_the_key_or_the_value() {
        let e = Rulings::from_pairs([("build_on", "x")]).unwrap_err();
        assert!(e.to_string().contains("\"build_on\""), "{e}");
        assert!(e.to_string().contains("build_at, unblock_adjacent"), "{e}");
        let e = Rulings::from_pairs([("build_at", "near")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "mc-xml ruling build_at: \"near\" is not adjacent or on"
        );
        let e = Rulings::from_words(&["unblock_adjacent"]).unwrap_err();
        assert!(matches!(e, RulingsError::NoEquals(_)));
    }
}
