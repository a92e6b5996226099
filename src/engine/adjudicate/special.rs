//! Special Moves (Rule 1.5.0) and the Actions that permit them: Walking
//! (1.7.10), Home (1.12.4), Wild (1.11.1), Stub Link (1.7.33), Striling
//! (1.7.12), Declension (1.7.58), the Marmalade Sandwich (1.4.16),
//! Ghosting (1.11.6) and the Dollis Hill Loop's (1.8.6).

use super::*;
use crate::map::GhostId;

impl Turn<'_> {
    /// `[Walking]` (Rule 1.7.10); free with Today's Paper, and Yesterday's
    /// Paper is discarded for it (Rule 1.4.32).
    pub(super) fn walking(&mut self) -> Charge {
        self.mv.special = Some(Special::Walking);
        let me = self.me;
        let Some(i) = self.s.players[me]
            .possessions
            .iter()
            .position(|p| matches!(p.item, Item::Paper(_)) && !p.nantucket)
        else {
            return Charge::Table;
        };
        let today = matches!(self.s.players[me].possessions[i].item, Item::Paper(d) if d == self.s.time.day);
        if !today {
            self.s.players[me].possessions.remove(i);
            self.change("Yesterday's Paper is discarded for the walk (Rule 1.4.32)");
        }
        Charge::Free
    }

    /// `[Home]` (Rule 1.12.4): a Home Station, declared before or now.
    pub(super) fn home_move(&mut self) -> Charge {
        let declaring = self
            .play
            .actions_before()
            .any(|x| matches!(x, Action::HomeStation { .. }));
        if self.s.players[self.me].home.is_none() && !declaring {
            self.illegal("1.12.4", "[Home] needs a Home Station");
        }
        self.mv.special = Some(Special::Home);
        Charge::Table
    }

    /// `[Wild]` (Rule 1.11.1).
    pub(super) fn wild_move(&mut self) -> Charge {
        self.mv.special = Some(Special::Wild);
        Charge::Table
    }

    /// `[Stub Link]` (Rule 1.7.33): from a station whose Ticket Stub the
    /// player owns.
    pub(super) fn stub_link(&mut self, a: &Action) -> Charge {
        let owns = self
            .mv
            .started_at
            .is_some_and(|s| self.s.players[self.me].has_stub(s));
        if !owns {
            self.illegal(
                a.spec().rule,
                "a Stub Link starts at a station whose Ticket Stub the player owns",
            );
        }
        self.mv.special = Some(Special::StubLink);
        Charge::Table
    }

    /// `[Striling]` and `[Declension]` (Rules 1.7.12, 1.7.58): LV six or more.
    pub(super) fn strile(&mut self, a: &Action) -> Charge {
        if self.s.players[self.me].lv < 6 {
            self.illegal(
                a.spec().rule,
                format!("{} needs an LV of six or more", a.render()),
            );
        }
        self.mv.special = Some(if matches!(a, Action::Striling) {
            Special::Strile
        } else {
            Special::Declension
        });
        Charge::Table
    }

    /// `[Ghosting]` (Rule 1.11.6).
    pub(super) fn ghosting(&mut self) -> Charge {
        self.mv.special = Some(Special::Ghosting);
        Charge::Table
    }

    /// Whether the Special Move the Turn's Action permits reaches `to`
    /// from `at`; reports the rule it breaks if not.
    pub(super) fn special_move(&mut self, at: Position, dest: &Target, to: StationId) {
        let Some(kind) = self.mv.special else {
            return;
        };
        let me = self.me;
        let map = self.map;
        let station = &dest.station;
        let ok = match kind {
            Special::Walking => map.within_walking_distance(at.station, to),
            Special::Home => self.s.players[me].home == Some(to),
            Special::Wild => self.s.wild.contains(&to),
            Special::StubLink => to != at.station && self.s.players[me].has_stub(to),
            // [Ghosting] leads only to Ghost Stations.
            Special::Ghosting => false,
            Special::Paddington => map.is(to, Landmark::Paddington),
            Special::Loop => map.is(to, Landmark::DollisHill),
            // Strilable: a Stack identical to the one where the Piece is
            // (1.7.12); Declensable: one Token fewer (1.7.58).
            Special::Strile | Special::Declension => {
                let here = self.s.stack(at.station).filter(|t| !t.is_empty());
                let there = self.s.stack(to).filter(|t| !t.is_empty());
                match (here, there) {
                    (Some(h), Some(t)) if kind == Special::Strile => to != at.station && h == t,
                    (Some(h), Some(t)) => t.len() + 1 == h.len(),
                    _ => false,
                }
            }
        };
        if !ok {
            let from = self.name(at.station).to_string();
            let (rule, why) = match kind {
                Special::Walking => (
                    "1.7.10",
                    format!("{station} is not within Walking Distance of {from}"),
                ),
                Special::Home => (
                    "1.12.4",
                    format!("{station} is not {}'s Home Station", self.my_name()),
                ),
                Special::Wild => ("1.11.1", format!("{station} is not a Wild Station")),
                Special::StubLink => (
                    "1.7.33",
                    format!("the player owns no Ticket Stub for {station}"),
                ),
                Special::Ghosting => (
                    "1.11.6",
                    format!("[Ghosting] permits a Special Move to a Ghost Station, not {station}"),
                ),
                Special::Paddington => (
                    "1.4.16",
                    format!(
                        "a Marmalade Sandwich permits a Special Move to Paddington, not {station}"
                    ),
                ),
                Special::Loop => (
                    "1.8.6",
                    format!(
                        "the Dollis Hill Loop permits a Special Move to Dollis Hill, not {station}"
                    ),
                ),
                Special::Strile => (
                    "1.7.12",
                    format!("{station} has no Token Stack identical to the one at {from}"),
                ),
                Special::Declension => (
                    "1.7.58",
                    format!(
                        "{station}'s Token Stack is not one Token smaller than the one at {from}"
                    ),
                ),
            };
            self.illegal(rule, why);
        }
        // A Special Move is a Piece Move: Bridges Up voids one across the
        // Thames (Rules 1.8.3, 1.5.0; RULINGS.md E50).
        self.bridges_forbid(at.station, to);
    }

    /// A Special Move to a Ghost Station: only by [Ghosting], to an empty
    /// one (Rule 1.11.6); its Current is 50.
    pub(super) fn ghosting_move(&mut self, ghost: GhostId) {
        let me = self.me;
        let name = self.map.ghost(ghost).to_string();
        if self.mv.special != Some(Special::Ghosting) {
            self.illegal(
                "1.11.6",
                format!("{name} is a Ghost Station: it is reached only by [Ghosting]"),
            );
            return;
        }
        if self.s.players.iter().any(|p| p.ghost == Some(ghost)) {
            self.illegal("1.11.6", format!("the Ghost Station {name} is not empty"));
            return;
        }
        let ghost_current = self.map.ghost_current() as i32;
        let from = self.s.players[me]
            .at
            .map(|a| self.map.station(a.station).current as i32)
            .unwrap_or(ghost_current);
        let p = &mut self.s.players[me];
        p.charge = p
            .charge
            .saturating_add(ghost_current - from)
            .clamp(-999, 999);
        p.at = None;
        p.ghost = Some(ghost);
        p.lv = 0;
        self.change(format!(
            "{} slips away to the Ghost Station {name} (Rule 1.11.6)",
            self.my_name()
        ));
    }

    /// A Piece at a Ghost Station is adjacent to nowhere: it leaves only
    /// by a Special Move that does not start from a station (Rule 1.11.6),
    /// the Dollis Hill Loop's to Dollis Hill too (RULINGS E83).
    pub(super) fn leave_ghost(&mut self, g: GhostId, dest: &Target, to: StationId) {
        let me = self.me;
        let ghost = self.map.ghost(g).to_string();
        let ok = match self.mv.special {
            Some(Special::Home) => self.s.players[me].home == Some(to),
            Some(Special::Wild) => self.s.wild.contains(&to),
            Some(Special::Paddington) => self.map.is(to, Landmark::Paddington),
            // The Loop's Special Move is "a suitable Special Move to escape
            // them" (Rules 1.8.6, 1.11.6; RULINGS E83).
            Some(Special::Loop) => self.map.is(to, Landmark::DollisHill),
            _ => false,
        };
        if !ok {
            self.illegal("1.11.6", format!("a Piece at the Ghost Station {ghost} leaves only by a Special Move such as [Home] or [Wild]"));
            return;
        }
        if !self.open(to, dest.line) || self.blocked(to) {
            self.illegal("1.13.4", format!("{} is Closed or Blocked", dest.station));
        }
        let p = &mut self.s.players[me];
        p.charge = p
            .charge
            .saturating_add(self.map.station(to).current as i32 - self.map.ghost_current() as i32)
            .clamp(-999, 999);
        p.ghost = None;
        p.at = Some(Position {
            station: to,
            line: dest.line,
        });
        p.lv = 0;
        self.change(format!(
            "{} leaves the Ghost Station {ghost} for {}",
            self.my_name(),
            dest.station
        ));
    }
}
