//! The Speaker's events as stored: one serde-tagged enum with a version.
//!
//! A game is its start state, its log of turns, and these events (buzz
//! steps, held turns, Judgments, resignations...). Each is stored as a row
//! `(game, kind, data)` whose `kind` is the variant's tag (kept as a column
//! for SQL inspection) and whose `data` is the JSON envelope
//! `{"v": 1, "kind": "...", "data": ...}`.
//!
//! Decoding is strict: an event that does not decode is an error naming
//! its row, never skipped, since a game rebuilt without it would be
//! another game. Rows written before the envelope existed (no `"v"`; the
//! payload alone) are read as version 0 by their `kind` column: the
//! payloads did not change shape, so they decode to the same events. A
//! version newer than this build's is refused rather than guessed at.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::speaker::Pending;
use super::Letter;
use crate::kinds::vol1::Violation;
use crate::speaker::buzz::Step;
use crate::store::{Commit, EventRow};

/// The version written by this build.
pub const VERSION: u32 = 1;

/// One stored Speaker event of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "data", rename_all = "kebab-case")]
pub enum Event {
    /// A step of the buzz workflow (Rules 1.16.x).
    BuzzStep(Step),
    /// A turn held while a Questionable Turn is settled (Rule 1.16.1).
    Held(Box<Letter>),
    /// A turn awaiting the Speaker's Judgment.
    Pending(Pending),
    /// The Speaker's (or the Referee's) Judgment on a turn.
    Judged(Judged),
    /// The Speaker paused or resumed the game.
    Paused(Paused),
    /// A player resigned when the log had this many turns.
    Resigned(usize, String),
    /// A player acknowledged the winning turn at this log length (Rule
    /// 1.1.1).
    NoBuzz(usize, String),
    /// The bot buzzed a turn the engine found Illegal.
    BotBuzz(Refused),
    /// A turn needs a human ruling.
    NeedsRuling(Refused),
    /// The game ended at this log length.
    Ended(usize),
    /// A player set an absence (RULINGS S27).
    Away(crate::speaker::absence::Absence),
    /// A player's absences were cut short at an instant: by emself
    /// (`CANCEL ABSENCE`) or refused by the Speaker (RULINGS S28).
    AwayCut(AwayCut),
}

/// A player's absences cut at `at`: those begun end there, later ones go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwayCut {
    /// The player.
    pub player: String,
    /// When.
    pub at: DateTime<Utc>,
    /// The Speaker refused them (else the player cancelled).
    pub refused: bool,
}

/// A Judgment on a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judged {
    /// The turn's number.
    pub turn: u64,
    /// Legal or Illegal.
    pub legal: bool,
}

/// The Speaker paused (or resumed) a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paused {
    /// Paused, or resumed.
    pub paused: bool,
    /// When.
    pub at: DateTime<Utc>,
}

/// A turn the engine did not pass, as recorded for the audit trail.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    /// Its turn number.
    pub turn: usize,
    /// Its player.
    pub player: String,
    /// The play, canonical.
    pub play: String,
    /// The message that carried it.
    pub message_id: String,
    /// The rules broken (a bot buzz).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
    /// The rules that need a human ruling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<Violation>,
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    v: u32,
    #[serde(flatten)]
    event: Event,
}

impl Event {
    /// The variant's tag: the row's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::BuzzStep(_) => "buzz-step",
            Event::Held(_) => "held",
            Event::Pending(_) => "pending",
            Event::Judged(_) => "judged",
            Event::Paused(_) => "paused",
            Event::Resigned(..) => "resigned",
            Event::NoBuzz(..) => "no-buzz",
            Event::BotBuzz(_) => "bot-buzz",
            Event::NeedsRuling(_) => "needs-ruling",
            Event::Ended(_) => "ended",
            Event::Away(_) => "away",
            Event::AwayCut(_) => "away-cut",
        }
    }

    /// The row's `(kind, data)`.
    pub fn encode(&self) -> (String, String) {
        let data = serde_json::to_string(&Envelope {
            v: VERSION,
            event: self.clone(),
        })
        .expect("events serialise");
        (self.kind().to_string(), data)
    }

    /// Adds the event to a commit, for game `tag`.
    pub fn record(self, tag: &str, commit: &mut Commit) {
        let (kind, data) = self.encode();
        commit.events.push((tag.to_string(), kind, data));
    }

    /// Decodes a stored row; an error names the row and why.
    pub fn decode(row: &EventRow) -> Result<Event, String> {
        let bad = |why: String| format!("event {} ({}) does not decode: {why}", row.id, row.kind);
        let value: serde_json::Value =
            serde_json::from_str(&row.data).map_err(|e| bad(e.to_string()))?;
        let enveloped = value.as_object().and_then(|o| o.get("v")).cloned();
        let event = match enveloped {
            Some(v) => {
                let v = v
                    .as_u64()
                    .ok_or_else(|| bad(format!("version {v} is not a number")))?;
                if v > u64::from(VERSION) {
                    return Err(bad(format!(
                        "version {v} is newer than this mornbot's ({VERSION}): upgrade it"
                    )));
                }
                serde_json::from_value::<Envelope>(value)
                    .map_err(|e| bad(e.to_string()))?
                    .event
            }
            // Version 0: the payload alone, its kind in the column.
            None => serde_json::from_value(serde_json::json!({
                "kind": row.kind,
                "data": value,
            }))
            .map_err(|e| bad(e.to_string()))?,
        };
        if event.kind() != row.kind {
            return Err(bad(format!("its data is a {:?} event", event.kind())));
        }
        Ok(event)
    }

    /// Decodes every row of a game, in order.
    pub fn decode_all(rows: &[EventRow]) -> Result<Vec<(DateTime<Utc>, Event)>, String> {
        rows.iter().map(|r| Ok((r.at, Event::decode(r)?))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(kind: &str, data: &str) -> EventRow {
        EventRow {
            id: 7,
            at: DateTime::<Utc>::default(),
            kind: kind.into(),
            data: data.into(),
        }
    }

    #[test]
    fn every_event_round_trips_through_its_row() {
        let events = vec![
            Event::BuzzStep(Step::Concede),
            Event::Judged(Judged {
                turn: 3,
                legal: true,
            }),
            Event::Paused(Paused {
                paused: true,
                at: DateTime::<Utc>::default(),
            }),
            Event::Resigned(4, "Cryer".into()),
            Event::NoBuzz(9, "Warren".into()),
            Event::BotBuzz(Refused {
                turn: 2,
                player: "Rushton".into(),
                play: "Rushton : Euston (NT)".into(),
                message_id: "<a@b>".into(),
                violations: vec![Violation {
                    rule: "1.6.2".into(),
                    message: "no".into(),
                }],
                rulings: vec![],
            }),
            Event::Ended(12),
            Event::Away(crate::speaker::absence::Absence {
                player: "Warren".into(),
                from: DateTime::<Utc>::default(),
                to: DateTime::<Utc>::default() + chrono::Duration::days(3),
                message_id: "<away@b>".into(),
            }),
            Event::AwayCut(AwayCut {
                player: "Warren".into(),
                at: DateTime::<Utc>::default(),
                refused: true,
            }),
        ];
        for e in events {
            let (kind, data) = e.encode();
            assert!(data.starts_with("{\"v\":1,"), "{data}");
            assert_eq!(Event::decode(&row(&kind, &data)), Ok(e));
        }
    }

    #[test]
    fn version_0_rows_decode_by_their_kind_column() {
        assert_eq!(
            Event::decode(&row("resigned", "[4,\"Cryer\"]")),
            Ok(Event::Resigned(4, "Cryer".into()))
        );
        assert_eq!(
            Event::decode(&row("judged", "{\"turn\":3,\"legal\":false}")),
            Ok(Event::Judged(Judged {
                turn: 3,
                legal: false
            }))
        );
        assert_eq!(Event::decode(&row("ended", "12")), Ok(Event::Ended(12)));
        assert_eq!(
            Event::decode(&row("buzz-step", "{\"step\":\"concede\"}")),
            Ok(Event::BuzzStep(Step::Concede))
        );
    }

    #[test]
    fn what_does_not_decode_is_an_error_naming_the_row() {
        for (kind, data, why) in [
            ("resigned", "{not json", "does not decode"),
            ("teleported", "[1]", "unknown variant"),
            ("ended", "{\"v\":2,\"kind\":\"ended\",\"data\":3}", "newer"),
            (
                "judged",
                "{\"v\":1,\"kind\":\"ended\",\"data\":3}",
                "\"ended\" event",
            ),
            (
                "judged",
                "{\"turn\":\"three\",\"legal\":true}",
                "invalid type",
            ),
        ] {
            let err = Event::decode(&row(kind, data)).unwrap_err();
            assert!(
                err.starts_with(&format!("event 7 ({kind}) does not decode")) && err.contains(why),
                "{kind} {data}: {err}"
            );
        }
    }
}
