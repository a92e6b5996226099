//! Players joining late and resigning (RULINGS MX13, MX15): the lobby's
//! business, not a turn's, but they change the state, so they are folded
//! from the log like turns.

use super::facts::Facts;
use super::state::{same_player, Parts, State, Train};

/// Adds `name` after every player consented (MX13): at Tottenham Court
/// Road with nothing, last in the order of play.
///
/// # Errors
///
/// A sentence when the name is empty or taken, or the game is over.
pub fn join(facts: &Facts, state: &mut State, name: &str) -> Result<(), String> {
    if state.is_over() {
        return Err("the game is over".into());
    }
    if name.trim().is_empty() {
        return Err("a player's name is empty".into());
    }
    if state.player(name).is_some() {
        return Err(format!("a player is already named {name}"));
    }
    state.trains.push(Train {
        name: name.to_string(),
        at: facts.tottenham(),
        tokens: 0,
        parts: Parts::default(),
    });
    Ok(())
}

/// Takes `name`'s train off the map (MX15): eir parts leave the game with
/// em; the turn passes on when it was eirs; the last player left wins.
///
/// # Errors
///
/// A sentence when no such player plays, or the game is over.
pub fn resign(state: &mut State, name: &str) -> Result<(), String> {
    if state.is_over() {
        return Err("the game is over".into());
    }
    let i = state
        .trains
        .iter()
        .position(|t| same_player(&t.name, name))
        .ok_or_else(|| format!("no player is named {name}"))?;
    state.trains.remove(i);
    if state.to_play > i || (state.to_play == i && i == state.trains.len()) {
        state.to_play = if state.to_play > i {
            state.to_play - 1
        } else {
            0
        };
    }
    if state.trains.len() == 1 {
        state.winner = Some(0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::mcxml::rulings::Rulings;

    fn game(names: &[&str]) -> State {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        State::start(&names, Rulings::default()).unwrap()
    }

    #[test]
    fn a_late_joiner_plays_last_from_tottenham_court_road() {
        let f = Facts::london();
        let mut s = game(&["Ann", "Bob"]);
        join(f, &mut s, "Cat").unwrap();
        assert_eq!(s.trains[2].name, "Cat");
        assert_eq!(s.trains[2].at, f.tottenham());
        assert!(join(f, &mut s, "cat").is_err(), "names are case-blind");
        assert!(join(f, &mut s, " ").is_err());
    }

    #[test]
    fn resigning_passes_the_turn_on_and_the_last_left_wins() {
        let mut s = game(&["Ann", "Bob", "Cat"]);
        s.to_play = 1;
        resign(&mut s, "bob").unwrap();
        assert_eq!(s.current().name, "Cat", "Bob's turn passes to Cat");
        let mut s = game(&["Ann", "Bob", "Cat"]);
        s.to_play = 2;
        resign(&mut s, "Cat").unwrap();
        assert_eq!(
            s.current().name,
            "Ann",
            "the last in order: back to the first"
        );
        let mut s = game(&["Ann", "Bob", "Cat"]);
        s.to_play = 2;
        resign(&mut s, "Ann").unwrap();
        assert_eq!(
            s.current().name,
            "Cat",
            "an earlier player leaving keeps Cat on"
        );
        resign(&mut s, "Bob").unwrap();
        assert_eq!(s.winner, Some(0));
        assert_eq!(s.trains[0].name, "Cat");
        assert!(resign(&mut s, "Cat").is_err(), "over");
        assert!(resign(&mut game(&["Ann", "Bob"]), "Zed").is_err());
    }
}
