//! The Actions that give Clamps and Bombs, and those that remove them
//! (Rules 1.4.38 - 1.4.45); what carrying one forbids is `restraints.rs`,
//! the Magno-Clamp's own Actions `magno.rs`.

use super::*;
use crate::gsd::{Good, Possession};

impl Turn<'_> {
    /// `[Spooning <Player>]`, `[Narging <Player>]`, `[Greening <Player>]`,
    /// `[Freeming <Player>]`, `[Knidding <Player>]`, `[Magno-Clamping
    /// <Player>]`, `[Velocity-Bombing <Player>]`: the target "shares a
    /// Station and Line with the Actioning Player" and gains the Cursed
    /// Possession (a Dormant Bomb for the Velocity Bomb).
    pub(super) fn clamp(&mut self, a: &Action, player: &str, good: Good) -> Charge {
        let Some(v) = self.sharing(a, player) else {
            return Charge::Table;
        };
        self.s.players[v].possessions.push(Possession::of(good));
        let rule = a.spec().rule;
        self.change(format!(
            "{} gains a {} (Rule {rule})",
            self.s.players[v].name,
            good.spec().name
        ));
        Charge::Table
    }

    /// The target of a Clamp Action: another player whose Piece shares the
    /// Actioning Player's Station and Line, outside the small hours (Rule
    /// 1.13.1) and Sanctuary (Rule 1.11.7). Unlike Rule 1.10.0's Actions,
    /// these need not be the first post-Move Action (their rules say only
    /// "shares a Station and Line").
    pub(super) fn sharing(&mut self, a: &Action, player: &str) -> Option<usize> {
        let rule = a.spec().rule;
        let me = self.me;
        if crate::engine::time::in_small_hours(self.now()) {
            self.illegal(
                "1.13.1",
                "Actions that target other Players cannot be played between 0000 and 0500",
            );
        }
        let Some(v) = self.s.player_index(player).filter(|&v| v != me) else {
            self.illegal(rule, format!("{player} is not another player of this game"));
            return None;
        };
        let (mine, theirs) = (self.s.players[me].at, self.s.players[v].at);
        let shares = match (mine, theirs) {
            (Some(m), Some(t)) => {
                (m.station == t.station
                    && (m.line.is_none() || t.line.is_none() || m.line == t.line))
                    || self.magnified(a, magnify::Lens::Player(v), m, t)
            }
            _ => false,
        };
        if !shares {
            self.illegal(
                rule,
                format!("{player} does not share the Piece's Station and Line"),
            );
            return None;
        }
        let at = mine.map(|m| m.station)?;
        if self.map.station(at).categories.contains(Category::Holy)
            && !self.s.has_mark(at, StationMark::Defamed)
        {
            self.illegal(
                "1.11.7",
                format!(
                    "{} is a Holy Station: Sanctuary forbids targeting there",
                    self.name(at)
                ),
            );
            return None;
        }
        Some(v)
    }

    /// `[Anti-Narg]` at Tottenham Court Road, `[Degreening]` at a Green
    /// Station, `[Freem-away!]` in a Zone beyond 4, `[De-Knidding]` at the
    /// player's Home Station, `[Removing Velocity Bomb]` at a British Rail
    /// Station (the LV becomes zero): each destroys one such Possession
    /// carried, where the Piece stands when the Action is played.
    pub(super) fn unclamp(&mut self, a: &Action, goods: &[Good]) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let Some(at) = self.here() else {
            self.illegal(rule, "the Piece must be on the Map");
            return Charge::Free;
        };
        let st = self.map.station(at);
        let (ok, place) = match a {
            Action::AntiNarg => (
                self.map.is(at, Landmark::TottenhamCourtRoad),
                "at Tottenham Court Road",
            ),
            Action::Degreening => (
                st.categories.contains(Category::Green),
                "at a Green Station",
            ),
            // "a Zone above (outside) Zone 4": a boundary station counts
            // when one of its zones is (RULINGS.md E60).
            Action::FreemAway => (st.zones.iter().any(|z| *z > 4), "in a Zone beyond Zone 4"),
            Action::DeKnidding => (self.s.players[me].home == Some(at), "at eir Home Station"),
            _ => (st.british_rail, "at a British Rail Station"),
        };
        if !ok {
            self.illegal(
                rule,
                format!("{} is played {place}, not at {}", a.render(), self.name(at)),
            );
            return Charge::Free;
        }
        let found = self.s.players[me]
            .possessions
            .iter()
            .position(|p| !p.nantucket && goods.contains(&p.good()));
        let Some(i) = found else {
            let names: Vec<&str> = goods.iter().map(|g| g.spec().name).collect();
            self.illegal(
                rule,
                format!("{} carries no {}", self.my_name(), names.join(" or ")),
            );
            return Charge::Free;
        };
        let gone = self.s.players[me].possessions.remove(i);
        self.change(format!(
            "the {} is destroyed (Rule {rule})",
            gone.good().spec().name
        ));
        if matches!(a, Action::RemovingVelocityBomb) {
            self.s.players[me].lv = 0;
            self.change("LV becomes zero (Rule 1.4.38)");
        }
        Charge::Table
    }

    /// `[Unspoon]` (Rule 1.4.39): destroys one Spoon Clamp carried,
    /// "whilst at any Station in Quadrant Zero". The index's Cost "5 any"
    /// is five Tokens of one colour the Spoon lets its carrier spend
    /// (Black, Bronze or Green): the only one e holds five of, or the one
    /// named `{pays Black}` (RULINGS.md E62).
    pub(super) fn unspoon(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let rule = "1.4.39";
        let Some(at) = self.here() else {
            self.illegal(rule, "the Piece must be on the Map");
            return Charge::Free;
        };
        if !self.map.station(at).quadrants.contains(&0) {
            self.illegal(
                rule,
                format!(
                    "[Unspoon] is played whilst at a Station in Quadrant Zero, not at {}",
                    self.name(at)
                ),
            );
            return Charge::Free;
        }
        let found = self.s.players[me]
            .possessions
            .iter()
            .position(|p| !p.nantucket && p.good() == Good::SpoonClamp);
        let Some(i) = found else {
            self.illegal(rule, format!("{} carries no Spoon Clamp", self.my_name()));
            return Charge::Free;
        };
        // A Spooned player may spend only Black, Bronze or Green (Rule 1.4.39).
        let allowed = [Colour::Black, Colour::Bronze, Colour::Green];
        let Some(colour) = self.one_colour(rule, "[Unspoon]", 5, &allowed) else {
            return Charge::Free;
        };
        self.pay(&a.render(), rule, &[(5, colour)]);
        self.s.players[me].possessions.remove(i);
        self.change(format!(
            "the Spoon Clamp is destroyed for five {} Tokens (Rule {rule})",
            colour.name()
        ));
        Charge::Paid
    }
}
