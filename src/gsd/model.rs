//! The Game State Document as data (Rules 1.2.0 - 1.2.2, 1.4.12, 1.7.53, 1.14.1).
//!
//! Station names are stored in the map's canonical spelling (the parser
//! resolves what players write), so a [`Gsd`] renders without the map and
//! compares equal however its text was laid out.

use std::fmt;

use chrono::Weekday;
use serde::{Serialize, Serializer};

use super::action::Action;
use super::directive::Directive;
use super::goods::Good;
use crate::map::{GhostId, LineCode, StationId};

/// A parsed Game State Document.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Gsd {
    /// The game's tag, from an optional `Game MN12` line (Rule 1.1.7).
    pub game: Option<String>,
    /// The Token Table, in order of play (Rule 1.2.0).
    pub players: Vec<PlayerRow>,
    /// The Disruptions box, in the order the disruptions occurred (Rule 1.2.2).
    pub disruptions: Vec<Disruption>,
    /// Game Time (Rule 1.13.1).
    pub time: Option<GameTime>,
    /// Wild Stations, oldest first (Rule 1.11.1).
    pub wild: Vec<String>,
    /// Courier Pick-up and Destination (Rule 1.11.2).
    pub courier: Option<Courier>,
    /// Token Stacks (Rule 1.14.1).
    pub stacks: Vec<Stack>,
    /// The Luggage Rack (Rule 1.4.12).
    pub luggage: Vec<Luggage>,
    /// The Lost & Found box, front first (Rule 1.7.53).
    pub lost_and_found: Vec<Item>,
    /// Every Play so far, one per Turn (Rule 1.2.0).
    pub plays: Vec<Play>,
}

/// A row of the Token Table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerRow {
    /// The player's name.
    pub name: String,
    /// `false` when the name is marked with `*` (Inactive, Rule 1.2.0).
    pub active: bool,
    /// Home Station (Rule 1.12.1), if declared.
    pub home: Option<String>,
    /// Line Velocity (Rule 1.6.1).
    pub lv: u32,
    /// Charge, a signed percentage (Rule 1.19.2).
    pub charge: i32,
    /// Token counts (Rule 1.4.19).
    pub tokens: Tokens,
}

/// A token colour (Rule 1.4.1), in the Token Table's column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Bk (also written Bl).
    Black,
    /// Bu.
    Blue,
    /// Br.
    Bronze,
    /// Go.
    Gold,
    /// Gr.
    Green,
    /// Re.
    Red,
    /// Si.
    Silver,
}

impl Colour {
    /// Every colour, in the Token Table's column order.
    pub const ALL: [Colour; 7] = [
        Colour::Black,
        Colour::Blue,
        Colour::Bronze,
        Colour::Gold,
        Colour::Green,
        Colour::Red,
        Colour::Silver,
    ];

    /// The two-letter code of the GSD (`Bk`, `Bu`, ...).
    pub fn code(self) -> &'static str {
        ["Bk", "Bu", "Br", "Go", "Gr", "Re", "Si"][self as usize]
    }

    /// The name (`Black`, `Blue`, ...).
    pub fn name(self) -> &'static str {
        ["Black", "Blue", "Bronze", "Gold", "Green", "Red", "Silver"][self as usize]
    }

    /// Plastic Tokens: Black, Blue, Green and Red (the others are Metallic).
    pub fn is_plastic(self) -> bool {
        matches!(
            self,
            Colour::Black | Colour::Blue | Colour::Green | Colour::Red
        )
    }

    /// Parses a code or a name, ignoring case; `Bl` is Black (Rule 1.14.1's
    /// example writes it so).
    pub fn parse(s: &str) -> Option<Colour> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("bl") {
            return Some(Colour::Black);
        }
        Colour::ALL
            .into_iter()
            .find(|c| c.code().eq_ignore_ascii_case(s) || c.name().eq_ignore_ascii_case(s))
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Token counts by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tokens(pub [u32; 7]);

impl Tokens {
    /// The count of one colour.
    pub fn get(&self, c: Colour) -> u32 {
        self.0[c as usize]
    }

    /// Sets the count of one colour.
    pub fn set(&mut self, c: Colour, n: u32) {
        self.0[c as usize] = n;
    }
}

impl Serialize for Tokens {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(7))?;
        for c in Colour::ALL {
            m.serialize_entry(c.code(), &self.get(c))?;
        }
        m.end()
    }
}

/// How a station is disrupted (the suffix in the Disruptions box).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StationMark {
    /// `(Peg)`, Rule 1.11.4.
    Peg,
    /// `(Bulkhead)`, Rule 1.9.3.
    Bulkhead,
    /// `(Maelberg)`, Rule 1.9.5.
    Maelberg,
    /// `(Damage)`: Lightly Damaged, treated as Closed (Rule 1.11.3).
    Damage,
    /// `(*Damage*)`: Heavily Damaged, treated as Blocked (Rule 1.11.3).
    HeavyDamage,
    /// `(Defamed)`: not Holy until Sunday (Rule 1.11.7).
    Defamed,
}

impl StationMark {
    /// Every mark with its written form.
    pub const ALL: [(StationMark, &'static str); 6] = [
        (StationMark::Peg, "Peg"),
        (StationMark::Bulkhead, "Bulkhead"),
        (StationMark::Maelberg, "Maelberg"),
        (StationMark::Damage, "Damage"),
        (StationMark::HeavyDamage, "*Damage*"),
        (StationMark::Defamed, "Defamed"),
    ];

    /// The written form, without parentheses.
    pub fn text(self) -> &'static str {
        StationMark::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map(|(_, t)| *t)
            .unwrap_or("")
    }
}

/// The State of a Line (Rule 1.20.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum LineState {
    /// `Normal` (Rule 1.20.1).
    Normal,
    /// `One Way: N-S` (Rule 1.20.2), the prescribed direction as written.
    OneWay(String),
    /// `Electrified` (Rule 1.20.3).
    Electrified,
    /// `Power Failure!` (Rule 1.20.5).
    PowerFailure,
    /// `Soaped` (Rule 1.20.6).
    Soaped,
    /// `Speed Limit: N` (Rule 1.20.4).
    SpeedLimit(u32),
}

/// One entry of the Disruptions box (Rule 1.2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Disruption {
    /// A station with a mark, e.g. `Euston (Peg)`.
    Station {
        /// The station.
        station: String,
        /// The mark.
        mark: StationMark,
    },
    /// A Pegged Line Segment (Rule 1.11.5): `Euston - Warren Street (NT) (Peg)`.
    PeggedSegment {
        /// One end.
        from: String,
        /// The other end.
        to: String,
        /// The line.
        line: LineCode,
    },
    /// A Line State (Rule 1.20), e.g. `NT: One Way: N-S`.
    Line {
        /// The line.
        line: LineCode,
        /// Its state.
        state: LineState,
    },
    /// `In Knip` (Rule 1.8.4).
    Knip,
    /// `Bridges Up` (Rule 1.8.3).
    BridgesUp,
    /// `Parks and Greens` (Rule 1.8.2).
    ParksAndGreens,
    /// `Gapminding` (Rule 1.8.7).
    Gapminding,
    /// `Venbacker Ladder` (Rule 1.8.9).
    VenbackerLadder,
    /// `Sgronk` (Rule 1.8.10).
    Sgronk,
    /// `Speed Craze` (Rule 1.8.13).
    SpeedCraze,
    /// `Charge In` or `Charge Out`: a Charge Spiral (Rule 1.8.11).
    ChargeSpiral(Spiral),
    /// `<Colour> Bock` (Rule 1.8.8).
    Bock(Colour),
    /// `Upcoming Holiday`, then `Upcoming Holiday: Tuesday` (Rule 1.13.7).
    UpcomingHoliday(#[serde(serialize_with = "ser_day_opt")] Option<Weekday>),
}

/// The direction of a Charge Spiral (Rule 1.8.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Spiral {
    /// `Charge In`: no Move may increase the Moving Piece's Charge.
    Inwards,
    /// `Charge Out`: no Move may decrease it.
    Outwards,
}

/// Game Time (Rule 1.13.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameTime {
    /// The day.
    #[serde(serialize_with = "ser_day")]
    pub day: Weekday,
    /// Minutes after 0000 (0..1440).
    pub minutes: u16,
    /// The Night Train asterisk (Rule 1.13.1).
    pub night_train: bool,
}

impl fmt::Display for GameTime {
    /// `Wednesday 2340`, with `*` appended for Night Train.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:02}{:02}{}",
            day_name(self.day),
            self.minutes / 60,
            self.minutes % 60,
            if self.night_train { "*" } else { "" }
        )
    }
}

/// The Courier's stations (Rule 1.11.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Courier {
    /// Pick-up Station.
    pub pickup: String,
    /// Destination Station.
    pub destination: String,
}

/// A Token Stack (Rule 1.14.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stack {
    /// The station.
    pub station: String,
    /// Its Quadrants (from the map; appended to the name in the GSD).
    pub quadrants: Vec<u8>,
    /// The tokens, bottom to top.
    pub tokens: Vec<Colour>,
}

/// One player's row of the Luggage Rack (Rule 1.4.12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Luggage {
    /// The player.
    pub player: String,
    /// The possessions, in the order written.
    pub items: Vec<Possession>,
}

/// A possession as carried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Possession {
    /// The thing.
    pub item: Item,
    /// Worn (`*Overcoat*`, Rule 1.4.30).
    pub worn: bool,
    /// In a Nantucket (`(Euston Stub)`, Rule 1.4.15).
    pub nantucket: bool,
}

impl Possession {
    /// A Possession of a plain kind, neither worn nor in a Nantucket (an
    /// Electrical one Off).
    pub fn of(good: Good) -> Possession {
        Possession {
            item: Item::Good {
                good,
                stars: 0,
                on: false,
            },
            worn: false,
            nantucket: false,
        }
    }

    /// Its kind.
    pub fn good(&self) -> Good {
        self.item.good()
    }

    /// Whether its kind has a quality.
    pub fn is(&self, q: super::goods::Quality) -> bool {
        self.item.good().is(q)
    }
}

/// A Hat category (Rule 1.4.6), by its initial letter, in letter order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Hat {
    /// A - A to Z.
    AToZ,
    /// B - British Rail.
    BritishRail,
    /// C - Compass.
    Compass,
    /// H - Hard.
    Hard,
    /// O - a category Rule 1.4.12's example Luggage Rack uses (`Hats (COT)`)
    /// but Rule 1.4.6 does not define; kept so that such GSDs parse (RULINGS.md).
    O,
    /// S - Silly.
    Silly,
    /// T - Terminus.
    Terminus,
    /// V - Verdant.
    Verdant,
}

impl Hat {
    /// Every hat in canonical (letter) order.
    pub const ALL: [Hat; 8] = [
        Hat::AToZ,
        Hat::BritishRail,
        Hat::Compass,
        Hat::Hard,
        Hat::O,
        Hat::Silly,
        Hat::Terminus,
        Hat::Verdant,
    ];

    /// The initial letter used in the Luggage Rack.
    pub fn letter(self) -> char {
        ['A', 'B', 'C', 'H', 'O', 'S', 'T', 'V'][self as usize]
    }

    /// The Hat's category as Rule 1.4.6 names it.
    pub fn name(self) -> &'static str {
        [
            "A to Z",
            "British Rail",
            "Compass",
            "Hard",
            "O",
            "Silly",
            "Terminus",
            "Verdant",
        ][self as usize]
    }

    /// Parses an initial letter (any case).
    pub fn from_letter(c: char) -> Option<Hat> {
        Hat::ALL
            .into_iter()
            .find(|h| h.letter() == c.to_ascii_uppercase())
    }
}

/// A possession's identity: a kind of `grammar/possessions.toml`, with
/// what its form writes (a day, a station, a zone) and its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Item {
    /// `Hat (C)` or `Hats (COT)`: one or more Hats, in letter order.
    Hats(Vec<Hat>),
    /// A Newspaper stamped with a day: `Thursday's Paper` (Rule 1.4.32).
    Paper(#[serde(serialize_with = "ser_day")] Weekday),
    /// An All Day Rover Card stamped with a day: `Thursday Rover Card`
    /// (Rule 1.4.28).
    Rover(#[serde(serialize_with = "ser_day")] Weekday),
    /// A Ticket Stub: `Euston Stub` (Rule 1.7.33): the station resolved
    /// once, with its canonical name for the text.
    Stub {
        /// The station's canonical name.
        name: String,
        /// The station.
        at: StationId,
    },
    /// A Zone Pass of zone 2 to 6: `Zone 4 Pass` (Rule 1.4.18).
    ZonePass(u8),
    /// Any other kind, with the asterisks a Vacuum Cleaner collects (Rule
    /// 1.4.49) and, for an Electrical one, whether it is On (Rule 1.4.33):
    /// `Vacuum Cleaner (On)*`.
    Good {
        /// The kind.
        good: Good,
        /// Trailing asterisks.
        stars: u8,
        /// Switched On (Electrical kinds only).
        on: bool,
    },
}

impl Item {
    /// The kind.
    pub fn good(&self) -> Good {
        match self {
            Item::Hats(_) => Good::Hat,
            Item::Paper(_) => Good::Newspaper,
            Item::Rover(_) => Good::AllDayRoverCard,
            Item::Stub { .. } => Good::Stub,
            Item::ZonePass(_) => Good::ZonePass,
            Item::Good { good, .. } => *good,
        }
    }
}

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
        let directive = super::directive::directive(text, map).map_err(|e| e.1)?;
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

    /// Every Action, in written order.
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.actions_before().chain(self.actions_after())
    }

    /// The comments, in written order.
    pub fn comments(&self) -> impl Iterator<Item = &Comment> {
        self.before
            .iter()
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

/// English day names, Monday first.
pub const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The English name of a day.
pub fn day_name(d: Weekday) -> &'static str {
    DAYS[d.num_days_from_monday() as usize]
}

/// Parses an English day name or its three-letter abbreviation, any case.
pub fn parse_day(s: &str) -> Option<Weekday> {
    let s = s.trim();
    DAYS.iter()
        .position(|d| d.eq_ignore_ascii_case(s) || (s.len() == 3 && d[..3].eq_ignore_ascii_case(s)))
        .map(|i| {
            [
                Weekday::Mon,
                Weekday::Tue,
                Weekday::Wed,
                Weekday::Thu,
                Weekday::Fri,
                Weekday::Sat,
                Weekday::Sun,
            ][i]
        })
}

pub(crate) fn ser_day<S: Serializer>(d: &Weekday, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(day_name(*d))
}

fn ser_day_opt<S: Serializer>(d: &Option<Weekday>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_str(day_name(*d)),
        None => s.serialize_none(),
    }
}
