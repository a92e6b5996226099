//! mc-xml: XML Mornington Crescent (`shared/seeds/mc-xml-ruleset.txt`), a
//! race on the 1999 map to rebuild Mornington Crescent, one XML `<Turn>` a
//! mail. The pure core: the map's facts, the turn reader, the judge, the
//! state document and the case runner. RULINGS.md, section mc-xml, says how
//! each gap of the seed is read (MX1 - MX22).
//!
//! - [`facts`]: the plain graph of every line, degrees, all-pairs steps.
//! - [`rulings`]: the contested readings a game may choose.
//! - [`actions`]: the one table of Rule 6's actions and Rule 5's parts.
//! - [`state`]: trains, tokens, parts, closures, whose turn, the winner.
//! - [`mod@read`]: a turn from a mail body, with the repairs it needed.
//! - [`mod@judge`]: a turn against a state: Legal, Illegal (every violation) or Won.
//! - [`render`]: the state document and the canonical turn.
//! - [`case`]: the rule cases of `fixtures/cases-mcxml/`.
//! - [`coverage`]: every rule sentence of the seed and its status.

pub mod actions;
pub mod case;
pub mod coverage;
pub mod facts;
pub mod judge;
pub mod lifecycle;
mod locate;
pub mod read;
pub mod render;
pub mod repair;
pub mod rulings;
pub mod state;
pub mod turn;

pub use actions::{ActionKind, Part};
pub use facts::Facts;
pub use judge::{judge, timeout, Verdict, Violation};
pub use read::{read, Read, ReadError, ReadErrorKind};
pub use render::{canonical, document};
pub use repair::{Repair, RepairKind};
pub use rulings::{BuildAt, Rulings, RulingsError};
pub use state::{Closure, Parts, StartError, State, Train};
pub use turn::{Action, Foreign, Item, StationRef, Turn};
