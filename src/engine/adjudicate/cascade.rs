//! Token Cascades (Rules 1.7.36, 1.7.37): played on or inside the Circle
//! Line by a player who owns no Tokens of some Plastic colour; while one is
//! in effect each other player transfers X Plastic Tokens to its focus at
//! the start of eir Turn, X the Piece Moves made since it began (RULINGS
//! E91-E94); Stolen to a new focus, or Killed.

use super::*;
use crate::gsd::Price;

const RULE: &str = "1.7.36";

/// The Plastic colours, in the order a Timeout's transfer takes them.
const PLASTIC: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Black, Colour::Green];

impl Turn<'_> {
    /// The Cascade in effect: its focus and its X.
    fn cascade(&self) -> Option<(String, u32)> {
        self.s.disruptions.iter().find_map(|d| match d {
            Disruption::TokenCascade { focus, moves } => Some((focus.clone(), *moves)),
            _ => None,
        })
    }

    /// `[Token Cascade]` (Rule 1.7.36): the Piece on or inside the Circle
    /// Line (Quadrant 0, RULINGS M7), no Tokens of some Plastic colour, no
    /// Cascade in effect; four Tokens of one of Red, Blue or Black (E93).
    pub(super) fn token_cascade(&mut self, a: &Action) -> Charge {
        if let Some((focus, _)) = self.cascade() {
            self.illegal(
                RULE,
                format!("a Token Cascade is already in effect, focused on {focus}"),
            );
            return Charge::Free;
        }
        let circle = self.at(When::Before).is_some_and(|s| {
            let st = self.map.station(s);
            st.lines.contains(LineCode::CL) || st.quadrants == [0]
        });
        if !circle {
            let at = self
                .at(When::Before)
                .map_or("off the Map", |s| self.name(s));
            self.illegal(
                RULE,
                format!("the Piece is not on or inside the Circle Line ({at})"),
            );
            return Charge::Free;
        }
        let tokens = self.s.players[self.me].tokens;
        if PLASTIC.iter().all(|c| tokens.get(*c) > 0) {
            self.illegal(
                RULE,
                "the player owns Tokens of every Plastic colour: a Token Cascade needs none of one",
            );
            return Charge::Free;
        }
        let Some(colour) = self.cascade_colour(a) else {
            return Charge::Free;
        };
        let cost = self.with_bocks(a, vec![(4, colour)]);
        self.pay(&a.render(), RULE, &cost);
        let focus = self.my_name();
        self.s.disruptions.push(Disruption::TokenCascade {
            focus: focus.clone(),
            moves: 0,
        });
        self.change(format!(
            "a Token Cascade is in effect, focused on {focus} (Rule 1.7.36)"
        ));
        Charge::Paid
    }

    /// The colour `[Token Cascade]`'s four Tokens are paid in: one of the
    /// table's colours (RULINGS E93).
    fn cascade_colour(&mut self, a: &Action) -> Option<Colour> {
        let Price::OneOf(n, colours) = a.spec().cost else {
            self.ruling(
                RULE,
                "the table's price of [Token Cascade] is not N of one colour",
            );
            return None;
        };
        self.one_colour(RULE, "[Token Cascade]", n, colours)
    }

    /// `[Cascade Steal]` (Rule 1.7.37): the player becomes the focus of the
    /// Cascade in effect; its count goes on.
    pub(super) fn cascade_steal(&mut self) -> Charge {
        let me = self.my_name();
        match self.cascade() {
            None => self.illegal("1.7.37", "no Token Cascade is in effect to steal"),
            Some((focus, _)) if focus.eq_ignore_ascii_case(&me) => self.illegal(
                "1.7.37",
                format!("{me} is already the Token Cascade's focus: there is nothing to steal"),
            ),
            Some((focus, _)) => {
                for d in &mut self.s.disruptions {
                    if let Disruption::TokenCascade { focus, .. } = d {
                        *focus = me.clone();
                    }
                }
                self.change(format!(
                    "{me} steals the Token Cascade from {focus} (Rule 1.7.37)"
                ));
            }
        }
        Charge::Table
    }

    /// `[Cascade Kill]` (Rule 1.7.37): the Cascade in effect ends.
    pub(super) fn cascade_kill(&mut self) -> Charge {
        if self.cascade().is_none() {
            self.illegal("1.7.37", "no Token Cascade is in effect to kill");
        } else {
            self.end_cascade();
            self.change("the Token Cascade ends (Rule 1.7.37)");
        }
        Charge::Table
    }

    fn end_cascade(&mut self) {
        self.s
            .disruptions
            .retain(|d| !matches!(d, Disruption::TokenCascade { .. }));
    }

    /// The start of a Turn under a Cascade (Rule 1.7.36): a player other
    /// than the focus transfers X Plastic Tokens to the focus, before any
    /// Action; one who has fewer transfers every Token of the Plastic
    /// colour e owns most of, and the Cascade ends.
    pub(super) fn cascade_turn_start(&mut self) {
        let Some((focus, x)) = self.cascade() else {
            return;
        };
        let me = self.my_name();
        let Some(to) = self.s.player_index(&focus) else {
            self.ruling(
                RULE,
                format!("the Token Cascade's focus {focus} is not a player"),
            );
            return;
        };
        if to == self.me || x == 0 {
            return;
        }
        let tokens = self.s.players[self.me].tokens;
        let held: u32 = PLASTIC.iter().map(|c| tokens.get(*c)).sum();
        let named = self.directive(|d| match d {
            Directive::Cascades(t) => Some(t.0.clone()),
            _ => None,
        });
        let short = held < x;
        let Some(list) = self.cascade_transfer(x, short, named) else {
            return;
        };
        for &(n, c) in &list {
            let have = self.s.players[self.me].tokens.get(c);
            self.s.players[self.me].tokens.set(c, have - n);
        }
        self.credit(to, &list);
        let what = if list.is_empty() {
            "no Tokens".to_string()
        } else {
            fmt_tokens(&list)
        };
        self.change(format!(
            "{me} transfers {what} to {focus}, the Token Cascade's focus (Rule 1.7.36)"
        ));
        if short {
            self.end_cascade();
            self.change(format!(
                "{me} could not transfer {x} Plastic Tokens: the Token Cascade ends (Rule 1.7.36)"
            ));
        }
    }

    /// What a payer transfers: the `{cascades ...}` named, checked, or the
    /// only transfer the rule allows; a Timeout takes the colours held most
    /// first (E92). `None` when the Turn is Illegal for it.
    fn cascade_transfer(
        &mut self,
        x: u32,
        short: bool,
        named: Option<Vec<(u32, Colour)>>,
    ) -> Option<Vec<(u32, Colour)>> {
        let tokens = self.s.players[self.me].tokens;
        let most = PLASTIC.iter().map(|c| tokens.get(*c)).max().unwrap_or(0);
        let most_colours: Vec<Colour> = PLASTIC
            .iter()
            .copied()
            .filter(|c| tokens.get(*c) == most)
            .collect();
        if let Some(list) = named {
            return self.check_cascade_transfer(x, short, list, most, &most_colours);
        }
        let by_most = || {
            let mut order = PLASTIC.to_vec();
            order.sort_by_key(|c| std::cmp::Reverse(tokens.get(*c)));
            let mut left = x;
            let mut out = Vec::new();
            for c in order {
                let n = left.min(tokens.get(c));
                if n > 0 {
                    out.push((n, c));
                    left -= n;
                }
            }
            out
        };
        let held_colours = PLASTIC.iter().filter(|c| tokens.get(**c) > 0).count();
        let timeout = matches!(self.play.mv, Move::Timeout);
        match () {
            _ if short && most == 0 => Some(Vec::new()),
            _ if short && (most_colours.len() == 1 || timeout) => {
                Some(vec![(most, most_colours[0])])
            }
            // Holding exactly X, or one colour only, leaves no choice.
            _ if !short
                && (held_colours == 1
                    || PLASTIC.iter().map(|c| tokens.get(*c)).sum::<u32>() == x) =>
            {
                Some(by_most())
            }
            _ if !short && timeout => Some(by_most()),
            _ => {
                let what = if short {
                    format!("all the Tokens of one of the colours e owns most of ({most} each)")
                } else {
                    format!("{x} Plastic Tokens")
                };
                self.illegal(
                    RULE,
                    format!("a Token Cascade is in effect: {} transfers {what} to its focus at the start of this Turn, which needs a choice, e.g. {{cascades {}}}", self.my_name(), example(x, short, most, &most_colours)),
                );
                None
            }
        }
    }

    /// A named transfer must be X Plastic Tokens the player holds, or, when
    /// e holds fewer, every Token of one colour e owns most of.
    fn check_cascade_transfer(
        &mut self,
        x: u32,
        short: bool,
        list: Vec<(u32, Colour)>,
        most: u32,
        most_colours: &[Colour],
    ) -> Option<Vec<(u32, Colour)>> {
        let tokens = self.s.players[self.me].tokens;
        let total: u32 = list.iter().map(|(n, _)| n).sum();
        let named_of =
            |c: Colour| -> u32 { list.iter().filter(|(_, k)| *k == c).map(|(n, _)| n).sum() };
        let over = Colour::ALL
            .into_iter()
            .find(|c| named_of(*c) > tokens.get(*c));
        let wrong = if let Some(c) = list.iter().map(|(_, c)| *c).find(|c| !c.is_plastic()) {
            Some(format!("{} is not a Plastic colour", c.name()))
        } else if let Some(c) = over {
            Some(format!(
                "{} holds only {} {}",
                self.my_name(),
                tokens.get(c),
                c.name()
            ))
        } else if short {
            let one = list.first().map(|(_, c)| *c);
            let whole = list.iter().all(|(_, c)| Some(*c) == one)
                && one.is_some_and(|c| most_colours.contains(&c))
                && total == most;
            (!whole).then(|| {
                format!("{} holds fewer than {x} Plastic Tokens: e transfers all of one colour e owns most of ({most} each)", self.my_name())
            })
        } else {
            (total != x).then(|| format!("the Cascade's X is {x}, not {total}"))
        };
        match wrong {
            Some(why) => {
                self.illegal(RULE, format!("{{cascades ...}}: {why}"));
                None
            }
            None => Some(list),
        }
    }

    /// After the Move: the Cascade's X counts the Turn's Piece Moves (E92).
    pub(super) fn cascade_count(&mut self, mv: &Move) {
        let n = piece_moves(mv);
        for d in &mut self.s.disruptions {
            if let Disruption::TokenCascade { moves, .. } = d {
                *moves = moves.saturating_add(n);
            }
        }
    }
}

/// How many Piece Moves a Turn's Move makes: none for a Pass, a Farkle or
/// a Timeout, two for a Bifurcated player's (RULINGS E92).
fn piece_moves(mv: &Move) -> u32 {
    match mv {
        Move::To { .. } => 1,
        Move::Pass(_) | Move::Farkle(_) | Move::Timeout => 0,
        Move::Bifurcated(a, b) => piece_moves(a) + piece_moves(b),
    }
}

/// An example `{cascades ...}` for the message.
fn example(x: u32, short: bool, most: u32, most_colours: &[Colour]) -> String {
    let c = most_colours.first().copied().unwrap_or(Colour::Red);
    let n = if short { most } else { x };
    crate::gsd::TokenList(vec![(n, c)]).to_string()
}
