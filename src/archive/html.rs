//! The archive's pages as HTML text: the site's index, a game's index and
//! one page per turn. Pure: a function of the records ([`super::model`]).
//!
//! Plain HTML5 and one style sheet ([`STYLE`]), no JavaScript; a viewport
//! meta and fluid widths for phones. Everything a player wrote (names,
//! plays, the GSD) is escaped ([`escape`]): a name like `<script>` shows as
//! text. The picture is two layers stacked by CSS: the network drawn once
//! for the site (`network.svg`) and the game's overlay on top, inline in a
//! turn's page and a file (`current.svg`) on a game's.

use std::fmt::Write;

use chrono::{DateTime, Utc};

use super::model::{GameSummary, Status, TurnRecord, Verdict};

/// The site's one style sheet, `style.css`.
pub const STYLE: &str = "\
html{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.45;color:#1b1b1b;background:#fafafa}
body{margin:0 auto;padding:0.75rem;max-width:72rem}
h1{font-size:1.4rem;margin:0.5rem 0}
h2{font-size:1.1rem;margin:1.2rem 0 0.4rem}
a{color:#0d47a1}
nav{display:flex;flex-wrap:wrap;gap:0.4rem 1rem;font-size:0.95rem;padding:0.4rem 0;border-bottom:1px solid #ddd}
nav.bottom{border-top:1px solid #ddd;border-bottom:0;margin-top:1rem}
pre{overflow-x:auto;background:#fff;border:1px solid #ddd;padding:0.5rem;font-size:0.8rem;line-height:1.25}
pre.play{font-size:0.95rem;white-space:pre-wrap;word-break:break-word}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:0.9rem}
th,td{text-align:left;padding:0.3rem 0.5rem;border-bottom:1px solid #e0e0e0;vertical-align:top}
.status-running{color:#1b5e20}.status-won{color:#e65100}.status-ended{color:#424242}
.verdict .legal{font-weight:bold;color:#1b5e20}
.verdict .refused{color:#b71c1c}
.picture{position:relative;margin:0.5rem 0;border:1px solid #ddd;background:#fff}
.picture img{display:block;width:100%;height:auto}
.picture img.overlay,.picture svg.overlay{position:absolute;top:0;left:0;width:100%;height:100%}
";

/// The picture's size in pixels (its SVGs' viewBox), for the `<img>`
/// elements' width and height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    /// Width, px.
    pub width: f64,
    /// Height, px.
    pub height: f64,
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// The page of turn `n`, in its game's directory.
pub fn turn_file(n: usize) -> String {
    format!("turn-{n:03}.html")
}

/// The overlay of a game as it stands, in its game's directory.
pub const CURRENT_OVERLAY: &str = "current.svg";
/// The network under every overlay, at the site's root.
pub const NETWORK: &str = "network.svg";

fn time(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// A page: the head (title, viewport, style sheet at `root`) and `body`.
fn page(title: &str, root: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"{root}style.css\">\n</head>\n\
         <body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// The stacked picture of a turn: the network and, inline, the overlay
/// SVG `overlay` (from [`crate::picture::overlay_svg`]) on it. Inline, a
/// turn is one file, not two: a full build writes half as many.
fn inline_picture(root: &str, overlay: &str, alt: &str, size: Size) -> String {
    // The overlay's own root element, given a class, a role and a label.
    let body = overlay.trim_end();
    let body = body.strip_prefix("<svg ").unwrap_or(body);
    format!(
        "<div class=\"picture\"><img src=\"{root}{NETWORK}\" width=\"{w:.0}\" height=\"{h:.0}\" \
         alt=\"\"><svg class=\"overlay\" id=\"picture\" role=\"img\" aria-label=\"{}\" {body}</div>\n",
        escape(alt),
        w = size.width,
        h = size.height
    )
}

/// The stacked picture: the network and an overlay file on it.
fn picture(root: &str, overlay: &str, alt: &str, size: Size) -> String {
    format!(
        "<div class=\"picture\"><img src=\"{root}{NETWORK}\" width=\"{w:.0}\" height=\"{h:.0}\" \
         alt=\"\"><img class=\"overlay\" id=\"picture\" src=\"{}\" width=\"{w:.0}\" \
         height=\"{h:.0}\" alt=\"{}\"></div>\n",
        escape(overlay),
        escape(alt),
        w = size.width,
        h = size.height
    )
}

fn status_text(g: &GameSummary) -> String {
    match &g.status {
        Status::Running => match &g.to_play {
            Some(p) => format!("running: {} to play", escape(p)),
            None => "running".to_string(),
        },
        Status::Won { winner } => format!(
            "won by {} (the game ends once the win is not buzzed)",
            escape(winner)
        ),
        Status::Ended { winner: Some(w) } => format!("ended: {} won", escape(w)),
        Status::Ended { winner: None } => "ended".to_string(),
    }
}

/// The site's index: every game, running and ended, with its players,
/// winner, turns and last activity.
pub fn index_page(games: &[GameSummary]) -> String {
    let mut b = String::from(
        "<h1>Mornington Nomic: the game archive</h1>\n\
         <nav><a href=\"points.html\">The Points table</a></nav>\n",
    );
    if games.is_empty() {
        b.push_str("<p>No games yet.</p>\n");
        return page("Mornington Nomic: the game archive", "", &b);
    }
    b.push_str(
        "<div class=\"table\"><table id=\"games\">\n<thead><tr><th>Game</th><th>Status</th>\
         <th>Players</th><th>Winner</th><th>Turns</th><th>Last activity</th></tr></thead>\n<tbody>\n",
    );
    for g in games {
        let players: Vec<String> = g.players.iter().map(|p| escape(p)).collect();
        let _ = writeln!(
            b,
            "<tr><td><a href=\"{slug}/index.html\">{tag}</a></td><td class=\"status-{word}\">{word}</td>\
             <td>{players}</td><td>{winner}</td><td>{turns}</td><td>{last}</td></tr>",
            slug = escape(&g.slug),
            tag = escape(&g.tag),
            word = g.status.word(),
            players = players.join(", "),
            winner = g.status.winner().map(escape).unwrap_or_default(),
            turns = g.turns,
            last = time(g.last_activity),
        );
    }
    b.push_str("</tbody>\n</table></div>\n");
    page("Mornington Nomic: the game archive", "", &b)
}

/// The page of a game of another kind than Volume 1 (issue 41): its
/// state document, its picture (`svg`, drawn by its kind) and its log
/// (`history`, list items already escaped).
pub fn hosted_page(tag: &str, title: &str, document: &str, svg: &str, history: &str) -> String {
    let name = format!("{tag}: {title}");
    let body = format!(
        "<nav><a href=\"../index.html\">All games</a></nav>\n<h1>{}</h1>\n\
         <pre class=\"gsd\">{}</pre>\n<div class=\"picture\" role=\"img\" aria-label=\"{}\">{svg}</div>\n\
         <h2>The log</h2>\n<ol>\n{history}</ol>\n",
        escape(&name),
        escape(document),
        escape(&format!("{tag} as it stands"))
    );
    page(&name, "../", &body)
}

/// The Points table (Rule 1.1.9), from every ended game: as `POINTS`
/// answers it by mail.
pub fn points_page(rows: &[crate::store::PointsRow]) -> String {
    let title = "Mornington Nomic: the Points table";
    let mut b = String::from(
        "<nav><a href=\"index.html\">All games</a></nav>\n<h1>The Points table</h1>\n",
    );
    if rows.is_empty() {
        b.push_str("<p>No game has ended yet (Rule 1.1.9).</p>\n");
        return page(title, "", &b);
    }
    b.push_str(
        "<p>From every ended game (Rule 1.1.9).</p>\n<div class=\"table\"><table id=\"points\">\n\
         <thead><tr><th>Player</th><th>Points</th><th>Games</th></tr></thead>\n<tbody>\n",
    );
    for r in rows {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.player),
            r.points,
            r.games
        );
    }
    b.push_str("</tbody>\n</table></div>\n");
    let top = rows[0].points;
    if top > 0 && rows.iter().filter(|r| r.points == top).count() == 1 {
        let _ = writeln!(
            b,
            "<p>{} has more Points than any other player: the Grandmaster.</p>",
            escape(&rows[0].player)
        );
    }
    page(title, "", &b)
}

/// The short form of a verdict, for a game's list of turns.
fn verdict_word(v: &Verdict) -> &'static str {
    match (v.judged, v.winner.is_some()) {
        (_, true) => "legal: wins",
        (true, false) => "legal by Judgment",
        (false, false) => "legal",
    }
}

/// A game's index: its players and status, the picture as it stands, and
/// every turn with a link to its page.
pub fn game_page(g: &GameSummary, turns: &[TurnRecord], size: Size) -> String {
    let tag = escape(&g.tag);
    let mut b = format!(
        "<nav><a href=\"../index.html\">All games</a>{}</nav>\n<h1>Game {tag}</h1>\n",
        turns
            .last()
            .map(|t| format!(" <a href=\"{}\">Latest turn</a>", turn_file(t.n)))
            .unwrap_or_default()
    );
    let players: Vec<String> = g.players.iter().map(|p| escape(p)).collect();
    let _ = writeln!(
        b,
        "<p>Players: {}.<br>Status: <span class=\"status-{}\">{}</span>.<br>\
         Started {}; last activity {}.</p>",
        players.join(", "),
        g.status.word(),
        status_text(g),
        time(g.started),
        time(g.last_activity)
    );
    for (n, who) in &g.resigned {
        let _ = writeln!(
            b,
            "<p>{} Resigned after turn {n} (Rules 1.1.3, 1.1.10).</p>",
            escape(who)
        );
    }
    b.push_str("<h2>The game as it stands</h2>\n");
    let _ = writeln!(
        b,
        "<p>The whole GSD as it stands: <a href=\"{GSD_FILE}\">{GSD_FILE}</a>.</p>"
    );
    b.push_str(&picture(
        "../",
        CURRENT_OVERLAY,
        &format!("The game {} as it stands", g.tag),
        size,
    ));
    b.push_str("<h2>Turns</h2>\n");
    if turns.is_empty() {
        b.push_str("<p>No turn yet.</p>\n");
    } else {
        b.push_str(
            "<div class=\"table\"><table id=\"turns\">\n<thead><tr><th>Turn</th><th>Play</th>\
             <th>Verdict</th><th>Received</th></tr></thead>\n<tbody>\n",
        );
        for t in turns {
            let _ = writeln!(
                b,
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                turn_file(t.n),
                t.n,
                escape(&t.play),
                verdict_word(&t.verdict),
                time(t.submitted_at)
            );
        }
        b.push_str("</tbody>\n</table></div>\n");
    }
    page(&format!("Game {}", g.tag), "../", &b)
}

/// The navigation of a turn page: the site, the game, the turns either
/// side.
fn turn_nav(t: &TurnRecord, last: usize, class: &str) -> String {
    let prev = match t.n {
        1 => String::new(),
        n => format!(
            " <a rel=\"prev\" href=\"{}\">&larr; Turn {}</a>",
            turn_file(n - 1),
            n - 1
        ),
    };
    let next = if t.n < last {
        format!(
            " <a rel=\"next\" href=\"{}\">Turn {} &rarr;</a>",
            turn_file(t.n + 1),
            t.n + 1
        )
    } else {
        String::new()
    };
    format!(
        "<nav{class}><a href=\"../index.html\">All games</a> <a href=\"index.html\">Game \
         index</a>{prev}{next}</nav>\n"
    )
}

/// The verdict section of a turn page.
fn verdict_section(t: &TurnRecord) -> String {
    let v = &t.verdict;
    let mut b = String::from("<section class=\"verdict\" id=\"verdict\">\n<h2>Verdict</h2>\n");
    let _ = writeln!(
        b,
        "<p><span class=\"legal\">{}</span></p>",
        if v.judged {
            "Legal by Judgment (RULINGS S11)"
        } else {
            "Legal"
        }
    );
    if !v.changes.is_empty() {
        b.push_str("<p>What changed:</p>\n<ul>\n");
        for c in &v.changes {
            let _ = writeln!(b, "<li>{}</li>", escape(c));
        }
        b.push_str("</ul>\n");
    }
    if let Some(w) = &v.winner {
        let _ = writeln!(
            b,
            "<p>{} has reached Mornington Crescent and wins the game (Rule 1.1.1).</p>",
            escape(w)
        );
    } else if let Some(next) = &t.next {
        let _ = writeln!(
            b,
            "<p>Next to play: {}. Game Time: {}.</p>",
            escape(next),
            escape(&t.time)
        );
    }
    for r in &v.refused {
        let what = if r.ruling {
            "needed a human ruling"
        } else {
            "was buzzed as Illegal"
        };
        let _ = writeln!(
            b,
            "<p class=\"refused\">An earlier attempt at this turn {what}:</p>\n<pre class=\"play\">{}</pre>",
            escape(&r.play)
        );
        if !r.rules.is_empty() {
            b.push_str("<ul>\n");
            for v in &r.rules {
                let _ = writeln!(
                    b,
                    "<li>Rule {}: {}</li>",
                    escape(&v.rule),
                    escape(&v.message)
                );
            }
            b.push_str("</ul>\n");
        }
    }
    b.push_str("</section>\n");
    b
}

/// The file of a game's whole GSD as it stands, one per game.
pub const GSD_FILE: &str = "gsd.html";

/// The page of a game's whole GSD as it stands: its tables and every Play,
/// the one page of the game that holds them all.
pub fn gsd_page(g: &GameSummary, gsd: &str) -> String {
    let tag = escape(&g.tag);
    let b = format!(
        "<nav><a href=\"../index.html\">All games</a> <a href=\"index.html\">Game index</a></nav>\n\
         <h1>Game {tag}: the GSD as it stands</h1>\n<section id=\"gsd\">\n<pre class=\"gsd\">{}</pre>\n</section>\n",
        escape(gsd)
    );
    page(&format!("Game {}: the GSD", g.tag), "../", &b)
}

/// The page of one turn: its play, its verdict, the picture and the GSD's
/// tables after it, linked to the turns either side (`last` is the game's last
/// turn), the game's index and the site's.
pub fn turn_page(
    g: &GameSummary,
    t: &TurnRecord,
    overlay: &str,
    last: usize,
    size: Size,
) -> String {
    let tag = escape(&g.tag);
    let mut b = turn_nav(t, last, "");
    let _ = writeln!(
        b,
        "<h1>Game {tag}, turn {}: {}</h1>\n<p>Received {}.</p>",
        t.n,
        escape(&t.player),
        time(t.submitted_at)
    );
    let _ = writeln!(
        b,
        "<section id=\"play\">\n<h2>Play</h2>\n<pre class=\"play\">{}</pre>\n</section>",
        escape(&t.play)
    );
    b.push_str(&verdict_section(t));
    b.push_str("<h2>The game after this turn</h2>\n");
    b.push_str(&inline_picture(
        "../",
        overlay,
        &format!("The game {} after turn {}", g.tag, t.n),
        size,
    ));
    let _ = writeln!(
        b,
        "<section id=\"gsd\">\n<h2>The GSD's tables after this turn</h2>\n<pre class=\"gsd\">{}</pre>\n\
         <p>The Plays so far are on the <a href=\"index.html\">game's page</a>; the whole GSD as it \
         stands is <a href=\"{GSD_FILE}\">{GSD_FILE}</a>.</p>\n</section>",
        escape(&t.gsd)
    );
    b.push_str(&turn_nav(t, last, " class=\"bottom\""));
    page(&format!("Game {}, turn {}", g.tag, t.n), "../", &b)
}
