//! The lobby's commands (issue 17, RULINGS S16): games created, joined
//! and started by mail. One line each, read here into typed values once;
//! the referee acts on them (`crate::daemon::referee`'s lobby).
//!
//! ```text
//! NEW GAME <TAG> [kind <id>] [players <N>] [start "<Day HHMM>"] [deadline <hours>]
//!          [ruling <key>=<value> ...]
//! JOIN <TAG> as <Name>
//! LEAVE <TAG>
//! CONFIRM <token>
//! START <TAG>
//! CANCEL GAME <TAG>
//! CONSENT <TAG> <Name>
//! ```
//!
//! A line whose verb is written in capitals but whose rest is wrong is a
//! [`Lobby::Malformed`], answered with what was expected; the same words
//! in lower case are read only when the line is well formed (prose such as
//! "Leave it to me" is not a command).

use serde::{Deserialize, Serialize};

use crate::kinds::vol1::Rulings;

/// The fewest players a game may want.
pub const MIN_PLAYERS: u8 = 2;
/// The most players (besides the Drone) a game created by mail may have:
/// the order of play is chosen among every permutation (RULINGS S17).
pub const MAX_PLAYERS: u8 = crate::speaker::order::MAX_PLAYERS as u8;

/// A lobby command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lobby {
    /// `NEW GAME`: a game in the lobby, not started.
    NewGame(NewGame),
    /// `JOIN <TAG> as <Name>`: asks to join; counts once confirmed.
    Join {
        /// The game, upper case.
        tag: String,
        /// The player's name in the game.
        name: String,
    },
    /// `LEAVE <TAG>`: leaves a game not yet started.
    Leave {
        /// The game, upper case.
        tag: String,
    },
    /// `CONFIRM <token>`: confirms a join.
    Confirm {
        /// The token, lower case.
        token: String,
    },
    /// `START <TAG>`: draws the order of play and starts the game.
    Start {
        /// The game, upper case.
        tag: String,
    },
    /// `CANCEL GAME <TAG>`: the game never starts (RULINGS S35).
    Cancel {
        /// The game, upper case.
        tag: String,
    },
    /// `CONSENT <TAG> <Name>`: a player consents to Name joining a game
    /// of another kind under way (RULINGS MX13).
    Consent {
        /// The game, upper case.
        tag: String,
        /// The joiner's name.
        name: String,
    },
    /// A lobby command written wrong.
    Malformed {
        /// The line as written (at most 200 characters).
        line: String,
        /// What was expected, in words.
        expected: String,
    },
}

/// `NEW GAME`'s options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewGame {
    /// The tag, upper case.
    pub tag: String,
    /// How many players the game takes (besides the Drone).
    pub players: u8,
    /// Game Time at the start.
    pub start: String,
    /// The house rulings (`[game.rulings]`), Volume 1's.
    pub rulings: Rulings,
    /// The game's kind (issue 41; absent: Volume 1).
    #[serde(default)]
    pub kind: crate::kinds::Kind,
    /// The turn deadline, when not the kind's (kinds other than Volume 1).
    #[serde(default)]
    pub deadline: Option<crate::speaker::policy::Policy>,
    /// The kind's rulings, `key=value` (kinds other than Volume 1).
    #[serde(default)]
    pub kind_rulings: Vec<(String, String)>,
}

/// The lobby command on `line`, or `None` when it is none.
pub fn parse(line: &str) -> Option<Lobby> {
    let t = line.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let words: Vec<&str> = t.split_whitespace().collect();
    let (&first, rest) = words.split_first()?;
    let verb = first.to_ascii_uppercase();
    let capitals = first.chars().all(|c| c.is_ascii_uppercase());
    let (rest, form, capitals) = match verb.as_str() {
        "NEW" => {
            let (&second, rest) = rest.split_first()?;
            if !second.eq_ignore_ascii_case("GAME") {
                return None;
            }
            let capitals = capitals && second.chars().all(|c| c.is_ascii_uppercase());
            (rest, "NEW GAME", capitals)
        }
        "JOIN" => (rest, "JOIN", capitals),
        "LEAVE" => (rest, "LEAVE", capitals),
        "CONFIRM" => (rest, "CONFIRM", capitals),
        "START" => (rest, "START", capitals),
        "CONSENT" => (rest, "CONSENT", capitals),
        "CANCEL" => {
            let (&second, rest) = rest.split_first()?;
            if !second.eq_ignore_ascii_case("GAME") {
                return None;
            }
            let capitals = capitals && second.chars().all(|c| c.is_ascii_uppercase());
            (rest, "CANCEL GAME", capitals)
        }
        _ => return None,
    };
    let read = match verb.as_str() {
        "NEW" => new_game(rest),
        "JOIN" => join(rest),
        "LEAVE" => one_tag(rest).map(|tag| Lobby::Leave { tag }),
        "START" => one_tag(rest).map(|tag| Lobby::Start { tag }),
        "CANCEL" => one_tag(rest).map(|tag| Lobby::Cancel { tag }),
        "CONSENT" => consent(rest),
        _ => confirm(rest),
    };
    match read {
        Ok(c) => Some(c),
        Err(why) if capitals => Some(Lobby::Malformed {
            line: t.chars().take(200).collect(),
            expected: format!("{why}; the form is {}", super::commands::usage(form)),
        }),
        Err(_) => None,
    }
}

/// A game tag: a letter, then letters, digits or `-`, ending in a digit,
/// at most 16 characters (`MN20`); upper-cased.
pub fn tag(word: &str) -> Result<String, String> {
    let w = word.trim_matches(['[', ']']);
    let ok = (2..=16).contains(&w.len())
        && w.starts_with(|c: char| c.is_ascii_alphabetic())
        && w.ends_with(|c: char| c.is_ascii_digit())
        && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if ok {
        Ok(w.to_ascii_uppercase())
    } else {
        Err(format!(
            "{word:?} is not a game tag (a letter, then letters, digits or '-', ending in a \
             digit, at most 16 characters: MN20)"
        ))
    }
}

/// A player's name: one to three words of letters, digits, `-`, `'` or
/// `.`, starting with a letter, at most 24 characters; never `Drone`.
pub fn name(text: &str) -> Result<String, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    let ok = (1..=3).contains(&words.len())
        && joined.chars().count() <= 24
        && joined.starts_with(|c: char| c.is_alphabetic())
        && joined
            .chars()
            .all(|c| c.is_alphanumeric() || " -'.".contains(c));
    if !ok {
        return Err(format!(
            "{text:?} is not a player's name (one to three words of letters, digits, '-', \
             ''' or '.', starting with a letter, at most 24 characters)"
        ));
    }
    if let Some(why) = crate::text::name_problem(&joined) {
        return Err(format!("{text:?} cannot be a player's name: {why}"));
    }
    if crate::kinds::vol1::is_reserved(&joined) {
        return Err("the Drone is no one's name: every game has its own (Rule 1.15.1)".into());
    }
    Ok(joined)
}

fn one_tag(rest: &[&str]) -> Result<String, String> {
    match rest {
        [t] => tag(t),
        [] => Err("a game tag is missing".into()),
        _ => Err(format!(
            "one game tag was expected, not {:?}",
            rest.join(" ")
        )),
    }
}

fn join(rest: &[&str]) -> Result<Lobby, String> {
    let [t, r @ ..] = rest else {
        return Err("a game tag is missing".into());
    };
    let tag = tag(t)?;
    let Some((_, n)) = r
        .split_first()
        .filter(|(a, _)| a.eq_ignore_ascii_case("as"))
    else {
        return Err("\"as <Name>\" is missing".into());
    };
    Ok(Lobby::Join {
        tag,
        name: name(&n.join(" "))?,
    })
}

fn consent(rest: &[&str]) -> Result<Lobby, String> {
    let [t, n @ ..] = rest else {
        return Err("a game tag is missing".into());
    };
    if n.is_empty() {
        return Err("the name of the player who asked to join is missing".into());
    }
    Ok(Lobby::Consent {
        tag: tag(t)?,
        name: name(&n.join(" "))?,
    })
}

fn confirm(rest: &[&str]) -> Result<Lobby, String> {
    match rest {
        [t] if (8..=64).contains(&t.len()) && t.chars().all(|c| c.is_ascii_alphanumeric()) => {
            Ok(Lobby::Confirm {
                token: t.to_ascii_lowercase(),
            })
        }
        [] => Err("the token is missing".into()),
        _ => Err(format!("{:?} is not a token", rest.join(" "))),
    }
}

/// `NEW GAME <TAG> [kind K] [players N] [start "Day HHMM"] [deadline D]
/// [ruling k=v ...]`: `start` is Volume 1's, `deadline` the other kinds'.
fn new_game(rest: &[&str]) -> Result<Lobby, String> {
    let Some((t, mut opts)) = rest.split_first() else {
        return Err("a game tag is missing".into());
    };
    let tag = tag(t)?;
    let (mut kind, mut players, mut start, mut deadline) = (None, None, None, None);
    let mut rulings: Option<Vec<&str>> = None;
    while let Some((&word, more)) = opts.split_first() {
        match word.to_ascii_lowercase().as_str() {
            "kind" if kind.is_none() => {
                let (k, more) = more.split_first().ok_or("kind needs a game kind")?;
                kind = Some(crate::kinds::Kind::from_id(k).map_err(|e| e.to_string())?);
                opts = more;
            }
            "players" if players.is_none() => {
                let (n, more) = more.split_first().ok_or("players needs a number")?;
                let n: u8 = n
                    .parse()
                    .ok()
                    .filter(|n| (MIN_PLAYERS..=MAX_PLAYERS).contains(n))
                    .ok_or(format!(
                        "players {n}: a number from {MIN_PLAYERS} to {MAX_PLAYERS} was expected"
                    ))?;
                players = Some(n);
                opts = more;
            }
            "start" if start.is_none() => {
                let (s, used) = start_time(more)?;
                start = Some(s);
                opts = &more[used..];
            }
            "deadline" if deadline.is_none() => {
                let (d, used) = deadline_words(more)?;
                deadline = Some(d);
                opts = &more[used..];
            }
            "ruling" | "rulings" if rulings.is_none() => {
                rulings = Some(more.to_vec());
                opts = &[];
            }
            _ => {
                return Err(format!(
                    "{word:?} is not an option (kind, players, start, deadline or ruling, each \
                     once)"
                ))
            }
        }
    }
    let kind = kind.unwrap_or_default();
    let vol1 = kind == crate::kinds::Kind::MnVol1;
    let players = players.unwrap_or(*kind.players().end() as u8);
    kind.check_players(usize::from(players))
        .map_err(|e| format!("players {players}: {e}"))?;
    if vol1 && deadline.is_some() {
        return Err("deadline: a Volume 1 game's deadline is Rule 1.3.5's".into());
    }
    if !vol1 && start.is_some() {
        return Err(format!("start: {kind} has no Game Time"));
    }
    let words = rulings.unwrap_or_default();
    let (rulings, kind_rulings) = if vol1 {
        (house_rulings(&words)?, Vec::new())
    } else {
        let pairs = kind_pairs(&words)?;
        kind.check_rulings(&pairs).map_err(|e| e.to_string())?;
        (Rulings::default(), pairs)
    };
    Ok(Lobby::NewGame(NewGame {
        tag,
        players,
        start: start.unwrap_or_else(|| "Monday 0900".into()),
        rulings,
        kind,
        deadline,
        kind_rulings,
    }))
}

/// A deadline (`48h`, `48h plain`, `24 hours counted`): the policy and
/// how many words of `more` it used.
fn deadline_words(more: &[&str]) -> Result<(crate::speaker::policy::Policy, usize), String> {
    use crate::speaker::policy::Policy;
    let is_unit = |w: &&str| matches!(w.to_ascii_lowercase().as_str(), "h" | "hour" | "hours");
    let is_count = |w: &&str| matches!(w.to_ascii_lowercase().as_str(), "plain" | "counted");
    let mut n = 1;
    if more.get(n).is_some_and(is_unit) {
        n += 1;
    }
    if more.get(n).is_some_and(is_count) {
        n += 1;
    }
    let words = more
        .get(..n)
        .ok_or("deadline needs hours, like 48h or 24h plain")?;
    Policy::parse(&words.join(" "))
        .map(|p| (p, n))
        .map_err(|e| e.to_string())
}

/// A kind's rulings `key=value ...` as pairs (checked by the kind).
fn kind_pairs(words: &[&str]) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.to_string(), v.trim_matches(['"', '\'']).to_string()))
                .ok_or_else(|| format!("ruling {p:?}: key=value was expected"))
        })
        .collect()
}

/// The start's Game Time: `"Monday 0900"` (quoted) or `Monday 0900`; how
/// many words of `more` it used.
fn start_time(more: &[&str]) -> Result<(String, usize), String> {
    let two = more
        .get(..2)
        .ok_or("start needs a Game Time like \"Monday 0900\"")?;
    let text = two.join(" ");
    let bare = text.trim_matches(['"', '\'', '“', '”']);
    if !crate::kinds::vol1::is_game_time(bare) {
        return Err(format!(
            "start {text}: a Game Time like \"Monday 0900\" was expected"
        ));
    }
    Ok((bare.to_string(), 2))
}

pub use crate::kinds::vol1::{house_rulings, ruling_keys};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_with_every_option() {
        let c = parse("NEW GAME mn20 players 4 start \"Tuesday 1000\" ruling bare_move_any_line=true soaped_phase=pre");
        let Some(Lobby::NewGame(g)) = c else {
            panic!("{c:?}")
        };
        assert_eq!(g.tag, "MN20");
        assert_eq!(g.players, 4);
        assert_eq!(g.start, "Tuesday 1000");
        assert!(g.rulings.bare_move_any_line);
        assert_ne!(g.rulings.soaped_phase, Rulings::default().soaped_phase);
    }

    #[test]
    fn new_game_defaults() {
        assert_eq!(
            parse("new game MN21"),
            Some(Lobby::NewGame(NewGame {
                tag: "MN21".into(),
                players: MAX_PLAYERS,
                start: "Monday 0900".into(),
                rulings: Rulings::default(),
                kind: Default::default(),
                deadline: None,
                kind_rulings: Vec::new(),
            }))
        );
    }

    #[test]
    fn new_game_of_another_kind() {
        use crate::kinds::Kind;
        use crate::speaker::policy::Policy;
        let c = parse("NEW GAME MX1 kind mc-xml players 3 deadline 48h plain ruling build_at=on");
        let Some(Lobby::NewGame(g)) = c else {
            panic!("{c:?}")
        };
        assert_eq!((g.kind, g.players), (Kind::McXml, 3));
        assert_eq!(
            g.deadline,
            Some(Policy::PerTurn {
                hours: 48,
                counted: false
            })
        );
        assert_eq!(g.kind_rulings, vec![("build_at".into(), "on".into())]);
        let c = parse("NEW GAME MX2 deadline 24 hours kind mcxml");
        assert!(
            matches!(
                c,
                Some(Lobby::NewGame(NewGame {
                    kind: Kind::McXml,
                    ..
                }))
            ),
            "{c:?}"
        );
        for (line, says) in [
            ("NEW GAME MX3 kind chess", "no game kind"),
            (
                "NEW GAME MX3 kind mc-xml ruling soaped_phase=pre",
                "unknown mc-xml ruling",
            ),
            ("NEW GAME MX3 kind mc-xml start Monday 0900", "no Game Time"),
            ("NEW GAME MN3 deadline 48h", "Rule 1.3.5"),
            ("NEW GAME MX3 kind mc-xml deadline soon", "not a deadline"),
        ] {
            let Some(Lobby::Malformed { expected, .. }) = parse(line) else {
                panic!("{line}: not malformed")
            };
            assert!(expected.contains(says), "{line}: {expected}");
        }
    }

    #[test]
    fn malformed_in_capitals_says_what_was_expected() {
        for (line, says) in [
            ("NEW GAME", "tag is missing"),
            ("NEW GAME MN20 players 40", "from 2 to 8"),
            ("NEW GAME MN20 start Someday", "Game Time"),
            (
                "NEW GAME MN20 ruling no_such_key=true",
                "bare_move_any_line",
            ),
            (
                "NEW GAME MN20 ruling bare_move_any_line=maybe",
                "do not read",
            ),
            ("NEW GAME MN20 colour blue", "not an option"),
            ("JOIN MN20 Rushton", "as <Name>"),
            ("JOIN MN20 as Drone", "Drone"),
            ("JOIN MN20 as Bob: the builder", "not a player's name"),
            ("LEAVE", "tag is missing"),
            ("START MN20 now", "one game tag"),
            ("CONFIRM", "token is missing"),
            ("JOIN 20 as Bob", "not a game tag"),
            ("CANCEL GAME", "tag is missing"),
            ("CANCEL GAME MN20 MN21", "one game tag"),
        ] {
            match parse(line) {
                Some(Lobby::Malformed { expected, .. }) => {
                    assert!(expected.contains(says), "{line}: {expected}")
                }
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn cancel_game() {
        assert_eq!(
            parse("CANCEL GAME mn20."),
            Some(Lobby::Cancel { tag: "MN20".into() })
        );
        assert_eq!(
            parse("CONSENT MX1 Dana Scully"),
            Some(Lobby::Consent {
                tag: "MX1".into(),
                name: "Dana Scully".into()
            })
        );
        assert!(matches!(
            parse("CONSENT MX1"),
            Some(Lobby::Malformed { .. })
        ));
    }

    #[test]
    fn prose_in_lower_case_is_no_command() {
        for line in [
            "Leave it to me",
            "Start of my turn",
            "join us at the pub",
            "Confirm?",
            "new game soon?",
            "Newsflash",
            "Cancel game night, all",
            "CANCEL",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }

    #[test]
    fn join_leave_confirm_start() {
        assert_eq!(
            parse("Join [mn20] as Barry Cryer."),
            Some(Lobby::Join {
                tag: "MN20".into(),
                name: "Barry Cryer".into()
            })
        );
        assert_eq!(
            parse("LEAVE MN20"),
            Some(Lobby::Leave { tag: "MN20".into() })
        );
        assert_eq!(
            parse("CONFIRM 0123ABCDef456789"),
            Some(Lobby::Confirm {
                token: "0123abcdef456789".into()
            })
        );
        assert_eq!(
            parse("start MN20"),
            Some(Lobby::Start { tag: "MN20".into() })
        );
    }

    #[test]
    fn the_keys_are_the_rulings_own() {
        let keys = ruling_keys();
        assert!(keys.contains(&"bare_move_any_line".to_string()), "{keys:?}");
        assert!(keys.contains(&"bot_rolls_holiday".to_string()));
    }
}
