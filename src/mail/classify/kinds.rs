//! What a message asks: commands, and the kinds of request in the order
//! the module docs give (take-back, workflow steps, a Buzz, a Play, ...).

use super::*;

// ---- Commands ---------------------------------------------------------------

pub(super) fn game_arg(arg: Option<&str>, ctx: &ClassifyContext<'_>) -> Option<Option<String>> {
    let Some(a) = arg else {
        return Some(None);
    };
    let a = a.trim_start_matches('[').trim_end_matches(']');
    let ok = !a.is_empty()
        && a.len() <= 16
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return None;
    }
    Some(Some(
        canonical_tag(a, ctx).unwrap_or_else(|| a.to_ascii_uppercase()),
    ))
}

/// A command line, or `None`.
pub(super) fn parse_command(line: &str, ctx: &ClassifyContext<'_>) -> Option<Command> {
    let t = line.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let words: Vec<&str> = t.split_whitespace().collect();
    let (&word, args) = words.split_first()?;
    let verb = word.to_ascii_uppercase();
    if matches!(verb.as_str(), "RESIGN" | "VOID" | "PAUSE" | "RESUME") && args.len() <= 2 {
        return Some(Command::Speaker(t.to_string()));
    }
    if let Some(c) = super::ending::parse_ending(&verb, args, ctx) {
        return Some(c);
    }
    // After the ending's: `REFUSE STALEMATE` is not an absence's refusal.
    if let Some(c) = crate::mail::absence::parse(t) {
        return Some(Command::Absence(c));
    }
    // After the ending's: `CONFIRM STALEMATE <game>` is the Speaker's, any
    // other `CONFIRM` a join's token.
    if let Some(c) = crate::mail::lobby::parse(t) {
        return Some(Command::Lobby(c));
    }
    if args.len() > 1 {
        return None;
    }
    let arg = args.first().copied();
    match word.to_ascii_uppercase().as_str() {
        "HELP" => Some(Command::Help),
        "STATUS" => game_arg(arg, ctx).map(Command::Status),
        "GSD" => game_arg(arg, ctx).map(Command::Gsd),
        "HISTORY" => game_arg(arg, ctx).map(Command::History),
        "RULES" => match arg {
            None => Some(Command::Rules),
            Some(a) if a.eq_ignore_ascii_case("coverage") => Some(Command::Rules),
            // A topic the bot has no page for: answered with HELP.
            Some(a)
                if a.len() <= 32
                    && a.chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c)) =>
            {
                Some(Command::Unknown(format!(
                    "RULES {}",
                    a.to_ascii_lowercase()
                )))
            }
            Some(_) => None,
        },
        _ => None,
    }
}

/// A line that looks like a command the bot does not know.
pub(super) fn command_shaped(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    words.len() <= 3
        && (2..=16).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_uppercase())
}

// ---- Kinds ----------------------------------------------------------------------

pub(super) const TAKE_BACK: [&str; 11] = [
    "take back",
    "takeback",
    "take-back",
    "i take back",
    "taking back",
    "i'm taking back",
    "i am taking back",
    "i'd like to take back",
    "i would like to take back",
    "i wish to take back",
    "i hereby take back",
];
pub(super) const WITHDRAW: [&str; 9] = [
    "i withdraw",
    "i hereby withdraw",
    "withdraw",
    "withdrawn",
    "withdrawing",
    "i'm withdrawing",
    "i am withdrawing",
    "buzz withdrawn",
    "my buzz is withdrawn",
];
pub(super) const CONTEST: [&str; 11] = [
    "contest",
    "contested",
    "i contest",
    "i hereby contest",
    "i do not concede",
    "i don't concede",
    "i dont concede",
    "i won't concede",
    "i will not concede",
    "i refuse to concede",
    "not conceded",
];
pub(super) const CONCEDE: [&str; 7] = [
    "concede",
    "conceded",
    "i concede",
    "i hereby concede",
    "i'll concede",
    "i will concede",
    "buzz conceded",
];
pub(super) const JUDGMENT: [&str; 9] = [
    "judgment",
    "judgement",
    "i judge",
    "i hereby judge",
    "my judgment",
    "my judgement",
    "referee's judgment",
    "referee's judgement",
    "ruling",
];
pub(super) const DECLINE: [&str; 10] = [
    "decline",
    "declined",
    "i decline",
    "i must decline",
    "i'll decline",
    "i will decline",
    "i have to decline",
    "i'm declining",
    "i am declining",
    "i respectfully decline",
];
pub(super) const BUZZ: [&str; 5] = ["buzz", "buzzing", "i buzz", "i'm buzzing", "i am buzzing"];

pub(super) fn request(
    msg: &Inbound,
    lines: &[BodyLine<'_>],
    direct: bool,
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Request {
    let content: Vec<&BodyLine<'_>> = lines.iter().filter(|l| l.is_content()).collect();
    let (subject, reply) = subject_core(&msg.subject);
    let subject_buzz = (!reply && msg.in_reply_to.is_none())
        .then(|| lead(subject, &BUZZ))
        .flatten();
    let Some(first) = content.first() else {
        if let Some(c) = parse_command(subject, ctx) {
            return Request::Commands(vec![c]);
        }
        if let Some(rest) = subject_buzz {
            return buzz(rest, "", players);
        }
        return Request::Chatter;
    };

    // 2. Commands.
    let commands: Vec<Option<Command>> =
        content.iter().map(|l| parse_command(l.text, ctx)).collect();
    let known = commands.iter().filter(|c| c.is_some()).count();
    let all_shaped = content
        .iter()
        .zip(&commands)
        .all(|(l, c)| c.is_some() || command_shaped(l.text));
    if known > 0 && all_shaped {
        let cmds = content
            .iter()
            .zip(commands)
            .map(|(l, c)| c.unwrap_or_else(|| Command::Unknown(l.text.trim().to_string())))
            .collect();
        return Request::Commands(unclear::with_subject(msg, cmds, ctx));
    }

    let text = first.text.trim();
    // 3. Take-back.
    if let Some(rest) = lead(text, &TAKE_BACK) {
        return Request::TakeBack(replacement(first, rest, lines, players, ctx).map(Box::new));
    }
    // 4. A GSD.
    if let Some(gsd) = find_gsd(lines, 0) {
        return Request::turn(gsd.text, true, gsd.line, gsd.column);
    }
    // 5. The Buzz workflow.
    let lower = text.to_lowercase();
    if lead(text, &WITHDRAW).is_some()
        && (lower.contains("buzz") || text.split_whitespace().count() <= 3)
    {
        return Request::Workflow(Workflow::Withdraw);
    }
    if let Some(rest) = lead(text, &CONTEST) {
        return Request::Workflow(Workflow::Contest {
            text: join_text(trim_separators(rest), &following(lines, first.no)),
        });
    }
    if lead(text, &CONCEDE).is_some() {
        return Request::Workflow(Workflow::Concede);
    }
    let judgment_line = if lead(text, &JUDGMENT).is_some() {
        Some(*first)
    } else {
        content.iter().copied().find(|l| {
            let t = l.text.trim();
            strip_prefix_ci(t, "judgment:").is_some() || strip_prefix_ci(t, "judgement:").is_some()
        })
    };
    if let Some(jl) = judgment_line {
        let after: String = content
            .iter()
            .filter(|l| l.no >= jl.no)
            .map(|l| l.text.trim())
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(legal) = verdict(&after) {
            return Request::Workflow(Workflow::Judgment { legal });
        }
    }
    if lead(text, &DECLINE).is_some() {
        return Request::Workflow(Workflow::Decline);
    }
    let buzz_line = if lead(text, &BUZZ).is_some() {
        Some(*first)
    } else {
        content.iter().copied().find(|l| {
            let t = l.text.trim();
            strip_prefix_ci(t, "buzz:").is_some() || strip_prefix_ci(t, "buzz!").is_some()
        })
    };
    if let Some(bl) = buzz_line {
        let t = bl.text.trim();
        let rest = lead(t, &BUZZ).unwrap_or(t);
        return buzz(rest, &following(lines, bl.no), players);
    }
    // 6. A Play line; only one (a message carries one turn).
    if let Some(play) = find_play(lines, 0, players, ctx) {
        let idx = lines.iter().position(|l| l.no == play.line).unwrap_or(0);
        let after = idx + play.text.lines().count();
        if let Some(second) = find_play(lines, after, players, ctx) {
            return Request::Refuse(format!(
                "Your mail holds more than one play (lines {} and {}), and a message \
                 carries one turn (Rule 1.3.1), so none was judged. Post each turn in \
                 a mail of its own.",
                play.line, second.line
            ));
        }
        return Request::turn(play.text, false, play.line, play.column);
    }
    if let Some(rest) = subject_buzz {
        let all: Vec<&str> = content.iter().map(|l| l.text.trim()).collect();
        return buzz(rest, &all.join("\n"), players);
    }
    // 7. Commands among other lines.
    if let Some(cmds) = unclear::mixed_commands(&content, direct, players, ctx) {
        return Request::Commands(unclear::with_subject(msg, cmds, ctx));
    }
    // 8. "No buzz": acknowledging a winning turn (Rule 1.1.1).
    if is_no_buzz(text) {
        return Request::Workflow(Workflow::NoBuzz);
    }
    // 9. Not understood.
    unclear::not_understood(&content, direct, players, ctx).unwrap_or(Request::Chatter)
}

/// Whether a first content line acknowledges a winning turn instead of
/// buzzing it (Rule 1.1.1).
pub(super) fn is_no_buzz(line: &str) -> bool {
    let l = line
        .trim()
        .trim_end_matches(['.', '!'])
        .to_ascii_lowercase();
    matches!(
        l.as_str(),
        "no buzz"
            | "no buzz from me"
            | "no buzz here"
            | "acknowledged"
            | "i acknowledge"
            | "well played"
    )
}

/// `Some(true)` for Legal, `Some(false)` for Illegal: the first of the two
/// words in `text` (`not legal` is Illegal).
pub(super) fn verdict(text: &str) -> Option<bool> {
    let lower = text.to_lowercase();
    let mut prev = "";
    for w in lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        if w.is_empty() {
            continue;
        }
        match w {
            "legal" => return Some(prev != "not"),
            "illegal" => return Some(false),
            _ => prev = w,
        }
    }
    None
}

/// Reads the rest of a Buzz line (after the word "Buzz").
pub(super) fn buzz(rest: &str, following: &str, players: &[String]) -> Request {
    let mut r = trim_separators(rest);
    for w in ["on", "against", "of"] {
        if let Some(x) = strip_word_ci(r, w) {
            r = x.trim_start();
            break;
        }
    }
    let mut player = None;
    let name_at_start =
        |p: &str| strip_prefix_ci(r, p).filter(|x| !x.starts_with(|c: char| c.is_alphanumeric()));
    if let Some((p, x)) = players
        .iter()
        .find_map(|p| name_at_start(p).map(|x| (p, x)))
    {
        player = Some(p.clone());
        r = x;
    } else if players.is_empty() {
        let cut = ["'s", "’s", " turn", " play", ":", " - ", " – ", " — ", ","]
            .iter()
            .filter_map(|s| r.find(s))
            .min();
        if let Some(cut) = cut {
            let candidate = r[..cut].trim();
            let words = candidate.split_whitespace().count();
            if valid_name(candidate)
                && (1..=3).contains(&words)
                && !candidate.starts_with(|c: char| c.is_ascii_digit())
                && !candidate.eq_ignore_ascii_case("turn")
            {
                player = Some(candidate.to_string());
                r = &r[cut..];
            }
        }
    }
    for s in ["'s", "’s"] {
        if let Some(x) = r.strip_prefix(s) {
            r = x;
            break;
        }
    }
    r = r.trim_start();
    let mut turn = None;
    let mut t = r;
    let mut had_word = false;
    for w in ["turn", "play"] {
        if let Some(x) = strip_word_ci(t, w) {
            t = x.trim_start();
            had_word = true;
            break;
        }
    }
    t = t.strip_prefix('#').unwrap_or(t);
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        turn = t[..digits].parse::<u64>().ok();
        r = &t[digits..];
    } else if had_word {
        // "turn" without a number: the word is dropped.
        r = t;
    }
    Request::Workflow(Workflow::Buzz {
        player,
        turn,
        reason: join_text(trim_separators(r), following),
    })
}
