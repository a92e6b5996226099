//! One play against one state: the adjudicator of Volume 1, in files by
//! rule family so that a rule is found by its number:
//!
//! | file | rules |
//! |---|---|
//! | `turn.rs` | the Turn: whose it is, phases, one Action of a kind, its end (1.3, 1.1.1, 1.13.1) |
//! | `dispatch.rs` | every Action of the index to its handler; costs, gains, durations from the table (1.7.2) |
//! | `economy.rs` | paying and gaining Tokens, Bocks, the Bureau de Change, Bonanza, Poll Tax (1.4.10, 1.4.19, 1.4.37, 1.7.21, 1.8.8) |
//! | `movement.rs` | the Move: Standard Moves, routes, Token Collection, Charge (1.5, 1.6, 1.4.20, 1.19.2) |
//! | `clamps.rs` | Clamps and Velocity Bombs given and removed (1.4.38 - 1.4.45) |
//! | `courier.rs` | the Three-Point Courier and the Gold Rush, their Venbacker dice (1.11.2, 1.7.47) |
//! | `flourish.rs` | the fFrobisher fFlourish: six dice, the Pool and the share table (1.7.59) |
//! | `lostfound.rs` | Lost & Found: [Finding]'s die, the table, the Lost & Found Box (1.7.53) |
//! | `bomb.rs` | explosions: detonated Suspect Packages and the Velocity Bomb, Blasted Stations, chained detonations; Blasted players Pass (1.4.38, 1.7.30) |
//! | `poid.rs` | the Podume of Infinite Darkness: placed, collected, Forged, destroyed at Holy Stations, its carrier's protection and price, its effects while it rests (1.4.24) |
//! | `poid_mc.rs` | the PoID's 295-sided die at Mornington Crescent and its explosion; the PoID Shunted (1.4.24) |
//! | `packages.rs` | Suspect Packages: Dropping, no Move through one, Shunting one; Detonating and Defusing (1.4.7, 1.7.30) |
//! | `critters.rs` | Pigeons and Rats caught and released, the Token Generator (1.4.25, 1.4.35, 1.7.54) |
//! | `restraints.rs` | What carried Possessions forbid: Clamps, Velocity Bombs, the Podume, Pigeons, Rats, the Parcel (1.4.24 - 1.4.47, 1.11.2) |
//! | `special.rs` | Special Moves: Walking, Home, Wild, Stub Link, Striling, Declension, Ghosting (1.5.0, 1.7.x, 1.11.6) |
//! | `translocate.rs` | Translocations: Wormholes, Straddles, Charge Tunneling (1.5.13, 1.7.6, 1.7.13, 1.19.4) |
//! | `choice.rs` | choices a play leaves unwritten: the only one taken, several named (E134) |
//! | `explain.rs` | which rule stops a Move that has no route (E11) |
//! | `states.rs` | game-wide States (1.8) |
//! | `cascade.rs` | Token Cascades: begun, paid at each Turn's start, Stolen, Killed (1.7.36, 1.7.37) |
//! | `bounds.rs` | States that bound a Move's destination: Parks and Greens, the Venbacker Ladder, the Dollis Hill Loop (1.8.1, 1.8.2, 1.8.6, 1.8.9) |
//! | `stations.rs` | Blocks, Fires, Bulkheads, Maelbergs, Kafka Sinkholes (1.9) |
//! | `lines.rs` | Line States and Speed Limits (1.20), Electrical Possessions on Electrified lines (1.4.33) |
//! | `home.rs` | Home Stations, Tolls and Rent (1.12) |
//! | `drone.rs` | the Drone Stick (1.15) |
//! | `game_time.rs` | Game Time Actions: Waiting, Long Lunch, Night Train, Holidays (1.7.51, 1.7.52, 1.13) |
//! | `openings.rs` | Open and Closed stations, Holy Stations, Opening MC (1.13.4 - 1.13.6, 1.11.3, 1.11.7, 1.7.28) |
//! | `pegs.rs` | Pegged Stations and Line Segments, Wild Stations (1.11.1, 1.11.4, 1.11.5) |
//! | `shop.rs` | the Emporium: buying, selling, Hats, Busking, Recycling (1.4.6, 1.4.18, 1.7.20, 1.7.39) |
//! | `luggage.rs` | the Luggage Rack: Garments, Discarding, Eating, Electrical Possessions, sizes (1.4.12, 1.4.16, 1.4.22, 1.4.30, 1.4.31, 1.4.33) |
//! | `bifurcation.rs` | Me and My Shadow: the second Piece, its Moves, its upkeep, Pieces destroyed (1.7.42) |
//! | `actions.rs` | Rule 1.7's other Actions: Visits, Streaking, the Hyde Mask, Freewheeling, ... |
//! | `stacks.rs` | Token Stacks (1.14, 1.4.9, 1.7.57), Inverting, Vacuuming (1.4.34, 1.4.49) |
//! | `topple.rs` | Toppling a Stack along a line (1.7.55) |
//! | `tithe.rs` | Tithing a Zone and collecting the Tithe (1.7.31) |
//! | `targets.rs` | Actions against another Player: Huffs, Blonks, Shadows, claims (1.10.0, 1.10.5, 1.10.15, 1.10.16) |
//! | `shunts.rs` | Shunts of Players and Stacks (1.10.1, 1.10.3, 1.10.17, 1.10.18) |
//! | `double_shunts.rs` | Double and greater Shunts (1.10.2) |
//! | `shunt_resting.rs` | Shunts and Double Shunts of a Suspect Package or the PoID resting at a Station (1.4.7, 1.4.24, 1.10.2) |
//! | `magnify.rs` | Fosdyke's Magnifier loosening an Action's FR (1.4.48, 1.17.9) |
//! | `magno.rs` | the Magno-Clamp's Attracting and Magno-Gone (1.4.45) |
//! | `nantucket.rs` | the Overcoat's Nantucket: Reshuffling, stolen and lost contents (1.4.15) |
//! | `knerdling.rs` | Knerdling: a Clamp received since the last Turn, then the Stick, handed on (1.4.36) |
//! | `gambits.rs` | Manoeuvres and Gambits: Declaraction, Usage, Denial, the recent positions (1.18.1 - 1.18.4) |
//! | `radiation.rs` | Remote Controls and Radio Clamps: Radiating, the Controller's orders, De-Radiating (1.4.46) |

use chrono::Weekday;

use super::route::{search, Rules};
use super::rulings::{InterchangeFire, SoapedPhase};
use super::state::{is_drone, Block, GameState, Position, Visit};
use super::time::advance;
use super::{emporium, Disruption, Outcome, Verdict, Violation};
use crate::gsd::{
    Action, Colour, Directive, Hat, Item, LineState, Move, Phase, Place, Play, StationMark, Target,
};
use crate::map::{Category, Landmark, LineCode, Map, StationId, StationKind};

mod actions;
mod bifurcation;
mod bomb;
mod bounds;
mod cascade;
mod choice;
mod clamps;
mod courier;
mod critters;
mod dispatch;
mod double_shunts;
mod drone;
mod economy;
mod explain;
mod flourish;
mod gambits;
mod game_time;
mod home;
mod knerdling;
mod lines;
mod lostfound;
mod luggage;
mod magnify;
mod magno;
mod movement;
mod nantucket;
mod openings;
mod packages;
mod pegs;
mod poid;
mod poid_mc;
mod prison;
mod radiation;
mod restraints;
mod shop;
mod shunt_resting;
mod shunts;
mod special;
mod stacks;
mod states;
mod stations;
mod targets;
mod tithe;
mod toff;
mod topple;
mod translocate;
mod turn;

/// Most stations a move search looks at when telling a player which LV
/// would have reached eir destination.
const MAX_ROUTE: u32 = 40;

/// Adjudicates `play` against `state` on `map`.
pub fn adjudicate(map: &Map, state: &GameState, play: &Play) -> Outcome {
    let mut t = Turn::new(map, state, play);
    t.run();
    t.finish()
}

/// A play a Judgment made Legal (Rules 1.16.4, 1.1.6: the Speaker's word
/// stands): judged as [`adjudicate`] does, and its state is the state as
/// far as the engine could play it, whatever the verdict (RULINGS S11).
/// `None` only when the play is not the Turn of the player to move.
pub fn adjudicate_judged(map: &Map, state: &GameState, play: &Play) -> Outcome {
    let mut t = Turn::new(map, state, play);
    t.run();
    let s = t.s.clone();
    let mut out = t.finish();
    // Out of turn (Rule 1.3.2) the engine played nothing: no state.
    if !out.violations.iter().any(|v| v.rule == "1.3.2") {
        out.state = Some(s);
    }
    out
}

/// What a handler leaves the dispatcher to do about the Action's price
/// (`grammar/actions.toml`'s Cost and Gain): never a bare bool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Charge {
    /// Pay the table's Cost (with Bocks and the Hyde Mask, Rules 1.8.8,
    /// 1.7.38) and credit its Gain.
    Table,
    /// An exchange: the table's Cost is paid and lost, not stacked (Rule
    /// 1.4.19), and its Gain credited.
    Exchange,
    /// The handler paid what the play costs and credited what it gains
    /// (a price the table leaves to the rule, e.g. `xBr`).
    Paid,
    /// Nothing is paid: a rule waives the Cost (a Spanger's Shunt, a Rover
    /// Card's Line Change) or the Action failed before it cost anything.
    Free,
}

/// Before or after the Move: where a neutral Action is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    Before,
    After,
}

/// The kinds of Special Move an Action permits (Rule 1.5.0).
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
    /// The Dollis Hill Loop's Special Move to its Trap Station (Rule 1.8.6).
    Loop,
}

/// What the verdict is made of.
#[derive(Default)]
struct Findings {
    violations: Vec<Violation>,
    rulings: Vec<Violation>,
    changes: Vec<String>,
    /// Gambits declared (Rule 1.18.1).
    declared: Vec<super::gambit::Gambit>,
}

/// Game Time within the Turn (Rule 1.13.1).
#[derive(Clone, Default)]
struct Clock {
    /// Minutes the Turn has taken so far.
    minutes: u32,
    /// Extra minutes a Long Lunch or Waiting adds to the 60-minute Turn
    /// (Rules 1.7.51, 1.7.52).
    extra_limit: u32,
    /// British Rail Coffee was eaten: later Actions take half as long
    /// (Rule 1.4.16).
    coffee: bool,
    /// The Action being settled is the Eating of the Coffee: halving starts
    /// after it.
    coffee_next: bool,
    /// [Waiting] Actions judged so far (each has its own `{waits}`).
    waits: usize,
}

/// What the Move did and where the Piece went (Rules 1.5, 1.14).
#[derive(Clone, Default)]
struct MoveFacts {
    /// Where the Piece stood when the Turn began.
    started_at: Option<StationId>,
    /// The Piece entered the Map this Turn.
    entered: bool,
    /// The Special Move an Action permits this Turn.
    special: Option<Special>,
    /// [Rebounding] was played (Rule 1.5.6).
    rebounding: bool,
    /// Stations a valid route of the Move passes through (Rule 1.5.1).
    through: Vec<StationId>,
    /// Line Directions in which a valid route of the Standard Move arrives
    /// (Rule 1.7.6).
    arrivals: Vec<crate::map::Direction>,
    /// The Player carried Metallic Tokens when eir Move began (Rule 1.20.3).
    metallic: bool,
    /// The Line Change is paid for this Turn (Rule 1.5.11).
    line_change_paid: bool,
    /// Standard Moves of this Turn that changed line (two for a
    /// Bifurcated Player's, Rule 1.7.42).
    line_changes: u32,
    /// The one Piece's Move being judged, as written, while a Bifurcated
    /// Player's Moves are (Rule 1.7.42).
    written: Option<String>,
}

/// Stations opened or closed for this Turn only.
#[derive(Clone, Default)]
struct Openings {
    /// [Opening MC] (Rule 1.7.28).
    mc: bool,
    /// [Collection Plate] opened every Holy Station (Rule 1.11.7).
    holy: bool,
    /// Home Stations tolled (Closed, not Blocked) or rented (Open):
    /// (station, rented) (Rule 1.12.3).
    tolled: Vec<(StationId, bool)>,
}

/// What this Turn has done that later Actions depend on.
#[derive(Clone, Default)]
struct Tally {
    /// Blocks placed (the nth costs n Red, Rule 1.9.1).
    blocks: u32,
    /// One-Round Line States set (Rules 1.20.5, 1.20.6).
    timed: u32,
    /// Non-Bronze Tokens paid for Actions (Rule 1.4.19).
    spent: Vec<Colour>,
    /// A Helsinki was played (one per Turn, Rule 1.7.57).
    helsinki: bool,
    /// A Straddle was made: no Aggressive Action after it (Rule 1.7.6).
    straddled: bool,
    /// Stations a Token was claimed from (Rule 1.14.4).
    claimed_from: Vec<StationId>,
    /// Stations a Token was placed on (Rule 1.14.4).
    dropped_on: Vec<StationId>,
    /// [Recycling] Actions judged so far (each reads its own `{recycles}`).
    recycled: usize,
    /// [Releasing Rat] Actions judged so far (each reads its own `{Rat to}`).
    rats_released: usize,
    /// A [Recycling] was performed, not merely played (Rule 1.4.41, E76).
    recycled_ok: bool,
    /// The Turn's [Magnify], once played (Rule 1.4.48).
    magnify: Option<magnify::Magnified>,
    /// The players the dice of the Turn's `[fFrobisher fFlourish]` picked,
    /// shared to as the Turn ends (Rule 1.7.59).
    flourish: Option<Vec<usize>>,
}

/// The Shunts of this Move (Rules 1.10.1, 1.10.2).
#[derive(Clone, Default)]
struct Shunts {
    /// The LV the first Shunt used and where the last sent its target.
    made: Option<(u32, StationId)>,
    /// Players Shunted: none twice.
    players: Vec<usize>,
    /// Stations where a Shunted Stack landed.
    stacks: Vec<StationId>,
    /// Suspect Packages Shunted (their indices in the state's list).
    packages: Vec<usize>,
    /// Whether the PoID was Shunted.
    poid: bool,
    /// Shunts that may claim so far (the next takes the next `{claims}`).
    claims: usize,
}

/// The state as the Turn began, for rules that compare with it.
struct Initial {
    /// The Token Stacks (Rule 1.14.2).
    stacks: Vec<(StationId, Vec<Colour>)>,
    /// Each player's (Big or Huge, Huge) Possessions (Rule 1.4.31).
    sizes: Vec<(u32, u32)>,
    /// Each player's name, LV and Charge, for what the Turn changed.
    levels: Vec<(String, u32, i32)>,
}

/// One Turn being judged: the state it changes and what it has done.
struct Turn<'a> {
    map: &'a Map,
    play: &'a Play,
    /// The state, changed as the Turn goes.
    s: GameState,
    /// The index of the player whose Turn it is.
    me: usize,
    out: Findings,
    clock: Clock,
    mv: MoveFacts,
    opened: Openings,
    tally: Tally,
    shunts: Shunts,
    initial: Initial,
    /// Piece B's Move facts while Piece A's are in `mv` (Rule 1.7.42).
    other: bifurcation::OtherPiece,
}

impl<'a> Turn<'a> {
    fn new(map: &'a Map, state: &GameState, play: &'a Play) -> Turn<'a> {
        Turn {
            map,
            play,
            s: state.clone(),
            me: state.to_play,
            out: Findings::default(),
            clock: Clock::default(),
            mv: MoveFacts {
                started_at: state.players.get(state.to_play).and_then(|p| p.station()),
                ..MoveFacts::default()
            },
            opened: Openings::default(),
            tally: Tally::default(),
            shunts: Shunts::default(),
            other: bifurcation::OtherPiece::default(),
            initial: Initial {
                stacks: state.stacks.clone(),
                sizes: state.players.iter().map(luggage::sizes).collect(),
                levels: state
                    .players
                    .iter()
                    .map(|p| (p.name.clone(), p.lv, p.charge))
                    .collect(),
            },
        }
    }

    /// A violation of `rule`.
    fn illegal(&mut self, rule: &str, msg: impl Into<String>) {
        self.out.violations.push(Violation::new(rule, msg));
    }

    /// Something the engine cannot judge: a human rules on `rule`.
    fn ruling(&mut self, rule: &str, msg: impl Into<String>) {
        let v = Violation::new(rule, msg);
        if !self.out.rulings.contains(&v) {
            self.out.rulings.push(v);
        }
    }

    /// What the play changed, in words.
    fn change(&mut self, what: impl Into<String>) {
        self.out.changes.push(what.into());
    }

    /// Each player's LV and Charge that the Turn changed, in words.
    fn level_changes(&mut self) {
        let mut lines = Vec::new();
        for p in &self.s.players {
            let Some((_, lv, charge)) = self.initial.levels.iter().find(|(n, ..)| *n == p.name)
            else {
                continue;
            };
            if *lv != p.lv {
                lines.push(format!("{}'s LV {lv} -> {}", p.name, p.lv));
            }
            if *charge != p.charge {
                lines.push(format!("{}'s Charge {charge} -> {}", p.name, p.charge));
            }
        }
        self.out.changes.extend(lines);
    }

    fn finish(mut self) -> Outcome {
        self.level_changes();
        let verdict = if !self.out.violations.is_empty() {
            Verdict::Illegal
        } else if !self.out.rulings.is_empty() {
            Verdict::NeedsRuling
        } else {
            Verdict::Legal
        };
        let legal = verdict == Verdict::Legal;
        Outcome {
            verdict,
            violations: self.out.violations,
            rulings: if legal { vec![] } else { self.out.rulings },
            changes: if legal { self.out.changes } else { vec![] },
            declared: if legal { self.out.declared } else { vec![] },
            state: legal.then_some(self.s),
        }
    }

    fn name(&self, id: StationId) -> &str {
        &self.map.station(id).name
    }

    /// The player whose Turn it is, by name.
    fn my_name(&self) -> String {
        self.s.players[self.me].name.clone()
    }

    /// The Piece's station now.
    fn here(&self) -> Option<StationId> {
        self.s.players[self.me].station()
    }

    /// The Piece's station when an Action before or after the Move is played.
    fn at(&self, when: When) -> Option<StationId> {
        match when {
            When::Before => self.mv.started_at,
            When::After => self.here(),
        }
    }

    /// Whether two stations are next to each other on some line.
    fn adjacent(&self, a: StationId, b: StationId) -> bool {
        LineCode::ALL
            .iter()
            .any(|&l| self.map.neighbours(a, l).contains(&b))
    }

    /// Game Time now, within the Turn: the Turn's start plus the minutes of
    /// the Actions so far (Actions happen in written order, Rule 1.2.0).
    fn now(&self) -> crate::gsd::GameTime {
        advance(self.s.time, self.clock.minutes)
    }

    /// Adds an Action's minutes, halved (rounded down) after British Rail
    /// Coffee (Rule 1.4.16).
    fn action_minutes(&mut self, m: u32) {
        self.clock.minutes += if self.clock.coffee { m / 2 } else { m };
    }

    /// The station an Action names, which must be one of the map: a Ghost
    /// Station is not (Rule 1.11.6: "adjacent to nowhere").
    fn station_of(&mut self, target: &Target, a: &Action) -> Option<StationId> {
        match target.place.station() {
            Some(id) => Some(id),
            None => {
                self.illegal(
                    a.spec().rule,
                    format!(
                        "{} is a Ghost Station, on no line and adjacent to nowhere (Rule 1.11.6): {} needs a station of the map",
                        target.station,
                        a.render()
                    ),
                );
                None
            }
        }
    }

    /// The first directive the play states that `pick` selects.
    fn directive<T>(&self, pick: impl Fn(&Directive) -> Option<T>) -> Option<T> {
        self.play.directives().find_map(pick)
    }
}

/// Tokens as words: `1 Gold, 2 Silver`.
/// Tokens by colour, `1 Red, 2 Blue`, in the order of [`Colour::ALL`].
fn fmt_colours(t: &[Colour]) -> String {
    let counts: Vec<(u32, Colour)> = Colour::ALL
        .iter()
        .map(|c| (t.iter().filter(|x| *x == c).count() as u32, *c))
        .filter(|(n, _)| *n > 0)
        .collect();
    fmt_tokens(&counts)
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
