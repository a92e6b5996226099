//! Steal, Work, Slave, Buy and Build (Rules 1, 5, 6; RULINGS MX3, MX10 -
//! MX12).

use super::Judging;
use crate::kinds::mcxml::actions::{tokens, Part, Where};
use crate::kinds::mcxml::facts::UNREACHABLE;
use crate::kinds::mcxml::rulings::BuildAt;
use crate::kinds::mcxml::turn::Item;

impl Judging<'_> {
    /// `<Steal player="P" item="..."/>`: one unit from a player at the same
    /// station who holds one; the thief pays 2 first (MX10).
    pub(super) fn steal(&mut self, player: &str, item: Item) {
        let Some(target) = self.other_here(player, "steal from", "steal") else {
            return;
        };
        let name = self.name();
        let victim = self.state.trains[target].name.clone();
        self.pay(self.kind.cost(0, 0, 0), "the steal");
        let held = match item {
            Item::Token => self.state.trains[target].tokens,
            Item::Part(p) => self.state.trains[target].parts.get(p),
        };
        let what = match item {
            Item::Token => "a token".to_string(),
            Item::Part(p) => p.a(),
        };
        if held == 0 {
            self.violate(
                "6",
                Some("MX10"),
                format!("{victim} holds no {}", item_plural(item)),
            );
            return;
        }
        match item {
            Item::Token => {
                self.state.trains[target].tokens -= 1;
                let t = &mut self.train_mut().tokens;
                *t = t.saturating_add(1);
            }
            Item::Part(p) => {
                *self.state.trains[target].parts.get_mut(p) -= 1;
                let n = self.train_mut().parts.get_mut(p);
                *n = n.saturating_add(1);
            }
        }
        self.changes.push(format!(
            "{name} stole {what} from {victim} (2 tokens, 30 min)"
        ));
    }

    /// `<Work/>` and `<Slave/>`: the table's gain.
    pub(super) fn earn(&mut self) {
        let gain = self.kind.gain();
        self.train_mut().tokens = self.train().tokens.saturating_add(gain);
        let verb = match self.kind.name() {
            "Work" => "worked",
            _ => "slaved",
        };
        self.changes.push(format!(
            "{} {verb}: +{} ({} min)",
            self.name(),
            tokens(gain),
            self.kind.minutes(0, 0)
        ));
    }

    /// `<Buy item="..."/>`: once a turn, where Rule 5 says, while the
    /// game's maximum allows, at the part's price (MX11).
    pub(super) fn buy(&mut self, part: Part) {
        let name = self.name();
        if self.bought {
            self.violate(
                "6",
                Some("MX11"),
                "the buy action may only be used once per turn".into(),
            );
        }
        self.bought = true;
        self.check_where(part);
        let players = self.state.trains.len();
        if let Some(max) = part.maximum(players) {
            let bought = self.state.bought.get(part);
            if bought >= max {
                self.violate(
                    "6",
                    Some("MX11"),
                    format!(
                        "the game may have {} with {players} players, and {bought} have been bought: the buy action may not be played",
                        part.count(max)
                    ),
                );
            }
        }
        let price = part.spec().price;
        self.pay(self.kind.cost(0, 0, price), &part.a());
        let held = self.train_mut().parts.get_mut(part);
        *held = held.saturating_add(1);
        let bought = self.state.bought.get_mut(part);
        *bought = bought.saturating_add(1);
        self.changes.push(format!(
            "{name} bought {} ({}, 20 min)",
            part.a(),
            tokens(price)
        ));
    }

    /// Rule 5's "may be bought from".
    fn check_where(&mut self, part: Part) {
        let at = self.train().at;
        let here = self.station(at);
        let spec = part.spec();
        let degree = self.facts.degree(at);
        match spec.at {
            Where::Terminus if !self.facts.is_terminus(at) => self.violate(
                "5",
                Some("MX2"),
                format!("{here} has {degree} adjacent stations: {} may be bought at a terminus (one adjacent station)", spec.plural),
            ),
            Where::Interchange if !self.facts.is_interchange(at) => self.violate(
                "5",
                Some("MX2"),
                format!("{here} has {degree} adjacent stations: {} may be bought at an interchange (3 or more)", spec.plural),
            ),
            Where::FarFromTrains(far) => {
                let nearest = (0..self.state.trains.len())
                    .filter(|&i| i != self.actor)
                    .map(|i| (self.facts.distance(at, self.state.trains[i].at), i))
                    .min();
                if let Some((d, i)) = nearest.filter(|&(d, _)| d < far) {
                    let other = self.state.trains[i].name.clone();
                    let there = self.station(self.state.trains[i].at);
                    debug_assert!(d != UNREACHABLE);
                    self.violate(
                        "5",
                        Some("MX11"),
                        format!("{other}'s train at {there} is {d} steps from {here}: {} may be bought {far} or more steps from the closest other player", spec.plural),
                    );
                }
            }
            Where::WithTrain => {
                let others = (0..self.state.trains.len())
                    .any(|i| i != self.actor && self.state.trains[i].at == at);
                if !others {
                    self.violate(
                        "5",
                        None,
                        format!("no other player's train is at {here}: {} may be bought at a station that holds another player", spec.plural),
                    );
                }
            }
            _ => {}
        }
    }

    /// `<Build/>`: the last action, holding at least 2/2/4/1, from where
    /// the game's `build_at` says (MX3, MX12); it wins the game.
    pub(super) fn build(&mut self) {
        let name = self.name();
        let before = self.violations.len();
        if !self.last {
            self.violate(
                "6",
                Some("MX12"),
                "Build must be the turn's last action: it ends the game".into(),
            );
        }
        let parts = self.train().parts;
        let missing: Vec<String> = Part::ALL
            .iter()
            .filter(|p| parts.get(**p) < p.spec().needed)
            .map(|p| format!("{} (holds {})", p.count(p.spec().needed), parts.get(*p)))
            .collect();
        if !missing.is_empty() {
            self.violate(
                "6",
                Some("MX12"),
                format!("to build, {name} needs {}", missing.join(", ")),
            );
        }
        let (at, mc) = (self.train().at, self.facts.mornington());
        match self.state.rulings.build_at {
            BuildAt::Adjacent if !self.facts.adjacent(at, mc) => {
                let near: Vec<&str> = self
                    .facts
                    .neighbours(mc)
                    .iter()
                    .map(|s| self.station(*s))
                    .collect();
                self.violate(
                    "6",
                    Some("MX3"),
                    format!("{name} is at {}: Build is played from a station adjacent to Mornington Crescent ({})", self.station(at), near.join(", ")),
                );
            }
            BuildAt::On if at != mc => self.violate(
                "6",
                Some("MX3"),
                format!(
                    "{name} is at {}: Build may only be played at Mornington Crescent",
                    self.station(at)
                ),
            ),
            _ => {}
        }
        if self.violations.len() > before {
            return;
        }
        self.state.rebuilding = false;
        self.train_mut().at = mc;
        self.state.winner = Some(self.actor);
        self.built = true;
        self.changes.push(format!(
            "{name} built Mornington Crescent and put eir train on it (30 min)"
        ));
    }
}

fn item_plural(item: Item) -> &'static str {
    match item {
        Item::Token => "tokens",
        Item::Part(p) => p.spec().plural,
    }
}
