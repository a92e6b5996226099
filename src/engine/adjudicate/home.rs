//! Home Stations (Rule 1.12): declaring one (1.12.2), Tolls and Rent
//! (1.12.3); the [Home] Special Move is in `special.rs`.

use super::*;

impl Turn<'_> {
    /// `[Home: <Station>]` (Rule 1.12.2): by a player with none; not an
    /// Interchange, within six stations of Mornington Crescent, in Zone 1,
    /// occupied, or another player's Home.
    pub(super) fn declare_home(&mut self, a: &Action, target: &Target) -> Charge {
        let me = self.me;
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if self.s.players[me].home.is_some() {
            self.illegal(
                "1.12.2",
                "a Home Station is declared only by a player who has none",
            );
            return Charge::Free;
        }
        if is_drone(&self.my_name()) {
            self.illegal("1.15.1", "the Drone has no Home Station");
            return Charge::Free;
        }
        let st = self.map.station(id);
        let mc = self.map.landmark(Landmark::MorningtonCrescent);
        let mut why = Vec::new();
        if st.kind == StationKind::Interchange {
            why.push("it is an Interchange");
        }
        if self.map.route_distance(id, mc).is_some_and(|d| d <= 6) {
            why.push("it is six stations or fewer from Mornington Crescent");
        }
        if st.zones.contains(&1) {
            why.push("it is in Zone 1");
        }
        if self.s.occupied_by_other(id, me)
            || self.s.stack(id).is_some()
            || self.s.wild.contains(&id)
        {
            why.push("it holds a Piece, Tokens or another game element");
        }
        if self
            .s
            .players
            .iter()
            .enumerate()
            .any(|(i, p)| i != me && p.home == Some(id))
        {
            why.push("it is another player's Home Station");
        }
        if !why.is_empty() {
            self.illegal(
                "1.12.2",
                format!("{} cannot be a Home Station: {}", st.name, why.join("; ")),
            );
            return Charge::Free;
        }
        self.s.players[me].home = Some(id);
        self.change(format!(
            "{}'s Home Station is {} (Rule 1.12.2)",
            self.my_name(),
            st.name
        ));
        Charge::Table
    }

    /// `[Toll to <Player>]` and `[Rent to <Player>]` (Rule 1.12.3): the
    /// cited player's Home Station is Closed rather than Blocked (Toll) or
    /// Open (Rent) for this Turn; e gains what is paid.
    pub(super) fn toll(&mut self, a: &Action, player: &str) -> Charge {
        let rented = matches!(a, Action::Rent { .. });
        let Some(i) = self.s.player_index(player).filter(|&i| i != self.me) else {
            self.illegal(
                "1.12.3",
                format!("{player} is not another player of this game"),
            );
            return Charge::Free;
        };
        let Some(h) = self.s.players[i].home else {
            self.illegal("1.12.3", format!("{player} has no Home Station"));
            return Charge::Free;
        };
        let cost = Self::table_cost(a).unwrap_or_default();
        let cost = self.with_bocks(a, cost);
        self.pay(&a.render(), a.spec().rule, &cost);
        self.credit(i, &cost);
        self.opened.tolled.push((h, rented));
        let how = if rented {
            "Open"
        } else {
            "Closed rather than Blocked"
        };
        self.change(format!(
            "{}'s Home Station {} is {how} for this Turn (Rule 1.12.3)",
            self.s.players[i].name,
            self.name(h)
        ));
        Charge::Paid
    }
}
