//! The game-kind interface: what the daemon may ask of a hosted game.

use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::mcxml;
use super::outcome::{Breach, Judged, Next, Viewer};
use super::vol1::{self, Vol1};
use crate::speaker::policy::Policy;

/// A game kind mornbot hosts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Mornington Nomic, Volume 1 (`mn-vol1`): the lounge's own game.
    #[default]
    #[serde(rename = "mn-vol1")]
    MnVol1,
    /// XML Mornington Crescent (`mc-xml`).
    #[serde(rename = "mc-xml")]
    McXml,
}

/// Why a kind cannot do what was asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KindError {
    /// No kind has this id.
    #[error("no game kind is called {0:?}: the kinds are {ids}", ids = Kind::ids())]
    Unknown(String),
    /// The players are too few or too many, or their names do not do.
    #[error("{0}")]
    Players(String),
    /// A ruling the kind does not have, or a value it does not take.
    #[error("{0}")]
    Ruling(String),
    /// The mail holds no order the kind can read: where and what.
    #[error("{text}")]
    Read {
        /// The body line (0: the mail as a whole).
        line: usize,
        /// What is wrong and what was expected.
        text: String,
    },
    /// A stored position or log line does not read back.
    #[error("{0}")]
    Stored(String),
}

impl Kind {
    /// Every kind, in the order HELP lists them.
    pub const ALL: [Kind; 2] = [Kind::MnVol1, Kind::McXml];

    /// Its id, as `NEW GAME ... kind <id>` and the games file write it.
    pub fn id(self) -> &'static str {
        match self {
            Kind::MnVol1 => "mn-vol1",
            Kind::McXml => "mc-xml",
        }
    }

    /// The kind `text` names (its id, any case; `mcxml` and `vol1` too).
    pub fn from_id(text: &str) -> Result<Kind, KindError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "mn-vol1" | "vol1" | "volume1" | "mn" => Ok(Kind::MnVol1),
            "mc-xml" | "mcxml" | "xml" => Ok(Kind::McXml),
            _ => Err(KindError::Unknown(text.to_string())),
        }
    }

    fn ids() -> String {
        Kind::ALL.map(Kind::id).join(", ")
    }

    /// Its name for people.
    pub fn title(self) -> &'static str {
        match self {
            Kind::MnVol1 => "Mornington Nomic, Volume 1",
            Kind::McXml => "XML Mornington Crescent",
        }
    }

    /// How many players a game of this kind takes (besides Volume 1's
    /// Drone); the lobby's draw of the order of play bounds both.
    pub fn players(self) -> RangeInclusive<usize> {
        let most = crate::speaker::order::MAX_PLAYERS;
        match self {
            Kind::MnVol1 => 2..=most,
            // Rule 1: "The game may be played by 2 or more players."
            Kind::McXml => 2..=most,
        }
    }

    /// An example order, as HELP shows it.
    pub fn example_order(self) -> &'static str {
        match self {
            Kind::MnVol1 => "Rushton : Euston (NT)",
            Kind::McXml => "<Turn player=\"Ann\"><Move steps=\"Goodge Street\"/></Turn>",
        }
    }

    /// The deadline a game of this kind has unless its definition says
    /// otherwise (RULINGS MX14: the lounge's).
    pub fn default_deadline(self) -> Policy {
        Policy::Rule135
    }

    /// Checks `rulings` (`key=value` pairs) against the kind's contested
    /// rulings.
    ///
    /// # Errors
    ///
    /// [`KindError::Ruling`] naming the first that is not one.
    pub fn check_rulings(self, rulings: &[(String, String)]) -> Result<(), KindError> {
        match self {
            Kind::MnVol1 => Ok(()),
            Kind::McXml => mcxml::rulings::Rulings::from_pairs(rulings.iter().cloned())
                .map(|_| ())
                .map_err(|e| KindError::Ruling(e.to_string())),
        }
    }

    /// Checks that a game of this kind may have `n` players.
    ///
    /// # Errors
    ///
    /// [`KindError::Players`] saying the kind's range.
    pub fn check_players(self, n: usize) -> Result<(), KindError> {
        let r = self.players();
        if r.contains(&n) {
            return Ok(());
        }
        Err(KindError::Players(format!(
            "{} takes {} to {} players, not {n}",
            self.id(),
            r.start(),
            r.end()
        )))
    }

    /// The position a game starts in, `players` in order of play.
    ///
    /// # Errors
    ///
    /// [`KindError::Players`] or [`KindError::Ruling`]. A Volume 1 game is
    /// played on the embedded 1999 map; its rulings are its definition
    /// (`game`, `start` and the house rulings, [`vol1::house_rulings`]).
    pub fn start(
        self,
        players: &[String],
        rulings: &[(String, String)],
    ) -> Result<Position, KindError> {
        self.check_players(players.len())?;
        match self {
            Kind::MnVol1 => vol1::start(players, rulings, crate::map::Map::london_1999())
                .map(|v| Position::MnVol1(Box::new(v))),
            Kind::McXml => {
                let r = mcxml::rulings::Rulings::from_pairs(rulings.iter().cloned())
                    .map_err(|e| KindError::Ruling(e.to_string()))?;
                mcxml::State::start(players, r)
                    .map(Position::McXml)
                    .map_err(|e| KindError::Players(e.to_string()))
            }
        }
    }

    /// RULES: the kind's rules and what mornbot does with each.
    pub fn rules_text(self) -> String {
        match self {
            Kind::MnVol1 => vol1::rules_text(),
            Kind::McXml => mcxml::coverage::rules_text(),
        }
    }

    /// The version of the kind's position encoding.
    pub fn encoding(self) -> &'static str {
        match self {
            Kind::MnVol1 => vol1::ENCODING,
            Kind::McXml => MCXML_ENCODING,
        }
    }

    /// A position encoded by [`Position::encode`] under `encoding`.
    ///
    /// # Errors
    ///
    /// [`KindError::Stored`] when it was written by another encoding or
    /// does not decode.
    pub fn decode(self, encoding: &str, json: &str) -> Result<Position, KindError> {
        match self {
            Kind::MnVol1 if encoding == vol1::ENCODING => {
                vol1::decode(json, crate::map::Map::london_1999())
                    .map(|v| Position::MnVol1(Box::new(v)))
            }
            Kind::MnVol1 => Err(KindError::Stored(format!(
                "encoded as {encoding:?}, not {:?}",
                vol1::ENCODING
            ))),
            Kind::McXml if encoding == MCXML_ENCODING => serde_json::from_str(json)
                .map(Position::McXml)
                .map_err(|e| KindError::Stored(e.to_string())),
            Kind::McXml => Err(KindError::Stored(format!(
                "encoded as {encoding:?}, not {MCXML_ENCODING:?}"
            ))),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The version of mc-xml's encoded position (snapshots carry it: another
/// is rebuilt by replay).
const MCXML_ENCODING: &str = "mc-xml/1";

/// A game's position: everything its rules look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A Volume 1 game.
    MnVol1(Box<Vol1>),
    /// An mc-xml game.
    McXml(mcxml::State),
}

/// An order read from a mail, typed by its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// A Volume 1 Play.
    MnVol1(Box<crate::gsd::Play>),
    /// An mc-xml `<Turn>`.
    McXml(mcxml::Turn),
}

impl Order {
    /// The player the order says it is from (empty: it does not say).
    pub fn player(&self) -> &str {
        match self {
            Order::MnVol1(p) => &p.player,
            Order::McXml(t) => &t.player,
        }
    }
}

/// The log line of a player joining late (RULINGS MX13).
const JOIN: &str = "#join ";
/// The log line of a player resigning (RULINGS MX15).
const RESIGN: &str = "#resign ";

impl Position {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Position::MnVol1(_) => Kind::MnVol1,
            Position::McXml(_) => Kind::McXml,
        }
    }

    /// The version of its encoding ([`Kind::decode`] reads it back).
    pub fn encoding(&self) -> &'static str {
        match self {
            Position::MnVol1(_) => vol1::ENCODING,
            Position::McXml(_) => MCXML_ENCODING,
        }
    }

    /// The position as JSON.
    pub fn encode(&self) -> String {
        match self {
            Position::MnVol1(v) => vol1::encode(v),
            Position::McXml(s) => serde_json::to_string(s).expect("serialisable"),
        }
    }

    /// The players, in order of play.
    pub fn players(&self) -> Vec<String> {
        match self {
            Position::MnVol1(v) => v
                .game
                .state
                .players
                .iter()
                .map(|p| p.name.clone())
                .collect(),
            Position::McXml(s) => s.trains.iter().map(|t| t.name.clone()).collect(),
        }
    }

    /// Turns played so far (Timeouts included).
    pub fn turns(&self) -> u32 {
        match self {
            Position::MnVol1(v) => v.game.plays.len() as u32,
            Position::McXml(s) => s.turns,
        }
    }

    /// Reads the order in a mail body, with what was repaired to read it.
    ///
    /// # Errors
    ///
    /// [`KindError::Read`]: where and what was expected.
    pub fn read(&self, body: &str) -> Result<(Order, Vec<String>), KindError> {
        match self {
            Position::MnVol1(v) => v.read(body),
            Position::McXml(_) => mcxml::read(mcxml::Facts::london(), body)
                .map(|r| {
                    let repairs = r.repairs.iter().map(ToString::to_string).collect();
                    (Order::McXml(r.turn), repairs)
                })
                .map_err(|e| KindError::Read {
                    line: e.line,
                    text: e.to_string(),
                }),
        }
    }

    /// Judges `order`, sent by the player `sender`.
    pub fn judge(&self, order: &Order, sender: &str) -> Judged {
        match (self, order) {
            (Position::MnVol1(v), Order::MnVol1(p)) => v.judge(p, sender),
            (Position::McXml(s), Order::McXml(t)) => {
                of_mcxml(mcxml::judge(mcxml::Facts::london(), s, t, sender))
            }
            (p, o) => Judged::Illegal(vec![Breach {
                rule: "-".into(),
                ruling: None,
                text: format!("an order of another kind than {}: {o:?}", p.kind()),
            }]),
        }
    }

    /// Who must act now.
    pub fn next(&self) -> Next {
        match self {
            Position::MnVol1(v) => v.next(),
            Position::McXml(s) => match s.winner {
                Some(w) => Next::Over {
                    winners: vec![s.trains[w].name.clone()],
                },
                None => Next::Act {
                    players: vec![s.current().name.clone()],
                    step: "turn",
                },
            },
        }
    }

    /// What a Timeout plays for the awaited player, and its verdict
    /// (RULINGS MX5: an empty turn).
    pub fn timeout(&self) -> (Order, Judged) {
        match self {
            Position::MnVol1(v) => v.timeout(),
            Position::McXml(s) => {
                let name = s.current().name.clone();
                let turn = mcxml::Turn::empty(&name);
                let j = of_mcxml(mcxml::judge(mcxml::Facts::london(), s, &turn, &name));
                (Order::McXml(turn), j)
            }
        }
    }

    /// The state document for `viewer` (mc-xml hides nothing), saying the
    /// awaited turn is due by `deadline` when given.
    pub fn render(&self, _viewer: &Viewer, deadline: Option<&str>) -> String {
        match self {
            Position::MnVol1(v) => v.render(deadline),
            Position::McXml(s) => mcxml::render::document(mcxml::Facts::london(), s, deadline),
        }
    }

    /// The canonical log line of `order`: it reads back as the same order.
    pub fn canonical(&self, order: &Order) -> String {
        match order {
            Order::MnVol1(p) => Vol1::canonical(p),
            Order::McXml(t) => mcxml::render::canonical(mcxml::Facts::london(), t),
        }
    }

    /// The log line of `name` joining late.
    pub fn join_line(name: &str) -> String {
        format!("{JOIN}{name}")
    }

    /// The log line of `name` resigning.
    pub fn resign_line(name: &str) -> String {
        format!("{RESIGN}{name}")
    }

    /// The position after `player` joined late (every player consented).
    ///
    /// # Errors
    ///
    /// [`KindError::Players`] when the name is taken or the game over.
    pub fn join(&self, name: &str) -> Result<Position, KindError> {
        match self {
            Position::MnVol1(_) => Err(KindError::Players(format!(
                "{name} cannot join a Volume 1 game once it has started (Rule 1.1.8)"
            ))),
            Position::McXml(s) => {
                let mut s = s.clone();
                mcxml::lifecycle::join(mcxml::Facts::london(), &mut s, name)
                    .map_err(KindError::Players)?;
                Ok(Position::McXml(s))
            }
        }
    }

    /// The position after `name` resigned.
    ///
    /// # Errors
    ///
    /// [`KindError::Players`] when no such player plays or the game is over.
    pub fn resign(&self, name: &str) -> Result<Position, KindError> {
        match self {
            Position::MnVol1(v) => v.resign(name),
            Position::McXml(s) => {
                let mut s = s.clone();
                mcxml::lifecycle::resign(&mut s, name).map_err(KindError::Players)?;
                Ok(Position::McXml(s))
            }
        }
    }

    /// The position after one line of the log, played by `player`: a
    /// canonical order (judged again: it must still be legal), or a join
    /// or a resignation.
    ///
    /// # Errors
    ///
    /// [`KindError::Stored`] when the line does not read or no longer
    /// stands.
    pub fn replay(&self, line: &str, player: &str) -> Result<Position, KindError> {
        if let Some(name) = line.strip_prefix(JOIN) {
            return self.join(name);
        }
        if let Some(name) = line.strip_prefix(RESIGN) {
            return self.resign(name);
        }
        if let Position::MnVol1(v) = self {
            return v.replay(line, player);
        }
        let (order, _) = self
            .read(line)
            .map_err(|e| KindError::Stored(format!("{line:?} does not read: {e}")))?;
        match self.judge(&order, player) {
            Judged::Legal { position, .. } | Judged::Over { position, .. } => Ok(position),
            Judged::Illegal(v) | Judged::NeedsRuling(v) => Err(KindError::Stored(format!(
                "{line:?} no longer stands: {}",
                v.first().map(ToString::to_string).unwrap_or_default()
            ))),
        }
    }

    /// The picture of the position, as SVG.
    ///
    /// # Errors
    ///
    /// Why it could not be drawn.
    pub fn picture_svg(&self) -> Result<String, String> {
        match self {
            Position::MnVol1(v) => v.picture_svg(),
            Position::McXml(s) => Ok(crate::picture::mcxml_svg(mcxml::Facts::london(), s)),
        }
    }

    /// The picture of the position, as PNG bytes.
    ///
    /// # Errors
    ///
    /// Why it could not be drawn.
    pub fn picture_png(&self) -> Result<Vec<u8>, String> {
        match self {
            Position::MnVol1(v) => v.picture_png(),
            Position::McXml(s) => {
                crate::picture::mcxml_png(mcxml::Facts::london(), s).map_err(|e| e.to_string())
            }
        }
    }
}

impl Kind {
    /// The position of a game of this kind whose players (in order of play,
    /// late joiners included) are `players`, with `rulings`, after its log
    /// `(player, line)`: the start (everyone but the players whose join is
    /// a line of the log) with every line folded, each checked again.
    ///
    /// # Errors
    ///
    /// [`KindError`] when the game cannot start or a line no longer stands
    /// (its number given).
    pub fn fold(
        self,
        players: &[String],
        rulings: &[(String, String)],
        log: &[(String, String)],
    ) -> Result<Position, KindError> {
        let first: Vec<String> = players
            .iter()
            .filter(|n| {
                !log.iter()
                    .any(|(p, l)| p.eq_ignore_ascii_case(n) && *l == Position::join_line(p))
            })
            .cloned()
            .collect();
        let mut p = self.start(&first, rulings)?;
        for (i, (player, line)) in log.iter().enumerate() {
            p = p.replay(line, player).map_err(|e| match e {
                KindError::Stored(s) => KindError::Stored(format!("line {}: {s}", i + 1)),
                other => other,
            })?;
        }
        Ok(p)
    }
}

fn of_mcxml(v: mcxml::Verdict) -> Judged {
    match v {
        mcxml::Verdict::Legal { state, changes } => Judged::Legal {
            position: Position::McXml(state),
            changes,
        },
        mcxml::Verdict::Won { state, changes } => Judged::Over {
            position: Position::McXml(state),
            changes,
        },
        mcxml::Verdict::Illegal(v) => Judged::Illegal(
            v.into_iter()
                .map(|v| Breach {
                    rule: v.rule.to_string(),
                    ruling: v.ruling.map(str::to_string),
                    text: v.text,
                })
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn ids_read_back_and_unknown_ones_are_named() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_id(&k.id().to_uppercase()), Ok(k));
        }
        let e = Kind::from_id("chess").unwrap_err().to_string();
        assert!(e.contains("mn-vol1, mc-xml"), "{e}");
    }

    #[test]
    fn a_game_folds_from_its_log_lines() {
        let p = Kind::McXml.start(&names(&["Ann", "Bob"]), &[]).unwrap();
        let (order, _) = p
            .read("<Turn player=\"Ann\"><Move steps=\"Goodge Street\"/></Turn>")
            .unwrap();
        let Judged::Legal { position, .. } = p.judge(&order, "Ann") else {
            panic!("legal")
        };
        let line = p.canonical(&order);
        assert_eq!(p.replay(&line, "Ann").unwrap(), position);
        assert_eq!(
            position.next(),
            Next::Act {
                players: names(&["Bob"]),
                step: "turn"
            }
        );
        let joined = position.replay(&Position::join_line("Cat"), "Cat").unwrap();
        assert_eq!(joined.players(), names(&["Ann", "Bob", "Cat"]));
        let back = Kind::McXml
            .decode(joined.encoding(), &joined.encode())
            .unwrap();
        assert_eq!(back, joined);
        assert!(Kind::McXml.decode("mc-xml/0", &joined.encode()).is_err());
        // Bob's turn out of turn by Ann does not stand in a replay.
        assert!(joined.replay(&line, "Ann").is_err());
    }

    #[test]
    fn the_player_range_and_rulings_are_checked_at_the_start() {
        assert!(matches!(
            Kind::McXml.start(&names(&["Ann"]), &[]),
            Err(KindError::Players(_))
        ));
        let bad = vec![("build_at".to_string(), "nowhere".to_string())];
        assert!(matches!(
            Kind::McXml.start(&names(&["Ann", "Bob"]), &bad),
            Err(KindError::Ruling(_))
        ));
        assert!(matches!(
            Kind::MnVol1.start(
                &names(&["Ann", "Bob"]),
                &[("start".into(), "Someday".into())]
            ),
            Err(KindError::Players(_))
        ));
    }

    #[test]
    fn a_timeout_plays_an_empty_turn_and_passes_on() {
        let p = Kind::McXml.start(&names(&["Ann", "Bob"]), &[]).unwrap();
        let (order, j) = p.timeout();
        assert_eq!(order.player(), "Ann");
        let Judged::Legal { position, .. } = j else {
            panic!("legal")
        };
        assert_eq!(position.players()[0], "Ann");
        assert!(matches!(position.next(), Next::Act { players, .. } if players == ["Bob"]));
    }
}
