//! The state of a Money Run game: the board's stacks, the pawns, the
//! table, the bag, whose turn and step it is, and how the game ended.
//! Everything is public (the bag's contents are known, only their order
//! is not), and every draw comes in from an oracle ([`Oracle`]).

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::board::{Coin, Square, Stack};
use super::rulings::Rulings;

/// Where draws come from: `(turn, name, sides)` to a value in
/// `0..sides`. The daemon backs it with `crate::dice::draw(seed, game,
/// turn, name, sides)`, a test with fixed values. The core never draws on
/// its own.
pub type Oracle<'a> = dyn FnMut(u64, &str, u32) -> u32 + 'a;

/// What a draw gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gave {
    /// A coin out of the bag (`bag-<k>`).
    Coin(Coin),
    /// The first player (`first-player`).
    Player(String),
}

impl fmt::Display for Gave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gave::Coin(c) => write!(f, "a {} coin ({})", c.name(), c.letter()),
            Gave::Player(p) => write!(f, "{p}"),
        }
    }
}

/// One draw made: the daemon stores it, `verify-dice` recomputes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRecord {
    /// The turn it was made in (0: the setup).
    pub turn: u64,
    /// Its name: `first-player` or `bag-<k>`.
    pub name: String,
    /// How many sides: the players, or the coins left in the bag.
    pub sides: u32,
    /// The value used, `0..sides`.
    pub value: u32,
    /// What it gave.
    pub gave: Gave,
}

impl fmt::Display for DrawRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "draw {} (turn {}, {} of {}): {}",
            self.name, self.turn, self.value, self.sides, self.gave
        )
    }
}

/// Asks the oracle, keeping the value in range (an oracle out of range is
/// reduced modulo `sides`; the record holds the value used).
fn ask(oracle: &mut Oracle<'_>, turn: u64, name: &str, sides: u32) -> u32 {
    oracle(turn, name, sides) % sides.max(1)
}

/// A line a pawn races to (RULINGS MR2, a house ruling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// A row, 0 (`1`) - 8 (`9`).
    Row(u8),
    /// A column, 0 (`a`) - 8 (`i`).
    Column(u8),
}

impl Goal {
    /// Whether `sq` is on the line.
    pub fn holds(self, sq: Square) -> bool {
        self.distance(sq) == 0
    }

    /// How many rows or columns `sq` is from the line (EFAQ 3's
    /// Manhattan distance to the nearest square of it).
    pub fn distance(self, sq: Square) -> u32 {
        u32::from(match self {
            Goal::Row(r) => sq.row().abs_diff(r),
            Goal::Column(c) => sq.col().abs_diff(c),
        })
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::Row(r) => write!(f, "row {}", r + 1),
            Goal::Column(c) => write!(f, "column {}", (b'a' + c) as char),
        }
    }
}

/// A seat's start square and goal (RULINGS MR2, a house ruling: the
/// seed's setup image is lost): seat 1 e1 to row 9, seat 2 e9 to row 1,
/// seat 3 a5 to column i, seat 4 i5 to column a.
pub fn seat(seat: u8) -> (Square, Goal) {
    let sq = |t: &str| Square::parse(t).expect("a square");
    match seat {
        1 => (sq("e1"), Goal::Row(8)),
        2 => (sq("e9"), Goal::Row(0)),
        3 => (sq("a5"), Goal::Column(8)),
        _ => (sq("i5"), Goal::Column(0)),
    }
}

/// Seats clockwise round the board (RULINGS MR4): 1 (south), 3 (west),
/// 2 (north), 4 (east).
pub const CLOCKWISE: [u8; 4] = [1, 3, 2, 4];

/// A player's pawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pawn {
    /// The player's name, as given when the game began.
    pub name: String,
    /// The seat, 1 - 4 (RULINGS MR2).
    pub seat: u8,
    /// Where the pawn stands.
    pub at: Square,
}

impl Pawn {
    /// The line the pawn races to.
    pub fn goal(&self) -> Goal {
        seat(self.seat).1
    }
}

/// A turn left open after its first mail (RULINGS MR14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenTurn {
    /// Actions taken so far in the turn (1).
    pub actions: u8,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// A pawn reached its goal line (How to Play 6; MR11).
    Goal,
    /// A full round of turns without an action (EFAQ 3; MR12).
    Passes,
    /// No player had a legal action (EFAQ 3; MR12).
    NoAction,
    /// Every player agreed, a round of `stalemate` (EFAQ 3; MR12).
    Agreement,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::Goal => "a pawn reached its goal line",
            Ending::Passes => "a full round of turns passed without an action",
            Ending::NoAction => "no player has a legal action",
            Ending::Agreement => "every player agreed to the tie-break (stalemate)",
        })
    }
}

/// What the player to act is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// A fresh turn: up to two actions, `pass` or `end`.
    Turn,
    /// An open turn's second action, or `end` (RULINGS MR14).
    SecondAction,
}

impl Step {
    /// `turn` or `second action`.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Turn => "turn",
            Step::SecondAction => "second action",
        }
    }
}

/// Who must act now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// This player, for this step.
    Act {
        /// Who.
        player: String,
        /// What is awaited.
        step: Step,
    },
    /// The game is over.
    Over {
        /// Who won (more than one on a full tie, MR12).
        winners: Vec<String>,
    },
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The pawns, in seat order: the first player given sits at seat 1.
    pub pawns: Vec<Pawn>,
    /// Indices into `pawns` in order of play, from the first player drawn.
    pub order: Vec<usize>,
    /// The index into `pawns` of the player to act.
    pub to_play: usize,
    /// The 81 stacks, row by row from a1 ([`Square::index`]).
    pub board: Vec<Stack>,
    /// The coins on the table, largest first.
    pub table: Vec<Coin>,
    /// The coins in the bag, per size in [`Coin::ALL`] order.
    pub bag: [u32; 4],
    /// Bag draws made so far in the game (the next is `bag-<bag_draws+1>`).
    pub bag_draws: u32,
    /// Turns closed so far (the turn being played is `turns + 1`).
    pub turns: u64,
    /// The turn left open, if any (RULINGS MR14).
    pub open: Option<OpenTurn>,
    /// Turns closed in a row without an action (RULINGS MR12).
    pub passes: u32,
    /// Turns closed in a row with `stalemate` (RULINGS MR12).
    pub agreed: u32,
    /// The winners, once the game is over.
    pub winners: Vec<usize>,
    /// How the game ended.
    pub ending: Option<Ending>,
    /// The game's choices on contested rulings.
    pub rulings: Rulings,
}

/// A game that cannot start as asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StartError {
    /// "Number of Players: 2 to 4".
    #[error("money-run is for 2 to 4 players, not {0}")]
    Players(usize),
    /// Two players of the same name.
    #[error("two players are named {0:?}")]
    SameName(String),
    /// An empty name.
    #[error("a player's name is empty")]
    EmptyName,
}

/// Whether two player names are the same name (trimmed, ASCII case
/// ignored).
pub fn same_player(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

impl State {
    /// The state before the setup's draws: pawns on their start squares
    /// (RULINGS MR2), every coin in the bag, the first player to play.
    pub fn empty(players: &[String], rulings: Rulings) -> Result<State, StartError> {
        if !(2..=4).contains(&players.len()) {
            return Err(StartError::Players(players.len()));
        }
        for (i, p) in players.iter().enumerate() {
            if p.trim().is_empty() {
                return Err(StartError::EmptyName);
            }
            if players[..i].iter().any(|q| same_player(p, q)) {
                return Err(StartError::SameName(p.clone()));
            }
        }
        let pawns: Vec<Pawn> = players
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let s = i as u8 + 1;
                Pawn {
                    name: name.clone(),
                    seat: s,
                    at: seat(s).0,
                }
            })
            .collect();
        let order = CLOCKWISE
            .iter()
            .filter_map(|s| pawns.iter().position(|p| p.seat == *s))
            .collect();
        Ok(State {
            pawns,
            order,
            to_play: 0,
            board: vec![Stack::default(); 81],
            table: Vec::new(),
            bag: Coin::ALL.map(Coin::count),
            bag_draws: 0,
            turns: 0,
            open: None,
            passes: 0,
            agreed: 0,
            winners: Vec::new(),
            ending: None,
            rulings,
        })
    }

    /// The start (Setup): pawns on their start squares, five coins drawn
    /// from the bag onto the table (`bag-1` - `bag-5`, turn 0), the first
    /// player drawn (`first-player`, sides = players, turn 0; RULINGS
    /// MR4), and the draws made.
    pub fn start(
        players: &[String],
        rulings: Rulings,
        oracle: &mut Oracle<'_>,
    ) -> Result<(State, Vec<DrawRecord>), StartError> {
        let mut state = State::empty(players, rulings)?;
        let mut draws = Vec::new();
        for _ in 0..5 {
            draws.extend(state.draw_coin(0, oracle));
        }
        let n = players.len() as u32;
        let v = ask(oracle, 0, "first-player", n);
        state.to_play = v as usize;
        let first = state.order.iter().position(|&i| i == v as usize);
        state.order.rotate_left(first.unwrap_or(0));
        draws.push(DrawRecord {
            turn: 0,
            name: "first-player".into(),
            sides: n,
            value: v,
            gave: Gave::Player(players[v as usize].clone()),
        });
        Ok((state, draws))
    }

    /// Draws one coin from the bag onto the table (`bag-<k>` at `turn`),
    /// if the bag holds any (RULINGS MR6).
    pub fn draw_coin(&mut self, turn: u64, oracle: &mut Oracle<'_>) -> Option<DrawRecord> {
        let sides: u32 = self.bag.iter().sum();
        if sides == 0 {
            return None;
        }
        self.bag_draws += 1;
        let name = format!("bag-{}", self.bag_draws);
        let value = ask(oracle, turn, &name, sides);
        let mut left = value;
        let coin = Coin::ALL
            .into_iter()
            .find(|c| {
                let n = self.bag[c.index()];
                if left < n {
                    true
                } else {
                    left -= n;
                    false
                }
            })
            .expect("value < sides");
        self.bag[coin.index()] -= 1;
        self.put_on_table(coin);
        Some(DrawRecord {
            turn,
            name,
            sides,
            value,
            gave: Gave::Coin(coin),
        })
    }

    /// Puts a coin on the table, keeping it largest first.
    pub fn put_on_table(&mut self, coin: Coin) {
        let at = self.table.partition_point(|c| *c <= coin);
        self.table.insert(at, coin);
    }

    /// Takes a coin of size `coin` off the table, if one is there.
    pub fn take_from_table(&mut self, coin: Coin) -> bool {
        match self.table.iter().position(|c| *c == coin) {
            Some(i) => {
                self.table.remove(i);
                true
            }
            None => false,
        }
    }

    /// The number of the turn being played (the first is 1).
    pub fn turn_number(&self) -> u64 {
        self.turns + 1
    }

    /// The index of the player named `name`, if any.
    pub fn player(&self, name: &str) -> Option<usize> {
        self.pawns.iter().position(|p| same_player(&p.name, name))
    }

    /// The pawn of the player to act.
    pub fn current(&self) -> &Pawn {
        &self.pawns[self.to_play]
    }

    /// The stack on `sq`.
    pub fn stack(&self, sq: Square) -> Stack {
        self.board[sq.index()]
    }

    /// The stack on `sq`, to change.
    pub fn stack_mut(&mut self, sq: Square) -> &mut Stack {
        &mut self.board[sq.index()]
    }

    /// The players whose pawns stand on `sq`.
    pub fn pawns_at(&self, sq: Square) -> impl Iterator<Item = usize> + '_ {
        (0..self.pawns.len()).filter(move |&i| self.pawns[i].at == sq)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// The coins in the bag.
    pub fn bag_total(&self) -> u32 {
        self.bag.iter().sum()
    }

    /// Every coin counted: board + table + bag (always 42).
    pub fn coins_total(&self) -> u32 {
        let board: u32 = self.board.iter().map(|s| s.height()).sum();
        board + self.table.len() as u32 + self.bag_total()
    }

    /// The player after `i` in order of play.
    pub fn next_after(&self, i: usize) -> usize {
        let k = self.order.iter().position(|&p| p == i).unwrap_or(0);
        self.order[(k + 1) % self.order.len()]
    }

    /// Who must act now, for which step.
    pub fn next(&self) -> Next {
        if self.is_over() {
            return Next::Over {
                winners: self
                    .winners
                    .iter()
                    .map(|&i| self.pawns[i].name.clone())
                    .collect(),
            };
        }
        Next::Act {
            player: self.current().name.clone(),
            step: match self.open {
                Some(_) => Step::SecondAction,
                None => Step::Turn,
            },
        }
    }

    /// The tie-break of EFAQ 3 (RULINGS MR12): the pawns nearest their
    /// goal lines, of those the ones on the highest stack; more than one
    /// is a shared win.
    pub fn tie_break(&self) -> Vec<usize> {
        let key = |i: usize| {
            let p = &self.pawns[i];
            (
                p.goal().distance(p.at),
                u32::MAX - self.stack(p.at).height(),
            )
        };
        let best = (0..self.pawns.len()).map(key).min().unwrap_or_default();
        (0..self.pawns.len()).filter(|&i| key(i) == best).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_start_draws_five_coins_then_the_first_player() {
        let mut calls = Vec::new();
        let mut oracle = |turn: u64, name: &str, sides: u32| {
            calls.push((turn, name.to_string(), sides));
            if name == "first-player" {
                2
            } else {
                0
            }
        };
        let (s, draws) = State::start(
            &names(&["Ann", "Bob", "Cy"]),
            Rulings::default(),
            &mut oracle,
        )
        .unwrap();
        assert_eq!(draws.len(), 6);
        assert_eq!(calls[0], (0, "bag-1".into(), 42));
        assert_eq!(calls[4], (0, "bag-5".into(), 38));
        assert_eq!(calls[5], (0, "first-player".into(), 3));
        assert_eq!(s.table, vec![Coin::Large; 5]);
        assert_eq!(s.bag, [0, 10, 12, 15]);
        assert_eq!(s.current().name, "Cy");
        // Clockwise from seat 3: 3 -> 2 -> 1.
        assert_eq!(s.order, vec![2, 1, 0]);
        assert_eq!(s.coins_total(), 42);
        assert_eq!(s.pawns[2].at.to_string(), "a5");
        assert_eq!(
            s.next(),
            Next::Act {
                player: "Cy".into(),
                step: Step::Turn
            }
        );
    }

    #[test]
    fn a_bag_draw_takes_the_value_th_coin_large_first() {
        let mut s = State::empty(&names(&["Ann", "Bob"]), Rulings::default()).unwrap();
        let mut v = |_: u64, _: &str, _: u32| 5;
        assert_eq!(
            s.draw_coin(3, &mut v).unwrap().gave,
            Gave::Coin(Coin::Medium)
        );
        let mut v = |_: u64, _: &str, _: u32| 40;
        let r = s.draw_coin(3, &mut v).unwrap();
        assert_eq!(
            (r.gave, r.sides, r.name.as_str()),
            (Gave::Coin(Coin::Puny), 41, "bag-2")
        );
        s.bag = [0; 4];
        assert!(s.draw_coin(3, &mut v).is_none());
    }

    #[test]
    fn starts_need_two_to_four_distinct_players() {
        let r = Rulings::default();
        assert_eq!(State::empty(&names(&["A"]), r), Err(StartError::Players(1)));
        assert_eq!(
            State::empty(&names(&["A", "B", "C", "D", "E"]), r),
            Err(StartError::Players(5))
        );
        assert_eq!(
            State::empty(&names(&["A", "a "]), r),
            Err(StartError::SameName("a ".into()))
        );
    }
}
