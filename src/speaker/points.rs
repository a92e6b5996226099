//! Points (Rule 1.1.9; RULINGS S23, S24): what the end of a game does to
//! each player's Points. Pure: the Points before the game in, the change
//! for each player out; the store keeps the ledger.

use std::collections::BTreeMap;

use crate::kinds::vol1::is_reserved as is_drone;

/// How a game ended, as Points see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won by this player (Rule 1.1.1, or the last left, Rule 1.1.3).
    Won(String),
    /// Declared over in Stalemate (Rule 1.1.11): no one Won or Lost.
    Stalemate,
}

/// The players of an ended game, as Points see them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Field {
    /// The players still in the game when it ended (the winner among
    /// them), in order of play; a Drone is skipped.
    pub finishers: Vec<String>,
    /// The players who Resigned from it (Rules 1.1.3, 1.1.10).
    pub resigned: Vec<String>,
}

/// A player's key in the ledger: eir name, case folded (RULINGS S23).
pub fn key(name: &str) -> String {
    name.to_lowercase()
}

/// The change of each non-Drone player's Points when a game ends with
/// `outcome`, given everyone's Points before it (`totals`, by [`key`];
/// missing is 0). Every non-Drone player of the game gets a row, a zero
/// included, so the ledger lists everyone who played.
///
/// - The winner gains two bonus Points and one for every other finisher
///   with more Points than em (Rule 1.1.9; "in that Game when it finishes",
///   so not the Resigned; there are no Team-mates in Volume 1 play).
/// - Every other finisher, and every Resigned player, Loses: one Point,
///   never going below zero (RULINGS S24).
/// - A Drone gains and loses nothing; a game the Drone wins is Lost by
///   every non-Drone player (RULINGS S24).
/// - A Stalemate changes nothing (Rule 1.1.11).
pub fn award(
    outcome: &Outcome,
    field: &Field,
    totals: &BTreeMap<String, i64>,
) -> Vec<(String, i64)> {
    let before = |n: &str| totals.get(&key(n)).copied().unwrap_or(0).max(0);
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let players = field.finishers.iter().chain(&field.resigned);
    for name in players.filter(|n| !is_drone(n)) {
        if seen.contains(&key(name)) {
            continue;
        }
        seen.push(key(name));
        let delta = match outcome {
            Outcome::Stalemate => 0,
            Outcome::Won(w) if w.eq_ignore_ascii_case(name) => {
                let richer = field
                    .finishers
                    .iter()
                    .filter(|o| !is_drone(o) && !o.eq_ignore_ascii_case(w))
                    .filter(|o| before(o) > before(w))
                    .count();
                2 + richer as i64
            }
            Outcome::Won(_) => -before(name).min(1),
        };
        out.push((name.clone(), delta));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(finishers: &[&str], resigned: &[&str]) -> Field {
        Field {
            finishers: finishers.iter().map(|s| s.to_string()).collect(),
            resigned: resigned.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn totals(t: &[(&str, i64)]) -> BTreeMap<String, i64> {
        t.iter().map(|(n, p)| (key(n), *p)).collect()
    }

    #[test]
    fn a_winner_gains_two_and_one_for_each_richer_finisher() {
        let f = field(&["Rushton", "Warren", "Acton", "Drone"], &[]);
        let t = totals(&[("Rushton", 1), ("warren", 5), ("Acton", 0)]);
        let d = award(&Outcome::Won("Rushton".into()), &f, &t);
        assert_eq!(
            d,
            vec![
                ("Rushton".into(), 3),
                ("Warren".into(), -1),
                ("Acton".into(), 0), // never below zero
            ]
        );
    }

    #[test]
    fn the_resigned_lose_and_do_not_count_for_the_winner() {
        let f = field(&["Rushton", "Warren"], &["Acton"]);
        let t = totals(&[("Acton", 9), ("Warren", 2)]);
        let d = award(&Outcome::Won("Rushton".into()), &f, &t);
        assert_eq!(
            d,
            vec![
                ("Rushton".into(), 3),
                ("Warren".into(), -1),
                ("Acton".into(), -1)
            ]
        );
    }

    #[test]
    fn a_stalemate_changes_nothing_but_lists_everyone() {
        let f = field(&["Rushton", "Warren", "Drone"], &["Acton"]);
        let d = award(&Outcome::Stalemate, &f, &totals(&[("Rushton", 4)]));
        assert_eq!(
            d,
            vec![
                ("Rushton".into(), 0),
                ("Warren".into(), 0),
                ("Acton".into(), 0)
            ]
        );
    }

    #[test]
    fn a_drone_win_is_lost_by_everyone_and_gains_nothing() {
        let f = field(&["Rushton", "Drone"], &[]);
        let d = award(
            &Outcome::Won("Drone".into()),
            &f,
            &totals(&[("Rushton", 1)]),
        );
        assert_eq!(d, vec![("Rushton".into(), -1)]);
    }

    #[test]
    fn a_negative_total_counts_as_zero() {
        let f = field(&["Rushton", "Warren"], &[]);
        let t = totals(&[("Rushton", -3), ("Warren", 0)]);
        let d = award(&Outcome::Won("Warren".into()), &f, &t);
        assert_eq!(d, vec![("Rushton".into(), 0), ("Warren".into(), 2)]);
    }
}
