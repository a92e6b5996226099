//! Shunts of what rests at a Station rather than a Player, "as though it
//! were a Player" or "as if it were a Token Stack": a Suspect Package
//! (Rule 1.4.7) and the PoID (Rule 1.4.24), singly and Doubled (Rule
//! 1.10.2). What each then does where it lands is its own file's.

use super::*;

impl Turn<'_> {
    /// The common part of a Double Shunt of something resting at
    /// `occupied`, where the previous Shunt sent its target (a Suspect
    /// Package, the PoID; Rules 1.4.7, 1.4.24, 1.10.2): `there`, whether a
    /// `what` not yet Shunted by this Move rests there; the route of `n`
    /// to `dest`. Returns the line it goes along.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn double_shunt_resting(
        &mut self,
        rule: &str,
        target: &Target,
        n: u32,
        occupied: StationId,
        dest: StationId,
        there: bool,
        what: &str,
    ) -> Option<LineCode> {
        if !there {
            self.illegal(
                rule,
                format!(
                    "no {what} not yet Shunted by this Move rests at {}, where the first Shunt sent its target",
                    self.name(occupied)
                ),
            );
            return None;
        }
        let line = self.shunt_route(occupied, dest, target, n, false, true, rule)?;
        self.shunts.made = Some((n, dest));
        Some(line)
    }

    /// The common part of a Shunt of something resting at the Piece's
    /// Station rather than a Player (a Suspect Package, the PoID, Rules
    /// 1.4.7, 1.4.24): the Piece on the Map, the thing there (`rests`), no
    /// Sanctuary or Loop, the leg; the Shunter's LV then zero (not in a
    /// Power Shunt). `what` names it, `absent` starts the message when it
    /// is not there, `rules` is cited beside 1.10.0. Returns where it was,
    /// where it goes and along which line.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shunt_resting(
        &mut self,
        a: &Action,
        rule: &str,
        target: &Target,
        what: &str,
        absent: &str,
        rules: &str,
        rests: impl Fn(&GameState, StationId) -> bool,
    ) -> Option<(StationId, StationId, LineCode)> {
        self.targeting(a);
        let Some(here) = self.here() else {
            self.illegal(
                rule,
                format!("the Piece must be on the Map to Shunt {what}"),
            );
            return None;
        };
        if !rests(&self.s, here) {
            self.illegal(
                rule,
                format!(
                    "{absent} {}: a Shunt's target shares the Piece's Station (Rules {rules}, 1.10.0)",
                    self.name(here)
                ),
            );
            return None;
        }
        if self.sanctuary(here) || self.loop_trap(here) {
            return None;
        }
        let (n, dest, line, _) = self.shunt_leg(a, here, target, rule)?;
        if !matches!(a, Action::PowerShunting { .. }) {
            let me = self.me;
            self.s.players[me].lv = 0;
        }
        self.shunts.made = Some((n, dest));
        Some((here, dest, line))
    }
}
