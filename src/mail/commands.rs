//! Every command mornbot answers, in one table (issue 39): its form, an
//! example, what it does and who may send it. HELP is written from this
//! table, and a misspelt command (`STRAT MN28`) is matched against its
//! verbs; a test reads every example with the classifier, so the table
//! and the parser cannot drift apart.

/// Who may send a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Anyone.
    Anyone,
    /// A player of the game it names.
    Player,
    /// Anyone, for a game waiting in the lobby (games by mail).
    Lobby,
    /// The Speaker's addresses alone.
    Speaker,
}

/// One command.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The words that name it, in capitals (`STATUS`, `NEW GAME`).
    pub verb: &'static str,
    /// What follows the verb: `[game]` may be left out, `<...>` may not.
    pub args: &'static str,
    /// An example of the rest (`{game}` stands for a game's tag, `MN20`
    /// for a new game's).
    pub example: &'static str,
    /// What it does.
    pub what: &'static str,
    /// Who may send it.
    pub who: Who,
}

impl Spec {
    /// The command's form: `STATUS [game]`.
    pub fn form(&self) -> String {
        join(self.verb, self.args)
    }

    /// The example, with `game` for `{game}`.
    pub fn example(&self, game: &str) -> String {
        join(self.verb, &self.example.replace("{game}", game))
    }
}

fn join(verb: &str, rest: &str) -> String {
    if rest.is_empty() {
        verb.to_string()
    } else {
        format!("{verb} {rest}")
    }
}

const fn spec(
    verb: &'static str,
    args: &'static str,
    example: &'static str,
    what: &'static str,
    who: Who,
) -> Spec {
    Spec {
        verb,
        args,
        example,
        what,
        who,
    }
}

/// Every command, in the order HELP lists them.
pub const COMMANDS: &[Spec] = &[
    spec("HELP", "", "", "this text.", Who::Anyone),
    spec(
        "STATUS",
        "[game]",
        "{game}",
        "whose turn it is and by when, and every open request with its deadline; without \
         a game: your games and the games waiting for players.",
        Who::Anyone,
    ),
    spec(
        "GSD",
        "[game]",
        "{game}",
        "the game's canonical GSD.",
        Who::Anyone,
    ),
    spec(
        "HISTORY",
        "[game]",
        "{game}",
        "every turn played so far, with when it arrived.",
        Who::Anyone,
    ),
    spec(
        "RULES",
        "[coverage]",
        "coverage",
        "every rule of each game kind by number and title, with what mornbot does with it.",
        Who::Anyone,
    ),
    spec(
        "POINTS",
        "",
        "",
        "the Points table (Rule 1.1.9).",
        Who::Anyone,
    ),
    spec(
        "ARCHIVE",
        "[game]",
        "{game}",
        "the ended games; with a game, its whole record and final GSD (Rule 1.1.5).",
        Who::Anyone,
    ),
    spec(
        "RESIGN",
        "[game]",
        "{game}",
        "you Resign from the game (Rule 1.1.3).",
        Who::Player,
    ),
    spec(
        "STALEMATE",
        "[game]",
        "{game}",
        "you agree the game has reached a Stalemate (Rule 1.1.11); it stands until the \
         next turn.",
        Who::Player,
    ),
    spec(
        "WITHDRAW STALEMATE",
        "[game]",
        "{game}",
        "you take your agreement to a Stalemate back.",
        Who::Player,
    ),
    spec(
        "ABSENCE",
        "<first day> TO <last day> [game]",
        "2026-12-01 TO 2026-12-07 {game}",
        "you are away those days (UTC, the last included): your turn's clock stops \
         meanwhile (Rule 1.3.5).",
        Who::Player,
    ),
    spec(
        "CANCEL ABSENCE",
        "[game]",
        "{game}",
        "you are back early: your absences end now.",
        Who::Player,
    ),
    spec(
        "NEW GAME",
        "<TAG> [kind K] [players N] [start|deadline ..] [ruling ...]",
        "MN20 players 4 start \"Monday 0900\"",
        "opens a new game for players to join (the Speaker's; anyone's where the lounge \
         allows it); kind names the game (mn-vol1, the default, or mc-xml); start \
         \"Day HHMM\" is Volume 1's Game Time, deadline the other kinds' hours a turn \
         (48h, 24h plain); ruling key=value sets a house ruling.",
        Who::Lobby,
    ),
    spec(
        "JOIN",
        "<TAG> as <Name>",
        "MN20 as Rushton",
        "asks to join a game waiting for players; mornbot mails a token to your address.",
        Who::Lobby,
    ),
    spec(
        "CONFIRM",
        "<token>",
        "0123456789abcdef0123",
        "confirms your join, from the address the token was mailed to.",
        Who::Lobby,
    ),
    spec(
        "LEAVE",
        "<TAG>",
        "MN20",
        "you leave a game before it starts.",
        Who::Lobby,
    ),
    spec(
        "START",
        "<TAG>",
        "MN20",
        "draws the order of play (Rule 1.1.12) and starts the game (its creator or the \
         Speaker, once two have joined).",
        Who::Lobby,
    ),
    spec(
        "CANCEL GAME",
        "<TAG>",
        "MN20",
        "calls a game off before its start (its creator or the Speaker).",
        Who::Lobby,
    ),
    spec(
        "CONSENT",
        "<TAG> <Name>",
        "MX1 Dana",
        "a player's consent to Name joining a game of another kind under way (mc-xml, \
         RULINGS MX13: every player must consent); JOIN asks.",
        Who::Lobby,
    ),
    spec(
        "RESIGN",
        "<player> [game]",
        "Rushton {game}",
        "Resigns a player (Rule 1.1.3).",
        Who::Speaker,
    ),
    spec(
        "VOID",
        "[game]",
        "{game}",
        "strikes the latest turn from the log.",
        Who::Speaker,
    ),
    spec(
        "PAUSE",
        "[game]",
        "{game}",
        "holds the game: no turn is due until RESUME.",
        Who::Speaker,
    ),
    spec(
        "RESUME",
        "[game]",
        "{game}",
        "releases a paused game: the player to move has 36 hours from now.",
        Who::Speaker,
    ),
    spec(
        "CONFIRM STALEMATE",
        "<game>",
        "{game}",
        "ends a game every Active player agrees is a Stalemate.",
        Who::Speaker,
    ),
    spec(
        "REFUSE STALEMATE",
        "<game>",
        "{game}",
        "refuses it: play goes on, and every agreement is void.",
        Who::Speaker,
    ),
    spec(
        "REFUSE ABSENCE",
        "<player> [game]",
        "Rushton {game}",
        "ends a player's absence now.",
        Who::Speaker,
    ),
];

/// The steps of a Buzz and of a winning turn, posted in the lounge on the
/// game's thread (Rules 1.16.1 - 1.16.4, 1.3.3, 1.1.1): the form and what
/// it does.
pub const STEPS: &[(&str, &str)] = &[
    (
        "Buzz: Rushton's turn 4: <reason>",
        "makes a turn Questionable (within three turns of it)",
    ),
    (
        "Concede",
        "the buzzed player accepts a Buzz (or the buzzer the defence)",
    ),
    (
        "Contest: <reason>",
        "defends the turn (or, from the buzzer, contests the defence)",
    ),
    ("Withdraw", "the buzzer lets the turn stand"),
    (
        "Judgment: Legal",
        "the drawn Referee's (or the Speaker's) verdict, or Judgment: Illegal",
    ),
    ("Decline", "the drawn Referee declines; another is drawn"),
    (
        "Take back",
        "undoes your latest turn while no one has played since; a play line after it replaces it",
    ),
    ("No buzz", "accepts a winning turn"),
];

/// The verb of the table a command read from a line is, or `None` for a
/// line that is no command (`Unknown`, a lobby's or an absence's written
/// wrong). Exhaustive: a new kind of command does not compile until it
/// names its row of [`COMMANDS`] (a test checks that each row's example
/// reads as that row's verb).
pub fn verb_of(c: &crate::mail::request::Command) -> Option<&'static str> {
    use crate::mail::absence::AbsenceCmd;
    use crate::mail::lobby::Lobby;
    use crate::mail::request::{Command, StalemateStep};
    Some(match c {
        Command::Help => "HELP",
        Command::Status(_) => "STATUS",
        Command::Gsd(_) => "GSD",
        Command::History(_) => "HISTORY",
        Command::Rules => "RULES",
        Command::Points => "POINTS",
        Command::Archive(_) => "ARCHIVE",
        Command::Speaker(line) => {
            let verb = line.split_whitespace().next()?.to_ascii_uppercase();
            verbs().into_iter().find(|v| *v == verb)?
        }
        Command::Stalemate(step, _) => match step {
            StalemateStep::Agree => "STALEMATE",
            StalemateStep::Withdraw => "WITHDRAW STALEMATE",
            StalemateStep::Confirm => "CONFIRM STALEMATE",
            StalemateStep::Refuse => "REFUSE STALEMATE",
        },
        Command::Lobby(l) => match l {
            Lobby::NewGame(_) => "NEW GAME",
            Lobby::Join { .. } => "JOIN",
            Lobby::Leave { .. } => "LEAVE",
            Lobby::Confirm { .. } => "CONFIRM",
            Lobby::Start { .. } => "START",
            Lobby::Cancel { .. } => "CANCEL GAME",
            Lobby::Consent { .. } => "CONSENT",
            Lobby::Malformed { .. } => return None,
        },
        Command::Absence(a) => match a {
            AbsenceCmd::Set { .. } => "ABSENCE",
            AbsenceCmd::Cancel { .. } => "CANCEL ABSENCE",
            AbsenceCmd::Refuse { .. } => "REFUSE ABSENCE",
            AbsenceCmd::Malformed { .. } => return None,
        },
        Command::Unknown(_) => return None,
    })
}

/// How to write the command named `verb`, for a refusal of a line that
/// does not read: `JOIN <TAG> as <Name>, e.g. JOIN MN20 as Rushton`
/// (`MN20` standing for a game's tag in the examples of commands about
/// one that is under way); the first row of that verb.
pub fn usage(verb: &str) -> String {
    COMMANDS.iter().find(|c| c.verb == verb).map_or_else(
        || verb.to_string(),
        |c| {
            if c.args.is_empty() {
                c.form()
            } else {
                format!("{}, e.g. {}", c.form(), c.example("MN20"))
            }
        },
    )
}

/// The command verbs, each once, as written in capitals.
pub fn verbs() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for c in COMMANDS {
        if !v.contains(&c.verb) {
            v.push(c.verb);
        }
    }
    v
}

/// What a misspelt command line may have meant: the line with its verb
/// corrected (`STRAT MN28` gives `START MN28`) when `reads` says that is a
/// command, else the nearest command's form (`START <TAG>`). A verb is
/// near when it is one edit away (a letter added, dropped, changed, or two
/// swapped), two for a verb of more than four letters; a line whose verb
/// is right is no misspelling.
pub fn did_you_mean(line: &str, reads: impl Fn(&str) -> bool) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut best: Option<(bool, usize, String)> = None;
    for verb in verbs() {
        let n = verb.split_whitespace().count();
        if words.len() < n {
            continue;
        }
        let written = words[..n].join(" ").to_ascii_uppercase();
        let d = distance(&written, verb);
        let near = if verb.len() > 4 { 2 } else { 1 };
        if d == 0 || d > near {
            continue;
        }
        let fixed = join(verb, &words[n..].join(" "));
        let (good, said) = if reads(&fixed) {
            (true, fixed)
        } else {
            let form = COMMANDS
                .iter()
                .find(|c| c.verb == verb)
                .map(Spec::form)
                .unwrap_or_default();
            (false, form)
        };
        let better = best
            .as_ref()
            .is_none_or(|(g, bd, _)| (good, std::cmp::Reverse(d)) > (*g, std::cmp::Reverse(*bd)));
        if better {
            best = Some((good, d, said));
        }
    }
    best.map(|(_, _, s)| s)
}

/// The optimal-string-alignment distance between two short ASCII words:
/// insertions, deletions, substitutions and swaps of neighbours, each one
/// edit. (Not `map::names::edit_distance`, Levenshtein's, where a swap is
/// two: there JION is as far from JOIN as from JOKE.)
fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The row of a command that anyone may send taking at most a game (or
/// a topic), by its one-word verb: what a failed attempt at it (`STATUS
/// of MN12 please`) is told to write.
pub fn plain(verb: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|c| {
        c.verb == verb
            && c.who == Who::Anyone
            && !c.verb.contains(' ')
            && matches!(c.args, "" | "[game]" | "[coverage]")
    })
}

/// HELP's list of commands, grouped by who may send them, each with its
/// form, what it does and an example (`game` for a game's tag), as
/// indented lines a mail client shows as they are.
pub fn help_list(game: &str) -> String {
    let groups = [
        (Who::Anyone, "Anyone"),
        (Who::Player, "Players, about a game they play"),
        (Who::Lobby, "Games by mail (the lobby)"),
        (Who::Speaker, "The Speaker's (from the Speaker's addresses)"),
    ];
    let mut out = String::new();
    for (who, title) in groups {
        out.push_str(&format!("{title}:\n\n"));
        for c in COMMANDS.iter().filter(|c| c.who == who) {
            out.push_str(&format!("    {}\n", c.form()));
            out.push_str(&indented(&capitalised(c.what), 8));
            if !c.args.is_empty() {
                out.push_str(&format!("        Example: {}\n", c.example(game)));
            }
        }
        out.push('\n');
    }
    out
}

/// The game kinds the lounge hosts, each with its players and an example
/// turn, as indented lines (issue 41).
pub fn kinds_list() -> String {
    let mut out = String::new();
    for k in crate::kinds::Kind::ALL {
        let r = k.players();
        out.push_str(&format!(
            "    {}: {}, {} to {} players. A turn:\n{}",
            k.id(),
            k.title(),
            r.start(),
            r.end(),
            k.example_order()
                .lines()
                .map(|l| format!("        {l}\n"))
                .collect::<String>()
        ));
        if let Some(note) = k.help_note() {
            for l in note.lines() {
                out.push_str(&format!("      {l}\n"));
            }
        }
    }
    out
}

/// The lounge's steps, as indented lines.
pub fn steps_list() -> String {
    let mut out = String::new();
    for (form, what) in STEPS {
        out.push_str(&format!("    {form}\n"));
        out.push_str(&indented(&format!("{}.", capitalised(what)), 8));
    }
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `text` filled into lines of at most 72 columns, each indented by
/// `by` spaces.
fn indented(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    let mut out = String::new();
    let mut line = pad.clone();
    for w in text.split_whitespace() {
        if line.len() > by && line.len() + 1 + w.len() > super::wrap::WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = pad.clone();
        }
        if line.len() > by {
            line.push(' ');
        }
        line.push_str(w);
    }
    if line.len() > by {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edit_distance_counts_swaps_as_one() {
        assert_eq!(distance("STRAT", "START"), 1);
        assert_eq!(distance("JION", "JOIN"), 1);
        assert_eq!(distance("ABSENSE", "ABSENCE"), 1);
        assert_eq!(distance("STAUTS", "STATUS"), 1);
        assert_eq!(distance("HEPL", "HELP"), 1);
        assert_eq!(distance("STATUS", "STATUS"), 0);
        assert_eq!(distance("GSD", "ARCHIVE"), 7);
    }

    #[test]
    fn a_misspelt_verb_is_corrected_when_the_rest_reads() {
        let reads = |l: &str| l == "START MN28" || l == "STATUS";
        assert_eq!(
            did_you_mean("STRAT MN28", reads).as_deref(),
            Some("START MN28")
        );
        assert_eq!(did_you_mean("stauts", reads).as_deref(), Some("STATUS"));
        // The rest does not read: the command's form.
        assert_eq!(
            did_you_mean("JION the fun", reads).as_deref(),
            Some("JOIN <TAG> as <Name>")
        );
        // Nothing near, or the verb is right.
        assert_eq!(did_you_mean("SCORES MN1", reads), None);
        assert_eq!(did_you_mean("START now please", reads), None);
        assert_eq!(did_you_mean("", reads), None);
    }

    #[test]
    fn help_lists_every_command_with_its_form_and_an_example() {
        let help = help_list("MN1");
        for c in COMMANDS {
            assert!(help.contains(&format!("    {}\n", c.form())), "{}", c.verb);
            if !c.args.is_empty() {
                assert!(help.contains(&c.example("MN1")), "{}", c.verb);
            }
        }
        for line in help.lines() {
            assert!(line.chars().count() <= 72, "{line:?}");
        }
    }

    #[test]
    fn help_lists_every_kind_with_an_example_turn() {
        let kinds = kinds_list();
        for k in crate::kinds::Kind::ALL {
            assert!(kinds.contains(&format!("    {}: ", k.id())), "{kinds}");
            for l in k.example_order().lines() {
                assert!(kinds.contains(&format!("        {l}\n")), "{kinds}");
            }
            for l in k.help_note().unwrap_or_default().lines() {
                assert!(l.len() <= 66, "{l}");
                assert!(kinds.contains(&format!("      {l}\n")), "{kinds}");
            }
        }
        for line in kinds.lines() {
            assert!(line.chars().count() <= 72, "{line:?}");
        }
    }
}
