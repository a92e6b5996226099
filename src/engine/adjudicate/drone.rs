//! The Drone (Rule 1.15): claiming the Drone Stick (1.15.2).

use super::*;
use crate::gsd::Good;

impl Turn<'_> {
    /// `[Claiming Drone Stick]` (Rule 1.15.2): the holder (if any) loses
    /// it, the claimer gains it; not while the Drone has taken no Turn
    /// since it was created or last taken from another Player.
    pub(super) fn claim_drone_stick(&mut self) -> Charge {
        let me = self.me;
        let holder = self
            .s
            .players
            .iter()
            .position(|p| p.carries(Good::DroneStick));
        if holder == Some(me) {
            // A claim of one's own Stick changes nothing but is paid for
            // (RULINGS.md E20).
            self.change(format!(
                "{} already carries the Drone Stick (Rule 1.15.2)",
                self.my_name()
            ));
            return Charge::Table;
        }
        if holder.is_some() && self.s.stick_fresh {
            self.illegal(
                "1.15.2",
                "the Drone has not taken a Turn since the Drone Stick was last taken: it cannot be claimed yet",
            );
            return Charge::Free;
        }
        // One in a Nantucket "still exists in the game" (Rule 1.4.15) and
        // "may not be manipulated": the claim makes a second, destroyed at
        // once (Rule 1.4.23; RULINGS E57).
        let kept = self
            .s
            .players
            .iter()
            .find(|p| p.holds(Good::DroneStick) && !p.carries(Good::DroneStick));
        if let (None, Some(k)) = (holder, kept) {
            let msg = format!(
                "the Drone Stick is Unique and in play in {}'s Nantucket: the new one is destroyed (Rule 1.4.23)",
                k.name
            );
            self.change(msg);
            return Charge::Table;
        }
        let from = holder.map(|h| {
            let p = &mut self.s.players[h];
            if let Some(i) = p
                .possessions
                .iter()
                .position(|x| !x.nantucket && x.good() == Good::DroneStick)
            {
                p.possessions.remove(i);
            }
            p.name.clone()
        });
        self.s.players[me]
            .possessions
            .push(crate::gsd::Possession::of(Good::DroneStick));
        self.s.stick_fresh = true;
        let name = self.my_name();
        self.change(match from {
            Some(f) => format!("{name} takes the Drone Stick from {f} (Rule 1.15.2)"),
            None => format!("{name} claims a new Drone Stick (Rule 1.15.2)"),
        });
        Charge::Table
    }
}
