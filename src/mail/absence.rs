//! The absence commands (issue 17, item 3; RULINGS S27 - S29), read from a
//! line:
//!
//! ```text
//! ABSENCE <when> [TO <when>] [<game>]    a player away; <when> is a day
//!                                        (2026-12-01, all of it, UTC) or an
//!                                        instant (2026-12-01T18:00:00Z)
//! CANCEL ABSENCE [<game>]                the player is back: eir absences end now
//! REFUSE ABSENCE <player> [<game>]       the Speaker's: that player's end now
//! ```

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// An absence command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AbsenceCmd {
    /// `ABSENCE`: the sender is away from `from` until `to` (exclusive).
    Set {
        /// When it begins.
        from: DateTime<Utc>,
        /// When it ends (exclusive: the day after the last day named).
        to: DateTime<Utc>,
        /// The game named, upper case.
        game: Option<String>,
    },
    /// `CANCEL ABSENCE`: the sender's absences end now.
    Cancel {
        /// The game named, upper case.
        game: Option<String>,
    },
    /// `REFUSE ABSENCE <player>`: the Speaker refuses a player's absence.
    Refuse {
        /// The player named.
        player: String,
        /// The game named, upper case.
        game: Option<String>,
    },
    /// An absence command written wrong.
    Malformed {
        /// The line as written (at most 200 characters).
        line: String,
        /// What was expected, in words.
        expected: String,
    },
}

impl AbsenceCmd {
    /// The game the command names.
    pub fn game(&self) -> Option<&str> {
        match self {
            AbsenceCmd::Set { game, .. }
            | AbsenceCmd::Cancel { game }
            | AbsenceCmd::Refuse { game, .. } => game.as_deref(),
            AbsenceCmd::Malformed { .. } => None,
        }
    }
}

/// An absence command in `line`, or `None` when the line is not one.
pub fn parse(line: &str) -> Option<AbsenceCmd> {
    let t = line.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let words: Vec<&str> = t.split_whitespace().collect();
    let (&first, rest) = words.split_first()?;
    let verb = first.to_ascii_uppercase();
    let second_is = |w: &str| rest.first().is_some_and(|s| s.eq_ignore_ascii_case(w));
    let read = match verb.as_str() {
        "ABSENCE" if second_is("CANCEL") => cancel(&rest[1..]),
        "ABSENCE" => set(rest),
        "CANCEL" if second_is("ABSENCE") => cancel(&rest[1..]),
        "REFUSE" if second_is("ABSENCE") => refuse(&rest[1..]),
        _ => return None,
    };
    match read {
        Ok(c) => Some(c),
        // Written as a command (in capitals): answered, saying why.
        Err(why) if first.chars().all(|c| c.is_ascii_uppercase()) => Some(AbsenceCmd::Malformed {
            line: t.chars().take(200).collect(),
            expected: why,
        }),
        // Prose ("Absence makes the heart grow fonder").
        Err(_) => None,
    }
}

/// `<when> [TO <when>] [<game>]`.
fn set(rest: &[&str]) -> Result<AbsenceCmd, String> {
    let bad = |why: String| {
        let form = super::commands::usage("ABSENCE");
        format!("{why}; the form is {form}, days written 2026-12-01 (UTC)")
    };
    let (game, rest) = trailing_game(rest, 1);
    let (from, to) = match rest {
        [a] => (start_of(a), end_of(a)),
        [a, sep, b] if sep.eq_ignore_ascii_case("TO") || *sep == "-" => (start_of(a), end_of(b)),
        [] => return Err(bad("no days given".into())),
        _ => {
            // Name the first word that is not a day, else the shape.
            let odd = rest.iter().find(|w| {
                !w.eq_ignore_ascii_case("TO") && **w != "-" && looks_like_day(w).is_none()
            });
            return Err(bad(match odd {
                Some(w) => {
                    format!("{w:?} is not a day (2026-12-01) or an instant (2026-12-01T18:00:00Z)")
                }
                None => "the words after ABSENCE are not <first day> TO <last day>".into(),
            }));
        }
    };
    let (from, to) = (from.map_err(bad)?, to.map_err(bad)?);
    if to <= from {
        return Err(bad("it ends before it begins".into()));
    }
    Ok(AbsenceCmd::Set { from, to, game })
}

/// `[<game>]` after `CANCEL ABSENCE`.
fn cancel(rest: &[&str]) -> Result<AbsenceCmd, String> {
    match rest {
        [] => Ok(AbsenceCmd::Cancel { game: None }),
        [g] => super::lobby::tag(g)
            .map(|t| AbsenceCmd::Cancel { game: Some(t) })
            .map_err(|why| {
                format!(
                    "{why}; the form is {}",
                    super::commands::usage("CANCEL ABSENCE")
                )
            }),
        _ => Err(format!(
            "too many words; the form is {}",
            super::commands::usage("CANCEL ABSENCE")
        )),
    }
}

/// `<player> [<game>]` after `REFUSE ABSENCE`.
fn refuse(rest: &[&str]) -> Result<AbsenceCmd, String> {
    let (game, rest) = trailing_game(rest, 1);
    if rest.is_empty() || rest.len() > 3 {
        return Err(format!(
            "name one player; the form is {}",
            super::commands::usage("REFUSE ABSENCE")
        ));
    }
    Ok(AbsenceCmd::Refuse {
        player: rest.join(" "),
        game,
    })
}

/// The last word as a game tag when it is one and at least `keep` words
/// stay before it.
fn trailing_game<'a, 'b>(words: &'a [&'b str], keep: usize) -> (Option<String>, &'a [&'b str]) {
    match words.split_last() {
        Some((last, before)) if before.len() >= keep && looks_like_day(last).is_none() => {
            match super::lobby::tag(last) {
                Ok(t) => (Some(t), before),
                Err(_) => (None, words),
            }
        }
        _ => (None, words),
    }
}

/// A day (`2026-12-01`) or an instant, when `word` is one.
fn looks_like_day(word: &str) -> Option<When> {
    if let Ok(d) = NaiveDate::parse_from_str(word, "%Y-%m-%d") {
        return Some(When::Day(d));
    }
    crate::speaker::parse_timestamp(word).ok().map(When::At)
}

enum When {
    Day(NaiveDate),
    At(DateTime<Utc>),
}

fn when(word: &str) -> Result<When, String> {
    looks_like_day(word).ok_or_else(|| {
        format!("{word:?} is not a day (2026-12-01) or an instant (2026-12-01T18:00:00Z)")
    })
}

/// The instant an absence named by `word` begins: a day's first instant.
fn start_of(word: &str) -> Result<DateTime<Utc>, String> {
    Ok(match when(word)? {
        When::Day(d) => d.and_hms_opt(0, 0, 0).expect("midnight").and_utc(),
        When::At(t) => t,
    })
}

/// The instant an absence whose last day is `word` ends: the next day's
/// first instant.
fn end_of(word: &str) -> Result<DateTime<Utc>, String> {
    Ok(match when(word)? {
        When::Day(d) => d.and_hms_opt(0, 0, 0).expect("midnight").and_utc() + Duration::days(1),
        When::At(t) => t,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn days_and_instants() {
        assert_eq!(
            parse("ABSENCE 2026-12-01 TO 2026-12-07 MN12"),
            Some(AbsenceCmd::Set {
                from: t("2026-12-01T00:00:00Z"),
                to: t("2026-12-08T00:00:00Z"),
                game: Some("MN12".into())
            })
        );
        assert_eq!(
            parse("absence 2026-12-01."),
            Some(AbsenceCmd::Set {
                from: t("2026-12-01T00:00:00Z"),
                to: t("2026-12-02T00:00:00Z"),
                game: None
            })
        );
        assert_eq!(
            parse("ABSENCE 2026-12-01T18:00:00+01:00 - 2026-12-03T09:00:00Z [MN12]"),
            Some(AbsenceCmd::Set {
                from: t("2026-12-01T17:00:00Z"),
                to: t("2026-12-03T09:00:00Z"),
                game: Some("MN12".into())
            })
        );
    }

    #[test]
    fn cancel_and_refuse() {
        assert_eq!(
            parse("CANCEL ABSENCE"),
            Some(AbsenceCmd::Cancel { game: None })
        );
        assert_eq!(
            parse("absence cancel mn12"),
            Some(AbsenceCmd::Cancel {
                game: Some("MN12".into())
            })
        );
        assert_eq!(
            parse("REFUSE ABSENCE Henry VIII MN12"),
            Some(AbsenceCmd::Refuse {
                player: "Henry VIII".into(),
                game: Some("MN12".into())
            })
        );
        assert_eq!(
            parse("REFUSE ABSENCE Warren"),
            Some(AbsenceCmd::Refuse {
                player: "Warren".into(),
                game: None
            })
        );
    }

    #[test]
    fn malformed_ones_say_what_was_expected() {
        for (line, why) in [
            ("ABSENCE next week", "\"next\" is not a day"),
            ("ABSENCE", "no days given"),
            ("ABSENCE 2026-12-07 TO 2026-12-01", "ends before it begins"),
            ("ABSENCE 2026-02-30", "is not a day"),
            (
                "ABSENCE 2026-12-01 until 2026-12-03",
                "\"until\" is not a day",
            ),
            (
                "ABSENCE 2026-12-01 2026-12-03",
                "are not <first day> TO <last day>",
            ),
            ("REFUSE ABSENCE", "name one player"),
            ("CANCEL ABSENCE MN12 MN13", "too many words"),
        ] {
            match parse(line) {
                Some(AbsenceCmd::Malformed { expected, .. }) => {
                    assert!(expected.contains(why), "{line}: {expected}")
                }
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn other_lines_are_not_absences() {
        assert_eq!(parse("REFUSE STALEMATE MN12"), None);
        assert_eq!(parse("CANCEL"), None);
        assert_eq!(parse("STATUS"), None);
        assert_eq!(parse("I'll be absent next week"), None);
        assert_eq!(parse("Absence makes the heart grow fonder"), None);
    }
}
