//! The journey rule's contested readings (RULINGS OD10): two restrictions
//! Boardspace's code adds to the seed's text, each off by default.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How a journey is judged where the seed's text and Boardspace's code
/// part (RULINGS OD10). The default is the text: both restrictions off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JourneyRulings {
    /// `hop_change` (Boardspace `Stop.legalChange`): a change at B from line
    /// L (arrived from A) to line M (on to C) is refused when A is on M and
    /// C is on L: the change merely hops along the line already used.
    pub forbid_hop_change: bool,
    /// `concurrent_back` (Boardspace `Stop.illegalConnection`, as intended):
    /// a change at B from line L to line M is refused when M leaves B over
    /// the same pair of stations L arrived by: back over the same track on
    /// a concurrent line.
    pub forbid_concurrent_back: bool,
}

/// A ruling's name or value not understood.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RulingError {
    /// No such ruling.
    #[error("unknown ruling {0:?}: the rulings are hop_change and concurrent_back")]
    Unknown(String),
    /// A value other than `allow` (the seed's text) or `forbid` (Boardspace).
    #[error("ruling {name}: {value:?} is neither allow nor forbid")]
    Value {
        /// The ruling.
        name: String,
        /// The value given.
        value: String,
    },
}

impl JourneyRulings {
    /// The names of the rulings.
    pub const NAMES: [&'static str; 2] = ["hop_change", "concurrent_back"];

    /// Boardspace's reading: both restrictions on.
    pub fn boardspace() -> JourneyRulings {
        JourneyRulings {
            forbid_hop_change: true,
            forbid_concurrent_back: true,
        }
    }

    /// Sets one ruling: `hop_change` or `concurrent_back` to `allow` (the
    /// seed's text) or `forbid` (Boardspace's code).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulingError> {
        let forbid = match value.trim().to_ascii_lowercase().as_str() {
            "allow" => false,
            "forbid" => true,
            _ => {
                return Err(RulingError::Value {
                    name: name.to_string(),
                    value: value.to_string(),
                })
            }
        };
        match name.trim() {
            "hop_change" => self.forbid_hop_change = forbid,
            "concurrent_back" => self.forbid_concurrent_back = forbid,
            other => return Err(RulingError::Unknown(other.to_string())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_reads_names_and_values() {
        let mut r = JourneyRulings::default();
        r.set("hop_change", "forbid").unwrap();
        assert!(r.forbid_hop_change && !r.forbid_concurrent_back);
        r.set("concurrent_back", "FORBID").unwrap();
        assert_eq!(r, JourneyRulings::boardspace());
        r.set("hop_change", "allow").unwrap();
        assert!(!r.forbid_hop_change);
        assert!(matches!(
            r.set("hops", "allow"),
            Err(RulingError::Unknown(_))
        ));
        assert!(matches!(
            r.set("hop_change", "on"),
            Err(RulingError::Value { .. })
        ));
    }
}
