//! Game Time in the Turn (Rule 1.13): Waiting (1.7.52), the Long Lunch
//! (1.7.51), the Night Train (1.13.1), Upcoming Holidays (1.13.7), and
//! what a new day brings at the Turn's end.

use super::*;

impl Turn<'_> {
    /// `[Night Train]` (Rule 1.13.1): the next 0000-0500 skip is ignored.
    pub(super) fn night_train(&mut self) -> Charge {
        self.s.time.night_train = true;
        self.change("Night Train: the next 0000-0500 skip is ignored (Rule 1.13.1)");
        Charge::Table
    }

    /// `[Waiting]` (Rule 1.7.52): each states its length in a `{waits}`
    /// comment, in order; the time passes but does not count against the
    /// 60-minute Turn (RULINGS.md E31).
    pub(super) fn wait(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let k = self.clock.waits;
        self.clock.waits += 1;
        let stated = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::Waits(m) => Some(*m),
                _ => None,
            })
            .nth(k);
        match stated {
            None => self.illegal(
                rule,
                "[Waiting] needs a choice: how long it lasts, five minutes to one week, stated in the comments for each [Waiting] in order, e.g. {waits 0130} or {waits 2 hours}",
            ),
            Some(m) if (5..=7 * 24 * 60).contains(&m) => {
                self.clock.minutes += m;
                self.clock.extra_limit += m;
                self.change(format!(
                    "{} waits {m} minutes of Game Time (Rule 1.7.52)",
                    self.my_name()
                ));
            }
            Some(m) => self.illegal(
                rule,
                format!("[Waiting] lasts from five minutes to one week, not {m} minutes"),
            ),
        }
        Charge::Free
    }

    /// `[Duration: +0x00]` (Rule 1.7.51): x whole hours for x Tokens of the
    /// table's colour; the Turn's Game Time and its 60-minute limit both
    /// grow by x hours (RULINGS.md E30).
    pub(super) fn long_lunch(&mut self, a: &Action, time: &str) -> Charge {
        let hours =
            (time.len() == 4 && time.bytes().all(|b| b.is_ascii_digit()) && time.ends_with("00"))
                .then(|| time[..2].parse::<u32>().ok())
                .flatten()
                .filter(|h| *h >= 1);
        let Some(h) = hours else {
            self.illegal(
                a.spec().rule,
                format!(
                    "[Duration: +{time}] extends a Turn by whole hours, written +0x00 (e.g. +0200)"
                ),
            );
            return Charge::Free;
        };
        if let Some(c) = Self::unit_colour(a) {
            let cost = self.with_bocks(a, vec![(h, c)]);
            self.pay(&a.render(), a.spec().rule, &cost);
        }
        self.clock.minutes += 60 * h;
        self.clock.extra_limit += 60 * h;
        self.change(format!(
            "a Long Lunch: the Turn lasts {h} hour(s) longer (Rule 1.7.51)"
        ));
        Charge::Paid
    }

    /// `[Upcoming Holiday]` (Rule 1.13.7): one at a time. A `{rolled N}` in
    /// the same Play records the die at once: the bot's roll in a game it
    /// hosts (RULINGS S14), or the player's own.
    pub(super) fn upcoming_holiday(&mut self, a: &Action) -> Charge {
        if self
            .s
            .disruptions
            .iter()
            .any(|d| matches!(d, Disruption::UpcomingHoliday(_)))
        {
            self.illegal(
                a.spec().rule,
                "a Holiday is already Upcoming (Disruptions box): one at a time",
            );
            return Charge::Free;
        }
        self.s.disruptions.push(Disruption::UpcomingHoliday(None));
        match self.rolled() {
            Some(rolled) => {
                let i = self.s.disruptions.len() - 1;
                self.set_holiday(i, rolled);
            }
            None => self.change("a Holiday is Upcoming: the player rolls a die after the Turn, and the next player records the day as {rolled N} (Rule 1.13.7)"),
        }
        Charge::Table
    }

    /// The die a `{rolled N}` comment records, if the Play has one.
    fn rolled(&self) -> Option<u32> {
        self.directive(|d| match d {
            Directive::Rolled(n) => Some(*n),
            _ => None,
        })
    }

    /// The Turn after `[Upcoming Holiday]` records the die (Rule 1.13.7),
    /// `{rolled N}`: 1 Monday ... 6 Saturday; the firstcoming such day is
    /// the Holiday (not today's, RULINGS.md E44). A Play with its own
    /// `[Upcoming Holiday]` and no Holiday waiting rolls for that one.
    pub(super) fn record_holiday(&mut self) {
        let pending = self
            .s
            .disruptions
            .iter()
            .position(|d| *d == Disruption::UpcomingHoliday(None));
        let Some(rolled) = self.rolled() else {
            return;
        };
        let Some(i) = pending else {
            if self
                .play
                .actions()
                .any(|a| matches!(a, Action::UpcomingHoliday))
            {
                return;
            }
            self.illegal(
                "1.13.7",
                "no Holiday is waiting for its die roll ({rolled N} records one after [Upcoming Holiday])",
            );
            return;
        };
        self.set_holiday(i, rolled);
    }

    /// Disruption `i`, an Upcoming Holiday, gets the day the die `rolled`.
    fn set_holiday(&mut self, i: usize, rolled: u32) {
        // chrono numbers Monday 0: the die's 1 to 6 are Monday to Saturday.
        let day = u8::try_from(rolled)
            .ok()
            .filter(|n| (1..=6).contains(n))
            .and_then(|n| Weekday::try_from(n - 1).ok());
        let Some(day) = day else {
            self.illegal("1.13.7", "a six-sided die rolls 1 to 6 ({rolled N})");
            return;
        };
        self.s.disruptions[i] = Disruption::UpcomingHoliday(Some(day));
        self.s.holiday_wait = day == self.s.time.day;
        self.change(format!(
            "the die rolled {rolled}: the firstcoming {} is a Holiday, like a Sunday (Rule 1.13.7)",
            crate::gsd::day_name(day)
        ));
    }

    /// Game Time passes by the Turn's minutes (Rule 1.13.1); expired Rover
    /// Cards go (1.4.28); a new day repairs Damage (1.11.3) and ends a
    /// Holiday (1.13.7); a Sunday ends Defamings (1.11.7).
    pub(super) fn pass_time(&mut self) {
        let before = self.s.time;
        let days = crate::engine::time::days_crossed(before, self.clock.minutes);
        self.s.time = advance(self.s.time, self.clock.minutes);
        let today = self.s.time.day;
        let mut expired = Vec::new();
        for p in self.s.players.iter_mut() {
            let n = p.possessions.len();
            p.possessions
                .retain(|x| !matches!(x.item, Item::Rover(d) if d != today));
            if p.possessions.len() != n {
                expired.push(p.name.clone());
            }
        }
        for name in expired {
            self.change(format!(
                "{name}'s Expired All Day Rover Card is discarded (Rule 1.4.28)"
            ));
        }
        if days > 0 {
            // A Holiday ends with its day; a wait for next week's ends now.
            if !self.s.holiday_wait {
                let over = Disruption::UpcomingHoliday(Some(before.day));
                if self.s.has(&over) {
                    self.s.disruptions.retain(|d| *d != over);
                    self.change(format!(
                        "the Holiday ({}) is over (Rule 1.13.7)",
                        crate::gsd::day_name(before.day)
                    ));
                }
            }
            self.s.holiday_wait = false;
            // "Whenever Game Time moves into a new day": once for each day
            // (RULINGS E28; a Wait of days repairs as many).
            for _ in 0..days {
                self.repair_damage();
            }
        }
        if self.s.time.day == Weekday::Sun {
            let n = self.s.disruptions.len();
            self.s.disruptions.retain(|d| {
                !matches!(
                    d,
                    Disruption::Station {
                        mark: StationMark::Defamed,
                        ..
                    }
                )
            });
            if self.s.disruptions.len() != n {
                self.change("it is Sunday: Defamed stations are Holy again (Rule 1.11.7)");
            }
        }
    }
}
