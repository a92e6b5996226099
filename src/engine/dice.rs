//! The dice a Play needs (issue 16, RULINGS E85): pure, derived from the
//! Play's Actions and the state it is played on. The referee draws each
//! from the game's seed and writes it into the Play as a comment, in this
//! order; the adjudicator reads the rolls back from the Play, so a replay
//! never needs the seed.

use serde::Serialize;

use super::state::GameState;
use crate::dice;
use crate::gsd::{Action, Directive, Move, Play};
use crate::map::{Landmark, Map};

/// The faces of the Venbacker die (Rules 1.7.47, 1.11.2; RULINGS M19).
pub const VENBACKER_SIDES: u32 = 295;

/// One die a Play needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DieNeed {
    /// The draw's name, stable: part of what `mornbot verify-dice`
    /// recomputes (`holiday`, `courier-pickup`, `gold-rush`, ...).
    pub name: String,
    /// The die's faces.
    pub sides: u32,
    /// The rule that rolls it.
    pub rule: &'static str,
}

impl DieNeed {
    fn new(name: impl Into<String>, sides: u32, rule: &'static str) -> DieNeed {
        DieNeed {
            name: name.into(),
            sides,
            rule,
        }
    }

    /// The directive that records the face `value`: the Upcoming Holiday's
    /// plain `{rolled N}` (Rule 1.13.7, as before), every other die named,
    /// `{rolled <name> N}`.
    pub fn directive(&self, value: u32) -> Directive {
        if self.name == dice::HOLIDAY {
            Directive::Rolled(value)
        } else {
            Directive::RolledNamed {
                name: self.name.clone(),
                value,
            }
        }
    }

    /// The comment's text for the face `value`: `rolled 3`,
    /// `rolled courier-pickup 123`.
    pub fn comment(&self, value: u32) -> String {
        if self.name == dice::HOLIDAY {
            format!("rolled {value}")
        } else {
            format!("rolled {} {value}", self.name)
        }
    }
}

/// The dice `play` needs on `state`, in the order they are drawn and
/// written: for each Action in written order, `[Upcoming Holiday]` a d6,
/// `[Courier Call (Random)]` two d295 (Pick-Up, then Destination),
/// `[Gold Rush]` a d295, `[Finding]` a d100 (a d20 when the Move ends at
/// Paddington between 0930 and 1400, Monday to Friday, by the Game Time the
/// Turn starts at: RULINGS E89), `[fFrobisher fFlourish]` six dice of as
/// many faces as there are Active players; then the PoID's d295 (`poid-mc`)
/// when its placer plays while it rests at Mornington Crescent (Rule
/// 1.4.24). An Action written twice needs its dice once (a second is
/// refused by the adjudicator anyway).
pub fn dice_needed(map: &Map, state: &GameState, play: &Play) -> Vec<DieNeed> {
    let mut out: Vec<DieNeed> = Vec::new();
    for a in play.actions() {
        let more = match a {
            Action::UpcomingHoliday => vec![DieNeed::new(dice::HOLIDAY, 6, "1.13.7")],
            Action::CourierCallRandom => vec![
                DieNeed::new(dice::COURIER_PICKUP, VENBACKER_SIDES, "1.11.2"),
                DieNeed::new(dice::COURIER_DESTINATION, VENBACKER_SIDES, "1.11.2"),
            ],
            Action::GoldRush => vec![DieNeed::new(dice::GOLD_RUSH, VENBACKER_SIDES, "1.7.47")],
            Action::Finding => vec![DieNeed::new(
                dice::FINDING,
                if finding_at_paddington(map, state, play) {
                    20
                } else {
                    100
                },
                "1.7.53",
            )],
            Action::FfrobisherFflourish => {
                let active = state.players.iter().filter(|p| p.active).count();
                match u32::try_from(active) {
                    Ok(n) if n > 0 => (1..=6)
                        .map(|k| DieNeed::new(dice::frobisher_draw_name(k), n, "1.7.59"))
                        .collect(),
                    _ => vec![],
                }
            }
            _ => vec![],
        };
        for d in more {
            if !out.iter().any(|o| o.name == d.name) {
                out.push(d);
            }
        }
    }
    if poid_die_needed(map, state, play) {
        out.push(DieNeed::new(dice::POID_MC, VENBACKER_SIDES, "1.4.24"));
    }
    out
}

/// Whether the Play's player rolls the PoID's d295 after this Turn (Rule
/// 1.4.24, RULINGS E126): e placed the PoID at Mornington Crescent, in an
/// earlier Turn or in this one, and does not collect it in this one. A
/// Timeout is not submitted by its player and rolls nothing.
pub fn poid_die_needed(map: &Map, state: &GameState, play: &Play) -> bool {
    let mc = map.landmark(Landmark::MorningtonCrescent);
    if matches!(play.the_move(), Move::Timeout) {
        return false;
    }
    let placed_earlier = state.poid == Some(mc)
        && state
            .poid_placer
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case(&play.player));
    let places_now = play
        .actions()
        .any(|a| matches!(a, Action::PoidOn { station } if station.place.station() == Some(mc)));
    let collects = play.actions().any(|a| matches!(a, Action::CollectingPoid));
    (placed_earlier || places_now) && !collects
}

/// Whether a `[Finding]` is the Lost Property Office's (Rule 1.7.53): the
/// Move ends at Paddington, Monday to Friday, 0930 to 1400.
pub fn finding_at_paddington(map: &Map, state: &GameState, play: &Play) -> bool {
    let paddington = map.landmark(Landmark::Paddington);
    let ends_there = match play.the_move() {
        Move::To {
            dest, escalator_to, ..
        } => escalator_to.as_ref().unwrap_or(dest).place.station() == Some(paddington),
        Move::Pass(_) | Move::Farkle(_) | Move::Timeout => {
            state.players.get(state.to_play).and_then(|p| p.station()) == Some(paddington)
        }
        Move::Bifurcated(..) => false,
    };
    let t = state.time;
    let weekday = t.day.number_from_monday() <= 5;
    ends_there && weekday && (570..=840).contains(&t.minutes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::PlayerState;
    use crate::gsd::{parse_play, GameTime};

    fn state(map: &Map) -> GameState {
        let time = GameTime {
            day: chrono::Weekday::Mon,
            minutes: 600,
            night_train: false,
        };
        let mut s = GameState::new(
            time,
            vec![PlayerState::joining("Alice"), PlayerState::joining("Bob")],
        );
        s.poid = Some(map.landmark(Landmark::MorningtonCrescent));
        s.poid_placer = Some("Alice".into());
        s
    }

    fn names(map: &Map, s: &GameState, line: &str) -> Vec<String> {
        let play = parse_play(line, map).unwrap();
        dice_needed(map, s, &play)
            .into_iter()
            .map(|d| d.name)
            .collect()
    }

    #[test]
    fn the_poid_die_is_its_placers_after_each_turn_while_it_rests_at_mornington_crescent() {
        let map = Map::london_1999();
        let s = state(map);
        assert_eq!(names(map, &s, "Alice : Chancery Lane (CN)"), ["poid-mc"]);
        assert!(names(map, &s, "Bob : Chancery Lane (CN)").is_empty());
        assert!(names(map, &s, "Alice : Timeout").is_empty());
        assert!(names(map, &s, "Alice : Pass [Collecting PoID]").is_empty());
        // After the Turn's own dice.
        assert_eq!(
            names(map, &s, "Alice : Chancery Lane (CN) [Gold Rush]"),
            ["gold-rush", "poid-mc"]
        );
        let mut elsewhere = state(map);
        elsewhere.poid = map.find("Bank");
        assert!(names(map, &elsewhere, "Alice : Chancery Lane (CN)").is_empty());
        // Placed at Mornington Crescent in this Turn: rolled after it too.
        let mut none = state(map);
        none.poid = None;
        none.poid_placer = None;
        assert_eq!(
            names(
                map,
                &none,
                "Bob : Camden Town (NT) [PoID on Mornington Crescent]"
            ),
            ["poid-mc"]
        );
    }
}
