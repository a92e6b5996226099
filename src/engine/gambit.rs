//! Gambits (Rules 1.18.1 - 1.18.4): the registry of Rule 1.18.2 and what
//! a game folds about them.
//!
//! The registry is data that outlives games: its seed is
//! `grammar/gambits.toml` (the rule's 13 Gambits), read like the map, and
//! the Gambits declared since come in with the state
//! ([`GambitBook::lounge`], kept by the daemon) or are declared in this game
//! ([`GambitBook::declared`]). The engine never reads files.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::gsd::gambit::{parse_steps, Step, StepsText};
use crate::gsd::{parse_token_list, Colour, Move, Play};
use crate::map::{Map, StationId};

/// The seed of the registry: the Gambits Rule 1.18.2 lists.
pub const SEED: &str = include_str!("../../grammar/gambits.toml");

/// How many end-of-turn positions a player's record keeps: "at least three
/// but no more than six" recent moves (Rule 1.18.1).
pub const RECENT: usize = 6;

/// One Gambit of the registry (Rule 1.18.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gambit {
    /// The Manoeuvre name, without "The" and the ending: `Trampoline`.
    pub name: String,
    /// Written with "Manoeuvre" rather than "Gambit" (synonyms).
    pub manoeuvre: bool,
    /// The cost of the completed Gambit, in positive numbers: what a Usage
    /// gains (Rule 1.18.3).
    pub cost: Vec<(u32, Colour)>,
    /// The station attributes, in sequence.
    pub steps: Vec<Step>,
    /// Who declared it, for one declared by a Declaraction (none for the
    /// seed).
    #[serde(default)]
    pub by: Option<String>,
}

impl Gambit {
    /// `the Trampoline Gambit`, as the rule names it.
    pub fn title(&self) -> String {
        let ending = if self.manoeuvre {
            "Manoeuvre"
        } else {
            "Gambit"
        };
        format!("the {} {ending}", self.name)
    }

    /// The steps as written, `Holy Station -> Hill Station -> ...`.
    pub fn steps_text(&self, map: &Map) -> String {
        StepsText(&self.steps, map).to_string()
    }

    /// Whether `name` (as an Action writes it) names this Gambit.
    pub fn is_named(&self, name: &str) -> bool {
        same_name(&self.name, name)
    }
}

/// Two Gambit names compared: any case, spacing or apostrophe, a leading
/// "The" dropped.
pub fn same_name(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> String {
        let s = s.replace(['\u{2018}', '\u{2019}', '`'], "'");
        let words: Vec<String> = s.split_whitespace().map(str::to_lowercase).collect();
        let words = match words.first().map(String::as_str) {
            Some("the") => &words[1..],
            _ => &words[..],
        };
        words.join(" ")
    }
    norm(a) == norm(b)
}

/// One row of `grammar/gambits.toml`.
#[derive(Deserialize)]
struct Row {
    name: String,
    ending: String,
    cost: String,
    steps: String,
    #[allow(dead_code)]
    note: Option<String>,
}

#[derive(Deserialize)]
struct Rows {
    gambit: Vec<Row>,
}

/// Reads a registry file of the seed's format against `map`.
///
/// # Errors
///
/// A row whose ending, cost or steps do not read, named.
pub fn read_registry(text: &str, map: &Map) -> Result<Vec<Gambit>, String> {
    let rows: Rows = toml::from_str(text).map_err(|e| e.to_string())?;
    rows.gambit
        .into_iter()
        .map(|r| {
            let manoeuvre = match r.ending.as_str() {
                "Gambit" => false,
                "Manoeuvre" => true,
                e => {
                    return Err(format!(
                        "{}: ending {e:?} is not Gambit or Manoeuvre",
                        r.name
                    ))
                }
            };
            let cost = parse_token_list(&r.cost)
                .ok_or_else(|| format!("{}: cost {:?} is not a token list", r.name, r.cost))?
                .0;
            let steps = parse_steps(&r.steps, map).map_err(|e| format!("{}: {e}", r.name))?;
            Ok(Gambit {
                name: r.name,
                manoeuvre,
                cost,
                steps,
                by: None,
            })
        })
        .collect()
}

/// The seed of Rule 1.18.2 on the London 1999 map.
pub fn seed() -> &'static [Gambit] {
    static SEEDED: OnceLock<Vec<Gambit>> = OnceLock::new();
    SEEDED.get_or_init(|| {
        read_registry(SEED, Map::london_1999()).expect("grammar/gambits.toml reads")
    })
}

/// Where a player's Turn ended, as Rule 1.18.1 counts recent moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// A Move that ended at this Station.
    At(StationId),
    /// A Move of Pass (or Farkle).
    Pass,
    /// A Timeout.
    Timeout,
    /// A Move the record does not place (a Ghost Station, a Bifurcation).
    Unknown,
}

/// One player's recent end-of-turn positions, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recent {
    /// The player.
    pub player: String,
    /// The last [`RECENT`] Turns' marks, Passes and Timeouts included.
    pub marks: Vec<Mark>,
    /// The last [`RECENT`] Stations played, Passes and Timeouts skipped
    /// (Rule 1.18.3: "the most recent valid non-pass Stations").
    pub stations: Vec<StationId>,
}

/// A Denial waiting for the manoeuvring player's next Turn (Rule 1.18.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Denial {
    /// Who Denied.
    pub denier: String,
    /// The player on the verge of completing the Manoeuvre.
    pub target: String,
    /// The Gambit's name.
    pub gambit: String,
}

/// What a game knows of Gambits: the registry beyond the seed, each
/// player's recent positions, and Denials pending.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GambitBook {
    /// Gambits declared in other games of the lounge, as the daemon keeps
    /// them (Rule 1.18.2).
    #[serde(default)]
    pub lounge: Vec<Gambit>,
    /// Gambits declared in this game, oldest first.
    #[serde(default)]
    pub declared: Vec<Gambit>,
    /// Players' recent end-of-turn positions, folded from the plays: of
    /// the Piece in the player's `at` (Piece A while e is Bifurcated).
    #[serde(default)]
    pub recent: Vec<Recent>,
    /// A Bifurcated player's Piece B's, kept apart: a Manoeuvre "must be
    /// performed by a single Piece" (Rule 1.7.42, RULINGS E131).
    #[serde(default)]
    pub recent_b: Vec<Recent>,
    /// Denials pending.
    #[serde(default)]
    pub denials: Vec<Denial>,
}

impl GambitBook {
    /// Every Gambit in force: the seed, the lounge's, this game's.
    pub fn all(&self) -> impl Iterator<Item = &Gambit> {
        seed().iter().chain(&self.lounge).chain(&self.declared)
    }

    /// The Gambit of this name.
    pub fn find(&self, name: &str) -> Option<&Gambit> {
        self.all().find(|g| g.is_named(name))
    }

    /// A player's recent record, if the fold has one.
    pub fn recent(&self, player: &str) -> Option<&Recent> {
        self.recent
            .iter()
            .find(|r| r.player.eq_ignore_ascii_case(player))
    }

    /// Records where `player`'s Turn ended (eir Piece A's Move, when e is
    /// Bifurcated).
    pub fn record(&mut self, player: &str, mark: Mark) {
        record_in(&mut self.recent, player, mark);
    }

    /// Records where a Bifurcated `player`'s Piece B's Move ended.
    pub fn record_b(&mut self, player: &str, mark: Mark) {
        record_in(&mut self.recent_b, player, mark);
    }

    /// A second Piece comes into play for `player`: its record begins empty,
    /// for it has made no Move yet (RULINGS E131).
    pub fn start_b(&mut self, player: &str) {
        self.drop_b(player);
        self.recent_b.push(Recent::new(player));
    }

    /// `player`'s Piece B is destroyed, or e is Bifurcated no more.
    pub fn drop_b(&mut self, player: &str) {
        self.recent_b
            .retain(|r| !r.player.eq_ignore_ascii_case(player));
    }

    /// `player`'s Piece A is destroyed and Piece B is eir one Piece: B's
    /// record is eirs.
    pub fn promote_b(&mut self, player: &str) {
        self.recent
            .retain(|r| !r.player.eq_ignore_ascii_case(player));
        if let Some(i) = position_of(&self.recent_b, player) {
            let r = self.recent_b.remove(i);
            self.recent.push(r);
        }
    }

    /// Swaps the records of `player`'s two Pieces, as the adjudicator swaps
    /// the Pieces to judge something of Piece B.
    pub fn swap_pieces(&mut self, player: &str) {
        let a = position_of(&self.recent, player).map(|i| self.recent.remove(i));
        let b = position_of(&self.recent_b, player).map(|i| self.recent_b.remove(i));
        self.recent.extend(b);
        self.recent_b.extend(a);
    }

    /// Recovers the players' recent positions from a GSD's plays, oldest
    /// first: each Move's destination (the far end of an escalator).
    pub fn recover(&mut self, plays: &[Play]) {
        self.recent.clear();
        self.recent_b.clear();
        for p in plays {
            match &p.mv {
                Move::Bifurcated(a, b) => {
                    self.record(&p.player, mark_of(a));
                    self.record_b(&p.player, mark_of(b));
                    // The two ended together: one Piece is left (E101).
                    if mark_of(a) == mark_of(b) && matches!(mark_of(a), Mark::At(_)) {
                        self.drop_b(&p.player);
                    }
                }
                // An unlabelled Move ends the Bifurcation (E101).
                Move::To { .. } => {
                    self.record(&p.player, mark_of(&p.mv));
                    self.drop_b(&p.player);
                }
                mv => self.record(&p.player, mark_of(mv)),
            }
            if p.actions()
                .any(|a| matches!(a, crate::gsd::Action::Bifurcating { .. }))
            {
                self.start_b(&p.player);
            }
        }
    }
}

/// Where a Move as written ends.
pub fn mark_of(mv: &Move) -> Mark {
    match mv {
        Move::To {
            dest, escalator_to, ..
        } => escalator_to
            .as_ref()
            .unwrap_or(dest)
            .place
            .station()
            .map_or(Mark::Unknown, Mark::At),
        Move::Pass(_) | Move::Farkle(_) => Mark::Pass,
        Move::Timeout => Mark::Timeout,
        Move::Bifurcated(..) => Mark::Unknown,
    }
}

impl Recent {
    /// An empty record.
    fn new(player: &str) -> Recent {
        Recent {
            player: player.to_string(),
            marks: Vec::new(),
            stations: Vec::new(),
        }
    }
}

/// Where `player`'s record is in `records`.
fn position_of(records: &[Recent], player: &str) -> Option<usize> {
    records
        .iter()
        .position(|r| r.player.eq_ignore_ascii_case(player))
}

/// Records `mark` in `player`'s record of `records`, begun if need be.
fn record_in(records: &mut Vec<Recent>, player: &str, mark: Mark) {
    let i = position_of(records, player).unwrap_or_else(|| {
        records.push(Recent::new(player));
        records.len() - 1
    });
    let r = &mut records[i];
    push_last(&mut r.marks, mark);
    match mark {
        Mark::At(s) => push_last(&mut r.stations, s),
        // An unplaced Move breaks the sequence of Stations.
        Mark::Unknown => r.stations.clear(),
        Mark::Pass | Mark::Timeout => {}
    }
}

fn push_last<T>(v: &mut Vec<T>, x: T) {
    v.push(x);
    if v.len() > RECENT {
        v.remove(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_holds_the_rules_thirteen_gambits() {
        let s = seed();
        assert_eq!(s.len(), 13);
        let names: Vec<&str> = s.iter().map(|g| g.name.as_str()).collect();
        assert!(names.contains(&"Trellis Roundhouse"));
        let trellis = s.iter().find(|g| g.name == "Trellis Roundhouse").unwrap();
        assert_eq!(trellis.steps.len(), 4);
        assert!(trellis.manoeuvre);
        let morden = s.iter().find(|g| g.name == "Morden Paradox").unwrap();
        assert_eq!(morden.cost, vec![(13, Colour::Black)]);
        let heathrow = s.iter().find(|g| g.name == "Heathrow Pickup").unwrap();
        assert_eq!(
            heathrow.steps_text(Map::london_1999()),
            "Heathrow Terminal 4 -> Heathrow Terminal 123 -> Hatton Cross"
        );
    }

    #[test]
    fn names_match_without_the_or_case() {
        let book = GambitBook::default();
        assert!(book.find("the trampoline").is_some());
        assert!(book.find("Davis \u{2019}Gap\u{2019} Memorial").is_some());
        assert!(book.find("Trampolines").is_none());
    }

    #[test]
    fn the_record_keeps_six_and_skips_passes_for_stations() {
        let mut b = GambitBook::default();
        for k in 0..8u16 {
            b.record("Alice", Mark::At(StationId(k)));
        }
        b.record("alice", Mark::Pass);
        let r = b.recent("Alice").unwrap();
        assert_eq!(r.marks.len(), RECENT);
        assert_eq!(r.marks.last(), Some(&Mark::Pass));
        assert_eq!(r.stations.first(), Some(&StationId(2)));
        assert_eq!(r.stations.last(), Some(&StationId(7)));
    }
}
