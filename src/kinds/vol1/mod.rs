//! Volume 1 (`mn-vol1`) behind the kind interface: a game of Mornington
//! Nomic as a [`Position`], its orders Plays read from a
//! mail's GSD or bare Play line, judged by `crate::engine`, rendered as the
//! canonical GSD (Rule 1.2.0).
//!
//! This is the one place outside the engine and the GSD modules where
//! Volume 1's own vocabulary meets the interface every kind shares: its
//! definition (the Game Time it starts at and its house rulings), its
//! reserved name (the Drone, Rule 1.15.1), the order of a game folded from
//! its log. Everything a game of any kind offers is here, so the edges
//! reach Volume 1 as they reach mc-xml; and the referee's Volume 1 path
//! (buzzes, Judgments, Points, Game Time: Volume 1's own workflows, issue
//! 41) reaches the engine and the grammar through this module too
//! (its `workflow` module): no edge names `crate::engine` or `crate::gsd`.

use serde::{Deserialize, Serialize};

use super::kind::{KindError, Order, Position};
use super::outcome::{Breach, Judged, Next};
use crate::engine::{adjudicate, PlayerState};

/// A Volume 1 game: its start, its legal plays and their fold.
pub use crate::engine::Game;
/// The state of a Volume 1 game between two Turns (what its snapshots
/// hold).
pub use crate::engine::GameState;
/// Volume 1's house rulings (`[game.rulings]`, `NEW GAME ... ruling k=v`):
/// part of a Volume 1 game's definition.
pub use crate::engine::Rulings;
/// One rule a Volume 1 Play breaks, as its verdict (and the event log, and
/// the archive) keeps it.
pub use crate::engine::Violation;
use crate::gsd::{locate, render};
use crate::map::Map;

mod workflow;
pub use workflow::*;

/// The version of a Volume 1 position's encoding.
pub const ENCODING: &str = "mn-vol1/1";

/// The definition key naming the game (its tag, shown on the GSD's game
/// line, Rule 1.1.7).
pub const GAME_KEY: &str = "game";
/// The definition key of the Game Time the game starts at (Rule 1.1.8).
pub const START_KEY: &str = "start";
/// The Game Time a game starts at unless its definition says otherwise.
pub const DEFAULT_START: &str = "Monday 0900";

/// A Volume 1 game: the map it is played on and its fold.
#[derive(Clone, Debug)]
pub struct Vol1 {
    /// The map (the daemon's configured one, else the embedded 1999 map).
    pub map: &'static Map,
    /// The game: its start, legal plays and the state they fold to.
    pub game: Game,
}

impl PartialEq for Vol1 {
    fn eq(&self, other: &Vol1) -> bool {
        std::ptr::eq(self.map, other.map)
            && self.game.tag == other.game.tag
            && self.game.start == other.game.start
            && self.game.plays == other.game.plays
            && self.game.state == other.game.state
            && self.game.resigned == other.game.resigned
            && self.game.judged == other.game.judged
    }
}

impl Eq for Vol1 {}

/// Whether `name` is the Drone's, which no player may take (Rule 1.15.1).
pub fn is_reserved(name: &str) -> bool {
    crate::engine::is_drone(name)
}

/// Whether `text` is a Game Time a game may start at (`Monday 0900`).
pub fn is_game_time(text: &str) -> bool {
    crate::gsd::parse::game_time(text).is_some()
}

/// The house rulings `key=value ...` as [`Rulings`] (its own serde: a key
/// it does not know is refused, with the keys it knows).
///
/// # Errors
///
/// Which word does not read, and why.
pub fn house_rulings(words: &[&str]) -> Result<Rulings, String> {
    let mut doc = String::new();
    for p in words {
        let Some((k, v)) = p.split_once('=') else {
            return Err(format!("ruling {p:?}: key=value was expected"));
        };
        let ok_key = !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok_key {
            return Err(format!("ruling {p:?}: {k:?} is not a ruling's key"));
        }
        let v = v.trim_matches(['"', '\'']);
        let is_value =
            v == "true" || v == "false" || (!v.is_empty() && v.chars().all(|c| c.is_ascii_digit()));
        if is_value {
            doc.push_str(&format!("{k} = {v}\n"));
        } else if v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        {
            doc.push_str(&format!("{k} = \"{v}\"\n"));
        } else {
            return Err(format!("ruling {p:?}: {v:?} is not a value"));
        }
    }
    toml::from_str::<Rulings>(&doc).map_err(|e| {
        let why = e.message().to_string();
        format!(
            "the rulings do not read ({why}); the keys are {}",
            ruling_keys().join(", ")
        )
    })
}

/// The keys of [`Rulings`], from its own serde.
pub fn ruling_keys() -> Vec<String> {
    let text = toml::to_string(&Rulings::default()).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.to_string()))
        .collect()
}

/// The rulings of `r` that differ from the defaults, `key = value` each,
/// for a notice (empty when none do).
pub fn rulings_differing(r: &Rulings) -> Vec<String> {
    let ours = toml::to_string(r).unwrap_or_default();
    let base = toml::to_string(&Rulings::default()).unwrap_or_default();
    ours.lines()
        .filter(|l| !base.lines().any(|b| b == *l))
        .map(str::to_string)
        .collect()
}

/// The state a game starts in (Rules 1.1.2, 1.1.8): everyone with the
/// joining defaults, off the Map, at Game Time `start`; the Drone at
/// `map`'s Mornington Crescent, last in the order of play unless `players`
/// places it.
///
/// # Errors
///
/// A start that is not a Game Time, or no players.
pub fn start_state(
    start: &str,
    players: &[String],
    rulings: Rulings,
    map: &Map,
) -> Result<GameState, String> {
    let time = crate::gsd::parse::game_time(start)
        .ok_or_else(|| format!("start {start:?} is not a Game Time like \"Monday 0900\""))?;
    if players.is_empty() {
        return Err("a game needs at least one player".into());
    }
    let mut players: Vec<PlayerState> = players.iter().map(|n| PlayerState::joining(n)).collect();
    match players.iter().position(|p| is_reserved(&p.name)) {
        Some(i) => players[i] = PlayerState::drone(map),
        None => players.push(PlayerState::drone(map)),
    }
    Ok(GameState {
        rulings,
        ..GameState::new(time, players)
    })
}

/// A game's start from its definition pairs: [`GAME_KEY`], [`START_KEY`]
/// and the house rulings.
pub(super) fn start(
    players: &[String],
    pairs: &[(String, String)],
    map: &'static Map,
) -> Result<Vol1, KindError> {
    let get = |k: &str| pairs.iter().find(|(p, _)| p == k).map(|(_, v)| v.as_str());
    let tag = get(GAME_KEY).unwrap_or("");
    let at = get(START_KEY).unwrap_or(DEFAULT_START);
    let words: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k != GAME_KEY && k != START_KEY)
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let rulings = house_rulings(&words).map_err(KindError::Ruling)?;
    let state = start_state(at, players, rulings, map).map_err(KindError::Players)?;
    Ok(Vol1 {
        map,
        game: Game::new(tag, state),
    })
}

/// What Volume 1's engine makes of a play, as the interface says it.
pub(super) fn judged(v: &Vol1, play: &Play, out: Outcome) -> Judged {
    let breaches = |vs: &[crate::engine::Violation]| -> Vec<Breach> {
        vs.iter()
            .map(|x| Breach {
                rule: x.rule.clone(),
                ruling: None,
                text: x.message.clone(),
            })
            .collect()
    };
    match (out.verdict, out.state) {
        (Verdict::Legal, Some(state)) => {
            let mut game = v.game.clone();
            game.plays.push(play.clone());
            let over = state.winner.is_some();
            game.state = state;
            let position = Position::MnVol1(Box::new(Vol1 { map: v.map, game }));
            if over {
                Judged::Over {
                    position,
                    changes: out.changes,
                }
            } else {
                Judged::Legal {
                    position,
                    changes: out.changes,
                }
            }
        }
        (Verdict::NeedsRuling, _) => Judged::NeedsRuling(breaches(&out.rulings)),
        _ => Judged::Illegal(breaches(&out.violations)),
    }
}

impl Vol1 {
    /// Reads the turn in a mail body (the sender's own lines): the last
    /// Play of a GSD when the body holds one, else its one bare Play line.
    pub(super) fn read(&self, body: &str) -> Result<(Order, Vec<String>), KindError> {
        let lines: Vec<&str> = body.lines().collect();
        if let Some(found) = locate(&lines) {
            let text = lines[found.first..].join("\n");
            let gsd = parse_gsd(&text, self.map).map_err(|e| KindError::Read {
                line: found.first + e.line,
                text: e.to_string(),
            })?;
            let known = self.game.plays.len();
            return match gsd.plays.len().checked_sub(known) {
                Some(1) => Ok((
                    Order::MnVol1(Box::new(gsd.plays[known].clone())),
                    Vec::new(),
                )),
                _ => Err(KindError::Read {
                    line: found.first + 1,
                    text: format!(
                        "the GSD holds {} Plays; the game has {known}, and a mail carries one \
                         new Play (Rule 1.3.1)",
                        gsd.plays.len()
                    ),
                }),
            };
        }
        let mut found: Option<(usize, Play)> = None;
        for (i, l) in lines.iter().enumerate().filter(|(_, l)| l.contains(':')) {
            if let Ok(p) = parse_play(l, self.map) {
                if found.is_some() {
                    return Err(KindError::Read {
                        line: i + 1,
                        text: "a second Play: a mail carries one turn (Rule 1.3.1)".into(),
                    });
                }
                found = Some((i, p));
            }
        }
        match found {
            Some((_, p)) => Ok((Order::MnVol1(Box::new(p)), Vec::new())),
            None => Err(KindError::Read {
                line: 0,
                text: "no Play such as `Rushton : Euston (NT)` and no GSD".into(),
            }),
        }
    }

    /// Judges `play`, sent by `sender` (the Drone's handler may play the
    /// Drone's Turn: the engine checks, Rule 1.15.2).
    pub(super) fn judge(&self, play: &Play, sender: &str) -> Judged {
        if !play.player.eq_ignore_ascii_case(sender) && !is_reserved(&play.player) {
            return Judged::Illegal(vec![Breach {
                rule: "1.3.1".into(),
                ruling: None,
                text: format!("the Play is {}'s, not {sender}'s", play.player),
            }]);
        }
        judged(self, play, adjudicate(self.map, &self.game.state, play))
    }

    /// Who must act now.
    pub(super) fn next(&self) -> Next {
        match &self.game.state.winner {
            Some(w) => Next::Over {
                winners: vec![w.clone()],
            },
            None => Next::Act {
                players: vec![self.game.to_play().to_string()],
                step: "turn",
                lines_in: 0,
            },
        }
    }

    /// The Timeout of the player to move (Rule 1.3.5).
    pub(super) fn timeout(&self) -> (Order, Judged) {
        let player = self.game.to_play().to_string();
        let play =
            parse_play(&format!("{player} : Timeout"), self.map).expect("a Timeout always reads");
        let j = judged(self, &play, adjudicate(self.map, &self.game.state, &play));
        (Order::MnVol1(Box::new(play)), j)
    }

    /// The canonical GSD, with the deadline of the awaited Turn when given.
    pub(super) fn render(&self, deadline: Option<&str>) -> String {
        let gsd = document(&self.game, self.map);
        match deadline {
            Some(d) => format!("{gsd}\n{} to play, by {d}.\n", self.game.to_play()),
            None => gsd,
        }
    }

    /// The canonical line of `play`.
    pub(super) fn canonical(play: &Play) -> String {
        render_play(play)
    }

    /// The game after one log line by `player`: a Play (judged again), or a
    /// resignation.
    pub(super) fn replay(&self, line: &str, player: &str) -> Result<Position, KindError> {
        let play = parse_play(line, self.map)
            .map_err(|e| KindError::Stored(format!("{line:?} does not read: {e}")))?;
        match self.judge(&play, player) {
            Judged::Legal { position, .. } | Judged::Over { position, .. } => Ok(position),
            Judged::Illegal(v) | Judged::NeedsRuling(v) => Err(KindError::Stored(format!(
                "{line:?} no longer stands: {}",
                v.first().map(ToString::to_string).unwrap_or_default()
            ))),
        }
    }

    /// The game after `name` resigned (Rule 1.1.3).
    pub(super) fn resign(&self, name: &str) -> Result<Position, KindError> {
        let mut game = self.game.clone();
        if !game.resign(name) {
            return Err(KindError::Players(format!("{name} does not play")));
        }
        Ok(Position::MnVol1(Box::new(Vol1 {
            map: self.map,
            game,
        })))
    }

    /// The picture, as SVG.
    pub(super) fn picture_svg(&self) -> Result<String, String> {
        crate::picture::svg(self.map, &self.scene()).map_err(|e| e.to_string())
    }

    /// The picture, as PNG bytes.
    pub(super) fn picture_png(&self) -> Result<Vec<u8>, String> {
        crate::picture::draw_png(self.map, &self.scene()).map_err(|e| e.to_string())
    }

    fn scene(&self) -> crate::picture::Scene {
        let g = &self.game;
        crate::picture::Scene::after_plays(self.map, &g.tag, g.state.clone(), &g.plays)
    }
}

/// A Volume 1 position as stored: its start and its log, folded again when
/// read back (so an encoding never outlives the engine's judgment).
#[derive(Serialize, Deserialize)]
struct Stored {
    tag: String,
    start: GameState,
    plays: Vec<String>,
    resigned: Vec<(usize, String)>,
    judged: Vec<usize>,
}

/// `v` as JSON.
pub(super) fn encode(v: &Vol1) -> String {
    let g = &v.game;
    serde_json::to_string(&Stored {
        tag: g.tag.clone(),
        start: g.start.clone(),
        plays: g.plays.iter().map(render_play).collect(),
        resigned: g.resigned.clone(),
        judged: g.judged.clone(),
    })
    .expect("serialisable")
}

/// A position [`encode`] wrote, folded again on `map`.
pub(super) fn decode(json: &str, map: &'static Map) -> Result<Vol1, KindError> {
    let s: Stored = serde_json::from_str(json).map_err(|e| KindError::Stored(e.to_string()))?;
    let plays = s
        .plays
        .iter()
        .map(|l| parse_play(l, map).map_err(|e| KindError::Stored(format!("{l:?}: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let game = Game::from_log_judged(map, &s.tag, s.start, plays, s.resigned, s.judged)
        .map_err(|b| KindError::Stored(format!("play {} no longer stands", b.index + 1)))?;
    Ok(Vol1 { map, game })
}

impl Position {
    /// The position of the Volume 1 game `game`, played on `map` (the
    /// daemon's configured map; [`Kind::start`](super::Kind::start) uses
    /// the embedded one).
    pub fn of_vol1(map: &'static Map, game: Game) -> Position {
        Position::MnVol1(Box::new(Vol1 { map, game }))
    }
}

/// The canonical GSD of a Volume 1 game as it stands (Rule 1.2.0): the
/// document every answer and notice quotes.
pub fn document(game: &Game, map: &Map) -> String {
    render(&game.gsd(map))
}

/// The GSD's tables of `state` without its Plays (an archive's turn page:
/// sized by the game, not by its square).
pub fn tables(state: &GameState, tag: &str, map: &Map) -> String {
    render(&state.to_gsd(map, Some(tag), &[]))
}
