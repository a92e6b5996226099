//! `[[game]]` tables: the games of the lounge, each of a kind (issue 41),
//! and the checks every games file passes before it is recorded.

use serde::{Deserialize, Serialize};

/// `[[game]]`: one game of the lounge (Rule 1.1.7).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// The tag in subjects, e.g. `MN12`.
    pub tag: String,
    /// Game Time at the start, as in a GSD (default `Monday 0900`).
    #[serde(default = "default_start")]
    pub start: String,
    /// The players in order of play, with their registered addresses.
    #[serde(rename = "player")]
    pub players: Vec<PlayerConfig>,
    /// The appointed referee's address, if any (judgments, Rule 1.16.4).
    pub referee: Option<String>,
    /// `[game.rulings]`: choices on contested rulings (RULINGS.md).
    #[serde(default)]
    pub rulings: crate::kinds::vol1::Rulings,
    /// Whether the game's lounge verdicts carry a picture of the game
    /// (issue 18; default on). Read from the configuration at every start,
    /// so it can be switched for a game already under way.
    #[serde(default = "yes")]
    pub picture: bool,
    /// The game's kind (issue 41; default `mn-vol1`, Volume 1).
    #[serde(default)]
    pub kind: crate::kinds::Kind,
    /// The turn deadline (`36h`, `48h counted`, `24 hours plain`,
    /// `rule-1.3.5`); default the kind's (Rule 1.3.5). Games of kinds other
    /// than Volume 1 only: Volume 1's is Rule 1.3.5's.
    #[serde(default)]
    pub deadline: Option<String>,
    /// `[game.kind_rulings]`: the kind's contested rulings, `key = "value"`
    /// (mc-xml: `build_at`, `unblock_adjacent`; RULINGS.md).
    #[serde(default)]
    pub kind_rulings: std::collections::BTreeMap<String, RulingValue>,
}

/// A value in `[game.kind_rulings]`: TOML's `true`, `3` or `"on"`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum RulingValue {
    /// `true` / `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A word.
    Text(String),
}

impl std::fmt::Display for RulingValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulingValue::Bool(b) => write!(f, "{b}"),
            RulingValue::Int(n) => write!(f, "{n}"),
            RulingValue::Text(t) => f.write_str(t),
        }
    }
}

impl GameConfig {
    /// `[game.kind_rulings]` as `key=value` pairs, as a kind reads them.
    pub fn kind_pairs(&self) -> Vec<(String, String)> {
        self.kind_rulings
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect()
    }
}

/// `true`: a serde default (`#[serde(default = "crate::config::yes")]`).
pub(crate) fn yes() -> bool {
    true
}

pub(crate) fn default_start() -> String {
    "Monday 0900".into()
}

/// `[[game.player]]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PlayerConfig {
    /// The name in the Token Table.
    pub name: String,
    /// The registered address: turns are accepted only from it.
    pub address: String,
}

/// Every player's name can be seen whole and taken for no other player's
/// (issue 40): no characters drawn as nothing, no two scripts mixed, and
/// no two players of different addresses whose names look alike
/// ([`crate::text::look_alike_key`]), in any of `games`.
///
/// # Errors
///
/// The first name that fails, with its game and why.
pub fn check_players(games: &[GameConfig]) -> Result<(), String> {
    let mut seen: std::collections::HashMap<String, (&str, &str, &str)> =
        std::collections::HashMap::new();
    for g in games {
        check_kind(g)?;
        for p in &g.players {
            if let Some(why) = crate::text::name_problem(&p.name) {
                return Err(format!("[[game]] {}: player {:?}: {why}", g.tag, p.name));
            }
            let key = crate::text::look_alike_key(&p.name);
            match seen.get(&key) {
                Some((name, address, tag)) if !address.eq_ignore_ascii_case(&p.address) => {
                    return Err(format!(
                        "[[game]] {}: player {:?} can be taken for {name:?} of {tag}, another \
                         address's: every name must look unlike every other player's",
                        g.tag, p.name
                    ));
                }
                Some(_) => {}
                None => {
                    seen.insert(key, (&p.name, &p.address, &g.tag));
                }
            }
        }
    }
    Ok(())
}

/// A game's kind, deadline and kind rulings (issue 41): the kind's own
/// player range and rulings; a deadline only for kinds other than Volume 1
/// (whose deadline is Rule 1.3.5's).
fn check_kind(g: &GameConfig) -> Result<(), String> {
    let at = |e: String| format!("[[game]] {}: {e}", g.tag);
    let vol1 = g.kind == crate::kinds::Kind::MnVol1;
    if let Some(d) = &g.deadline {
        if vol1 {
            return Err(at(
                "deadline: a Volume 1 game's deadline is Rule 1.3.5's".into()
            ));
        }
        crate::speaker::policy::Policy::parse(d).map_err(|e| at(e.to_string()))?;
    }
    if vol1 && !g.kind_rulings.is_empty() {
        return Err(at(
            "kind_rulings: a Volume 1 game's rulings are [game.rulings]".into(),
        ));
    }
    g.kind
        .check_rulings(&g.kind_pairs())
        .map_err(|e| at(e.to_string()))?;
    if !vol1 {
        g.kind
            .check_players(g.players.len())
            .map_err(|e| at(e.to_string()))?;
    }
    Ok(())
}
