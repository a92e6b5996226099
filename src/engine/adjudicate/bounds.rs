//! Game-wide States that bound where a Move may go (Rule 1.8): the Parks
//! and Greens Cascade (1.8.2), the Venbacker Ladder (1.8.9) and the Dollis
//! Hill Loop (1.8.1, 1.8.6), with their Actions. Each binds the Turn's
//! Move, Standard or Special, not a Translocation or a Shunt; a Sidestep
//! written before the Move frees it (RULINGS.md E84).

use super::*;
use crate::engine::LastMove;

impl Turn<'_> {
    /// Whether the Turn performs `a` before its Move: a Sidestep (Rules
    /// 1.8.1, 1.8.2, 1.8.9).
    fn sidesteps(&self, a: Action) -> bool {
        self.play.actions_before().any(|x| *x == a)
    }

    /// The States' bounds on the Move to `to` (`None`: a Ghost Station),
    /// then where the Move went, for the next Turn's Ladder (Rule 1.8.9).
    pub(super) fn bounded_move(&mut self, to: Option<StationId>) {
        self.ladder_bound(to);
        if self.s.has(&Disruption::ParksAndGreens) && !self.sidesteps(Action::CascadeSidestep) {
            let green = to.is_some_and(|t| {
                let c = self.map.station(t).categories;
                [Category::Park, Category::Plant, Category::Green]
                    .iter()
                    .any(|k| c.contains(*k))
            });
            if !green {
                let msg = format!(
                    "a Parks and Greens Cascade is in effect: {} is neither a Park, Plant nor Green Station (a [Cascade Sidestep] before the Move would allow it)",
                    self.place_name(to)
                );
                self.illegal("1.8.2", msg);
            }
        }
        if self.s.has(&Disruption::DollisHillLoop) && !self.sidesteps(Action::DollisSidestep) {
            let trap = self.map.landmark(Landmark::DollisHill);
            if to != Some(trap) {
                let msg = format!(
                    "the Game is in the Dollis Hill Loop: a Move may only go to its Next Station, Dollis Hill, not {} (a [Dollis Sidestep] before the Move would allow it)",
                    self.place_name(to)
                );
                self.illegal("1.8.6", msg);
            }
        }
    }

    /// Where the Turn's Move went, for the next Turn (Rule 1.8.9): a Pass,
    /// Farkle or Timeout ends where the Piece stands.
    pub(super) fn record_last_move(&mut self) {
        self.s.last_move = LastMove::Ended(self.here());
    }

    /// Under a Venbacker Ladder no Move goes to a Station with a lower
    /// Venbacker Number than the previous Turn's Move went to, unless the
    /// player Sidesteps it (Rule 1.8.9, RULINGS.md E81).
    fn ladder_bound(&mut self, to: Option<StationId>) {
        if !self.s.has(&Disruption::VenbackerLadder) || self.sidesteps(Action::LadderSidestep) {
            return;
        }
        let (Some(to), LastMove::Ended(Some(prev))) = (to, self.s.last_move) else {
            if self.s.last_move == LastMove::Unknown {
                self.ruling(
                    "1.8.9",
                    "a Venbacker Ladder is in effect, and mornbot does not know where the previous Turn's Move went (the GSD's Plays do not show it)",
                );
            }
            return;
        };
        let (n, floor) = (self.map.venbacker(to), self.map.venbacker(prev));
        if n < floor {
            let msg = format!(
                "a Venbacker Ladder is in effect: {} is Venbacker Number {n}, lower than {} ({floor}), where the previous Turn's Move went (a [Ladder Sidestep] before the Move would allow it)",
                self.name(to),
                self.name(prev)
            );
            self.illegal("1.8.9", msg);
        }
    }

    /// A station's name, or a Ghost Station's.
    fn place_name(&self, to: Option<StationId>) -> String {
        match (to, self.play.the_move()) {
            (Some(t), _) => self.name(t).to_string(),
            (None, Move::To { dest, .. }) => dest.station.clone(),
            (None, _) => "a Ghost Station".into(),
        }
    }

    /// `[Venbacker Ladder]` (Rule 1.8.9).
    pub(super) fn venbacker_ladder(&mut self) -> Charge {
        self.s.set(Disruption::VenbackerLadder, true);
        self.change("a Venbacker Ladder is in effect (Rule 1.8.9)");
        Charge::Table
    }

    /// `[Terminating Ladder]` (Rule 1.8.9): from the Station with the
    /// highest Venbacker Number in the Game, the map's last (RULINGS.md
    /// E81).
    pub(super) fn terminating_ladder(&mut self) -> Charge {
        let top = self.map.highest_venbacker();
        if !self.s.has(&Disruption::VenbackerLadder) {
            self.illegal("1.8.9", "there is no Venbacker Ladder to end");
        } else if self.here() != Some(top) {
            let msg = format!(
                "a Venbacker Ladder ends only from {}, the Station with the highest Venbacker Number ({})",
                self.name(top),
                self.map.venbacker(top)
            );
            self.illegal("1.8.9", msg);
        } else {
            self.s.set(Disruption::VenbackerLadder, false);
            self.change("the Venbacker Ladder ends (Rule 1.8.9)");
        }
        Charge::Table
    }

    /// `[Parks and Greens Cascade]` (Rule 1.8.2): from a Park or Green
    /// Station.
    pub(super) fn parks_and_greens(&mut self) -> Charge {
        if !self.here_is(&[Category::Park, Category::Green]) {
            self.illegal(
                "1.8.2",
                "a Parks and Greens Cascade starts only from a Park or Green Station",
            );
        } else {
            self.s.set(Disruption::ParksAndGreens, true);
            self.change("a Parks and Greens Cascade is in effect (Rule 1.8.2)");
        }
        Charge::Table
    }

    /// `[Terminating Cascade]` (Rule 1.8.2): from a Plant Station.
    pub(super) fn terminating_cascade(&mut self) -> Charge {
        if !self.s.has(&Disruption::ParksAndGreens) {
            self.illegal("1.8.2", "there is no Parks and Greens Cascade to end");
        } else if !self.here_is(&[Category::Plant]) {
            self.illegal(
                "1.8.2",
                "a Parks and Greens Cascade ends only from a Plant Station",
            );
        } else {
            self.s.set(Disruption::ParksAndGreens, false);
            self.change("the Parks and Greens Cascade ends (Rule 1.8.2)");
        }
        Charge::Table
    }

    /// Whether the Piece now stands at a Station of one of `kinds`.
    fn here_is(&self, kinds: &[Category]) -> bool {
        self.here().is_some_and(|h| {
            let c = self.map.station(h).categories;
            kinds.iter().any(|k| c.contains(*k))
        })
    }

    /// `[Dollis Escape]` (Rule 1.8.1): the Dollis Hill Loop's Terminate
    /// Action (Rule 1.8.6), with an LV of 10 or more.
    pub(super) fn dollis_escape(&mut self) -> Charge {
        let lv = self.s.players[self.me].lv;
        if !self.s.has(&Disruption::DollisHillLoop) {
            self.illegal("1.8.6", "the Game is not in the Dollis Hill Loop");
        } else if lv < 10 {
            self.illegal(
                "1.8.1",
                format!("[Dollis Escape] needs an LV of 10 or more; the LV is {lv}"),
            );
        } else {
            self.s.set(Disruption::DollisHillLoop, false);
            self.change("the Game leaves the Dollis Hill Loop (Rules 1.8.1, 1.8.6)");
        }
        Charge::Table
    }

    /// Under the Dollis Hill Loop, a Move to Dollis Hill with no other
    /// Special Move permitted is the Loop's Special Move (Rule 1.8.6,
    /// RULINGS.md E83).
    pub(super) fn loop_special(&mut self, to: StationId) {
        let looped = self.s.has(&Disruption::DollisHillLoop)
            && !self.sidesteps(Action::DollisSidestep)
            && self.mv.special.is_none()
            && self.map.is(to, Landmark::DollisHill);
        if looped {
            self.mv.special = Some(Special::Loop);
        }
    }

    /// A Turn that ends at a Trap Station it did not start at puts the
    /// Game in that Trap Station's Loop, unless the player Sidestepped it
    /// (Rules 1.8.1, 1.8.6, RULINGS.md E83).
    pub(super) fn enter_loop(&mut self) {
        let Some(at) = self.here() else {
            return;
        };
        let trapped = self.map.is(at, Landmark::DollisHill)
            && self.mv.started_at != Some(at)
            && !self.sidesteps(Action::DollisSidestep)
            && !self.s.has(&Disruption::DollisHillLoop);
        if trapped {
            self.s.set(Disruption::DollisHillLoop, true);
            self.change("the Turn ends at Dollis Hill: the Game enters the Dollis Hill Loop (Rules 1.8.1, 1.8.6)");
        }
    }
}
