//! A game's [`Position`] and its [`Order`]s: what the interface asks of a
//! game under way (read, judge, who acts next, Timeout, render, the
//! canonical line, joins and resignations, replay, picture). [`Kind`]
//! (`kind.rs`) names the kinds and starts and folds their games.
//!
//! [`Kind`]: super::Kind

use super::day;
use super::draws::{Draws, NoDraws};
use super::kind::{Kind, KindError, MCXML_ENCODING};
use super::mcxml;
use super::money;
use super::moneyrun;
use super::oneday;
use super::outcome::{Breach, Judged, Next, Viewer};
use super::vol1::{self, Vol1};

/// A game's position: everything its rules look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A Volume 1 game.
    MnVol1(Box<Vol1>),
    /// An mc-xml game.
    McXml(mcxml::State),
    /// A Money Run game.
    MoneyRun(Box<moneyrun::State>),
    /// A One Day in London game.
    OneDay(Box<oneday::State>),
}

/// An order read from a mail, typed by its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// A Volume 1 Play.
    MnVol1(Box<crate::gsd::Play>),
    /// An mc-xml `<Turn>`.
    McXml(mcxml::Turn),
    /// Money Run's actions of one mail.
    MoneyRun(moneyrun::Orders),
    /// One Day in London's order of one mail.
    OneDay(oneday::Order),
}

impl Order {
    /// The player the order says it is from (empty: it does not say).
    pub fn player(&self) -> &str {
        match self {
            Order::MnVol1(p) => &p.player,
            Order::McXml(t) => &t.player,
            // Money Run's orders do not name their player: the sender's.
            Order::MoneyRun(_) | Order::OneDay(_) => "",
        }
    }
}

/// The log line of a player joining late (RULINGS MX13).
const JOIN: &str = "#join ";
/// The log line of a player resigning (RULINGS MX15).
const RESIGN: &str = "#resign ";
/// The log line of a Timeout a kind plays as no order a player may send
/// (One Day in London's, RULINGS OD11): replayed as the Timeout itself.
pub(super) const TIMEOUT: &str = "#timeout";

impl Position {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Position::MnVol1(_) => Kind::MnVol1,
            Position::McXml(_) => Kind::McXml,
            Position::MoneyRun(_) => Kind::MoneyRun,
            Position::OneDay(_) => Kind::OneDay,
        }
    }

    /// The version of its encoding ([`Kind::decode`] reads it back).
    pub fn encoding(&self) -> &'static str {
        match self {
            Position::MnVol1(_) => vol1::ENCODING,
            Position::McXml(_) => MCXML_ENCODING,
            Position::MoneyRun(_) => money::ENCODING,
            Position::OneDay(_) => day::ENCODING,
        }
    }

    /// The position as JSON.
    pub fn encode(&self) -> String {
        match self {
            Position::MnVol1(v) => vol1::encode(v),
            Position::McXml(s) => serde_json::to_string(s).expect("serialisable"),
            Position::MoneyRun(s) => serde_json::to_string(s).expect("serialisable"),
            Position::OneDay(s) => serde_json::to_string(s).expect("serialisable"),
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
            Position::MoneyRun(s) => s.pawns.iter().map(|p| p.name.clone()).collect(),
            Position::OneDay(s) => s.players(),
        }
    }

    /// Turns played so far (Timeouts included).
    pub fn turns(&self) -> u32 {
        match self {
            Position::MnVol1(v) => v.game.plays.len() as u32,
            Position::McXml(s) => s.turns,
            Position::MoneyRun(s) => u32::try_from(s.turns).unwrap_or(u32::MAX),
            Position::OneDay(s) => s.turns,
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
            Position::MoneyRun(_) => money::read(body),
            Position::OneDay(_) => day::read(body),
        }
    }

    /// Judges `order`, sent by the player `sender`, in a game without
    /// draws ([`Position::judge_drawing`]).
    pub fn judge(&self, order: &Order, sender: &str) -> Judged {
        self.judge_drawing(order, sender, &mut NoDraws)
    }

    /// Judges `order`, sent by the player `sender`; a draw the order
    /// needs (a coin from the bag) is asked of `draws`.
    pub fn judge_drawing(&self, order: &Order, sender: &str, draws: &mut dyn Draws) -> Judged {
        match (self, order) {
            (Position::MnVol1(v), Order::MnVol1(p)) => v.judge(p, sender),
            (Position::McXml(s), Order::McXml(t)) => {
                of_mcxml(mcxml::judge(mcxml::Facts::london(), s, t, sender))
            }
            (Position::MoneyRun(s), Order::MoneyRun(o)) => money::judge(s, o, sender, draws),
            (Position::OneDay(s), Order::OneDay(o)) => day::judge(s, o, sender, draws),
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
                    lines_in: 0,
                },
            },
            Position::MoneyRun(s) => money::next(s),
            Position::OneDay(s) => day::next(s),
        }
    }

    /// What a Timeout plays for `player`, one of the awaited (a step
    /// several players take at once times each of them out alone), and its
    /// verdict; `None` when `player` is not awaited.
    pub fn timeout_of(&self, player: &str) -> Option<(Order, Judged)> {
        let Next::Act { players, .. } = self.next() else {
            return None;
        };
        let awaited = players.iter().any(|p| p.eq_ignore_ascii_case(player));
        match self {
            _ if !awaited => None,
            Position::OneDay(s) => day::timeout_of(s, player),
            _ => Some(self.timeout()),
        }
    }

    /// What a Timeout plays for the (first) awaited player, and its verdict
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
            Position::MoneyRun(s) => money::timeout(s),
            Position::OneDay(s) => {
                let first = match day::next(s) {
                    Next::Act { players, .. } => players.into_iter().next(),
                    Next::Over { .. } => None,
                };
                first
                    .and_then(|p| day::timeout_of(s, &p))
                    .unwrap_or_else(|| {
                        let no = Breach {
                            rule: "Game End".into(),
                            ruling: None,
                            text: "the game is over: no one is awaited".into(),
                        };
                        (
                            Order::OneDay(oneday::Order::Timeout),
                            Judged::Illegal(vec![no]),
                        )
                    })
            }
        }
    }

    /// The state document for `viewer` (only a kind with hidden
    /// information shows a player more than the public), saying the
    /// awaited turn is due by `deadline` when given.
    pub fn render(&self, viewer: &Viewer, deadline: Option<&str>) -> String {
        match self {
            Position::MnVol1(v) => v.render(deadline),
            Position::McXml(s) => mcxml::render::document(mcxml::Facts::london(), s, deadline),
            Position::MoneyRun(s) => moneyrun::render::document(s, deadline),
            Position::OneDay(s) => day::render(s, viewer, deadline),
        }
    }

    /// What `player` alone may see, as eir private document (mailed to eir
    /// registered address only, never the lounge), saying the awaited
    /// step is due by `deadline` when given; `None` in a kind that hides
    /// nothing ([`Kind::hides`]).
    pub fn private(&self, player: &str, deadline: Option<&str>) -> Option<String> {
        match self {
            Position::MnVol1(_) | Position::McXml(_) | Position::MoneyRun(_) => {
                let _ = (player, deadline);
                None
            }
            Position::OneDay(s) => day::private(s, player, deadline),
        }
    }

    /// What `player` alone knows, in a form that changes exactly when eir
    /// private document's hidden part does (a new card to place, a card
    /// drawn, eir rack): the daemon mails the private document when it
    /// changes. `None` in a kind that hides nothing.
    pub fn secrets(&self, player: &str) -> Option<String> {
        match self {
            Position::MnVol1(_) | Position::McXml(_) | Position::MoneyRun(_) => {
                let _ = player;
                None
            }
            Position::OneDay(s) => day::secrets(s, player),
        }
    }

    /// The canonical log line of `order`: it reads back as the same order.
    pub fn canonical(&self, order: &Order) -> String {
        match order {
            Order::MnVol1(p) => Vol1::canonical(p),
            Order::McXml(t) => mcxml::render::canonical(mcxml::Facts::london(), t),
            Order::MoneyRun(o) => moneyrun::canonical(o),
            Order::OneDay(o) => oneday::canonical(o),
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
            Position::MoneyRun(_) => Err(KindError::Players(format!(
                "{name} cannot join a Money Run game once it has started: its seats, start \
                 squares and goals are fixed at the start (RULINGS MR17)"
            ))),
            Position::OneDay(_) => Err(KindError::Players(format!(
                "{name} cannot join a One Day in London game once it has started: the deck \
                 was dealt seat by seat at the start (RULINGS OD5)"
            ))),
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
            Position::MoneyRun(_) => Err(KindError::Players(format!(
                "{name} cannot resign from a Money Run game: the seed has no rule for a pawn \
                 leaving the board; eir turns pass on the clock until the game ends \
                 (RULINGS MR17)"
            ))),
            Position::OneDay(_) => Err(KindError::Players(format!(
                "{name} cannot resign from a One Day in London game: eir rack's cards would \
                 leave the game; eir turns pass on the clock until the game ends (RULINGS \
                 OD11), or every player may agree a STALEMATE (OD13)"
            ))),
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
        self.replay_drawing(line, player, &mut NoDraws)
    }

    /// [`Position::replay`], the draws the line needs asked of `draws`
    /// again (the same seed gives the same values: nothing is drawn anew).
    ///
    /// # Errors
    ///
    /// As [`Position::replay`].
    pub fn replay_drawing(
        &self,
        line: &str,
        player: &str,
        draws: &mut dyn Draws,
    ) -> Result<Position, KindError> {
        if let Some(name) = line.strip_prefix(JOIN) {
            return self.join(name);
        }
        if let Some(name) = line.strip_prefix(RESIGN) {
            return self.resign(name);
        }
        if line == TIMEOUT {
            return match self.timeout_of(player) {
                Some((_, Judged::Legal { position, .. } | Judged::Over { position, .. })) => {
                    Ok(position)
                }
                _ => Err(KindError::Stored(format!(
                    "a Timeout of {player}, who is not awaited"
                ))),
            };
        }
        if let Position::MnVol1(v) = self {
            return v.replay(line, player);
        }
        let (order, _) = self
            .read(line)
            .map_err(|e| KindError::Stored(format!("{line:?} does not read: {e}")))?;
        match self.judge_drawing(&order, player, draws) {
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
            Position::MoneyRun(s) => Ok(crate::picture::moneyrun_svg(s)),
            Position::OneDay(s) => Ok(day::picture_svg(s)),
        }
    }

    /// The picture of the position for `viewer`, as PNG bytes: a kind
    /// with hidden information draws a player's own (One Day in London:
    /// eir rack as a journey); every other picture is the public one.
    ///
    /// # Errors
    ///
    /// Why it could not be drawn.
    pub fn picture_png_for(&self, viewer: &Viewer) -> Result<Vec<u8>, String> {
        match self {
            Position::OneDay(s) => day::picture_png(s, viewer),
            _ => self.picture_png(),
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
            Position::MoneyRun(s) => crate::picture::moneyrun_png(s).map_err(|e| e.to_string()),
            Position::OneDay(s) => day::picture_png(s, &Viewer::Public),
        }
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
                .map(|v| Breach::of(v.rule, v.ruling, v.text))
                .collect(),
        ),
    }
}
