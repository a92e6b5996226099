//! Stalemate agreements (Rule 1.1.11; RULINGS S22): who has agreed, who
//! must still agree. Pure: the agreements and the game's Active non-Drone
//! players in, the tally out.

/// One player's agreement that a game has reached Stalemate, made when the
/// log had `turns` turns, the last of them `last` (its Message-ID; empty
/// before the first turn). It stands only while the log is exactly so: a
/// turn logged (or voided) after it makes it moot (RULINGS S22).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// The player.
    pub player: String,
    /// The log's length when e agreed.
    pub turns: usize,
    /// The Message-ID of the log's last turn then.
    pub last: String,
}

/// Where the agreements of a game stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The Active non-Drone players whose agreement stands.
    pub agreed: Vec<String>,
    /// The Active non-Drone players who have not agreed (or whose agreement
    /// a later turn made moot).
    pub missing: Vec<String>,
}

impl Tally {
    /// Whether every Active non-Drone player agrees (and there is one), so
    /// that the Speaker may declare the game over.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && !self.agreed.is_empty()
    }
}

/// The tally of `agreements` among `active` (the Active non-Drone players,
/// in order of play), for a log of `turns` turns whose last is `last`.
pub fn tally(active: &[String], agreements: &[Agreement], turns: usize, last: &str) -> Tally {
    let stands = |p: &str| {
        agreements
            .iter()
            .any(|a| a.player.eq_ignore_ascii_case(p) && a.turns == turns && a.last == last)
    };
    let (agreed, missing) = active.iter().cloned().partition(|p| stands(p));
    Tally { agreed, missing }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    fn agreed(player: &str, turns: usize, last: &str) -> Agreement {
        Agreement {
            player: player.into(),
            turns,
            last: last.into(),
        }
    }

    #[test]
    fn complete_when_every_active_player_agrees() {
        let active = names(&["Rushton", "Warren"]);
        let a = vec![agreed("rushton", 4, "<t4>")];
        let t = tally(&active, &a, 4, "<t4>");
        assert_eq!(t.agreed, names(&["Rushton"]));
        assert_eq!(t.missing, names(&["Warren"]));
        assert!(!t.complete());
        let a = vec![agreed("rushton", 4, "<t4>"), agreed("Warren", 4, "<t4>")];
        assert!(tally(&active, &a, 4, "<t4>").complete());
    }

    #[test]
    fn a_later_turn_makes_agreements_moot() {
        let active = names(&["Rushton", "Warren"]);
        let a = vec![agreed("Rushton", 4, "<t4>"), agreed("Warren", 4, "<t4>")];
        let t = tally(&active, &a, 5, "<t5>");
        assert_eq!(t.missing, active);
        // A turn voided and another played in its place: moot too.
        assert!(!tally(&active, &a, 4, "<t4-again>").complete());
    }

    #[test]
    fn agreements_of_players_no_longer_active_do_not_count() {
        let active = names(&["Warren"]);
        let a = vec![agreed("Acton", 2, "<t2>")];
        let t = tally(&active, &a, 2, "<t2>");
        assert!(!t.complete());
        assert!(!tally(&[], &a, 2, "<t2>").complete());
    }
}
