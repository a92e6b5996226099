//! Contested rulings a game may choose (`[game.rulings]` in the
//! configuration, `[state.rulings]` in a rule case). Each option names the
//! entry of RULINGS.md that explains it; the defaults are those entries'
//! decisions.

use serde::{Deserialize, Serialize};

/// The per-game choices on rules whose reading is contested.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rulings {
    /// When `[<Line>: Soaped]` may be played (E41): the index says before
    /// the Move, Rule 1.20.6 after it.
    pub soaped_phase: SoapedPhase,
    /// Whether a Power Failure also voids Special Moves (and entering the
    /// Map), not only LV Moves (E41). Walking is always excepted.
    pub power_failure_voids_special_moves: bool,
    /// How the index's `10 per 4Re line` prices a Fire at an Interchange
    /// (E42).
    pub interchange_fire: InterchangeFire,
    /// Whether a Move written with no Line Code at all may go along any
    /// line of its destination (E2); by default it means the Piece stays
    /// on its line (Rule 1.2.0: the via list is omitted only when the
    /// Player "remained on the same Line").
    pub bare_move_any_line: bool,
    /// Whether a Ticket Stub is bought at its own station whatever the
    /// station (E25); otherwise only where the Emporium trades, a British
    /// Rail Station (Rule 1.4.18's words: a Stub is not Dispensable).
    pub stub_at_any_station: bool,
    /// Who rolls the Upcoming Holiday's die (Rule 1.13.7, RULINGS S14): in a
    /// game the daemon hosts, `true` (the default) has mornbot roll it from
    /// the game's committed seed when it judges the `[Upcoming Holiday]`
    /// Turn; `false` leaves it to the player, recorded with `{rolled N}`
    /// (E44). Offline (`mornbot check`, rule cases) no bot rolls: the
    /// engine reads `{rolled N}` either way.
    pub bot_rolls_holiday: bool,
    /// Whether a Suspect Package also stops a Move that ends at its Station
    /// (E96): by default only a Move passing through it is Invalid (Rule
    /// 1.4.7's words), so a Player may reach a Package to Defuse it.
    pub package_stops_arrival: bool,
    /// Under a Venbacker Ladder, which of a Bifurcated Player's two Moves
    /// bounds the next Turn's (E132): by default the lower-numbered of the
    /// two Stations (only a Move lower than both is Invalid); `true`, the
    /// higher.
    pub ladder_higher_of_two_moves: bool,
}

impl Default for Rulings {
    fn default() -> Self {
        Rulings {
            soaped_phase: SoapedPhase::Either,
            power_failure_voids_special_moves: true,
            interchange_fire: InterchangeFire::MinutesPerLine,
            bare_move_any_line: false,
            stub_at_any_station: true,
            bot_rolls_holiday: true,
            package_stops_arrival: false,
            ladder_higher_of_two_moves: false,
        }
    }
}

/// When Soaping is played (RULINGS.md E41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SoapedPhase {
    /// Before or after the Move (the default).
    #[default]
    Either,
    /// Before the Move only (the index).
    Pre,
    /// After the Move only (the rule's text).
    Post,
}

/// The price of a Fire at an Interchange (RULINGS.md E42).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum InterchangeFire {
    /// 4 Red, 10 minutes per line serving the station (the default).
    #[default]
    MinutesPerLine,
    /// 4 Red per line serving the station, 10 minutes.
    RedPerLine,
}
