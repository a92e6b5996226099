//! The fFrobisher fFlourish (Rule 1.7.59): six dice, each an Active
//! player by eir place in the order of play; every Player's non-Gold Tokens
//! pooled and shared out by the table, after the Turn (RULINGS E89).

use super::*;
use crate::dice;

/// The rule.
const RULE: &str = "1.7.59";

/// One cell of the share table: what the die's Player gets of a colour.
#[derive(Clone, Copy)]
enum Share {
    /// Nothing.
    None,
    /// A quarter of the colour's pool, rounded down.
    Quarter,
    /// What is left of the colour once the rest is given.
    Rest,
}

/// The pooled colours, the table's columns.
const COLUMNS: [Colour; 6] = [
    Colour::Black,
    Colour::Blue,
    Colour::Bronze,
    Colour::Green,
    Colour::Red,
    Colour::Silver,
];

/// The share table of Rule 1.7.59: a row a die, a column a colour of
/// [`COLUMNS`].
const TABLE: [[Share; 6]; 6] = {
    use Share::{None as O, Quarter as Q, Rest as R};
    [
        [Q, Q, Q, Q, R, O],
        [O, Q, Q, Q, Q, R],
        [R, O, Q, Q, Q, Q],
        [Q, R, O, Q, Q, Q],
        [Q, Q, R, O, Q, Q],
        [Q, Q, Q, R, O, Q],
    ]
};

impl Turn<'_> {
    /// `[fFrobisher fFlourish]`: reads its six dice, `{rolled frobisher-1
    /// N}` ... `{rolled frobisher-6 N}`, each a face of a die with one side
    /// per Active player; the redistribution happens as the Turn ends.
    pub(super) fn frobisher(&mut self) -> Charge {
        let active: Vec<usize> = (0..self.s.players.len())
            .filter(|&i| self.s.players[i].active)
            .collect();
        let mut picks = Vec::with_capacity(6);
        for k in 1..=6 {
            let name = dice::frobisher_draw_name(k);
            let Some(v) = self.named_roll(&name) else {
                self.ruling(
                    RULE,
                    format!(
                        "[fFrobisher fFlourish] rolls six dice, and \"{name}\" is not in the Play: \
                         in a game with dice mornbot rolls them; in one without, the player \
                         writes {{rolled {name} N}} (RULINGS E85)"
                    ),
                );
                return Charge::Free;
            };
            let Some(&who) = usize::try_from(v)
                .ok()
                .and_then(|v| v.checked_sub(1))
                .and_then(|i| active.get(i))
            else {
                self.illegal(
                    RULE,
                    format!(
                        "each die has as many sides as there are Active players, {}: {{rolled {name} {v}}} is no face of it",
                        active.len()
                    ),
                );
                return Charge::Free;
            };
            picks.push(who);
        }
        self.tally.flourish = Some(picks);
        Charge::Table
    }

    /// As the Turn ends, the fFlourish its dice picked: every Player loses
    /// eir non-Gold Tokens to the Pool, shared by the table (Rule 1.7.59).
    pub(super) fn flourish(&mut self) {
        let Some(picks) = self.tally.flourish.take() else {
            return;
        };
        let mut pool = [0u32; 6];
        for p in &mut self.s.players {
            for (n, c) in pool.iter_mut().zip(COLUMNS) {
                *n += p.tokens.get(c);
                p.tokens.set(c, 0);
            }
        }
        for (col, (&total, c)) in pool.iter().zip(COLUMNS).enumerate() {
            let quarter = total / 4;
            let given: u32 = TABLE
                .iter()
                .filter(|row| matches!(row[col], Share::Quarter))
                .map(|_| quarter)
                .sum();
            for (row, &who) in TABLE.iter().zip(&picks) {
                let gets = match row[col] {
                    Share::None => 0,
                    Share::Quarter => quarter,
                    Share::Rest => total - given,
                };
                let t = &mut self.s.players[who].tokens;
                t.set(c, t.get(c) + gets);
            }
        }
        let names: Vec<String> = picks
            .iter()
            .map(|&i| self.s.players[i].name.clone())
            .collect();
        let pooled: Vec<(u32, Colour)> = pool.iter().copied().zip(COLUMNS).collect();
        self.change(format!(
            "the fFrobisher fFlourish: a Pool of {} shared by the dice's {} (Rule 1.7.59)",
            fmt_tokens(
                &pooled
                    .into_iter()
                    .filter(|(n, _)| *n > 0)
                    .collect::<Vec<_>>()
            ),
            names.join(", ")
        ));
    }
}
