//! Open and Closed stations (Rules 1.13.4 - 1.13.6): the map's opening
//! hours, Damage (1.11.3), Holy Stations and Defaming (1.11.7), the
//! Collection Plate (1.11.7) and Opening MC (1.7.28).

use super::*;

impl Turn<'_> {
    /// Open for this player now (Rules 1.13.4 - 1.13.6, 1.11.3, 1.7.28,
    /// 1.12.3).
    pub(super) fn open(&self, id: StationId, line: Option<LineCode>) -> bool {
        let st = self.map.station(id);
        if self.map.is(id, Landmark::MorningtonCrescent) && self.opened.mc {
            return true;
        }
        if self.s.has_mark(id, StationMark::Damage) {
            return false;
        }
        // A tolled Home Station is Closed, a rented one Open (Rule 1.12.3).
        if let Some((_, rented)) = self.opened.tolled.iter().find(|(h, _)| *h == id) {
            return *rented;
        }
        let defamed = self.s.has_mark(id, StationMark::Defamed);
        let open = self
            .map
            .station_open(id, line, self.opening_day(), self.now().minutes);
        // [Collection Plate] opens every Holy Station (Rule 1.11.7).
        if self.opened.holy && st.categories.contains(Category::Holy) && !defamed {
            return true;
        }
        // A Defamed station is not Holy until Sunday (Rule 1.11.7); it is
        // Holy again on the real Sunday, a Holiday is not one.
        open || (defamed
            && st.categories.contains(Category::Holy)
            && self.s.time.day != Weekday::Sun)
    }

    /// The day whose opening hours apply now ([`GameState::opening_day`]).
    pub(super) fn opening_day(&self) -> Weekday {
        self.s.opening_day(self.now().day)
    }

    /// A new day: the first Damaged station in Disruptions is repaired; a
    /// Heavily Damaged one becomes Lightly Damaged, listed anew (Rule 1.11.3).
    pub(super) fn repair_damage(&mut self) {
        let first = self.s.disruptions.iter().position(|d| {
            matches!(
                d,
                Disruption::Station {
                    mark: StationMark::Damage | StationMark::HeavyDamage,
                    ..
                }
            )
        });
        let Some(i) = first else {
            return;
        };
        if let Disruption::Station { at, mark } = self.s.disruptions.remove(i) {
            let name = self.name(at).to_string();
            if mark == StationMark::HeavyDamage {
                self.change(format!(
                    "a new day: {name} is now Lightly Damaged (Rule 1.11.3)"
                ));
                self.s.disruptions.push(Disruption::Station {
                    at,
                    mark: StationMark::Damage,
                });
            } else {
                self.change(format!("a new day: {name} is repaired (Rule 1.11.3)"));
            }
        }
    }

    /// `[Defaming <Station>]` (Rule 1.11.7): a Holy Station one station
    /// from the Piece along a line (Fosdyke S1), not Holy until Sunday.
    pub(super) fn defame(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let from = self.at(when);
        if !self.map.station(id).categories.contains(Category::Holy) {
            self.illegal(
                "1.11.7",
                format!("{} is not a Holy Station", target.station),
            );
        } else if from.is_none_or(|f| self.map.same_line_distance(f, id) != Some(1))
            && !self.magnified_station(a, id)
        {
            self.illegal(
                "1.11.7",
                format!(
                    "{} is not one station from the Piece along a line (Fosdyke S1)",
                    target.station
                ),
            );
        } else {
            self.mark(id, StationMark::Defamed, "not Holy until Sunday", "1.11.7");
        }
        Charge::Table
    }

    /// `[Collection Plate]` (Rule 1.11.7): every Holy Station is Open for
    /// the rest of the Turn.
    pub(super) fn collection_plate(&mut self) -> Charge {
        self.opened.holy = true;
        self.change("every Holy Station is Open for the rest of the Turn (Rule 1.11.7)");
        Charge::Table
    }

    /// `[Opening MC]` (Rule 1.7.28): Mornington Crescent is Open for the
    /// rest of the Turn; not for a wearer of the Hyde Mask (Rule 1.7.38).
    pub(super) fn opening_mc(&mut self) -> Charge {
        if self.hyde() {
            self.illegal(
                "1.7.38",
                "a player wearing the Hyde Mask may not perform [Opening MC]",
            );
            return Charge::Free;
        }
        self.opened.mc = true;
        self.change("Mornington Crescent is Open for the rest of the Turn (Rule 1.7.28)");
        Charge::Table
    }
}
