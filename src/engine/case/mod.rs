//! The rule-case format of `fixtures/cases/**/*.toml` (our DATC): a state,
//! a play, and what the adjudicator must say. Other tools read this format;
//! keys this version does not know are reported (and ignored), so a case
//! written for a later version still runs. The state a case describes is
//! built in `state.rs`, what it expects is checked in `check.rs`.

mod check;
mod state;

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{adjudicate, Verdict};
use crate::gsd::parse_play;
use crate::map::Map;

/// A case file.
#[derive(Debug, Deserialize)]
pub struct Case {
    /// Unique id, e.g. `lv-exact-001`.
    pub id: String,
    /// The rules the case exercises.
    pub rules: Vec<String>,
    /// One line on what it shows.
    pub summary: String,
    /// The state before the play.
    pub state: CaseState,
    /// The play.
    pub play: CasePlay,
    /// What must come out.
    pub expect: Expect,
    /// Keys of the file this version does not know (ignored).
    #[serde(skip)]
    pub unknown_keys: Vec<String>,
}

/// `[state]`.
#[derive(Debug, Deserialize)]
pub struct CaseState {
    /// Game Time as in a GSD (`Monday 0900`).
    pub time: String,
    /// Order of play.
    pub order: Vec<String>,
    /// Whose Turn it is.
    pub to_play: String,
    /// The Disruptions box, item by item.
    #[serde(default)]
    pub disruptions: Vec<String>,
    /// Wild Stations.
    #[serde(default)]
    pub wild: Vec<String>,
    /// Token Stacks, bottom to top (`"ReGo"`).
    #[serde(default)]
    pub stacks: BTreeMap<String, String>,
    /// The Courier's Pick-Up and Destination Stations, in that order
    /// (Rule 1.11.2); absent or empty: undefined.
    #[serde(default)]
    pub courier: Vec<String>,
    /// Gold Rush lodes the latest Turn found, filled at the start of this
    /// one (Rule 1.7.47).
    #[serde(default)]
    pub lodes: Vec<String>,
    /// The Lost & Found Box, front first, as the GSD writes its items
    /// (Rule 1.7.53).
    #[serde(default)]
    pub lost_found: Vec<String>,
    /// Players (any not listed join as Rule 1.1.8 says).
    #[serde(default)]
    pub players: Vec<CasePlayer>,
    /// Blocks in force for one Round.
    #[serde(default)]
    pub blocks: Vec<CaseBlock>,
    /// The game's choices on contested rulings (an extension of the format;
    /// omitted: RULINGS.md's decisions).
    #[serde(default)]
    pub rulings: crate::engine::Rulings,
    /// Visits of players' latest Moves (Rule 1.7.9; an extension of the
    /// format): `[[state.visits]]` with `player`, `place` and `late`.
    #[serde(default)]
    pub visits: Vec<crate::engine::Visit>,
    /// Where players' latest Turns began (Rule 1.4.44; an extension of the
    /// format): `[[state.began]]` with `player` and `at`, a station.
    #[serde(default)]
    pub began: Vec<CasePlayerAt>,
    /// The Stations of Toff Clamps carried, oldest first (Rule 1.4.44; an
    /// extension of the format): `[[state.toffs]]` with `player` and `at`.
    #[serde(default)]
    pub toffs: Vec<CasePlayerAt>,
    /// The ages of Prison Clamps carried, oldest first (Rule 1.4.47; an
    /// extension of the format): `[[state.prisons]]` with `player` and
    /// `turns` (eir Turns begun while carrying it).
    #[serde(default)]
    pub prisons: Vec<crate::engine::Prison>,
    /// Players Blasted by an explosion, who must play Pass with no Actions
    /// as their next Turn (Rules 1.7.30, 1.4.38; an extension of the
    /// format): `blasted = ["Bob"]`.
    #[serde(default)]
    pub blasted: Vec<String>,
    /// Suspect Packages on the Map (Rule 1.4.7; an extension of the
    /// format): `[[state.packages]]` with `at`, a station, and `by`, who
    /// placed it (omitted: not known, as from a GSD's tables).
    #[serde(default)]
    pub packages: Vec<CasePackage>,
    /// The Station the PoID rests at (Rule 1.4.24; an extension of the
    /// format): `poid = "Holborn"`.
    pub poid: Option<String>,
    /// Who placed the PoID where it rests (Rule 1.4.24; an extension of
    /// the format): `poid_placer = "Alice"`.
    pub poid_placer: Option<String>,
    /// The Station the PoID's die named after its placer's last Turn, to
    /// explode at the start of this one (Rule 1.4.24, RULINGS E126; an
    /// extension of the format): `poid_blast = "Euston"`.
    pub poid_blast: Option<String>,
    /// Earlier Plays, oldest first, as GSD lines (`[[state.history]]` with
    /// `line`): what rules read from earlier Turns (a Round's Blocks and
    /// Line States, Visits, the Drone Stick) is recovered from them as from
    /// a GSD's Plays; `blocks` and `visits` given too are added.
    #[serde(default)]
    pub history: Vec<CasePlay>,
    /// Gambits declared in other games of the lounge (Rule 1.18.2; an
    /// extension of the format): `[[state.gambits]]` with `name`, `ending`
    /// (`Gambit` or `Manoeuvre`), `cost` and `steps` as in
    /// `grammar/gambits.toml`.
    #[serde(default)]
    pub gambits: Vec<toml::Value>,
    /// Denials pending (Rule 1.18.4; an extension of the format):
    /// `[[state.denials]]` with `denier`, `target` and `gambit`.
    #[serde(default)]
    pub denials: Vec<crate::engine::gambit::Denial>,
}

/// `[[state.players]]`.
#[derive(Debug, Deserialize)]
pub struct CasePlayer {
    /// Name.
    pub name: String,
    /// `Holborn (CN)`; omitted: not on the Map.
    pub at: Option<String>,
    /// Piece B of a Bifurcated player, `Angel (NT)` (Rule 1.7.42; an
    /// extension of the format); omitted: one Piece.
    pub at_b: Option<String>,
    /// Home Station.
    pub home: Option<String>,
    /// LV.
    #[serde(default)]
    pub lv: u32,
    /// Charge.
    #[serde(default)]
    pub charge: i32,
    /// Tokens, absent colours 0; omitted entirely: Rule 1.1.8's 2 Bk, 2 Re, 2 Br.
    pub tokens: Option<BTreeMap<String, u32>>,
    /// Possessions as in the Luggage Rack.
    #[serde(default)]
    pub possessions: Vec<String>,
    /// Inactive when false.
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

/// `[[state.blocks]]`.
#[derive(Debug, Deserialize)]
pub struct CaseBlock {
    /// The station.
    pub station: String,
    /// Who placed it.
    pub by: String,
}

/// `[[state.began]]` and `[[state.toffs]]`: a player and a station.
#[derive(Debug, Deserialize)]
pub struct CasePlayerAt {
    /// The player.
    pub player: String,
    /// The station.
    pub at: String,
}

/// `[[state.packages]]`: a Suspect Package and who placed it.
#[derive(Debug, Deserialize)]
pub struct CasePackage {
    /// The station it rests at.
    pub at: String,
    /// Who placed it, if known.
    pub by: Option<String>,
}

/// `[play]`, and each `[[state.history]]`.
#[derive(Debug, Deserialize)]
pub struct CasePlay {
    /// The play, exactly as written in a GSD.
    pub line: String,
}

/// `[expect]`.
#[derive(Debug, Deserialize)]
pub struct Expect {
    /// `legal`, `illegal`, `ruling` (the play must get "needs a human
    /// ruling") or `unparsable` (the play line must be refused by the
    /// grammar, e.g. a directive naming no station).
    pub verdict: String,
    /// Illegal: at least one of these must be cited; ruling: one of these
    /// must be the rule a human is asked about.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Rules that must not be cited (a verdict must cite the rule the play
    /// breaks, not a neighbour).
    #[serde(default)]
    pub forbid_rules: Vec<String>,
    /// Unparsable: text the parse error must contain.
    pub message: Option<String>,
    /// Wild Stations after a legal play, oldest first.
    pub wild: Option<Vec<String>>,
    /// Game Time after a legal play.
    pub time: Option<String>,
    /// The winner after the play (`""`: none).
    pub winner: Option<String>,
    /// Stations Blocked after the play.
    pub blocked: Option<Vec<String>>,
    /// Token Stacks after the play.
    pub stacks: Option<BTreeMap<String, String>>,
    /// The Courier's Pick-Up and Destination after the play (`[]`:
    /// undefined, Rule 1.11.2).
    pub courier: Option<Vec<String>>,
    /// The whole Disruptions box after the play, in any order (an extension
    /// of the format: other readers may ignore it).
    pub disruptions: Option<Vec<String>>,
    /// The Stations of the Suspect Packages after the play, in any order
    /// (Rule 1.4.7; an extension of the format).
    pub packages: Option<Vec<String>>,
    /// The Station the PoID rests at after the play (`""`: none on the
    /// Map; Rule 1.4.24, an extension of the format).
    pub poid: Option<String>,
    /// The Station the PoID's die named, to explode at the start of the
    /// next Turn (`""`: none; Rule 1.4.24, an extension of the format).
    pub poid_blast: Option<String>,
    /// Players Blasted, who owe a Pass with no Actions, after the play
    /// (Rule 1.7.30; an extension of the format).
    pub blasted: Option<Vec<String>>,
    /// The names of the Gambits declared in the game after the play
    /// (Rule 1.18.1; an extension of the format).
    pub declared: Option<Vec<String>>,
    /// The Gambits of the Denials pending after the play, as `<Gambit> by
    /// <Player>` (Rule 1.18.4; an extension of the format).
    pub denials: Option<Vec<String>>,
    /// Players after the play.
    #[serde(default)]
    pub players: BTreeMap<String, ExpectPlayer>,
}

/// `[expect.players.NAME]`.
#[derive(Debug, Deserialize)]
pub struct ExpectPlayer {
    /// Position.
    pub at: Option<String>,
    /// Piece B's position after the play (`""`: the player has one Piece;
    /// Rule 1.7.42, an extension of the format).
    pub at_b: Option<String>,
    /// LV.
    pub lv: Option<u32>,
    /// Charge.
    pub charge: Option<i32>,
    /// Tokens (absent colours 0).
    pub tokens: Option<BTreeMap<String, u32>>,
    /// Possessions.
    pub possessions: Option<Vec<String>>,
    /// Home Station.
    pub home: Option<String>,
}

/// The result of running one case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CaseResult {
    /// The case id (or the file when it could not be read).
    pub id: String,
    /// Whether the adjudicator said what the case expects.
    pub pass: bool,
    /// Why not.
    pub why: Vec<String>,
    /// The verdict given.
    pub verdict: Option<Verdict>,
    /// Keys of the case file that were ignored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

impl Case {
    /// Parses a case file, noting keys it does not know.
    pub fn from_toml(text: &str) -> Result<Case, String> {
        let de = toml::Deserializer::parse(text).map_err(|e| e.to_string())?;
        let mut unknown = Vec::new();
        let mut case: Case = serde_ignored::deserialize(de, |path| unknown.push(path.to_string()))
            .map_err(|e| e.to_string())?;
        case.unknown_keys = unknown;
        Ok(case)
    }

    /// Runs the case.
    pub fn run(&self, map: &Map) -> CaseResult {
        let result = |why: Vec<String>, verdict| CaseResult {
            id: self.id.clone(),
            pass: why.is_empty(),
            why,
            verdict,
            ignored: self.unknown_keys.clone(),
        };
        let state = match self.state(map) {
            Ok(s) => s,
            Err(e) => return result(vec![format!("bad state: {e}")], None),
        };
        let play = match (
            parse_play(&self.play.line, map),
            self.expect.verdict.as_str(),
        ) {
            (Ok(p), _) => p,
            (Err(e), "unparsable") => {
                let msg = e.to_string();
                let mut why = Vec::new();
                if let Some(want) = &self.expect.message {
                    if !msg.contains(want.as_str()) {
                        why.push(format!("the parse error {msg:?} does not say {want:?}"));
                    }
                }
                return result(why, None);
            }
            (Err(e), _) => return result(vec![format!("the play does not parse: {e}")], None),
        };
        let out = adjudicate(map, &state, &play);
        let want = match self.expect.verdict.as_str() {
            "legal" => Verdict::Legal,
            "illegal" => Verdict::Illegal,
            "ruling" => Verdict::NeedsRuling,
            "unparsable" => {
                return result(
                    vec![format!(
                    "expected the play to be refused by the grammar; it parsed and was judged {:?}",
                    out.verdict
                )],
                    Some(out.verdict),
                )
            }
            v => {
                return result(
                    vec![format!(
                        "expect.verdict must be legal, illegal, ruling or unparsable, not {v:?}"
                    )],
                    Some(out.verdict),
                )
            }
        };
        let mut why = Vec::new();
        if out.verdict != want {
            let detail: Vec<String> = out
                .violations
                .iter()
                .chain(&out.rulings)
                .map(|v| format!("{}: {}", v.rule, v.message))
                .collect();
            why.push(format!(
                "expected {}, got {:?} {}",
                self.expect.verdict,
                out.verdict,
                detail.join("; ")
            ));
            return result(why, Some(out.verdict));
        }
        let cited = match want {
            Verdict::Illegal => &out.violations,
            Verdict::NeedsRuling => &out.rulings,
            Verdict::Legal => &out.violations,
        };
        self.check_citations(cited, &mut why);
        if let Some(after) = &out.state {
            self.check_state(map, after, &mut why);
        }
        result(why, Some(out.verdict))
    }

    /// The rules cited: one of `expect.rules`, none of `expect.forbid_rules`.
    fn check_citations(&self, cited: &[super::Violation], why: &mut Vec<String>) {
        let list = || {
            cited
                .iter()
                .map(|v| format!("{} ({})", v.rule, v.message))
                .collect::<Vec<_>>()
                .join("; ")
        };
        if !cited.is_empty()
            && !self.expect.rules.is_empty()
            && !cited.iter().any(|v| self.expect.rules.contains(&v.rule))
        {
            why.push(format!(
                "expected a citation of {:?}, cited {}",
                self.expect.rules,
                list()
            ));
        }
        if let Some(v) = cited
            .iter()
            .find(|v| self.expect.forbid_rules.contains(&v.rule))
        {
            why.push(format!(
                "Rule {} must not be cited, but was ({}); cited {}",
                v.rule,
                v.message,
                list()
            ));
        }
    }
}
