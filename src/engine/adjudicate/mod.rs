//! One play against one state (Rules 1.3 - 1.6, 1.9.1, 1.11.1, 1.12, 1.13,
//! 1.4.20, 1.7.21, 1.7.28, 1.8.3, 1.8.4, 1.8.7, 1.19.2, 1.1.1).

use chrono::Weekday;

use super::emporium;

mod explain;
mod shop;
mod stacks;
mod targets;
use super::route::{search, Rules};

use super::rulings::{InterchangeFire, SoapedPhase};
use super::state::{is_drone, Block, GameState, Position, Visit, DRONE_STICK};
use super::time::advance;
use super::{Outcome, Verdict, Violation};
use crate::gsd::{
    parse_token_list, Action, Colour, Disruption, Hat, Item, LineState, Move, Phase, Play,
    PlayItem, StationMark,
};
use crate::map::{Category, Landmark, LineCode, Map, StationId, StationKind};

/// Most stations a move search looks at when telling a player which LV
/// would have reached eir destination.
const MAX_ROUTE: u32 = 40;

/// Adjudicates `play` against `state` on `map`.
pub fn adjudicate(map: &Map, state: &GameState, play: &Play) -> Outcome {
    let mut t = Turn::new(map, state, play);
    t.run();
    t.finish()
}

struct Turn<'a> {
    map: &'a Map,
    play: &'a Play,
    s: GameState,
    me: usize,
    violations: Vec<Violation>,
    rulings: Vec<Violation>,
    changes: Vec<String>,
    minutes: u32,
    /// Extra minutes a Long Lunch adds to the 60-minute Turn (Rule 1.7.51).
    extra_limit: u32,
    /// [Waiting] Actions judged so far this Turn (each has its own comment).
    waits: usize,
    /// A Helsinki has been played this Turn (one per Turn, Rule 1.7.57).
    helsinki: bool,
    /// A Straddle was made: no Aggressive Action for the rest of the Turn (Rule 1.7.6).
    straddled: bool,
    /// British Rail Coffee was eaten: the rest of the Turn's Actions take
    /// half as long (Rule 1.4.16).
    coffee: bool,
    mc_open: bool,
    rebounding: bool,
    special: Option<Special>,
    line_change_paid: bool,
    blocks_placed: u32,
    /// Line States for one Round set this Turn (Rules 1.20.5, 1.20.6).
    timed_placed: u32,
    declared_home: bool,
    /// Non-Bronze Tokens paid for Actions this Turn (Rule 1.4.19).
    spent: Vec<Colour>,
    /// The Piece entered the Map this Turn.
    entered: bool,
    /// Where the Piece stood when the Turn began.
    started_at: Option<StationId>,
    /// Stations a valid route of the Move passes through (Rule 1.5.1).
    through: Vec<StationId>,
    /// The Line Directions in which a valid route of this Turn's Standard
    /// Move arrives (the direction of its last Segment, Rule 1.7.6).
    move_dirs: Vec<crate::map::Direction>,
    /// Home Stations tolled (Closed, not Blocked) or rented (Open) this Turn
    /// (Rule 1.12.3): (station, rented).
    tolled: Vec<(StationId, bool)>,
    /// [Collection Plate] opened every Holy Station for the Turn (Rule 1.11.7).
    holy_open: bool,
    /// The Token Stacks as the Turn began (Rule 1.14.2).
    initial_stacks: Vec<(StationId, Vec<Colour>)>,
    /// The Player carried Metallic Tokens when eir Move began (Rule 1.20.3).
    metallic_at_move: bool,
    /// Stations a Token was claimed from this Turn, and Stacks added to.
    claimed_from: Vec<StationId>,
    dropped_on: Vec<StationId>,
    /// The Shunt of this Move: the distance (LV) it used and where it sent
    /// its target, for a Double Shunt (Rule 1.10.2).
    shunt_made: Option<(u32, StationId)>,
    /// Players Shunted by this Move: none twice (Rule 1.10.2).
    shunted: Vec<usize>,
    /// Stations where a Stack Shunted by this Move landed (Rule 1.10.2).
    stacks_shunted: Vec<StationId>,
    /// Shunts of this Move that may claim a Token or Possession so far: the
    /// next one takes the next unaddressed `{claims ...}` comment.
    claim_shunts: usize,
    /// Each player's (Big or Huge, Huge) Possessions as the Turn began
    /// (Rule 1.4.31).
    initial_sizes: Vec<(u32, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    Walking,
    Home,
    Wild,
    StubLink,
    Strile,
    Declension,
    Paddington,
    Ghosting,
}

impl<'a> Turn<'a> {
    fn new(map: &'a Map, state: &GameState, play: &'a Play) -> Turn<'a> {
        Turn {
            map,
            play,
            s: state.clone(),
            me: state.to_play,
            violations: Vec::new(),
            rulings: Vec::new(),
            changes: Vec::new(),
            minutes: 0,
            extra_limit: 0,
            waits: 0,
            helsinki: false,
            straddled: false,
            coffee: false,
            mc_open: false,
            rebounding: false,
            special: None,
            line_change_paid: false,
            blocks_placed: 0,
            timed_placed: 0,
            declared_home: false,
            spent: Vec::new(),
            entered: false,
            started_at: state
                .players
                .get(state.to_play)
                .and_then(|p| p.at.map(|a| a.station)),
            through: Vec::new(),
            move_dirs: Vec::new(),
            claimed_from: Vec::new(),
            dropped_on: Vec::new(),
            metallic_at_move: false,
            initial_stacks: state.stacks.clone(),
            tolled: Vec::new(),
            holy_open: false,
            shunt_made: None,
            shunted: Vec::new(),
            stacks_shunted: Vec::new(),
            claim_shunts: 0,
            initial_sizes: state.players.iter().map(shop::sizes).collect(),
        }
    }

    fn illegal(&mut self, rule: &str, msg: impl Into<String>) {
        self.violations.push(Violation::new(rule, msg));
    }

    fn ruling(&mut self, rule: &str, msg: impl Into<String>) {
        let v = Violation::new(
            rule,
            format!("needs a human ruling: Rule {rule}: {}", msg.into()),
        );
        if !self.rulings.contains(&v) {
            self.rulings.push(v);
        }
    }

    fn name(&self, id: StationId) -> &str {
        &self.map.station(id).name
    }

    fn finish(self) -> Outcome {
        let verdict = if !self.violations.is_empty() {
            Verdict::Illegal
        } else if !self.rulings.is_empty() {
            Verdict::NeedsRuling
        } else {
            Verdict::Legal
        };
        let legal = verdict == Verdict::Legal;
        Outcome {
            verdict,
            violations: self.violations,
            rulings: if legal { vec![] } else { self.rulings },
            changes: if legal { self.changes } else { vec![] },
            state: legal.then_some(self.s),
        }
    }

    fn run(&mut self) {
        // Whose Turn (Rule 1.3.2), and is the game still on (Rule 1.1.1)?
        // A won game goes on until every other Active player has declined to
        // Buzz the winning Turn (Rule 1.1.1); the first winner stands.
        let Some(me) = self.s.player_index(&self.play.player) else {
            self.illegal(
                "1.3.2",
                format!("{} is not a player of this game", self.play.player),
            );
            return;
        };
        // An Inactive player's Turn passes to the next Active one (Rule 1.3.2);
        // the Drone is Inactive unless an Active player carries the Drone
        // Stick (Rule 1.15.1).
        self.s.refresh_drone();
        if !self.s.players[self.s.to_play].active {
            let n = self.s.players.len();
            if let Some(next) = (0..n)
                .map(|k| (self.s.to_play + k) % n)
                .find(|&j| self.s.players[j].active)
            {
                self.s.to_play = next;
            }
        }
        if me != self.s.to_play {
            let due = self.s.players[self.s.to_play].name.clone();
            self.illegal(
                "1.3.2",
                format!("it is {due}'s Turn, not {}'s", self.s.players[me].name),
            );
            return;
        }
        self.me = me;
        self.started_at = self.s.players[me].at.map(|a| a.station);
        // A Piece starting its Turn at a Kafka Sinkhole has its non-Black
        // Plastic Tokens turned Black (Rule 1.9.6).
        if let Some(st) = self.started_at {
            let sink = self
                .s
                .stack(st)
                .is_some_and(|t| t.len() >= 4 && t.iter().all(|c| *c == Colour::Black));
            if sink {
                let t = &mut self.s.players[me].tokens;
                let moved: u32 = [Colour::Blue, Colour::Green, Colour::Red]
                    .iter()
                    .map(|c| t.get(*c))
                    .sum();
                for c in [Colour::Blue, Colour::Green, Colour::Red] {
                    t.set(c, 0);
                }
                t.set(Colour::Black, t.get(Colour::Black) + moved);
                if moved > 0 {
                    self.changes.push(format!(
                        "{moved} Plastic Token(s) turn Black in the Kafka Sinkhole (Rule 1.9.6)"
                    ));
                }
            }
        }
        self.game_states_not_adjudicated();
        self.record_holiday();
        let items: Vec<&PlayItem> = self.play.items.iter().collect();
        let move_at = items
            .iter()
            .position(|i| matches!(i, PlayItem::Move(_)))
            .unwrap_or(items.len());
        let the_move = self.play.the_move().clone();

        // Timeout and Farkle take no Actions (Rules 1.3.5, 1.5.12).
        let n_actions = self.play.actions_before().count() + self.play.actions_after().count();
        if n_actions > 0 {
            match the_move {
                Move::Timeout => self.illegal("1.3.5", "a Timeout is played with no Actions"),
                Move::Farkle(_) => self.illegal("1.5.12", "a Farkle is played with no Actions"),
                _ => {}
            }
        }
        self.check_kinds();
        self.late_arrival(&the_move, n_actions);
        for (i, item) in items.iter().enumerate() {
            if let PlayItem::Action(a) = item {
                // The index says pre-Move, Rule 1.20.6 post-Move: the game
                // chooses, by default either (RULINGS.md E41).
                let phase = match a {
                    Action::LineSoaped { .. } => match self.s.rulings.soaped_phase {
                        SoapedPhase::Either => Phase::Neutral,
                        SoapedPhase::Pre => Phase::Pre,
                        SoapedPhase::Post => Phase::Post,
                    },
                    _ => a.spec().phase,
                };
                if i < move_at && phase == Phase::Post {
                    self.illegal(
                        a.spec().rule,
                        format!(
                            "{} is a post-Move Action: it comes after the Move (Rule 1.7.1)",
                            a.render()
                        ),
                    );
                }
                if i > move_at && phase == Phase::Pre {
                    self.illegal(
                        a.spec().rule,
                        format!(
                            "{} is a pre-Move Action: it comes before the Move (Rule 1.7.1)",
                            a.render()
                        ),
                    );
                }
            }
        }
        // Pre-Move Actions, in order (Rule 1.3.4).
        for a in self.play.actions_before() {
            self.action(a, true);
        }
        let t = self.s.players[self.me].tokens;
        self.metallic_at_move = [Colour::Gold, Colour::Silver, Colour::Bronze]
            .iter()
            .any(|c| t.get(*c) > 0);
        self.movement(&the_move);
        for a in self.play.actions_after() {
            self.action(a, false);
        }
        self.end_of_turn(&the_move);
        self.check_sizes();
        self.electrified_off();
    }

    /// A player whose latest Visit was answered by another player's Late
    /// Arrival from the same Place must Pass, with no Actions (Rule 1.7.9);
    /// any Move but a Timeout ends what eir last Move visited.
    fn late_arrival(&mut self, mv: &Move, n_actions: usize) {
        if matches!(mv, Move::Timeout) {
            return;
        }
        let name = self.s.players[self.me].name.clone();
        if let Some(v) = self
            .s
            .visits
            .iter()
            .find(|v| v.late && v.player.eq_ignore_ascii_case(&name))
        {
            if !matches!(mv, Move::Pass(_)) || n_actions > 0 {
                self.illegal(
                    "1.7.9",
                    format!(
                        "{name}'s Visit to {} was followed by a Late Arrival from {}: e must play Pass, with no Actions, this Turn",
                        v.place, v.place
                    ),
                );
            }
        }
        self.s
            .visits
            .retain(|v| !v.player.eq_ignore_ascii_case(&name));
    }

    /// Game states whose effects the engine does not yet apply: any play
    /// under them needs a human (never a silent Legal).
    fn game_states_not_adjudicated(&mut self) {
        for d in self.s.disruptions.clone() {
            match d {
                Disruption::ParksAndGreens => {
                    self.ruling("1.8.2", "the game is in a Parks and Greens Cascade")
                }
                Disruption::VenbackerLadder => {
                    self.ruling("1.8.9", "a Venbacker Ladder is in effect")
                }
                Disruption::ChargeSpiral => self.ruling("1.8.11", "a Charge Spiral is in effect"),
                _ => {}
            }
        }
    }

    /// One Action of a kind per Turn unless a rule allows more (Rule 1.3.4).
    fn check_kinds(&mut self) {
        let mut seen: Vec<usize> = Vec::new();
        for a in self.play.actions_before().chain(self.play.actions_after()) {
            let i = a.index();
            // Blocks, exchanges, Discards and Token claims may repeat (Rules
            // 1.9.1, 1.7.21, 1.4.22, 1.7.52, 1.14.4, and Bonanza, an exchange
            // by 1.4.10); buying and selling different goods are different
            // Actions. Triple and greater Shunts repeat Double-Shunting
            // (Rule 1.10.2, whose own checks apply).
            let many = matches!(
                a,
                Action::Blocking { .. }
                    | Action::DoubleShunting { .. }
                    | Action::ClaimingToken { .. }
                    | Action::Waiting
                    | Action::Bonanza
                    | Action::Discarding { .. }
                    | Action::Purchasing { .. }
                    | Action::Selling { .. }
            ) || is_exchange(a);
            if seen.contains(&i) && !many {
                self.illegal(
                    "1.3.4",
                    format!(
                        "{} is played twice: one Action of a kind per Turn",
                        a.spec().form
                    ),
                );
            }
            seen.push(i);
        }
    }

    /// In Knip no Action may spend Tokens but Out of Knip and Line Change
    /// (Rule 1.8.4): judged when Tokens are actually paid (see `pay`).
    #[allow(dead_code)]
    fn check_knip(&mut self) {
        if !self.s.has(&Disruption::Knip) {
            return;
        }
        for a in self.play.actions_before().chain(self.play.actions_after()) {
            let costs = a.spec().cost.is_some_and(|c| c != "none");
            if costs && !matches!(a, Action::OutOfKnip | Action::LineChange) {
                self.illegal(
                    "1.8.4",
                    format!("the game is in Knip: {} spends Tokens", a.render()),
                );
            }
        }
    }

    /// Pays `cost` tokens for an Action under `rule`; reports a shortfall.
    fn pay(&mut self, what: &str, rule: &str, cost: &[(u32, Colour)]) {
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
        if self.straddled && cost.iter().any(|&(n, c)| c == Colour::Red && n > 0) {
            self.illegal(
                "1.7.6",
                format!(
                    "{what} spends Red Tokens: no Aggressive Action after a Straddle this Turn"
                ),
            );
        }
        let mut short = Vec::new();
        for &(n, c) in cost {
            let have = self.s.players[me].tokens.get(c);
            if have < n {
                short.push(format!("{n} {} (has {have})", c.name()));
            } else {
                self.s.players[me].tokens.set(c, have - n);
                if c != Colour::Bronze {
                    self.spent.extend(std::iter::repeat_n(c, n as usize));
                }
            }
        }
        if !short.is_empty() {
            let who = self.s.players[me].name.clone();
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

    fn gain(&mut self, gain: &[(u32, Colour)]) {
        let me = self.me;
        for &(n, c) in gain {
            let have = self.s.players[me].tokens.get(c);
            self.s.players[me].tokens.set(c, have.saturating_add(n));
        }
    }

    /// The table's fixed cost of an Action (None: not a plain token list).
    fn table_cost(a: &Action) -> Option<Vec<(u32, Colour)>> {
        match a.spec().cost {
            None => Some(vec![]),
            Some("none") => Some(vec![]),
            Some(c) => parse_token_list(c).map(|t| t.0),
        }
    }

    fn duration(&mut self, a: &Action) {
        match a.spec().duration.minutes() {
            Some(m) => self.action_minutes(m),
            None => self.ruling(
                a.spec().rule,
                format!("the duration of {} varies", a.render()),
            ),
        }
    }

    /// Adds an Action's duration, halved (rounded down) after British Rail
    /// Coffee (Rule 1.4.16).
    fn action_minutes(&mut self, m: u32) {
        self.minutes += if self.coffee { m / 2 } else { m };
    }

    fn action(&mut self, a: &Action, before_move: bool) {
        let spec = a.spec();
        let rule = spec.rule;
        let me = self.me;
        let implemented = match a {
            Action::LvPlus { n } | Action::LvMinus { n } => {
                let sidestep = self
                    .play
                    .actions_before()
                    .chain(self.play.actions_after())
                    .any(|x| matches!(x, Action::CrazeSidestep));
                if matches!(a, Action::LvMinus { .. })
                    && self.s.has(&Disruption::SpeedCraze)
                    && !sidestep
                {
                    self.illegal(
                        "1.8.13",
                        "a Speed Craze is in effect: [LV-X] needs a [Craze Sidestep] this Turn",
                    );
                }
                // The Hyde Mask allows five rather than three (Rule 1.7.38).
                let most = if self.hyde() { 5 } else { 3 };
                if !(1..=most).contains(n) {
                    let (rule, x) = if most == 5 {
                        ("1.7.38", "from 1 to 5 with the Hyde Mask")
                    } else {
                        ("1.6.3", "1, 2 or 3")
                    };
                    self.illegal(rule, format!("{}: X must be {x}", a.render()));
                } else {
                    let lv = self.s.players[me].lv as i64;
                    let new = if matches!(a, Action::LvPlus { .. }) {
                        lv + n
                    } else {
                        lv - n
                    };
                    // LV below zero becomes zero (Rule 1.6.1).
                    self.s.players[me].lv = new.clamp(0, i64::from(u32::MAX)) as u32;
                }
                true
            }
            Action::Rebounding => {
                self.rebounding = true;
                true
            }
            Action::Walking => {
                self.special = Some(Special::Walking);
                // Today's or Yesterday's Paper makes Walking free (Rule 1.4.32).
                if let Some(i) = self.s.players[me]
                    .possessions
                    .iter()
                    .position(|p| matches!(p.item, Item::Paper(_)) && !p.nantucket)
                {
                    let today = matches!(self.s.players[me].possessions[i].item, Item::Paper(d) if d == self.s.time.day);
                    if !today {
                        self.s.players[me].possessions.remove(i);
                        self.changes.push(
                            "Yesterday's Paper is discarded for the walk (Rule 1.4.32)".into(),
                        );
                    }
                    self.duration(a);
                    return;
                }
                true
            }
            Action::Home => {
                if self.s.players[me].home.is_none()
                    && !self
                        .play
                        .actions_before()
                        .any(|x| matches!(x, Action::HomeStation { .. }))
                {
                    self.illegal("1.12.4", "[Home] needs a Home Station");
                }
                self.special = Some(Special::Home);
                true
            }
            Action::Wild => {
                self.special = Some(Special::Wild);
                true
            }
            Action::LineChange => {
                // Paid once; the Move pays nothing more (Rule 1.5.11); free
                // with a Current All Day Rover Card (Rule 1.4.28).
                let rover = self.s.players[me].has_rover(self.now().day);
                if let (Some(cost), false) = (Self::table_cost(a), rover) {
                    self.pay("[Line Change]", "1.5.11", &cost);
                }
                self.line_change_paid = true;
                self.duration(a);
                return;
            }
            Action::HomeStation { station } => {
                self.declare_home(&station.station);
                true
            }
            Action::OpeningMc if self.hyde() => {
                self.illegal(
                    "1.7.38",
                    "a player wearing the Hyde Mask may not perform [Opening MC]",
                );
                return;
            }
            Action::OpeningMc => {
                self.mc_open = true;
                self.changes.push(
                    "Mornington Crescent is Open for the rest of the Turn (Rule 1.7.28)".into(),
                );
                true
            }
            Action::BridgesUp | Action::BridgesDown => {
                let up = matches!(a, Action::BridgesUp);
                self.s.set(Disruption::BridgesUp, up);
                self.changes.push(format!(
                    "Bridges are {} (Rule 1.8.3)",
                    if up { "Up" } else { "Down" }
                ));
                true
            }
            Action::IntoKnip | Action::OutOfKnip => {
                let into = matches!(a, Action::IntoKnip);
                // Paid before the State changes: entering Knip is not spending in it.
                let cost = self.with_bocks(a, Self::table_cost(a).unwrap_or_default());
                self.pay(&a.render(), rule, &cost);
                self.duration(a);
                self.s.set(Disruption::Knip, into);
                self.changes.push(format!(
                    "the game is {} Knip (Rule 1.8.4)",
                    if into { "in" } else { "out of" }
                ));
                return;
            }
            _ if is_exchange(a) => {
                // Bureau de Change (Rule 1.7.21): paid Tokens are lost. The
                // rule's own table sets the rates; its opposite exchanges are
                // made only at Bank (RULINGS.md E10).
                let Some((cost, gain, upward)) = exchange(a) else {
                    self.ruling(
                        rule,
                        format!("{} is not an exchange of Rule 1.7.21's table", a.render()),
                    );
                    return;
                };
                if upward {
                    let at = self.s.players[me].at.map(|p| p.station);
                    if !at.is_some_and(|s| self.map.is(s, Landmark::Bank)) {
                        self.illegal(
                            "1.7.21",
                            format!("{} is an opposite exchange: only at Bank", a.render()),
                        );
                    }
                }
                let before = self.spent.len();
                self.pay(&a.render(), rule, &cost);
                // Exchanged Tokens are lost, not stacked (Rule 1.4.19).
                self.spent.truncate(before);
                self.gain(&gain);
                self.changes
                    .push(format!("{} -> {}", fmt_tokens(&cost), fmt_tokens(&gain)));
                self.duration(a);
                return;
            }
            Action::Blocking { station } => {
                if !before_move {
                    self.block(&station.station);
                }
                return;
            }
            Action::StationWild { station } => {
                self.station_wild(&station.station);
                true
            }
            Action::Toll { player } | Action::Rent { player } => {
                let rented = matches!(a, Action::Rent { .. });
                match self.s.player_index(player) {
                    Some(i) if i != me => match self.s.players[i].home {
                        Some(h) => {
                            // The cited player gains the cost (Rule 1.12.3).
                            let cost = Self::table_cost(a).unwrap_or_default();
                            let cost = self.with_bocks(a, cost);
                            self.pay(&a.render(), rule, &cost);
                            for (n, c) in &cost {
                                let have = self.s.players[i].tokens.get(*c);
                                self.s.players[i].tokens.set(*c, have.saturating_add(*n));
                            }
                            self.tolled.push((h, rented));
                            let how = if rented {
                                "Open"
                            } else {
                                "Closed rather than Blocked"
                            };
                            self.changes.push(format!(
                                "{}'s Home Station {} is {how} for this Turn (Rule 1.12.3)",
                                self.s.players[i].name,
                                self.name(h)
                            ));
                        }
                        None => self.illegal("1.12.3", format!("{player} has no Home Station")),
                    },
                    _ => self.illegal(
                        "1.12.3",
                        format!("{player} is not another player of this game"),
                    ),
                }
                self.duration(a);
                return;
            }
            Action::CollectionPlate => {
                self.holy_open = true;
                self.changes.push(
                    "every Holy Station is Open for the rest of the Turn (Rule 1.11.7)".into(),
                );
                true
            }
            Action::Defaming { station } => {
                let Some(id) = self.map.find(&station.station) else {
                    return;
                };
                let from = if before_move {
                    self.started_at
                } else {
                    self.here()
                };
                if !self.map.station(id).categories.contains(Category::Holy) {
                    self.illegal(
                        "1.11.7",
                        format!("{} is not a Holy Station", station.station),
                    );
                } else if from.is_none_or(|f| self.map.same_line_distance(f, id) != Some(1)) {
                    self.illegal(
                        "1.11.7",
                        format!(
                            "{} is not one station from the Piece along a line (Fosdyke S1)",
                            station.station
                        ),
                    );
                } else {
                    self.mark(
                        &station.station,
                        StationMark::Defamed,
                        "not Holy until Sunday",
                        "1.11.7",
                    );
                }
                true
            }
            Action::Shunting { player, station }
            | Action::DeadEndShunting { player, station }
            | Action::PowerShunting { player, station }
            | Action::StationaryShunting { player, station } => {
                // Rule 1.10.18 cites itself as "1.10.x" in the index.
                let rule = if matches!(a, Action::PowerShunting { .. }) {
                    "1.10.18"
                } else {
                    rule
                };
                let first_post = self
                    .play
                    .actions_after()
                    .next()
                    .is_some_and(|x| std::ptr::eq(x, a));
                // A Spanger makes Shunts free and keeps the shunter's LV (Rule 1.4.29).
                let spanger = self.s.players[me].carries("Spanger");
                let lv = self.s.players[me].lv;
                self.shunt(a, rule, player, station, first_post);
                if spanger {
                    self.s.players[me].lv = lv;
                    self.changes.push(
                        "the Spanger makes the Shunt free and keeps the LV (Rule 1.4.29)".into(),
                    );
                } else {
                    let cost = self.with_bocks(a, Self::table_cost(a).unwrap_or_default());
                    self.pay(&a.render(), rule, &cost);
                }
                self.duration(a);
                return;
            }
            Action::DoubleShunting { player, station } => {
                self.double_shunt(a, rule, player, station);
                let cost = self.with_bocks(a, Self::table_cost(a).unwrap_or_default());
                self.pay(&a.render(), rule, &cost);
                self.duration(a);
                return;
            }
            Action::Huffing { player }
            | Action::Blonking { player }
            | Action::Shadowing { player } => {
                let first_post = self
                    .play
                    .actions_after()
                    .next()
                    .is_some_and(|x| std::ptr::eq(x, a));
                if let Some((v, _)) = self.target_of(a, rule, player, first_post) {
                    let victim = self.s.players[v].name.clone();
                    match a {
                        // Both LVs become a number from 0 to the sum of them (Rule 1.10.15).
                        Action::Huffing { .. } => match self.choice("lv").and_then(|n| n.parse::<u32>().ok()) {
                            Some(n) if n <= self.s.players[me].lv.saturating_add(self.s.players[v].lv) => {
                                self.s.players[me].lv = n;
                                self.s.players[v].lv = n;
                                self.changes.push(format!("{victim} is Huffed: both LVs are {n} (Rule 1.10.15)"));
                            }
                            Some(n) => self.illegal(rule, format!("LV {n} is more than the two LVs together")),
                            None => self.illegal(rule, "a Huff names the new LV in a comment, e.g. {LV 3}"),
                        },
                        // One Token of the victim's is destroyed (Rule 1.10.16).
                        Action::Blonking { .. } => match self.choice("destroys").and_then(|c| Colour::parse(&c)) {
                            Some(c) if self.s.players[v].tokens.get(c) > 0 => {
                                let t = self.s.players[v].tokens.get(c);
                                self.s.players[v].tokens.set(c, t - 1);
                                self.changes.push(format!("a {} Token of {victim}'s is destroyed (Rule 1.10.16)", c.name()));
                            }
                            Some(c) => self.illegal(rule, format!("{victim} has no {} Token", c.name())),
                            None => self.illegal(rule, "a Blonk names the Token it destroys in a comment, e.g. {destroys Red}"),
                        },
                        // The Shadower takes the victim's LV and gains a Plastic
                        // Token of a colour the victim holds (Rule 1.10.5).
                        _ => {
                            self.s.players[me].lv = self.s.players[v].lv;
                            match self.choice("takes").and_then(|c| Colour::parse(&c)) {
                                Some(c) if c.is_plastic() && self.s.players[v].tokens.get(c) > 0 => {
                                    self.gain(&[(1, c)]);
                                    self.changes.push(format!("{} Shadows {victim} and gains a {} Token (Rule 1.10.5)", self.s.players[me].name, c.name()));
                                }
                                Some(c) => self.illegal(rule, format!("the Token must be Plastic and of a colour {victim} holds, not {}", c.name())),
                                None => self.changes.push(format!("{} Shadows {victim} and takes no Token", self.s.players[me].name)),
                            }
                        }
                    }
                }
                true
            }
            Action::Purchasing { possession } => {
                self.purchase(possession, before_move);
                self.duration(a);
                return;
            }
            Action::CashingInHats => {
                self.cash_in_hats();
                self.duration(a);
                return;
            }
            Action::PurchasingHat { text } => {
                self.purchase_hat(text);
                self.duration(a);
                return;
            }
            Action::Selling { possession } => {
                self.sell(possession, before_move);
                self.duration(a);
                return;
            }
            Action::Discarding { possession } => {
                match self.find_possession(possession) {
                    None => self.illegal(
                        rule,
                        format!("{} carries no {possession}", self.s.players[me].name),
                    ),
                    Some(i) => {
                        let p = &self.s.players[me].possessions[i];
                        let name = crate::gsd::possession_text(p);
                        // The Hyde Mask is never Removed, only Discarded (Rule 1.7.38).
                        let mask = matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case(HYDE_MASK));
                        if (p.worn && !mask) || p.nantucket {
                            self.illegal(
                                rule,
                                format!("{name} is Worn or in a Nantucket and cannot be Discarded"),
                            );
                        } else if emporium::is_cursed(&name) {
                            self.illegal(rule, format!("{name} is Cursed and cannot be Discarded"));
                        } else {
                            self.s.players[me].possessions.remove(i);
                            self.changes
                                .push(format!("{name} is Discarded (Rule 1.4.22)"));
                        }
                    }
                }
                true
            }
            Action::Removing { possession }
                if possession.trim().eq_ignore_ascii_case(HYDE_MASK) =>
            {
                self.illegal("1.7.38", "the Hyde Mask may not be removed, only discarded");
                return;
            }
            Action::Wearing { possession } | Action::Removing { possession } => {
                let wear = matches!(a, Action::Wearing { .. });
                self.wear(possession, wear, rule);
                true
            }
            Action::Begging => {
                if !matches!(self.play.the_move(), Move::Pass(_)) {
                    self.illegal(rule, "[Begging] needs a Move of Pass this Turn");
                } else if let Some(c) = self.choice("takes").and_then(|c| Colour::parse(&c)) {
                    if !c.is_plastic() || self.s.players[me].tokens.get(c) > 2 {
                        self.illegal(rule, format!("Begging gains a Plastic Token of a colour the player holds at most two of, not {}", c.name()));
                    } else {
                        self.gain(&[(1, c)]);
                        self.changes.push(format!(
                            "{} begs a {} Token (Rule 1.7.61)",
                            self.s.players[me].name,
                            c.name()
                        ));
                    }
                }
                true
            }
            Action::Busking => {
                self.busk(rule);
                true
            }
            Action::MindTheGap | Action::IgnoreTheGap => {
                let on = matches!(a, Action::MindTheGap);
                self.s.set(Disruption::Gapminding, on);
                self.changes.push(format!(
                    "the game is {}Gapminding (Rule 1.8.7)",
                    if on { "" } else { "no longer " }
                ));
                true
            }
            Action::Sgronk => {
                if !self.s.has(&Disruption::Sgronk) {
                    self.s.disruptions.push(Disruption::Sgronk);
                }
                self.changes
                    .push("the game is in Sgronk (Rule 1.8.10)".into());
                true
            }
            Action::RemovingBulkhead { station } => {
                let name = station.station.clone();
                let at = self
                    .s
                    .disruptions
                    .iter()
                    .position(|d| matches!(d, Disruption::Station { station: s, mark: StationMark::Bulkhead } if *s == name));
                match at {
                    Some(i) => {
                        self.s.disruptions.remove(i);
                        self.changes
                            .push(format!("the Bulkhead at {name} is removed (Rule 1.9.3)"));
                    }
                    None => self.illegal(rule, format!("{name} is not Bulkheaded")),
                }
                true
            }
            Action::UnMaelberging => {
                // The Maelberging player's 1 Blue comes back to the Actioning
                // player (Rule 1.9.5, RULINGS.md E26).
                let here = self.here().map(|h| self.name(h).to_string());
                let at = here.as_ref().and_then(|n| {
                    self.s
                        .disruptions
                        .iter()
                        .position(|d| matches!(d, Disruption::Station { station: s, mark: StationMark::Maelberg } if s == n))
                });
                match at {
                    Some(i) => {
                        self.s.disruptions.remove(i);
                        self.gain(&[(1, Colour::Blue)]);
                        self.changes.push(format!(
                            "{} is un-Maelberged (Rule 1.9.5)",
                            here.unwrap_or_default()
                        ));
                    }
                    None => self.illegal(rule, "the Piece is not at a Maelberged station"),
                }
                self.duration(a);
                return;
            }
            Action::StubLink => {
                let me_p = &self.s.players[me];
                if !self.started_at.is_some_and(|s| me_p.has_stub(self.map, s)) {
                    self.illegal(
                        rule,
                        "a Stub Link starts at a station whose Ticket Stub the player owns",
                    );
                }
                self.special = Some(Special::StubLink);
                true
            }
            Action::GivingTokens { player } => {
                match self.s.player_index(player).filter(|&v| v != me) {
                    _ if is_drone(&self.s.players[me].name) => {
                        self.illegal(rule, "the Drone may not give Tokens")
                    }
                    None => {
                        self.illegal(rule, format!("{player} is not another player of this game"))
                    }
                    Some(v) => match self.choice("gives").and_then(|t| parse_token_list(&t)) {
                        None => self.illegal(
                            rule,
                            "the Tokens given are named in a comment, e.g. {gives 2Re,1Bu}",
                        ),
                        Some(list) => {
                            let before = self.spent.len();
                            self.pay(&a.render(), rule, &list.0);
                            // Given Tokens go to the player, not to a Stack.
                            self.spent.truncate(before);
                            for (n, c) in &list.0 {
                                let have = self.s.players[v].tokens.get(*c);
                                self.s.players[v].tokens.set(*c, have.saturating_add(*n));
                            }
                            self.changes.push(format!(
                                "{} gives {} to {player} (Rule 1.7.27)",
                                self.s.players[me].name, list
                            ));
                        }
                    },
                }
                self.duration(a);
                return;
            }
            Action::Recycling => {
                self.recycle(rule);
                self.duration(a);
                return;
            }
            Action::Ghosting => {
                self.special = Some(Special::Ghosting);
                true
            }
            Action::Striling | Action::Declension => {
                if self.s.players[me].lv < 6 {
                    self.illegal(rule, format!("{} needs an LV of six or more", a.render()));
                }
                self.special = Some(if matches!(a, Action::Striling) {
                    Special::Strile
                } else {
                    Special::Declension
                });
                true
            }
            Action::Freewheeling => {
                let high = self.started_at.is_some_and(|s| {
                    let c = self.map.station(s).categories;
                    c.contains(Category::High) || c.contains(Category::Hill)
                });
                if high {
                    self.s.players[me].lv += 1;
                } else {
                    self.illegal(rule, "[Freewheeling] is played at a High or Hill Station");
                }
                true
            }
            Action::NightTrain => {
                // The index's "-1 Bu" is read as a cost of one Blue (RULINGS.md E27).
                let cost = self.with_bocks(a, vec![(1, Colour::Blue)]);
                self.pay(&a.render(), rule, &cost);
                self.s.time.night_train = true;
                self.changes
                    .push("Night Train: the next 0000-0500 skip is ignored (Rule 1.13.1)".into());
                self.duration(a);
                return;
            }
            Action::Bonanza => {
                // Ten Plastic Tokens of one colour for a Gold, an exchange
                // (nothing is stacked). The colour is the only one the player
                // holds ten of, or is named `{pays Red}` (RULINGS.md E32).
                let enough: Vec<Colour> = Colour::ALL
                    .into_iter()
                    .filter(|c| c.is_plastic() && self.s.players[me].tokens.get(*c) >= 10)
                    .collect();
                let named = self.choice("pays").map(|w| {
                    Colour::parse(w.trim_start_matches("10 ").trim_end_matches(" Tokens"))
                });
                let colour = match (named, enough.as_slice()) {
                    (Some(Some(c)), _) if c.is_plastic() => Some(c),
                    (Some(_), _) => {
                        self.illegal(
                            rule,
                            "[Bonanza] is paid with Plastic Tokens: Black, Blue, Green or Red",
                        );
                        return;
                    }
                    (None, [one]) => Some(*one),
                    (None, []) => None,
                    (None, _) => {
                        self.illegal(
                            rule,
                            "the player holds ten of several Plastic colours: a comment names the one paid, e.g. {pays Red}",
                        );
                        return;
                    }
                };
                match colour {
                    Some(c) => {
                        let before = self.spent.len();
                        let cost = self.with_bocks(a, vec![(10, c)]);
                        self.pay(&a.render(), rule, &cost);
                        self.spent.truncate(before);
                        self.gain(&[(1, Colour::Gold)]);
                        self.changes.push(format!("10 {} -> 1 Gold (Rule 1.4.10)", c.name()));
                    }
                    None => self.illegal(
                        rule,
                        "[Bonanza] costs ten Plastic Tokens of one colour; the player holds ten of none",
                    ),
                }
                self.duration(a);
                return;
            }
            Action::PollTax => {
                // Paid first (2 Gold); then every player, the taxer included,
                // loses one Token of each colour e holds (RULINGS.md E32).
                let cost = self.with_bocks(a, vec![(2, Colour::Gold)]);
                self.pay(&a.render(), rule, &cost);
                for p in self.s.players.iter_mut() {
                    for c in Colour::ALL {
                        let n = p.tokens.get(c);
                        if n > 0 {
                            p.tokens.set(c, n - 1);
                        }
                    }
                }
                self.changes.push(
                    "Poll Tax: every player loses one Token of each colour (Rule 1.4.37)".into(),
                );
                self.duration(a);
                return;
            }
            Action::SingleHelsinki | Action::DoubleHelsinki | Action::TripleHelsinki => {
                let n = match a {
                    Action::SingleHelsinki => 1,
                    Action::DoubleHelsinki => 2,
                    _ => 3,
                };
                if self.helsinki {
                    self.illegal(rule, "no more than one Helsinki Action per Turn");
                    return;
                }
                self.helsinki = true;
                let cost = self.with_bocks(a, vec![(3 * n as u32, Colour::Blue)]);
                self.pay(&a.render(), rule, &cost);
                for (_, stack) in self.s.stacks.iter_mut() {
                    stack.drain(..n.min(stack.len()));
                }
                self.s.stacks.retain(|(_, st)| !st.is_empty());
                self.changes.push(format!(
                    "the bottom {n} Token(s) of every Token Stack are destroyed (Rule 1.7.57)"
                ));
                self.duration(a);
                return;
            }
            Action::HydeTransformation => {
                // The Hyde Mask is a Unique Garment, put on by the
                // Transformation (RULINGS.md E34).
                let here = self.here();
                let taken = self.s.players.iter().any(|p| p.carries(HYDE_MASK));
                if !here.is_some_and(|h| self.map.is(h, Landmark::HydeParkCorner)) {
                    self.illegal(rule, "[Hyde Transformation] is played at Hyde Park Corner");
                    return;
                }
                // Paid in full: the Mask is gained only by the Action.
                let cost = self.with_bocks(a, vec![(1, Colour::Blue), (2, Colour::Red)]);
                self.pay(&a.render(), rule, &cost);
                if taken {
                    // A second Unique Mask is destroyed at once (Rule 1.4.23).
                    self.changes.push(
                        "the Hyde Mask is Unique and already in play: the new one is destroyed (Rule 1.4.23)".into(),
                    );
                } else {
                    self.s.players[me].possessions.push(crate::gsd::Possession {
                        item: Item::Named {
                            name: HYDE_MASK.into(),
                            stars: 0,
                        },
                        worn: true,
                        nantucket: false,
                    });
                    self.changes
                        .push("the Hyde Mask is worn (Rule 1.7.38)".into());
                }
                self.duration(a);
                return;
            }
            Action::Streaking => {
                // RULINGS.md E35: "-4 Re" is a cost of four Red, like Night
                // Train's "-1 Bu"; players at the stations the Move passed
                // through lose their loose Possessions.
                if !self.s.players[me].possessions.is_empty() {
                    self.illegal(
                        rule,
                        "[Streaking] is played by a player who carries no Possessions",
                    );
                    return;
                }
                let mut cost = vec![(4, Colour::Red)];
                let here = self.here();
                let finish = here.map(|h| self.map.station(h).name.clone());
                let caught = here.is_some_and(|h| {
                    [
                        Landmark::Arsenal,
                        Landmark::WembleyPark,
                        Landmark::Wimbledon,
                    ]
                    .into_iter()
                    .any(|l| self.map.is(h, l))
                });
                if caught {
                    cost.push((1, Colour::Bronze));
                }
                let cost = self.with_bocks(a, cost);
                self.pay(&a.render(), rule, &cost);
                let through = self.through.clone();
                let mut packages = false;
                for (i, p) in self.s.players.iter_mut().enumerate() {
                    if i == me || !p.at.is_some_and(|at| through.contains(&at.station)) {
                        continue;
                    }
                    let before = p.possessions.len();
                    p.possessions.retain(|x| {
                        let name = crate::gsd::possession_text(x);
                        if name.to_lowercase().contains("package") {
                            packages = true;
                        }
                        x.worn || x.nantucket || emporium::is_cursed(&name)
                    });
                    if p.possessions.len() != before {
                        self.changes.push(format!(
                            "{} is Streaked past and loses {} Possession(s) (Rule 1.7.60)",
                            p.name,
                            before - p.possessions.len()
                        ));
                    }
                }
                if packages {
                    self.ruling(rule, "a Suspect Package lost to Streaking may be dropped where its owner stands (Rule 1.4.7)");
                }
                if caught {
                    let tower = self.map.landmark(Landmark::TowerHill);
                    let p = &mut self.s.players[me];
                    p.possessions.push(crate::gsd::Possession {
                        item: Item::Named {
                            name: "Overcoat".into(),
                            stars: 0,
                        },
                        worn: false,
                        nantucket: false,
                    });
                    p.at = Some(Position {
                        station: tower,
                        line: None,
                    });
                    self.changes.push(format!(
                        "caught Streaking at {}: an Overcoat, and transported to Tower Hill (Rule 1.7.60)",
                        finish.unwrap_or_default()
                    ));
                }
                self.duration(a);
                return;
            }
            Action::Hoarding { tokens } => {
                self.hoard(&tokens.0, rule);
                self.duration(a);
                return;
            }
            Action::CompassWormhole { compass, station } => {
                self.wormhole(compass, station, rule);
                true
            }
            Action::Straddling { station } => {
                self.straddle(station, rule);
                true
            }
            Action::ChargeTunneling { station } => {
                self.charge_tunnel(station, rule);
                true
            }
            Action::PossessionOn { possession } | Action::PossessionOff { possession } => {
                self.switch(possession, matches!(a, Action::PossessionOn { .. }));
                true
            }
            Action::Waiting => {
                // Each [Waiting] states its length in a comment, in play order:
                // `{waits 0130}`, `{waits 2 hours}`; the time passes but does
                // not count against the 60-minute Turn (RULINGS.md E31).
                let k = self.waits;
                self.waits += 1;
                let stated: Vec<String> = self
                    .play
                    .comments()
                    .filter_map(|c| {
                        let lower = c.to_lowercase();
                        let at = lower.find("waits ")?;
                        Some(lower[at + 6..].trim().trim_end_matches('.').to_string())
                    })
                    .collect();
                let Some(text) = stated.get(k) else {
                    self.illegal(
                        rule,
                        "the comments state how long each [Waiting] lasts, in order: {waits 0130} or {waits 2 hours}",
                    );
                    return;
                };
                match parse_wait(text) {
                    Some(m) if (5..=7 * 24 * 60).contains(&m) => {
                        self.minutes += m;
                        self.extra_limit += m;
                        self.changes.push(format!(
                            "{} waits {m} minutes of Game Time (Rule 1.7.52)",
                            self.s.players[me].name
                        ));
                    }
                    Some(m) => self.illegal(
                        rule,
                        format!("[Waiting] lasts from five minutes to one week, not {m} minutes"),
                    ),
                    None => self.illegal(
                        rule,
                        format!("{{waits {text}}} is not a length of time: write {{waits 0130}} or {{waits 2 hours}}"),
                    ),
                }
                return;
            }
            Action::Electroplating => {
                // "Every other Player" is every other player in the Token
                // Table, Inactive ones included (RULINGS.md E30).
                let mine = self.s.players[me].charge;
                let near: Vec<String> = self
                    .s
                    .players
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| *i != me && (i64::from(p.charge) - i64::from(mine)).abs() < 50)
                    .map(|(_, p)| format!("{} ({:+}%)", p.name, p.charge))
                    .collect();
                if near.is_empty() {
                    self.gain(&[(1, Colour::Gold)]);
                } else {
                    self.illegal(
                        rule,
                        format!(
                            "[Electroplating] needs a Charge at least 50 from every other player's; {mine:+}% is within 50 of {}",
                            near.join(", ")
                        ),
                    );
                }
                true
            }
            Action::DurationExtension { time } => {
                // "[Duration: +0x00]": x whole hours for x Blue Tokens; the
                // Turn's Game Time and its 60-minute limit both grow by x
                // hours (RULINGS.md E30).
                let hours = (time.len() == 4
                    && time.bytes().all(|b| b.is_ascii_digit())
                    && time.ends_with("00"))
                .then(|| time[..2].parse::<u32>().ok())
                .flatten()
                .filter(|h| *h >= 1);
                match hours {
                    Some(h) => {
                        let cost = self.with_bocks(a, vec![(h, Colour::Blue)]);
                        self.pay(&a.render(), rule, &cost);
                        self.minutes += 60 * h;
                        self.extra_limit += 60 * h;
                        self.changes.push(format!(
                            "a Long Lunch: the Turn lasts {h} hour(s) longer (Rule 1.7.51)"
                        ));
                    }
                    None => self.illegal(
                        rule,
                        format!("[Duration: +{time}] extends a Turn by whole hours, written +0x00 (e.g. +0200)"),
                    ),
                }
                return;
            }
            Action::Visiting { place } => {
                let at_br = self
                    .here()
                    .is_some_and(|h| self.map.station(h).british_rail);
                if !matches!(self.play.the_move(), Move::Pass(_)) {
                    self.illegal(rule, "[Visiting] follows a Move of Pass");
                } else if !at_br {
                    self.illegal(rule, "[Visiting] is played at a British Rail Station");
                } else {
                    self.gain(&[(1, Colour::Gold)]);
                    self.s.visits.push(Visit {
                        player: self.s.players[me].name.clone(),
                        place: place.clone(),
                        late: false,
                    });
                    self.changes.push(format!(
                        "a visit to {place} earns a Gold Token (Rule 1.7.9)"
                    ));
                }
                true
            }
            Action::LateArrival { place } => {
                // Any British Rail Station in Great Britain: the map knows
                // only London's, so any Place is accepted.
                let by = self.s.players[me].name.clone();
                let late = self.s.late_arrival(&by, place);
                if !late.is_empty() {
                    self.changes.push(format!(
                        "a Late Arrival from {place}: {} must Pass with no Actions next Turn (Rule 1.7.9)",
                        late.join(", ")
                    ));
                }
                true
            }
            Action::Eating { .. }
            | Action::EatingOverpricedBaguette
            | Action::EatingBritishRailCoffee
            | Action::EatingMarmaladeSandwich => {
                let food = match a {
                    Action::Eating { possession } => possession.clone(),
                    Action::EatingOverpricedBaguette => "Overpriced Baguette".to_string(),
                    Action::EatingBritishRailCoffee => "British Rail Coffee".to_string(),
                    _ => "Marmalade Sandwich".to_string(),
                };
                let first = self
                    .play
                    .items
                    .iter()
                    .find(|i| !matches!(i, crate::gsd::PlayItem::Comment(_)));
                let at_start =
                    matches!(first, Some(crate::gsd::PlayItem::Action(x)) if std::ptr::eq(x, a));
                let good = emporium::good(&food).filter(|g| g.qualities.contains(&"Edible"));
                match (self.find_possession(&food), good) {
                    (_, None) => self.illegal("1.4.16", format!("{food} is not Edible")),
                    (None, _) => self.illegal("1.4.16", format!("the player carries no {food}")),
                    (Some(_), Some(_)) if !at_start => {
                        self.illegal("1.4.16", "Eating is done at the start of the Turn")
                    }
                    (Some(i), Some(g)) => {
                        self.s.players[me].possessions.remove(i);
                        if matches!(a, Action::EatingMarmaladeSandwich) {
                            // A Special Move to Paddington (Rule 1.4.16).
                            self.special = Some(Special::Paddington);
                        } else {
                            self.s.players[me].lv = self.s.players[me].lv.saturating_add(g.price);
                        }
                        self.changes.push(format!("{food} is eaten (Rule 1.4.16)"));
                        if g.name == "British Rail Coffee" {
                            // The rest of the Turn's Actions take half as
                            // long, not the Eating itself (RULINGS.md E47);
                            // Eating costs nothing.
                            self.duration(a);
                            self.coffee = true;
                            self.changes.push(
                                "British Rail Coffee: the rest of the Turn's Actions take half their durations (Rule 1.4.16)".into(),
                            );
                            return;
                        }
                    }
                }
                true
            }
            Action::SpeedCraze => {
                if !self.s.has(&Disruption::SpeedCraze) {
                    self.s.disruptions.push(Disruption::SpeedCraze);
                }
                self.changes
                    .push("a Speed Craze is in effect (Rule 1.8.13)".into());
                true
            }
            Action::CrazeSidestep => true,
            Action::TerminatingCraze => {
                let st = self.here().map(|h| self.map.station(h).categories);
                let high_or_hill =
                    st.is_some_and(|c| c.contains(Category::High) || c.contains(Category::Hill));
                if !self.s.has(&Disruption::SpeedCraze) {
                    self.illegal("1.8.13", "there is no Speed Craze to end");
                } else if !high_or_hill || self.s.players[me].lv != 10 {
                    self.illegal(
                        "1.8.13",
                        "a Speed Craze ends only from a High or Hill Station with LV 10",
                    );
                } else {
                    self.s.disruptions.retain(|d| *d != Disruption::SpeedCraze);
                    self.changes
                        .push("the Speed Craze ends (Rule 1.8.13)".into());
                }
                true
            }
            Action::Bock { colour } => {
                // 3 Blue and one Token of the Bock colour (grammar/actions.toml).
                let cost = self.with_bocks(a, vec![(3, Colour::Blue), (1, *colour)]);
                self.pay(&a.render(), rule, &cost);
                if !self.s.has(&Disruption::Bock(*colour)) {
                    self.s.disruptions.push(Disruption::Bock(*colour));
                }
                self.changes.push(format!(
                    "the game is in {} Bock (Rule 1.8.8)",
                    colour.name()
                ));
                self.duration(a);
                return;
            }
            Action::UnBockColour { colour } => {
                if !self.s.has(&Disruption::Bock(*colour)) {
                    self.illegal(
                        "1.8.8",
                        format!("the game is not in {} Bock", colour.name()),
                    );
                } else {
                    self.s
                        .disruptions
                        .retain(|d| *d != Disruption::Bock(*colour));
                    self.gain(&[(1, *colour)]);
                    self.changes
                        .push(format!("{} Bock ends (Rule 1.8.8)", colour.name()));
                }
                true
            }
            Action::UnBock => {
                self.s
                    .disruptions
                    .retain(|d| !matches!(d, Disruption::Bock(_)));
                self.changes.push("every Bock ends (Rule 1.8.8)".into());
                true
            }
            Action::LineNormal { line }
            | Action::LineOneWay { line, .. }
            | Action::LineElectrified { line } => {
                if !self.on_line(*line, before_move) {
                    self.illegal(
                        rule,
                        format!("the Piece must be at a station of the {line} (Rule 1.20.0)"),
                    );
                } else {
                    if let Action::LineOneWay { direction, .. } = a {
                        let named = &self.map.line(*line).direction;
                        let reverse = match named.as_str() {
                            "N-S" => "S-N",
                            "E-W" => "W-E",
                            _ => "Anti-Clockwise",
                        };
                        if direction != named && direction != reverse {
                            self.illegal(
                                "1.20.2",
                                format!("the {line} runs {named} or {reverse}, not {direction}"),
                            );
                            return;
                        }
                    }
                    let state = match a {
                        Action::LineOneWay { direction, .. } => {
                            Some(LineState::OneWay(direction.clone()))
                        }
                        Action::LineElectrified { .. } => Some(LineState::Electrified),
                        _ => None,
                    };
                    // A new State replaces the line's other States, but not
                    // its Speed Limit (Rule 1.20.1).
                    let l = *line;
                    self.s
                        .disruptions
                        .retain(|d| !matches!(d, Disruption::Line { line: x, state } if *x == l && !matches!(state, LineState::SpeedLimit(_))));
                    if let Some(st) = state {
                        self.changes
                            .push(format!("the {l} is {st:?} (Rule {rule})"));
                        self.s
                            .disruptions
                            .push(Disruption::Line { line: l, state: st });
                    } else {
                        self.changes
                            .push(format!("the {l} is back to Normal (Rule 1.20.1)"));
                    }
                }
                true
            }
            Action::UpcomingHoliday => {
                if self
                    .s
                    .disruptions
                    .iter()
                    .any(|d| matches!(d, Disruption::UpcomingHoliday(_)))
                {
                    self.illegal(
                        rule,
                        "a Holiday is already Upcoming (Disruptions box): one at a time",
                    );
                } else {
                    self.s.disruptions.push(Disruption::UpcomingHoliday(None));
                    self.changes.push(
                        "a Holiday is Upcoming: the player rolls a die after the Turn, and the next player records the day as {rolled N} (Rule 1.13.7)".into(),
                    );
                }
                true
            }
            Action::ClaimingDroneStick => {
                self.claim_drone_stick();
                true
            }
            Action::LinePowerFailure { line } | Action::LineSoaped { line } => {
                self.one_round_state(a, *line, before_move);
                true
            }
            Action::LineSpeedLimit { line, n } => {
                if !self.on_line(*line, before_move) {
                    self.illegal(
                        rule,
                        format!("the Piece must be at a station of the {line} (Rule 1.20.0)"),
                    );
                } else if *n < 0 {
                    self.illegal(rule, "a Speed Limit is not negative");
                } else if *n > i64::from(crate::gsd::parse::MAX_LV) {
                    self.illegal(rule, "a Speed Limit is at most 999");
                } else {
                    let old = self.speed_limit(*line);
                    let l = *line;
                    // The cost is the difference between the Limits, in Blue.
                    let diff = (old as i64 - *n).unsigned_abs() as u32;
                    let cost = self.with_bocks(a, vec![(diff, Colour::Blue)]);
                    self.pay(&a.render(), rule, &cost);
                    self.s
                        .disruptions
                        .retain(|d| !matches!(d, Disruption::Line { line: x, state: LineState::SpeedLimit(_) } if *x == l));
                    self.s.disruptions.push(Disruption::Line {
                        line: l,
                        state: LineState::SpeedLimit(*n as u32),
                    });
                    self.changes
                        .push(format!("the {l} has a Speed Limit of {n} (Rule 1.20.4)"));
                }
                self.duration(a);
                return;
            }
            Action::TokenOn { colour, station } => {
                self.token_on(*colour, &station.station);
                self.duration(a);
                return;
            }
            Action::ClaimingToken { colour, station } => {
                self.claim(*colour, &station.station);
                self.duration(a);
                return;
            }
            Action::Bulkheading { station } => {
                let Some(id) = self.map.find(&station.station) else {
                    return;
                };
                let from = if before_move {
                    self.started_at
                } else {
                    self.here()
                };
                if !from.is_some_and(|f| self.adjacent(f, id)) {
                    self.illegal(
                        "1.9.3",
                        format!(
                            "{} is not adjacent to the Piece (Fosdyke S1)",
                            station.station
                        ),
                    );
                } else {
                    self.mark(
                        &station.station,
                        StationMark::Bulkhead,
                        "Bulkheaded",
                        "1.9.3",
                    );
                }
                true
            }
            Action::Pegging { station } | Action::Unpegging { station } => {
                let pegging = matches!(a, Action::Pegging { .. });
                let Some(id) = self.map.find(&station.station) else {
                    return;
                };
                if before_move {
                    self.illegal(
                        "1.11.4",
                        format!("{} is played after the Move (Rule 1.11.4)", a.render()),
                    );
                } else if pegging {
                    let touched = self.started_at == Some(id)
                        || self.through.contains(&id)
                        || self.here().is_some_and(|h| self.adjacent(h, id));
                    if !touched {
                        self.illegal("1.11.4", format!("{} is not a station the Piece started at, passed through, or is adjacent to", station.station));
                    } else if self
                        .s
                        .players
                        .iter()
                        .any(|p| p.at.is_some_and(|x| x.station == id))
                    {
                        self.illegal(
                            "1.11.4",
                            format!("{} holds a Piece and cannot be Pegged", station.station),
                        );
                    } else {
                        self.mark(&station.station, StationMark::Peg, "Pegged", "1.11.4");
                    }
                } else {
                    let touched = self.through.contains(&id)
                        || self.here().is_some_and(|h| self.adjacent(h, id));
                    let at = self
                        .s
                        .disruptions
                        .iter()
                        .position(|d| matches!(d, Disruption::Station { station: s, mark: StationMark::Peg } if *s == station.station));
                    match (touched, at) {
                        (false, _) => self.illegal(
                            "1.11.4",
                            format!(
                                "{} is not a station the Piece passed through or is adjacent to",
                                station.station
                            ),
                        ),
                        (true, None) => {
                            self.illegal("1.11.4", format!("{} is not Pegged", station.station))
                        }
                        (true, Some(i)) => {
                            self.s.disruptions.remove(i);
                            self.changes
                                .push(format!("{} is Unpegged (Rule 1.11.4)", station.station));
                            // So is every Pegged Line Segment it ends (Rule 1.11.5).
                            let name = &station.station;
                            let before = self.s.disruptions.len();
                            self.s.disruptions.retain(|d| !matches!(d, Disruption::PeggedSegment { from, to, .. } if from == name || to == name));
                            if self.s.disruptions.len() != before {
                                self.changes.push(format!(
                                    "the Line Segments ending at {name} are Unpegged (Rule 1.11.5)"
                                ));
                            }
                        }
                    }
                }
                true
            }
            Action::PeggingSegment {
                station,
                station_2,
                line,
            } => {
                self.peg_segment(a, &station.station, &station_2.station, *line);
                self.duration(a);
                return;
            }
            Action::Maelberging { station } => {
                let Some(id) = self.map.find(&station.station) else {
                    return;
                };
                if !self.through.contains(&id) {
                    self.illegal(
                        "1.9.5",
                        format!(
                            "{} is not a station the Piece passed through this Turn",
                            station.station
                        ),
                    );
                } else {
                    self.mark(
                        &station.station,
                        StationMark::Maelberg,
                        "Maelberged",
                        "1.9.5",
                    );
                }
                true
            }
            Action::FireAtOther { station } | Action::FireAtInterchange { station } => {
                let Some(id) = self.map.find(&station.station) else {
                    return;
                };
                let near =
                    self.through.contains(&id) || self.here().is_some_and(|h| self.adjacent(h, id));
                if !near {
                    self.illegal(
                        "1.9.2",
                        format!(
                            "{} is neither passed through this Turn nor adjacent to the Piece",
                            station.station
                        ),
                    );
                } else if self
                    .s
                    .players
                    .iter()
                    .any(|p| p.at.is_some_and(|x| x.station == id))
                {
                    self.illegal(
                        "1.9.2",
                        format!(
                            "{} is occupied: a Fire is spotted at an unoccupied station",
                            station.station
                        ),
                    );
                } else {
                    // Blocked for one Round and Lightly Damaged; a Fire ends a Bulkhead (Rule 1.9.3).
                    self.s.blocks.push(Block {
                        station: id,
                        by: self.s.players[me].name.clone(),
                    });
                    self.blocks_placed += 1;
                    let name = station.station.clone();
                    self.s.disruptions.retain(|d| !matches!(d, Disruption::Station { station: s, mark: StationMark::Bulkhead } if *s == name));
                    self.s.disruptions.push(Disruption::Station {
                        station: name.clone(),
                        mark: StationMark::Damage,
                    });
                    self.changes.push(format!(
                        "Fire at {name}: Blocked for one Round and Lightly Damaged (Rule 1.9.2)"
                    ));
                }
                if matches!(a, Action::FireAtInterchange { .. }) {
                    // The index: 4 Red, and 10 minutes per line serving the
                    // Interchange, or as the game chooses (RULINGS.md E42).
                    let lines = self.map.station(id).lines.iter().count() as u32;
                    let (red, minutes) = match self.s.rulings.interchange_fire {
                        InterchangeFire::MinutesPerLine => (4, 10 * lines),
                        InterchangeFire::RedPerLine => (4 * lines, 10),
                    };
                    let cost = self.with_bocks(a, vec![(red, Colour::Red)]);
                    self.pay(&a.render(), rule, &cost);
                    self.action_minutes(minutes);
                    return;
                }
                true
            }
            _ => false,
        };
        if !implemented {
            self.ruling(
                rule,
                format!("{} is not yet adjudicated by mornbot", a.render()),
            );
            return;
        }
        match Self::table_cost(a) {
            Some(cost) => {
                let cost = self.with_bocks(a, cost);
                self.pay(&a.render(), rule, &cost)
            }
            None => self.ruling(
                rule,
                format!(
                    "the cost of {} ({}) is not a fixed token list",
                    a.render(),
                    spec.cost.unwrap_or("")
                ),
            ),
        }
        self.duration(a);
    }

    /// [Home: <Station>] (Rule 1.12.2).
    fn declare_home(&mut self, name: &str) {
        let me = self.me;
        let Some(id) = self.map.find(name) else {
            self.illegal("1.12.2", format!("{name} is not a station of the map"));
            return;
        };
        if self.s.players[me].home.is_some() {
            self.illegal(
                "1.12.2",
                "a Home Station is declared only by a player who has none",
            );
            return;
        }
        if is_drone(&self.s.players[me].name) {
            self.illegal("1.15.1", "the Drone has no Home Station");
            return;
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
            return;
        }
        self.s.players[me].home = Some(id);
        self.declared_home = true;
        self.changes.push(format!(
            "{}'s Home Station is {} (Rule 1.12.2)",
            self.s.players[me].name, st.name
        ));
    }

    /// [Blocking <Station>] (Rule 1.9.1): an unoccupied station adjacent to
    /// the Piece, Blocked for one Round; the nth Block of a Turn costs n Red.
    fn block(&mut self, name: &str) {
        let me = self.me;
        let Some(id) = self.map.find(name) else {
            return;
        };
        let Some(at) = self.s.players[me].at else {
            self.illegal("1.9.1", "a Piece off the Map cannot Block");
            return;
        };
        let adjacent = crate::map::LineCode::ALL
            .iter()
            .any(|&l| self.map.neighbours(at.station, l).contains(&id));
        if !adjacent {
            let near: Vec<String> = LineCode::ALL
                .iter()
                .flat_map(|&l| {
                    self.map
                        .neighbours(at.station, l)
                        .iter()
                        .map(|&n| self.map.station(n).name.clone())
                })
                .collect();
            self.illegal(
                "1.9.1",
                format!(
                    "{name} is not adjacent to {}; adjacent stations: {}",
                    self.name(at.station),
                    near.join(", ")
                ),
            );
        }
        if self
            .s
            .players
            .iter()
            .any(|p| p.at.is_some_and(|a| a.station == id))
        {
            self.illegal(
                "1.9.1",
                format!("{name} is occupied: only an unoccupied station can be Blocked"),
            );
        }
        self.blocks_placed += 1;
        let n = self.blocks_placed;
        if !self.s.players[me].has_stub(self.map, id) {
            let cost = self.bock_surcharge(vec![(n, Colour::Red)]);
            self.pay(
                &format!("Block number {n} of the Turn ([Blocking {name}])"),
                "1.9.1",
                &cost,
            );
        }
        self.action_minutes(10);
        self.s.blocks.push(Block {
            station: id,
            by: self.s.players[me].name.clone(),
        });
        self.changes
            .push(format!("{name} is Blocked for one Round (Rule 1.9.1)"));
    }

    /// `[<Line>: Power Failure!]` and `[<Line>: Soaped]` (Rules 1.20.5,
    /// 1.20.6): on the Line Code of the player's most recent Move, with the
    /// Piece on that line; the State replaces the line's others (not its
    /// Speed Limit) and lasts one Round.
    fn one_round_state(&mut self, a: &Action, line: LineCode, before_move: bool) {
        let rule = a.spec().rule;
        if !self.on_line(line, before_move) {
            self.illegal(
                rule,
                format!("the Piece must be at a station of the {line} (Rule 1.20.0)"),
            );
            return;
        }
        // The Piece's recorded line is the Line Code of its most recent
        // Move: this Turn's after the Move, the last one's before it.
        let last = self.s.players[self.me].at.and_then(|p| p.line);
        if last != Some(line) {
            let had = last.map_or("no Line Code".to_string(), |l| format!("the {l}"));
            self.illegal(
                rule,
                format!(
                    "{} names the Line Code of the player's most recent Move, which was {had}",
                    a.render()
                ),
            );
            return;
        }
        let (state, what) = match a {
            Action::LinePowerFailure { .. } => (LineState::PowerFailure, "has a Power Failure"),
            _ => (LineState::Soaped, "is Soaped"),
        };
        self.s.disruptions.retain(|d| !matches!(d, Disruption::Line { line: x, state } if *x == line && !matches!(state, LineState::SpeedLimit(_))));
        let d = Disruption::Line { line, state };
        self.s.disruptions.push(d.clone());
        self.s.timed.push(crate::engine::Timed {
            disruption: d,
            by: self.s.players[self.me].name.clone(),
        });
        self.timed_placed += 1;
        self.changes
            .push(format!("the {line} {what} for one Round (Rule {rule})"));
    }

    /// `[Claiming Drone Stick]` (Rule 1.15.2): the holder (if any) loses
    /// it, the claimer gains it; not while the Drone has taken no Turn
    /// since it was created or last taken from another Player.
    fn claim_drone_stick(&mut self) {
        let me = self.me;
        let holder = self.s.players.iter().position(|p| p.carries(DRONE_STICK));
        if holder == Some(me) {
            self.changes.push(format!(
                "{} already carries the Drone Stick (Rule 1.15.2)",
                self.s.players[me].name
            ));
            return;
        }
        if holder.is_some() && self.s.stick_fresh {
            self.illegal(
                "1.15.2",
                "the Drone has not taken a Turn since the Drone Stick was last taken: it cannot be claimed yet",
            );
            return;
        }
        let from = holder.map(|h| {
            let p = &mut self.s.players[h];
            p.possessions.retain(|x| !matches!(&x.item, Item::Named { name, .. } if name.eq_ignore_ascii_case(DRONE_STICK)));
            p.name.clone()
        });
        self.s.players[me]
            .possessions
            .push(crate::gsd::Possession::named(DRONE_STICK));
        self.s.stick_fresh = true;
        let name = self.s.players[me].name.clone();
        self.changes.push(match from {
            Some(f) => format!("{name} takes the Drone Stick from {f} (Rule 1.15.2)"),
            None => format!("{name} claims a new Drone Stick (Rule 1.15.2)"),
        });
    }

    /// A line with a Power Failure that serves `id` (Rule 1.20.5).
    fn power_failed(&self, id: StationId) -> Option<LineCode> {
        let st = self.map.station(id);
        self.s.disruptions.iter().find_map(|d| match d {
            Disruption::Line {
                line,
                state: LineState::PowerFailure,
            } if st.lines.contains(*line) => Some(*line),
            _ => None,
        })
    }

    /// Whether a line is Soaped (Rule 1.20.6).
    fn soaped(&self, line: LineCode) -> bool {
        self.s.has(&Disruption::Line {
            line,
            state: LineState::Soaped,
        })
    }

    /// Whether the Piece stands at a station of `line` (before or after its Move).
    fn on_line(&self, line: LineCode, before_move: bool) -> bool {
        let at = if before_move {
            self.started_at
        } else {
            self.here()
        };
        at.is_some_and(|s| self.map.station(s).lines.contains(line))
    }

    /// A line's Speed Limit (Rule 1.20.4; initially 10).
    fn speed_limit(&self, line: LineCode) -> u32 {
        self.s
            .disruptions
            .iter()
            .find_map(|d| match d {
                Disruption::Line {
                    line: l,
                    state: LineState::SpeedLimit(n),
                } if *l == line => Some(*n),
                _ => None,
            })
            .unwrap_or(10)
    }

    /// Adds one Token of each Bock colour to a cost (Rule 1.8.8), except for
    /// free Actions, exchanges, [Un-Bock], costs already in that colour, and
    /// a Piece at a station with the colour in its name.
    fn with_bocks(&self, a: &Action, cost: Vec<(u32, Colour)>) -> Vec<(u32, Colour)> {
        let exempt = matches!(
            a,
            Action::UnBock | Action::UnBockColour { .. } | Action::LineChange
        );
        if is_exchange(a) || exempt {
            return cost;
        }
        let mut cost = cost;
        // The Hyde Mask (Rule 1.7.38): one Red more to target its wearer,
        // one Red less for the wearer's own Actions.
        let target = match a {
            Action::Shunting { player, .. }
            | Action::DeadEndShunting { player, .. }
            | Action::PowerShunting { player, .. }
            | Action::StationaryShunting { player, .. }
            | Action::Huffing { player }
            | Action::Blonking { player }
            | Action::Shadowing { player } => Some(player.as_str()),
            _ => None,
        };
        if target.is_some_and(|t| {
            self.s
                .players
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(t) && p.wears(HYDE_MASK))
        }) {
            match cost.iter_mut().find(|(_, c)| *c == Colour::Red) {
                Some((n, _)) => *n += 1,
                None => cost.push((1, Colour::Red)),
            }
        }
        if self.hyde() {
            if let Some((n, _)) = cost.iter_mut().find(|(n, c)| *c == Colour::Red && *n > 0) {
                *n -= 1;
            }
        }
        self.bock_surcharge(cost)
    }

    /// The Bock surcharge on a non-free cost (Rule 1.8.8).
    fn bock_surcharge(&self, mut cost: Vec<(u32, Colour)>) -> Vec<(u32, Colour)> {
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

    /// Whether a step from `a` to `b` keeps to every One Way State: a segment
    /// of a One Way line, or the same pair of stations on another line (which
    /// touches it), only in the prescribed direction (Rule 1.20.2).
    fn one_way_allows(&self, a: StationId, b: StationId) -> bool {
        self.s.disruptions.iter().all(|d| match d {
            Disruption::Line {
                line,
                state: LineState::OneWay(dir),
            } => {
                let on_line = self.map.neighbours(a, *line).contains(&b);
                if !on_line {
                    return true;
                }
                let prescribed = if *dir == self.map.line(*line).direction {
                    crate::map::Direction::Forward
                } else {
                    crate::map::Direction::Backward
                };
                self.map
                    .steps(a, *line)
                    .iter()
                    .any(|s| s.to == b && s.leave == prescribed)
            }
            _ => true,
        })
    }

    /// A new day: the first Damaged station in Disruptions is repaired; a
    /// Heavily Damaged one becomes Lightly Damaged, listed anew (Rule 1.11.3).
    fn repair_damage(&mut self) {
        let first = self.s.disruptions.iter().position(|d| {
            matches!(
                d,
                Disruption::Station {
                    mark: StationMark::Damage | StationMark::HeavyDamage,
                    ..
                }
            )
        });
        if let Some(i) = first {
            if let Disruption::Station { station, mark } = self.s.disruptions.remove(i) {
                if mark == StationMark::HeavyDamage {
                    self.changes.push(format!(
                        "a new day: {station} is now Lightly Damaged (Rule 1.11.3)"
                    ));
                    self.s.disruptions.push(Disruption::Station {
                        station,
                        mark: StationMark::Damage,
                    });
                } else {
                    self.changes
                        .push(format!("a new day: {station} is repaired (Rule 1.11.3)"));
                }
            }
        }
    }

    /// A Special Move to a Ghost Station: only by [Ghosting], to an empty one
    /// (Rule 1.11.6); its Current is 50.
    fn ghosting_move(&mut self, ghost: &str) {
        let me = self.me;
        if self.special != Some(Special::Ghosting) {
            self.illegal(
                "1.11.6",
                format!("{ghost} is a Ghost Station: it is reached only by [Ghosting]"),
            );
            return;
        }
        if self
            .s
            .players
            .iter()
            .any(|p| p.ghost.as_deref() == Some(ghost))
        {
            self.illegal("1.11.6", format!("the Ghost Station {ghost} is not empty"));
            return;
        }
        let from = self.s.players[me]
            .at
            .map(|a| self.map.station(a.station).current as i32)
            .unwrap_or(self.map.ghost_current() as i32);
        let p = &mut self.s.players[me];
        p.charge = p
            .charge
            .saturating_add(self.map.ghost_current() as i32 - from)
            .clamp(-999, 999);
        p.at = None;
        p.ghost = Some(ghost.to_string());
        p.lv = 0;
        self.changes.push(format!(
            "{} slips away to the Ghost Station {ghost} (Rule 1.11.6)",
            self.s.players[me].name
        ));
    }

    /// `[Pegging from <Station> to <Station> <Line>]` (Rule 1.11.5): right
    /// after Pegging one end, between two Pegged Stations of the Line along
    /// it without a change of direction, no Piece on it and no overlap with
    /// another Pegged Segment; 1 Blue per unpegged Station in it.
    fn peg_segment(&mut self, a: &Action, from: &str, to: &str, line: LineCode) {
        let map = self.map;
        let (Some(x), Some(y)) = (map.find(from), map.find(to)) else {
            return;
        };
        let prev = self
            .play
            .actions_after()
            .take_while(|p| !std::ptr::eq(*p, a))
            .last();
        let follows = matches!(prev, Some(Action::Pegging { station })
            if station.station.eq_ignore_ascii_case(from) || station.station.eq_ignore_ascii_case(to));
        if !follows {
            self.illegal(
                "1.11.5",
                format!(
                    "{} must immediately follow the [Pegging] of {from} or {to} in the same Turn",
                    a.render()
                ),
            );
            return;
        }
        let mut why = Vec::new();
        for (id, name) in [(x, from), (y, to)] {
            if !self.pegged(id) {
                why.push(format!("{name} is not Pegged"));
            }
            if !map.station(id).lines.contains(line) {
                why.push(format!("{name} is not on the {line}"));
            }
        }
        if !why.is_empty() || x == y {
            if x == y {
                why.push("a Line Segment joins two different Stations".into());
            }
            self.illegal("1.11.5", why.join("; "));
            return;
        }
        // A continuous route along the line with no change of direction.
        let stations = segment_stations(map, line, x, y);
        let len = stations.len().saturating_sub(1) as u32;
        let yes = |_: StationId| true;
        let open = |_: StationId, _: Option<LineCode>| true;
        let seg = |_: LineCode, _: StationId, _: StationId| true;
        let near = |_: StationId, _: LineCode| false;
        let rules = Rules {
            enterable: &yes,
            passable: &yes,
            open: &open,
            segment_open: &seg,
            may_change: false,
            rebounding: false,
            next_to_block: &near,
            no_turn_back: true,
        };
        if stations.is_empty()
            || !search(map, &rules, x, Some(line), &[line], y, len, len)
                .lengths
                .contains(&len)
        {
            self.illegal(
                "1.11.5",
                format!(
                    "{from} and {to} are not joined along the {line} without a change of direction"
                ),
            );
            return;
        }
        if let Some(p) = self
            .s
            .players
            .iter()
            .find(|p| p.at.is_some_and(|at| stations.contains(&at.station)))
        {
            self.illegal(
                "1.11.5",
                format!("{}'s Piece rests on the Line Segment", p.name),
            );
            return;
        }
        let overlaps = self.s.disruptions.iter().any(|d| match d {
            Disruption::PeggedSegment {
                from: f,
                to: t,
                line: l,
            } if *l == line => match (map.find(f), map.find(t)) {
                (Some(f), Some(t)) => {
                    segment_stations(map, line, f, t)
                        .iter()
                        .filter(|s| stations.contains(s))
                        .count()
                        >= 2
                }
                _ => false,
            },
            _ => false,
        });
        if overlaps {
            self.illegal(
                "1.11.5",
                "the Line Segment overlaps another Pegged Line Segment",
            );
            return;
        }
        let unpegged = stations.iter().filter(|s| !self.pegged(**s)).count() as u32;
        if unpegged > 0 {
            let cost = self.with_bocks(a, vec![(unpegged, Colour::Blue)]);
            self.pay(&a.render(), "1.11.5", &cost);
        }
        self.s.disruptions.push(Disruption::PeggedSegment {
            from: map.station(x).name.clone(),
            to: map.station(y).name.clone(),
            line,
        });
        self.changes.push(format!(
            "{from} to {to} ({line}) is Pegged: {} Stations (Rule 1.11.5)",
            stations.len()
        ));
    }

    /// Records a station mark in Disruptions (Rules 1.9.3, 1.9.5, 1.11.4, 1.11.7).
    fn mark(&mut self, station: &str, mark: StationMark, what: &str, rule: &str) {
        self.s.disruptions.push(Disruption::Station {
            station: station.to_string(),
            mark,
        });
        self.changes
            .push(format!("{station} is {what} (Rule {rule})"));
    }

    /// The Piece's station now.
    fn here(&self) -> Option<StationId> {
        self.s.players[self.me].at.map(|a| a.station)
    }

    fn adjacent(&self, a: StationId, b: StationId) -> bool {
        LineCode::ALL
            .iter()
            .any(|&l| self.map.neighbours(a, l).contains(&b))
    }

    /// [<Station> Wild] (Rule 1.11.1).
    fn station_wild(&mut self, name: &str) {
        let Some(id) = self.map.find(name) else {
            return;
        };
        let mc = self.map.landmark(Landmark::MorningtonCrescent);
        if self.map.route_distance(id, mc).is_some_and(|d| d <= 3) {
            self.illegal(
                "1.11.1",
                format!(
                    "{name} is within three stations of Mornington Crescent and cannot be Wild"
                ),
            );
            return;
        }
        self.s.wild.push(id);
        if self.s.wild.len() > 3 {
            let gone = self.s.wild.remove(0);
            self.changes
                .push(format!("{} is no longer Wild", self.name(gone)));
        }
        self.changes.push(format!("{name} is Wild (Rule 1.11.1)"));
    }

    /// Game Time now, within the Turn: the Turn's start plus the minutes of
    /// the Actions so far (Actions happen in written order, Rule 1.2.0).
    fn now(&self) -> crate::gsd::GameTime {
        advance(self.s.time, self.minutes)
    }

    /// The Turn after `[Upcoming Holiday]` records the die (Rule 1.13.7),
    /// written as a comment `{rolled N}`: 1 Monday ... 6 Saturday. The
    /// firstcoming such day is the Holiday (not today's, RULINGS.md E44).
    fn record_holiday(&mut self) {
        let pending = self
            .s
            .disruptions
            .iter()
            .position(|d| *d == Disruption::UpcomingHoliday(None));
        let rolled = self.play.comments().find_map(|c| {
            let rest = c.trim().strip_prefix("rolled")?.trim();
            Some(rest.parse::<u8>().ok())
        });
        let Some(rolled) = rolled else {
            return;
        };
        let Some(i) = pending else {
            self.illegal(
                "1.13.7",
                "no Holiday is waiting for its die roll ({rolled N} records one after [Upcoming Holiday])",
            );
            return;
        };
        // chrono numbers Monday 0: the die's 1 to 6 are Monday to Saturday.
        let Some(day) = rolled
            .filter(|n| (1..=6).contains(n))
            .and_then(|n| Weekday::try_from(n - 1).ok())
        else {
            self.illegal("1.13.7", "a six-sided die rolls 1 to 6 ({rolled N})");
            return;
        };
        self.s.disruptions[i] = Disruption::UpcomingHoliday(Some(day));
        self.s.holiday_wait = day == self.s.time.day;
        self.changes.push(format!(
            "the firstcoming {} is a Holiday, like a Sunday (Rule 1.13.7)",
            crate::gsd::day_name(day)
        ));
    }

    /// Whether the station is a Holiday-or-Sunday for opening hours.
    fn opening_day(&self) -> Weekday {
        let today = self.now().day;
        // Recorded on its own weekday, the Holiday is the next one.
        let waiting = self.s.holiday_wait && today == self.s.time.day;
        let holiday = !waiting
            && self
                .s
                .disruptions
                .iter()
                .any(|d| matches!(d, Disruption::UpcomingHoliday(Some(h)) if *h == today));
        if holiday {
            Weekday::Sun
        } else {
            today
        }
    }

    fn pegged(&self, id: StationId) -> bool {
        if self.s.has_mark(self.map, id, StationMark::Peg) {
            return true;
        }
        let name = &self.map.station(id).name;
        self.s.disruptions.iter().any(|d| match d {
            Disruption::PeggedSegment { from, to, line } => {
                let (Some(a), Some(b)) = (self.map.find(from), self.map.find(to)) else {
                    return false;
                };
                segment_stations(self.map, *line, a, b)
                    .iter()
                    .any(|s| self.map.station(*s).name == *name)
            }
            _ => false,
        })
    }

    /// Blocked for this player now (Rules 1.9.1, 1.9.3, 1.11.3, 1.12.3).
    /// [<Compass> Wormhole to <Station>] (Rule 1.7.13): the compass word is
    /// a word of both names; the Piece is Translocated (Rule 1.5.13).
    fn wormhole(&mut self, compass: &str, target: &crate::gsd::Target, rule: &str) {
        let has_word = |name: &str| {
            name.split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case(compass))
        };
        let Some(here) = self.here() else {
            self.illegal(rule, "a Wormhole starts from the Piece's Station");
            return;
        };
        let here_name = self.name(here).to_string();
        if !has_word(&here_name) {
            self.illegal(
                rule,
                format!("\"{compass}\" is not a word of {here_name}, the Piece's Station"),
            );
            return;
        }
        if !has_word(&target.station) {
            self.illegal(
                rule,
                format!("\"{compass}\" is not a word of {}", target.station),
            );
            return;
        }
        self.translocate(target, here, rule);
    }

    /// The station an Action's target names, or a violation of `rule`
    /// saying it is not one of the map.
    fn target_station(&mut self, target: &crate::gsd::Target, rule: &str) -> Option<StationId> {
        let id = self.map.find(&target.station);
        if id.is_none() {
            self.illegal(
                rule,
                format!("{} is not a station of the map", target.station),
            );
        }
        id
    }

    /// [Charge Tunneling to <Station>] (Rule 1.19.4): a Translocation to a
    /// station of the same Current as the Piece's, never Mornington Crescent.
    fn charge_tunnel(&mut self, target: &crate::gsd::Target, rule: &str) {
        let Some(here) = self.here() else {
            self.illegal(rule, "Charge Tunneling starts from the Piece's Station");
            return;
        };
        let Some(dest) = self.target_station(target, rule) else {
            return;
        };
        if self.map.is(dest, Landmark::MorningtonCrescent) {
            self.illegal(rule, "no Player may Charge Tunnel to Mornington Crescent");
            return;
        }
        let (mine, theirs) = (
            self.map.station(here).current,
            self.map.station(dest).current,
        );
        if mine != theirs {
            self.illegal(
                rule,
                format!(
                    "{} has a Current of {theirs}, {} one of {mine}: Charge Tunneling needs the same Current",
                    target.station,
                    self.name(here)
                ),
            );
            return;
        }
        self.translocate(target, here, rule);
    }

    /// [<Possession> On] / [<Possession> Off] (Rule 1.4.33): an Electrical
    /// Possession carried is switched; nothing is switched On on an
    /// Electrified line.
    fn switch(&mut self, possession: &str, on: bool) {
        let me = self.me;
        let want = emporium::switch_state(possession).0.to_ascii_lowercase();
        let found = self.s.players[me].possessions.iter().position(|p| {
            matches!(&p.item, Item::Named { name, .. } if emporium::switch_state(name).0.eq_ignore_ascii_case(&want))
        });
        let Some(i) = found else {
            self.illegal(
                "1.4.33",
                format!("{} carries no {possession}", self.s.players[me].name),
            );
            return;
        };
        let Item::Named { name, .. } = &self.s.players[me].possessions[i].item else {
            return;
        };
        if !emporium::good(name).is_some_and(|g| g.qualities.contains(&"Electrical")) {
            self.illegal("1.4.33", format!("{possession} is not Electrical"));
            return;
        }
        let (base, now_on) = emporium::switch_state(name);
        let word = if on { "On" } else { "Off" };
        if now_on == on {
            self.illegal("1.4.33", format!("{possession} is already {word}"));
            return;
        }
        if on && self.on_electrified(me) {
            self.illegal(
                "1.4.33",
                "the Piece is on an Electrified line: its Electrical Possessions are Off",
            );
            return;
        }
        let renamed = format!("{base} ({word})");
        if let Item::Named { name, .. } = &mut self.s.players[me].possessions[i].item {
            *name = renamed.clone();
        }
        self.changes.push(format!("{renamed} (Rule 1.4.33)"));
    }

    /// Whether player `i`'s Piece is on a line in an Electrified State.
    fn on_electrified(&self, i: usize) -> bool {
        self.s.players[i].at.and_then(|p| p.line).is_some_and(|l| {
            self.s.disruptions.contains(&Disruption::Line {
                line: l,
                state: LineState::Electrified,
            })
        })
    }

    /// Electrical Possessions of Pieces on an Electrified line are Off
    /// (Rule 1.4.33), checked as each Turn ends.
    fn electrified_off(&mut self) {
        for i in 0..self.s.players.len() {
            if !self.on_electrified(i) {
                continue;
            }
            for p in &mut self.s.players[i].possessions {
                if let Item::Named { name, .. } = &mut p.item {
                    if let (base, true) = emporium::switch_state(name) {
                        *name = format!("{base} (Off)");
                    }
                }
            }
        }
    }

    /// A Translocation (Rule 1.5.13): the Piece is shifted to `target`
    /// without passing through anything; the station must be one an
    /// ordinary Move could end at (not Blocked or Closed).
    fn translocate(&mut self, target: &crate::gsd::Target, from: StationId, rule: &str) {
        let Some(dest) = self.target_station(target, rule) else {
            return;
        };
        if dest == from {
            self.illegal(rule, "a Translocation goes to another station");
            return;
        }
        if let Some(l) = target.line {
            if !self.map.station(dest).lines.contains(l) {
                self.illegal(rule, format!("{} is not on the {l}", target.station));
                return;
            }
        }
        if self.blocked(dest) {
            self.illegal(
                "1.5.13",
                format!("{} is Blocked: no Translocation to it", target.station),
            );
            return;
        }
        if !self.open(dest, target.line) {
            self.illegal(
                "1.5.13",
                format!(
                    "{} is Closed at {}: no Translocation to it",
                    target.station,
                    self.now()
                ),
            );
            return;
        }
        if self.hyde_forbids(dest) {
            self.illegal(
                "1.7.38",
                format!(
                    "{} is a Holy Station: a player wearing the Hyde Mask may not go to it",
                    target.station
                ),
            );
            return;
        }
        self.arrive(dest, target.line, Some(from), None);
    }

    /// [Straddling to <Station>] (Rule 1.7.6): a Standing Straddle from the
    /// Piece's Station, whose Stack holds at least as many Tokens as the
    /// route distance R to the destination, or a Running Straddle from the
    /// next station in the Line Direction of the Move's last Segment, on
    /// along that line and direction no further than its Stack's Tokens
    /// (RULINGS.md E38).
    fn straddle(&mut self, target: &crate::gsd::Target, rule: &str) {
        let Some(here) = self.here() else {
            self.illegal(rule, "a Straddle starts from the Piece's Station");
            return;
        };
        let Some(dest) = self.target_station(target, rule) else {
            return;
        };
        if let Some(l) = self.power_failed(here) {
            self.illegal(
                "1.20.5",
                format!(
                    "the {l} has a Power Failure: no Straddle from {}, a station of that line",
                    self.name(here)
                ),
            );
            return;
        }
        let tokens_at = |t: &Self, s: StationId| t.s.stack(s).map_or(0, |s| s.len() as u32);
        let standing = tokens_at(self, here);
        let r = self.map.route_distance(here, dest);
        if standing > 0 && r.is_some_and(|d| d <= standing) {
            self.translocate(target, here, rule);
            self.straddled = true;
            return;
        }
        // A Running Straddle: from the station after the Piece's in the
        // Line Direction of the Move's last Segment, on in that direction.
        let line = self.s.players[self.me].at.and_then(|p| p.line);
        let mut starts: Vec<(StationId, crate::map::Direction)> = Vec::new();
        if let Some(l) = line {
            for d in &self.move_dirs {
                for st in self.map.steps(here, l) {
                    if st.leave == *d && !starts.iter().any(|x| x.0 == st.to) {
                        starts.push((st.to, st.arrive));
                    }
                }
            }
        }
        for &(from, dir) in &starts {
            let tokens = tokens_at(self, from);
            let l = line.expect("starts need a line");
            if tokens > 0 && ahead(self.map, l, from, dir, dest, tokens) {
                // The Piece itself leaves its own Station (Charge, Rule 1.19.2).
                self.translocate(target, here, rule);
                self.straddled = true;
                return;
            }
        }
        let mut why = if standing == 0 {
            format!(
                "{} has no Token Stack for a Standing Straddle",
                self.name(here)
            )
        } else {
            format!(
                "a Standing Straddle from {} reaches stations at most {standing} away (the Tokens of its Stack); {} is {}",
                self.name(here),
                target.station,
                r.map_or("unreachable".to_string(), |d| format!("{d} away"))
            )
        };
        match (line, starts.is_empty()) {
            (None, _) => why.push_str("; off a line the Piece has no Line Direction for a Running Straddle"),
            (Some(_), true) if self.move_dirs.is_empty() => why.push_str(
                "; a Running Straddle follows the Line Direction of this Turn's Move, and the Piece made no Standard Move",
            ),
            (Some(l), true) => why.push_str(&format!(
                "; no station follows {} in the {l}'s Line Direction of the Move",
                self.name(here)
            )),
            (Some(l), false) => {
                let each: Vec<String> = starts
                    .iter()
                    .map(|&(f, _)| match tokens_at(self, f) {
                        0 => format!("{} (no Token Stack)", self.name(f)),
                        n => format!("{} ({n} Tokens)", self.name(f)),
                    })
                    .collect();
                why.push_str(&format!(
                    "; a Running Straddle from {} goes on along the {l} in the Move's Line Direction no further than its Tokens, and {} is not so reached",
                    each.join(" or "),
                    target.station
                ));
            }
        }
        self.illegal(rule, why);
    }

    /// Whether the player wears the Hyde Mask (Rule 1.7.38).
    fn hyde(&self) -> bool {
        self.s.players[self.me].wears(HYDE_MASK)
    }

    /// A Holy Station, which the Hyde Mask forbids (Rule 1.7.38).
    fn hyde_forbids(&self, id: StationId) -> bool {
        self.hyde() && self.map.station(id).categories.contains(Category::Holy)
    }

    fn blocked(&self, id: StationId) -> bool {
        let me = &self.s.players[self.me];
        // An Electrified line Blocks its stations for a Piece carrying
        // Metallic Tokens when its Move began (Rule 1.20.3).
        let st = self.map.station(id);
        if self.metallic_at_move
            && self.s.disruptions.iter().any(|d| matches!(d, Disruption::Line { line, state: LineState::Electrified } if st.lines.contains(*line)))
        {
            return true;
        }
        if me.has_stub(self.map, id) {
            return false;
        }
        self.s.blocks.iter().any(|b| b.station == id)
            || self.s.has_mark(self.map, id, StationMark::Bulkhead)
            || self.s.has_mark(self.map, id, StationMark::HeavyDamage)
            || (self
                .s
                .players
                .iter()
                .enumerate()
                .any(|(i, p)| i != self.me && p.home == Some(id))
                && !self.tolled.iter().any(|(h, _)| *h == id))
    }

    /// Open for this player now (Rules 1.13.4 - 1.13.6, 1.11.3, 1.7.28).
    fn open(&self, id: StationId, line: Option<LineCode>) -> bool {
        let st = self.map.station(id);
        if self.map.is(id, Landmark::MorningtonCrescent) && self.mc_open {
            return true;
        }
        if self.s.has_mark(self.map, id, StationMark::Damage) {
            return false;
        }
        // A tolled Home Station is Closed, a rented one Open (Rule 1.12.3).
        if let Some((_, rented)) = self.tolled.iter().find(|(h, _)| *h == id) {
            return *rented;
        }
        let defamed = self.s.has_mark(self.map, id, StationMark::Defamed);
        let open = self
            .map
            .station_open(id, line, self.opening_day(), self.now().minutes);
        // [Collection Plate] opens every Holy Station (Rule 1.11.7).
        if self.holy_open && st.categories.contains(Category::Holy) && !defamed {
            return true;
        }
        // A Defamed station is not Holy until Sunday (Rule 1.11.7).
        // (It is Holy again on the real Sunday; a Holiday is not one.)
        open || (defamed
            && st.categories.contains(Category::Holy)
            && self.s.time.day != Weekday::Sun)
    }

    fn passable(&self, id: StationId) -> bool {
        if self.s.has_mark(self.map, id, StationMark::Maelberg) {
            return false;
        }
        let stack = self.s.stack(id);
        // Kafka Sinkhole: four or more Tokens, all Black (Rule 1.9.6).
        if stack.is_some_and(|t| t.len() >= 4 && t.iter().all(|c| *c == Colour::Black)) {
            return false;
        }
        // Sgronk: no passing through a Stack (Rule 1.8.10); the game leaves
        // Sgronk as soon as no Stack holds two or more Tokens.
        let sgronk =
            self.s.has(&Disruption::Sgronk) && self.s.stacks.iter().any(|(_, t)| t.len() >= 2);
        !(sgronk && stack.is_some_and(|t| !t.is_empty()))
    }

    fn movement(&mut self, mv: &Move) {
        let me = self.me;
        match mv {
            Move::Timeout => {
                // Always Valid (Rule 1.5.0); advances Game Time one hour (Rule 1.3.5).
                self.minutes += 60;
            }
            Move::Pass(named) | Move::Farkle(named) => {
                // The written position must be the Piece's (Rule 1.2.0).
                if let (Some(t), Some(at)) = (named, self.s.players[me].at) {
                    let same_station = self.map.find(&t.station) == Some(at.station);
                    let same_line = t.line.is_none() || at.line.is_none() || t.line == at.line;
                    if !same_station || !same_line {
                        self.illegal(
                            "1.2.0",
                            format!(
                                "the Pass names {}, but the Piece is at {}",
                                crate::gsd::parse::target_text(t),
                                at.text(self.map)
                            ),
                        );
                    }
                }
                // LV becomes zero (Rules 1.5.2, 1.5.12).
                self.s.players[me].lv = 0;
                if matches!(mv, Move::Farkle(_)) {
                    self.changes.push(
                        "Farkle: the player may set Game Time in the GSD (Rule 1.5.12)".into(),
                    );
                }
            }
            Move::Bifurcated(..) => self.ruling(
                "1.7.42",
                "bifurcated Moves are not yet adjudicated by mornbot",
            ),
            Move::To {
                station,
                line,
                via,
                escalator_to,
            } => {
                // Openings are judged when the Move starts; it then takes 10 minutes.
                self.move_to(station, *line, via, escalator_to.as_deref());
                self.minutes += 10;
            }
        }
    }

    fn move_to(
        &mut self,
        station: &str,
        line: Option<LineCode>,
        via: &[LineCode],
        escalator_to: Option<&str>,
    ) {
        let me = self.me;
        let map = self.map;
        let Some(dest) = map.find(station) else {
            match map.lookup_ghost(station) {
                Some(g) => self.ghosting_move(g),
                None => self.illegal("1.5.0", format!("{station} is not a station of the map")),
            }
            return;
        };
        if let Some(l) = line {
            if !map.station(dest).lines.contains(l) {
                let lines: Vec<&str> = map.station(dest).lines.iter().map(|l| l.code()).collect();
                self.illegal(
                    "1.2.0",
                    format!(
                        "{station} is not on the {l}; its lines are {}",
                        lines.join(", ")
                    ),
                );
                return;
            }
        }
        let start = self.s.players[me].at;
        // A Power Failure voids every Move starting, ending or passing at a
        // station of its line, Walking excepted (Rule 1.20.5); passing is
        // checked by the route search.
        let special = start.is_none() || self.special.is_some();
        if !special
            && self.s.players[me]
                .possessions
                .iter()
                .any(|p| shop::size_of(p).0)
        {
            self.illegal(
                "1.4.31",
                "a player carrying a Huge Possession may make no Standard Move (only Pass, Timeout or a Special Move)",
            );
        }
        let voided = self.special != Some(Special::Walking)
            && (!special || self.s.rulings.power_failure_voids_special_moves);
        if voided {
            let ends = escalator_to.and_then(|e| map.find(e)).into_iter();
            for (id, place) in start
                .map(|a| (a.station, "start"))
                .into_iter()
                .chain(std::iter::once((dest, "end")))
                .chain(ends.map(|e| (e, "end")))
            {
                if let Some(l) = self.power_failed(id) {
                    self.illegal(
                        "1.20.5",
                        format!(
                            "the {l} has a Power Failure: no Move may {place} at {}, a station of that line (only Walking may)",
                            self.name(id)
                        ),
                    );
                }
            }
        }
        // A Piece at a Ghost Station is adjacent to nowhere: it leaves only by
        // a Special Move that does not start from a station (Rule 1.11.6).
        if let Some(g) = self.s.players[me].ghost.clone() {
            let ok = match self.special {
                Some(Special::Home) => self.s.players[me].home == Some(dest),
                Some(Special::Wild) => self.s.wild.contains(&dest),
                Some(Special::Paddington) => map.is(dest, Landmark::Paddington),
                _ => false,
            };
            if !ok {
                self.illegal("1.11.6", format!("a Piece at the Ghost Station {g} leaves only by a Special Move such as [Home] or [Wild]"));
                return;
            }
            if !self.open(dest, line) || self.blocked(dest) {
                self.illegal("1.13.4", format!("{station} is Closed or Blocked"));
            }
            let p = &mut self.s.players[me];
            p.charge = p
                .charge
                .saturating_add(map.station(dest).current as i32 - map.ghost_current() as i32)
                .clamp(-999, 999);
            p.ghost = None;
            p.at = Some(Position {
                station: dest,
                line,
            });
            p.lv = 0;
            self.changes.push(format!(
                "{} leaves the Ghost Station {g} for {station}",
                self.s.players[me].name
            ));
            return;
        }
        // Special Moves: no LV check, LV becomes zero (Rules 1.5.0, 1.6.2).
        let special = match (start, self.special) {
            (None, _) => {
                // Entering the Map (RULINGS.md E1): any open, unblocked
                // station; the Home Station is checked at the end of the Turn.
                self.entered = true;
                true
            }
            (Some(at), Some(kind)) => {
                let ok = match kind {
                    Special::Walking => map.within_walking_distance(at.station, dest),
                    Special::Home => self.s.players[me].home == Some(dest),
                    Special::Wild => self.s.wild.contains(&dest),
                    Special::StubLink => {
                        dest != at.station && self.s.players[me].has_stub(map, dest)
                    }
                    // Strilable: a Stack identical to the one where the Piece is
                    // (1.7.12); Declensable: one Token fewer (1.7.58).
                    // [Ghosting] leads only to Ghost Stations (handled above).
                    Special::Ghosting => false,
                    Special::Paddington => map.is(dest, Landmark::Paddington),
                    Special::Strile | Special::Declension => {
                        let here = self.s.stack(at.station).filter(|t| !t.is_empty());
                        let there = self.s.stack(dest).filter(|t| !t.is_empty());
                        match (here, there) {
                            (Some(h), Some(t)) if kind == Special::Strile => {
                                dest != at.station && h == t
                            }
                            (Some(h), Some(t)) => t.len() + 1 == h.len(),
                            _ => false,
                        }
                    }
                };
                if !ok {
                    let (rule, why) = match kind {
                        Special::Walking => (
                            "1.7.10",
                            format!(
                                "{station} is not within Walking Distance of {}",
                                self.name(at.station)
                            ),
                        ),
                        Special::Home => (
                            "1.12.4",
                            format!(
                                "{station} is not {}'s Home Station",
                                self.s.players[me].name
                            ),
                        ),
                        Special::Wild => ("1.11.1", format!("{station} is not a Wild Station")),
                        Special::StubLink => (
                            "1.7.33",
                            format!("the player owns no Ticket Stub for {station}"),
                        ),
                        Special::Ghosting => ("1.11.6", format!("[Ghosting] permits a Special Move to a Ghost Station, not {station}")),
                        Special::Paddington => ("1.4.16", format!("a Marmalade Sandwich permits a Special Move to Paddington, not {station}")),
                        Special::Strile => ("1.7.12", format!("{station} has no Token Stack identical to the one at {}", self.name(at.station))),
                        Special::Declension => ("1.7.58", format!("{station}'s Token Stack is not one Token smaller than the one at {}", self.name(at.station))),
                    };
                    self.illegal(rule, why);
                }
                true
            }
            _ => false,
        };
        if special {
            if !self.open(dest, line) {
                self.illegal("1.13.4", format!("{station} is Closed at {}", self.now()));
            }
            if self.blocked(dest) {
                self.illegal("1.9.1", format!("{station} is Blocked"));
            }
            if self.hyde_forbids(dest) {
                self.illegal(
                    "1.7.38",
                    format!("{station} is a Holy Station: a player wearing the Hyde Mask may not Move to it"),
                );
            }
            if start.is_some() {
                // A Special Move passes through nothing and rides no line:
                // only the destination bonuses apply (RULINGS.md E4).
                self.destination_bonuses(dest);
            }
            self.arrive(dest, line, start.map(|a| a.station), escalator_to);
            self.s.players[me].lv = 0;
            return;
        }
        let at = start.expect("special handled the off-Map case");
        if self.blocked(at.station) {
            self.illegal(
                "1.9.1",
                format!(
                    "{} is Blocked: no Move may start there",
                    self.name(at.station)
                ),
            );
            return;
        }
        // Bridges Up: no crossing the Thames (Rule 1.8.3).
        if self.s.has(&Disruption::BridgesUp)
            && map.station(at.station).thames != map.station(dest).thames
        {
            self.illegal(
                "1.8.3",
                format!(
                    "Bridges are Up: {} and {station} are on opposite banks of the Thames",
                    self.name(at.station)
                ),
            );
        }
        let lv = self.s.players[me].lv;
        let candidates: Vec<LineCode> = match line {
            Some(l) => vec![l],
            None => map.station(dest).lines.iter().collect(),
        };
        let may_change = !self.s.has(&Disruption::Gapminding)
            || self.s.players[me].possessions.iter().any(|p| matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case("Book")));
        let strict = Relax::default();
        let (best, lengths) = self.route(&strict, may_change, at, &candidates, via, dest, lv);
        let written = describe(station, line, via);
        let Some((dest_line, found)) = best else {
            self.explain_no_route(
                may_change,
                at,
                &candidates,
                via,
                dest,
                lv,
                &written,
                &lengths,
            );
            return;
        };
        // Speed Limits (Rule 1.20.4): no portion on a line whose Limit is
        // below the LV (twice the Limit with a Charge beyond ±100%).
        let charge = self.s.players[me].charge;
        for l in via.iter().chain(std::iter::once(&dest_line)) {
            let limit = self.speed_limit(*l);
            let allowed = if charge.unsigned_abs() > 100 {
                limit.saturating_mul(2)
            } else {
                limit
            };
            if lv > allowed {
                self.illegal(
                    "1.20.4",
                    format!("the {l} has a Speed Limit of {limit}: LV {lv} may not move along it"),
                );
                return;
            }
        }
        if found.changes_line
            && !self.line_change_paid
            && !self.s.players[self.me].has_rover(self.now().day)
        {
            self.pay(
                "the Line Change of this Move",
                "1.5.11",
                &[(1, Colour::Black)],
            );
            self.line_change_paid = true;
        }
        self.through = found.through.clone();
        // Off the line at an escalator's far end, the Piece has no Line
        // Direction to run on in.
        if escalator_to.is_none() {
            self.move_dirs = found.arrivals.clone();
        }
        self.collect(&found, dest, at.station);
        self.arrive(dest, Some(dest_line), Some(at.station), escalator_to);
    }

    /// Moves the Piece; applies Charge (Rule 1.19.2) and the escalator end (Rule 1.5.3).
    fn arrive(
        &mut self,
        dest: StationId,
        line: Option<LineCode>,
        from: Option<StationId>,
        escalator_to: Option<&str>,
    ) {
        let me = self.me;
        let mut final_station = dest;
        let mut final_line = line;
        if let Some(other) = escalator_to {
            match self.map.find(other) {
                Some(o) if self.map.escalator_partner(dest) == Some(o) => {
                    if !self.open(o, None) || self.blocked(o) {
                        self.illegal("1.5.3", format!("the Escalator Link to {other} cannot be used: {other} is Closed or Blocked"));
                    }
                    final_station = o;
                    final_line = None;
                }
                _ => self.illegal(
                    "1.5.3",
                    format!("{} has no Escalator Link to {other}", self.name(dest)),
                ),
            }
        }
        if let Some(from) = from {
            let delta = self.map.station(final_station).current as i32
                - self.map.station(from).current as i32;
            let p = &mut self.s.players[me];
            p.charge = p.charge.saturating_add(delta).clamp(-999, 999);
        }
        self.s.players[me].at = Some(Position {
            station: final_station,
            line: final_line,
        });
        let pos = Position {
            station: final_station,
            line: final_line,
        }
        .text(self.map);
        self.changes
            .push(format!("{} moves to {pos}", self.s.players[me].name));
    }

    /// Token Collection (Rule 1.4.20) for an ordinary Move.
    fn collect(&mut self, found: &super::route::Found, dest: StationId, from: StationId) {
        let me = self.me;
        let st = self.map.station(dest);
        let mut bonus: Vec<(Colour, String)> = Vec::new();
        bonus.extend(self.interchange_bonus(dest));
        // Several routes may fit the written lines: the best count stands
        // (RULINGS.md E3).
        let passed = found.interchanges.iter().copied().max().unwrap_or(0);
        let c = match passed {
            2 => Some(Colour::Red),
            3 => Some(Colour::Black),
            4 => Some(Colour::Blue),
            p if p >= 5 => Some(Colour::Silver),
            _ => None,
        };
        if let Some(c) = c {
            bonus.push((c, format!("passing through {passed} Interchanges")));
        }
        if !found.changes_line {
            bonus.push((Colour::Black, "a Move with no change of Line".into()));
        }
        // A Zone Pass for the zone the Move stayed in.
        let zone_pass = self.s.players[me].possessions.iter().any(|p| {
            !p.nantucket
                && matches!(&p.item, Item::Named { name, .. } if zone_pass_zones(name).is_some_and(|(lo, hi)| {
                    (lo..=hi).any(|z| self.map.station(from).zones.contains(&z) && st.zones.contains(&z))
                }))
        });
        if zone_pass {
            bonus.push((
                Colour::Bronze,
                "a Move within a Zone for which a Zone Pass is carried".into(),
            ));
        }
        bonus.extend(self.hat_bonus(dest));
        self.award(bonus);
    }

    /// The destination bonuses of a Special Move (Rule 1.4.20, RULINGS.md E4).
    fn destination_bonuses(&mut self, dest: StationId) {
        let mut bonus: Vec<(Colour, String)> = Vec::new();
        bonus.extend(self.interchange_bonus(dest));
        bonus.extend(self.hat_bonus(dest));
        self.award(bonus);
    }

    fn interchange_bonus(&self, dest: StationId) -> Option<(Colour, String)> {
        let st = self.map.station(dest);
        if st.kind != StationKind::Interchange {
            return None;
        }
        let n = st.lines.len();
        let c = match n {
            2 => Colour::Red,
            3 => Colour::Black,
            4 => Colour::Blue,
            n if n >= 5 => Colour::Silver,
            _ => return None,
        };
        Some((c, format!("moving to an Interchange of {n} lines")))
    }

    /// A Worn Hat matching the destination's type (Rule 1.4.20).
    fn hat_bonus(&self, dest: StationId) -> Option<(Colour, String)> {
        let me = self.me;
        let st = self.map.station(dest);
        let hat_match = self.s.players[me].possessions.iter().any(|p| {
            p.worn
                && matches!(&p.item, Item::Hats(hs) if hs.iter().any(|h| match h {
                    Hat::AToZ => st.categories.contains(Category::AToZ),
                    Hat::BritishRail => st.categories.contains(Category::BritishRail),
                    Hat::Compass => st.categories.contains(Category::Compass),
                    Hat::Terminus => st.categories.contains(Category::Terminus),
                    Hat::Verdant => st.categories.contains(Category::Verdant),
                    _ => false,
                }))
        });
        hat_match.then(|| {
            (
                Colour::Blue,
                "moving to a Station matching the Worn Hat".to_string(),
            )
        })
    }

    fn award(&mut self, bonus: Vec<(Colour, String)>) {
        let me = self.me;
        for (c, why) in bonus {
            let have = self.s.players[me].tokens.get(c);
            self.s.players[me].tokens.set(c, have.saturating_add(1));
            self.changes
                .push(format!("+1 {} for {why} (Rule 1.4.20)", c.name()));
        }
    }

    fn end_of_turn(&mut self, mv: &Move) {
        let me = self.me;
        // A player without a Home must declare one during the Turn (Rule
        // 1.12.2); entering the Map without one is Illegal (RULINGS.md E1).
        if self.entered && self.s.players[me].home.is_none() && !is_drone(&self.s.players[me].name)
        {
            self.illegal("1.12.2", "a player entering the Map must declare a Home Station ([Home: <Station>]) in the same Turn");
        }
        if self.minutes > 60 + self.extra_limit && !matches!(mv, Move::Timeout) {
            self.illegal(
                "1.13.1",
                format!(
                    "the Turn takes {} minutes of Game Time; a Turn lasts at most {}",
                    self.minutes,
                    60 + self.extra_limit
                ),
            );
        }
        if let Some(at) = self.s.players[me].at {
            if self.pegged(at.station)
                && !matches!(mv, Move::Pass(_) | Move::Timeout | Move::Farkle(_))
            {
                self.illegal(
                    "1.11.4",
                    format!("{} is Pegged: no Turn may end there", self.name(at.station)),
                );
            }
        }
        // The player's Blocks from eir previous Turn end now (one Round, 1.3.0).
        let me_name = self.s.players[me].name.clone();
        expire_round(&mut self.s.blocks, self.blocks_placed, |b| b.by == me_name);
        // So do eir one-Round Line States (Rules 1.20.5, 1.20.6); an entry
        // whose State was since replaced is dropped.
        let ended = expire_round(&mut self.s.timed, self.timed_placed, |t| t.by == me_name);
        for crate::engine::Timed { disruption: d, .. } in ended {
            if self.s.has(&d) {
                self.s.disruptions.retain(|x| *x != d);
                if let Disruption::Line { line, .. } = d {
                    self.changes.push(format!(
                        "the {line} is back to Normal: {me_name}'s Round has passed (Rules 1.20.5, 1.20.6)"
                    ));
                }
            }
        }
        let disruptions = self.s.disruptions.clone();
        self.s.timed.retain(|t| disruptions.contains(&t.disruption));
        self.place_spent();
        if self.s.has(&Disruption::Sgronk) && !self.s.stacks.iter().any(|(_, t)| t.len() >= 2) {
            self.s.disruptions.retain(|d| *d != Disruption::Sgronk);
            self.changes
                .push("no Stack holds two Tokens: the game leaves Sgronk (Rule 1.8.10)".into());
        }
        let before = self.s.time;
        self.s.time = advance(self.s.time, self.minutes);
        // Expired All Day Rover Cards are discarded (Rule 1.4.28).
        let today = crate::engine::state::rover_card(self.s.time.day);
        for p in self.s.players.iter_mut() {
            let before = p.possessions.len();
            p.possessions.retain(|x| {
                !matches!(&x.item, Item::Named { name, .. }
                    if name.to_lowercase().ends_with(" rover card") && !name.eq_ignore_ascii_case(&today))
            });
            if p.possessions.len() != before {
                self.changes.push(format!(
                    "{}'s Expired All Day Rover Card is discarded (Rule 1.4.28)",
                    p.name
                ));
            }
        }
        if self.s.time.day != before.day {
            // A Holiday ends with its day; a wait for next week's ends now.
            if !self.s.holiday_wait {
                let over = Disruption::UpcomingHoliday(Some(before.day));
                if self.s.has(&over) {
                    self.s.disruptions.retain(|d| *d != over);
                    self.changes.push(format!(
                        "the Holiday ({}) is over (Rule 1.13.7)",
                        crate::gsd::day_name(before.day)
                    ));
                }
            }
            self.s.holiday_wait = false;
            self.repair_damage();
        }
        if self.s.time.day == Weekday::Sun {
            // Defamed stations are Holy again from the firstcoming Sunday (Rule 1.11.7).
            let before = self.s.disruptions.len();
            self.s.disruptions.retain(|d| {
                !matches!(
                    d,
                    Disruption::Station {
                        mark: StationMark::Defamed,
                        ..
                    }
                )
            });
            if self.s.disruptions.len() != before {
                self.changes
                    .push("it is Sunday: Defamed stations are Holy again (Rule 1.11.7)".into());
            }
        }
        if let Some(at) = self.s.players[me].at {
            if self.map.is(at.station, Landmark::MorningtonCrescent)
                && !is_drone(&me_name)
                && self.s.winner.is_none()
            {
                self.s.winner = Some(me_name.clone());
                self.changes.push(format!(
                    "{me_name} rests at Mornington Crescent and wins (Rule 1.1.1)"
                ));
            }
        }
        if is_drone(&me_name) {
            self.s.stick_fresh = false;
        }
        // A claim of the Drone Stick this Turn may wake or idle the Drone.
        self.s.refresh_drone();
        self.s.turn += 1;
        self.s.to_play = self.s.next_active(me);
    }
}

/// Removes and returns the entries of `v` for which `mine` holds, except
/// the last `placed` (set this Turn): what a player set for one Round ends
/// with eir next Turn.
fn expire_round<T>(v: &mut Vec<T>, placed: u32, mine: impl Fn(&T) -> bool) -> Vec<T> {
    let keep_from = v.len() - placed as usize;
    let mut ended = Vec::new();
    let mut kept = Vec::with_capacity(v.len());
    for (i, x) in v.drain(..).enumerate() {
        if i < keep_from && mine(&x) {
            ended.push(x);
        } else {
            kept.push(x);
        }
    }
    *v = kept;
    ended
}

/// The zones a Zone Pass covers: "Zone 2 Pass" -> (2, 2), "Zones 1-6 Pass" -> (1, 6).
fn zone_pass_zones(name: &str) -> Option<(u8, u8)> {
    let lower = name.to_lowercase();
    let rest = lower
        .strip_prefix("zones ")
        .or_else(|| lower.strip_prefix("zone "))?;
    let range = rest.strip_suffix(" pass")?.trim();
    match range.split_once('-') {
        Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
        None => range.parse().ok().map(|z| (z, z)),
    }
}

/// Constraints lifted when explaining why no route fits.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Relax {
    pub(super) one_way: bool,
    pub(super) power: bool,
    pub(super) blocks: bool,
    pub(super) closures: bool,
    pub(super) passing: bool,
    pub(super) changes: bool,
    pub(super) turn_back: bool,
    pub(super) hyde: bool,
}

/// The Unique Garment of Rule 1.7.38.
const HYDE_MASK: &str = "Hyde Mask";

fn is_exchange(a: &Action) -> bool {
    a.spec().rule == "1.7.21"
}

/// Rule 1.7.21's table: (paid, received, an opposite exchange made only at Bank).
/// Paid, received, and whether only at Bank.
type Exchange = (Vec<(u32, Colour)>, Vec<(u32, Colour)>, bool);

fn exchange(a: &Action) -> Option<Exchange> {
    use Colour::*;
    let (paid, got, up) = match a {
        Action::GoldToSilver => ((1, Gold), (2, Silver), false),
        Action::GoldToBronze => ((1, Gold), (8, Bronze), false),
        Action::GoldToBlue => ((1, Gold), (3, Blue), false),
        Action::SilverToBronze => ((1, Silver), (4, Bronze), false),
        Action::SilverToGold => ((2, Silver), (1, Gold), true),
        Action::BronzeToGold => ((8, Bronze), (1, Gold), true),
        Action::BlueToGold => ((3, Blue), (1, Gold), true),
        Action::BronzeToSilver => ((4, Bronze), (1, Silver), true),
        _ => return None,
    };
    Some((vec![paid], vec![got], up))
}

fn fmt_tokens(t: &[(u32, Colour)]) -> String {
    if t.is_empty() {
        return "nothing".into();
    }
    t.iter()
        .map(|(n, c)| format!("{n} {}", c.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe(station: &str, line: Option<LineCode>, via: &[LineCode]) -> String {
    crate::gsd::render_move(&Move::To {
        station: station.to_string(),
        line,
        via: via.to_vec(),
        escalator_to: None,
    })
}

/// The stations of `line` between `a` and `b` inclusive (shortest).
fn segment_stations(map: &Map, line: LineCode, a: StationId, b: StationId) -> Vec<StationId> {
    let mut prev: std::collections::HashMap<StationId, StationId> =
        std::collections::HashMap::new();
    let mut q = std::collections::VecDeque::from([a]);
    prev.insert(a, a);
    while let Some(s) = q.pop_front() {
        if s == b {
            let mut path = vec![b];
            let mut cur = b;
            while cur != a {
                cur = prev[&cur];
                path.push(cur);
            }
            return path;
        }
        for &n in map.neighbours(s, line) {
            if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(n) {
                e.insert(s);
                q.push_back(n);
            }
        }
    }
    vec![]
}

/// A length of Game Time written in a `{waits ...}` comment: `0130` (hours
/// and minutes), or amounts with units, `2 hours`, `90 minutes`,
/// `1 day 3 hours`, `45 mins`. None when it is not one.
fn parse_wait(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()) {
        let (h, m) = (
            text[..2].parse::<u32>().ok()?,
            text[2..].parse::<u32>().ok()?,
        );
        return (m < 60).then_some(h * 60 + m);
    }
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty() && *w != "and")
        .collect();
    if words.is_empty() || words.len() % 2 != 0 {
        return None;
    }
    let mut total: u32 = 0;
    for pair in words.chunks(2) {
        let n: u32 = pair[0].parse().ok()?;
        let unit = match pair[1] {
            "minute" | "minutes" | "min" | "mins" => 1,
            "hour" | "hours" | "hr" | "hrs" => 60,
            "day" | "days" => 24 * 60,
            "week" | "weeks" => 7 * 24 * 60,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    Some(total)
}

/// Whether `dest` lies at most `n` stations on from `from` along `line`,
/// moving in Line Direction `dir` (a Running Straddle, Rule 1.7.6).
fn ahead(
    map: &Map,
    line: LineCode,
    from: StationId,
    dir: crate::map::Direction,
    dest: StationId,
    n: u32,
) -> bool {
    let mut layer = vec![(from, dir)];
    for _ in 0..n {
        let mut next = Vec::new();
        for (s, d) in layer {
            for st in map.steps(s, line) {
                if st.leave == d {
                    if st.to == dest {
                        return true;
                    }
                    if !next.contains(&(st.to, st.arrive)) {
                        next.push((st.to, st.arrive));
                    }
                }
            }
        }
        layer = next;
    }
    false
}
