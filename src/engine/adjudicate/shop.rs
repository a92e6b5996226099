//! The Emporium and the Luggage Rack: buying, selling, Hats, Garments,
//! Discarding, Eating, Electrical Possessions, Busking, Recycling (Rules
//! 1.4.6, 1.4.16, 1.4.18, 1.4.22, 1.4.30, 1.4.31, 1.4.33, 1.7.20, 1.7.39).

use super::*;

impl Turn<'_> {
    /// Whether `good` may be bought or sold at `at` (Rule 1.4.18): any
    /// British Rail Station; Dispensable goods anywhere; Edible ones also at
    /// the Home Station.
    pub(super) fn shop_open(&self, good: &emporium::Good, at: StationId) -> bool {
        self.map.station(at).british_rail
            || good.qualities.contains(&"Dispensable")
            || (good.qualities.contains(&"Edible") && self.s.players[self.me].home == Some(at))
    }

    /// [Purchasing <Possession>] (Rule 1.4.18).
    pub(super) fn purchase(&mut self, a: &Action, name: &str, when: When) -> Charge {
        let me = self.me;
        let Some(at) = self.at(when) else {
            self.illegal("1.4.18", "a Piece off the Map cannot shop");
            return Charge::Free;
        };
        let here = self.name(at).to_string();
        let (good, item) = if let Some(station) = name
            .strip_suffix(" Stub")
            .or_else(|| name.strip_suffix(" stub"))
        {
            let Some(id) = self.map.find(station) else {
                self.illegal("1.4.18", format!("{station} is not a station of the map"));
                return Charge::Free;
            };
            if id != at {
                self.illegal(
                    "1.4.18",
                    format!("a Stub is bought at its own station: the Piece is at {here}"),
                );
                return Charge::Free;
            }
            let held = self.s.players.iter().any(|p| {
                p.possessions
                    .iter()
                    .any(|x| matches!(&x.item, Item::Stub(s) if *s == here))
            });
            if held {
                self.illegal(
                    "1.4.18",
                    format!("the {here} Stub has been Purchased already"),
                );
                return Charge::Free;
            }
            (&emporium::STUB, Item::Stub(here.clone()))
        } else if name.eq_ignore_ascii_case("Newspaper") {
            (
                emporium::good("Newspaper").expect("in the table"),
                Item::Paper(self.now().day),
            )
        } else if emporium::good(name).is_some_and(|g| g.name == "All Day Rover") {
            // Stamped with the Game Day of purchase (Rule 1.4.28).
            (
                emporium::good(name).expect("matched"),
                Item::Named {
                    name: crate::engine::state::rover_card(self.now().day),
                    stars: 0,
                },
            )
        } else {
            let Some(good) = emporium::good(name) else {
                self.illegal("1.4.18", format!("{name} is not sold by the Emporium"));
                return Charge::Free;
            };
            let shown = if good.name == "Zone Pass" {
                name.trim().to_string()
            } else {
                good.name.to_string()
            };
            (
                good,
                Item::Named {
                    name: shown,
                    stars: 0,
                },
            )
        };
        if item == Item::Stub(here.clone()) || self.shop_open(good, at) {
            // Stubs are bought at their station, BR or not (Rule 1.4.18).
        } else {
            self.illegal("1.4.18", format!("{} is not sold at {here}: British Rail Stations sell everything, others only Dispensable goods (and Edible ones at the Home Station)", good.name));
            return Charge::Free;
        }
        // A second instance of a Unique Possession is destroyed as soon as
        // it is created (Rule 1.4.23): the purchase stands, paid for nothing.
        let duplicate = good.qualities.contains(&"Unique")
            && self.s.players.iter().any(|p| p.possessions.iter().any(|x| matches!(&x.item, Item::Named { name, .. } if name.eq_ignore_ascii_case(good.name))));
        // The table's "xBr": x is the Emporium price.
        let colour = Self::unit_colour(a).unwrap_or(Colour::Bronze);
        let cost = self.bock_surcharge(vec![(good.price, colour)]);
        self.pay(&a.render(), "1.4.18", &cost);
        if duplicate {
            self.change(format!(
                "{} is Unique and already in play: the new one is destroyed (Rule 1.4.23)",
                good.name
            ));
            return Charge::Paid;
        }
        self.s.players[me].possessions.push(crate::gsd::Possession {
            item,
            worn: false,
            nantucket: false,
        });
        // The size limits (Rule 1.4.31) are checked at the end of the Turn.
        self.change(format!("{} buys {name} (Rule 1.4.18)", self.my_name()));
        Charge::Paid
    }

    /// Size limits (Rule 1.4.31): a player whose count of Big or Huge
    /// Possessions (at most two) or of Huge ones (at most one) rose this
    /// Turn beyond the limit, however e came by them.
    pub(super) fn check_sizes(&mut self) {
        for (i, p) in self.s.players.iter().enumerate() {
            let (big, huge) = sizes(p);
            let (big0, huge0) = self.initial.sizes.get(i).copied().unwrap_or((0, 0));
            if (big > 2 && big > big0) || (huge > 1 && huge > huge0) {
                self.out.violations.push(Violation::new(
                    "1.4.31",
                    format!(
                        "{} would carry {big} Big or Huge Possessions ({huge} Huge): a player carries at most two, at most one of them Huge",
                        p.name
                    ),
                ));
            }
        }
    }

    /// [Cashing in Hats] (Rule 1.4.6): a player carrying an A to Z, British
    /// Rail, Compass, Terminus and Verdant Hat (Worn or not) gives up one of
    /// each for one Gold and two Silver Tokens.
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
                    self.s.players[me].name,
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
        // The table's Gain (1 Gold, 2 Silver) is credited by the dispatcher.
        Charge::Table
    }

    /// [Purchasing Hat (<type>)] (Rule 1.4.6).
    pub(super) fn purchase_hat(&mut self, a: &Action, text: &str) -> Charge {
        let me = self.me;
        let t = text.trim().to_lowercase();
        let hat = match t.as_str() {
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

    /// [Selling <Possession>] at half price (Rule 1.4.18).
    pub(super) fn sell(&mut self, name: &str, when: When) -> Charge {
        let me = self.me;
        let Some(i) = self.find_possession(name) else {
            self.illegal(
                "1.4.18",
                format!("{} carries no {name}", self.s.players[me].name),
            );
            return Charge::Free;
        };
        let p = self.s.players[me].possessions[i].clone();
        if p.worn || p.nantucket {
            self.illegal(
                "1.4.18",
                format!("{name} is Worn or in a Nantucket and cannot be sold"),
            );
            return Charge::Free;
        }
        let good = match &p.item {
            Item::Stub(_) => Some(&emporium::STUB),
            Item::Paper(_) => emporium::good("Newspaper"),
            Item::Named { name, .. } => emporium::good(name),
            Item::Hats(_) => None,
        };
        let Some(good) = good else {
            self.illegal("1.4.18", format!("{name} is not a good of the Emporium"));
            return Charge::Free;
        };
        let Some(at) = self.at(when) else {
            self.illegal("1.4.18", "a Piece off the Map cannot sell");
            return Charge::Free;
        };
        if !self.shop_open(good, at) {
            self.illegal(
                "1.4.18",
                format!("{name} cannot be sold at {}", self.name(at)),
            );
            return Charge::Free;
        }
        self.s.players[me].possessions.remove(i);
        // The table's "(x/2)Br": half the Emporium price, rounded down.
        self.gain(&[(good.price / 2, Colour::Bronze)]);
        self.change(format!(
            "{name} is sold for {} Bronze (Rule 1.4.18)",
            good.price / 2
        ));
        Charge::Paid
    }

    /// The index of a carried possession by its written name.
    pub(super) fn find_possession(&self, name: &str) -> Option<usize> {
        let want = crate::gsd::parse::possession(name, self.map).ok().map(|p| {
            crate::gsd::possession_text(&crate::gsd::Possession {
                worn: false,
                nantucket: false,
                ..p
            })
        });
        self.s.players[self.me].possessions.iter().position(|p| {
            let plain = crate::gsd::possession_text(&crate::gsd::Possession {
                worn: false,
                nantucket: false,
                ..p.clone()
            });
            Some(&plain).is_some_and(|x| {
                want.as_ref().is_some_and(|w| w.eq_ignore_ascii_case(x))
                    || x.eq_ignore_ascii_case(name)
            })
        })
    }

    /// [Wearing <Possession>] and [Removing <Possession>] (Rule 1.4.30).
    pub(super) fn wear(&mut self, a: &Action, name: &str, wear: bool) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        if !wear && name.trim().eq_ignore_ascii_case(HYDE_MASK) {
            self.illegal("1.7.38", "the Hyde Mask may not be removed, only discarded");
            return Charge::Free;
        }
        let Some(i) = self.find_possession(name) else {
            self.illegal(
                rule,
                format!("{} carries no {name}", self.s.players[me].name),
            );
            return Charge::Free;
        };
        let p = self.s.players[me].possessions[i].clone();
        let garment_name = match &p.item {
            Item::Named { name, .. } => name.clone(),
            Item::Hats(_) => "Hat".to_string(),
            _ => String::new(),
        };
        let is_hat = matches!(p.item, Item::Hats(_));
        if !is_hat && !emporium::is_garment(&garment_name) {
            self.illegal(rule, format!("{name} is not a Garment"));
            return Charge::Free;
        }
        if wear == p.worn {
            self.illegal(
                rule,
                format!("{name} is {} Worn", if wear { "already" } else { "not" }),
            );
            return Charge::Free;
        }
        if wear {
            let ty = if is_hat {
                "hat".to_string()
            } else {
                emporium::garment_type(&garment_name)
            };
            let same = self.s.players[me].possessions.iter().any(|q| {
                q.worn
                    && match &q.item {
                        Item::Hats(_) => ty == "hat",
                        Item::Named { name, .. } => emporium::garment_type(name) == ty,
                        _ => false,
                    }
            });
            if same {
                self.illegal(
                    rule,
                    format!("a {ty} is Worn already: one Garment of a type"),
                );
                return Charge::Free;
            }
        }
        self.s.players[me].possessions[i].worn = wear;
        self.change(format!(
            "{name} is {} (Rule 1.4.30)",
            if wear { "Worn" } else { "Removed" }
        ));
        Charge::Table
    }

    /// [Busking] in Peak Hours with an instrument carried, or yodelling at a
    /// Hill Station (Rule 1.7.20); the instrument is named in a comment
    /// `{plays <Instrument>}` or `{yodels}`.
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
        let instrument = if yodel {
            Some("yodel".to_string())
        } else {
            self.directive(|d| match d {
                Directive::Plays(i) => Some(crate::gsd::render::item_text(i)),
                _ => None,
            })
        };
        let Some(instrument) = instrument else {
            self.illegal(
                rule,
                "the comments name the instrument played, e.g. {plays Guitar}, or {yodels}",
            );
            return Charge::Free;
        };
        let Some(reward) = emporium::busking_reward(&instrument) else {
            self.illegal(
                rule,
                format!("{instrument} is not an instrument of Rule 1.7.20"),
            );
            return Charge::Free;
        };
        let ok = if yodel {
            self.here()
                .is_some_and(|h| self.map.station(h).categories.contains(Category::Hill))
        } else {
            self.s.players[me].possessions.iter().any(|p| !p.nantucket && matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case(&instrument)))
        };
        if !ok {
            self.illegal(
                rule,
                if yodel {
                    "yodelling needs a Hill Station".to_string()
                } else {
                    format!("the player carries no {instrument}")
                },
            );
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

    /// [Recycling] (Rule 1.7.39): Tokens of one colour, one Green each, or one
    /// non-Cursed Possession, half its Emporium price in Green; what is
    /// recycled is named in a comment `{recycles 3 Red}` / `{recycles Book}`.
    pub(super) fn recycle(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let Some(what) = self.directive(|d| match d {
            Directive::Recycles(r) => Some(r.clone()),
            _ => None,
        }) else {
            self.illegal(
                rule,
                "what is Recycled is named in a comment, e.g. {recycles 3 Red}",
            );
            return Charge::Free;
        };
        let what = match what {
            crate::gsd::Recycle::Tokens(n, c) => {
                let have = self.s.players[me].tokens.get(c);
                if have < n {
                    self.illegal(
                        rule,
                        format!("the player holds {have} {} Tokens, not {n}", c.name()),
                    );
                    return Charge::Free;
                }
                self.s.players[me].tokens.set(c, have - n);
                self.gain(&[(n, Colour::Green)]);
                self.change(format!(
                    "{n} {} Token(s) Recycled for {n} Green (Rule 1.7.39)",
                    c.name()
                ));
                return Charge::Paid;
            }
            crate::gsd::Recycle::Possession(item) => crate::gsd::render::item_text(&item),
        };
        match self.find_possession(&what) {
            None => self.illegal(rule, format!("the player carries no {what}")),
            Some(i) => {
                let p = self.s.players[me].possessions[i].clone();
                let name = crate::gsd::possession_text(&p);
                if p.worn || p.nantucket || emporium::is_cursed(&name) {
                    self.illegal(
                        rule,
                        format!("{name} cannot be Recycled (Worn, Nantucketed or Cursed)"),
                    );
                    return Charge::Free;
                }
                let price = match &p.item {
                    Item::Named { name, .. } => emporium::good(name).map_or(0, |g| g.price),
                    Item::Stub(_) => emporium::STUB.price,
                    Item::Paper(_) => 1,
                    Item::Hats(_) => 0,
                };
                self.s.players[me].possessions.remove(i);
                self.gain(&[(price / 2, Colour::Green)]);
                self.change(format!(
                    "{name} Recycled for {} Green (Rule 1.7.39)",
                    price / 2
                ));
            }
        }
        Charge::Paid
    }
}

impl Turn<'_> {
    /// `[Discarding <Possession>]` (Rule 1.4.22): not Worn or in a
    /// Nantucket, not Cursed; the Hyde Mask is never Removed, only
    /// Discarded (Rule 1.7.38).
    pub(super) fn discard(&mut self, a: &Action, possession: &str) -> Charge {
        let rule = a.spec().rule;
        let me = self.me;
        let Some(i) = self.find_possession(possession) else {
            self.illegal(rule, format!("{} carries no {possession}", self.my_name()));
            return Charge::Free;
        };
        let p = &self.s.players[me].possessions[i];
        let name = crate::gsd::possession_text(p);
        let mask =
            matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case(HYDE_MASK));
        if (p.worn && !mask) || p.nantucket {
            self.illegal(
                rule,
                format!("{name} is Worn or in a Nantucket and cannot be Discarded"),
            );
            return Charge::Free;
        }
        if emporium::is_cursed(&name) {
            self.illegal(rule, format!("{name} is Cursed and cannot be Discarded"));
            return Charge::Free;
        }
        self.s.players[me].possessions.remove(i);
        self.change(format!("{name} is Discarded (Rule 1.4.22)"));
        Charge::Table
    }

    /// `[Eating <Possession>]` (Rule 1.4.16): an Edible Possession carried,
    /// at the start of the Turn; its price is added to the LV, but the
    /// Marmalade Sandwich permits a Special Move to Paddington instead, and
    /// British Rail Coffee halves the rest of the Turn's Actions
    /// (RULINGS.md E47).
    pub(super) fn eat(&mut self, a: &Action, food: &str) -> Charge {
        let me = self.me;
        let first = self
            .play
            .before
            .iter()
            .find(|i| !matches!(i, crate::gsd::PlayItem::Comment(_)));
        let at_start = matches!(first, Some(crate::gsd::PlayItem::Action(x)) if std::ptr::eq(x, a));
        let good = emporium::good(food).filter(|g| g.qualities.contains(&"Edible"));
        let Some(g) = good else {
            self.illegal("1.4.16", format!("{food} is not Edible"));
            return Charge::Free;
        };
        let Some(i) = self.find_possession(food) else {
            self.illegal("1.4.16", format!("the player carries no {food}"));
            return Charge::Free;
        };
        if !at_start {
            self.illegal("1.4.16", "Eating is done at the start of the Turn");
            return Charge::Free;
        }
        self.s.players[me].possessions.remove(i);
        if g.name == "Marmalade Sandwich" {
            self.mv.special = Some(Special::Paddington);
        } else {
            self.s.players[me].lv = self.s.players[me].lv.saturating_add(g.price);
        }
        self.change(format!("{food} is eaten (Rule 1.4.16)"));
        if g.name == "British Rail Coffee" {
            // The rest of the Turn's Actions take half as long, not the
            // Eating itself (RULINGS.md E47).
            self.clock.coffee_next = true;
            self.change("British Rail Coffee: the rest of the Turn's Actions take half their durations (Rule 1.4.16)");
        }
        Charge::Table
    }

    /// `[<Possession> On]` / `[<Possession> Off]` (Rule 1.4.33): an
    /// Electrical Possession carried is switched; nothing is switched On on
    /// an Electrified line.
    pub(super) fn switch(&mut self, possession: &str, on: bool) -> Charge {
        let me = self.me;
        let want = emporium::switch_state(possession).0.to_ascii_lowercase();
        let found = self.s.players[me].possessions.iter().position(|p| {
            matches!(&p.item, Item::Named { name, .. } if emporium::switch_state(name).0.eq_ignore_ascii_case(&want))
        });
        let Some(i) = found else {
            self.illegal(
                "1.4.33",
                format!("{} carries no {possession}", self.my_name()),
            );
            return Charge::Free;
        };
        let Item::Named { name, .. } = &self.s.players[me].possessions[i].item else {
            return Charge::Free;
        };
        if !emporium::good(name).is_some_and(|g| g.qualities.contains(&"Electrical")) {
            self.illegal("1.4.33", format!("{possession} is not Electrical"));
            return Charge::Free;
        }
        let (base, now_on) = emporium::switch_state(name);
        let word = if on { "On" } else { "Off" };
        if now_on == on {
            self.illegal("1.4.33", format!("{possession} is already {word}"));
            return Charge::Free;
        }
        if on && self.on_electrified(me) {
            self.illegal(
                "1.4.33",
                "the Piece is on an Electrified line: its Electrical Possessions are Off",
            );
            return Charge::Free;
        }
        let renamed = format!("{base} ({word})");
        if let Item::Named { name, .. } = &mut self.s.players[me].possessions[i].item {
            *name = renamed.clone();
        }
        self.change(format!("{renamed} (Rule 1.4.33)"));
        Charge::Table
    }
}

/// Whether a possession is Huge, and whether it is Big or Huge (Rule
/// 1.4.31): from the Emporium's qualities ("Large" counts as Big);
/// anything else is Medium or Small.
pub(super) fn size_of(p: &crate::gsd::Possession) -> (bool, bool) {
    match &p.item {
        Item::Named { name, .. } => emporium::good(name).map_or((false, false), |g| {
            let huge = g.qualities.contains(&"Huge");
            (
                huge,
                huge || g.qualities.contains(&"Big") || g.qualities.contains(&"Large"),
            )
        }),
        _ => (false, false),
    }
}

/// A player's (Big or Huge, Huge) Possession counts (Rule 1.4.31).
pub(super) fn sizes(p: &crate::engine::PlayerState) -> (u32, u32) {
    p.possessions.iter().fold((0, 0), |(b, h), x| {
        let (huge, big) = size_of(x);
        (b + big as u32, h + huge as u32)
    })
}
