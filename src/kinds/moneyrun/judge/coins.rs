//! Placing a coin from the table (How to Play 2; Placing Coins) and
//! moving a coin on the board (How to Play 3; EFAQ 1).

use super::super::board::{Coin, Square, Stack};
use super::Judging;

/// Who stands on `sq`, as `Ann's pawn` or `the pawns of Ann and Bob`.
fn pawn_words(j: &Judging<'_, '_>, sq: Square) -> Option<String> {
    let names: Vec<String> = j
        .state
        .pawns_at(sq)
        .map(|i| j.state.pawns[i].name.clone())
        .collect();
    match names.len() {
        0 => None,
        1 => Some(format!("{}'s pawn", names[0])),
        _ => Some(format!("the pawns of {}", names.join(" and "))),
    }
}

fn describe(c: Coin) -> String {
    format!("a {} coin ({})", c.name(), c.letter())
}

/// Checks that `coin` may go on `stack` (Placing Coins; MR7), citing `rule`.
fn stacking(
    j: &mut Judging<'_, '_>,
    coin: Coin,
    stack: Stack,
    sq: Square,
    rule: &'static str,
) -> bool {
    let equal = j.state.rulings.equal_stacking;
    if stack.accepts(coin, equal) {
        return true;
    }
    let top = stack.top().expect("a stack that refuses has a top");
    if top == coin {
        j.violate(
            rule,
            Some("MR7"),
            format!(
                "{} may not go on another of its size on {sq} in this game (equal_stacking = false)",
                describe(coin)
            ),
        );
    } else {
        j.violate(
            rule,
            Some("MR7"),
            format!(
                "{} may not go on the smaller {} coin on top of {sq}: no coin lies on a smaller one",
                describe(coin),
                top.name()
            ),
        );
    }
    false
}

/// `place C sq`: the coin leaves the table for the top of `sq`; a coin is
/// drawn from the bag to refill the table while the bag has one (MR6).
pub(super) fn place(j: &mut Judging<'_, '_>, coin: Coin, to: Square) {
    let name = j.name();
    let on_table = j.state.table.iter().filter(|c| **c == coin).count();
    let fresh = j.fresh.iter().filter(|c| **c == coin).count();
    if on_table == 0 {
        let table: Vec<String> = j.state.table.iter().map(ToString::to_string).collect();
        j.violate(
            "H2",
            None,
            format!(
                "there is no {} coin ({}) on the table to place; the table: {}",
                coin.name(),
                coin.letter(),
                if table.is_empty() {
                    "empty".into()
                } else {
                    table.join(" ")
                }
            ),
        );
        return;
    }
    if on_table <= fresh {
        j.violate(
            "H2",
            Some("MR15"),
            format!(
                "the {} coin on the table was drawn during this mail, unseen: it may be placed in a later mail (leave the turn open, MR14)",
                coin.name()
            ),
        );
        return;
    }
    let stack = j.state.stack(to);
    if !stacking(j, coin, stack, to, "C3") {
        return;
    }
    j.state.take_from_table(coin);
    j.state.stack_mut(to).push(coin);
    let under = pawn_words(j, to).map_or(String::new(), |p| format!(", under {p} (E2)"));
    j.changes.push(format!(
        "{name} places {} on {to} (height {}){under}.",
        describe(coin),
        j.state.stack(to).height()
    ));
    let turn = j.state.turn_number();
    match j.state.draw_coin(turn, j.oracle) {
        Some(d) => {
            if let super::super::state::Gave::Coin(c) = d.gave {
                j.fresh.push(c);
            }
            j.changes.push(format!(
                "Drawn from the bag ({}): {}; the table: {}.",
                d.name,
                d.gave,
                table_words(&j.state.table)
            ));
            j.draws.push(d);
            j.drew_last = true;
        }
        None => j.changes.push(format!(
            "The bag is empty: no refill (MR6); the table: {}.",
            table_words(&j.state.table)
        )),
    }
}

/// The table as letters, or `empty`.
pub fn table_words(table: &[Coin]) -> String {
    if table.is_empty() {
        return "empty".into();
    }
    table
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `coin from to`: the top coin of `from` to the top of `to` (Placing
/// Coins; EFAQ 1 as RULINGS MR8 reads it).
pub(super) fn move_coin(j: &mut Judging<'_, '_>, from: Square, to: Square) {
    let before = j.violations.len();
    let name = j.name();
    if from == to {
        j.violate(
            "H3",
            None,
            format!("a coin moved from {from} to {from} does not move"),
        );
        return;
    }
    let Some(coin) = j.state.stack(from).top() else {
        j.violate("C8", None, format!("there is no coin on {from} to move"));
        return;
    };
    if !j.state.rulings.coin_from_under_pawn {
        if let Some(p) = pawn_words(j, from) {
            j.violate(
                "E1",
                Some("MR8"),
                format!(
                    "the top coin of {from} is under {p}: a coin under a pawn is not free to move"
                ),
            );
        }
    }
    if !j.state.rulings.coin_onto_opponent {
        let actor = j.actor;
        let opponents: Vec<String> = j
            .state
            .pawns_at(to)
            .filter(|&i| i != actor)
            .map(|i| j.state.pawns[i].name.clone())
            .collect();
        if !opponents.is_empty() {
            j.violate(
                "E1",
                Some("MR8"),
                format!(
                    "{to} holds {}'s pawn: a coin may not be moved under an opponent's pawn",
                    opponents.join(" and ")
                ),
            );
        }
    }
    let target = j.state.stack(to);
    stacking(j, coin, target, to, "C7");
    if j.violations.len() > before {
        return;
    }
    j.state.stack_mut(from).pop();
    j.state.stack_mut(to).push(coin);
    j.changes.push(format!(
        "{name} moves {} from {from} (now height {}) to {to} (height {}).",
        describe(coin),
        j.state.stack(from).height(),
        j.state.stack(to).height()
    ));
}
