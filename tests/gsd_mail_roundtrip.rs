//! Issue 39: every GSD, HISTORY and verdict mornbot mails reads back as
//! the same state when a player replies with a play added.
//!
//! A generated game (`gsd_gen`: a start state with accented and
//! apostrophised names, tokens, Homes, Possessions, boxes; then Plays the
//! engine judges Legal, long ones, with comments and Actions) is played
//! through the referee as the daemon runs it. Before each turn the player
//! asks for the `GSD` and the `HISTORY`, and has the last verdict (an
//! acceptance, or a buzz of an illegal attempt); the bot's mails are the
//! raw mails it queued, read as a client shows them. The player replies
//! to each as people do ([`Shape`]: the GSD pasted with the play added
//! below its Plays, the whole mail sent back so, the mail quoted with the
//! play inline, above or below it, Outlook's unquoted top-posting) from
//! the clients people use ([`Client`]: plain 8bit, the encoding lettre
//! picks, format=flowed with and without delsp, Gmail's hard wrap at 78
//! columns of the player's own lines or of every line, Windows-1252). Each
//! reply goes through the mail reader (`daemon::letter::letter`: MIME,
//! format=flowed, classification) and the GSD and play readers, and must
//! read as the state the bot holds plus the new play; one of them goes on
//! to the referee, which must judge it Legal and hold exactly that state.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod gsd_gen;
mod support;

use chrono::{DateTime, Utc};
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Body, Message, SinglePart};
use mornbot::config::{GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::clock::Clock;
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::{Command, Request};
use mornbot::engine::{adjudicate, GameState, Verdict};
use mornbot::gsd::{parse_gsd, parse_play, render, render_play, Gsd, Play};
use mornbot::mail::inbound::Limits;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestRng, TestRunner,
};
use support::fake_referee::{at, me, origin, T};

fn map() -> &'static mornbot::map::Map {
    gsd_gen::map()
}

// ---- The bot's mails, as a client shows them --------------------------------

/// A mail the bot queued, decoded as a client shows it.
#[derive(Clone, Debug)]
struct BotMail {
    subject: String,
    message_id: String,
    /// The text body, LF line ends.
    body: String,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gsd,
    History,
    Verdict,
    Buzz,
}

fn decode(raw: &[u8], kind: Kind) -> BotMail {
    let m = mail_parser::MessageParser::new()
        .parse(raw)
        .expect("the bot's mail parses");
    let body = m.body_text(0).expect("a text body").replace("\r\n", "\n");
    BotMail {
        subject: m.subject().unwrap_or_default().to_string(),
        message_id: m.message_id().unwrap_or_default().to_string(),
        body,
        kind,
    }
}

// ---- A player's reply ---------------------------------------------------------

/// How the player writes the reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A line of eir own, the GSD cut out of the mail with the play added
    /// below its Plays, a sign-off.
    Pasted,
    /// The whole mail sent back unquoted, the play added below the Plays
    /// (or below the history).
    Whole,
    /// The mail quoted (`> `), the play inline below the quoted Plays.
    QuotedInline,
    /// The play, then the quoted mail under an attribution line.
    QuotedTop,
    /// The attribution and the quoted mail, then the play.
    QuotedBottom,
    /// Outlook: the play, then the mail unquoted below its separator.
    OutlookTop,
}

/// What the player's mail client does to the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Client {
    /// UTF-8, 8bit, the text as written.
    Plain,
    /// UTF-8 in the transfer encoding lettre picks (quoted-printable or
    /// base64 for long lines and accents).
    Auto,
    /// format=flowed (RFC 3676): lines over 78 columns soft-broken at a
    /// space, quoted lines too.
    Flowed,
    /// format=flowed with delsp=yes: soft breaks anywhere, even in a word.
    FlowedDelSp,
    /// Gmail's plain text: the player's own lines (the play, the prose)
    /// hard-wrapped at 78 columns; what the bot wrote left as it is.
    HardWrapOwn,
    /// A client that hard-wraps every unquoted line at 78 columns, the
    /// bot's GSD pasted in too.
    HardWrapAll,
    /// Windows-1252, where every character has a byte there.
    Cp1252,
}

const CLIENTS: [Client; 7] = [
    Client::Plain,
    Client::Auto,
    Client::Flowed,
    Client::FlowedDelSp,
    Client::HardWrapOwn,
    Client::HardWrapAll,
    Client::Cp1252,
];

fn shapes(kind: Kind) -> &'static [Shape] {
    match kind {
        Kind::Gsd | Kind::Verdict | Kind::Buzz => &[
            Shape::Pasted,
            Shape::Whole,
            Shape::QuotedInline,
            Shape::QuotedTop,
            Shape::QuotedBottom,
            Shape::OutlookTop,
        ],
        Kind::History => &[
            Shape::Whole,
            Shape::QuotedInline,
            Shape::QuotedTop,
            Shape::QuotedBottom,
            Shape::OutlookTop,
        ],
    }
}

/// A reply's text lines, each marked the player's own or the bot's.
struct Draft {
    lines: Vec<(String, bool)>,
}

impl Draft {
    fn own(&mut self, l: &str) {
        self.lines.push((l.to_string(), true));
    }
    fn bots(&mut self, l: &str) {
        self.lines.push((l.to_string(), false));
    }
}

/// The line of the mail's body after which the player adds eir play: the
/// last line of the GSD (its last Play, or its last box), or the history's
/// last line.
fn insertion_line(m: &BotMail, gsd_text: &str) -> usize {
    let lines: Vec<&str> = m.body.lines().collect();
    match m.kind {
        Kind::History => {
            let start = lines
                .iter()
                .position(|l| l.starts_with("MN1: "))
                .expect("the history's heading");
            (start..lines.len())
                .take_while(|&i| {
                    i == start
                        || (i == start + 1 && lines[i].is_empty())
                        || lines[i].starts_with(' ')
                })
                .last()
                .unwrap_or(start)
        }
        _ => {
            let gsd: Vec<&str> = gsd_text.trim_end().lines().collect();
            let first = lines
                .windows(gsd.len())
                .position(|w| w == gsd.as_slice())
                .expect("the mail holds the canonical GSD, line for line");
            first + gsd.len() - 1
        }
    }
}

fn draft(m: &BotMail, gsd_text: &str, play: &str, shape: Shape) -> Draft {
    let mut d = Draft { lines: Vec::new() };
    let lines: Vec<&str> = m.body.lines().collect();
    let after = insertion_line(m, gsd_text);
    let quote = |l: &str| {
        if l.is_empty() {
            ">".to_string()
        } else {
            format!("> {l}")
        }
    };
    let gsd_has_plays = !gsd_text.trim_end().ends_with('+');
    match shape {
        Shape::Pasted => {
            d.own("Here is my turn; the tables are as mornbot sent them.");
            d.own("");
            let start = lines
                .iter()
                .position(|l| l.starts_with("Game MN1"))
                .expect("the GSD's game line");
            for l in &lines[start..=after] {
                d.bots(l);
            }
            if !gsd_has_plays {
                d.own("");
            }
            d.own(play);
            d.own("");
            d.own("Cheers,");
            d.own("Kit");
        }
        Shape::Whole => {
            for (i, l) in lines.iter().enumerate() {
                d.bots(l);
                if i == after {
                    if !gsd_has_plays && m.kind != Kind::History {
                        d.own("");
                    }
                    d.own(play);
                }
            }
        }
        Shape::QuotedInline => {
            d.own("On Mon, 16 Nov 2026 at 09:00, mornbot <mornbot@example.test> wrote:");
            for (i, l) in lines.iter().enumerate() {
                d.bots(&quote(l));
                if i == after {
                    d.own(play);
                }
            }
        }
        Shape::QuotedTop => {
            d.own(play);
            d.own("");
            d.own("On Mon, 16 Nov 2026 at 09:00, mornbot <mornbot@example.test> wrote:");
            for l in &lines {
                d.bots(&quote(l));
            }
        }
        Shape::QuotedBottom => {
            d.own("On Mon, 16 Nov 2026 at 09:00, mornbot <mornbot@example.test> wrote:");
            for l in &lines {
                d.bots(&quote(l));
            }
            d.own("");
            d.own(play);
        }
        Shape::OutlookTop => {
            d.own(play);
            d.own("");
            d.own("-----Original Message-----");
            d.own("From: mornbot <mornbot@example.test>");
            d.own("Sent: Monday, November 16, 2026 9:00 AM");
            d.own(&format!("Subject: {}", m.subject));
            d.own("");
            for l in &lines {
                d.bots(l);
            }
        }
    }
    d
}

/// `line` hard-wrapped at `width` columns at spaces, the space dropped.
fn hard_wrap(line: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    while rest.len() > width {
        let Some(at) = (1..=width).rev().find(|&i| rest[i] == ' ') else {
            break;
        };
        out.push(rest[..at].iter().collect());
        rest = rest[at + 1..].to_vec();
    }
    out.push(rest.iter().collect());
    out
}

/// RFC 3676 format=flowed: each line's quote depth and (stuffed) text,
/// lines over `width` soft-broken: at a space (the space ends the line),
/// or anywhere with delsp=yes (a space added, deleted on reading).
fn flow(lines: &[String], width: usize, delsp: bool) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        let depth = l.chars().take_while(|c| *c == '>').count();
        let content = l[depth..].strip_prefix(' ').unwrap_or(&l[depth..]);
        let content = if content == "-- " {
            content.to_string()
        } else {
            content.trim_end_matches(' ').to_string()
        };
        let prefix = ">".repeat(depth);
        let stuff = |c: &str| {
            if depth > 0 || c.starts_with([' ', '>']) || c.starts_with("From ") {
                " "
            } else {
                ""
            }
        };
        let mut rest: Vec<char> = content.chars().collect();
        loop {
            let room = width.saturating_sub(depth + 1).max(20);
            if rest.len() <= room || content == "-- " {
                let text: String = rest.iter().collect();
                out.push(format!("{prefix}{}{text}", stuff(&text)));
                break;
            }
            let cut = if delsp {
                Some(room - 1)
            } else {
                (1..room).rev().find(|&i| rest[i] == ' ').map(|i| i + 1)
            };
            let Some(cut) = cut else {
                let text: String = rest.iter().collect();
                out.push(format!("{prefix}{}{text}", stuff(&text)));
                break;
            };
            let head: String = rest[..cut].iter().collect();
            let line = if delsp { format!("{head} ") } else { head };
            out.push(format!("{prefix}{}{line}", stuff(&line)));
            rest = rest[cut..].to_vec();
        }
    }
    out
}

/// Windows-1252's byte for a character, when it has one.
fn cp1252_byte(c: char) -> Option<u8> {
    (0u8..=255).find(|b| mornbot::text::cp1252(*b) == c)
}

/// The raw reply mail.
fn reply_mail(
    from: &str,
    to: &BotMail,
    d: &Draft,
    client: Client,
    n: usize,
    date: DateTime<Utc>,
) -> Vec<u8> {
    let mut lines: Vec<String> = Vec::new();
    for (l, own) in &d.lines {
        let quoted = l.starts_with('>');
        let wrap = match client {
            Client::HardWrapOwn => *own && !quoted,
            Client::HardWrapAll => !quoted,
            _ => false,
        };
        if wrap {
            lines.extend(hard_wrap(l, 78));
        } else {
            lines.push(l.clone());
        }
    }
    let (ct, lines) = match client {
        Client::Flowed => (
            "text/plain; charset=utf-8; format=flowed",
            flow(&lines, 78, false),
        ),
        Client::FlowedDelSp => (
            "text/plain; charset=utf-8; format=flowed; delsp=yes",
            flow(&lines, 78, true),
        ),
        _ => ("text/plain; charset=utf-8", lines),
    };
    let text: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
    let body = match client {
        Client::Plain | Client::HardWrapOwn | Client::HardWrapAll => {
            Body::new_with_encoding(text.clone(), ContentTransferEncoding::EightBit)
                .unwrap_or_else(|_| Body::new(text.clone()))
        }
        Client::Cp1252 => match text.chars().map(cp1252_byte).collect::<Option<Vec<u8>>>() {
            Some(bytes) if !text.is_ascii() => {
                let part = SinglePart::builder()
                    .header(ContentType::parse("text/plain; charset=windows-1252").unwrap())
                    .body(Body::new(bytes));
                return message(from, to, n, date)
                    .singlepart(part)
                    .unwrap()
                    .formatted();
            }
            _ => Body::new(text.clone()),
        },
        _ => Body::new(text.clone()),
    };
    let part = SinglePart::builder()
        .header(ContentType::parse(ct).unwrap())
        .body(body);
    message(from, to, n, date)
        .singlepart(part)
        .unwrap()
        .formatted()
}

fn message(
    from: &str,
    to: &BotMail,
    n: usize,
    date: DateTime<Utc>,
) -> lettre::message::MessageBuilder {
    let subject = if to.subject.starts_with("Re:") {
        to.subject.clone()
    } else {
        format!("Re: {}", to.subject)
    };
    Message::builder()
        .from(from.parse().unwrap())
        .to(me().lounge.parse().unwrap())
        .subject(subject)
        .message_id(Some(format!("<reply{n}@example.org>")))
        .in_reply_to(format!("<{}>", to.message_id))
        .references(format!("<{}>", to.message_id))
        .date(std::time::SystemTime::from(date))
}

// ---- The game ---------------------------------------------------------------

fn context() -> Context {
    let me = me();
    Context {
        map: map(),
        limits: Limits {
            own_addresses: vec![me.address.clone()],
            loop_token: Some(me.loop_token().to_string()),
            list_address: Some(me.lounge.clone()),
            ..Limits::default()
        },
        bot: me.address.clone(),
        clock: Clock::System,
        lounge: me.lounge.clone(),
        list_id: None,
    }
}

fn address(i: usize) -> String {
    format!("p{i}@example.org")
}

struct Game {
    t: T,
    names: Vec<String>,
    seen: usize,
    n: usize,
    ctx: Context,
}

impl Game {
    fn new(names: &[String], start: &Gsd) -> Game {
        let config = GameConfig {
            tag: "MN1".into(),
            start: "Monday 0900".into(),
            players: names
                .iter()
                .enumerate()
                .map(|(i, n)| PlayerConfig {
                    name: n.clone(),
                    address: address(i),
                })
                .collect(),
            referee: None,
            rulings: Default::default(),
            picture: false,
            kind: Default::default(),
            deadline: None,
            kind_rulings: Default::default(),
        };
        let mut t = T::with_game(SpeakerConfig::default(), config);
        // The game starts in the generated state (the Drone where the
        // daemon seats em, at Mornington Crescent).
        let mut state = GameState::from_gsd(start, map()).expect("an accepted state");
        assert!(t
            .referee
            .edit_game(&mut t.store, "MN1", |live| {
                let drone = live.game.start.players.last().cloned().expect("the Drone");
                *state.players.last_mut().expect("the Drone") = drone;
                live.game.start = state.clone();
                live.game.state = state;
            })
            .unwrap());
        let seen = t.store.all_mail().unwrap().len();
        Game {
            t,
            names: names.to_vec(),
            seen,
            n: 0,
            ctx: context(),
        }
    }

    fn held(&self) -> mornbot::daemon::referee::Live {
        self.t.referee.live(&self.t.store, "MN1").unwrap()
    }

    fn from(&self, player: &str) -> String {
        address(
            self.names
                .iter()
                .position(|n| n == player)
                .expect("a player"),
        )
    }

    fn now(&self) -> DateTime<Utc> {
        at(10 * self.n as i64 + 1)
    }

    /// The mails the bot queued since the last call.
    fn new_mail(&mut self) -> Vec<Vec<u8>> {
        let all = self.t.store.all_mail().unwrap();
        let new = all[self.seen..].iter().map(|m| m.raw.clone()).collect();
        self.seen = all.len();
        new
    }

    /// Hands a raw mail to the daemon's reader and the referee.
    fn post(&mut self, raw: &[u8]) -> (mornbot::daemon::referee::Letter, String) {
        self.n += 1;
        let l = letter(raw, &self.ctx, &self.t.referee);
        let now = self.now();
        let h = self
            .t
            .referee
            .handle(&mut self.t.store, origin(), &l, now)
            .unwrap();
        (l, h.summary)
    }

    /// A command by mail (`GSD MN1`, `HISTORY MN1`), and the bot's answer.
    fn command(&mut self, from: &str, line: &str, kind: Kind) -> BotMail {
        self.n += 1;
        let raw = Message::builder()
            .from(from.parse().unwrap())
            .to(me().address.parse().unwrap())
            .subject(line)
            .message_id(Some(format!("<cmd{}@example.org>", self.n)))
            .date(std::time::SystemTime::from(self.now()))
            .singlepart(SinglePart::plain(format!("{line}\r\n")))
            .unwrap()
            .formatted();
        let (l, _) = self.post(&raw);
        assert!(
            matches!(&l.request, Request::Commands(c) if matches!(c[..], [Command::Gsd(_)] | [Command::History(_)])),
            "{line}: {:?}",
            l.request
        );
        let mut mails = self.new_mail();
        assert_eq!(mails.len(), 1, "one answer to {line}");
        decode(&mails.remove(0), kind)
    }
}

/// The mail reader: raw mail to the referee's Letter, as the daemon reads
/// it.
type Reader<'r> = &'r dyn Fn(&Game, &[u8]) -> mornbot::daemon::referee::Letter;

fn daemon_reader(g: &Game, raw: &[u8]) -> mornbot::daemon::referee::Letter {
    letter(raw, &g.ctx, &g.t.referee)
}

/// What a reply must read as: the Turn the mail reader finds in it, and
/// the state (or the play) read from that.
#[allow(clippy::too_many_arguments)]
fn check_reply(
    reader: Reader<'_>,
    g: &Game,
    m: &BotMail,
    held: &Gsd,
    play: &Play,
    shape: Shape,
    client: Client,
    from: &str,
) -> Result<Vec<u8>, TestCaseError> {
    let gsd_text = render(held);
    let line = render_play(play);
    let d = draft(m, &gsd_text, &line, shape);
    let raw = reply_mail(from, m, &d, client, 1000 + g.n, g.now());
    let l = reader(g, &raw);
    let shown = || String::from_utf8_lossy(&raw).into_owned();
    prop_assert_eq!(&l.from, from, "{:?} {:?}", shape, client);
    prop_assert_eq!(&l.game, &Ok("MN1".to_string()), "{:?} {:?}", shape, client);
    let Request::Turn { text, gsd, .. } = &l.request else {
        return Err(TestCaseError::fail(format!(
            "{shape:?} {client:?}: read as {:?}, not a Turn\n{}",
            l.request,
            shown()
        )));
    };
    let mut want = held.clone();
    want.plays.push(play.clone());
    let whole = matches!(shape, Shape::Pasted | Shape::Whole) && m.kind != Kind::History;
    prop_assert_eq!(*gsd, whole, "{:?} {:?}: a GSD?\n{}", shape, client, shown());
    if *gsd {
        let read = parse_gsd(text, map()).map_err(|e| {
            TestCaseError::fail(format!(
                "{shape:?} {client:?}: {e}\n{text}\n---\n{}",
                shown()
            ))
        })?;
        if read != want {
            return Err(TestCaseError::fail(format!(
                "{shape:?} {client:?}: the GSD read is another state\nwant plays:\n{}\ngot plays:\n{}\n---\n{text}",
                want.plays.iter().map(render_play).collect::<Vec<_>>().join("\n"),
                read.plays.iter().map(render_play).collect::<Vec<_>>().join("\n"),
            )));
        }
    } else {
        let read = parse_play(text, map()).map_err(|e| {
            TestCaseError::fail(format!(
                "{shape:?} {client:?}: {e}\n{text:?}\n---\n{}",
                shown()
            ))
        })?;
        prop_assert_eq!(
            &read,
            play,
            "{:?} {:?}: the play read\n{}\n---\n{}",
            shape,
            client,
            text,
            shown()
        );
        // Quoted with the play inline, the body is the bot's GSD with the
        // play added: read whole, it is the state plus the play.
        if shape == Shape::QuotedInline && m.kind != Kind::History {
            let read = parse_gsd(&l.body, map()).map_err(|e| {
                TestCaseError::fail(format!("{shape:?} {client:?}: the body: {e}\n{}", l.body))
            })?;
            prop_assert!(
                read == want,
                "{:?} {:?}: the body read\n{}",
                shape,
                client,
                l.body
            );
        }
    }
    Ok(raw)
}

/// The bot's own mails say what it holds: the GSD answer and a verdict
/// hold the canonical GSD line for line (no Play re-wrapped), the
/// history's lines are its Plays, and they replay to its state.
fn check_bot_mail(m: &BotMail, live: &mornbot::daemon::referee::Live) -> Result<(), TestCaseError> {
    let held = live.game.gsd(map());
    match m.kind {
        Kind::History => {
            let plays: Vec<Play> = m
                .body
                .lines()
                .filter(|l| l.starts_with(' ') && l.contains(" UTC  "))
                .map(|l| {
                    let (_, play) = l.split_once(" UTC  ").unwrap();
                    parse_play(play, map()).unwrap_or_else(|e| panic!("{e}: {l}"))
                })
                .collect();
            prop_assert_eq!(&plays, &held.plays, "the history's Plays\n{}", m.body);
            let replayed =
                mornbot::engine::Game::from_log(map(), "MN1", live.game.start.clone(), plays)
                    .map_err(|e| TestCaseError::fail(format!("the history replays: {e:?}")))?;
            prop_assert!(
                replayed.gsd(map()) == held,
                "the history replays to the held state"
            );
        }
        _ => {
            let text = render(&held);
            prop_assert!(
                m.body.contains(text.trim_end()),
                "{:?}: the canonical GSD, line for line\n{}\n--- want ---\n{}",
                m.kind,
                m.body,
                text
            );
            prop_assert_eq!(
                &parse_gsd(&m.body, map()).map_err(|e| TestCaseError::fail(e.to_string()))?,
                &held
            );
        }
    }
    Ok(())
}

/// An Illegal play of the player to move (a Move no route makes), if one
/// is found.
fn illegal_play(state: &GameState, legal: &Play) -> Option<Play> {
    let stations = map().stations();
    (0..stations.len()).step_by(37).find_map(|i| {
        let mut p = legal.clone();
        p.mv = mornbot::gsd::Move::To {
            dest: gsd_gen::to(stations[i].name.clone(), None),
            via: vec![],
            escalator_to: None,
        };
        (adjudicate(map(), state, &p).verdict == Verdict::Illegal).then_some(p)
    })
}

#[derive(Clone, Debug)]
struct Spec {
    names: Vec<String>,
    start: Gsd,
    turns: Vec<(gsd_gen::Intent, Choice)>,
}

/// Which reply a turn sends to the referee, and whether an illegal
/// attempt (and its buzz) comes first.
#[derive(Clone, Debug)]
struct Choice {
    mail: u8,
    shape: u8,
    client: Client,
    illegal_first: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    gsd_gen::names(4)
        .prop_filter("two players or more", |n| n.len() >= 2)
        .prop_flat_map(|names| {
            let choice = (
                any::<u8>(),
                any::<u8>(),
                select(CLIENTS.to_vec()),
                proptest::bool::weighted(0.2),
            )
                .prop_map(|(mail, shape, client, illegal_first)| Choice {
                    mail,
                    shape,
                    client,
                    illegal_first,
                });
            (
                Just(names.clone()),
                gsd_gen::start_gsd(names),
                proptest::collection::vec((gsd_gen::intent(), choice), 2..7),
            )
        })
        .prop_map(|(names, start, turns)| Spec {
            names,
            start,
            turns,
        })
}

/// What a game covered.
#[derive(Clone, Copy, Debug, Default)]
struct Covered {
    turns: usize,
    long_plays: usize,
    actions: usize,
    comments: usize,
    buzzes: usize,
    replies: usize,
}

/// Plays the game of `spec`, every mail replied to in every way and read
/// with `reader`; the bot's mails rendered by `bot` (its own: the
/// identity).
fn run(
    spec: &Spec,
    reader: Reader<'_>,
    bot: &dyn Fn(BotMail) -> BotMail,
) -> Result<Covered, TestCaseError> {
    let mut covered = Covered::default();
    let mut g = Game::new(&spec.names, &spec.start);
    let mut verdict: Option<BotMail> = None;
    for (intent, choice) in &spec.turns {
        let live = g.held();
        let Some(play) = gsd_gen::legal_play(&live.game.state, intent) else {
            break;
        };
        let from = g.from(&play.player);
        let held = live.game.gsd(map());
        let mut mails = vec![
            bot(g.command(&from, "GSD MN1", Kind::Gsd)),
            bot(g.command(&from, "HISTORY MN1", Kind::History)),
        ];
        if let Some(v) = verdict.take() {
            mails.push(v);
        }
        if choice.illegal_first {
            if let Some(bad) = illegal_play(&live.game.state, &play) {
                let to = mails[0].clone();
                let d = Draft {
                    lines: vec![(render_play(&bad), true)],
                };
                let raw = reply_mail(&from, &to, &d, Client::Plain, g.n, g.now());
                let (_, summary) = g.post(&raw);
                prop_assert_eq!(summary.as_str(), "illegal", "{}", render_play(&bad));
                let buzz: Vec<BotMail> = g
                    .new_mail()
                    .iter()
                    .map(|r| decode(r, Kind::Buzz))
                    .filter(|m| m.body.contains("The GSD as it stands"))
                    .map(bot)
                    .collect();
                prop_assert!(!buzz.is_empty(), "a buzz with the GSD");
                covered.buzzes += buzz.len();
                mails.extend(buzz);
            }
        }
        let live = g.held();
        prop_assert!(
            live.game.gsd(map()) == held,
            "an illegal attempt changes nothing"
        );
        for m in &mails {
            check_bot_mail(m, &live)?;
            for client in CLIENTS {
                for &shape in shapes(m.kind) {
                    check_reply(reader, &g, m, &held, &play, shape, client, &from)?;
                    covered.replies += 1;
                }
            }
        }
        // One of them goes on to the referee, who must hold exactly the
        // state plus the play.
        let m = &mails[usize::from(choice.mail) % mails.len()];
        let ss = shapes(m.kind);
        let shape = ss[usize::from(choice.shape) % ss.len()];
        let raw = check_reply(reader, &g, m, &held, &play, shape, choice.client, &from)?;
        let (_, summary) = g.post(&raw);
        prop_assert_eq!(
            summary.as_str(),
            "legal",
            "{:?} {:?}: {}",
            shape,
            choice.client,
            render_play(&play)
        );
        let now = g.held();
        let mut plays = held.plays.clone();
        plays.push(play.clone());
        prop_assert_eq!(&now.game.plays, &plays, "the bot holds the play");
        let after = now.game.gsd(map());
        verdict = g
            .new_mail()
            .iter()
            .map(|r| decode(r, Kind::Verdict))
            .find(|m| m.body.contains(render(&after).trim_end()))
            .map(bot);
        prop_assert!(verdict.is_some(), "a verdict with the new GSD");
        covered.turns += 1;
        let line = render_play(&play);
        covered.long_plays += usize::from(line.chars().count() > 78);
        covered.actions += usize::from(play.actions().next().is_some());
        covered.comments += usize::from(play.comments().next().is_some());
    }
    Ok(covered)
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/gsd_mail_roundtrip.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_mail_reads_back_with_a_play_added(s in spec()) {
        run(&s, &daemon_reader, &|m| m)?;
    }
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// The games are what the property claims: turns played, long Plays (past
/// 78 columns), Actions, comments, buzzes of illegal attempts, and every
/// reply read.
#[test]
fn the_games_cover_long_plays_actions_comments_and_buzzes() {
    let total = std::cell::Cell::new(Covered::default());
    runner(16)
        .run(&spec(), |s| {
            let c = run(&s, &daemon_reader, &|m| m)?;
            let mut t = total.get();
            t.turns += c.turns;
            t.long_plays += c.long_plays;
            t.actions += c.actions;
            t.comments += c.comments;
            t.buzzes += c.buzzes;
            t.replies += c.replies;
            total.set(t);
            Ok(())
        })
        .unwrap();
    let t = total.get();
    assert!(t.turns >= 40, "{t:?}");
    assert!(
        t.long_plays * 4 >= t.turns,
        "a quarter of the Plays past 78 columns: {t:?}"
    );
    assert!(t.actions * 10 >= t.turns, "{t:?}");
    assert!(t.comments * 2 >= t.turns, "{t:?}");
    assert!(t.buzzes >= 2, "{t:?}");
    assert!(t.replies >= 40 * 3 * 30, "{t:?}");
}

/// A reader that keeps only the first line of a Play (as the mail reader
/// did before it read a client's wrap) is caught by the hard-wrapping
/// clients.
#[test]
fn the_property_catches_a_reader_that_loses_a_wrapped_line() {
    let first_line = |g: &Game, raw: &[u8]| {
        let mut l = daemon_reader(g, raw);
        if let Request::Turn {
            text, gsd: false, ..
        } = &mut l.request
        {
            *text = text.lines().next().unwrap_or_default().to_string();
        }
        l
    };
    let result = runner(16).run(&spec(), |s| run(&s, &first_line, &|m| m).map(|_| ()));
    assert!(result.is_err(), "a reader losing a wrapped line passed");
}

/// A bot that wrapped its GSD as it wraps prose (no `verbatim`: long Plays
/// refilled at 72 columns) is caught: its mails no longer hold the GSD
/// line for line, and what is read back is not the state.
#[test]
fn the_property_catches_a_bot_that_rewraps_its_gsd() {
    let rewrap = |mut m: BotMail| {
        m.body = mornbot::mail::wrap::wrap(&m.body);
        m
    };
    let result = runner(16).run(&spec(), |s| run(&s, &daemon_reader, &rewrap).map(|_| ()));
    assert!(result.is_err(), "a bot re-wrapping its GSD passed");
}
