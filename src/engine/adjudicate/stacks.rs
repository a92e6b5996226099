//! Token Stacks: dropping, claiming, Hoarding, Helsinkis, and where spent
//! Tokens go (Rules 1.4.9, 1.4.19, 1.7.57, 1.11.4, 1.14.x).

use super::*;

impl Turn<'_> {
    /// Where the Piece started, passed through or ended this Turn (Rules
    /// 1.14.3, 1.14.4).
    pub(super) fn on_the_move(&self, id: StationId) -> bool {
        self.mv.started_at == Some(id) || self.here() == Some(id) || self.mv.through.contains(&id)
    }

    /// The station of a Stack Action: one the Move touched (`rule`), and not
    /// Pegged (Rule 1.11.4).
    pub(super) fn stack_station(
        &mut self,
        a: &Action,
        target: &Target,
        rule: &str,
    ) -> Option<StationId> {
        let id = self.station_of(target, a)?;
        let name = &target.station;
        if !self.on_the_move(id) {
            self.illegal(
                rule,
                format!("{name} is not a station the Piece started at, passed through or ended at"),
            );
            return None;
        }
        if self.pegged(id) {
            self.illegal(
                "1.11.4",
                format!("{name} is Pegged: no Token may be placed there or taken from it"),
            );
            return None;
        }
        Some(id)
    }

    /// [Hoarding <Tokens>] (Rule 1.4.9): the Tokens go, one at a time and in
    /// the order written, onto the Stack at the player's Home Station, no
    /// more than its unused space.
    pub(super) fn hoard(&mut self, a: &Action, tokens: &[(u32, Colour)]) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let Some(home) = self.s.players[me].home else {
            self.illegal(rule, "[Hoarding] needs a Home Station");
            return Charge::Free;
        };
        let name = self.map.station(home).name.clone();
        if self.pegged(home) {
            self.illegal(
                "1.11.4",
                format!("{name} is Pegged: no Token may be placed there"),
            );
            return Charge::Free;
        }
        let unlimited = self.unlimited_stack(home);
        let held = self.s.stack(home).map_or(0, |s| s.len() as u32);
        let space = if unlimited {
            u32::MAX
        } else {
            6u32.saturating_sub(held)
        };
        let n: u32 = tokens.iter().fold(0u32, |a, (n, _)| a.saturating_add(*n));
        if n == 0 || n > space {
            self.illegal(
                rule,
                format!("the Stack at {name} has room for {space} Token(s); {n} cannot be Hoarded"),
            );
            return Charge::Free;
        }
        let short: Vec<String> = Colour::ALL
            .into_iter()
            .filter_map(|c| {
                let want: u32 = tokens
                    .iter()
                    .filter(|(_, x)| *x == c)
                    .fold(0u32, |a, (k, _)| a.saturating_add(*k));
                let have = self.s.players[me].tokens.get(c);
                (want > have).then(|| format!("{want} {} (has {have})", c.name()))
            })
            .collect();
        if !short.is_empty() {
            self.illegal(rule, format!("cannot Hoard {}", short.join(", ")));
            return Charge::Free;
        }
        let i = self.stack_index(home);
        for &(k, c) in tokens {
            let have = self.s.players[me].tokens.get(c);
            self.s.players[me].tokens.set(c, have - k);
            self.s.stacks[i]
                .1
                .extend(std::iter::repeat_n(c, k as usize));
        }
        self.tally.dropped_on.push(home);
        self.stack_reward(home);
        self.change(format!(
            "{n} Token(s) Hoarded on the Stack at {name} (Rule 1.4.9)"
        ));
        // The Tokens move to the Stack: nothing is paid.
        Charge::Free
    }

    /// Stacks with no six-Token limit (Rule 1.14.3).
    pub(super) fn unlimited_stack(&self, id: StationId) -> bool {
        [
            Landmark::MorningtonCrescent,
            Landmark::SevenSisters,
            Landmark::Euston,
        ]
        .into_iter()
        .any(|l| self.map.is(id, l))
    }

    /// The index of the Stack at `id`, creating an empty one if none.
    pub(super) fn stack_index(&mut self, id: StationId) -> usize {
        match self.s.stacks.iter().position(|(s, _)| *s == id) {
            Some(i) => i,
            None => {
                self.s.stacks.push((id, Vec::new()));
                self.s.stacks.len() - 1
            }
        }
    }

    /// [<Colour> Token on <Station>] (Rule 1.14.3).
    pub(super) fn token_on(&mut self, a: &Action, colour: Colour, target: &Target) -> Charge {
        let me = self.me;
        let name = &target.station;
        let Some(id) = self.stack_station(a, target, "1.14.3") else {
            return Charge::Free;
        };
        let have = self.s.players[me].tokens.get(colour);
        if have == 0 {
            self.illegal(
                "1.14.3",
                format!(
                    "{} has no {} Token to place",
                    self.s.players[me].name,
                    colour.name()
                ),
            );
            return Charge::Free;
        }
        let unlimited = self.unlimited_stack(id);
        let i = self.stack_index(id);
        let before = self.s.stacks[i].1.len();
        if before >= 6 && !unlimited {
            self.illegal(
                "1.14.3",
                format!("the Stack at {name} already holds six Tokens"),
            );
            return Charge::Free;
        }
        self.s.players[me].tokens.set(colour, have - 1);
        self.s.stacks[i].1.push(colour);
        self.tally.dropped_on.push(id);
        self.stack_reward(id);
        self.change(format!(
            "a {} Token is placed on the Stack at {name} (Rule 1.14.3)",
            colour.name()
        ));
        Charge::Table
    }

    /// [Claiming a <Colour> Token from <Station>] (Rule 1.14.4).
    pub(super) fn claim(&mut self, a: &Action, colour: Colour, target: &Target) -> Charge {
        let me = self.me;
        let name = &target.station;
        let Some(id) = self.stack_station(a, target, "1.14.4") else {
            return Charge::Free;
        };
        // Once per Station, twice while Wearing Gloves (Rule 1.14.4).
        let before = self.tally.claimed_from.iter().filter(|s| **s == id).count();
        if before > 0 {
            let gloves = self.s.players[me].wears(crate::gsd::Good::Gloves);
            if !gloves || before >= 2 {
                let why = if gloves {
                    format!("two Tokens were already claimed from {name} this Turn: Gloves allow two claims per Station")
                } else {
                    format!("a Token was already claimed from {name} this Turn (Wearing Gloves allows two)")
                };
                self.illegal("1.14.4", why);
                return Charge::Free;
            }
        }
        if self.tally.dropped_on.contains(&id) {
            self.illegal(
                "1.14.4",
                format!("the top Token at {name} was placed earlier in this Turn"),
            );
            return Charge::Free;
        }
        let Some(i) = self
            .s
            .stacks
            .iter()
            .position(|(s, t)| *s == id && !t.is_empty())
        else {
            self.illegal("1.14.4", format!("there is no Token Stack at {name}"));
            return Charge::Free;
        };
        let top = *self.s.stacks[i].1.last().expect("not empty");
        if top != colour {
            self.illegal(
                "1.14.4",
                format!(
                    "the top Token at {name} is {}, not {}",
                    top.name(),
                    colour.name()
                ),
            );
            return Charge::Free;
        }
        self.s.stacks[i].1.pop();
        if self.s.stacks[i].1.is_empty() {
            self.s.stacks.remove(i);
        }
        let have = self.s.players[me].tokens.get(colour);
        self.s.players[me]
            .tokens
            .set(colour, have.saturating_add(1));
        self.tally.claimed_from.push(id);
        self.change(format!(
            "a {} Token is claimed from {name} (Rule 1.14.4)",
            colour.name()
        ));
        Charge::Table
    }

    /// Tokens paid for Actions go on the Stack the play's comment names
    /// (`{Tokens to Euston}`), else they are discarded (Rule 1.4.19,
    /// RULINGS.md E6).
    pub(super) fn place_spent(&mut self) {
        if self.tally.spent.is_empty() {
            return;
        }
        let spent = std::mem::take(&mut self.tally.spent);
        let named = self.directive(|d| match d {
            Directive::TokensTo(t) => Some(t.clone()),
            _ => None,
        });
        let tokens = fmt_colours(&spent);
        let Some(target) = named else {
            self.change(format!(
                "the Tokens spent ({tokens}) are discarded: the play names no Stack for \
                 them, e.g. {{Tokens to Euston}} (Rule 1.4.19)"
            ));
            return;
        };
        let name = target.station.clone();
        let Some(id) = target.place.station() else {
            self.illegal(
                "1.4.19",
                format!("the spent Tokens go to {name}, a Ghost Station, where no Stack can be"),
            );
            return;
        };
        let at = self.s.players[self.me].at.map(|p| p.station);
        let far = at.is_none_or(|a| self.map.quadrant_distance(a, id) >= 2);
        if !far || self.pegged(id) {
            self.change(format!("the Tokens spent ({tokens}) are discarded: {name} is in or next to the final Quadrant, or Pegged (Rules 1.4.19, 1.11.4)"));
            return;
        }
        let unlimited = self.unlimited_stack(id);
        let idx = self.stack_index(id);
        for c in spent {
            if unlimited || self.s.stacks[idx].1.len() < 6 {
                self.s.stacks[idx].1.push(c);
            }
        }
        self.stack_reward(id);
        self.change(format!(
            "the Tokens spent ({tokens}) are placed on the Stack at {name} (Rule 1.4.19)"
        ));
    }

    /// Rule 1.14.2: a Stack that now holds exactly six Tokens, and held one to
    /// five when the Turn began, pays its reward if it forms a sequence of
    /// the table (bottom to top); that Stack is then destroyed.
    pub(super) fn stack_reward(&mut self, id: StationId) {
        use Colour::*;
        let Some(i) = self.s.stacks.iter().position(|(s, _)| *s == id) else {
            return;
        };
        let before = self
            .initial
            .stacks
            .iter()
            .find(|(s, _)| *s == id)
            .map_or(0, |(_, t)| t.len());
        if self.s.stacks[i].1.len() != 6 || !(1..=5).contains(&before) {
            return;
        }
        const SEQUENCES: [([Colour; 6], (u32, Colour)); 7] = [
            ([Red, Red, Red, Red, Red, Red], (4, Blue)),
            ([Blue, Blue, Blue, Blue, Blue, Blue], (4, Silver)),
            ([Green, Green, Green, Green, Green, Green], (1, Gold)),
            ([Silver, Silver, Silver, Silver, Silver, Silver], (2, Gold)),
            ([Red, Green, Red, Green, Red, Green], (2, Silver)),
            ([Green, Blue, Green, Blue, Green, Blue], (4, Silver)),
            ([Blue, Black, Blue, Black, Blue, Black], (6, Blue)),
        ];
        let stack = self.s.stacks[i].1.clone();
        if let Some((_, reward)) = SEQUENCES
            .iter()
            .find(|(seq, _)| seq.as_slice() == stack.as_slice())
        {
            self.s.stacks.remove(i);
            self.gain(&[*reward]);
            self.change(format!(
                "the Stack at {} forms a sequence: it is destroyed for {} {} (Rule 1.14.2)",
                self.name(id),
                reward.0,
                reward.1.name()
            ));
        }
    }

    /// `[Single Helsinki]`, `[Double Helsinki]`, `[Triple Helsinki]` (Rule
    /// 1.7.57): one per Turn; paid first, then the bottom one, two or three
    /// Tokens of every Token Stack are destroyed (RULINGS.md E32).
    pub(super) fn helsinki(&mut self, a: &Action) -> Charge {
        let n = match a {
            Action::SingleHelsinki => 1,
            Action::DoubleHelsinki => 2,
            _ => 3,
        };
        if self.tally.helsinki {
            self.illegal(a.spec().rule, "no more than one Helsinki Action per Turn");
            return Charge::Free;
        }
        self.tally.helsinki = true;
        let charge = self.pay_table(a);
        for (_, stack) in self.s.stacks.iter_mut() {
            stack.drain(..n.min(stack.len()));
        }
        self.s.stacks.retain(|(_, st)| !st.is_empty());
        self.change(format!(
            "the bottom {n} Token(s) of every Token Stack are destroyed (Rule 1.7.57)"
        ));
        charge
    }
}

impl Turn<'_> {
    /// `[Inverting Stack at <Station>]` (Rule 1.4.34, cited "1.4.x" by the
    /// index): the Stack there is reversed, bottom to top.
    pub(super) fn invert_stack(&mut self, a: &Action, target: &Target) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        match self
            .s
            .stacks
            .iter_mut()
            .find(|(s, t)| *s == id && !t.is_empty())
        {
            Some((_, tokens)) => {
                tokens.reverse();
                self.change(format!(
                    "the Token Stack at {} is inverted (Rule 1.4.34)",
                    target.station
                ));
                Charge::Table
            }
            None => {
                self.illegal(
                    "1.4.34",
                    format!("{} has no Token Stack to invert", target.station),
                );
                Charge::Free
            }
        }
    }

    /// `[Vacuuming <Station>]` (Rule 1.4.49): with a Vacuum Cleaner carried,
    /// a whole Stack at a station the Move started at, passed through or
    /// ended at is picked up; not in a Turn with a [Claiming]; each use adds
    /// an asterisk to the Cleaner, destroyed at three.
    pub(super) fn vacuum(&mut self, a: &Action, target: &Target) -> Charge {
        let me = self.me;
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let cleaner = self.s.players[me]
            .possessions
            .iter()
            .position(|p| !p.nantucket && p.good() == crate::gsd::Good::VacuumCleaner);
        let Some(ci) = cleaner else {
            self.illegal(
                "1.4.49",
                format!("{} carries no Vacuum Cleaner", self.my_name()),
            );
            return Charge::Free;
        };
        if self
            .play
            .actions()
            .any(|x| matches!(x, Action::ClaimingToken { .. }))
        {
            self.illegal(
                "1.4.49",
                "[Vacuuming] may not be performed in the same Turn as a [Claiming] Action",
            );
        }
        let visited = self.mv.started_at == Some(id)
            || self.here() == Some(id)
            || self.mv.through.contains(&id);
        if !visited {
            self.illegal(
                "1.4.49",
                format!(
                    "the Piece neither started, passed through nor ended its Move at {}",
                    target.station
                ),
            );
            return Charge::Free;
        }
        if self.pegged(id) {
            self.illegal(
                "1.11.4",
                format!(
                    "{} is Pegged: no Token may be removed from it",
                    target.station
                ),
            );
            return Charge::Free;
        }
        let Some(i) = self
            .s
            .stacks
            .iter()
            .position(|(s, t)| *s == id && !t.is_empty())
        else {
            self.illegal("1.4.49", format!("{} has no Token Stack", target.station));
            return Charge::Free;
        };
        let (_, tokens) = self.s.stacks.remove(i);
        let mut gain: Vec<(u32, Colour)> = Vec::new();
        for c in &tokens {
            match gain.iter_mut().find(|(_, x)| x == c) {
                Some((n, _)) => *n += 1,
                None => gain.push((1, *c)),
            }
        }
        self.gain(&gain);
        let full = match &mut self.s.players[me].possessions[ci].item {
            crate::gsd::Item::Good { stars, .. } => {
                *stars += 1;
                *stars >= 3
            }
            _ => false,
        };
        self.change(format!(
            "the Stack at {} ({} Tokens) is Vacuumed up (Rule 1.4.49)",
            target.station,
            tokens.len()
        ));
        if full {
            self.s.players[me].possessions.remove(ci);
            self.change("the Vacuum Cleaner is full and destroyed (Rule 1.4.49)");
        }
        Charge::Table
    }
}
