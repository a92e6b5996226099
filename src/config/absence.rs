//! `[absence]`: how long players may be away (issue 17, item 3; RULINGS
//! S27 - S29).

use serde::{Deserialize, Serialize};

/// `[absence]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct AbsenceConfig {
    /// The longest one absence may be, in days; 0: no absences.
    pub max_days: u32,
    /// How far ahead an absence may begin, in days.
    pub max_ahead_days: u32,
    /// The most days one player may be away in one game, all absences
    /// together (as cut short, when they were).
    pub max_total_days: u32,
}

impl Default for AbsenceConfig {
    fn default() -> Self {
        AbsenceConfig {
            max_days: 14,
            max_ahead_days: 90,
            max_total_days: 28,
        }
    }
}

impl AbsenceConfig {
    /// Checks the values' bounds.
    ///
    /// # Errors
    ///
    /// What is wrong, naming the key.
    pub fn validate(&self) -> Result<(), String> {
        for (key, v) in [
            ("max_days", self.max_days),
            ("max_ahead_days", self.max_ahead_days),
            ("max_total_days", self.max_total_days),
        ] {
            if v > 366 {
                return Err(format!("[absence] {key} = {v}: at most 366 (a year)"));
            }
        }
        if self.max_days > 0 && self.max_total_days < self.max_days {
            return Err(format!(
                "[absence] max_total_days = {} is less than max_days = {}: no absence of \
                 max_days could ever be set",
                self.max_total_days, self.max_days
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_checked() {
        assert!(AbsenceConfig::default().validate().is_ok());
        let off = AbsenceConfig {
            max_days: 0,
            max_total_days: 0,
            ..AbsenceConfig::default()
        };
        assert!(off.validate().is_ok());
        let long = AbsenceConfig {
            max_ahead_days: 400,
            ..AbsenceConfig::default()
        };
        assert!(long.validate().unwrap_err().contains("max_ahead_days"));
        let short = AbsenceConfig {
            max_total_days: 7,
            ..AbsenceConfig::default()
        };
        assert!(short.validate().unwrap_err().contains("max_total_days"));
    }
}
