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
//!    any line that parses as a Play. Lines straight after it continue it:
//!    one that starts with `[` or `{`, every line while its brackets are
//!    open, a Bifurcated player's `A:` or `B:` line, and a line that starts
//!    no Play when the Play read with it (and perhaps the few lines after
//!    it) parses: a client's hard wrap at 72 or 78 columns, read as the
//!    GSD reader reads it (quirk-wrapped-play: `Wimbledon` / `Park (DS)` is
//!    Wimbledon Park). At most 64 lines; a line that would go on past them
//!    is read too, so that a Play is refused rather than cut short.
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
//!    `[LV+1] Euston (NT)`), or at a command with its verb misspelt (one
//!    edit from a verb of [`crate::mail::commands::COMMANDS`], two for a
//!    verb of five letters or more: `STRAT MN28`, `JION MN28 as Kit`; in
//!    the lounge only a line whose first word is in capitals, six words at
//!    most) makes the message [`Request::NotUnderstood`], in
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
use crate::kinds::vol1::parse_play;
use crate::kinds::Kind;
use crate::map::Map;

mod body;
mod ending;
mod game;
mod kinds;
mod plays;
mod unclear;

pub use unclear::did_you_mean;

use body::*;
use game::*;
use kinds::*;
use plays::*;

/// A game the bot referees, as [`classify`] needs to know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The game's tag, e.g. `MN12`.
    pub tag: String,
    /// The names of its players (the Drone need not be listed).
    pub players: Vec<String>,
    /// Its kind (issue 41): a mail to a game of another kind than Volume 1
    /// holding an order is a [`Request::Order`] its kind reads.
    pub kind: Kind,
}

/// The games the bot referees, indexed for [`classify`]: a lookup by tag
/// and the union of every game's player names are built once, not for
/// each message (issue 20: a lounge may host 100,000 games).
#[derive(Clone, Debug, Default)]
pub struct Roster {
    /// By upper-case tag.
    by_tag: std::collections::BTreeMap<String, GameInfo>,
    /// Every game's player names, each once (ignoring case), longest first.
    names: Vec<String>,
    /// The kinds other than Volume 1 the games are of, each once (known
    /// once, not looked for in every game for each message).
    hosted_kinds: Vec<Kind>,
}

impl Roster {
    /// The index of `games`.
    pub fn new(games: impl IntoIterator<Item = GameInfo>) -> Roster {
        let by_tag: std::collections::BTreeMap<String, GameInfo> = games
            .into_iter()
            .map(|g| (g.tag.to_ascii_uppercase(), g))
            .collect();
        let mut names: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for g in by_tag.values() {
            for p in &g.players {
                let p = p.trim();
                if !p.is_empty() && seen.insert(p.to_ascii_lowercase()) {
                    names.push(p.to_string());
                }
            }
        }
        // Longest first, so that "Brooke-Taylor" wins over "Brooke".
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        let mut hosted_kinds: Vec<Kind> = by_tag
            .values()
            .map(|g| g.kind)
            .filter(|k| *k != Kind::MnVol1)
            .collect();
        hosted_kinds.sort_by_key(|k| k.id());
        hosted_kinds.dedup();
        Roster {
            by_tag,
            names,
            hosted_kinds,
        }
    }

    /// The game tagged `tag` (any case).
    pub fn get(&self, tag: &str) -> Option<&GameInfo> {
        self.by_tag.get(&tag.trim().to_ascii_uppercase())
    }

    /// The games, by tag.
    pub fn iter(&self) -> impl Iterator<Item = &GameInfo> {
        self.by_tag.values()
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.by_tag.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.by_tag.is_empty()
    }

    /// Every game's player names, each once, longest first.
    pub fn all_players(&self) -> &[String] {
        &self.names
    }
}

impl From<Vec<GameInfo>> for Roster {
    fn from(games: Vec<GameInfo>) -> Roster {
        Roster::new(games)
    }
}

/// What [`classify`] knows besides the message.
#[derive(Clone, Debug)]
pub struct ClassifyContext<'a> {
    /// The map, to tell a Play line from prose when no player names are
    /// known.
    pub map: &'a Map,
    /// The games being played (shared: built once, not per message).
    pub games: std::sync::Arc<Roster>,
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
    /// [`crate::kinds::vol1::ParseError`] gives them) to the body's line and column.
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
    // A game of another kind named, or none named in a lounge that hosts
    // one: an order in the mail is for the referee to place (asking which
    // game when it cannot tell), never read as Volume 1's.
    let hosted: Vec<Kind> = match game.tag() {
        Some(t) => ctx
            .games
            .get(t)
            .map(|g| g.kind)
            .filter(|k| *k != Kind::MnVol1)
            .into_iter()
            .collect(),
        None => ctx.games.hosted_kinds.clone(),
    };
    let request = if msg.auto.is_some() {
        Request::Chatter
    } else if let Some(text) = (!hosted.is_empty())
        .then(|| order_text(&lines))
        .filter(|t| hosted.iter().any(|k| k.holds_order(t)))
    {
        Request::Order { text }
    } else {
        request(msg, &lines, direct, &players, ctx)
    };
    Message {
        game,
        request,
        direct,
    }
}

/// The body as a hosted kind reads an order in it: what the sender wrote,
/// each quoted line (with `>`, or below a reply's header block or
/// attribution, RULINGS L2) and the signature left blank, so that a
/// reply carrying the bot's last verdict holds one order, and the kind's
/// line numbers are the body's.
fn order_text(lines: &[BodyLine<'_>]) -> String {
    let mut text = String::new();
    for l in lines {
        if !l.quoted {
            text.push_str(l.text);
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests;
