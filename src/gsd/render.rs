//! The canonical GSD layout (Rule 1.2.0): aligned tables, boxes in a fixed
//! order and of one width, plain ASCII, lines of at most 78 columns except
//! the Plays. An empty box is left out (the parser reads a missing box as
//! an empty one, and still accepts an empty box).

use super::model::*;
use super::parse::target_text;

/// Widest box or table line.
const WIDTH: usize = 78;

/// Renders a GSD in the canonical layout.
pub fn render(g: &Gsd) -> String {
    let mut out = String::new();
    if let Some(game) = &g.game {
        out.push_str(&format!("Game {game}\n"));
    }
    token_table(&mut out, &g.players);
    out.push('\n');
    let disruptions: Vec<String> = g.disruptions.iter().map(disruption_text).collect();
    boxed(&mut out, "Disruptions", &wrap_items(&disruptions));
    if let Some(t) = &g.time {
        boxed(&mut out, "Game Time", &[t.to_string()]);
    }
    boxed(&mut out, "Wild Stations", &wrap_items(&g.wild));
    if let Some(c) = &g.courier {
        boxed(
            &mut out,
            "Courier",
            &[format!(
                "Pick-up: {}, Destination: {}",
                c.pickup, c.destination
            )],
        );
    }
    stacks(&mut out, &g.stacks, &g.marked);
    luggage(&mut out, &g.luggage);
    let lost: Vec<String> = g.lost_and_found.iter().map(item_text).collect();
    boxed(&mut out, "Lost & Found", &wrap_items(&lost));
    if !g.plays.is_empty() {
        for p in &g.plays {
            write_play(&mut out, p);
            out.push('\n');
        }
    }
    out
}

/// Renders a Play on one line: `Rushton : [LV+1] Euston (VC via: CN,NT)`.
pub fn render_play(p: &Play) -> String {
    let mut s = String::with_capacity(96);
    write_play(&mut s, p);
    s
}

fn write_play(s: &mut String, p: &Play) {
    s.push_str(&p.player);
    s.push_str(" :");
    let item = |s: &mut String, item: &PlayItem| {
        s.push(' ');
        match item {
            PlayItem::Action(a) => s.push_str(&a.render()),
            PlayItem::Comment(c) => {
                s.push('{');
                s.push_str(&c.text);
                s.push('}');
            }
        }
    };
    for i in &p.before {
        item(s, i);
    }
    s.push(' ');
    match &p.mv {
        // Neutral Actions between a Bifurcated player's Moves (Rule 1.7.42).
        Move::Bifurcated(a, b) => {
            s.push_str("A:");
            s.push_str(&render_move(a));
            for i in &p.between {
                item(s, i);
            }
            s.push_str(" B:");
            s.push_str(&render_move(b));
        }
        mv => s.push_str(&render_move(mv)),
    }
    for i in &p.after {
        item(s, i);
    }
}

/// Renders a Move: `Euston (VC via: CN,NT)`, `Monument (for Bank)`, `Pass (Holborn (CN))`.
pub fn render_move(m: &Move) -> String {
    match m {
        Move::To {
            dest,
            via,
            escalator_to,
        } => {
            let station = &dest.station;
            let mut spec = Vec::new();
            if let Some(l) = dest.line {
                spec.push(l.code().to_string());
            }
            if !via.is_empty() {
                spec.push(format!(
                    "via: {}",
                    via.iter().map(|l| l.code()).collect::<Vec<_>>().join(",")
                ));
            }
            if let Some(e) = escalator_to {
                spec.push(format!("for {}", e.station));
            }
            if spec.is_empty() {
                station.clone()
            } else {
                format!("{station} ({})", spec.join(" "))
            }
        }
        Move::Pass(pos) => with_position("Pass", pos),
        Move::Farkle(pos) => with_position("Farkle", pos),
        Move::Timeout => "Timeout".into(),
        Move::Bifurcated(a, b) => format!("A:{} B:{}", render_move(a), render_move(b)),
    }
}

fn with_position(word: &str, pos: &Option<Target>) -> String {
    match pos {
        Some(t) => format!("{word} ({})", target_text(t)),
        None => word.to_string(),
    }
}

fn token_table(out: &mut String, players: &[PlayerRow]) {
    let name_w = players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let home_w = players
        .iter()
        .filter_map(|p| p.home.as_ref())
        .map(|h| h.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let lv_w = players
        .iter()
        .map(|p| p.lv.to_string().len())
        .max()
        .unwrap_or(0)
        .max(2);
    let ch_w = players
        .iter()
        .map(|p| p.charge.to_string().len())
        .max()
        .unwrap_or(0)
        .max(2);
    let n_w = players
        .iter()
        .flat_map(|p| p.tokens.0.iter())
        .map(|n| n.to_string().len())
        .max()
        .unwrap_or(0)
        .max(2);
    let tok_w = 7 * n_w + 6;
    let border = format!(
        "+{}+{}+{}+{}+{}+\n",
        "-".repeat(name_w + 2),
        "-".repeat(home_w + 2),
        "-".repeat(lv_w + 2),
        "-".repeat(ch_w + 2),
        "-".repeat(tok_w + 2)
    );
    let heads: Vec<String> = Colour::ALL
        .iter()
        .map(|c| format!("{:>n_w$}", c.code()))
        .collect();
    out.push_str(&border);
    out.push_str(&format!(
        "| {:<name_w$} | {:<home_w$} | {:>lv_w$} | {:>ch_w$} | {} |\n",
        "Player",
        "Home",
        "LV",
        "Ch",
        heads.join(" ")
    ));
    out.push_str(&border);
    for p in players {
        let counts: Vec<String> = p.tokens.0.iter().map(|n| format!("{n:>n_w$}")).collect();
        out.push_str(&format!(
            "|{}{:<name_w$} | {:<home_w$} | {:>lv_w$} | {:>ch_w$} | {} |\n",
            if p.active { ' ' } else { '*' },
            p.name,
            p.home.as_deref().unwrap_or(""),
            p.lv,
            p.charge,
            counts.join(" ")
        ));
    }
    out.push_str(&border);
}

/// A titled box: `+- Title ---+`, `| line |`, `+------+`; nothing when
/// there are no lines.
fn boxed(out: &mut String, title: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    // Boxes share one width so a GSD reads as a column; long content widens.
    let inner = lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(title.len() + 3)
        .max(BOX_INNER);
    out.push_str(&format!(
        "+- {title} {}+\n",
        "-".repeat(inner - title.len() - 1)
    ));
    for l in lines {
        out.push_str(&format!("| {l:<inner$} |\n"));
    }
    out.push_str(&format!("+{}+\n\n", "-".repeat(inner + 2)));
}

/// Inner width of the boxes (a box line is this plus four).
const BOX_INNER: usize = WIDTH - 6;

/// Packs comma-separated items into lines that fit a box.
fn wrap_items(items: &[String]) -> Vec<String> {
    wrap_to(items, BOX_INNER)
}

/// The text of one disruption, as Rule 1.2.2 writes it.
pub(crate) fn disruption_text(d: &Disruption) -> String {
    match d {
        Disruption::Station { station, mark } => format!("{station} ({})", mark.text()),
        Disruption::PeggedSegment { from, to, line } => format!("{from} to {to} ({line}) (Peg)"),
        Disruption::Line { line, state } => format!(
            "{line}: {}",
            match state {
                LineState::Normal => "Normal".to_string(),
                LineState::OneWay(d) => format!("One Way: {d}"),
                LineState::Electrified => "Electrified".to_string(),
                LineState::PowerFailure => "Power Failure!".to_string(),
                LineState::Soaped => "Soaped".to_string(),
                LineState::SpeedLimit(n) => format!("Speed Limit: {n}"),
            }
        ),
        Disruption::Knip => "In Knip".into(),
        Disruption::BridgesUp => "Bridges Up".into(),
        Disruption::ParksAndGreens => "Parks and Greens".into(),
        Disruption::Gapminding => "Gapminding".into(),
        Disruption::VenbackerLadder => "Venbacker Ladder".into(),
        Disruption::DollisHillLoop => "Dollis Hill Loop".into(),
        Disruption::Sgronk => "Sgronk".into(),
        Disruption::SpeedCraze => "Speed Craze".into(),
        Disruption::ChargeSpiral(Spiral::Inwards) => "Charge In".into(),
        Disruption::ChargeSpiral(Spiral::Outwards) => "Charge Out".into(),
        Disruption::Bock(c) => format!("{} Bock", c.name()),
        Disruption::UpcomingHoliday(None) => "Upcoming Holiday".into(),
        Disruption::UpcomingHoliday(Some(d)) => format!("Upcoming Holiday: {}", day_name(*d)),
        Disruption::TokenCascade { focus, moves } => format!(
            "Token Cascade: {focus} ({moves} Move{})",
            if *moves == 1 { "" } else { "s" }
        ),
    }
}

/// A station's name with its Quadrants: `Dollis Hill (2)`.
fn stack_label(station: &str, quadrants: &[u8]) -> String {
    let q: Vec<String> = quadrants.iter().map(|q| q.to_string()).collect();
    if q.is_empty() {
        station.to_string()
    } else {
        format!("{station} ({})", q.join(","))
    }
}

/// The Token Stacks box (Rule 1.14.1): two stacks a row side by side, as
/// wide as the other boxes; one a row when two do not fit. The markers
/// (Suspect Packages, Rule 1.4.7) follow the Stacks of Tokens, their text
/// in the tokens cell.
fn stacks(out: &mut String, tokens: &[Stack], marked: &[Marked]) {
    let stacks: Vec<(String, String)> = tokens
        .iter()
        .map(|s| {
            (
                stack_label(&s.station, &s.quadrants),
                s.tokens.iter().map(|c| c.code()).collect::<String>(),
            )
        })
        .chain(marked.iter().map(|m| {
            (
                stack_label(&m.station, &m.quadrants),
                m.marker.text().to_string(),
            )
        }))
        .collect();
    if stacks.is_empty() {
        return;
    }
    let name_w = stacks
        .iter()
        .map(|s| s.0.chars().count())
        .max()
        .unwrap_or(0)
        .max(12);
    let tok_w = stacks.iter().map(|s| s.1.len()).max().unwrap_or(0).max(8);
    // A row of n stacks is "|" and n times " name | tokens |": 1 + n * (w + 6)
    // columns, where w is a name's and a tokens' width; it fills a box line
    // (BOX_INNER + 4) by widening the names, and the last tokens cell takes
    // a column the halves leave over.
    let fill = BOX_INNER + 4 - 1;
    let per_row = if 2 * (name_w + tok_w + 6) <= fill {
        2
    } else {
        1
    };
    let name_w = name_w.max((fill / per_row).saturating_sub(tok_w + 6));
    let last_w = tok_w + fill.saturating_sub(per_row * (name_w + tok_w + 6));
    let width = 1 + per_row * (name_w + tok_w + 6) + (last_w - tok_w);
    let title = "Token Stacks";
    out.push_str(&format!(
        "+- {title} {}+\n",
        "-".repeat(width - title.len() - 5)
    ));
    for row in stacks.chunks(per_row) {
        let mut line = String::from("|");
        for i in 0..per_row {
            let w = if i + 1 == per_row { last_w } else { tok_w };
            let (name, toks) = row.get(i).cloned().unwrap_or_default();
            line.push_str(&format!(" {name:<name_w$} | {toks:<w$} |"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&format!("+{}+\n\n", "-".repeat(width - 2)));
}

fn luggage(out: &mut String, rows: &[Luggage]) {
    if rows.is_empty() {
        return;
    }
    let name_w = rows
        .iter()
        .map(|r| r.player.chars().count())
        .max()
        .unwrap_or(0)
        .max(13);
    let items_w = BOX_INNER - name_w - 3;
    let title = "Luggage Rack";
    let inner = name_w + items_w + 3;
    out.push_str(&format!(
        "+- {title} {}+\n",
        "-".repeat(inner - title.len() - 1)
    ));
    for r in rows {
        let items: Vec<String> = r.items.iter().map(possession_text).collect();
        let mut lines = wrap_to(&items, items_w);
        if lines.is_empty() {
            lines.push(String::new());
        }
        for (i, l) in lines.iter().enumerate() {
            let who = if i == 0 { r.player.as_str() } else { "" };
            out.push_str(&format!("| {who:<name_w$} | {l:<items_w$} |\n"));
        }
    }
    out.push_str(&format!("+{}+\n\n", "-".repeat(inner + 2)));
}

/// Packs comma-separated items into lines of at most `limit` characters.
fn wrap_to(items: &[String], limit: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if !cur.is_empty() && cur.chars().count() + 1 + piece.chars().count() > limit {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&piece);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// `*Overcoat*`, `(Euston Stub)`, `Hats (COT)`, `Thursday's Paper`.
pub fn possession_text(p: &Possession) -> String {
    let mut s = item_text(&p.item);
    if p.worn {
        s = format!("*{s}*");
    }
    if p.nantucket {
        s = format!("({s})");
    }
    s
}

/// The name an Action gives an item: its Luggage Rack text, but an
/// Electrical one's state only when it is On (`[Purchasing Vacuum Cleaner]`).
pub(crate) fn item_name(i: &Item) -> String {
    match i {
        Item::Good {
            good,
            stars,
            on: false,
            n,
        } => format!(
            "{}{}{}",
            good.spec().name,
            number_text(*n),
            "*".repeat(*stars as usize)
        ),
        _ => item_text(i),
    }
}

/// The text of an item.
pub(crate) fn item_text(i: &Item) -> String {
    match i {
        Item::Hats(h) if h.len() == 1 => format!("Hat ({})", h[0].letter()),
        Item::Hats(h) => format!(
            "Hats ({})",
            h.iter().map(|x| x.letter()).collect::<String>()
        ),
        Item::Paper(d) => format!("{}'s Paper", day_name(*d)),
        Item::Rover(d) => format!("{} Rover Card", day_name(*d)),
        Item::Stub { name, .. } => format!("{name} Stub"),
        Item::ZonePass(z) => format!("Zone {z} Pass"),
        Item::Toff { name, .. } => format!("Toff Clamp ({name})"),
        Item::Good { good, stars, on, n } => {
            let state = if good.is(super::goods::Quality::Electrical) {
                if *on {
                    " (On)"
                } else {
                    " (Off)"
                }
            } else {
                ""
            };
            format!(
                "{}{}{state}{}",
                good.spec().name,
                number_text(*n),
                "*".repeat(*stars as usize)
            )
        }
    }
}

/// ` 2` after a numbered Possession's name (Rule 1.4.46).
fn number_text(n: Option<u32>) -> String {
    n.map(|n| format!(" {n}")).unwrap_or_default()
}
