//! The PoID at Mornington Crescent and on the move (Rule 1.4.24): the
//! 295-sided die its placer rolls after each of eir Turns while it rests
//! there, the explosion at the Station it names at the start of the next
//! Turn (RULINGS E126), and the PoID Shunted "as if it were a Token
//! Stack" (E127).

use super::*;
use crate::dice;

const RULE: &str = "1.4.24";

impl Turn<'_> {
    /// The start of a Turn after the placer's roll: the Station the die
    /// named is wracked by an explosion, as a Suspect Package detonated
    /// there, unless it is a Holy Station (Rule 1.4.24).
    pub(super) fn poid_die_blast(&mut self) {
        let Some(at) = self.s.poid_blast.take() else {
            return;
        };
        let name = self.name(at).to_string();
        if self.holy(at) {
            self.change(format!(
                "the PoID's die named {name}, a Holy Station: nothing happens (Rule 1.4.24)"
            ));
            return;
        }
        self.explode(
            at,
            format!("the PoID's die named {name}: a terrible explosion (Rule 1.4.24)"),
        );
    }

    /// The end of its placer's Turn while the PoID rests at Mornington
    /// Crescent: the Play records the d295 (`{rolled poid-mc N}`, rolled by
    /// the bot in a game with dice), and the next Turn looks it up on the
    /// Venbacker Table (Rule 1.4.24, RULINGS E126).
    pub(super) fn poid_die_roll(&mut self, mv: &Move) {
        let mc = self.map.landmark(Landmark::MorningtonCrescent);
        let mine = self
            .s
            .poid_placer
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case(&self.my_name()));
        if self.s.poid != Some(mc) || !mine || matches!(mv, Move::Timeout) {
            return;
        }
        let what = "the PoID resting at Mornington Crescent".to_string();
        if let Some(at) = self.venbacker_roll(dice::POID_MC, RULE, &what) {
            self.s.poid_blast = Some(at);
            self.change(format!(
                "the PoID's die names {}: the next Turn looks it up (Rule 1.4.24)",
                self.name(at)
            ));
        }
    }

    /// "If the Podume is ever at Mornington Crescent and there are no
    /// Tokens left in the Game, the Game is abandoned with no Winner" (Rule
    /// 1.4.24): ending a game is the Speaker's, so the Turn that leaves none
    /// goes to a human ruling, saying so (RULINGS E126).
    pub(super) fn poid_abandons(&mut self) {
        let mc = self.map.landmark(Landmark::MorningtonCrescent);
        let none_left = self
            .s
            .players
            .iter()
            .all(|p| Colour::ALL.iter().all(|c| p.tokens.get(*c) == 0))
            && self.s.stacks.iter().all(|(_, t)| t.is_empty());
        if self.s.poid == Some(mc) && none_left {
            self.ruling(
                RULE,
                "the PoID rests at Mornington Crescent and no Tokens are left in the Game: the Game is abandoned with no Winner, every Player having Lost; the Speaker ends it",
            );
        }
    }

    /// `[Shunting PoID to <Station>]` and the other Shunts of the PoID
    /// resting at the Piece's Station, "as if it were a Token Stack" (Rule
    /// 1.4.24, RULINGS E127): along one of the Station's lines, LV stations
    /// away; nothing is claimed from it; sent to a Holy Station it is
    /// destroyed; its placer is no longer responsible for it.
    pub(super) fn shunt_poid(&mut self, a: &Action, rule: &str, target: &Target) {
        let Some((here, dest, line)) = self.shunt_resting(
            a,
            rule,
            target,
            "the PoID",
            "the PoID does not rest at",
            "1.4.24",
            |s, at| s.poid == Some(at),
        ) else {
            return;
        };
        self.land_poid(here, dest, line, rule, "Shunted");
    }

    /// A Double Shunt of the PoID at `occupied`, where the previous Shunt
    /// sent its target (Rules 1.4.24, 1.10.2): it is Shunted once a Move.
    pub(super) fn double_shunt_poid(
        &mut self,
        rule: &str,
        target: &Target,
        n: u32,
        occupied: StationId,
        dest: StationId,
    ) {
        let there = self.s.poid == Some(occupied) && !self.shunts.poid;
        let Some(line) = self.double_shunt_resting(rule, target, n, occupied, dest, there, "PoID")
        else {
            return;
        };
        self.land_poid(occupied, dest, line, "1.10.2", "Double-Shunted");
    }

    /// The PoID Shunted from `from` comes to rest at `dest`.
    fn land_poid(
        &mut self,
        from: StationId,
        dest: StationId,
        line: LineCode,
        rule: &str,
        how: &str,
    ) {
        self.shunts.poid = true;
        self.s.poid_placer = None;
        self.change(format!(
            "the PoID at {} is {how} to {} ({line}) (Rules 1.4.24, {rule})",
            self.name(from),
            self.name(dest)
        ));
        if self.holy(dest) {
            self.s.poid = None;
            self.change(format!(
                "the PoID rests at {}, a Holy Station: it is instantly destroyed (Rule 1.4.24)",
                self.name(dest)
            ));
        } else {
            self.s.poid = Some(dest);
        }
        if self.claim_of("PoID").is_some() {
            self.illegal(
                RULE,
                "the PoID is not a Token Stack's Tokens: nothing is claimed from it",
            );
        }
    }
}
