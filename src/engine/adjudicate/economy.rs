//! Paying and gaining Tokens (Rules 1.4.19, 1.8.4, 1.8.8, 1.7.6, 1.7.38),
//! the Bureau de Change (1.7.21), Bonanza (1.4.10), Poll Tax (1.4.37),
//! Giving (1.7.27), Begging (1.7.61) and Electroplating (1.7.46).

use super::dispatch::bock_exempt;
use super::*;

impl Turn<'_> {
    /// Pays `cost` Tokens for `what` under `rule`; reports a shortfall, and
    /// spending in Knip (Rule 1.8.4) or Red after a Straddle (Rule 1.7.6).
    pub(super) fn pay(&mut self, what: &str, rule: &str, cost: &[(u32, Colour)]) {
        let me = self.me;
        let spends = cost.iter().any(|(n, _)| *n > 0);
        if spends
            && self.s.has(&Disruption::Knip)
            && rule != "1.5.11"
            && !what.starts_with("[Out of Knip]")
        {
            self.illegal(
                "1.8.4",
                format!("the game is in Knip: {what} spends Tokens"),
            );
        }
        if self.tally.straddled && cost.iter().any(|&(n, c)| c == Colour::Red && n > 0) {
            self.illegal(
                "1.7.6",
                format!(
                    "{what} spends Red Tokens: no Aggressive Action after a Straddle this Turn"
                ),
            );
        }
        self.restraints_on_spending(what, cost);
        let mut short = Vec::new();
        for &(n, c) in cost {
            let have = self.s.players[me].tokens.get(c);
            if have < n {
                short.push(format!("{n} {} (has {have})", c.name()));
            } else {
                self.s.players[me].tokens.set(c, have - n);
                if c != Colour::Bronze {
                    self.tally.spent.extend(std::iter::repeat_n(c, n as usize));
                }
            }
        }
        if short.is_empty() {
            let paid: Vec<(u32, Colour)> = cost.iter().copied().filter(|(n, _)| *n > 0).collect();
            if !paid.is_empty() {
                let who = self.my_name();
                self.change(format!(
                    "{who} pays {} for {what} (Rule {rule})",
                    fmt_tokens(&paid)
                ));
            }
        } else {
            let who = self.my_name();
            self.illegal(
                rule,
                format!(
                    "{what} costs {}; {who} cannot pay {}",
                    fmt_tokens(cost),
                    short.join(", ")
                ),
            );
        }
    }

    /// Credits Tokens to the player whose Turn it is.
    pub(super) fn gain(&mut self, gain: &[(u32, Colour)]) {
        self.credit(self.me, gain);
    }

    /// Credits Tokens to player `i`.
    pub(super) fn credit(&mut self, i: usize, gain: &[(u32, Colour)]) {
        for &(n, c) in gain {
            let have = self.s.players[i].tokens.get(c);
            self.s.players[i].tokens.set(c, have.saturating_add(n));
        }
    }

    /// A cost with the Hyde Mask's Red (Rule 1.7.38: one more to target
    /// its wearer, one less for the wearer's own Actions) and the Bock
    /// surcharge (Rule 1.8.8).
    pub(super) fn with_bocks(&self, a: &Action, cost: Vec<(u32, Colour)>) -> Vec<(u32, Colour)> {
        let mut cost = cost;
        // "any Actions which target the Player": whose form names em (the
        // Shunts, Huffs, Blonks, Shadows, the Clamps, ...; RULINGS E34).
        let target = a.target_player();
        if target.is_some_and(|t| {
            self.s
                .players
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(t) && p.wears(crate::gsd::Good::HydeMask))
        }) {
            match cost.iter_mut().find(|(_, c)| *c == Colour::Red) {
                Some((n, _)) => *n += 1,
                None => cost.push((1, Colour::Red)),
            }
        }
        if let Some(t) = a.target_player() {
            if self.s.cowering.iter().any(|c| c.eq_ignore_ascii_case(t)) {
                match cost.iter_mut().find(|(_, c)| *c == Colour::Red) {
                    Some((n, _)) => *n += 1,
                    None => cost.push((1, Colour::Red)),
                }
            }
        }
        if self.hyde() {
            if let Some((n, _)) = cost.iter_mut().find(|(n, c)| *c == Colour::Red && *n > 0) {
                *n -= 1;
            }
        }
        // An exemption from the Bock is not one from the Mask (Rule 1.7.38).
        if bock_exempt(a) {
            return cost;
        }
        self.bock_surcharge(cost)
    }

    /// The Bock surcharge on a cost that is not free (Rule 1.8.8): one
    /// Token of each Bock colour, unless the cost already has that colour
    /// or the Piece's station has the colour in its name.
    pub(super) fn bock_surcharge(&self, mut cost: Vec<(u32, Colour)>) -> Vec<(u32, Colour)> {
        if cost.iter().all(|(n, _)| *n == 0) {
            return cost;
        }
        let here = self
            .here()
            .map(|h| self.map.station(h).name.to_lowercase())
            .unwrap_or_default();
        for d in &self.s.disruptions {
            if let Disruption::Bock(c) = d {
                if !cost.iter().any(|(_, x)| x == c) && !here.contains(&c.name().to_lowercase()) {
                    cost.push((1, *c));
                }
            }
        }
        cost
    }

    /// The Bureau de Change (Rule 1.7.21): the table's rates; the opposite
    /// exchanges (to a higher Token) are made only at Bank (RULINGS.md E10).
    pub(super) fn exchange(&mut self, a: &Action) -> Charge {
        let upward = matches!(
            a,
            Action::SilverToGold
                | Action::BronzeToGold
                | Action::BlueToGold
                | Action::BronzeToSilver
        );
        if upward && !self.here().is_some_and(|s| self.map.is(s, Landmark::Bank)) {
            self.illegal(
                "1.7.21",
                format!("{} is an opposite exchange: only at Bank", a.render()),
            );
        }
        Charge::Exchange
    }

    /// [Bonanza] (Rule 1.4.10): ten Plastic Tokens of one colour for a
    /// Gold, an exchange (nothing is stacked). The colour is the only one
    /// the player holds ten of, or named `{pays Red}` (RULINGS.md E32).
    pub(super) fn bonanza(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let crate::gsd::Price::Plastic(ten) = a.spec().cost else {
            return Charge::Table;
        };
        let plastic: Vec<Colour> = Colour::ALL.into_iter().filter(|c| c.is_plastic()).collect();
        let Some(colour) = self.one_colour(rule, "[Bonanza]", ten, &plastic) else {
            return Charge::Free;
        };
        let before = self.tally.spent.len();
        let cost = self.with_bocks(a, vec![(ten, colour)]);
        self.pay(&a.render(), rule, &cost);
        self.tally.spent.truncate(before);
        if let Some(gain) = a.spec().gain.tokens(None) {
            self.gain(&gain);
            self.change(format!(
                "{ten} {} -> {} (Rule 1.4.10)",
                colour.name(),
                fmt_tokens(&gain)
            ));
        }
        Charge::Paid
    }

    /// The colour a price of `n` Tokens of one of `colours` is paid in
    /// (`[Bonanza]`, `[Token Cascade]`, `[Unspoon]`): the one `{pays
    /// <Colour>}` names, else the only one the player holds `n` of; says
    /// under `rule` why there is none. A shortfall in the named colour is
    /// left to [`Turn::pay`].
    pub(super) fn one_colour(
        &mut self,
        rule: &str,
        what: &str,
        n: u32,
        colours: &[Colour],
    ) -> Option<Colour> {
        let tokens = self.s.players[self.me].tokens;
        let named = self.directive(|d| match d {
            Directive::Pays(c) => Some(*c),
            _ => None,
        });
        // Paid in Red, a Hyde Mask wearer's price is one less (Rule 1.7.38).
        let hyde = self.hyde();
        let need = |c: Colour| {
            if c == Colour::Red && hyde {
                n.saturating_sub(1)
            } else {
                n
            }
        };
        let enough: Vec<Colour> = colours
            .iter()
            .copied()
            .filter(|c| tokens.get(*c) >= need(*c))
            .collect();
        let names = colours
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ");
        let why = match (named, enough.as_slice()) {
            (Some(c), _) if colours.contains(&c) => return Some(c),
            (None, [one]) => return Some(*one),
            (Some(c), _) => format!(
                "{what} costs {n} Tokens of one of {names}, not {}",
                c.name()
            ),
            (None, []) => {
                format!("{what} costs {n} Tokens of one of {names}; the player holds {n} of none")
            }
            (None, several) => {
                let options: Vec<String> = several
                    .iter()
                    .map(|c| format!("{{pays {}}}", c.name()))
                    .collect();
                format!(
                    "{what} needs a choice: the player holds {n} Tokens of several of {names}: {}",
                    super::choice::either(&options)
                )
            }
        };
        self.illegal(rule, why);
        None
    }

    /// [Poll Tax] (Rule 1.4.37): paid first; then every player, the taxer
    /// included, loses one Token of each colour e holds (RULINGS.md E32).
    pub(super) fn poll_tax(&mut self, a: &Action) -> Charge {
        let charge = self.pay_table(a);
        for p in self.s.players.iter_mut() {
            for c in Colour::ALL {
                let n = p.tokens.get(c);
                if n > 0 {
                    p.tokens.set(c, n - 1);
                }
            }
        }
        self.change("Poll Tax: every player loses one Token of each colour (Rule 1.4.37)");
        charge
    }

    /// [Giving Tokens to <Player>] (Rule 1.7.27): the Tokens named
    /// `{gives 2Re,1Bu}` go to the player, not to a Stack.
    pub(super) fn give_tokens(&mut self, a: &Action, player: &str) -> Charge {
        let rule = a.spec().rule;
        if is_drone(&self.my_name()) {
            self.illegal(rule, "the Drone may not give Tokens");
            return Charge::Free;
        }
        let Some(v) = self.s.player_index(player).filter(|&v| v != self.me) else {
            self.illegal(rule, format!("{player} is not another player of this game"));
            return Charge::Free;
        };
        let Some(list) = self.directive(|d| match d {
            Directive::Gives(t) => Some(t.clone()),
            _ => None,
        }) else {
            self.illegal(
                rule,
                "the Tokens given are named in a comment, e.g. {gives 2Re,1Bu}",
            );
            return Charge::Free;
        };
        self.names_target(v);
        // Its cost is the Tokens given; one Red more when the player named
        // Cowered in eir most recent Turn (Rule 1.7.56, RULINGS E56), and
        // one when e wears the Hyde Mask (Rule 1.7.38, E34).
        if self
            .s
            .cowering
            .iter()
            .any(|c| c.eq_ignore_ascii_case(player))
        {
            self.pay(&a.render(), "1.7.56", &[(1, Colour::Red)]);
        }
        if self.s.players[v].wears(crate::gsd::Good::HydeMask) {
            self.pay(&a.render(), "1.7.38", &[(1, Colour::Red)]);
        }
        let before = self.tally.spent.len();
        self.pay(&a.render(), rule, &list.0);
        self.tally.spent.truncate(before);
        self.credit(v, &list.0);
        self.change(format!(
            "{} gives {list} to {player} (Rule 1.7.27)",
            self.my_name()
        ));
        Charge::Paid
    }

    /// [Begging] (Rule 1.7.61): after a Move of Pass, a Plastic Token of a
    /// colour the player holds at most two of, named `{takes Red}` (unnamed
    /// when there is one such colour).
    pub(super) fn beg(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        if !matches!(self.play.mv, Move::Pass(_)) {
            self.illegal(rule, "[Begging] needs a Move of Pass this Turn");
            return Charge::Free;
        }
        let taken = self.directive(|d| match d {
            Directive::Takes(c) => Some(*c),
            _ => None,
        });
        // "a colour of eir choice, provided that e has no more than two
        // Tokens of that colour already": one such colour needs no comment
        // (RULINGS E134).
        let open: Vec<(Colour, String)> = Colour::ALL
            .into_iter()
            .filter(|c| c.is_plastic() && self.s.players[self.me].tokens.get(*c) <= 2)
            .map(|c| (c, format!("{{takes {}}}", c.name())))
            .collect();
        let taken = match taken {
            Some(c) => Some(c),
            None => self.only_choice(rule, &a.render(), &open),
        };
        let Some(c) = taken else {
            if open.is_empty() {
                self.illegal(
                    rule,
                    "Begging gains a Plastic Token of a colour the player holds at most two of: e holds three or more of every Plastic colour",
                );
            }
            return Charge::Free;
        };
        if !c.is_plastic() || self.s.players[self.me].tokens.get(c) > 2 {
            self.illegal(rule, format!("Begging gains a Plastic Token of a colour the player holds at most two of, not {}", c.name()));
            return Charge::Free;
        }
        self.gain(&[(1, c)]);
        self.change(format!(
            "{} begs a {} Token (Rule 1.7.61)",
            self.my_name(),
            c.name()
        ));
        // The table's "+1Plastic" is the Token just gained.
        Charge::Paid
    }

    /// [Electroplating] (Rule 1.7.46): a Charge at least 50 from every
    /// other player's (Inactive ones included, RULINGS.md E30).
    pub(super) fn electroplate(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let mine = self.s.players[me].charge;
        let near: Vec<String> = self
            .s
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| *i != me && (i64::from(p.charge) - i64::from(mine)).abs() < 50)
            .map(|(_, p)| format!("{} ({:+}%)", p.name, p.charge))
            .collect();
        if !near.is_empty() {
            self.illegal(
                a.spec().rule,
                format!(
                    "[Electroplating] needs a Charge at least 50 from every other player's; {mine:+}% is within 50 of {}",
                    near.join(", ")
                ),
            );
            return Charge::Free;
        }
        Charge::Table
    }
}
