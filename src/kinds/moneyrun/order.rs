//! Orders: what one mail of a turn says (How to Play 1 - 4), and their
//! canonical text (`place M e4; pawn e1 e2 f3; end`), which reads back as
//! the same orders.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::board::{Coin, Square};

/// One action (How to Play 2 - 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// `place M e4`: a coin from the table onto a square (How to Play 2).
    Place {
        /// The size.
        coin: Coin,
        /// The square.
        to: Square,
    },
    /// `coin e4 f5`: a top coin moved to another square (How to Play 3).
    Coin {
        /// Where it is taken from.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// `pawn e1 e2 f3`: the pawn's path, one square a step; the pawn's own
    /// square may begin it (How to Play 4; RULINGS MR9).
    Pawn {
        /// The squares as written.
        path: Vec<Square>,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place { coin, to } => write!(f, "place {coin} {to}"),
            Action::Coin { from, to } => write!(f, "coin {from} {to}"),
            Action::Pawn { path } => {
                f.write_str("pawn")?;
                path.iter().try_for_each(|s| write!(f, " {s}"))
            }
        }
    }
}

/// How a mail closes its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Close {
    /// `end`: the turn ends after the actions written (none: a pass).
    End,
    /// `pass`: the turn with no action (How to Play 1, "none").
    Pass,
    /// `stalemate`: the turn ends, and the player agrees to end the game
    /// by EFAQ 3's tie-break (RULINGS MR12).
    Stalemate,
}

impl Close {
    /// The word.
    pub fn word(self) -> &'static str {
        match self {
            Close::End => "end",
            Close::Pass => "pass",
            Close::Stalemate => "stalemate",
        }
    }
}

/// What one mail says: its actions in order, and how it closes the turn
/// (`None`: it leaves that to RULINGS MR14).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Orders {
    /// The actions, in the order written.
    pub actions: Vec<Action>,
    /// `end`, `pass` or `stalemate`, if written.
    pub close: Option<Close>,
}

impl Orders {
    /// Orders of one closing word and no action (a Timeout's, MR13).
    pub fn closing(close: Close) -> Orders {
        Orders {
            actions: Vec::new(),
            close: Some(close),
        }
    }
}

/// The canonical text of orders, for the game log: the actions and the
/// closing word, `; ` between them.
pub fn canonical(orders: &Orders) -> String {
    let mut parts: Vec<String> = orders.actions.iter().map(ToString::to_string).collect();
    parts.extend(orders.close.map(|c| c.word().to_string()));
    parts.join("; ")
}
