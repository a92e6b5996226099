//! What the boxes between the Token Table and the Plays hold: Disruptions,
//! the Charge Spiral, the Courier, Token Stacks and Luggage.

use super::*;

/// How a station is disrupted (the suffix in the Disruptions box).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
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
    /// `Dollis Hill Loop`: the Game is in the Dollis Hill Loop (Rules
    /// 1.8.1, 1.8.6; the string is RULINGS.md E83's).
    DollisHillLoop,
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
    /// `Token Cascade: Alice (3 Moves)`: a Token Cascade focused on a
    /// Player, and the Piece Moves made since it began (Rules 1.7.36,
    /// 1.7.37; the string is RULINGS.md E91's).
    TokenCascade {
        /// The focus Player.
        focus: String,
        /// Piece Moves made since the `[Token Cascade]` was played.
        moves: u32,
    },
}

/// The direction of a Charge Spiral (Rule 1.8.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Spiral {
    /// `Charge In`: no Move may increase the Moving Piece's Charge.
    Inwards,
    /// `Charge Out`: no Move may decrease it.
    Outwards,
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

/// What the Token Stacks box shows at a Station that is not Tokens (Rules
/// 1.4.7, 1.4.24): written in a Stack's tokens cell as its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum StackMarker {
    /// `Susp Package`: a Suspect Package (Rule 1.4.7).
    SuspectPackage,
    /// `PoID`: the Podume of Infinite Darkness resting at the Station
    /// (Rule 1.4.24).
    Poid,
}

impl StackMarker {
    /// Every marker with its written form.
    pub const ALL: [(StackMarker, &'static str); 2] = [
        (StackMarker::SuspectPackage, "Susp Package"),
        (StackMarker::Poid, "PoID"),
    ];

    /// The written form.
    pub fn text(self) -> &'static str {
        StackMarker::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map(|(_, t)| *t)
            .unwrap_or("")
    }

    /// The marker a tokens cell writes, ignoring case and spacing.
    pub fn parse(s: &str) -> Option<StackMarker> {
        let words: Vec<&str> = s.split_whitespace().collect();
        StackMarker::ALL.iter().find_map(|(m, t)| {
            let want: Vec<&str> = t.split_whitespace().collect();
            (words.len() == want.len()
                && words
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| a.eq_ignore_ascii_case(b)))
            .then_some(*m)
        })
    }

    /// Whether a word belongs to some marker's written form.
    pub fn is_word(word: &str) -> bool {
        StackMarker::ALL
            .iter()
            .any(|(_, t)| t.split_whitespace().any(|w| w.eq_ignore_ascii_case(word)))
    }
}

/// A [`StackMarker`] at a Station, shown in the Token Stacks box as a Stack
/// of its own (Rules 1.4.7, 1.4.24).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Marked {
    /// The station.
    pub station: String,
    /// Its Quadrants (from the map; appended to the name in the GSD).
    pub quadrants: Vec<u8>,
    /// What stands there.
    pub marker: StackMarker,
}

/// One player's row of the Luggage Rack (Rule 1.4.12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Luggage {
    /// The player.
    pub player: String,
    /// The possessions, in the order written.
    pub items: Vec<Possession>,
}
