//! `mornbot demo`: a scripted game through the embedded daemon.
//!
//! The daemon runs as it does under `mornbot run` (Maildir spool in, file
//! outbox out, SQLite); the script writes each mail into the spool, waits
//! for the daemon's reply in the outbox (or for the message to be marked
//! seen, when no reply is due), and compares the verdict with the script.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::Exit;
use crate::config::Config;
use crate::mail::maildir::Maildir;
use crate::mail::outbound::{reply_id, Identity};

/// What the script expects a message to get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// An accepted turn.
    Legal,
    /// A buzz.
    Illegal,
    /// A parse error reply.
    ParseError,
    /// A stale-GSD reply.
    Stale,
    /// A refusal (wrong sender...).
    Refused,
    /// A command answer.
    Answer,
    /// No reply at all.
    Ignored,
}

impl Expect {
    fn name(self) -> &'static str {
        match self {
            Expect::Legal => "LEGAL",
            Expect::Illegal => "ILLEGAL (buzzed)",
            Expect::ParseError => "PARSE ERROR",
            Expect::Stale => "STALE",
            Expect::Refused => "REFUSED",
            Expect::Answer => "ANSWERED",
            Expect::Ignored => "IGNORED",
        }
    }
}

/// The body of a step: a play line, or the last verdict's GSD (as of
/// `turns_back` accepted turns ago) with a play appended.
#[derive(Clone, Debug)]
pub enum Body {
    /// Literal text.
    Text(&'static str),
    /// The canonical GSD from the accepted-turn reply `back` turns ago
    /// (0 = the latest), with this play line appended.
    GsdPlus {
        /// How many accepted turns back.
        back: usize,
        /// The play line.
        play: &'static str,
    },
}

/// One scripted mail.
#[derive(Clone, Debug)]
pub struct Step {
    /// Sender.
    pub from: &'static str,
    /// Extra header lines.
    pub headers: &'static str,
    /// Subject.
    pub subject: &'static str,
    /// Body.
    pub body: Body,
    /// What the daemon must answer.
    pub expect: Expect,
}

const R: &str = "rushton@example.org";
const W: &str = "warren@example.org";
const A: &str = "acton@example.org";
const BOT: &str = "mornbot@localhost";

const fn turn(from: &'static str, play: &'static str, expect: Expect) -> Step {
    Step {
        from,
        headers: "",
        subject: "[MN1] my turn",
        body: Body::Text(play),
        expect,
    }
}

/// The demo game (checked move by move against the engine by the tests).
pub fn script() -> Vec<Step> {
    use Expect::*;
    vec![
        turn(R, "Rushton : Epping (CN) [Home: Hainault]", Legal),
        turn(W, "Warren : Morden (NT) [Home: Tooting Broadway]", Legal),
        turn(A, "Acton : Upminster (DS) [Home: Hornchurch]", Legal),
        Step {
            from: W,
            headers: "",
            subject: "Re: [MN1] good luck",
            body: Body::Text("Good luck, everyone. See you at Mornington Crescent."),
            expect: Ignored,
        },
        turn(R, "Rushton : [LV+1] Theydon Bois (CN)", Legal),
        turn(W, "Warren : [LV+1] South Wimbledon (NT)", Legal),
        turn(A, "Acton : [LV+1] Upminster Bridge (DS)", Legal),
        turn(R, "Rushton : Debdn (CN)", ParseError),
        turn(R, "Rushton : Debden (CN)", Legal),
        turn(W, "Warren : [LV+1] Tooting Broadway (NT)", Legal),
        turn(A, "Acton : Pass", Legal),
        turn(R, "Rushton : Loughton (CN)", Legal),
        turn(W, "Warren : Tooting Bec (NT)", Illegal),
        turn(W, "Warren : Balham (NT)", Legal),
        turn(A, "Acton : [LV+1] Hornchurch (DS)", Legal),
        // Acton's address posting Rushton's turn: refused.
        turn(A, "Rushton : Buckhurst Hill (CN)", Refused),
        Step {
            from: R,
            headers: "",
            subject: "status please",
            body: Body::Text("STATUS MN1"),
            expect: Answer,
        },
        Step {
            from: R,
            headers: "",
            subject: "[MN1] my turn",
            body: Body::GsdPlus {
                back: 0,
                play: "Rushton : Buckhurst Hill (CN)",
            },
            expect: Legal,
        },
        turn(W, "Warren : Pass", Legal),
        Step {
            from: A,
            headers: "Auto-Submitted: auto-replied\n",
            subject: "Out of office: [MN1] my turn",
            body: Body::Text("I am away until Monday.\n\nActon : Pass"),
            expect: Ignored,
        },
        turn(A, "Acton : Pass", Legal),
        turn(R, "Rushton : Pass", Legal),
        turn(W, "Warren : [LV+1] Clapham South (NT)", Legal),
        // Built on the GSD of two turns ago: someone has played since.
        Step {
            from: A,
            headers: "",
            subject: "[MN1] my turn",
            body: Body::GsdPlus {
                back: 2,
                play: "Acton : [LV+1] Elm Park (DS)",
            },
            expect: Stale,
        },
        turn(A, "Acton : [LV+1] Elm Park (DS)", Legal),
        turn(R, "Rushton : [LV+1] Woodford (CN)", Legal),
        turn(W, "Warren : Clapham Common (NT)", Legal),
        turn(A, "Acton : Dagenham East (DS)", Legal),
        turn(R, "Rushton : South Woodford (CN)", Legal),
        turn(W, "Warren : [LV+1] Stockwell (NT)", Legal),
        turn(A, "Acton : Pass", Legal),
        turn(R, "Rushton : Snaresbrook (CN)", Legal),
        turn(W, "Warren : Oval (NT)", Illegal),
        turn(W, "Warren : [LV+1] Elephant & Castle (NT)", Legal),
        turn(A, "Acton : Pass", Legal),
        turn(R, "Rushton : Leytonstone (CN)", Legal),
        turn(W, "Warren : Pass", Legal),
        turn(A, "Acton : [LV+1] Dagenham Heathway (DS)", Legal),
        turn(R, "Rushton : Pass", Legal),
        turn(W, "Warren : Pass", Legal),
        turn(A, "Acton : Pass", Legal),
    ]
}

/// Builds the raw mail of step `i`, dated `date` (when it is sent: a play
/// dated before the turn it follows is refused as a replay, RULINGS L9).
pub fn mail(
    i: usize,
    step: &Step,
    gsds: &[String],
    date: chrono::DateTime<chrono::Utc>,
) -> (String, Vec<u8>) {
    let id = format!("demo-{i}@example.org");
    let (to, body) = match &step.body {
        Body::Text(t) => {
            let to = if step.expect == Expect::Answer {
                BOT
            } else {
                "lounge@localhost"
            };
            (to, t.to_string())
        }
        Body::GsdPlus { back, play } => {
            let gsd = gsds
                .len()
                .checked_sub(back + 1)
                .and_then(|k| gsds.get(k))
                .cloned()
                .unwrap_or_default();
            (
                "lounge@localhost",
                format!("Here is my turn.\n\n{gsd}{play}\n"),
            )
        }
    };
    let raw = format!(
        "From: {from}\nTo: {to}\nSubject: {subject}\nMessage-ID: <{id}>\n\
         Date: {date}\n{headers}\
         Content-Type: text/plain; charset=utf-8\n\n{body}\n",
        from = step.from,
        subject = step.subject,
        date = date.to_rfc2822(),
        headers = step.headers,
    );
    (id, raw.replace('\n', "\r\n").into_bytes())
}

/// The first line of a reply's text: a notice's headline
/// (`Turn 1: Rushton (legal)`), also when a picture is attached.
pub fn headline_of(reply: &str) -> String {
    let reply = crate::mail::attach::as_read(reply);
    let body = reply
        .split_once("\r\n\r\n")
        .or_else(|| reply.split_once("\n\n"))
        .map_or("", |(_, b)| b);
    body.lines().next().unwrap_or("").trim_end().to_string()
}

/// What a reply says, by its headline and body.
pub fn verdict_of(reply: &str) -> Expect {
    let headline = headline_of(reply);
    let reply = &crate::mail::attach::as_read(reply);
    if headline.contains("(legal)") {
        Expect::Legal
    } else if headline.starts_with("Buzz:") {
        Expect::Illegal
    } else if reply.contains("could not read your") {
        Expect::ParseError
    } else if reply.contains("is stale") {
        Expect::Stale
    } else if reply.contains("Next to play") || reply.contains("Commands go one to a line") {
        Expect::Answer
    } else {
        Expect::Refused
    }
}

/// The canonical GSD quoted in an accepted-turn reply: from the first table
/// line to the signature.
pub fn gsd_in(reply: &str) -> String {
    let body = crate::mail::attach::as_read(reply)
        .split("\r\n\r\n")
        .skip(1)
        .collect::<Vec<_>>()
        .join("\r\n\r\n");
    let body = body.replace("\r\n", "\n");
    let start = body
        .find("\nGame ")
        .or_else(|| body.find("\n+--"))
        .map(|i| i + 1)
        .unwrap_or(body.len());
    let end = body.rfind("\n-- \n").map(|i| i + 1).unwrap_or(body.len());
    body[start..end.max(start)].to_string()
}

fn wait_for(what: impl Fn() -> bool, limit: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < limit {
        if what() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    what()
}

/// `mornbot demo [--dir DIR]`.
pub(super) fn run(dir: Option<&Path>) -> anyhow::Result<Exit> {
    let dir: PathBuf = match dir {
        Some(d) => d.to_path_buf(),
        None => std::env::temp_dir().join(format!("mornbot-demo-{}", std::process::id())),
    };
    if dir.join("mornbot.db").exists() {
        anyhow::bail!(
            "{} already holds a game: give an empty --dir",
            dir.display()
        );
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    // The demo plays the sample game of a first start.
    std::fs::write(dir.join("game.toml"), crate::daemon::SAMPLE_GAME)?;
    let mut cfg = Config::default();
    cfg.bot.data_dir = dir.clone();
    let setup = crate::daemon::setup(&cfg)?;
    let me: Identity = setup.me.clone();
    let spool = Maildir::create(&setup.data.lounge())?;
    let outbox = crate::mail::send::FileSink::new(&setup.data.outbox())?;
    println!("mornbot demo: a scripted game in {}", dir.display());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let map = crate::map::Map::london_1999();
    let clock = crate::daemon::clock::Clock::System;
    let daemon = rt.spawn(crate::daemon::run(cfg, map, clock, async move {
        let _ = stop_rx.await;
    }));
    let mut gsds: Vec<String> = Vec::new();
    let mut failures = 0;
    let mut turns = 0;
    for (i, step) in script().iter().enumerate() {
        let (id, raw) = mail(i, step, &gsds, chrono::Utc::now());
        let path = spool.deliver(&raw, &format!("{i:03}.demo"))?;
        let reply_path = outbox.path_of(&reply_id(&id, 0, &me));
        let got = if step.expect == Expect::Ignored {
            // Judged when the spool file is marked seen; then no reply.
            let seen = wait_for(|| !path.exists(), Duration::from_secs(20));
            std::thread::sleep(Duration::from_millis(50));
            match (seen, reply_path.exists()) {
                (true, false) => Some(Expect::Ignored),
                (true, true) => std::fs::read_to_string(&reply_path)
                    .ok()
                    .map(|r| verdict_of(&r)),
                (false, _) => None,
            }
        } else if wait_for(|| reply_path.exists(), Duration::from_secs(20)) {
            let reply = std::fs::read_to_string(&reply_path)?;
            let v = verdict_of(&reply);
            if v == Expect::Legal {
                gsds.push(gsd_in(&reply));
                turns += 1;
            }
            Some(v)
        } else {
            None
        };
        let play = match &step.body {
            Body::Text(t) => t.lines().last().unwrap_or(""),
            Body::GsdPlus { play, .. } => play,
        };
        let ok = got == Some(step.expect);
        if !ok {
            failures += 1;
        }
        println!(
            "{:>3}. {:<9} {:<44} -> {:<16} {}",
            i + 1,
            step.from.split('@').next().unwrap_or(""),
            play,
            got.map(Expect::name).unwrap_or("NO REPLY"),
            if ok {
                "ok".to_string()
            } else {
                format!("EXPECTED {}", step.expect.name())
            }
        );
    }
    let _ = stop_tx.send(());
    rt.block_on(daemon)??;
    println!(
        "{} messages, {turns} turns accepted, {failures} unexpected verdicts",
        script().len()
    );
    Ok(if failures == 0 {
        Exit::Ok
    } else {
        Exit::Failure
    })
}
