//! What a lounge message is: see the module docs of [`crate::mail`].
//!
//! [`classify`] reads an [`Inbound`] and says which game it concerns
//! ([`GameRef`]) and what it asks: the [`Request`] the referee acts on,
//! with no second vocabulary between them. It is commands to the bot, one of the
//! Buzz workflow's messages (Rules 1.16.2 - 1.16.4), a take-back (Rule
//! 1.3.3), a Turn (a GSD or a bare Play line, Rule 1.3.1), or chatter. It
//! only finds and cuts out text: GSDs and Plays are returned raw, with
//! their position in the body, for the caller to parse. It is pure and never
//! panics.
//!
//! # Reading the body
//!
//! The body is read line by line, 1-based as in [`Inbound::body`].
//!
//! - **The signature** (a line `-- ` or `--`) and everything after it is
//!   ignored.
//! - **A list footer** is ignored like a signature: a rule of ten or more
//!   `_` (Mailman's) or a line starting `-=-=-` (Groups.io's) followed by at
//!   most eight non-blank lines to the end of the body, none of them a
//!   `From:` line (that would be an Outlook quote), one of which says
//!   `mailing list`, `unsubscribe`, `listinfo` or `mailman` (any case). A
//!   list appends it to every post, so a post of commands stays commands.
//! - **Quoted lines** never classify a message on their own: lines starting
//!   with `>` (after at most three spaces); an attribution line introducing
//!   a quote (`On ..., X wrote:`, `X schrieb:`, ... when the next non-blank
//!   line is quoted; a Gmail attribution wrapped over two lines too); and,
//!   a judgment call, everything from an Outlook-style separator on
//!   (`-----Original Message-----`, `-------- Forwarded Message --------`,
//!   `Begin forwarded message:`, a rule of underscores followed by
//!   `From:`), since such clients quote without `>`.
//! - **Content lines** are the non-blank lines that are neither quoted nor
//!   after the signature. The *first content line* decides most kinds.
//!
//! # Judgment calls, in the order they are applied
//!
//! 0. **Mail the bot must never answer** ([`Inbound::auto`] set: bounces,
//!    auto-replies, list notices, its own mail) is [`Request::Chatter`],
//!    whatever it says: a bounce quoting "Buzz:" is not a Buzz, and the
//!    bot's own GSD coming back is not a Turn. The game is still given.
//! 1. **No content**: a subject (without `Re:` and tags) that is a command
//!    gives [`Request::Commands`]; a subject starting with `Buzz` on a message
//!    that is not a reply gives a Buzz; anything else is
//!    [`Request::Chatter`].
//! 2. **Commands**: every content line is a command (`HELP`, `STATUS
//!    [game]`, `GSD [game]`, `HISTORY [game]`, `RULES [topic]`; any case;
//!    one per line; a `[MN12]`-style or bare game argument) or
//!    command-shaped (a first word of 2 - 16 capital letters and at most
//!    three words, e.g. `SCORES MN12`), and at least one is a command. The
//!    command-shaped lines become [`Command::Unknown`], so that the bot can
//!    answer with HELP. A prose line makes the message something else.
//! 3. **Take-back** (Rule 1.3.3): the first content line starts `Take
//!    back`, `Takeback`, `I take back`, `Taking back`, ... The replacement
//!    is what follows on that line (after `my turn`, `:` ...) when it is a
//!    Play line, else the first GSD, else the first Play line below it.
//! 4. **A GSD** (an unquoted Token Table: a `+---` border followed by a `|
//!    Player |` heading; with the `Game MN12` line above it when there is
//!    one) makes the message a [`Request::Turn`], even when its prose starts
//!    with a keyword below: a GSD cannot be posted by accident, a keyword in
//!    prose can ("Buzz me if I'm wrong"). The excerpt runs to the first
//!    quoted line (or the signature), trailing blank lines dropped; prose
//!    after the Plays is left in for the GSD parser, which stops there. A
//!    quoted GSD is never a GSD: a reply quoting the bot's GSD and adding a
//!    Play line below is a Turn with that Play.
//! 5. **The Buzz workflow**, from the first content line, in this order:
//!    - [`Workflow::Withdraw`]: a form of "withdraw" (`I withdraw my Buzz`,
//!      `Buzz withdrawn`, `Withdrawn.`) with "buzz" on the line or at most
//!      three words (so "I withdraw from the game" is not one).
//!    - [`Workflow::Contest`]: `Contest`, `Contested`, `I contest`, and the
//!      refusals `I do not concede`, `I don't concede`, `Not conceded`, ...
//!    - [`Workflow::Concede`]: `Concede`, `Conceded`, `I concede`, ...
//!    - [`Workflow::Judgment`]: `Judgment`/`Judgement`/`I judge`/`My
//!      judgment`/`Ruling` on the first line, or a line starting
//!      `Judgment:` anywhere, *and* a verdict word: the first whole word
//!      `Legal` or `Illegal` after it (`not legal` is Illegal). Without a
//!      verdict word it is not a Judgment.
//!    - [`Workflow::Decline`]: `Decline`, `Declined`, `I decline`, `I must
//!      decline`, ...
//!    - [`Workflow::Buzz`]: the first content line starts with `Buzz` (`Buzz:`,
//!      `BUZZ!`, `Buzzing`, `I buzz`), or any content line starts with
//!      `Buzz:` or `Buzz!`. It reads `[on|against] <player>['s] [turn|play]
//!      [#]<n>` then a separator (`:`, `-`, `,`, a dash) and the reason
//!      (that line's rest and the content lines after it). With player
//!      names known for the game, only a known name (the longest that fits)
//!      is a player; without, the words before `'s`, `turn` or a separator
//!      (at most three). A reply's Buzz is the same: only its unquoted text
//!      counts, so a quoted Buzz is not a new one.
//! 6. **A Play line**: the first unquoted line `Name : ...` whose name is a
//!    player of the game (or `Drone`), or, when no player names are known,
//!    any line that parses as a Play. Lines after it that start with `[` or
//!    `{`, or while its brackets are open, continue it (at most 8 lines).
//!    Only the first Play line is taken. A known player's line is taken even
//!    when it does not parse, so the bot can answer with the error.
//! 7. **Commands among other lines** (RULINGS L4): a message with a command
//!    line is [`Request::Commands`], its commands in order. Sent to the bot's
//!    address (in `To` or `Cc`), every command line counts and every other
//!    content line is a [`Command::Unknown`] (so the reply says it was not
//!    understood), except a greeting and a sign-off: the lines before the
//!    first command line, and the last lines of the message after the last
//!    one, when they are at most two short lines (three words or fewer, not
//!    command-shaped). Posted to the lounge, a command line counts
//!    only when its command word is in capitals (`STATUS MN12`, not a
//!    `Status` heading in prose), and only the command-shaped lines and the
//!    failed attempts (rule 9) among the rest are [`Command::Unknown`]: prose
//!    is for the players. In rules 2 and 7, a subject that is a command (not
//!    a reply's: `Re: HELP` is the bot's own answer) comes first, unless the
//!    body repeats it.
//! 8. **No buzz** (Rule 1.1.1): a first content line `No buzz`, `No buzz
//!    from me`, `No buzz here`, `Acknowledged`, `I acknowledge` or `Well
//!    played` (any case, a trailing `.` or `!`) is [`Workflow::NoBuzz`]: the
//!    player acknowledges a winning turn instead of buzzing it.
//! 9. **Not understood** (RULINGS L5): a content line that looks like a
//!    failed attempt at a command (a command word in capitals with words the
//!    command does not take, at most four words: `STATUS of MN12 please`)
//!    or at a Play (a line that parses as a Play under a name that is no
//!    player of the game: `Rushtin : Euston (NT)`; or a line with a Line
//!    code in brackets that parses as a Play once a name is put before it:
//!    `[LV+1] Euston (NT)`) makes the message [`Request::NotUnderstood`], in
//!    the lounge as in mail to the bot; mail sent to the bot's address that
//!    is none of the above is [`Request::NotUnderstood`] too, holding its first
//!    content line. The caller answers it privately (and, in the lounge,
//!    only a registered player).
//! 10. Anything else is [`Request::Chatter`].
//!
//! # Which game
//!
//! [`GameRef`] comes from, in order: `[TAG]` groups anywhere in the subject
//! (so `Re: [lounge] [MN12]` and `AW: Fwd: [mn12]` both give MN12): a group
//! is a tag when it names a known game (any case; the known spelling is
//! returned) or looks like one (letters then digits, e.g. `MN14`,
//! uppercased: the caller says there is no such game); other groups
//! (`[lounge]`) are list prefixes. Then the `Game MN12` line of a GSD (the
//! grammar's `game-line`; unquoted first, else quoted, since a reply
//! quoting the bot's GSD names its game). A subject tag and a GSD game line
//! that disagree are [`GameRef::Ambiguous`]. Without either: the only game,
//! or all games as [`GameRef::Ambiguous`], or [`GameRef::Unknown`] when
//! there are none.

use serde::Serialize;

pub use super::request::{Command, LooksLike, Request, Workflow};

use super::inbound::Inbound;
use crate::gsd::parse_play;
use crate::map::Map;

mod unclear;

/// A game the bot referees, as [`classify`] needs to know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The game's tag, e.g. `MN12`.
    pub tag: String,
    /// The names of its players (the Drone need not be listed).
    pub players: Vec<String>,
}

/// What [`classify`] knows besides the message.
#[derive(Clone, Debug)]
pub struct ClassifyContext<'a> {
    /// The map, to tell a Play line from prose when no player names are
    /// known.
    pub map: &'a Map,
    /// The games being played.
    pub games: Vec<GameInfo>,
    /// The bot's own address: mail sent to it directly may be answered with
    /// HELP.
    pub bot_address: String,
}

/// A classified lounge message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    /// The game it concerns.
    pub game: GameRef,
    /// What it asks.
    pub request: Request,
    /// It was sent to the bot's address (in `To` or `Cc`).
    pub direct: bool,
}

/// Which game a message concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum GameRef {
    /// A `[TAG]` in the subject (the known spelling when the game is known,
    /// else uppercased as written: the game may not exist).
    Tagged(String),
    /// The `Game TAG` line of a GSD in the body.
    Named(String),
    /// Nothing says, and this is the only game.
    Only(String),
    /// Several games are named, or nothing says and these games exist.
    Ambiguous(Vec<String>),
    /// Nothing says and no game exists.
    Unknown,
}

impl GameRef {
    /// The one game meant, if there is one.
    pub fn tag(&self) -> Option<&str> {
        match self {
            GameRef::Tagged(t) | GameRef::Named(t) | GameRef::Only(t) => Some(t),
            GameRef::Ambiguous(_) | GameRef::Unknown => None,
        }
    }
}

/// Text cut out of the body, and where it starts there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Excerpt {
    /// The text, lines joined with LF.
    pub text: String,
    /// The 1-based body line of its first line.
    pub line: usize,
    /// The 1-based column (in characters) of its first character on that
    /// line.
    pub column: usize,
}

impl Excerpt {
    /// Maps a 1-based line and column in [`Excerpt::text`] (as a
    /// [`crate::gsd::ParseError`] gives them) to the body's line and column.
    pub fn body_position(&self, line: usize, column: usize) -> (usize, usize) {
        let body_line = self.line + line.saturating_sub(1);
        if line <= 1 {
            (body_line, self.column + column.saturating_sub(1))
        } else {
            (body_line, column)
        }
    }
}

/// The most characters of a line a [`Request::NotUnderstood`] quotes.
pub const MAX_QUOTED_CHARS: usize = 200;

/// Classifies a message (see the module docs for every rule applied).
pub fn classify(msg: &Inbound, ctx: &ClassifyContext<'_>) -> Message {
    let lines = body_lines(&msg.body);
    let bot = ctx.bot_address.trim();
    let direct = !bot.is_empty() && msg.to.iter().any(|a| super::address::same(a, bot));
    let game = game_ref(&msg.subject, &lines, ctx);
    let players = players_for(&game, ctx);
    let request = if msg.auto.is_some() {
        Request::Chatter
    } else {
        request(msg, &lines, direct, &players, ctx)
    };
    Message {
        game,
        request,
        direct,
    }
}

// ---- The body's lines ----------------------------------------------------

/// A body line before the signature.
#[derive(Debug)]
struct BodyLine<'b> {
    /// 1-based line number in the body.
    no: usize,
    text: &'b str,
    /// Quoted, an attribution, or after an Outlook-style separator.
    quoted: bool,
}

impl BodyLine<'_> {
    fn is_content(&self) -> bool {
        !self.quoted && !self.text.trim().is_empty()
    }
}

fn is_quote_line(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    line.len() - t.len() <= 3 && t.starts_with('>')
}

fn is_separator(line: &str) -> bool {
    let t = line.trim();
    let core = t.trim_matches(|c| c == '-' || c == ' ').to_lowercase();
    let dashed = t.starts_with("---");
    (dashed
        && matches!(
            core.as_str(),
            "original message"
                | "forwarded message"
                | "forwarded message follows"
                | "ursprüngliche nachricht"
                | "weitergeleitete nachricht"
                | "message d'origine"
        ))
        || core == "begin forwarded message:"
}

const ATTRIBUTION_ENDS: [&str; 10] = [
    "wrote:",
    "writes:",
    "schrieb:",
    "a écrit :",
    "a écrit:",
    "escribió:",
    "scrisse:",
    "skrev:",
    "schreef:",
    "kirjoitti:",
];

fn is_attribution(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    ATTRIBUTION_ENDS.iter().any(|e| lower.ends_with(e))
}

/// The header words of a quoted message's block as Outlook (and Apple
/// Mail, and the big webmails) write it above an unmarked quote, in the
/// languages of the big clients: (From, Subject) forms.
const QUOTE_FROM: [&str; 7] = ["from", "von", "de", "da", "van", "från", "fra"];
const QUOTE_SUBJECT: [&str; 8] = [
    "subject",
    "betreff",
    "objet",
    "oggetto",
    "asunto",
    "assunto",
    "onderwerp",
    "ämne",
];

/// The header word of a line (`From:`, `De :`), lowercased, if it has one.
fn header_word(line: &str) -> Option<String> {
    let (word, _) = line.trim_start().trim_start_matches('*').split_once(':')?;
    let word = word.trim().trim_end_matches('*').trim();
    (!word.is_empty() && word.len() <= 12 && !word.contains(char::is_whitespace))
        .then(|| word.to_lowercase())
}

/// Whether line `i` starts an unmarked quoted header block: `From:` (or a
/// localised form) followed within six lines by `Subject:` (or its form),
/// each line of the block a header line (RULINGS L2).
fn starts_header_block(raw: &[&str], i: usize) -> bool {
    if !header_word(raw[i]).is_some_and(|w| QUOTE_FROM.contains(&w.as_str())) {
        return false;
    }
    for line in raw.iter().skip(i + 1).take(6) {
        match header_word(line) {
            Some(w) if QUOTE_SUBJECT.contains(&w.as_str()) => return true,
            Some(_) => {}
            None => return false,
        }
    }
    false
}

/// `On Mon, 16 Nov 2026 at 10:00, X wrote:` (any client's attribution with
/// a date or time in it): what follows is quoted even without `>`.
fn is_dated_attribution(line: &str) -> bool {
    is_attribution(line) && line.chars().any(|c| c.is_ascii_digit())
}

/// Whether the first non-blank line after line `i` is not `>`-quoted
/// (a quote without marks follows; with marks, the lines say so
/// themselves, and a bottom-posted reply below them stays content).
fn unmarked_after(raw: &[&str], i: usize) -> bool {
    raw.iter()
        .skip(i + 1)
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| !is_quote_line(l))
}

/// Words of which one marks a list footer.
const FOOTER_WORDS: [&str; 4] = ["mailing list", "unsubscribe", "listinfo", "mailman"];

/// The line index where a list footer starts, if the body ends with one
/// (see the module docs).
fn footer_start(raw: &[&str]) -> Option<usize> {
    let rule = |t: &str| {
        let t = t.trim();
        (t.len() >= 10 && t.chars().all(|c| c == '_')) || t.starts_with("-=-=-")
    };
    let i = raw.iter().rposition(|l| rule(l))?;
    let after: Vec<&str> = raw[i + 1..]
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let said = after.iter().any(|l| {
        let lower = l.to_lowercase();
        FOOTER_WORDS.iter().any(|w| lower.contains(w))
    });
    let quote = after.iter().any(|l| l.starts_with("From:"));
    (after.len() <= 8 && said && !quote).then_some(i)
}

fn body_lines(body: &str) -> Vec<BodyLine<'_>> {
    let mut lines: Vec<BodyLine<'_>> = Vec::new();
    let mut forwarded = false;
    let raw: Vec<&str> = body
        .split('\n')
        .map(|t| t.strip_suffix('\r').unwrap_or(t))
        .collect();
    let footer = footer_start(&raw);
    for (i, &text) in raw.iter().enumerate() {
        if text == "-- " || text == "--" || footer == Some(i) {
            break;
        }
        let underscores = text.trim().len() >= 10 && text.trim().chars().all(|c| c == '_');
        let next_from = raw
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with("From:"));
        if is_separator(text)
            || (underscores && next_from)
            || starts_header_block(&raw, i)
            || (!is_quote_line(text) && is_dated_attribution(text) && unmarked_after(&raw, i))
        {
            forwarded = true;
        }
        lines.push(BodyLine {
            no: i + 1,
            text,
            quoted: forwarded || is_quote_line(text),
        });
    }
    // Attribution lines introducing a quote.
    for i in 0..lines.len() {
        if lines[i].quoted || !is_attribution(lines[i].text) {
            continue;
        }
        let next_quoted = lines[i + 1..]
            .iter()
            .find(|l| !l.text.trim().is_empty())
            .is_some_and(|l| l.quoted);
        if !next_quoted {
            continue;
        }
        lines[i].quoted = true;
        // A Gmail attribution wrapped over two lines: "On ..., X <" / "x@y> wrote:".
        if i > 0 {
            let prev = lines[i - 1].text.trim_start();
            let before_blank = i < 2 || lines[i - 2].text.trim().is_empty();
            if !lines[i].text.trim_start().starts_with("On ")
                && strip_word_ci(prev, "on").is_some()
                && before_blank
            {
                lines[i - 1].quoted = true;
            }
        }
    }
    lines
}

// ---- Small text helpers ----------------------------------------------------

/// `s` without the ASCII prefix `p` (any case).
fn strip_prefix_ci<'t>(s: &'t str, p: &str) -> Option<&'t str> {
    let head = s.get(..p.len())?;
    head.eq_ignore_ascii_case(p).then(|| &s[p.len()..])
}

/// `s` without the word or phrase `w` (any case) when a non-word character
/// (or the end) follows it.
fn strip_word_ci<'t>(s: &'t str, w: &str) -> Option<&'t str> {
    let rest = strip_prefix_ci(s, w)?;
    (!rest.starts_with(|c: char| c.is_alphanumeric() || c == '\'' || c == '’')).then_some(rest)
}

/// The remainder after the first of `forms` that `line` starts with.
fn lead<'t>(line: &'t str, forms: &[&str]) -> Option<&'t str> {
    forms.iter().find_map(|f| strip_word_ci(line, f))
}

const SEPARATORS: &str = "!:-–—,.;";

fn trim_separators(s: &str) -> &str {
    s.trim_start_matches(|c: char| c.is_whitespace() || SEPARATORS.contains(c))
}

/// The content lines after `line` (a line number), joined.
fn following(lines: &[BodyLine<'_>], line: usize) -> String {
    lines
        .iter()
        .filter(|l| l.no > line && l.is_content())
        .map(|l| l.text.trim())
        .collect::<Vec<_>>()
        .join("\n")
}

fn join_text(first: &str, rest: &str) -> String {
    let first = first.trim();
    match (first.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => first.to_string(),
        (false, false) => format!("{first}\n{rest}"),
    }
}

/// The 1-based column of `part`, a suffix of `line`.
fn column_of(line: &str, part: &str) -> usize {
    let offset = line.len().saturating_sub(part.len());
    line.get(..offset).map_or(0, |s| s.chars().count()) + 1
}

/// A player's name as the grammar allows it (`check_name`).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 40
        && !name.contains([':', '|', '[', ']', '{', '}', '*', ',', '(', ')'])
        && !name.chars().any(char::is_control)
}

/// The name before the colon of a `Name : ...` line.
fn play_head(t: &str) -> Option<&str> {
    let (name, _) = t.split_once(':')?;
    let name = name.trim();
    (valid_name(name) && name.split_whitespace().count() <= 4).then_some(name)
}

fn unbalanced(text: &str) -> bool {
    let mut depth: i64 = 0;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

fn is_border(s: &str) -> bool {
    let t = s.trim();
    t.starts_with('+') && t.len() > 2 && t.chars().all(|c| matches!(c, '+' | '-' | ' ' | '='))
}

/// A line with its quote markers removed.
fn unquoted(line: &str) -> &str {
    let mut rest = line;
    loop {
        let t = rest.trim_start_matches(' ');
        match t.strip_prefix('>') {
            Some(after) if rest.len() - t.len() <= 3 => rest = after,
            _ => return rest,
        }
    }
}

// ---- Which game -----------------------------------------------------------

fn canonical_tag(tag: &str, ctx: &ClassifyContext<'_>) -> Option<String> {
    let tag = tag.trim();
    if let Some(g) = ctx.games.iter().find(|g| g.tag.eq_ignore_ascii_case(tag)) {
        return Some(g.tag.clone());
    }
    let letters = tag.chars().take_while(char::is_ascii_alphabetic).count();
    let digits = tag[letters..].chars().all(|c| c.is_ascii_digit());
    ((1..=8).contains(&letters) && tag.len() > letters && tag.len() <= 16 && digits)
        .then(|| tag.to_ascii_uppercase())
}

fn subject_tags(subject: &str, ctx: &ClassifyContext<'_>) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    let mut rest = subject;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            break;
        };
        if let Some(tag) = canonical_tag(&after[..close], ctx) {
            if !tags.iter().any(|t| t.eq_ignore_ascii_case(&tag)) {
                tags.push(tag);
            }
        }
        rest = &after[close + 1..];
    }
    tags
}

const REPLY_PREFIXES: [&str; 12] = [
    "re:", "fwd:", "fw:", "aw:", "wg:", "sv:", "vs:", "antw:", "tr:", "r:", "re :", "fwd :",
];

/// The subject without reply prefixes and `[...]` groups; and whether it
/// had a reply prefix.
fn subject_core(subject: &str) -> (&str, bool) {
    let mut s = subject.trim();
    let mut reply = false;
    loop {
        let before = s;
        if let Some(p) = REPLY_PREFIXES.iter().find_map(|p| strip_prefix_ci(s, p)) {
            s = p.trim_start();
            reply = true;
        }
        if s.starts_with('[') {
            if let Some(close) = s.find(']') {
                s = s[close + 1..].trim_start();
            }
        }
        if s == before {
            return (s.trim(), reply);
        }
    }
}

/// The `Game TAG` line above a Token Table, unquoted lines first.
fn gsd_game(lines: &[BodyLine<'_>], ctx: &ClassifyContext<'_>) -> Option<String> {
    let find = |want_quoted: bool| {
        lines.iter().enumerate().find_map(|(i, l)| {
            if l.quoted != want_quoted {
                return None;
            }
            let t = unquoted(l.text).trim();
            let rest = strip_word_ci(t, "game")?;
            let id = rest.trim_start().trim_start_matches(':').trim();
            let shaped = !id.is_empty()
                && id.len() <= 16
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !shaped {
                return None;
            }
            let known = ctx.games.iter().find(|g| g.tag.eq_ignore_ascii_case(id));
            let table_next = lines[i + 1..]
                .iter()
                .map(|n| unquoted(n.text).trim())
                .find(|n| !n.is_empty())
                .is_some_and(is_border);
            match known {
                Some(g) => Some(g.tag.clone()),
                None if table_next => Some(id.to_ascii_uppercase()),
                None => None,
            }
        })
    };
    find(false).or_else(|| find(true))
}

fn game_ref(subject: &str, lines: &[BodyLine<'_>], ctx: &ClassifyContext<'_>) -> GameRef {
    let tags = subject_tags(subject, ctx);
    let named = gsd_game(lines, ctx);
    match (tags.as_slice(), named) {
        ([], Some(n)) => GameRef::Named(n),
        ([], None) => match ctx.games.as_slice() {
            [] => GameRef::Unknown,
            [only] => GameRef::Only(only.tag.clone()),
            all => GameRef::Ambiguous(all.iter().map(|g| g.tag.clone()).collect()),
        },
        ([t], Some(n)) if !n.eq_ignore_ascii_case(t) => GameRef::Ambiguous(vec![t.clone(), n]),
        ([t], _) => GameRef::Tagged(t.clone()),
        (many, _) => GameRef::Ambiguous(many.to_vec()),
    }
}

/// The player names of the game meant (of every candidate game when it is
/// not known which).
fn players_for(game: &GameRef, ctx: &ClassifyContext<'_>) -> Vec<String> {
    let wanted: Vec<&str> = match game {
        GameRef::Ambiguous(tags) => tags.iter().map(String::as_str).collect(),
        g => g.tag().into_iter().collect(),
    };
    let known: Vec<&GameInfo> = ctx
        .games
        .iter()
        .filter(|g| wanted.iter().any(|w| w.eq_ignore_ascii_case(&g.tag)))
        .collect();
    let source: Vec<&GameInfo> = if known.is_empty() {
        ctx.games.iter().collect()
    } else {
        known
    };
    let mut names: Vec<String> = Vec::new();
    for g in source {
        for p in &g.players {
            let p = p.trim();
            if !p.is_empty() && !names.iter().any(|n| n.eq_ignore_ascii_case(p)) {
                names.push(p.to_string());
            }
        }
    }
    // Longest first, so that "Brooke-Taylor" wins over "Brooke".
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names
}

// ---- Commands ---------------------------------------------------------------

fn game_arg(arg: Option<&str>, ctx: &ClassifyContext<'_>) -> Option<Option<String>> {
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
fn parse_command(line: &str, ctx: &ClassifyContext<'_>) -> Option<Command> {
    let t = line.trim();
    let t = t.strip_suffix('.').unwrap_or(t);
    let words: Vec<&str> = t.split_whitespace().collect();
    let (&word, args) = words.split_first()?;
    let verb = word.to_ascii_uppercase();
    if matches!(verb.as_str(), "RESIGN" | "VOID" | "PAUSE" | "RESUME") && args.len() <= 2 {
        return Some(Command::Speaker(t.to_string()));
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
fn command_shaped(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    words.len() <= 3
        && (2..=16).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_uppercase())
}

// ---- Kinds ----------------------------------------------------------------------

const TAKE_BACK: [&str; 11] = [
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
const WITHDRAW: [&str; 9] = [
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
const CONTEST: [&str; 11] = [
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
const CONCEDE: [&str; 7] = [
    "concede",
    "conceded",
    "i concede",
    "i hereby concede",
    "i'll concede",
    "i will concede",
    "buzz conceded",
];
const JUDGMENT: [&str; 9] = [
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
const DECLINE: [&str; 10] = [
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
const BUZZ: [&str; 5] = ["buzz", "buzzing", "i buzz", "i'm buzzing", "i am buzzing"];

fn request(
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
fn is_no_buzz(line: &str) -> bool {
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
fn verdict(text: &str) -> Option<bool> {
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
fn buzz(rest: &str, following: &str, players: &[String]) -> Request {
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

/// The unquoted GSD starting at or after line index `from`.
fn find_gsd(lines: &[BodyLine<'_>], from: usize) -> Option<Excerpt> {
    let start = (from..lines.len()).find(|&i| {
        let l = &lines[i];
        !l.quoted
            && is_border(l.text)
            && lines[i + 1..]
                .iter()
                .find(|n| !n.text.trim().is_empty())
                .is_some_and(|n| {
                    !n.quoted
                        && n.text.trim_start().starts_with('|')
                        && n.text.to_lowercase().contains("player")
                })
    })?;
    let mut first = start;
    if let Some(j) = (from..start)
        .rev()
        .find(|&j| !lines[j].text.trim().is_empty())
    {
        let t = lines[j].text.trim();
        let is_game = strip_word_ci(t, "game").is_some_and(|r| {
            let id = r.trim_start().trim_start_matches(':').trim();
            !id.is_empty() && !id.contains(char::is_whitespace)
        });
        if !lines[j].quoted && is_game {
            first = j;
        }
    }
    let mut end = (start..lines.len())
        .find(|&k| lines[k].quoted)
        .unwrap_or(lines.len());
    while end > first && lines[end - 1].text.trim().is_empty() {
        end -= 1;
    }
    let text = lines[first..end]
        .iter()
        .map(|l| l.text)
        .collect::<Vec<_>>()
        .join("\n");
    Some(Excerpt {
        text,
        line: lines[first].no,
        column: 1,
    })
}

/// Is `t` (a trimmed line) a Play line for these players?
fn is_play(t: &str, players: &[String], ctx: &ClassifyContext<'_>) -> bool {
    let Some(head) = play_head(t) else {
        return false;
    };
    if players.is_empty() {
        // (A Play line is short: long lines are not worth a parse.)
        t.len() <= 500 && parse_play(t, ctx.map).is_ok()
    } else {
        head.eq_ignore_ascii_case("drone") || players.iter().any(|p| p.eq_ignore_ascii_case(head))
    }
}

/// The first unquoted Play line at or after line index `from`, with its
/// continuation lines.
fn find_play(
    lines: &[BodyLine<'_>],
    from: usize,
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Option<Excerpt> {
    let i = (from..lines.len())
        .find(|&i| lines[i].is_content() && is_play(lines[i].text.trim(), players, ctx))?;
    Some(play_excerpt(lines, i, lines[i].text, 1))
}

/// A Play starting with `first_text` on line index `i` (at `column`), with
/// the lines that continue it.
fn play_excerpt(lines: &[BodyLine<'_>], i: usize, first_text: &str, column: usize) -> Excerpt {
    let mut text = first_text.trim_end().to_string();
    for next in lines.iter().skip(i + 1).take(8) {
        let t = next.text.trim();
        if !next.is_content() || !(t.starts_with('[') || t.starts_with('{') || unbalanced(&text)) {
            break;
        }
        text.push('\n');
        text.push_str(next.text.trim_end());
    }
    Excerpt {
        text,
        line: lines[i].no,
        column,
    }
}

/// The replacement posted with a take-back.
fn replacement(
    first: &BodyLine<'_>,
    rest: &str,
    lines: &[BodyLine<'_>],
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Option<Request> {
    let mut r = rest.trim_start();
    for w in [
        "my most recent turn",
        "my last turn",
        "my turn",
        "that turn",
        "the turn",
        "turn",
    ] {
        if let Some(x) = strip_word_ci(r, w) {
            r = x;
            break;
        }
    }
    let r = trim_separators(r).trim_end();
    let idx = lines.iter().position(|l| l.no == first.no).unwrap_or(0);
    if !r.is_empty() && is_play(r, players, ctx) {
        let e = play_excerpt(lines, idx, r, column_of(first.text, r.trim_end()));
        return Some(Request::turn(e.text, false, e.line, e.column));
    }
    if let Some(gsd) = find_gsd(lines, idx + 1) {
        return Some(Request::turn(gsd.text, true, gsd.line, gsd.column));
    }
    find_play(lines, idx + 1, players, ctx).map(|e| Request::turn(e.text, false, e.line, e.column))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn ctx() -> ClassifyContext<'static> {
        ClassifyContext {
            map: Map::london_1999(),
            games: vec![
                GameInfo {
                    tag: "MN12".into(),
                    players: vec!["Rushton".into(), "Cryer".into(), "Brooke-Taylor".into()],
                },
                GameInfo {
                    tag: "MN13".into(),
                    players: vec!["Garden".into(), "Lyttelton".into()],
                },
            ],
            bot_address: "mornbot@example.org".into(),
        }
    }

    pub(super) fn msg(subject: &str, body: &str) -> Inbound {
        Inbound {
            message_id: "m@x".into(),
            in_reply_to: None,
            references: Vec::new(),
            from: "tim@example.org".into(),
            from_name: None,
            to: vec!["lounge@example.org".into()],
            subject: subject.into(),
            date: None,
            body: body.into(),
            auto: None,
            auth: crate::mail::inbound::AuthVerdict::Unknown,
            list_id: None,
            raw_size: body.len(),
            reply_to: vec![],
            original_from: None,
        }
    }

    pub(super) fn kind_of(subject: &str, body: &str) -> Request {
        classify(&msg(subject, body), &ctx()).request
    }

    #[test]
    fn subject_core_strips_prefixes_and_groups() {
        assert_eq!(subject_core("Re: [lounge] AW: [MN12] Buzz"), ("Buzz", true));
        assert_eq!(subject_core("STATUS"), ("STATUS", false));
        assert_eq!(subject_core("[x"), ("[x", false));
    }

    #[test]
    fn commands_need_every_line() {
        assert_eq!(
            kind_of("", "status mn12\nGSD\nRULES coverage\nHISTORY [MN13]\nhelp"),
            Request::Commands(vec![
                Command::Status(Some("MN12".into())),
                Command::Gsd(None),
                Command::Rules,
                Command::History(Some("MN13".into())),
                Command::Help,
            ])
        );
        assert_eq!(
            kind_of("", "STATUS\nSCORES MN12"),
            Request::Commands(vec![
                Command::Status(None),
                Command::Unknown("SCORES MN12".into())
            ])
        );
        assert_eq!(kind_of("", "STATUS is annoying me today"), Request::Chatter);
        // A command among prose (rule 7), a sign-off after it.
        assert_eq!(
            kind_of("", "STATUS\nThanks, everyone"),
            Request::Commands(vec![Command::Status(None)])
        );
        assert_eq!(kind_of("", "SCORES"), Request::Chatter);
    }

    #[test]
    fn buzz_forms() {
        let b = |body: &str| kind_of("Re: [MN12] turn", body);
        assert_eq!(
            b("Buzz: Cryer's turn 12: Euston was closed."),
            Request::Workflow(Workflow::Buzz {
                player: Some("Cryer".into()),
                turn: Some(12),
                reason: "Euston was closed.".into()
            })
        );
        assert_eq!(
            b("Buzz brooke-taylor turn #7 - no LV\nsee Rule 1.6.1"),
            Request::Workflow(Workflow::Buzz {
                player: Some("Brooke-Taylor".into()),
                turn: Some(7),
                reason: "no LV\nsee Rule 1.6.1".into()
            })
        );
        assert_eq!(
            b("BUZZ!\n\nRushton moved through a closed station"),
            Request::Workflow(Workflow::Buzz {
                player: None,
                turn: None,
                reason: "Rushton moved through a closed station".into()
            })
        );
        assert_eq!(
            b("Hello all,\nBuzz: turn 3: wrong"),
            Request::Workflow(Workflow::Buzz {
                player: None,
                turn: Some(3),
                reason: "wrong".into()
            })
        );
        // A quoted buzz is not a new one.
        assert_eq!(
            b("I agree.\n\n> Buzz: Cryer's turn 12: no"),
            Request::Chatter
        );
    }

    #[test]
    fn buzz_without_known_players() {
        let c = ClassifyContext {
            games: Vec::new(),
            ..ctx()
        };
        let k = classify(&msg("x", "Buzz Jo Smith turn 4 - nope"), &c).request;
        assert_eq!(
            k,
            Request::Workflow(Workflow::Buzz {
                player: Some("Jo Smith".into()),
                turn: Some(4),
                reason: "nope".into()
            })
        );
        let k = classify(&msg("x", "Buzz! Euston was closed on that day"), &c).request;
        assert_eq!(
            k,
            Request::Workflow(Workflow::Buzz {
                player: None,
                turn: None,
                reason: "Euston was closed on that day".into()
            })
        );
    }

    #[test]
    fn workflow_words() {
        assert_eq!(
            kind_of("", "I withdraw my Buzz, sorry."),
            Request::Workflow(Workflow::Withdraw)
        );
        assert_eq!(
            kind_of("", "Buzz withdrawn"),
            Request::Workflow(Workflow::Withdraw)
        );
        assert_eq!(
            kind_of("", "Withdrawn."),
            Request::Workflow(Workflow::Withdraw)
        );
        assert_eq!(
            kind_of("", "I withdraw from the game, it's been fun"),
            Request::Chatter
        );
        assert_eq!(
            kind_of("", "Conceded."),
            Request::Workflow(Workflow::Concede)
        );
        assert_eq!(
            kind_of("", "I do not concede: Euston was open.\nSee 1.11.4"),
            Request::Workflow(Workflow::Contest {
                text: "Euston was open.\nSee 1.11.4".into()
            })
        );
        assert_eq!(
            kind_of("", "Contest - the Peg was gone"),
            Request::Workflow(Workflow::Contest {
                text: "the Peg was gone".into()
            })
        );
        assert_eq!(
            kind_of("", "I must decline, I'm away."),
            Request::Workflow(Workflow::Decline)
        );
        assert_eq!(
            kind_of("", "Judgment: Illegal.\nThe line was Soaped."),
            Request::Workflow(Workflow::Judgment { legal: false })
        );
        assert_eq!(
            kind_of("", "I judge the turn Legal"),
            Request::Workflow(Workflow::Judgment { legal: true })
        );
        assert_eq!(
            kind_of("", "I judge the turn not legal"),
            Request::Workflow(Workflow::Judgment { legal: false })
        );
        assert_eq!(
            kind_of("", "Judgment will follow tomorrow."),
            Request::Chatter
        );
    }

    #[test]
    fn take_back_with_inline_play() {
        let k = kind_of("", "Take back: Rushton : Euston (VC)");
        assert_eq!(
            k,
            Request::TakeBack(Some(Box::new(Request::turn(
                "Rushton : Euston (VC)".into(),
                false,
                1,
                12
            ))))
        );
        let e = Excerpt {
            text: String::new(),
            line: 1,
            column: 12,
        };
        assert_eq!(e.body_position(1, 3), (1, 14));
        assert_eq!(e.body_position(2, 3), (2, 3));
        assert_eq!(kind_of("", "I take back my turn."), Request::TakeBack(None));
    }

    #[test]
    fn play_lines_and_continuations() {
        let k = kind_of(
            "Re: [MN12] GSD",
            "Here goes:\n\nRushton : [LV+1] Euston (VC\n  via: CN,NT)\n{phew}\nCheers",
        );
        assert_eq!(
            k,
            Request::turn(
                "Rushton : [LV+1] Euston (VC\n  via: CN,NT)\n{phew}".into(),
                false,
                3,
                1
            )
        );
        // Not a player of MN12: prose.
        assert_eq!(
            kind_of("[MN12]", "Note: Euston is lovely"),
            Request::Chatter
        );
    }

    #[test]
    fn game_refs() {
        let c = ctx();
        let g = |s: &str, b: &str| classify(&msg(s, b), &c).game;
        assert_eq!(
            g("Re: [lounge] [mn12] x", ""),
            GameRef::Tagged("MN12".into())
        );
        assert_eq!(g("[MN14] new", ""), GameRef::Tagged("MN14".into()));
        assert_eq!(
            g("[MN12] vs [MN13]", ""),
            GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
        );
        assert_eq!(
            g("hi", ""),
            GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
        );
        assert_eq!(
            g("hi", "Game MN13\n+---+\n| Player |"),
            GameRef::Named("MN13".into())
        );
        assert_eq!(
            g("[MN12]", "Game MN13\n+---+\n| Player |"),
            GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
        );
        assert_eq!(
            g("hi", "> Game: mn12\n> +--+"),
            GameRef::Named("MN12".into())
        );
        assert_eq!(
            g("hi", "Game over, folks"),
            GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
        );
        let one = ClassifyContext {
            games: vec![c.games[0].clone()],
            ..ctx()
        };
        assert_eq!(
            classify(&msg("hi", ""), &one).game,
            GameRef::Only("MN12".into())
        );
        let none = ClassifyContext {
            games: Vec::new(),
            ..ctx()
        };
        assert_eq!(classify(&msg("hi", ""), &none).game, GameRef::Unknown);
    }

    #[test]
    fn attribution_and_outlook_quotes() {
        let body = "STATUS MN12\n\nOn Mon, 1 Jan 2024 at 10:00, Tim Rushton <\ntim@example.org> wrote:\n> GSD MN12\n> whatever";
        assert_eq!(
            kind_of("Re: x", body),
            Request::Commands(vec![Command::Status(Some("MN12".into()))])
        );
        let outlook =
            "Fine by me.\n\n-----Original Message-----\nFrom: Cryer\nBuzz: Rushton's turn 3: no";
        assert_eq!(kind_of("RE: x", outlook), Request::Chatter);
    }

    #[test]
    fn direct_mail_is_answered() {
        let mut m = msg("hello", "Hi bot, what can you do?");
        m.to = vec!["MornBot@Example.org".into()];
        let c = classify(&m, &ctx());
        assert!(c.direct);
        assert_eq!(
            c.request,
            Request::NotUnderstood {
                line: "Hi bot, what can you do?".into(),
                looks_like: LooksLike::Letter
            }
        );
        m.body = "Hi bot\nSTATUS MN12\nthanks".into();
        assert_eq!(
            classify(&m, &ctx()).request,
            Request::Commands(vec![Command::Status(Some("MN12".into()))])
        );
        // In the lounge, prose to the players is chatter.
        assert_eq!(kind_of("hello", "Hi all, what a game."), Request::Chatter);
    }

    #[test]
    fn list_footers_are_cut_like_signatures() {
        for footer in [
            "_______________________________________________\nlounge mailing list\nlounge@lists.example.org\nhttps://lists.example.org/mailman/listinfo/lounge",
            "_______________________________________________\nlounge mailing list -- lounge@lists.example.org\nTo unsubscribe send an email to lounge-leave@lists.example.org",
            "-=-=-=-=-=-=-=-=-=-=-=-\nGroups.io Links: You receive all messages sent to this group.\n\nYou automatically follow any topics you start or reply to.\nView/Reply Online (#12): https://groups.io/g/lounge/message/12\nMute This Topic: https://groups.io/mt/1/2\nGroup Owner: lounge+owner@groups.io\nUnsubscribe: https://groups.io/g/lounge/unsub",
        ] {
            assert_eq!(
                kind_of("[MN12] help", &format!("HELP\n\n{footer}\n")),
                Request::Commands(vec![Command::Help]),
                "{footer}"
            );
        }
        // Not a footer: an Outlook quote, or a rule with prose after it.
        let outlook = "HELP\n________________________________\nFrom: Tim\nSubject: mailing list";
        assert_eq!(kind_of("", outlook), Request::Commands(vec![Command::Help]));
        let lines = body_lines("HELP\n__________\nsome words\nand more");
        assert_eq!(lines.iter().filter(|l| l.is_content()).count(), 4);
        let lines = body_lines("HELP\n__________\nlounge mailing list");
        assert_eq!(lines.iter().filter(|l| l.is_content()).count(), 1);
    }

    #[test]
    fn subject_only_messages() {
        assert_eq!(
            kind_of("Re: [lounge] GSD MN12", ""),
            Request::Commands(vec![Command::Gsd(Some("MN12".into()))])
        );
        assert_eq!(
            kind_of("[MN12] Buzz: Cryer turn 4", "\n\n-- \nTim"),
            Request::Workflow(Workflow::Buzz {
                player: Some("Cryer".into()),
                turn: Some(4),
                reason: String::new()
            })
        );
        assert_eq!(kind_of("Re: Buzz: Cryer turn 4", ""), Request::Chatter);
    }

    #[test]
    fn helpers_never_slice_inside_a_character() {
        for s in ["İbuzz", "ßtake back", "Buzz: İ's turn 1: x", "Ä", "Game Ä"] {
            let _ = kind_of(s, s);
        }
        assert_eq!(strip_prefix_ci("İx", "ab"), None);
        assert_eq!(column_of("ab€cd", "cd"), 4);
    }
}
