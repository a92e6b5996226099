//! A Play as data: its Move, its Actions and comments, and the stations it
//! names.

use super::*;

/// What a station name in a Play resolves to: a station of the map or a
/// Ghost Station (Rule 1.11.6). Resolved once, by the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Place {
    /// A station of the map.
    Station(StationId),
    /// A Ghost Station: on no line, adjacent to nowhere.
    Ghost(GhostId),
}

impl Place {
    /// The station of the map, unless this is a Ghost Station.
    pub fn station(self) -> Option<StationId> {
        match self {
            Place::Station(id) => Some(id),
            Place::Ghost(_) => None,
        }
    }
}

/// A station named in a Play, with the Line Code written with it, if any:
/// `Moorgate (NT)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The station's canonical name (for rendering).
    pub station: String,
    /// What the name resolved to.
    #[serde(skip)]
    pub place: Place,
    /// The Line Code written with it, if any.
    pub line: Option<LineCode>,
}

/// The Move of a Play (Rule 1.5.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Move {
    /// A move to a station: `Euston (VC via: CN,NT)`; `Monument (for Bank)`
    /// uses the escalator link at the end (Rule 1.5.3).
    To {
        /// The station moved to, with its Line Code: the last Move
        /// Portion's line.
        dest: Target,
        /// The earlier Move Portions' lines (`via`).
        via: Vec<LineCode>,
        /// The escalator-linked station the Turn ends at (`for Bank`).
        escalator_to: Option<Target>,
    },
    /// `Pass`, optionally with the current position (Rule 1.2.0).
    Pass(Option<Target>),
    /// `Farkle` (Rule 1.5.12).
    Farkle(Option<Target>),
    /// `Timeout` (Rule 1.3.5).
    Timeout,
    /// Bifurcated: `A:Baker Street (BL) B:Angel (NT via: CN,CL)` (Rule 1.7.42).
    Bifurcated(Box<Move>, Box<Move>),
}

/// A `{comment}` (Rule 1.3.1), and the directive it states, if it starts
/// with a directive's keyword (`{claims Gold}`, `{LV 3}`, ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comment {
    /// The text between the braces, trimmed.
    pub text: String,
    /// The directive, when the comment is one.
    pub directive: Option<Directive>,
}

impl Comment {
    /// A comment as the parser reads it: prose, or a directive when it
    /// starts with a directive's keyword (an error if it then does not read).
    pub fn read(text: &str, map: &crate::map::Map) -> Result<Comment, String> {
        let text = text.trim();
        let directive = crate::gsd::directive::directive(text, map).map_err(|e| e.1)?;
        Ok(Comment {
            text: text.to_string(),
            directive,
        })
    }
}

/// An Action or a comment, in written order, before or after the Move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PlayItem {
    /// An Action in square brackets.
    Action(Action),
    /// A `{comment}`.
    Comment(Comment),
}

/// A Play: the line(s) a player writes for a Turn (Rule 1.2.0): the
/// pre-Move items, exactly one Move, the post-Move items.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Play {
    /// The player.
    pub player: String,
    /// Actions and comments written before the Move (Rule 1.3.4).
    pub before: Vec<PlayItem>,
    /// The Move.
    pub mv: Move,
    /// Actions and comments a Bifurcated player writes between eir two
    /// Moves, Neutral ones only (Rule 1.7.42); empty for any other Move.
    pub between: Vec<PlayItem>,
    /// Actions and comments written after the Move.
    pub after: Vec<PlayItem>,
}

impl Play {
    /// The Move.
    pub fn the_move(&self) -> &Move {
        &self.mv
    }

    /// Actions written before the Move (pre-Move, Rule 1.3.4).
    pub fn actions_before(&self) -> impl Iterator<Item = &Action> {
        actions(&self.before)
    }

    /// Actions written after the Move (post-Move, Rule 1.3.4).
    pub fn actions_after(&self) -> impl Iterator<Item = &Action> {
        actions(&self.after)
    }

    /// Actions written between a Bifurcated player's two Moves (Neutral,
    /// Rule 1.7.42).
    pub fn actions_between(&self) -> impl Iterator<Item = &Action> {
        actions(&self.between)
    }

    /// Every Action, in written order.
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.actions_before()
            .chain(self.actions_between())
            .chain(self.actions_after())
    }

    /// The comments, in written order.
    pub fn comments(&self) -> impl Iterator<Item = &Comment> {
        self.before
            .iter()
            .chain(&self.between)
            .chain(&self.after)
            .filter_map(|i| match i {
                PlayItem::Comment(c) => Some(c),
                PlayItem::Action(_) => None,
            })
    }

    /// The directives of the comments, in written order.
    pub fn directives(&self) -> impl Iterator<Item = &Directive> {
        self.comments().filter_map(|c| c.directive.as_ref())
    }
}

fn actions(items: &[PlayItem]) -> impl Iterator<Item = &Action> {
    items.iter().filter_map(|i| match i {
        PlayItem::Action(a) => Some(a),
        PlayItem::Comment(_) => None,
    })
}
