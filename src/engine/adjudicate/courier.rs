//! The Three-Point Courier (Rule 1.11.2) and the Gold Rush (Rule 1.7.47):
//! the rules whose Stations a Venbacker die may pick. The dice are values
//! in the Play (`{rolled <name> N}`, RULINGS E85), rolled by the bot in a
//! game with dice, by the player in one without.

use super::*;
use crate::dice;
use crate::engine::dice::VENBACKER_SIDES;
use crate::engine::state::CourierStations;
use crate::gsd::{Good, Possession};
use crate::map::Venbacker;

/// The Courier's rule.
const COURIER: &str = "1.11.2";
/// The Gold Rush's rule (the index says "1.7.x").
const GOLD_RUSH: &str = "1.7.47";
/// How many Tokens a Token Stack holds (Rule 1.14.3): a Gold Rush fills
/// the gaps up to it (RULINGS E88).
const STACK_PLACES: usize = 6;

impl Turn<'_> {
    /// The face of the named die the Play records, `{rolled <name> N}`.
    pub(super) fn named_roll(&self, name: &str) -> Option<u32> {
        self.directive(|d| match d {
            Directive::RolledNamed { name: n, value } if n == name => Some(*value),
            _ => None,
        })
    }

    /// The Station a d295 named `name` picks by its Venbacker Number
    /// (RULINGS M19). A die missing from the Play needs a human ruling (the
    /// bot writes it in a game with dice; without, the player does, E85); a
    /// face out of 1 to 295 is Illegal; a face that is no station of the
    /// map needs a human ruling (E87).
    pub(super) fn venbacker_roll(
        &mut self,
        name: &str,
        rule: &str,
        action: &str,
    ) -> Option<StationId> {
        let Some(v) = self.named_roll(name) else {
            self.ruling(
                rule,
                format!(
                    "{action} rolls a 295-sided die, \"{name}\", which the Play does not record: \
                     in a game with dice mornbot rolls it; in one without, the player writes \
                     {{rolled {name} N}} (RULINGS E85)"
                ),
            );
            return None;
        };
        if !(1..=VENBACKER_SIDES).contains(&v) {
            self.illegal(
                rule,
                format!("a 295-sided die rolls 1 to 295, not {v} ({{rolled {name} {v}}})"),
            );
            return None;
        }
        let found = Venbacker::new(v).and_then(|n| self.map.by_venbacker(n));
        if found.is_none() {
            self.ruling(
                rule,
                format!("{v} is no station's Venbacker Number on this map (RULINGS M19, E87)"),
            );
        }
        found
    }

    /// `[Courier Call (Fixed)]` and `[Courier Call (Random)]` (Rule
    /// 1.11.2): by any Player but the Drone, only while neither Courier
    /// Station is defined; the Fixed Call's stations from its `{Pick-up ...,
    /// Destination ...}`, the Random Call's from its two d295.
    pub(super) fn courier_call(&mut self, a: &Action) -> Charge {
        if is_drone(&self.my_name()) {
            self.illegal(COURIER, "the Drone may not perform a Courier Call");
            return Charge::Free;
        }
        if let Some(c) = self.s.courier {
            let msg = format!(
                "a Courier Call is made only when neither station is defined, and the Pick-Up \
                 ({}) and Destination ({}) are",
                self.name(c.pickup),
                self.name(c.destination)
            );
            self.illegal(COURIER, msg);
            return Charge::Free;
        }
        let stations = match a {
            Action::CourierCallFixed => self.fixed_courier(a),
            _ => {
                let what = a.render();
                let p = self.venbacker_roll(dice::COURIER_PICKUP, COURIER, &what);
                let d = self.venbacker_roll(dice::COURIER_DESTINATION, COURIER, &what);
                p.zip(d).map(|(pickup, destination)| CourierStations {
                    pickup,
                    destination,
                })
            }
        };
        let Some(c) = stations else {
            return Charge::Free;
        };
        self.s.courier = Some(c);
        let msg = format!(
            "Courier: Pick-up {}, Destination {} (Rule 1.11.2)",
            self.name(c.pickup),
            self.name(c.destination)
        );
        self.change(msg);
        Charge::Table
    }

    /// The stations a `[Courier Call (Fixed)]` selects, checked: both
    /// outside Zone 1, in different Quadrants, on different Lines, neither
    /// a Home Station nor in the Actioning Player's Quadrant (RULINGS E86).
    fn fixed_courier(&mut self, a: &Action) -> Option<CourierStations> {
        let Some((p, d)) = self.directive(|d| match d {
            Directive::Courier {
                pickup,
                destination,
            } => Some((pickup.clone(), destination.clone())),
            _ => None,
        }) else {
            self.illegal(
                COURIER,
                "[Courier Call (Fixed)] selects the two stations: write them in the Play as \
                 {Pick-up <Station>, Destination <Station>} (RULINGS E86)",
            );
            return None;
        };
        let pickup = self.station_of(&p, a)?;
        let destination = self.station_of(&d, a)?;
        let mut wrong = Vec::new();
        let mine: Vec<u8> = self
            .here()
            .map(|h| self.map.station(h).quadrants.clone())
            .unwrap_or_default();
        for id in [pickup, destination] {
            let st = self.map.station(id);
            if st.zones.contains(&1) {
                wrong.push(format!("{} is in Zone 1", st.name));
            }
            if let Some(h) = self.s.players.iter().find(|p| p.home == Some(id)) {
                wrong.push(format!("{} is {}'s Home Station", st.name, h.name));
            }
            if st.quadrants.iter().any(|q| mine.contains(q)) {
                wrong.push(format!("{} is in your Quadrant", st.name));
            }
        }
        let (ps, ds) = (self.map.station(pickup), self.map.station(destination));
        if ps.quadrants.iter().any(|q| ds.quadrants.contains(q)) {
            wrong.push(format!("{} and {} share a Quadrant", ps.name, ds.name));
        }
        let common = ps.lines.intersection(ds.lines);
        if let Some(l) = common.iter().next() {
            wrong.push(format!("{} and {} are both on {l}", ps.name, ds.name));
        }
        if wrong.is_empty() {
            return Some(CourierStations {
                pickup,
                destination,
            });
        }
        self.illegal(
            COURIER,
            format!(
                "the Pick-Up and Destination must be outside Zone 1, in different Quadrants, on \
                 different Lines, and neither a Home Station nor in the Actioning Player's \
                 Quadrant: {}",
                wrong.join("; ")
            ),
        );
        None
    }

    /// Whether the Turn's Move went to `station`, and the Action is played
    /// after it (Rule 1.11.2: "If a Player moves to ...", RULINGS E86).
    fn moved_to(&self, station: StationId, when: When) -> bool {
        // A Bifurcated Player's Piece moved there if it ends elsewhere
        // than it began (Rule 1.7.42).
        let moved = match self.play.the_move() {
            Move::To { .. } => true,
            Move::Bifurcated(..) => self.mv.started_at != self.here(),
            _ => false,
        };
        when == When::After && moved && self.here() == Some(station)
    }

    /// `[Collecting Parcel]` (Rule 1.11.2): after moving to the Pick-Up
    /// Station, when no Player carries a Parcel; the Parcel is gained.
    pub(super) fn collect_parcel(&mut self, when: When) -> Charge {
        let Some(c) = self.s.courier else {
            self.illegal(COURIER, "no Courier Pick-Up Station is defined");
            return Charge::Free;
        };
        if !self.moved_to(c.pickup, when) {
            let msg = format!(
                "[Collecting Parcel] is performed after moving to the Pick-Up Station, {}",
                self.name(c.pickup)
            );
            self.illegal(COURIER, msg);
            return Charge::Free;
        }
        if let Some(p) = self.s.players.iter().find(|p| p.carries(Good::Parcel)) {
            let msg = format!(
                "a Parcel is collected only when no Player carries one, and {} does",
                p.name
            );
            self.illegal(COURIER, msg);
            return Charge::Free;
        }
        let me = self.me;
        self.s.players[me]
            .possessions
            .push(Possession::of(Good::Parcel));
        self.change("a Parcel collected (Rule 1.11.2)");
        Charge::Table
    }

    /// `[Delivering Parcel]` (Rule 1.11.2): after moving to the Destination
    /// Station with a Parcel: the Parcel is destroyed, the table's three
    /// Gold gained, and both stations become undefined.
    pub(super) fn deliver_parcel(&mut self, when: When) -> Charge {
        let Some(c) = self.s.courier else {
            self.illegal(COURIER, "no Courier Destination Station is defined");
            return Charge::Free;
        };
        if !self.moved_to(c.destination, when) {
            let msg = format!(
                "[Delivering Parcel] is performed after moving to the Destination Station, {}",
                self.name(c.destination)
            );
            self.illegal(COURIER, msg);
            return Charge::Free;
        }
        let me = self.me;
        let parcels = &mut self.s.players[me].possessions;
        let Some(i) = parcels
            .iter()
            .position(|p| !p.nantucket && p.good() == Good::Parcel)
        else {
            self.illegal(COURIER, "a Parcel is delivered by the Player carrying it");
            return Charge::Free;
        };
        parcels.remove(i);
        self.s.courier = None;
        self.change(
            "the Parcel delivered and destroyed; the Pick-Up and Destination are undefined \
             (Rule 1.11.2)",
        );
        Charge::Table
    }

    /// `[Gold Rush]` (Rule 1.7.47): its d295 finds the lode, filled with
    /// Gold at the start of the next Turn.
    pub(super) fn gold_rush(&mut self, a: &Action) -> Charge {
        let what = a.render();
        let Some(at) = self.venbacker_roll(dice::GOLD_RUSH, GOLD_RUSH, &what) else {
            return Charge::Free;
        };
        self.s.lodes.push(at);
        let msg = format!(
            "a Gold lode at {}: at the start of the next Turn the gaps in its Token Stack are \
             filled with Gold Tokens (Rule 1.7.47)",
            self.name(at)
        );
        self.change(msg);
        Charge::Table
    }

    /// At the start of a Turn, the lodes the last Turn's `[Gold Rush]`
    /// found: each Station's Token Stack is filled with Gold up to six
    /// Tokens, a new Stack of six where there was none (Rule 1.7.47,
    /// RULINGS E88).
    pub(super) fn uncover_lodes(&mut self) {
        for at in std::mem::take(&mut self.s.lodes) {
            let i = match self.s.stacks.iter().position(|(s, _)| *s == at) {
                Some(i) => i,
                None => {
                    self.s.stacks.push((at, Vec::new()));
                    self.s.stacks.len() - 1
                }
            };
            let tokens = &mut self.s.stacks[i].1;
            let gaps = STACK_PLACES.saturating_sub(tokens.len());
            tokens.extend(std::iter::repeat_n(Colour::Gold, gaps));
            let msg = format!(
                "the Gold Rush: {gaps} Gold Token(s) fill the gaps of {}'s Token Stack \
                 (Rule 1.7.47)",
                self.name(at)
            );
            self.change(msg);
        }
    }
}
