//! Line Codes (Rule 1.17.4), line sets and Line Direction (Rule 1.5.4).

use std::fmt;

use serde::Serialize;

/// A Line of the London Underground, by its two-letter Line Code (Rule 1.17.4).
///
/// Ghost Stations are on no line; the code `GH` of Rule 1.11.6 is therefore
/// not a `LineCode` (see [`crate::map::Map::ghosts`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
pub enum LineCode {
    /// Bakerloo.
    BL,
    /// Central.
    CN,
    /// Circle.
    CL,
    /// District.
    DS,
    /// East London.
    EL,
    /// Hammersmith & City.
    HC,
    /// Jubilee.
    JL,
    /// Metropolitan.
    MP,
    /// Northern.
    NT,
    /// Piccadilly.
    PD,
    /// Victoria.
    VC,
    /// Waterloo & City.
    WC,
    /// Docklands Light Railway.
    DL,
}

impl LineCode {
    /// Every line, in a fixed order (the order of Rule 1.17.4's key).
    pub const ALL: [LineCode; 13] = [
        LineCode::BL,
        LineCode::CN,
        LineCode::CL,
        LineCode::DS,
        LineCode::EL,
        LineCode::HC,
        LineCode::JL,
        LineCode::MP,
        LineCode::NT,
        LineCode::PD,
        LineCode::VC,
        LineCode::WC,
        LineCode::DL,
    ];

    /// The two-letter code, e.g. `"NT"`.
    pub fn code(self) -> &'static str {
        match self {
            LineCode::BL => "BL",
            LineCode::CN => "CN",
            LineCode::CL => "CL",
            LineCode::DS => "DS",
            LineCode::EL => "EL",
            LineCode::HC => "HC",
            LineCode::JL => "JL",
            LineCode::MP => "MP",
            LineCode::NT => "NT",
            LineCode::PD => "PD",
            LineCode::VC => "VC",
            LineCode::WC => "WC",
            LineCode::DL => "DL",
        }
    }

    /// Parses a Line Code, ignoring ASCII case (`"nt"` is Northern).
    pub fn parse(code: &str) -> Option<LineCode> {
        LineCode::ALL
            .iter()
            .copied()
            .find(|l| l.code().eq_ignore_ascii_case(code.trim()))
    }

    /// Position in [`LineCode::ALL`], used to index per-line tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for LineCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A line's colour on the map (`colour = "#B36305"` in the map file): the
/// one table the pictures draw from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LineColour(pub [u8; 3]);

impl LineColour {
    /// Parses `#RRGGBB` (any case); `None` for anything else.
    pub fn parse(text: &str) -> Option<LineColour> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(LineColour([byte(0)?, byte(2)?, byte(4)?]))
    }

    /// `#b36305`, as SVG writes it.
    pub fn hex(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// A set of lines, as a bit set (13 lines fit in a `u16`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineSet(u16);

impl LineSet {
    /// The empty set.
    pub const EMPTY: LineSet = LineSet(0);

    /// Adds a line.
    pub fn insert(&mut self, line: LineCode) {
        self.0 |= 1 << line.index();
    }

    /// Whether the set holds `line`.
    pub fn contains(self, line: LineCode) -> bool {
        self.0 & (1 << line.index()) != 0
    }

    /// Number of lines in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lines common to both sets.
    pub fn intersection(self, other: LineSet) -> LineSet {
        LineSet(self.0 & other.0)
    }

    /// The lines in the set, in [`LineCode::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = LineCode> {
        LineCode::ALL.into_iter().filter(move |l| self.contains(*l))
    }
}

impl FromIterator<LineCode> for LineSet {
    fn from_iter<I: IntoIterator<Item = LineCode>>(iter: I) -> Self {
        let mut set = LineSet::EMPTY;
        for line in iter {
            set.insert(line);
        }
        set
    }
}

/// Line Direction (Rule 1.5.4), relative to the direction in which the map
/// data writes every branch of a line: the prescribed direction of
/// Rule 1.20.2 (N-S, E-W or Clockwise) is `Forward`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Direction {
    /// Along the line's prescribed direction (N-S, E-W, Clockwise).
    Forward,
    /// Against it (S-N, W-E, Anti-Clockwise).
    Backward,
}

impl Direction {
    /// The other direction.
    pub fn reversed(self) -> Direction {
        match self {
            Direction::Forward => Direction::Backward,
            Direction::Backward => Direction::Forward,
        }
    }
}
