//! A turn as typed values (Rule 2): the player, the actions in document
//! order, and the comments. Stations are resolved once, when the turn is
//! read.

use serde::Serialize;

use super::actions::{ActionKind, Part};
use crate::map::{LineCode, StationId};

/// A station as a turn names it: `Regent's Park (BL)` keeps its line, which
/// the judge checks against the step's segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StationRef {
    /// The station.
    pub id: StationId,
    /// The line written after it, if any.
    pub line: Option<LineCode>,
}

/// What a Steal takes (RULINGS MX10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Item {
    /// One token.
    Token,
    /// One station part.
    Part(Part),
}

impl Item {
    /// The word the canonical turn writes.
    pub fn word(self) -> &'static str {
        match self {
            Item::Token => "token",
            Item::Part(p) => p.spec().item,
        }
    }
}

/// One action of Rule 6.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Action {
    /// `<Move steps="a, b, c"/>`: the stations stepped to, in order.
    Move {
        /// The steps (the start station excluded).
        steps: Vec<StationRef>,
    },
    /// `<Shunt player="P" steps="a, b" force="2"/>`.
    Shunt {
        /// The player shunted, as written.
        player: String,
        /// The shunted train's steps.
        steps: Vec<StationRef>,
        /// The force written, if any (RULINGS MX4: it must equal the steps).
        force: Option<u32>,
    },
    /// `<Block station="s" strength="x"/>`.
    Block {
        /// The station to close.
        station: StationRef,
        /// Its strength, x (1 when not written: RULINGS MX4).
        strength: u32,
    },
    /// `<Unblock station="s"/>`.
    Unblock {
        /// The station to open.
        station: StationRef,
    },
    /// `<Steal player="P" item="lift"/>`.
    Steal {
        /// The player robbed, as written.
        player: String,
        /// What is taken.
        item: Item,
    },
    /// `<Work/>`.
    Work,
    /// `<Slave/>`.
    Slave,
    /// `<Buy item="platform"/>`.
    Buy {
        /// The part bought.
        item: Part,
    },
    /// `<Build/>`.
    Build,
}

impl Action {
    /// Which of the nine actions it is.
    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Move { .. } => ActionKind::Move,
            Action::Shunt { .. } => ActionKind::Shunt,
            Action::Block { .. } => ActionKind::Block,
            Action::Unblock { .. } => ActionKind::Unblock,
            Action::Steal { .. } => ActionKind::Steal,
            Action::Work => ActionKind::Work,
            Action::Slave => ActionKind::Slave,
            Action::Buy { .. } => ActionKind::Buy,
            Action::Build => ActionKind::Build,
        }
    }
}

/// Something well-formed in a turn that the ruleset does not have, outside
/// a Comment (Rule 2 "Nothing may be added to the turn that is not part of
/// this ruleset except inside comment elements"; RULINGS MX17): the judge
/// refuses the turn for it, beside whatever else is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Foreign {
    /// The line of the mail body.
    pub line: usize,
    /// What it is: `<Pass>`, `hard= on <Work>`, `text "..."`.
    pub what: String,
}

/// A turn (Rule 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The `player` attribute, whitespace collapsed (empty: none given).
    pub player: String,
    /// The actions, in document order.
    pub actions: Vec<Action>,
    /// Each `<Comment>`'s content as XML, exactly as written (after the
    /// reader's repairs).
    pub comments: Vec<String>,
    /// What the ruleset does not have, in document order (empty in a turn
    /// that can be legal; [`canonical`](super::render::canonical) omits it).
    pub foreign: Vec<Foreign>,
}

impl Turn {
    /// The empty turn a Timeout plays for `player` (RULINGS MX5).
    pub fn empty(player: &str) -> Turn {
        Turn {
            player: player.to_string(),
            actions: Vec::new(),
            comments: Vec::new(),
            foreign: Vec::new(),
        }
    }

    /// The bytes the comments take serialised as `<Comment>...</Comment>`
    /// (Rule 2: less than 5k a turn, RULINGS MX17).
    pub fn comment_bytes(&self) -> usize {
        self.comments
            .iter()
            .map(|c| "<Comment></Comment>".len() + c.len())
            .sum()
    }
}

/// Rule 2: comments "must occupy less than 5k of space when in XML format
/// per turn" (RULINGS MX17: 5,120 bytes).
pub const COMMENT_LIMIT: usize = 5120;
