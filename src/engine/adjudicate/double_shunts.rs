//! Double and greater Shunts (Rule 1.10.2): after a Shunt to an occupied
//! Station, the Player or Token Stack there Shunted on, as if the shunter
//! had Shunted it directly. Single Shunts are in `shunts.rs`.

use super::shunts::is_token_stack;
use super::*;
use crate::gsd::Good;

impl Turn<'_> {
    /// A Double Shunt (Rule 1.10.2): after a Shunt to an occupied Station,
    /// the second post-Move Action may Shunt a Player (or Stack) there on,
    /// as if the shunter had Shunted em directly at the first Shunt's LV;
    /// none is Shunted twice by one Move; the table's Gain is the Silver
    /// Token the rule gives.
    pub(super) fn double_shunt(&mut self, a: &Action, player: &str, target: &Target) -> Charge {
        let rule = a.spec().rule;
        self.check_chained(a);
        let Some((n, occupied)) = self.shunts.made else {
            self.illegal(
                rule,
                "a Double Shunt follows a Shunt of this Move to an occupied Station",
            );
            return Charge::Table;
        };
        let Some(dest) = self.shunt_destination(a, target) else {
            return Charge::Table;
        };
        if is_token_stack(player) {
            self.double_shunt_stack(rule, target, n, occupied, dest);
        } else {
            self.double_shunt_player(rule, player, target, n, occupied, dest);
        }
        // "e may perform Shunt Actions free of charge" (Rule 1.4.29): a
        // Double Shunt is a Shunt (Rule 1.10.2: "as if the Actioning Player
        // Shunted the Double-Shunted Player directly").
        if self.s.players[self.me].carries(Good::Spanger) {
            // Free, but its Silver is still gained.
            if let Some(gain) = a.spec().gain.tokens(None) {
                self.gain(&gain);
            }
            self.change("the Spanger makes the Double Shunt free (Rule 1.4.29)");
            return Charge::Paid;
        }
        Charge::Table
    }

    /// The k-th multiple Shunt of a Move is its (k+1)-th post-Move Action:
    /// a Double Shunt the second, a Triple Shunt (written as a further
    /// [Double-Shunting]) the third, each following the last (Rule 1.10.2,
    /// RULINGS.md E46).
    fn check_chained(&mut self, a: &Action) {
        let position = self
            .play
            .actions_after()
            .position(|x| std::ptr::eq(x, a))
            .unwrap_or(0);
        let chained = position >= 1
            && self
                .play
                .actions_after()
                .skip(1)
                .take(position - 1)
                .all(|x| matches!(x, Action::DoubleShunting { .. }));
        if !chained {
            self.illegal(
                a.spec().rule,
                format!(
                    "{} must be the second post-Move Action of the Turn, or follow the multiple Shunts before it",
                    a.render()
                ),
            );
        }
    }

    /// A Double Shunt of the Stack the previous Shunt sent to `occupied`.
    fn double_shunt_stack(
        &mut self,
        rule: &str,
        target: &Target,
        n: u32,
        occupied: StationId,
        dest: StationId,
    ) {
        if self.shunts.stacks.contains(&occupied) {
            self.illegal(
                rule,
                format!(
                    "the Stack at {} was Shunted there by this Move: none is Shunted twice",
                    self.name(occupied)
                ),
            );
            return;
        }
        if !self.stack_movable(occupied) {
            return;
        }
        let Some(line) = self.shunt_route(occupied, dest, target, n, false, true, rule) else {
            return;
        };
        if let Some(moved) = self.send_stack(occupied, dest, line, false, rule) {
            self.change(format!(
                "the Token Stack at {} is Double-Shunted to {} ({line}) (Rule 1.10.2)",
                self.name(occupied),
                target.station
            ));
            self.shunts.made = Some((n, dest));
            // Its rewards are a Shunt's: a claim (Rule 1.10.2).
            self.stack_claim(dest, moved);
        }
    }

    /// A Double Shunt of a Player at `occupied`, where the previous Shunt
    /// sent its target.
    fn double_shunt_player(
        &mut self,
        rule: &str,
        player: &str,
        target: &Target,
        n: u32,
        occupied: StationId,
        dest: StationId,
    ) {
        if player.eq_ignore_ascii_case("Suspect Package") {
            self.double_shunt_package(rule, target, n, occupied, dest);
            return;
        }
        if player.eq_ignore_ascii_case("PoID") {
            self.double_shunt_poid(rule, target, n, occupied, dest);
            return;
        }
        let Some(v) = self.s.player_index(player).filter(|&v| v != self.me) else {
            self.illegal(rule, format!("{player} is not another player of this game"));
            return;
        };
        if self.shunts.players.contains(&v) {
            self.illegal(
                rule,
                format!(
                    "{player} has been Shunted by this Move already: no Player is Shunted twice"
                ),
            );
            return;
        }
        let Some(theirs) = self.s.players[v].at.filter(|p| p.station == occupied) else {
            self.illegal(
                rule,
                format!(
                    "{player} is not at {}, where the first Shunt sent its target",
                    self.name(occupied)
                ),
            );
            return;
        };
        if self.sheltered(v, theirs.station) {
            return;
        }
        let Some(line) = self.shunt_route(theirs.station, dest, target, n, false, true, rule)
        else {
            return;
        };
        self.send_shunted(v, dest, line);
        self.change(format!(
            "{} is Double-Shunted to {} ({line}) (Rule 1.10.2)",
            self.s.players[v].name, target.station
        ));
        // A Triple Shunt goes on from where this one sent its target.
        self.shunts.made = Some((n, dest));
        // Its rewards are a Shunt's: a claim (Rule 1.10.2).
        self.shunt_claim(v);
    }
}
