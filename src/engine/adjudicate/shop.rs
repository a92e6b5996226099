//! The Emporium (Rule 1.4.18): buying and selling, Hats (1.4.6), Busking
//! (1.7.20) and Recycling (1.7.39). Prices and qualities come from
//! `grammar/possessions.toml`.

use super::*;
use crate::gsd::{Good, Quality};

impl Turn<'_> {
    /// Whether a kind may be bought or sold at `at` (Rule 1.4.18): any
    /// British Rail Station; Dispensable kinds anywhere; Edible ones also
    /// at the Home Station.
    fn shop_open(&self, good: Good, at: StationId) -> bool {
        self.map.station(at).british_rail
            || good.is(Quality::Dispensable)
            || (good.is(Quality::Edible) && self.s.players[self.me].home == Some(at))
    }

    /// `[Purchasing <Possession>]` (Rule 1.4.18): the table's `xBr`, x the
    /// Emporium price; a Stub at its own station, once in the Game; a
    /// Newspaper or Rover Card stamped with the Game Day (1.4.32, 1.4.28);
    /// a second Unique one is destroyed at once (1.4.23).
    pub(super) fn purchase(&mut self, a: &Action, named: &Item, when: When) -> Charge {
        let Some(at) = self.at(when) else {
            self.illegal("1.4.18", "a Piece off the Map cannot shop");
            return Charge::Free;
        };
        let good = named.good();
        let text = crate::gsd::render::item_name(named);
        let Some(price) = good.spec().price else {
            self.illegal("1.4.18", format!("{text} is not sold by the Emporium"));
            return Charge::Free;
        };
        let item = match named {
            Item::Stub { at: station, .. } => {
                if !self.stub_buyable(*station, at) {
                    return Charge::Free;
                }
                named.clone()
            }
            Item::Hats(_) => {
                self.illegal("1.4.6", "a Hat is bought with [Purchasing Hat (<type>)]");
                return Charge::Free;
            }
            // Cursed, never sold (its kind has no price: refused above).
            Item::Toff { .. } => {
                self.illegal("1.4.18", format!("{text} is not sold by the Emporium"));
                return Charge::Free;
            }
            // Stamped with the Game Day of purchase (Rules 1.4.28, 1.4.32).
            Item::Paper(_)
            | Item::Good {
                good: Good::Newspaper,
                ..
            } => Item::Paper(self.now().day),
            Item::Rover(_)
            | Item::Good {
                good: Good::AllDayRoverCard,
                ..
            } => Item::Rover(self.now().day),
            // A Remote Control keeps the number its purchaser gives it
            // (Rule 1.4.46).
            Item::Good { good, n, .. } => Item::Good {
                good: *good,
                stars: 0,
                on: false,
                n: *n,
            },
            Item::ZonePass(_) => named.clone(),
        };
        // Stubs are bought at their station, British Rail or not (Rule 1.4.18).
        if !matches!(item, Item::Stub { .. }) && !self.shop_open(good, at) {
            self.illegal("1.4.18", format!("{text} is not sold at {}: British Rail Stations sell everything, others only Dispensable goods (and Edible ones at the Home Station)", self.name(at)));
            return Charge::Free;
        }
        if !self.remote_numbered(&item) {
            return Charge::Free;
        }
        let colour = Self::unit_colour(a).unwrap_or(Colour::Bronze);
        let cost = self.bock_surcharge(vec![(price, colour)]);
        self.pay(&a.render(), "1.4.18", &cost);
        let duplicate = good.is(Quality::Unique) && self.s.players.iter().any(|p| p.holds(good));
        if duplicate {
            self.change(format!(
                "{text} is Unique and already in play: the new one is destroyed (Rule 1.4.23)"
            ));
            return Charge::Paid;
        }
        self.s.players[self.me]
            .possessions
            .push(crate::gsd::Possession {
                item,
                worn: false,
                nantucket: false,
            });
        // The size limits (Rule 1.4.31) are checked at the end of the Turn.
        self.change(format!("{} buys {text} (Rule 1.4.18)", self.my_name()));
        Charge::Paid
    }

    /// A Stub is bought at its own station (a British Rail one unless the
    /// game rules otherwise, RULINGS.md E25), and only once in the Game,
    /// even if since destroyed (Rule 1.4.18).
    fn stub_buyable(&mut self, station: StationId, at: StationId) -> bool {
        let here = self.name(at).to_string();
        if station != at {
            self.illegal(
                "1.4.18",
                format!("a Stub is bought at its own station: the Piece is at {here}"),
            );
            return false;
        }
        if !self.s.rulings.stub_at_any_station && !self.map.station(at).british_rail {
            self.illegal(
                "1.4.18",
                format!("the Emporium trades at British Rail Stations, and {here} is none (a Stub is not Dispensable)"),
            );
            return false;
        }
        let held = self.s.players.iter().any(|p| {
            p.possessions
                .iter()
                .any(|x| matches!(&x.item, Item::Stub { at: s, .. } if *s == at))
        });
        if held || self.s.stubs_bought.contains(&at) {
            self.illegal(
                "1.4.18",
                format!("the {here} Stub has been Purchased already in this Game, and is not Purchased again"),
            );
            return false;
        }
        self.s.stubs_bought.push(at);
        true
    }

    /// `[Selling <Possession>]` at half the Emporium price, rounded down
    /// (Rule 1.4.18, the table's `(x/2)Br`), where it could be bought.
    pub(super) fn sell(&mut self, named: &Item, when: When) -> Charge {
        let me = self.me;
        let text = crate::gsd::render::item_name(named);
        let Some(i) = self.carried("1.4.18", named) else {
            return Charge::Free;
        };
        let p = self.s.players[me].possessions[i].clone();
        if p.worn || p.nantucket {
            self.illegal(
                "1.4.18",
                format!("{text} is Worn or in a Nantucket and cannot be sold"),
            );
            return Charge::Free;
        }
        let Some(price) = p.good().spec().price else {
            self.illegal("1.4.18", format!("{text} is not a good of the Emporium"));
            return Charge::Free;
        };
        let Some(at) = self.at(when) else {
            self.illegal("1.4.18", "a Piece off the Map cannot sell");
            return Charge::Free;
        };
        if !self.shop_open(p.good(), at) {
            self.illegal(
                "1.4.18",
                format!("{text} cannot be sold at {}", self.name(at)),
            );
            return Charge::Free;
        }
        self.take_one(i, named);
        self.gain(&[(price / 2, Colour::Bronze)]);
        self.change(format!(
            "{text} is sold for {} Bronze (Rule 1.4.18)",
            price / 2
        ));
        Charge::Paid
    }

    /// `[Cashing in Hats]` (Rule 1.4.6): an A to Z, British Rail, Compass,
    /// Terminus and Verdant Hat (Worn or not) given up for the table's Gain.
    pub(super) fn cash_in_hats(&mut self) -> Charge {
        const FIVE: [Hat; 5] = [
            Hat::AToZ,
            Hat::BritishRail,
            Hat::Compass,
            Hat::Terminus,
            Hat::Verdant,
        ];
        let me = self.me;
        let carried = |h: Hat| {
            self.s.players[me]
                .possessions
                .iter()
                .any(|p| !p.nantucket && matches!(&p.item, Item::Hats(hs) if hs.contains(&h)))
        };
        let missing: Vec<&str> = FIVE
            .iter()
            .filter(|h| !carried(**h))
            .map(|h| h.name())
            .collect();
        if !missing.is_empty() {
            self.illegal(
                "1.4.6",
                format!(
                    "[Cashing in Hats] needs an A to Z, British Rail, Compass, Terminus and Verdant Hat; {} carries no {} Hat",
                    self.my_name(),
                    missing.join(", no ")
                ),
            );
            return Charge::Free;
        }
        // A Hat bought in the same Turn is refused by purchase_hat.
        for h in FIVE {
            if let Some(p) = self.s.players[me]
                .possessions
                .iter_mut()
                .find(|p| !p.nantucket && matches!(&p.item, Item::Hats(hs) if hs.contains(&h)))
            {
                if let Item::Hats(hs) = &mut p.item {
                    hs.retain(|x| *x != h);
                }
            }
        }
        self.s.players[me]
            .possessions
            .retain(|p| !matches!(&p.item, Item::Hats(hs) if hs.is_empty()));
        self.change(format!(
            "{} cashes in five Hats (Rule 1.4.6)",
            self.my_name()
        ));
        Charge::Table
    }

    /// `[Purchasing Hat (<type>)]` (Rule 1.4.6): a category Hat where the
    /// station is of that category, a Hard or Silly one at any British
    /// Rail Station; one of a category; not in the Turn Hats are cashed in.
    pub(super) fn purchase_hat(&mut self, a: &Action, text: &str) -> Charge {
        let me = self.me;
        let hat = match text.trim().to_lowercase().as_str() {
            "a" | "a-z" | "a to z" => Hat::AToZ,
            "b" | "br" | "british rail" => Hat::BritishRail,
            "c" | "compass" => Hat::Compass,
            "t" | "terminus" => Hat::Terminus,
            "v" | "verdant" => Hat::Verdant,
            "h" | "hard" => Hat::Hard,
            "s" | "silly" => Hat::Silly,
            _ => {
                self.illegal("1.4.6", format!("{text} is not a Hat type (A-Z, British Rail, Compass, Terminus, Verdant, Hard, Silly)"));
                return Charge::Free;
            }
        };
        let Some(at) = self.here() else {
            self.illegal("1.4.6", "a Piece off the Map cannot buy a Hat");
            return Charge::Free;
        };
        let st = self.map.station(at);
        let sold_here = match hat {
            Hat::AToZ => st.categories.contains(Category::AToZ),
            Hat::BritishRail => st.categories.contains(Category::BritishRail),
            Hat::Compass => st.categories.contains(Category::Compass),
            Hat::Terminus => st.categories.contains(Category::Terminus),
            Hat::Verdant => st.categories.contains(Category::Verdant),
            _ => st.british_rail,
        };
        if !sold_here {
            self.illegal(
                "1.4.6",
                format!("a {} Hat is not sold at {}", hat.name(), st.name),
            );
            return Charge::Free;
        }
        if self
            .play
            .actions()
            .any(|x| matches!(x, Action::CashingInHats))
        {
            self.illegal("1.4.6", "no Hat is bought in the Turn Hats are cashed in");
            return Charge::Free;
        }
        let has = self.s.players[me]
            .possessions
            .iter()
            .any(|p| matches!(&p.item, Item::Hats(hs) if hs.contains(&hat)));
        if has {
            self.illegal(
                "1.4.6",
                format!("the player already carries a {} Hat", hat.name()),
            );
            return Charge::Free;
        }
        let cost = self.bock_surcharge(Self::table_cost(a).unwrap_or_default());
        self.pay(&a.render(), "1.4.6", &cost);
        let group = self.s.players[me]
            .possessions
            .iter_mut()
            .find(|p| !p.worn && !p.nantucket && matches!(p.item, Item::Hats(_)));
        match group {
            Some(p) => {
                if let Item::Hats(hs) = &mut p.item {
                    hs.push(hat);
                    hs.sort();
                }
            }
            None => self.s.players[me].possessions.push(crate::gsd::Possession {
                item: Item::Hats(vec![hat]),
                worn: false,
                nantucket: false,
            }),
        }
        self.change(format!(
            "{} buys a Hat ({}) (Rule 1.4.6)",
            self.my_name(),
            hat.letter()
        ));
        Charge::Paid
    }

    /// `[Busking]` in Peak Hours with an instrument carried, or yodelling at
    /// a Hill Station (Rule 1.7.20); what is played is named `{plays
    /// <Instrument>}` or `{yodels}`, and a Busk naming none yodels.
    pub(super) fn busk(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let now = self.now();
        if !crate::engine::time::is_peak(now, self.opening_day() == Weekday::Sun) {
            self.illegal(rule, format!("Busking is in Peak Hours only, not {now}"));
            return Charge::Free;
        }
        let yodel = self
            .directive(|d| matches!(d, Directive::Yodels).then_some(()))
            .is_some();
        let played = self.directive(|d| match d {
            Directive::Plays(i) => Some(i.good()),
            _ => None,
        });
        // "The Player must specify in eir comments which instrument e is
        // using, if any": a Busk that names none uses none, and yodels,
        // which needs a Hill Station (RULINGS E134).
        let hill = self
            .here()
            .is_some_and(|h| self.map.station(h).categories.contains(Category::Hill));
        let instrument = match (yodel, played) {
            (true, _) => None,
            (false, Some(g)) => Some(g),
            (false, None) if hill => None,
            (false, None) => {
                let mut carried: Vec<String> = Vec::new();
                for p in &self.s.players[me].possessions {
                    let w = format!("{{plays {}}}", p.good().spec().name);
                    let instrument = emporium::busking_reward(Some(p.good())).is_some();
                    if !p.nantucket && instrument && !carried.contains(&w) {
                        carried.push(w);
                    }
                }
                let why = if carried.is_empty() {
                    "a Musical Possession carried or a Hill Station to yodel at".to_string()
                } else {
                    format!(
                        "yodelling needs a Hill Station, so the comments specify the instrument used: {}",
                        super::choice::either(&carried)
                    )
                };
                self.illegal(rule, format!("{} needs a choice: {why}", a.render()));
                return Charge::Free;
            }
        };
        let Some(reward) = emporium::busking_reward(instrument) else {
            let name = instrument.map_or("", |g| g.spec().name);
            self.illegal(rule, format!("{name} is not an instrument of Rule 1.7.20"));
            return Charge::Free;
        };
        let ok = match instrument {
            None => hill,
            Some(g) => self.s.players[me]
                .possessions
                .iter()
                .any(|p| !p.nantucket && p.good() == g),
        };
        if !ok {
            let why = match instrument {
                None => "yodelling needs a Hill Station".to_string(),
                Some(g) => format!("the player carries no {}", g.spec().name),
            };
            self.illegal(rule, why);
            return Charge::Free;
        }
        let colours = [
            Colour::Black,
            Colour::Blue,
            Colour::Red,
            Colour::Bronze,
            Colour::Gold,
        ];
        let gain: Vec<(u32, Colour)> = colours
            .iter()
            .zip(reward)
            .filter(|(_, n)| *n > 0)
            .map(|(c, n)| (n, *c))
            .collect();
        self.gain(&gain);
        self.change(format!("Busking earns {} (Rule 1.7.20)", fmt_tokens(&gain)));
        Charge::Paid
    }

    /// `[Recycling]` (Rule 1.7.39): Tokens of one colour, one Green each, or
    /// one Possession of the Emporium, not Worn, Nantucketed or Cursed, for
    /// half its price in Green; named `{recycles 3 Red}` / `{recycles Book}`.
    pub(super) fn recycle(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        // The k-th [Recycling] of the Turn reads the k-th `{recycles}`.
        let k = self.tally.recycled;
        self.tally.recycled += 1;
        let what = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::Recycles(r) => Some(r.clone()),
                _ => None,
            })
            .nth(k);
        let Some(what) = what else {
            self.illegal(
                rule,
                "what is Recycled is named in a comment, e.g. {recycles 3 Red}",
            );
            return Charge::Free;
        };
        let named = match what {
            crate::gsd::Recycle::Tokens(n, c) => {
                let have = self.s.players[me].tokens.get(c);
                if have < n {
                    self.illegal(
                        rule,
                        format!(
                            "{} costs the Tokens it Recycles: {} holds {have} {} Tokens, not {n}",
                            a.render(),
                            self.my_name(),
                            c.name()
                        ),
                    );
                    return Charge::Free;
                }
                self.s.players[me].tokens.set(c, have - n);
                self.gain(&[(n, Colour::Green)]);
                self.change(format!(
                    "{n} {} Token(s) Recycled for {n} Green (Rule 1.7.39)",
                    c.name()
                ));
                self.tally.recycled_ok = true;
                return Charge::Paid;
            }
            crate::gsd::Recycle::Possession(item) => item,
        };
        let text = crate::gsd::render::item_name(&named);
        let Some(i) = self.carried(rule, &named) else {
            return Charge::Free;
        };
        let p = self.s.players[me].possessions[i].clone();
        if p.worn || p.nantucket || p.is(Quality::Cursed) {
            self.illegal(
                rule,
                format!("{text} cannot be Recycled (Worn, Nantucketed or Cursed)"),
            );
            return Charge::Free;
        }
        let price = p.good().spec().price.unwrap_or(0);
        self.take_one(i, &named);
        self.gain(&[(price / 2, Colour::Green)]);
        self.change(format!(
            "{text} Recycled for {} Green (Rule 1.7.39)",
            price / 2
        ));
        self.tally.recycled_ok = true;
        Charge::Paid
    }
}
