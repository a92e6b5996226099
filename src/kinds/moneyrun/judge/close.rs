//! Closing a turn: the next player in order of play (How to Play 5;
//! RULINGS MR4), and the end of the game by EFAQ 3's tie-break (RULINGS
//! MR12) after a full round of passes, a full round of `stalemate`, or
//! when no player has a legal action.

use super::super::board::{Coin, Square};
use super::super::order::{Action, Close};
use super::super::state::{Ending, State};
use super::Judging;

/// Closes the turn of `j.actor`: `no_action` when the whole turn took
/// none, `close` as the mail wrote it.
pub(super) fn close_turn(j: &mut Judging<'_, '_>, no_action: bool, close: Option<Close>) {
    let name = j.name();
    let s = &mut j.state;
    s.open = None;
    s.turns += 1;
    s.passes = if no_action { s.passes + 1 } else { 0 };
    s.agreed = if close == Some(Close::Stalemate) {
        s.agreed + 1
    } else {
        0
    };
    let n = s.pawns.len() as u32;
    if no_action {
        j.changes.push(format!(
            "{name} takes no action ({} of {n} turns in a row without one, MR12).",
            s.passes
        ));
    }
    if close == Some(Close::Stalemate) {
        j.changes.push(format!(
            "{name} agrees to end the game by the tie-break ({} of {n} in a row, MR12).",
            s.agreed
        ));
    }
    s.to_play = s.next_after(j.actor);
    let ending = if s.agreed >= n {
        Some(Ending::Agreement)
    } else if s.passes >= n {
        Some(Ending::Passes)
    } else if !(0..s.pawns.len()).any(|p| has_legal_action(s, p)) {
        Some(Ending::NoAction)
    } else {
        None
    };
    let Some(e) = ending else {
        j.changes
            .push(format!("Next: {}'s turn.", j.state.current().name));
        return;
    };
    s.ending = Some(e);
    s.winners = s.tie_break();
    j.changes
        .push(format!("The game ends by EFAQ 3's tie-break (MR12): {e}."));
    for p in &s.pawns {
        j.changes.push(format!(
            "{}: {} from {} on {}, a stack of {}.",
            p.name,
            p.goal().distance(p.at),
            p.goal(),
            p.at,
            s.stack(p.at).height()
        ));
    }
    let names: Vec<&str> = s
        .winners
        .iter()
        .map(|&i| s.pawns[i].name.as_str())
        .collect();
    j.changes.push(match names.len() {
        1 => format!("{} wins.", names[0]),
        _ => format!("{} share the win (a full tie, MR12).", names.join(" and ")),
    });
}

/// Calls `f` with each legal single action of `player` (placements, coin
/// moves, one-step pawn moves) until it returns true; whether it did.
fn each_action(state: &State, player: usize, f: &mut dyn FnMut(Action) -> bool) -> bool {
    let r = state.rulings;
    let mut sizes: Vec<Coin> = state.table.clone();
    sizes.dedup();
    for coin in sizes {
        for to in Square::all() {
            if state.stack(to).accepts(coin, r.equal_stacking) && f(Action::Place { coin, to }) {
                return true;
            }
        }
    }
    let opponent_on = |sq: Square| state.pawns_at(sq).any(|i| i != player);
    for from in Square::all() {
        let Some(coin) = state.stack(from).top() else {
            continue;
        };
        if !r.coin_from_under_pawn && state.pawns_at(from).next().is_some() {
            continue;
        }
        for to in Square::all() {
            if to != from
                && state.stack(to).accepts(coin, r.equal_stacking)
                && (r.coin_onto_opponent || !opponent_on(to))
                && f(Action::Coin { from, to })
            {
                return true;
            }
        }
    }
    let at = state.pawns[player].at;
    let h = state.stack(at).height();
    for to in at.around() {
        let d = state.stack(to).height();
        if (h >= 2 || !at.is_diagonal_to(to))
            && d > 0
            && d <= h + 1
            && (r.shared_squares || !opponent_on(to))
            && f(Action::Pawn { path: vec![at, to] })
        {
            return true;
        }
    }
    false
}

/// Whether `player` has any legal action (RULINGS MR12).
pub fn has_legal_action(state: &State, player: usize) -> bool {
    each_action(state, player, &mut |_| true)
}

/// Every legal single action of `player`: each placement, each coin move,
/// each one-step pawn move (a longer path is a first step and descents).
pub fn legal_actions(state: &State, player: usize) -> Vec<Action> {
    let mut out = Vec::new();
    each_action(state, player, &mut |a| {
        out.push(a);
        false
    });
    out
}
