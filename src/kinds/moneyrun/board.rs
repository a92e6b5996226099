//! The pieces of Money Run: the four coin sizes ([`Coin`]), the 81 squares
//! of the 9x9 board ([`Square`], RULINGS MR1) and a stack of coins on one
//! square ([`Stack`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A coin size (RULINGS MR3: the four the seed lists), largest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Coin {
    /// Large ($1 in Singapore): 5 in the game.
    Large,
    /// Medium (50c): 10.
    Medium,
    /// Small (20c): 12.
    Small,
    /// Puny (10c): 15.
    Puny,
}

/// How many coins the game holds in all (5 + 10 + 12 + 15).
pub const TOTAL_COINS: u32 = 42;

impl Coin {
    /// Every size, in the bag's canonical order: Large, Medium, Small, Puny.
    pub const ALL: [Coin; 4] = [Coin::Large, Coin::Medium, Coin::Small, Coin::Puny];

    /// Its index in [`Coin::ALL`] (0 is the largest).
    pub fn index(self) -> usize {
        self as usize
    }

    /// How many of this size the game holds ("What you'll need").
    pub fn count(self) -> u32 {
        [5, 10, 12, 15][self.index()]
    }

    /// Its letter: `L`, `M`, `S` or `P`.
    pub fn letter(self) -> char {
        ['L', 'M', 'S', 'P'][self.index()]
    }

    /// Its name in lower case.
    pub fn name(self) -> &'static str {
        ["large", "medium", "small", "puny"][self.index()]
    }

    /// The size a letter or a name (any case) stands for.
    pub fn parse(word: &str) -> Option<Coin> {
        let w = word.to_ascii_lowercase();
        Coin::ALL.into_iter().find(|c| {
            w == c.name() || (w.len() == 1 && w.starts_with(c.letter().to_ascii_lowercase()))
        })
    }

    /// Whether a coin of this size may lie on one of size `below`
    /// (never on a smaller one; on an equal one when `equal` allows it,
    /// RULINGS MR7).
    pub fn fits_on(self, below: Coin, equal: bool) -> bool {
        self > below || (equal && self == below)
    }
}

impl fmt::Display for Coin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A square of the board: column `a` - `i` and row `1` - `9` (RULINGS MR1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    col: u8,
    row: u8,
}

/// The board's side, in squares.
pub const SIDE: u8 = 9;

impl Square {
    /// The square at column `col` and row `row`, each 0 - 8.
    pub fn new(col: u8, row: u8) -> Option<Square> {
        (col < SIDE && row < SIDE).then_some(Square { col, row })
    }

    /// The square of index `i` (0 - 80, row by row from a1).
    pub fn from_index(i: usize) -> Square {
        Square {
            col: (i % 9) as u8,
            row: (i / 9) as u8,
        }
    }

    /// Its index, 0 - 80, row by row from a1.
    pub fn index(self) -> usize {
        self.row as usize * 9 + self.col as usize
    }

    /// Its column, 0 (`a`) - 8 (`i`).
    pub fn col(self) -> u8 {
        self.col
    }

    /// Its row, 0 (`1`) - 8 (`9`).
    pub fn row(self) -> u8 {
        self.row
    }

    /// Every square, a1 to i9 row by row.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square::from_index)
    }

    /// A square as written: a letter `a` - `i` and a digit `1` - `9`, any case.
    pub fn parse(word: &str) -> Option<Square> {
        let b = word.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let col = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        let row = b[1].checked_sub(b'1')?;
        Square::new(col, row)
    }

    /// Whether `other` is one step away: orthogonally, or (`diagonal`)
    /// diagonally too.
    pub fn neighbours(self, other: Square, diagonal: bool) -> bool {
        let dc = self.col.abs_diff(other.col);
        let dr = self.row.abs_diff(other.row);
        match (dc, dr) {
            (0, 1) | (1, 0) => true,
            (1, 1) => diagonal,
            _ => false,
        }
    }

    /// Whether `other` is a diagonal neighbour.
    pub fn is_diagonal_to(self, other: Square) -> bool {
        self.col.abs_diff(other.col) == 1 && self.row.abs_diff(other.row) == 1
    }

    /// The up to 8 squares one step away.
    pub fn around(self) -> impl Iterator<Item = Square> {
        let (c, r) = (self.col as i8, self.row as i8);
        (-1i8..=1)
            .flat_map(move |dc| (-1i8..=1).map(move |dr| (dc, dr)))
            .filter(|&d| d != (0, 0))
            .filter_map(move |(dc, dr)| {
                let (nc, nr) = (c + dc, r + dr);
                (nc >= 0 && nr >= 0)
                    .then(|| Square::new(nc as u8, nr as u8))
                    .flatten()
            })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = String::deserialize(d)?;
        Square::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("not a square: {s:?}")))
    }
}

/// The coins on one square. No coin lies on a smaller one (Placing Coins),
/// so a stack is its count of each size, the larger below: it is written
/// bottom to top as letters (`LMMS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stack([u8; 4]);

impl Stack {
    /// How many coins.
    pub fn height(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether it holds no coin.
    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    /// The top coin, if any (the smallest size it holds).
    pub fn top(self) -> Option<Coin> {
        Coin::ALL.into_iter().rev().find(|c| self.0[c.index()] > 0)
    }

    /// How many of `c` it holds.
    pub fn count(self, c: Coin) -> u32 {
        u32::from(self.0[c.index()])
    }

    /// Puts `c` on top; the caller has checked it fits.
    pub fn push(&mut self, c: Coin) {
        self.0[c.index()] = self.0[c.index()].saturating_add(1);
    }

    /// Takes the top coin off.
    pub fn pop(&mut self) -> Option<Coin> {
        let c = self.top()?;
        self.0[c.index()] -= 1;
        Some(c)
    }

    /// Whether `c` may go on top (always on an empty square).
    pub fn accepts(self, c: Coin, equal: bool) -> bool {
        self.top().is_none_or(|t| c.fits_on(t, equal))
    }

    /// The coins bottom to top.
    pub fn coins(self) -> impl Iterator<Item = Coin> {
        Coin::ALL
            .into_iter()
            .flat_map(move |c| std::iter::repeat_n(c, self.0[c.index()] as usize))
    }

    /// A stack from letters bottom to top, if each fits on the one below
    /// (equal sizes allowed).
    pub fn parse(text: &str) -> Option<Stack> {
        let mut s = Stack::default();
        for ch in text.chars().filter(|c| !c.is_whitespace()) {
            let c = Coin::parse(&ch.to_string())?;
            if !s.accepts(c, true) {
                return None;
            }
            s.push(c);
        }
        Some(s)
    }
}

impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.coins().try_for_each(|c| write!(f, "{c}"))
    }
}

impl Serialize for Stack {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Stack {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stack, D::Error> {
        let s = String::deserialize(d)?;
        Stack::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("not a stack: {s:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_any_case_and_print_lower() {
        assert_eq!(Square::parse("E4").unwrap().to_string(), "e4");
        assert_eq!(Square::parse("i9").unwrap().index(), 80);
        assert!(Square::parse("j1").is_none());
        assert!(Square::parse("a0").is_none());
        assert!(Square::parse("a10").is_none());
        assert_eq!(Square::parse("a1").unwrap().around().count(), 3);
        assert_eq!(Square::parse("e5").unwrap().around().count(), 8);
    }

    #[test]
    fn coins_total_42_and_stack_largest_below() {
        assert_eq!(
            Coin::ALL.iter().map(|c| c.count()).sum::<u32>(),
            TOTAL_COINS
        );
        let s = Stack::parse("LMMS").unwrap();
        assert_eq!((s.height(), s.top()), (4, Some(Coin::Small)));
        assert_eq!(s.to_string(), "LMMS");
        assert!(Stack::parse("SM").is_none());
        assert!(s.accepts(Coin::Puny, false) && !s.accepts(Coin::Medium, true));
        assert!(s.accepts(Coin::Small, true) && !s.accepts(Coin::Small, false));
        assert_eq!(Coin::parse("Medium"), Some(Coin::Medium));
        assert_eq!(Coin::parse("p"), Some(Coin::Puny));
        assert_eq!(Coin::parse("x"), None);
    }
}
