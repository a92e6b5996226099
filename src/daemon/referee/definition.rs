//! A game's stored definition (its configuration as the database keeps
//! it: players, rulings, kind, deadline) and the state a Volume 1 game
//! starts in.

use serde::{Deserialize, Serialize};

use super::snapshot;
use crate::config::GameConfig;
use crate::map::Map;

/// The stored definition of a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Definition {
    /// The configuration the game started with.
    pub config: GameConfigDef,
}

/// [`GameConfig`] as stored (serde both ways).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameConfigDef {
    /// Tag.
    pub tag: String,
    /// Start Game Time text.
    pub start: String,
    /// Players: name and address, in order of play.
    pub players: Vec<(String, String)>,
    /// Referee address.
    pub referee: Option<String>,
    /// Choices on contested rulings (absent in games stored before they
    /// existed: the defaults).
    #[serde(default)]
    pub rulings: crate::kinds::vol1::Rulings,
    /// Whether lounge verdicts carry a picture (absent in games stored
    /// before pictures: on). The configuration's value wins at each start.
    #[serde(default = "crate::config::yes")]
    pub picture: bool,
    /// The game's kind (issue 41): absent in every game stored before
    /// kinds, and in every Volume 1 game, whose definitions are unchanged.
    #[serde(default, skip_serializing_if = "is_vol1")]
    pub kind: crate::kinds::Kind,
    /// The turn deadline, when not the kind's (Rule 1.3.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<crate::speaker::policy::Policy>,
    /// The kind's contested rulings, `key=value` (Volume 1's are
    /// [`GameConfigDef::rulings`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kind_rulings: Vec<(String, String)>,
}

fn is_vol1(k: &crate::kinds::Kind) -> bool {
    *k == crate::kinds::Kind::MnVol1
}

impl GameConfigDef {
    /// Whether the game is one of Volume 1, judged by the referee's own
    /// Volume 1 path; the others are hosted through their kind.
    pub fn is_vol1(&self) -> bool {
        is_vol1(&self.kind)
    }

    /// The game's deadline policy.
    pub fn policy(&self) -> crate::speaker::policy::Policy {
        self.deadline
            .unwrap_or_else(|| self.kind.default_deadline())
    }

    /// The player registered at `address`.
    pub fn player_at(&self, address: &str) -> Option<&str> {
        self.players
            .iter()
            .find(|(_, a)| crate::mail::address::same(a, address))
            .map(|(n, _)| n.as_str())
    }

    /// The registered address of `player` (any case).
    pub fn address_of(&self, player: &str) -> Option<&str> {
        self.players
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(player))
            .map(|(_, a)| a.as_str())
    }

    /// Whether the game can start as defined: Volume 1's start state, or
    /// its kind's (player range, names, rulings); why not.
    pub fn check(&self, map: &Map) -> Result<(), String> {
        if self.is_vol1() {
            return start_state(self, map).map(|_| ());
        }
        let names: Vec<String> = self.players.iter().map(|p| p.0.clone()).collect();
        self.kind
            .check_start(&names, &self.kind_rulings)
            .map_err(|e| e.to_string())
    }

    /// The encoding version a current snapshot of the game has: Volume
    /// 1's, or its kind's.
    pub fn snapshot_version(&self) -> &'static str {
        if self.is_vol1() {
            snapshot::VERSION
        } else {
            self.kind.encoding()
        }
    }
}

impl From<&GameConfig> for GameConfigDef {
    fn from(c: &GameConfig) -> Self {
        GameConfigDef {
            tag: c.tag.clone(),
            start: c.start.clone(),
            players: c
                .players
                .iter()
                .map(|p| (p.name.clone(), crate::mail::address::normalize(&p.address)))
                .collect(),
            referee: c.referee.clone(),
            rulings: c.rulings.clone(),
            picture: c.picture,
            kind: c.kind,
            // Checked by `config::check_players` when the file is read.
            deadline: c
                .deadline
                .as_deref()
                .and_then(|d| crate::speaker::policy::Policy::parse(d).ok()),
            kind_rulings: c.kind_pairs(),
        }
    }
}

/// The state a Volume 1 game starts in (Rules 1.1.2, 1.1.8), as its kind
/// makes it from the definition: everyone with the joining defaults, off
/// the Map, at the configured Game Time; the Drone at the configured map's
/// Mornington Crescent.
pub fn start_state(
    def: &GameConfigDef,
    map: &Map,
) -> Result<crate::kinds::vol1::GameState, String> {
    let names: Vec<String> = def.players.iter().map(|(n, _)| n.clone()).collect();
    crate::kinds::vol1::start_state(&def.start, &names, def.rulings.clone(), map)
}
