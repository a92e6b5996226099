//! The boundary between the GSD (text resolved to names) and the engine's
//! typed state: [`GameState::from_gsd`], [`GameState::to_gsd`] and
//! [`GameState::start_of`], used by the command line, the daemon, the demo
//! and the case runner alike.

use super::disruption::Disruption;
use super::state::{CourierStations, GameState, PlayerState, Position};
use crate::gsd::{Courier, Gsd, Luggage, Move, Place, PlayerRow, Stack};
use crate::map::Map;

/// Why a GSD does not describe a game state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// No Game Time box (Rule 1.13.1).
    #[error("the GSD has no Game Time")]
    NoTime,
    /// An empty Token Table.
    #[error("the GSD has no players")]
    NoPlayers,
    /// A name the map does not know (the parser resolves names, so this is
    /// a GSD built by hand or for another map).
    #[error("{0}")]
    Unknown(String),
}

impl GameState {
    /// The state a GSD describes: its tables, Game Time, and each Piece
    /// where its player's last Play left it; the next player is the one
    /// after the last Play's (Rule 1.3.2). What the last Round left in
    /// force (Blocks, one-Round Line States, Visits, the Drone Stick) is
    /// recovered from the Plays.
    pub fn from_gsd(g: &Gsd, map: &Map) -> Result<GameState, StateError> {
        let time = g.time.ok_or(StateError::NoTime)?;
        let find = |name: &str| {
            map.find(name)
                .ok_or_else(|| StateError::Unknown(format!("{name} is not a station of the map")))
        };
        let mut players = Vec::new();
        for row in &g.players {
            let mut p = PlayerState::joining(&row.name);
            p.active = row.active;
            p.home = row.home.as_deref().map(find).transpose()?;
            p.lv = row.lv;
            p.charge = row.charge;
            p.tokens = row.tokens;
            if let Some(l) = g
                .luggage
                .iter()
                .find(|l| l.player.eq_ignore_ascii_case(&row.name))
            {
                p.possessions = l.items.clone();
            }
            place_piece(&mut p, g);
            players.push(p);
        }
        if players.is_empty() {
            return Err(StateError::NoPlayers);
        }
        let disruptions: Vec<Disruption> = g
            .disruptions
            .iter()
            .map(|d| Disruption::from_gsd(d, map).map_err(|e| StateError::Unknown(e.to_string())))
            .collect::<Result<_, _>>()?;
        let wild = g.wild.iter().map(|w| find(w)).collect::<Result<_, _>>()?;
        let stacks = g
            .stacks
            .iter()
            .map(|s| Ok((find(&s.station)?, s.tokens.clone())))
            .collect::<Result<_, StateError>>()?;
        let courier = match &g.courier {
            Some(c) => Some(CourierStations {
                pickup: find(&c.pickup)?,
                destination: find(&c.destination)?,
            }),
            None => None,
        };
        let poid = GameState::poid_from_gsd(g, map)?;
        let (poid_placer, poid_blast) = GameState::poid_placer_from_gsd(g, map, poid);
        let mut state = GameState {
            disruptions,
            wild,
            stacks,
            courier,
            lodes: lodes_of(g, map),
            lost_found: g.lost_and_found.clone(),
            packages: GameState::packages_from_gsd(g, map),
            poid,
            poid_placer,
            poid_blast,
            turn: g.plays.len() as u64,
            ..GameState::new(time, players)
        };
        state.resolve_cascade_focus()?;
        state.recover_round(&g.plays);
        state.to_play = match g.plays.last().and_then(|p| state.player_index(&p.player)) {
            Some(i) => state.next_active(i),
            None => state.players.iter().position(|p| p.active).unwrap_or(0),
        };
        Ok(state)
    }

    /// A Token Cascade's focus is a player of the game, spelled as the Token
    /// Table spells em (Rule 1.7.36).
    pub fn resolve_cascade_focus(&mut self) -> Result<(), StateError> {
        let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        for d in &mut self.disruptions {
            if let Disruption::TokenCascade { focus, .. } = d {
                let name = names
                    .iter()
                    .find(|n| n.eq_ignore_ascii_case(focus))
                    .ok_or_else(|| {
                        StateError::Unknown(format!(
                            "the Token Cascade's focus {focus} is not a player of this game"
                        ))
                    })?;
                focus.clone_from(name);
            }
        }
        Ok(())
    }

    /// The state at a game's start for the players of a GSD (Rules 1.1.2,
    /// 1.1.8): everyone joins with the defaults, the Drone stands at
    /// Mornington Crescent, and Game Time is the GSD's wound back by the
    /// Plays' durations; the first Play's player is to play.
    pub fn start_of(g: &Gsd, map: &Map) -> Result<GameState, StateError> {
        let now = g.time.ok_or(StateError::NoTime)?;
        let minutes: u32 = g
            .plays
            .iter()
            .map(|p| {
                let actions: u32 = p
                    .actions()
                    .map(|a| a.spec().duration.minutes().unwrap_or(0))
                    .sum();
                actions + move_minutes(p.the_move())
            })
            .sum();
        let players: Vec<PlayerState> = g
            .players
            .iter()
            .map(|row| {
                // The Drone starts at Mornington Crescent with no Tokens
                // (Rule 1.1.2; Rule 1.2.0's example table).
                let mut p = if super::is_drone(&row.name) {
                    PlayerState::drone(map)
                } else {
                    PlayerState::joining(&row.name)
                };
                p.active = row.active;
                p
            })
            .collect();
        if players.is_empty() {
            return Err(StateError::NoPlayers);
        }
        let mut players = players;
        for (_, name) in resignations(g) {
            let at = resigner_seat(g, &players, &name);
            players.insert(at, PlayerState::joining(&name));
        }
        let first = g.plays.first().and_then(|p| {
            players
                .iter()
                .position(|q| q.name.eq_ignore_ascii_case(&p.player))
        });
        let to_play = first
            .or_else(|| players.iter().position(|p| p.active))
            .unwrap_or(0);
        Ok(GameState {
            to_play,
            ..GameState::new(super::time::rewind(now, minutes), players)
        })
    }

    /// The canonical GSD of this state: the tables, the boxes and the
    /// Plays given (the log that led here).
    pub fn to_gsd(&self, map: &Map, game: Option<&str>, plays: &[crate::gsd::Play]) -> Gsd {
        let name = |id: &crate::map::StationId| map.station(*id).name.clone();
        let players = self
            .players
            .iter()
            .map(|p| PlayerRow {
                name: p.name.clone(),
                active: p.active,
                home: p.home.as_ref().map(name),
                lv: p.lv,
                charge: p.charge,
                tokens: p.tokens,
            })
            .collect();
        let luggage = self
            .players
            .iter()
            .filter(|p| !p.possessions.is_empty())
            .map(|p| Luggage {
                player: p.name.clone(),
                items: p.possessions.clone(),
            })
            .collect();
        let stacks = self
            .stacks
            .iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(id, tokens)| Stack {
                station: name(id),
                quadrants: map.station(*id).quadrants.clone(),
                tokens: tokens.clone(),
            })
            .collect();
        Gsd {
            game: game.map(str::to_string),
            players,
            disruptions: self.disruptions.iter().map(|d| d.to_gsd(map)).collect(),
            time: Some(self.time),
            wild: self.wild.iter().map(name).collect(),
            courier: self.courier.map(|c| Courier {
                pickup: name(&c.pickup),
                destination: name(&c.destination),
            }),
            stacks,
            marked: self.packages_to_gsd(map),
            luggage,
            lost_and_found: self.lost_found.clone(),
            plays: plays.to_vec(),
        }
    }
}

/// The Game Time a Move takes: an hour for a Timeout (Rule 1.3.5), none
/// for a Pass or Farkle, 10 minutes for a Move to a Station (Rule 1.13.1),
/// each of a Bifurcated Player's two (RULINGS E102).
fn move_minutes(m: &Move) -> u32 {
    match m {
        Move::Timeout => 60,
        Move::Pass(_) | Move::Farkle(_) => 0,
        Move::To { .. } => 10,
        Move::Bifurcated(a, b) => move_minutes(a) + move_minutes(b),
    }
}

/// The lodes the GSD's last Play uncovered with `[Gold Rush]` and its
/// `{rolled gold-rush N}` (Rule 1.7.47): filled at the start of the next
/// Turn, which the GSD's tables do not show yet.
fn lodes_of(g: &Gsd, map: &Map) -> Vec<crate::map::StationId> {
    let Some(last) = g.plays.last() else {
        return Vec::new();
    };
    if !last
        .actions()
        .any(|a| matches!(a, crate::gsd::Action::GoldRush))
    {
        return Vec::new();
    }
    last.directives()
        .find_map(|d| match d {
            crate::gsd::Directive::RolledNamed { name, value }
                if name == crate::dice::GOLD_RUSH =>
            {
                crate::map::Venbacker::new(*value).and_then(|v| map.by_venbacker(v))
            }
            _ => None,
        })
        .into_iter()
        .collect()
}

/// The players a GSD's Plays show and its Token Table does not: each
/// resigned, for Rule 1.1.3 drops a resigner from the Token Table (RULINGS
/// S26). Each is `(plays before the resignation, name)`: e resigned after
/// eir last play, in order of those plays. The Drone never resigns.
pub fn resignations(g: &Gsd) -> Vec<(usize, String)> {
    let in_table = |n: &str| g.players.iter().any(|r| r.name.eq_ignore_ascii_case(n));
    let mut out: Vec<(usize, String)> = Vec::new();
    for (i, p) in g.plays.iter().enumerate() {
        if in_table(&p.player) || super::is_drone(&p.player) {
            continue;
        }
        match out
            .iter_mut()
            .find(|(_, n)| n.eq_ignore_ascii_case(&p.player))
        {
            Some(r) => r.0 = i + 1,
            None => out.push((i + 1, p.player.clone())),
        }
    }
    out.sort_by_key(|(n, _)| *n);
    out
}

/// Where a resigned player sat in the order of play: before the player
/// whose play followed eir first, else after the one whose play came
/// before it, else last.
fn resigner_seat(g: &Gsd, players: &[PlayerState], name: &str) -> usize {
    let seat = |n: &str| players.iter().position(|p| p.name.eq_ignore_ascii_case(n));
    let Some(first) = g
        .plays
        .iter()
        .position(|p| p.player.eq_ignore_ascii_case(name))
    else {
        return players.len();
    };
    if let Some(i) = g.plays.get(first + 1).and_then(|p| seat(&p.player)) {
        return i;
    }
    first
        .checked_sub(1)
        .and_then(|k| seat(&g.plays[k].player))
        .map_or(players.len(), |i| i + 1)
}

/// Puts a player's Piece where eir last Move in the GSD left it (a Ghost
/// Station, or a station and line; the far end of an escalator link); a
/// Bifurcated player's Piece B where `[Bifurcating to <Station>]` put it
/// or eir last `B:` Move left it, until a Move of one Piece ends where the
/// other stood (Rule 1.7.42, RULINGS E101).
fn place_piece(p: &mut PlayerState, g: &Gsd) {
    let name = p.name.clone();
    for pl in g
        .plays
        .iter()
        .filter(|pl| pl.player.eq_ignore_ascii_case(&name))
    {
        match pl.the_move() {
            Move::To { .. } => {
                place_one(p, pl.the_move());
                p.piece_b = None;
            }
            Move::Bifurcated(a, b) => {
                place_one(p, a);
                std::mem::swap(&mut p.at, &mut p.piece_b);
                place_one(p, b);
                std::mem::swap(&mut p.at, &mut p.piece_b);
                if p.at.is_some() && p.at.map(|x| x.station) == p.piece_b.map(|x| x.station) {
                    p.piece_b = None;
                }
            }
            Move::Pass(_) | Move::Farkle(_) | Move::Timeout => {}
        }
        for a in pl.actions() {
            if let crate::gsd::Action::Bifurcating { station } = a {
                p.piece_b = station.place.station().map(|station| Position {
                    station,
                    line: None,
                });
            }
        }
    }
}

/// Moves one Piece (`at`) where a Move to a station leaves it.
fn place_one(p: &mut PlayerState, mv: &Move) {
    let Move::To {
        dest, escalator_to, ..
    } = mv
    else {
        return;
    };
    match (dest.place, escalator_to) {
        (Place::Ghost(g), _) => {
            p.ghost = Some(g);
            p.at = None;
        }
        (_, Some(e)) => {
            p.ghost = None;
            p.at = e.place.station().map(|station| Position {
                station,
                line: None,
            })
        }
        (Place::Station(station), None) => {
            p.ghost = None;
            p.at = Some(Position {
                station,
                line: dest.line,
            })
        }
    }
}
