//! The Plays (`plays`, `play`, `comment` in `grammar/gsd.ebnf`): which
//! lines make one Play, and a Play's Actions and comments around its Move.

use super::*;
use crate::gsd::action::parse_action;
use crate::map::names::edit_distance;

/// The most lines a client's wrap is tried over: a long Play wrapped by a
/// narrow screen (20 columns) takes a dozen; the bound keeps the reading
/// of a hostile text linear (past it, a line straight below a Play is read
/// as part of it: the Play parses, or is refused).
const WRAPPED_LINES: usize = 24;

impl<'a> Doc<'a> {
    /// plays = { play }
    ///
    /// A Play continues on the next line when its brackets are still open,
    /// when the line was soft-broken (format=flowed), the next line does
    /// not start a known player's Play and the Play is not complete without
    /// it, when the next line starts with `[` or `{`, or when, straight
    /// below, the Play read with it parses (a client's wrap,
    /// quirk-wrapped-play). Comment lines before the first Play belong to
    /// it. The Plays end at the first other line; a known player's Play
    /// after that, or one with its `:` slipped, is an error, never silently
    /// dropped.
    pub(super) fn plays(&mut self, players: &[PlayerRow]) -> Result<Vec<Play>, ParseError> {
        let mut plays = Vec::new();
        let mut group: Vec<Line> = Vec::new();
        let mut leading: Vec<Line> = Vec::new();
        let mut after_blank = false;
        let known = |name: &str| {
            players.iter().any(|p| p.name.eq_ignore_ascii_case(name))
                || name.eq_ignore_ascii_case("Drone")
        };
        let mut stop: Option<usize> = None;
        while let Some(line) = self.line() {
            let t = line.text.trim();
            if t.is_empty() {
                after_blank = true;
                self.at += 1;
                continue;
            }
            let open = !group.is_empty() && unbalanced(group.iter().map(|l| l.text.as_str()));
            // quirk-listed-plays: `- Rushton : ...`, `1. Rushton : ...` is
            // Rushton's Play, the list's marker no part of it.
            let unlisted;
            let line = match (open, unlist(line)) {
                (false, Some(l)) if !play_head(t).is_some_and(known) => {
                    unlisted = l;
                    &unlisted
                }
                _ => line,
            };
            let t = line.text.trim();
            // A box's title starts no Play (a box after the Plays is refused below).
            let head = play_head(t).filter(|n| known(n) || !self.names_a_box(line));
            // quirk-piece-lines: Piece A's and B's Moves on lines of their own.
            let piece =
                !group.is_empty() && !after_blank && piece_label(t) && !head.is_some_and(known);
            let soft = group.last().is_some_and(|l: &Line| l.soft) && !head.is_some_and(known);
            let bracketed = t.starts_with('[') || t.starts_with('{');
            // A soft break (a trailing space) before a sign-off is not a
            // wrap: a complete Play the line cannot continue ends there.
            let complete = || play(&Src::join(&group), self.map).is_ok();
            let soft = soft
                && !(group.len() <= WRAPPED_LINES
                    && complete()
                    && !self.wrapped_tail(&group, line, &known));
            // A line like the start of a Play by no player of the table
            // (`Green B:Pass`, the end of `A:Wood`) straight after a Play
            // that does not parse without it continues that Play when it
            // parses with it (quirk-wrapped-play).
            let tail = !group.is_empty()
                && !after_blank
                && head.is_some_and(|n| !known(n))
                && !complete()
                && self.wrapped_tail(&group, line, &known);
            if !group.is_empty() && !after_blank && (open || soft || piece || tail) {
                group.push(line.clone());
            } else if head.is_some_and(|name| {
                !after_blank || known(name) || (group.is_empty() && plays.is_empty())
            }) {
                if !group.is_empty() {
                    plays.push(self.play_with(&group, &mut leading, players)?);
                    group.clear();
                }
                group.push(line.clone());
            } else if bracketed && !group.is_empty() {
                group.push(line.clone());
            } else if t.starts_with('{') && group.is_empty() && plays.is_empty() {
                leading.push(line.clone());
            } else if !after_blank && self.wrapped_tail(&group, line, &known) {
                // quirk-wrapped-play: a client wrapped the Play at 72 columns.
                group.push(line.clone());
            } else {
                stop = Some(self.at);
                break;
            }
            after_blank = false;
            self.at += 1;
        }
        if !group.is_empty() {
            plays.push(self.play_with(&group, &mut leading, players)?);
        }
        if let Some(at) = stop {
            // Prose after the Plays ends the GSD, unless a Play follows it.
            // A listed Play (`5) Name : ...`) is a Play too (quirk-listed-plays).
            if let Some(later) = self.lines[at..].iter().find(|l| {
                play_head(l.text.trim()).is_some_and(known)
                    || unlist(l).is_some_and(|u| play_head(u.text.trim()).is_some_and(known))
            }) {
                let here = &self.lines[at];
                return Err(self.err_at(
                    here,
                    0,
                    format!("a Play `Player : Move` (line {} is a Play; every Play must follow the last without prose between)", later.no),
                    &here.text,
                ));
            }
            // A Play with a slip in its `:` would be lost: refused.
            if let Some((slip, name)) = self.lines[at..]
                .iter()
                .find_map(|l| slipped_play(l, players, self.map).map(|n| (l, n)))
            {
                return Err(self.err_at(
                    slip,
                    Self::col_of(slip, slip.text.trim()),
                    format!("a Play `{name} : Move` (a player's name, then `:`)"),
                    &slip.text,
                ));
            }
            // A box after the Plays would be lost: refused, never dropped.
            if let Some(late) = self.lines[at..].iter().find(|l| self.names_a_box(l)) {
                return Err(self.err_at(
                    late,
                    Self::col_of(late, late.text.trim()),
                    "the boxes between the Token Table and the Plays (Rule 1.2.0), not after the Plays",
                    &late.text,
                ));
            }
        }
        Ok(plays)
    }

    /// Whether `line`, straight after the Play in `group` (no blank line
    /// between) and starting no Play, is that Play's end wrapped onto the
    /// next line by a mail client (quirk-wrapped-play): the Play read with
    /// it parses. `Wimbledon` / `Park (DS)` is Wimbledon Park, never
    /// Wimbledon with prose after it; a sign-off (`Cheers, Cryer`) does not
    /// parse as part of a Play and ends the Plays. `line` stands at
    /// `self.at`; when the Play does not parse with it alone, the lines
    /// below it are read too, up to a blank line or a line that starts a
    /// `known` player's Play: a client may break a Play inside an Action
    /// (`[Red Token on` / `Euston]`) or before a Bifurcated player's `B:`.
    /// Past [`WRAPPED_LINES`] it cannot tell, and the line is read on: the
    /// Play then parses, or is refused, never cut short.
    fn wrapped_tail(&self, group: &[Line], line: &Line, known: &dyn Fn(&str) -> bool) -> bool {
        if group.is_empty() {
            return false;
        }
        if group.len() > WRAPPED_LINES {
            return true;
        }
        let mut lines = group.to_vec();
        lines.push(line.clone());
        let mut next = self.at + 1;
        let starts_play = |l: &Line| {
            play_head(l.text.trim()).is_some_and(known)
                || unlist(l).is_some_and(|u| play_head(u.text.trim()).is_some_and(known))
        };
        loop {
            if play(&Src::join(&lines), self.map).is_ok() {
                return true;
            }
            let open = unbalanced(lines.iter().map(|l| l.text.as_str()));
            match self.lines.get(next) {
                Some(l) if !l.text.trim().is_empty() && (open || !starts_play(l)) => {
                    if lines.len() >= group.len() + WRAPPED_LINES {
                        return true;
                    }
                    lines.push(l.clone());
                }
                _ => return false,
            }
            next += 1;
        }
    }

    /// Parses one Play's lines, giving it any comment lines that came first.
    fn play_with(
        &self,
        group: &[Line],
        leading: &mut Vec<Line>,
        players: &[PlayerRow],
    ) -> Result<Play, ParseError> {
        let mut p = play(&Src::join(group), self.map)?;
        self.check_player(&group[0], &p.player, players)?;
        if !leading.is_empty() {
            let src = Src::join(leading);
            let mut comments = Vec::new();
            let mut rest = src.text.as_str();
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    let off = src.text.len() - rest.len() + open;
                    return Err(src.error(off, "`}` closing the comment", off));
                };
                let off = src.text.len() - rest.len() + open + 1;
                comments.push(PlayItem::Comment(comment(
                    &src,
                    off,
                    &rest[open + 1..open + close],
                    self.map,
                )?));
                rest = &rest[open + close + 1..];
            }
            p.before.splice(0..0, comments);
            leading.clear();
        }
        Ok(p)
    }
}

impl Doc<'_> {
    /// A Play's player is a player of the Token Table, the Drone, or a
    /// player who has Resigned (Rule 1.1.3: no longer in the table, eir
    /// Plays still in the GSD). A name that differs from a table player's
    /// only by a slip (two edits, letter case, a list's marker) is no
    /// Resigned player but that player misspelt: refused, never read as
    /// someone else (RULINGS G15).
    fn check_player(
        &self,
        line: &Line,
        name: &str,
        players: &[PlayerRow],
    ) -> Result<(), ParseError> {
        if name.eq_ignore_ascii_case("Drone")
            || players.iter().any(|p| table::same_name(&p.name, name))
        {
            return Ok(());
        }
        let fold = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let near: Vec<String> = players
            .iter()
            .filter(|p| {
                let (a, b) = (fold(&p.name), fold(name));
                a == b || b.ends_with(&a) || edit_distance(&a, &b) <= 2.min(a.chars().count() / 3)
            })
            .map(|p| p.name.clone())
            .collect();
        if near.is_empty() && name.starts_with(char::is_alphabetic) {
            return Ok(());
        }
        let col = Self::col_of(line, name);
        Err(self
            .err_at(
                line,
                col,
                "a player of the Token Table (or one who has Resigned), then `:`",
                name,
            )
            .with_suggestions(near))
    }
}

/// `line` with a list's marker taken off its front, when a Play's
/// `Name :` follows the marker: `- `, `* `, `+ `, `• `, `1. `, `1) `,
/// `(1) `, `#1 `, `1: ` (quirk-listed-plays).
pub(super) fn unlist(line: &Line) -> Option<Line> {
    let t = line.text.trim_start();
    let lead = line.text.len() - t.len();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let marker = if t.starts_with(['-', '*', '+', '\u{2022}', '\u{00b7}']) {
        t.chars().next().map_or(0, char::len_utf8)
    } else if digits > 0 && t[digits..].starts_with(['.', ')', ':']) {
        digits + 1
    } else if t.starts_with('(') || t.starts_with('#') {
        let d = t[1..].chars().take_while(char::is_ascii_digit).count();
        if d == 0 {
            return None;
        }
        let close = usize::from(t.starts_with('(') && t[1 + d..].starts_with(')'));
        if t.starts_with('(') && close == 0 {
            return None;
        }
        1 + d + close + usize::from(t[1 + d + close..].starts_with(['.', ':']))
    } else {
        return None;
    };
    let rest = &t[marker..];
    let body = rest.trim_start();
    if body.len() == rest.len() || play_head(body).is_none() {
        return None; // a marker is followed by a space, then a Play
    }
    let cut = lead + marker + (rest.len() - body.len());
    Some(Line {
        indent: line.indent + line.text[..cut].chars().count(),
        text: line.text[cut..].to_string(),
        ..line.clone()
    })
}

/// `A:` or `B:` at the front of a line: a Bifurcated Piece's Move.
fn piece_label(t: &str) -> bool {
    let mut c = t.chars();
    matches!(c.next(), Some('A' | 'B' | 'a' | 'b')) && c.as_str().trim_start().starts_with(':')
}

/// Whether brackets, parentheses or braces are left open across the lines.
fn unbalanced<'l>(lines: impl Iterator<Item = &'l str>) -> bool {
    let mut depth = [0i32; 3];
    for c in lines.flat_map(str::chars) {
        match c {
            '(' => depth[0] += 1,
            ')' => depth[0] -= 1,
            '[' => depth[1] += 1,
            ']' => depth[1] -= 1,
            '{' => depth[2] += 1,
            '}' => depth[2] -= 1,
            _ => {}
        }
    }
    depth.iter().any(|d| *d > 0)
}

/// A line after the Plays that is a Play of a Token Table player but for
/// its `:` (`Cryer - Euston (NT)`, `Cryer Euston (NT)`): the player's name.
/// A sign-off with the name (`Cryer`, `Cryer (still winning)`) does not
/// parse as a Play and is not one.
fn slipped_play<'p>(line: &Line, players: &'p [PlayerRow], map: &Map) -> Option<&'p str> {
    let t = line.text.trim();
    let p = players.iter().find(|p| {
        t.get(..p.name.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(&p.name))
            && !t[p.name.len()..].starts_with(|c: char| c.is_alphanumeric())
    })?;
    let rest = t[p.name.len()..]
        .trim_start_matches([' ', '-', '\u{2013}', '\u{2014}', '=', ';', '.', ',']);
    if rest.is_empty() || t[p.name.len()..].trim_start().starts_with(':') {
        return None;
    }
    let candidate = Line {
        text: format!("{} : {rest}", p.name),
        ..line.clone()
    };
    play(&Src::join(&[candidate]), map)
        .is_ok()
        .then_some(p.name.as_str())
}

/// The player name of a line that starts a Play (`Name : ...`).
pub(super) fn play_head(t: &str) -> Option<&str> {
    let (name, _) = t.split_once(':')?;
    let name = name.trim();
    (check_name(name).is_ok() && name.split_whitespace().count() <= 4).then_some(name)
}

/// play = player , ":" , { action | comment } , move , { action | comment }
pub(super) fn play(src: &Src, map: &Map) -> Result<Play, ParseError> {
    let text = src.text.as_str();
    let Some(colon) = text.find(':') else {
        return Err(src.error(0, "`Player : Move` (Rule 1.2.0)", 0));
    };
    let name = text[..colon].trim();
    check_name(name).map_err(|e| src.error(0, e, 0))?;
    let (before, at) = items(src, colon + 1, text.len(), true, map)?;
    if at >= text.len() {
        return Err(src.error(
            text.len(),
            "a Move: a station, Pass, Timeout or Farkle (Rule 1.5.0)",
            text.len(),
        ));
    }
    let read = move_(&text[at..], at, src, map)?;
    let between = match read.between {
        Some((from, to)) => items(src, at + from, at + to, false, map)?.0,
        None => Vec::new(),
    };
    let (after, _) = items(src, at + read.used, text.len(), false, map)?;
    Ok(Play {
        player: player_name(name),
        before,
        mv: read.mv,
        between,
        after,
    })
}

/// The Actions and comments of `src.text[from..to]`, in written order.
/// With `until_move`, reading stops at the first other text (the Move) and
/// returns where it starts; otherwise any other text is an error.
fn items(
    src: &Src,
    from: usize,
    to: usize,
    until_move: bool,
    map: &Map,
) -> Result<(Vec<PlayItem>, usize), ParseError> {
    let text = &src.text[..to];
    let mut items = Vec::new();
    let mut pos = from;
    loop {
        let rest = &text[pos..];
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        if trimmed.is_empty() {
            break;
        }
        if trimmed.starts_with('[') {
            let Some(end) = trimmed.find(']') else {
                return Err(src.error(pos, "`]` closing the Action", pos));
            };
            let body = &trimmed[..=end];
            let action = parse_action(body, map).map_err(|e| {
                src.error_on(pos, e.message, body)
                    .with_suggestions(e.suggestions)
            })?;
            items.push(PlayItem::Action(action));
            pos += end + 1;
        } else if trimmed.starts_with('{') {
            let Some(end) = trimmed.find('}') else {
                return Err(src.error(pos, "`}` closing the comment", pos));
            };
            items.push(PlayItem::Comment(comment(
                src,
                pos + 1,
                &trimmed[1..end],
                map,
            )?));
            pos += end + 1;
        } else if until_move {
            break;
        } else {
            return Err(src.error(
                pos,
                "an Action `[...]` or a comment `{...}` after the Move",
                pos,
            ));
        }
    }
    Ok((items, pos))
}

/// comment = "{" text "}" | "{" directive "}"; `at` is the byte offset of
/// `inner` in the play's text.
fn comment(src: &Src, at: usize, inner: &str, map: &Map) -> Result<Comment, ParseError> {
    let lead = inner.len() - inner.trim_start().len();
    let text = inner.trim();
    let directive = crate::gsd::directive::directive(text, map).map_err(|(off, m, sg)| {
        let off = at + lead + off.min(text.len());
        src.error(off, m, off).with_suggestions(sg)
    })?;
    Ok(Comment {
        text: text.to_string(),
        directive,
    })
}
