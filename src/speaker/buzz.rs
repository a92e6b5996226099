//! The buzz workflow (Rules 1.16.1 - 1.16.4) as a pure state machine: a
//! game's Questionable Turn, folded from its recorded events, and what is
//! due at an instant.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::deadline::{buzz_response_deadline, is_overdue, judgment_deadline};

/// The bot's name when it is the Buzzing Player.
pub const BOT: &str = "mornbot";

/// A recorded step of the workflow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// Turn `turn` (by `player`) is Buzzed by `buzzer` (Rule 1.16.2).
    Buzz {
        /// The turn number.
        turn: u64,
        /// Who made the turn.
        player: String,
        /// Who buzzed ([`BOT`] for the bot).
        buzzer: String,
        /// The illegality spotted.
        reason: String,
        /// Whether the turn is in the log (a player's buzz) or was refused
        /// by the engine (the bot's buzz).
        logged: bool,
        /// The play buzzed, as the log has it (empty in steps recorded
        /// before it was kept).
        #[serde(default)]
        play: String,
    },
    /// The buzzer withdraws the Buzz: the turn is Legal again.
    Withdraw,
    /// The Buzzed Player concedes: Illegal.
    Concede,
    /// The Buzzed Player contests: the buzzer has 36 hours.
    Defend {
        /// The defence given (empty when none, or recorded before it was
        /// kept).
        #[serde(default)]
        defence: String,
    },
    /// The buzzer concedes the defence: Legal.
    ConcedeDefence,
    /// The buzzer contests the defence: Judgment.
    ContestDefence {
        /// Why (empty when none, or recorded before it was kept).
        #[serde(default)]
        contest: String,
    },
    /// A Referee was drawn (Rule 1.16.4): with the game's dice (RULINGS
    /// S14), or, in a game without dice, from a seed (S8).
    Referee {
        /// The Referee.
        name: String,
        /// The seed of an S8 draw (0 for a draw by the dice).
        seed: u64,
        /// The face the game's dice gave (absent in an S8 draw).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        die: Option<u32>,
    },
    /// The Referee declined, or passed no Judgment in three days.
    Declined,
    /// No Referee is available: the game is on hold.
    OnHold,
    /// The Referee's binding Judgment.
    Judgment {
        /// Legal or Illegal.
        legal: bool,
    },
    /// The 36 hours passed without an answer.
    Lapsed,
    /// The Speaker settles the Turn by Judgment, at any stage (RULINGS
    /// S13).
    Speaker {
        /// Legal or Illegal.
        legal: bool,
    },
}

/// Where a Questionable Turn stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The Buzzed Player may concede or contest until `until`.
    Defence {
        /// Deadline.
        until: DateTime<Utc>,
    },
    /// The buzzer may concede or contest the defence until `until`.
    Reply {
        /// Deadline.
        until: DateTime<Utc>,
    },
    /// A Referee must be drawn.
    Draw,
    /// `referee` judges until `until`.
    Judgment {
        /// The Referee.
        referee: String,
        /// Deadline.
        until: DateTime<Utc>,
    },
    /// No Referee available.
    OnHold,
}

/// A Questionable Turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Questionable {
    /// The turn number.
    pub turn: u64,
    /// Who made it.
    pub player: String,
    /// Who buzzed it.
    pub buzzer: String,
    /// Why.
    pub reason: String,
    /// Whether the turn is in the log.
    pub logged: bool,
    /// The play buzzed (may be empty: see [`Step::Buzz`]).
    pub play: String,
    /// The Buzzed Player's defence, once contested.
    pub defence: Option<String>,
    /// The buzzer's contest of the defence, once contested.
    pub contest: Option<String>,
    /// Where it stands.
    pub stage: Stage,
    /// Referees already tried (declined or silent).
    pub tried: Vec<String>,
}

/// How a Questionable Turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The turn stands.
    Legal,
    /// The turn and every later one never happened (Rule 1.16.1).
    Illegal,
}

/// The state of a game's buzz workflow after a step at `at`, and whether
/// the step settled the turn. Steps that make no sense in the current
/// stage are refused with the reason.
pub fn apply(
    q: Option<Questionable>,
    step: &Step,
    at: DateTime<Utc>,
) -> Result<(Option<Questionable>, Option<Settled>), String> {
    use Step::*;
    match (q, step) {
        (
            None,
            Buzz {
                turn,
                player,
                buzzer,
                reason,
                logged,
                play,
            },
        ) => Ok((
            Some(Questionable {
                turn: *turn,
                player: player.clone(),
                buzzer: buzzer.clone(),
                reason: reason.clone(),
                logged: *logged,
                play: play.clone(),
                defence: None,
                contest: None,
                stage: Stage::Defence {
                    until: buzz_response_deadline(at),
                },
                tried: Vec::new(),
            }),
            None,
        )),
        (Some(_), Buzz { .. }) => {
            Err("a Turn of this game is already Questionable: no further Buzz (Rule 1.16.2)".into())
        }
        (None, _) => Err("no Turn of this game is Questionable".into()),
        (Some(_), Speaker { legal }) => Ok((
            None,
            Some(if *legal {
                Settled::Legal
            } else {
                Settled::Illegal
            }),
        )),
        (Some(_), Withdraw) => Ok((None, Some(Settled::Legal))),
        (Some(q), Concede) if matches!(q.stage, Stage::Defence { .. }) => {
            Ok((None, Some(Settled::Illegal)))
        }
        (Some(mut q), Defend { defence }) if matches!(q.stage, Stage::Defence { .. }) => {
            q.defence = Some(defence.clone());
            q.stage = Stage::Reply {
                until: buzz_response_deadline(at),
            };
            Ok((Some(q), None))
        }
        (Some(q), ConcedeDefence) if matches!(q.stage, Stage::Reply { .. }) => {
            Ok((None, Some(Settled::Legal)))
        }
        (Some(mut q), ContestDefence { contest }) if matches!(q.stage, Stage::Reply { .. }) => {
            q.contest = Some(contest.clone());
            q.stage = Stage::Draw;
            Ok((Some(q), None))
        }
        (Some(mut q), Referee { name, .. }) if matches!(q.stage, Stage::Draw | Stage::OnHold) => {
            q.stage = Stage::Judgment {
                referee: name.clone(),
                until: judgment_deadline(at),
            };
            Ok((Some(q), None))
        }
        (Some(mut q), Declined) => match &q.stage {
            Stage::Judgment { referee, .. } => {
                q.tried.push(referee.clone());
                q.stage = Stage::Draw;
                Ok((Some(q), None))
            }
            _ => Err("no Referee is judging this Turn".into()),
        },
        (Some(mut q), OnHold) if q.stage == Stage::Draw => {
            q.stage = Stage::OnHold;
            Ok((Some(q), None))
        }
        (Some(q), Judgment { legal }) if matches!(q.stage, Stage::Judgment { .. }) => Ok((
            None,
            Some(if *legal {
                Settled::Legal
            } else {
                Settled::Illegal
            }),
        )),
        (Some(q), Lapsed) => match q.stage {
            // No contest within 36 hours: Illegal; no reply to the defence
            // within 36 hours: Legal (Rule 1.16.3).
            Stage::Defence { .. } => Ok((None, Some(Settled::Illegal))),
            Stage::Reply { .. } => Ok((None, Some(Settled::Legal))),
            _ => Err("nothing lapses at this stage".into()),
        },
        (Some(q), s) => Err(format!("{s:?} does not apply now: {}", describe(&q))),
    }
}

/// Where the turn stands, in words.
pub fn describe(q: &Questionable) -> String {
    match &q.stage {
        Stage::Defence { .. } => format!("{} may concede or contest the Buzz", q.player),
        Stage::Reply { .. } => format!("{} may concede or contest the defence", q.buzzer),
        Stage::Draw => "a Referee is being drawn".into(),
        Stage::Judgment { referee, .. } => format!("{referee} is to judge it"),
        Stage::OnHold => "no Referee is available: the game is on hold".into(),
    }
}

/// What the Speaker must do now, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// A 36-hour period passed without an answer.
    Lapse,
    /// Draw a Referee (after a contested defence, a decline, or silence).
    Draw,
    /// The Referee passed no Judgment in three days.
    RefereeSilent,
}

/// What is due at `now`.
pub fn due(q: &Questionable, now: DateTime<Utc>) -> Option<Due> {
    match &q.stage {
        Stage::Defence { until } | Stage::Reply { until } if is_overdue(*until, now) => {
            Some(Due::Lapse)
        }
        Stage::Draw => Some(Due::Draw),
        Stage::Judgment { until, .. } if is_overdue(*until, now) => Some(Due::RefereeSilent),
        _ => None,
    }
}

/// When [`due`] next has something to say.
pub fn next_event(q: &Questionable) -> Option<DateTime<Utc>> {
    let ms = chrono::Duration::milliseconds(1);
    match &q.stage {
        Stage::Defence { until } | Stage::Reply { until } => Some(*until + ms),
        Stage::Judgment { until, .. } => Some(*until + ms),
        Stage::Draw => Some(DateTime::<Utc>::MIN_UTC),
        Stage::OnHold => None,
    }
}

/// Folds recorded steps; a step that does not apply is skipped (it was
/// refused when it arrived, and is not recorded then anyway).
pub fn fold(steps: &[(DateTime<Utc>, Step)]) -> Option<Questionable> {
    let mut q = None;
    for (at, s) in steps {
        if let Ok((next, _)) = apply(q.clone(), s, *at) {
            q = next;
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(h: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 16, 0, 0, 0).unwrap() + chrono::Duration::hours(h)
    }

    fn buzz() -> Step {
        Step::Buzz {
            turn: 4,
            player: "Warren".into(),
            buzzer: "Acton".into(),
            reason: "LV".into(),
            logged: true,
            play: "Warren : [LV+1] Euston (NT)".into(),
        }
    }

    fn defend() -> Step {
        Step::Defend {
            defence: "LV 1 is enough".into(),
        }
    }

    fn contest() -> Step {
        Step::ContestDefence {
            contest: "it is not".into(),
        }
    }

    #[test]
    fn concede_makes_it_illegal_and_silence_too() {
        let (q, s) = apply(None, &buzz(), t(0)).unwrap();
        assert_eq!(s, None);
        let q = q.unwrap();
        assert_eq!(q.stage, Stage::Defence { until: t(36) });
        assert_eq!(
            apply(Some(q.clone()), &Step::Concede, t(1)).unwrap().1,
            Some(Settled::Illegal)
        );
        assert_eq!(due(&q, t(36)), None);
        assert_eq!(due(&q, t(37)), Some(Due::Lapse));
        assert_eq!(
            apply(Some(q), &Step::Lapsed, t(37)).unwrap().1,
            Some(Settled::Illegal)
        );
    }

    #[test]
    fn a_defence_unanswered_stands_and_a_contested_one_goes_to_judgment() {
        let (q, _) = apply(None, &buzz(), t(0)).unwrap();
        let (q, _) = apply(q, &defend(), t(10)).unwrap();
        let q1 = q.clone().unwrap();
        assert_eq!(q1.stage, Stage::Reply { until: t(46) });
        assert_eq!(
            apply(q.clone(), &Step::Lapsed, t(47)).unwrap().1,
            Some(Settled::Legal)
        );
        assert_eq!(
            apply(q.clone(), &Step::ConcedeDefence, t(11)).unwrap().1,
            Some(Settled::Legal)
        );
        let (q, _) = apply(q, &contest(), t(12)).unwrap();
        assert_eq!(due(q.as_ref().unwrap(), t(12)), Some(Due::Draw));
        let (q, _) = apply(
            q,
            &Step::Referee {
                name: "Rushton".into(),
                seed: 1,
                die: None,
            },
            t(12),
        )
        .unwrap();
        let q2 = q.clone().unwrap();
        assert_eq!(
            q2.stage,
            Stage::Judgment {
                referee: "Rushton".into(),
                until: t(84)
            }
        );
        assert_eq!(due(&q2, t(85)), Some(Due::RefereeSilent));
        let (q3, _) = apply(q.clone(), &Step::Declined, t(20)).unwrap();
        assert_eq!(q3.as_ref().unwrap().tried, vec!["Rushton".to_string()]);
        assert_eq!(
            apply(q, &Step::Judgment { legal: false }, t(13)).unwrap().1,
            Some(Settled::Illegal)
        );
    }

    #[test]
    fn out_of_turn_steps_are_refused_and_a_second_buzz_too() {
        let (q, _) = apply(None, &buzz(), t(0)).unwrap();
        assert!(apply(q.clone(), &buzz(), t(1)).is_err());
        assert!(apply(q.clone(), &Step::ConcedeDefence, t(1)).is_err());
        assert!(apply(q.clone(), &Step::Judgment { legal: true }, t(1)).is_err());
        assert!(apply(None, &Step::Concede, t(1)).is_err());
        assert_eq!(
            apply(q, &Step::Withdraw, t(2)).unwrap(),
            (None, Some(Settled::Legal))
        );
    }

    #[test]
    fn fold_replays_the_record() {
        let steps = vec![
            (t(0), buzz()),
            (t(1), defend()),
            (t(2), contest()),
            (
                t(2),
                Step::Referee {
                    name: "Rushton".into(),
                    seed: 9,
                    die: None,
                },
            ),
        ];
        let q = fold(&steps).unwrap();
        assert_eq!(q.play, "Warren : [LV+1] Euston (NT)");
        assert_eq!(q.defence.as_deref(), Some("LV 1 is enough"));
        assert_eq!(q.contest.as_deref(), Some("it is not"));
        assert_eq!(
            q.stage,
            Stage::Judgment {
                referee: "Rushton".into(),
                until: t(74)
            }
        );
        assert_eq!(
            next_event(&q),
            Some(t(74) + chrono::Duration::milliseconds(1))
        );
    }

    #[test]
    fn steps_recorded_before_the_words_were_kept_still_read() {
        let old = r#"{"step":"buzz","turn":4,"player":"Warren","buzzer":"Acton","reason":"LV","logged":true}"#;
        let Step::Buzz { play, .. } = serde_json::from_str::<Step>(old).unwrap() else {
            panic!("a Buzz");
        };
        assert_eq!(play, "");
        assert_eq!(
            serde_json::from_str::<Step>(r#"{"step":"defend"}"#).unwrap(),
            Step::Defend {
                defence: String::new()
            }
        );
        assert_eq!(
            serde_json::from_str::<Step>(r#"{"step":"contest-defence"}"#).unwrap(),
            Step::ContestDefence {
                contest: String::new()
            }
        );
    }
}
