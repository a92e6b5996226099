//! Every Action of the index of Rule 1.7.2 to its handler: one line each,
//! no wildcard, so a new row of `grammar/actions.toml` does not compile
//! until it is given a handler or named here as needing a human ruling.
//! What the table says an Action costs, gains and takes is applied here,
//! once, as the handler's [`Charge`] asks.

use super::turn::is_exchange;
use super::*;
use crate::gsd::{Good, Price, Spiral};

impl Turn<'_> {
    /// Judges one Action, then settles its price and duration from the table.
    pub(super) fn action(&mut self, a: &Action, when: When) {
        let before = self.holdings();
        self.restraints_on_action(a);
        let overcoats = self.overcoats();
        let charge = self.act(a, when);
        self.settle(a, charge);
        self.electrified_off();
        self.nantucket_lost(&overcoats);
        self.watch_lv();
        self.radio_clamps_follow();
        self.clamps_given(before);
    }

    /// The handler of each Action.
    #[rustfmt::skip]
    fn act(&mut self, a: &Action, when: When) -> Charge {
        use Action as A;
        match a {
            // The Move and its Special Moves (Rules 1.5, 1.6, 1.7.x, 1.11.6).
            A::LvPlus { n } | A::LvMinus { n } => self.lv_change(a, *n),
            A::Rebounding => self.rebounding(),
            A::LineChange => self.line_change(),
            A::Walking => self.walking(),
            A::Home => self.home_move(),
            A::Wild => self.wild_move(),
            A::StubLink => self.stub_link(a),
            A::Striling | A::Declension => self.strile(a),
            A::Ghosting => self.ghosting(),
            A::Freewheeling => self.freewheeling(a),
            A::Bifurcating { station } => self.bifurcating(a, station),
            // Translocations (Rules 1.5.13, 1.7.6, 1.7.13, 1.19.4).
            A::CompassWormhole { compass, station } => self.wormhole(a, compass, station),
            A::Straddling { station } => self.straddle(a, station),
            A::ChargeTunneling { station } => self.charge_tunnel(a, station),
            // Home Stations (Rule 1.12).
            A::HomeStation { station } => self.declare_home(a, station),
            A::Toll { player } | A::Rent { player } => self.toll(a, player),
            // Stations (Rules 1.9, 1.11, 1.7.28).
            A::Blocking { station } => self.block(a, station, when),
            A::Bulkheading { station } => self.bulkhead(a, station, when),
            A::RemovingBulkhead { station } => self.remove_bulkhead(a, station),
            A::Maelberging { station } => self.maelberg(a, station),
            A::UnMaelberging => self.un_maelberg(a),
            A::FireAtOther { station } | A::FireAtInterchange { station } => self.fire(a, station),
            A::Pegging { station } => self.peg(a, station, when),
            A::Unpegging { station } => self.unpeg(a, station, when),
            A::PeggingSegment { station, station_2, line } => self.peg_segment(a, station, station_2, *line),
            A::StationWild { station } => self.station_wild(a, station),
            A::Defaming { station } => self.defame(a, station, when),
            A::CollectionPlate => self.collection_plate(),
            A::OpeningMc => self.opening_mc(),
            // Game-wide States (Rule 1.8).
            A::BridgesUp | A::BridgesDown => self.bridges(a),
            A::IntoKnip | A::OutOfKnip => self.knip(a),
            A::MindTheGap | A::IgnoreTheGap => self.gapminding(a),
            A::Sgronk => self.sgronk(),
            A::SpeedCraze => self.speed_craze(),
            A::CrazeSidestep => Charge::Table,
            A::TerminatingCraze => self.terminating_craze(),
            A::Bock { colour } => self.bock(*colour),
            A::UnBockColour { colour } => self.un_bock(Some(*colour)),
            A::UnBock => self.un_bock(None),
            A::ChargeSpiralInwards => self.charge_spiral(Spiral::Inwards),
            A::ChargeSpiralOutwards => self.charge_spiral(Spiral::Outwards),
            A::ParksAndGreensCascade => self.parks_and_greens(),
            A::TerminatingCascade => self.terminating_cascade(),
            A::VenbackerLadder => self.venbacker_ladder(),
            A::TerminatingLadder => self.terminating_ladder(),
            A::DollisEscape => self.dollis_escape(),
            A::CascadeSidestep | A::LadderSidestep | A::DollisSidestep => Charge::Table,
            A::TokenCascade => self.token_cascade(a),
            A::CascadeSteal => self.cascade_steal(),
            A::CascadeKill => self.cascade_kill(),
            // Line States (Rule 1.20).
            A::LineNormal { line } | A::LineOneWay { line, .. } | A::LineElectrified { line } => self.line_state(a, *line, when),
            A::LinePowerFailure { line } | A::LineSoaped { line } => self.one_round_state(a, *line, when),
            A::LineSpeedLimit { line, n } => self.speed_limit_action(a, *line, *n, when),
            // Tokens (Rules 1.4.10, 1.4.37, 1.7.21, 1.7.27, 1.7.46, 1.7.61).
            A::GoldToSilver | A::GoldToBronze | A::GoldToBlue | A::SilverToBronze => self.exchange(a),
            A::SilverToGold | A::BronzeToGold | A::BlueToGold | A::BronzeToSilver => self.exchange(a),
            A::Bonanza => self.bonanza(a),
            A::PollTax => self.poll_tax(a),
            A::GivingTokens { player } => self.give_tokens(a, player),
            A::Begging => self.beg(a),
            A::Electroplating => self.electroplate(a),
            // Game Time (Rules 1.7.51, 1.7.52, 1.13).
            A::NightTrain => self.night_train(),
            A::UpcomingHoliday => self.upcoming_holiday(a),
            A::Waiting => self.wait(a),
            A::DurationExtension { time } => self.long_lunch(a, time),
            // The Emporium and the Luggage Rack (Rules 1.4.x, 1.7.20, 1.7.39).
            A::Purchasing { possession } => self.purchase(a, possession, when),
            A::PurchasingHat { text } => self.purchase_hat(a, text),
            A::Selling { possession } => self.sell(possession, when),
            A::CashingInHats => self.cash_in_hats(),
            A::Discarding { possession } => self.discard(a, possession),
            A::Wearing { possession } => self.wear(a, possession, true),
            A::Removing { possession } => self.wear(a, possession, false),
            A::Eating { possession } => self.eat(a, possession),
            A::EatingOverpricedBaguette => self.eat(a, &plain(Good::OverpricedBaguette)),
            A::EatingBritishRailCoffee => self.eat(a, &plain(Good::BritishRailCoffee)),
            A::EatingMarmaladeSandwich => self.eat(a, &plain(Good::MarmaladeSandwich)),
            A::PossessionOn { possession } => self.switch(possession, true),
            A::PossessionOff { possession } => self.switch(possession, false),
            A::Busking => self.busk(a),
            A::Recycling => self.recycle(a),
            A::HydeTransformation => self.hyde_transformation(a),
            // Token Stacks (Rules 1.14, 1.4.9, 1.7.57).
            A::TokenOn { colour, station } => self.token_on(a, *colour, station),
            A::ClaimingToken { colour, station } => self.claim(a, *colour, station),
            A::Hoarding { tokens } => self.hoard(a, &tokens.0),
            A::SingleHelsinki | A::DoubleHelsinki | A::TripleHelsinki => self.helsinki(a),
            // Actions against another Player (Rule 1.10).
            A::Shunting { player, station } => self.shunt_action(a, player, station),
            A::DeadEndShunting { player, station } => self.shunt_action(a, player, station),
            A::PowerShunting { player, station } => self.shunt_action(a, player, station),
            A::StationaryShunting { player, station } => self.shunt_action(a, player, station),
            A::DoubleShunting { player, station } => self.double_shunt(a, player, station),
            A::Huffing { player } => self.huff(a, player),
            A::Blonking { player } => self.blonk(a, player),
            A::Shadowing { player } => self.shadow(a, player),
            // The Drone (Rule 1.15).
            A::ClaimingDroneStick => self.claim_drone_stick(),
            // Suspect Packages (Rules 1.4.7, 1.7.30).
            A::DroppingPackage { station } => self.drop_package(a, station, when),
            A::DetonatingPackage { station } => self.detonate(a, station),
            A::DetonatingPackageBare => self.detonate_bare(a),
            A::DefusingPackage => self.defuse(a),
            // The Podume of Infinite Darkness (Rule 1.4.24).
            A::PoidOn { station } => self.poid_on(a, station, when),
            A::CollectingPoid => self.collect_poid(a, when),
            A::ForgingPoid => self.forge_poid(a),
            // British Rail travel and other Actions of Rule 1.7.
            A::Visiting { place } => self.visit(a, place),
            A::LateArrival { place } => self.late_arrival_from(place),
            A::Streaking => self.streak(a),
            // Clamps and Bombs given and removed (Rules 1.4.38 - 1.4.45).
            A::Spooning { player } => self.clamp(a, player, Good::SpoonClamp),
            A::Narging { player } => self.clamp(a, player, Good::NargClamp),
            A::Greening { player } => self.clamp(a, player, Good::GreenClamp),
            A::Freeming { player } => self.clamp(a, player, Good::FreemClamp),
            A::Knidding { player } => self.clamp(a, player, Good::KnidClamp),
            A::MagnoClamping { player } => self.clamp(a, player, Good::MagnoClamp),
            A::VelocityBombing { player } => self.clamp(a, player, Good::VelocityBombDormant),
            A::AntiNarg => self.unclamp(a, &[Good::NargClamp]),
            A::Degreening => self.unclamp(a, &[Good::GreenClamp]),
            A::FreemAway => self.unclamp(a, &[Good::FreemClamp]),
            A::DeKnidding => self.unclamp(a, &[Good::KnidClamp]),
            A::RemovingVelocityBomb => self.unclamp(a, &[Good::VelocityBombDormant, Good::VelocityBombPrimed]),
            A::MagnoGone => self.magno_gone(a),
            A::Attracting => self.attracting(),
            A::Toffing { player } => self.toffing(a, player),
            A::DeToffing => self.de_toffing(a),
            A::InvertingStack { station } => self.invert_stack(a, station),
            A::Vacuuming { station } => self.vacuum(a, station),
            A::Topple { station } => self.topple(a, station),
            A::Tithe { zone } => self.tithe(a, *zone),
            A::CollectingTithe => self.collect_tithe(a),
            // The Courier and the Gold Rush (Rules 1.11.2, 1.7.47).
            A::CourierCallFixed | A::CourierCallRandom => self.courier_call(a),
            A::CollectingParcel => self.collect_parcel(when),
            A::DeliveringParcel => self.deliver_parcel(when),
            A::GoldRush => self.gold_rush(a),
            // Pigeons and Rats (Rules 1.4.25, 1.4.35).
            A::CatchingPigeon => self.catch_pigeon(),
            A::CatchingRat => self.catch_rat(),
            A::ReleasingPigeons => self.release_pigeons(),
            A::ReleasingRat => self.release_rat(),
            A::ConstructingGenerator => self.construct_generator(),
            A::GeneratingToken => self.generate_token(a),
            // Radiation (Rule 1.4.46).
            A::Radiating { player } => self.radiating(a, player),
            A::RadioClampLvPlus { n, n_2 } | A::RadioClampLvMinus { n, n_2 } => self.radio_lv(a, *n, *n_2),
            A::RadioClampTo { n, station } => self.radio_to(a, *n, station),
            A::DeRadiating => self.de_radiating(),
            // Knerdling (Rule 1.4.36).
            A::Knerdling { player } => self.knerdling(a, player),
            // Needs a human ruling: not yet adjudicated by mornbot.
            A::Applauding { .. } => self.not_adjudicated(a),
            A::Cowering => Charge::Table,
            // Manoeuvres and Gambits (Rule 1.18).
            A::DeclaringGambit { gambit } => self.declare_gambit(a, gambit),
            A::UsingGambit { gambit } => self.use_gambit(a, gambit),
            A::DenyingGambit { gambit, player } => self.deny_gambit(a, gambit, player),
            A::FfrobisherFflourish => self.frobisher(),
            A::Finding => self.finding(a),
            A::Magnify => self.magnify(a),
            A::Reshuffling => self.reshuffle(a),
            A::TakingABow => self.not_adjudicated(a),
            A::Unspoon => self.unspoon(a),
        }
    }

    /// An Action mornbot does not adjudicate: a human rules on it, never a
    /// silent Legal.
    fn not_adjudicated(&mut self, a: &Action) -> Charge {
        self.ruling(
            a.spec().rule,
            format!("{} is not yet adjudicated by mornbot", a.render()),
        );
        Charge::Free
    }

    /// Pays and credits what the table says, as the handler asked, and
    /// adds the Action's duration (a varying one is the handler's).
    fn settle(&mut self, a: &Action, charge: Charge) {
        let spec = a.spec();
        if matches!(charge, Charge::Table | Charge::Exchange) {
            let colour = action_colour(a);
            match (spec.cost.tokens(colour), spec.gain.tokens(colour)) {
                (Some(cost), Some(gain)) => {
                    if charge == Charge::Exchange {
                        // Exchanged Tokens are lost, not stacked (Rule 1.4.19).
                        let before = self.tally.spent.len();
                        self.pay(&a.render(), spec.rule, &cost);
                        self.tally.spent.truncate(before);
                    } else {
                        let cost = self.with_bocks(a, cost);
                        self.pay(&a.render(), spec.rule, &cost);
                    }
                    self.gain(&gain);
                    let gained: Vec<(u32, Colour)> =
                        gain.iter().copied().filter(|(n, _)| *n > 0).collect();
                    if !gained.is_empty() {
                        self.change(format!(
                            "{} gains {} for {} (Rule {})",
                            self.my_name(),
                            fmt_tokens(&gained),
                            a.render(),
                            spec.rule
                        ));
                    }
                }
                _ => self.ruling(
                    spec.rule,
                    format!(
                        "the price of {} ({}) is not a fixed token list",
                        a.render(),
                        spec.cost_text.or(spec.gain_text).unwrap_or("")
                    ),
                ),
            }
        }
        if let Some(m) = spec.duration.minutes() {
            self.action_minutes(m);
        }
        if std::mem::take(&mut self.clock.coffee_next) {
            self.clock.coffee = true;
        }
    }

    /// Pays the table's Cost now (with Bocks), for handlers whose effect
    /// depends on the Tokens left after paying.
    pub(super) fn pay_table(&mut self, a: &Action) -> Charge {
        match a.spec().cost.tokens(action_colour(a)) {
            Some(cost) => {
                let cost = self.with_bocks(a, cost);
                self.pay(&a.render(), a.spec().rule, &cost);
                Charge::Paid
            }
            None => Charge::Table,
        }
    }

    /// The table's fixed Cost of an Action, before Bocks; none when the
    /// rule computes it.
    pub(super) fn table_cost(a: &Action) -> Option<Vec<(u32, Colour)>> {
        a.spec().cost.tokens(action_colour(a))
    }

    /// The colour a `PerUnit` Cost is paid in.
    pub(super) fn unit_colour(a: &Action) -> Option<Colour> {
        match a.spec().cost {
            Price::PerUnit(c) => Some(c),
            _ => None,
        }
    }
}

/// A Possession of a plain kind, as an Action that names no Possession means it.
fn plain(good: Good) -> Item {
    Item::Good {
        good,
        stars: 0,
        on: false,
        n: None,
    }
}

/// The Action's own `<Colour>`, for a price that names it (`3Bu,1<Colour>`).
fn action_colour(a: &Action) -> Option<Colour> {
    match a {
        Action::Bock { colour } | Action::UnBockColour { colour } => Some(*colour),
        _ => None,
    }
}

/// Whether an Action is exempt from Bocks (Rule 1.8.8): exchanges,
/// [Un-Bock], and the Line Change.
pub(super) fn bock_exempt(a: &Action) -> bool {
    // "[Bonanza] is considered a Token Exchange Action" (Rule 1.4.10), and
    // so is Recycling (Rule 1.7.39).
    is_exchange(a)
        || matches!(
            a,
            Action::UnBock
                | Action::UnBockColour { .. }
                | Action::LineChange
                | Action::Bonanza
                | Action::Recycling
        )
}
