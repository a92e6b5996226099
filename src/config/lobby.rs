//! `[lobby]`: games created and joined by mail (issue 17, RULINGS S16).

use serde::{Deserialize, Serialize};

/// `[lobby]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct LobbyConfig {
    /// Whether anyone may create a game with `NEW GAME` (and then start
    /// it); by default only the Speaker's addresses may.
    pub open_games: bool,
    /// Hours a `JOIN` waits for its `CONFIRM` before it expires.
    pub confirm_hours: u32,
    /// Games one address other than the Speaker's may have waiting in the
    /// lobby at once (issue 40, finding 2).
    pub games_per_creator: u32,
    /// Games that may wait in the lobby at once, whoever created them.
    pub waiting_games: u32,
}

impl Default for LobbyConfig {
    fn default() -> Self {
        LobbyConfig {
            open_games: false,
            confirm_hours: 48,
            games_per_creator: 2,
            waiting_games: 10,
        }
    }
}

impl LobbyConfig {
    /// Checks the values' bounds.
    ///
    /// # Errors
    ///
    /// What is wrong, naming the key.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=24 * 30).contains(&self.confirm_hours) {
            return Err(format!(
                "[lobby] confirm_hours = {}: must be from 1 to 720 (30 days)",
                self.confirm_hours
            ));
        }
        if !(1..=100).contains(&self.games_per_creator) {
            return Err(format!(
                "[lobby] games_per_creator = {}: must be from 1 to 100",
                self.games_per_creator
            ));
        }
        if !(1..=1000).contains(&self.waiting_games) {
            return Err(format!(
                "[lobby] waiting_games = {}: must be from 1 to 1000",
                self.waiting_games
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
        assert!(LobbyConfig::default().validate().is_ok());
        let zero = LobbyConfig {
            confirm_hours: 0,
            ..LobbyConfig::default()
        };
        assert!(zero.validate().unwrap_err().contains("confirm_hours"));
        let none = LobbyConfig {
            games_per_creator: 0,
            ..LobbyConfig::default()
        };
        assert!(none.validate().unwrap_err().contains("games_per_creator"));
        let many = LobbyConfig {
            waiting_games: 1001,
            ..LobbyConfig::default()
        };
        assert!(many.validate().unwrap_err().contains("waiting_games"));
    }
}
