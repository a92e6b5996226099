//! Which game a message concerns: the subject's tags, a GSD's `Game` line,
//! the only game; and the players of the game meant.

use super::*;

// ---- Which game -----------------------------------------------------------

pub(super) fn canonical_tag(tag: &str, ctx: &ClassifyContext<'_>) -> Option<String> {
    let tag = tag.trim();
    if let Some(g) = ctx.games.get(tag) {
        return Some(g.tag.clone());
    }
    let letters = tag.chars().take_while(char::is_ascii_alphabetic).count();
    let digits = tag[letters..].chars().all(|c| c.is_ascii_digit());
    ((1..=8).contains(&letters) && tag.len() > letters && tag.len() <= 16 && digits)
        .then(|| tag.to_ascii_uppercase())
}

pub(super) fn subject_tags(subject: &str, ctx: &ClassifyContext<'_>) -> Vec<String> {
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

pub(super) const REPLY_PREFIXES: [&str; 12] = [
    "re:", "fwd:", "fw:", "aw:", "wg:", "sv:", "vs:", "antw:", "tr:", "r:", "re :", "fwd :",
];

/// The subject without reply prefixes and `[...]` groups; and whether it
/// had a reply prefix.
pub(super) fn subject_core(subject: &str) -> (&str, bool) {
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

/// The `Game TAG` line above a Token Table, unquoted lines first: where
/// the GSD parser reads it ([`crate::kinds::vol1::locate_gsd`]), else a line naming a
/// game of the lounge.
pub(super) fn gsd_game(lines: &[BodyLine<'_>], ctx: &ClassifyContext<'_>) -> Option<String> {
    let own: Vec<&str> = lines
        .iter()
        .map(|l| if l.quoted { "" } else { l.text })
        .collect();
    if let Some(id) = crate::kinds::vol1::locate_gsd(&own).and_then(|f| f.game) {
        return Some(
            ctx.games
                .get(&id)
                .map_or_else(|| id.to_ascii_uppercase(), |g| g.tag.clone()),
        );
    }
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
            let known = ctx.games.get(id);
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

pub(super) fn game_ref(
    subject: &str,
    lines: &[BodyLine<'_>],
    ctx: &ClassifyContext<'_>,
) -> GameRef {
    let tags = subject_tags(subject, ctx);
    let named = gsd_game(lines, ctx);
    match (tags.as_slice(), named) {
        ([], Some(n)) => GameRef::Named(n),
        ([], None) => match ctx.games.len() {
            0 => GameRef::Unknown,
            1 => GameRef::Only(ctx.games.iter().next().expect("one").tag.clone()),
            _ => GameRef::Ambiguous(ctx.games.iter().map(|g| g.tag.clone()).collect()),
        },
        ([t], Some(n)) if !n.eq_ignore_ascii_case(t) => GameRef::Ambiguous(vec![t.clone(), n]),
        ([t], _) => GameRef::Tagged(t.clone()),
        (many, _) => GameRef::Ambiguous(many.to_vec()),
    }
}

/// The player names of the game meant (of every candidate game when it is
/// not known which).
pub(super) fn players_for<'c>(
    game: &GameRef,
    ctx: &'c ClassifyContext<'_>,
) -> std::borrow::Cow<'c, [String]> {
    let wanted: Vec<&str> = match game {
        GameRef::Ambiguous(tags) => tags.iter().map(String::as_str).collect(),
        g => g.tag().into_iter().collect(),
    };
    let known: Vec<&GameInfo> = wanted.iter().filter_map(|w| ctx.games.get(w)).collect();
    if known.is_empty() {
        // Not one known game: every game's players (indexed once).
        return std::borrow::Cow::Borrowed(ctx.games.all_players());
    }
    let mut names: Vec<String> = Vec::new();
    for g in known {
        for p in &g.players {
            let p = p.trim();
            if !p.is_empty() && !names.iter().any(|n| n.eq_ignore_ascii_case(p)) {
                names.push(p.to_string());
            }
        }
    }
    // Longest first, so that "Brooke-Taylor" wins over "Brooke".
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    std::borrow::Cow::Owned(names)
}
