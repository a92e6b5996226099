//! The game state the adjudicator folds over the log of legal turns.

use serde::Serialize;

mod records;

pub use records::{
    Began, Block, CourierStations, LastMove, Prison, RadioOrder, Received, Timed, Tithed, Toff,
    Visit,
};

use super::disruption::Disruption;
use crate::gsd::{Colour, GameTime, Good, Possession, StationMark, Tokens};
use crate::map::{GhostId, LineCode, Map, StationId};

/// Where a Piece is: a station and the line it is on (Rule 1.2.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Position {
    /// The station.
    pub station: StationId,
    /// The line, where known.
    pub line: Option<LineCode>,
}

impl Position {
    /// `Holborn (CN)`.
    pub fn text(&self, map: &Map) -> String {
        let name = &map.station(self.station).name;
        match self.line {
            Some(l) => format!("{name} ({l})"),
            None => name.clone(),
        }
    }
}

/// One player's part of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PlayerState {
    /// The name, as in the Token Table.
    pub name: String,
    /// Active (not marked `*`).
    pub active: bool,
    /// The Piece, or `None` while it is off the Map (Rule 1.1.8) or at a
    /// Ghost Station.
    pub at: Option<Position>,
    /// The Ghost Station the Piece is at (Rule 1.11.6), if any.
    pub ghost: Option<GhostId>,
    /// Home Station (Rule 1.12.1).
    pub home: Option<StationId>,
    /// Line Velocity (Rule 1.6.1).
    pub lv: u32,
    /// Charge (Rule 1.19.2), within -999..=999.
    pub charge: i32,
    /// Tokens.
    pub tokens: Tokens,
    /// Possessions.
    pub possessions: Vec<Possession>,
    /// Piece B of a Bifurcated player (Rule 1.7.42), created by
    /// `[Bifurcating to <Station>]`; `at` is then Piece A. `None` while
    /// the player has one Piece.
    #[serde(default)]
    pub piece_b: Option<Position>,
}

impl PlayerState {
    /// A player as Rule 1.1.8 has em join: 2 Black, 2 Red, 2 Bronze, LV 0,
    /// no Home, no Possessions, Piece off the Map.
    pub fn joining(name: &str) -> PlayerState {
        let mut tokens = Tokens::default();
        tokens.set(Colour::Black, 2);
        tokens.set(Colour::Red, 2);
        tokens.set(Colour::Bronze, 2);
        PlayerState {
            name: name.to_string(),
            active: true,
            at: None,
            ghost: None,
            home: None,
            lv: 0,
            charge: 0,
            tokens,
            possessions: Vec::new(),
            piece_b: None,
        }
    }

    /// The Drone as a game starts (Rules 1.1.2, 1.15.1): at Mornington
    /// Crescent with no Tokens, Inactive until someone carries the Drone
    /// Stick.
    pub fn drone(map: &Map) -> PlayerState {
        PlayerState {
            at: Some(Position {
                station: map.landmark(crate::map::Landmark::MorningtonCrescent),
                line: None,
            }),
            tokens: Tokens::default(),
            active: false,
            ..PlayerState::joining("Drone")
        }
    }

    /// Whether the player has one in eir Possessions, carried or in a
    /// Nantucket: Nantucketed Possessions "are still considered to exist in
    /// the game" (Rule 1.4.15), so a Unique one is in play (Rule 1.4.23).
    pub fn holds(&self, good: Good) -> bool {
        self.possessions.iter().any(|p| p.good() == good)
    }

    /// Whether the player carries a Possession of this kind (one in a
    /// Nantucket is not carried, Rule 1.4.15).
    pub fn carries(&self, good: Good) -> bool {
        // "Any possessions in a Nantucket are not considered to be carried"
        // (Rule 1.4.15).
        self.possessions
            .iter()
            .any(|p| !p.nantucket && p.good() == good)
    }

    /// Whether the player owns a Current All Day Rover Card, one stamped
    /// with the Game Day `day` (Rule 1.4.28).
    pub fn has_rover(&self, day: chrono::Weekday) -> bool {
        self.possessions
            .iter()
            .any(|p| p.item == crate::gsd::Item::Rover(day))
    }

    /// Whether the player wears a Possession of this kind.
    pub fn wears(&self, good: Good) -> bool {
        self.possessions.iter().any(|p| p.worn && p.good() == good)
    }

    /// Whether the player owns the Ticket Stub of a station (Rule 1.7.33).
    pub fn has_stub(&self, station: StationId) -> bool {
        self.possessions.iter().any(|p| {
            !p.nantucket && matches!(&p.item, crate::gsd::Item::Stub { at, .. } if *at == station)
        })
    }

    /// The station the Piece is at, if on the Map.
    pub fn station(&self) -> Option<StationId> {
        self.at.map(|a| a.station)
    }

    /// Whether the player is Bifurcated: has a second Piece (Rule 1.7.42).
    pub fn bifurcated(&self) -> bool {
        self.piece_b.is_some()
    }

    /// The stations of the player's Pieces: A's, then B's (Rule 1.7.42).
    pub fn stations(&self) -> impl Iterator<Item = StationId> + '_ {
        self.station()
            .into_iter()
            .chain(self.piece_b.map(|b| b.station))
    }
}

/// Whether two Places of Rule 1.7.9 are the same (any case and spacing).
fn same_place(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    norm(a) == norm(b)
}

/// Whether a player is the Drone (Rule 1.15.1).
pub fn is_drone(name: &str) -> bool {
    name.eq_ignore_ascii_case("Drone")
}

/// The whole state of a game between two Turns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GameState {
    /// Game Time.
    pub time: GameTime,
    /// The players in order of play (Rule 1.1.12).
    pub players: Vec<PlayerState>,
    /// Index of the player whose Turn it is.
    pub to_play: usize,
    /// The Disruptions box, in order (Rule 1.2.2).
    pub disruptions: Vec<Disruption>,
    /// Wild Stations, oldest first (Rule 1.11.1).
    pub wild: Vec<StationId>,
    /// Token Stacks, bottom to top (Rule 1.14.1).
    pub stacks: Vec<(StationId, Vec<Colour>)>,
    /// Blocks in force for one Round.
    pub blocks: Vec<Block>,
    /// Line States in force for one Round, with their setters. A Power
    /// Failure or Soaping in the Disruptions box with no entry here (a
    /// state read from tables alone) lasts until a Line State replaces it.
    pub timed: Vec<Timed>,
    /// The Drone has not taken a Turn since the Drone Stick was created or
    /// last taken from another Player: no one may claim it (Rule 1.15.2).
    pub stick_fresh: bool,
    /// An Upcoming Holiday was recorded on its own weekday: that day is not
    /// the Holiday, the next one is (Rule 1.13.7). Cleared at the day change.
    pub holiday_wait: bool,
    /// Visits of players' latest Moves (Rule 1.7.9).
    pub visits: Vec<Visit>,
    /// Stations whose Ticket Stub has been Purchased in the Game: none is
    /// Purchased again, even if since destroyed (Rule 1.4.18).
    pub stubs_bought: Vec<StationId>,
    /// Players whose most recent Turn performed `[Cowering]`: an Action
    /// targeting one costs one Red Token more (Rule 1.7.56).
    pub cowering: Vec<String>,
    /// Where each player's latest Turn began, for those the fold has seen
    /// play from a Station (Rule 1.4.44); not recovered from a GSD's tables.
    pub began: Vec<Began>,
    /// The Station of each Toff Clamp, oldest first (Rule 1.4.44): a Clamp
    /// the GSD shows without one here is not known to mornbot.
    pub toffs: Vec<Toff>,
    /// The age of each Prison Clamp, oldest first (Rule 1.4.47): a Clamp
    /// the GSD shows without one here is not known to mornbot.
    pub prisons: Vec<Prison>,
    /// Zones Tithed in each player's latest Turn, until the end of eir
    /// next (Rule 1.7.31): folded from the plays, recovered from a GSD's.
    pub tithes: Vec<Tithed>,
    /// Players at a Blasted Station, who must play a Move of Pass with no
    /// Actions as their next Turn (Rules 1.7.30, 1.4.38): folded from the
    /// plays; a GSD read from its tables does not show it.
    pub blasted: Vec<String>,
    /// Orders of `[Radio Clamp <N> to <Station>]` not yet carried out
    /// (Rule 1.4.46): folded from the plays, recovered from a GSD's.
    pub radio_orders: Vec<RadioOrder>,
    /// Clamps received since the receiver's last Turn (Rule 1.4.36): folded
    /// from the plays, recovered from a GSD's.
    pub received: Vec<Received>,
    /// Players whose latest Turn the fold has seen (or recovered from a
    /// GSD's plays): for them `received` is complete (Rule 1.4.36).
    pub turns_seen: Vec<String>,
    /// Suspect Packages on the Map and who placed each (Rules 1.4.7,
    /// 1.7.30).
    #[serde(default)]
    pub packages: Vec<super::hazards::Package>,
    /// The Station the Podume of Infinite Darkness rests at, when it rests
    /// on the Map (Rule 1.4.24); a carried PoID is a Possession.
    #[serde(default)]
    pub poid: Option<StationId>,
    /// Who placed the PoID where it rests (Rule 1.4.24): while it rests at
    /// Mornington Crescent e rolls a 295-sided die after each of eir Turns.
    #[serde(default)]
    pub poid_placer: Option<String>,
    /// The Station that die named, wracked by an explosion at the start of
    /// the next Turn unless Holy (Rule 1.4.24, RULINGS E126).
    #[serde(default)]
    pub poid_blast: Option<StationId>,
    /// The game's choices on contested rulings.
    pub rulings: crate::engine::Rulings,
    /// Where the latest Turn's Move went (Rule 1.8.9): folded from the
    /// plays, recovered from a GSD's latest.
    #[serde(default)]
    pub last_move: LastMove,
    /// The Courier's stations, while defined (Rule 1.11.2).
    #[serde(default)]
    pub courier: Option<CourierStations>,
    /// The lodes a `[Gold Rush]` of the latest Turn uncovered: at the start
    /// of the next Turn the gaps of each one's Token Stack are filled with
    /// Gold (Rule 1.7.47).
    #[serde(default)]
    pub lodes: Vec<StationId>,
    /// The Lost & Found Box, a queue: the front first (Rule 1.7.53).
    #[serde(default)]
    pub lost_found: Vec<crate::gsd::Item>,
    /// Gambits beyond the seed, players' recent positions and pending
    /// Denials (Rules 1.18.1 - 1.18.4).
    #[serde(default)]
    pub gambits: super::gambit::GambitBook,
    /// Turns played so far.
    pub turn: u64,
    /// The winner, once a Piece rests at Mornington Crescent (Rule 1.1.1).
    pub winner: Option<String>,
}

impl GameState {
    /// A state at `time` with these players, the first to play, and nothing
    /// else in force: no Disruptions, Stacks, Blocks or winner, the default
    /// rulings.
    pub fn new(time: GameTime, players: Vec<PlayerState>) -> GameState {
        GameState {
            time,
            players,
            to_play: 0,
            disruptions: Vec::new(),
            wild: Vec::new(),
            stacks: Vec::new(),
            blocks: Vec::new(),
            timed: Vec::new(),
            stick_fresh: false,
            holiday_wait: false,
            visits: Vec::new(),
            stubs_bought: Vec::new(),
            cowering: Vec::new(),
            began: Vec::new(),
            toffs: Vec::new(),
            prisons: Vec::new(),
            tithes: Vec::new(),
            blasted: Vec::new(),
            radio_orders: Vec::new(),
            received: Vec::new(),
            turns_seen: Vec::new(),
            packages: Vec::new(),
            poid: None,
            poid_placer: None,
            poid_blast: None,
            rulings: crate::engine::Rulings::default(),
            last_move: LastMove::Unknown,
            courier: None,
            lodes: Vec::new(),
            lost_found: Vec::new(),
            gambits: Default::default(),
            turn: 0,
            winner: None,
        }
    }

    /// The index of a player by name (any case).
    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// The next Active player after `i` in the order of play (Rule 1.3.2).
    pub fn next_active(&self, i: usize) -> usize {
        let n = self.players.len();
        (1..=n)
            .map(|k| (i + k) % n)
            .find(|&j| self.players[j].active)
            .unwrap_or(i)
    }

    /// The Active player other than the Drone who carries the Drone Stick:
    /// ey submit the Drone's Turns, and without em the Drone is Inactive
    /// (Rule 1.15.1).
    pub fn drone_handler(&self) -> Option<&PlayerState> {
        self.players
            .iter()
            .find(|p| p.active && !is_drone(&p.name) && p.carries(Good::DroneStick))
    }

    /// Marks the Drone Active exactly while an Active player carries the
    /// Drone Stick (Rule 1.15.1).
    pub fn refresh_drone(&mut self) {
        let handled = self.drone_handler().is_some();
        for p in self.players.iter_mut() {
            if is_drone(&p.name) {
                p.active = handled;
            }
        }
    }

    /// The day whose opening hours apply on `today`: a Holiday is a
    /// Sunday (Rule 1.13.7); recorded on its own weekday (while
    /// `holiday_wait`), the Holiday is the next one.
    pub fn opening_day(&self, today: chrono::Weekday) -> chrono::Weekday {
        let waiting = self.holiday_wait && today == self.time.day;
        let holiday = !waiting
            && self
                .disruptions
                .iter()
                .any(|d| matches!(d, Disruption::UpcomingHoliday(Some(h)) if *h == today));
        if holiday {
            chrono::Weekday::Sun
        } else {
            today
        }
    }

    /// Whether a station carries a disruption mark.
    pub fn has_mark(&self, station: StationId, mark: StationMark) -> bool {
        self.disruptions.iter().any(
            |d| matches!(d, Disruption::Station { at, mark: m } if *at == station && *m == mark),
        )
    }

    /// Whether a game-wide state is in the Disruptions box.
    pub fn has(&self, d: &Disruption) -> bool {
        self.disruptions.contains(d)
    }

    /// Puts a game-wide Disruption in force (at the end of the box) or
    /// lifts it.
    pub fn set(&mut self, d: Disruption, on: bool) {
        self.disruptions.retain(|x| *x != d);
        if on {
            self.disruptions.push(d);
        }
    }

    /// Restores what the last Round left in force from a GSD's plays when
    /// the state was read from its tables: each player's Blocks, Fires and
    /// one-Round Line States from eir latest play (they last until eir next
    /// Turn ends), a Line State only if the Disruptions box still shows it;
    /// and whether the Drone Stick was claimed since the Drone's last Turn.
    pub fn recover_round(&mut self, plays: &[crate::gsd::Play]) {
        use crate::gsd::Action;
        let mut seen: Vec<&str> = Vec::new();
        self.cowering.clear();
        self.tithes.clear();
        let mut blocks = Vec::new();
        let mut timed = Vec::new();
        for play in plays.iter().rev() {
            if seen.iter().any(|n| n.eq_ignore_ascii_case(&play.player)) {
                continue;
            }
            seen.push(&play.player);
            if play.actions().any(|a| matches!(a, Action::Cowering)) {
                self.cowering.push(play.player.clone());
            }
            if let Some(zone) = play.actions().find_map(|a| match a {
                Action::Tithe { zone } => Some(*zone),
                _ => None,
            }) {
                self.tithes.push(Tithed {
                    player: play.player.clone(),
                    zone,
                });
            }
            for a in play.actions() {
                match a {
                    Action::Blocking { station }
                    | Action::FireAtInterchange { station }
                    | Action::FireAtOther { station } => {
                        if let Some(id) = station.place.station() {
                            blocks.push(Block {
                                station: id,
                                by: play.player.clone(),
                            });
                        }
                    }
                    Action::LinePowerFailure { line } | Action::LineSoaped { line } => {
                        let state = if matches!(a, Action::LinePowerFailure { .. }) {
                            crate::gsd::LineState::PowerFailure
                        } else {
                            crate::gsd::LineState::Soaped
                        };
                        let d = Disruption::Line { line: *line, state };
                        if self.disruptions.contains(&d) {
                            timed.push(Timed {
                                disruption: d,
                                by: play.player.clone(),
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        self.blocks = blocks;
        self.timed = timed;
        // Each player's latest Visit (Timeouts discounted), late once
        // another player has played a Late Arrival from the same Place: the
        // adjudicator's own fold, over the plays the GSD shows.
        self.visits.clear();
        for play in plays {
            if matches!(play.the_move(), crate::gsd::Move::Timeout) {
                continue;
            }
            self.visits
                .retain(|v| !v.player.eq_ignore_ascii_case(&play.player));
            for a in play.actions() {
                match a {
                    Action::Visiting { place } => self.visits.push(Visit {
                        player: play.player.clone(),
                        place: place.clone(),
                        late: false,
                    }),
                    Action::LateArrival { place } => {
                        self.late_arrival(&play.player, place);
                    }
                    _ => {}
                }
            }
        }
        self.recover_radio_orders(plays);
        self.recover_received(plays);
        self.recover_last_move(plays);
        self.gambits.recover(plays);
        // Every Stub Purchased in the Game (Rule 1.4.18).
        for play in plays {
            for a in play.actions() {
                if let Action::Purchasing {
                    possession: crate::gsd::Item::Stub { at, .. },
                } = a
                {
                    if !self.stubs_bought.contains(at) {
                        self.stubs_bought.push(*at);
                    }
                }
            }
        }
        // The Drone Stick is fresh if claimed since the Drone's last Turn.
        self.stick_fresh = plays
            .iter()
            .rev()
            .find_map(|p| {
                if is_drone(&p.player) {
                    Some(false)
                } else {
                    p.actions()
                        .any(|a| matches!(a, Action::ClaimingDroneStick))
                        .then_some(true)
                }
            })
            .unwrap_or(false);
    }

    /// Where the latest Play's Move went (Rule 1.8.9): its destination (the
    /// far end of an escalator); a Pass, Farkle or Timeout, where its
    /// player stands in the tables.
    fn recover_last_move(&mut self, plays: &[crate::gsd::Play]) {
        use crate::gsd::Move;
        let Some(play) = plays.last() else {
            return;
        };
        self.last_move = match play.the_move() {
            Move::To {
                dest, escalator_to, ..
            } => LastMove::Ended(escalator_to.as_ref().unwrap_or(dest).place.station()),
            Move::Pass(_) | Move::Farkle(_) | Move::Timeout => {
                match self.player_index(&play.player) {
                    Some(i) => LastMove::Ended(self.players[i].station()),
                    None => LastMove::Unknown,
                }
            }
            Move::Bifurcated(..) => LastMove::Unknown,
        };
    }

    /// A Late Arrival from `place` by `by` (Rule 1.7.9): every other
    /// player whose latest Move visited the same Place must Pass next;
    /// returns who.
    pub fn late_arrival(&mut self, by: &str, place: &str) -> Vec<String> {
        let mut late = Vec::new();
        for v in &mut self.visits {
            if !v.player.eq_ignore_ascii_case(by) && same_place(&v.place, place) {
                v.late = true;
                late.push(v.player.clone());
            }
        }
        late
    }

    /// The Token Stack at a station.
    pub fn stack(&self, station: StationId) -> Option<&Vec<Colour>> {
        self.stacks
            .iter()
            .find(|(s, _)| *s == station)
            .map(|(_, t)| t)
    }

    /// Whether any Piece other than player `except`'s is at `station` (a
    /// Bifurcated player's Piece B too, Rule 1.7.42).
    pub fn occupied_by_other(&self, station: StationId, except: usize) -> bool {
        self.players
            .iter()
            .enumerate()
            .any(|(i, p)| i != except && p.stations().any(|s| s == station))
    }
}
