//! The game-kind interface: what the daemon may ask of a hosted game.

use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::day;
use super::draws::{Draws, NoDraws};
use super::mcxml;
use super::money;
pub use super::position::{Order, Position};
use super::vol1;
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
    /// Money Run (`money-run`): pawns racing on stacks of coins.
    #[serde(rename = "money-run")]
    MoneyRun,
    /// One Day in London (`one-day`): hidden racks of station cards.
    #[serde(rename = "one-day")]
    OneDay,
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
    pub const ALL: [Kind; 4] = [Kind::MnVol1, Kind::McXml, Kind::MoneyRun, Kind::OneDay];

    /// Its id, as `NEW GAME ... kind <id>` and the games file write it.
    pub fn id(self) -> &'static str {
        match self {
            Kind::MnVol1 => "mn-vol1",
            Kind::McXml => "mc-xml",
            Kind::MoneyRun => "money-run",
            Kind::OneDay => "one-day",
        }
    }

    /// The kind `text` names (its id, any case; `mcxml` and `vol1` too).
    pub fn from_id(text: &str) -> Result<Kind, KindError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "mn-vol1" | "vol1" | "volume1" | "mn" => Ok(Kind::MnVol1),
            "mc-xml" | "mcxml" | "xml" => Ok(Kind::McXml),
            "money-run" | "moneyrun" | "money" => Ok(Kind::MoneyRun),
            "one-day" | "oneday" | "one-day-in-london" => Ok(Kind::OneDay),
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
            Kind::MoneyRun => "Money Run",
            Kind::OneDay => "One Day in London",
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
            // Setup: "2-4 players".
            Kind::MoneyRun => 2..=4,
            // "The game is for 2-4 players."
            Kind::OneDay => 2..=4,
        }
    }

    /// An example order, as HELP shows it.
    pub fn example_order(self) -> &'static str {
        match self {
            Kind::MnVol1 => "Rushton : Euston (NT)",
            Kind::McXml => "<Turn player=\"Ann\"><Move steps=\"Goodge Street\"/></Turn>",
            Kind::MoneyRun => "place M e4\npawn e1 e2",
            Kind::OneDay => "TAKE 1 PUT 4 DISCARD 2",
        }
    }

    /// What HELP says of the kind beyond its example, in lines of at most
    /// 66 columns: a house ruling that stands in for a lost part of its
    /// seed.
    pub fn help_note(self) -> Option<&'static str> {
        match self {
            Kind::MnVol1 | Kind::McXml => None,
            // Lines of at most 66 columns: HELP indents them by 6.
            Kind::MoneyRun => Some(
                "Seat 1 starts at e1 racing to row 9, seat 2 at e9 to row 1,\n\
                 seat 3 at a5 to column i, seat 4 at i5 to column a: a house\n\
                 ruling (RULINGS MR2), as the seed's picture of them is lost.",
            ),
            Kind::OneDay => Some(
                "Racks are private: mornbot mails your cards to your registered\n\
                 address alone. Set-up: PLACE <slot> for each card it sends you.\n\
                 A turn: TAKE <pile> PUT <slot> DISCARD <pile> in one mail, or\n\
                 DRAW, then PUT <slot> DISCARD <pile> (or DISCARD <pile>) once\n\
                 the card comes. STALEMATE agrees to end with no winner.",
            ),
        }
    }

    /// The deadline a game of this kind has unless its definition says
    /// otherwise (RULINGS MX14: the lounge's).
    pub fn default_deadline(self) -> Policy {
        Policy::Rule135
    }

    /// Whether the kind hides information from some players (One Day in
    /// London's racks and draw pile): its players get private documents at
    /// their registered addresses, everything public is rendered for the
    /// public alone, and nothing is taken back (RULINGS OD12: a take-back
    /// after seeing a card is a free peek).
    pub fn hides(self) -> bool {
        matches!(self, Kind::OneDay)
    }

    /// The deadline of a step of this kind (`step` as [`Next::Act`] names
    /// it): the kind's own for its steps when `rulings` say one
    /// (`<step>_deadline`), else the game's (`game`, its definition's
    /// `deadline`), else the kind's default for the step.
    ///
    /// [`Next::Act`]: super::Next::Act
    pub fn step_deadline(
        self,
        step: &str,
        rulings: &[(String, String)],
        game: Option<Policy>,
    ) -> Policy {
        match self {
            Kind::OneDay => day::step_deadline(step, rulings, game),
            _ => game.unwrap_or_else(|| self.default_deadline()),
        }
    }

    /// The steps with a deadline of their own, in the order a game meets
    /// them: One Day in London's placements, then its turns (OD14); every
    /// other kind's turns.
    pub fn timed_steps(self) -> &'static [&'static str] {
        match self {
            Kind::OneDay => &["placement", "turn"],
            _ => &["turn"],
        }
    }

    /// The deadlines of the kind's timed steps, in words: `2 hours a
    /// placement, every hour counted, then 3 hours a turn, every hour
    /// counted`.
    pub fn deadlines_said(self, rulings: &[(String, String)], game: Option<Policy>) -> String {
        let said: Vec<String> = self
            .timed_steps()
            .iter()
            .map(|step| self.step_deadline(step, rulings, game).per(step))
            .collect();
        said.join(", then ")
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
            Kind::MoneyRun => money::check_rulings(rulings),
            Kind::OneDay => day::check_rulings(rulings),
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
        self.start_drawing(players, rulings, &mut NoDraws)
    }

    /// [`Kind::start`], the draws a start needs (the opening coins of a
    /// bag) asked of `draws` at turn 0.
    ///
    /// # Errors
    ///
    /// As [`Kind::start`].
    pub fn start_drawing(
        self,
        players: &[String],
        rulings: &[(String, String)],
        draws: &mut dyn Draws,
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
            Kind::MoneyRun => money::start(players, rulings, draws),
            Kind::OneDay => day::start(players, rulings, draws),
        }
    }

    /// RULES: the kind's rules and what mornbot does with each.
    pub fn rules_text(self) -> String {
        match self {
            Kind::MnVol1 => vol1::rules_text(),
            Kind::McXml => mcxml::coverage::rules_text(),
            Kind::MoneyRun => money::rules_text(),
            Kind::OneDay => day::rules_text(),
        }
    }

    /// Whether a game of this kind can start with `players` and
    /// `rulings` (their number, names and rulings), without drawing: a
    /// start that needs draws is tried on stand-in values and thrown away.
    ///
    /// # Errors
    ///
    /// As [`Kind::start`].
    pub fn check_start(
        self,
        players: &[String],
        rulings: &[(String, String)],
    ) -> Result<(), KindError> {
        let mut stand_in = |_: u64, _: &str, _: u32| Some(0);
        self.start_drawing(players, rulings, &mut stand_in)
            .map(|_| ())
    }

    /// Whether a mail body (its own lines, the quoted ones blanked) holds
    /// what this kind would read as an order, cheaply: the classifier's
    /// test before the kind reads it (and says exactly what is wrong).
    /// Volume 1's Plays and GSDs are the classifier's own business.
    pub fn holds_order(self, body: &str) -> bool {
        match self {
            Kind::MnVol1 => false,
            // An mc-xml `<Turn` (any case).
            Kind::McXml => body
                .as_bytes()
                .windows(5)
                .any(|w| w.eq_ignore_ascii_case(b"<turn")),
            Kind::MoneyRun => money::holds_order(body),
            Kind::OneDay => day::holds_order(body),
        }
    }

    /// The version of the kind's position encoding.
    pub fn encoding(self) -> &'static str {
        match self {
            Kind::MnVol1 => vol1::ENCODING,
            Kind::McXml => MCXML_ENCODING,
            Kind::MoneyRun => money::ENCODING,
            Kind::OneDay => day::ENCODING,
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
            Kind::MoneyRun if encoding == money::ENCODING => serde_json::from_str(json)
                .map(|s| Position::MoneyRun(Box::new(s)))
                .map_err(|e| KindError::Stored(e.to_string())),
            Kind::MoneyRun => Err(KindError::Stored(format!(
                "encoded as {encoding:?}, not {:?}",
                money::ENCODING
            ))),
            Kind::OneDay if encoding == day::ENCODING => serde_json::from_str(json)
                .map(|s| Position::OneDay(Box::new(s)))
                .map_err(|e| KindError::Stored(e.to_string())),
            Kind::OneDay => Err(KindError::Stored(format!(
                "encoded as {encoding:?}, not {:?}",
                day::ENCODING
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
pub(super) const MCXML_ENCODING: &str = "mc-xml/1";

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
        self.fold_drawing(players, rulings, log, &mut NoDraws)
    }

    /// [`Kind::fold`], every draw of the start and the log asked of
    /// `draws` again.
    ///
    /// # Errors
    ///
    /// As [`Kind::fold`].
    pub fn fold_drawing(
        self,
        players: &[String],
        rulings: &[(String, String)],
        log: &[(String, String)],
        draws: &mut dyn Draws,
    ) -> Result<Position, KindError> {
        let first: Vec<String> = players
            .iter()
            .filter(|n| {
                !log.iter()
                    .any(|(p, l)| p.eq_ignore_ascii_case(n) && *l == Position::join_line(p))
            })
            .cloned()
            .collect();
        let mut p = self.start_drawing(&first, rulings, draws)?;
        for (i, (player, line)) in log.iter().enumerate() {
            p = p.replay_drawing(line, player, draws).map_err(|e| match e {
                KindError::Stored(s) => KindError::Stored(format!("line {}: {s}", i + 1)),
                other => other,
            })?;
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{Judged, Next};

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
                step: "turn",
                lines_in: 0,
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
