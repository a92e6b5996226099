//! The Prison Clamp's expiry (Rule 1.4.47): "At the start of a Player's
//! Turn, if that Player has been carrying a particular Prison Clamp for
//! more than two Rounds, it is destroyed." Each Clamp's age is kept as the
//! number of its holder's Turns begun while carrying it (RULINGS.md E65).

use super::*;
use crate::gsd::Good;

impl Turn<'_> {
    /// At the start of the Turn: every Prison Clamp the player has carried
    /// through two earlier Turns of eirs (so for more than two Rounds) is
    /// destroyed; the others age by one Turn. A Clamp whose age mornbot
    /// does not know (the GSD shows more Clamps than it has records of)
    /// needs a human ruling.
    pub(super) fn prison_expiry(&mut self) {
        let me = self.me;
        let name = self.my_name();
        let (carried, known) = self.prison_counts();
        if carried == 0 && known == 0 {
            return;
        }
        if carried != known {
            self.ruling(
                "1.4.47",
                format!("{name} carries a Prison Clamp whose age (Rounds carried) is not in the plays mornbot has folded"),
            );
            return;
        }
        let mut expired = 0;
        self.s.prisons.retain_mut(|p| {
            if !p.player.eq_ignore_ascii_case(&name) {
                return true;
            }
            if p.turns >= 2 {
                expired += 1;
                return false;
            }
            p.turns += 1;
            true
        });
        for _ in 0..expired {
            let p = &mut self.s.players[me].possessions;
            if let Some(i) = p
                .iter()
                .position(|x| !x.nantucket && x.good() == Good::PrisonClamp)
            {
                p.remove(i);
            }
            self.change(format!(
                "{name} has carried a Prison Clamp for more than two Rounds: it is destroyed (Rule 1.4.47)"
            ));
        }
    }

    /// Prison Clamps the player carries (not Nantucketed) and those mornbot
    /// knows the age of.
    fn prison_counts(&self) -> (usize, usize) {
        let p = &self.s.players[self.me];
        let carried = p
            .possessions
            .iter()
            .filter(|x| !x.nantucket && x.good() == Good::PrisonClamp)
            .count();
        let known = self
            .s
            .prisons
            .iter()
            .filter(|x| x.player.eq_ignore_ascii_case(&p.name))
            .count();
        (carried, known)
    }

    /// Whether the player still carries a Prison Clamp this Turn, as far as
    /// mornbot knows: `None` when a Clamp's age is unknown (it may have
    /// expired as the Turn began; a human rules).
    pub(super) fn imprisoned(&self) -> Option<bool> {
        let (carried, known) = self.prison_counts();
        (carried == known).then_some(carried > 0)
    }
}
