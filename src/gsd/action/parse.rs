//! Reading an Action's text against the forms of `grammar/actions.toml`:
//! folding, the templates, the placeholder readers, and the nearest forms
//! for an error.

use super::*;

/// Folds text for literal matching: lower case, single spaces, and no spaces
/// around `+ - : , / ( ) [ ]`, so `[LV + 1]` reads as `[lv+1]`.
fn fold(s: &str) -> String {
    fold_map(s).0
}

/// `hay.find(needle)` for the short needles of forms: a first-byte scan
/// beats setting up the general string searcher for every try.
fn find_short(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    if n.len() > h.len() {
        return None;
    }
    (0..=h.len() - n.len())
        .find(|&i| h[i] == first && h[i..i + n.len()].iter().zip(n).all(|(a, b)| a == b))
}

/// Folds a literal of a form, keeping a space at either end where it marks
/// a word boundary (`" to "` must not match inside "Stockton").
fn fold_literal(l: &str) -> String {
    let tight = |c: char| matches!(c, '+' | '-' | ':' | ',' | '/' | '(' | ')' | '[' | ']');
    let mut f = fold(l);
    if f.is_empty() {
        return if l.is_empty() { f } else { " ".to_string() };
    }
    if l.starts_with(char::is_whitespace) && !f.starts_with(tight) {
        f.insert(0, ' ');
    }
    if l.ends_with(char::is_whitespace) && !f.ends_with(tight) {
        f.push(' ');
    }
    f
}

/// [`fold`], with the original byte offset of every folded byte (and one
/// past the end), so that captures can be read back in their own spelling.
fn fold_map(s: &str) -> (String, Vec<usize>) {
    let tight = |c: char| matches!(c, '+' | '-' | ':' | ',' | '/' | '(' | ')' | '[' | ']');
    let mut out = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len() + 1);
    let mut pending_space: Option<usize> = None;
    let mut last: Option<char> = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if last.is_some() && pending_space.is_none() {
                pending_space = Some(i);
            }
            continue;
        }
        if let Some(at) = pending_space.take() {
            if !tight(c) && !last.is_some_and(tight) {
                out.push(' ');
                map.push(at);
            }
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            map.push(i);
        } else {
            for l in c.to_lowercase() {
                let before = out.len();
                out.push(l);
                map.extend(std::iter::repeat_n(i, out.len() - before));
            }
        }
        last = Some(c);
    }
    map.push(s.len());
    (out, map)
}

/// Why an action's text was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    /// What is wrong, in words.
    pub message: String,
    /// The nearest station names, where a station was not recognised.
    pub suggestions: Vec<String>,
}

struct Template {
    index: usize,
    parts: Vec<(bool, String)>, // (is_hole, folded literal or hole kind)
    literal_len: usize,
}

/// The forms, and an index from the first folded character after `[` to
/// the forms that can start with it (forms starting with a placeholder are
/// candidates for every action).
struct Forms {
    all: Vec<Template>,
    by_first: std::collections::HashMap<char, Vec<usize>>,
    open: Vec<usize>,
}

fn forms() -> &'static Forms {
    static F: std::sync::OnceLock<Forms> = std::sync::OnceLock::new();
    F.get_or_init(|| {
        let all = build_templates();
        let mut by_first: std::collections::HashMap<char, Vec<usize>> =
            std::collections::HashMap::new();
        let mut open = Vec::new();
        for (i, t) in all.iter().enumerate() {
            match t.parts.first() {
                Some((false, lit)) if lit.chars().nth(1).is_some_and(|c| c != ' ') => by_first
                    .entry(lit.chars().nth(1).unwrap())
                    .or_default()
                    .push(i),
                _ => open.push(i),
            }
        }
        Forms {
            all,
            by_first,
            open,
        }
    })
}

fn build_templates() -> Vec<Template> {
    let mut out = Vec::new();
    {
        for (index, spec) in SPECS.iter().enumerate() {
            for form in std::iter::once(&spec.form).chain(spec.aliases.iter()) {
                // Forms that differ only in placeholder names (the table's two
                // "Fire at" rows) parse as the first; see RULINGS.md.
                let parts: Vec<(bool, String)> = parts(form)
                    .into_iter()
                    .map(|p| match p {
                        Part::Lit(l) => (false, fold_literal(l)),
                        Part::Hole(h) => (true, h.to_string()),
                    })
                    .filter(|(h, l)| *h || !l.is_empty())
                    .collect();
                let literal_len = parts.iter().filter(|p| !p.0).map(|p| p.1.len()).sum();
                if out.iter().any(|t: &Template| t.parts == parts) {
                    continue;
                }
                out.push(Template {
                    index,
                    parts,
                    literal_len,
                });
            }
        }
    }
    out
}

/// Reads the text of one action, brackets included (`[Blocking Euston]`).
pub fn parse_action(text: &str, map: &Map) -> Result<Action, ActionError> {
    let (folded, offsets) = fold_map(text);
    let mut best: Option<(usize, usize, Action)> = None; // (literal_len, index, action)
    let mut ambiguous = false;
    let mut arg_errors: Vec<(usize, ActionError)> = Vec::new();
    let forms = forms();
    let first = folded.chars().nth(1).unwrap_or(' ');
    let candidates = forms
        .by_first
        .get(&first)
        .into_iter()
        .flatten()
        .chain(forms.open.iter());
    for t in candidates.map(|&i| &forms.all[i]) {
        let mut args = Vec::new();
        let mut err = None;
        let reader = Reader {
            folded: &folded,
            offsets: &offsets,
            original: text,
            map,
        };
        if !reader.matches(&t.parts, 0, &mut args, &mut err) {
            if let Some(e) = err {
                arg_errors.push((t.literal_len, e));
            }
            continue;
        }
        let Some(action) = Action::from_args(t.index, args) else {
            continue;
        };
        match &best {
            Some((len, idx, _))
                if *len > t.literal_len || (*len == t.literal_len && *idx == t.index) => {}
            Some((len, _, _)) if *len == t.literal_len => ambiguous = true,
            _ => {
                ambiguous = false;
                best = Some((t.literal_len, t.index, action));
            }
        }
    }
    if let Some((_, _, action)) = best {
        // The table's two "Fire at" rows share one form; the station decides
        // (Rule 1.9.2 and the Inter/Other rows of Rule 1.7.2).
        let action = match action {
            Action::FireAtInterchange { station } | Action::FireAtOther { station } => {
                let interchange = map
                    .find(&station.station)
                    .is_some_and(|id| map.station(id).kind == crate::map::StationKind::Interchange);
                if interchange {
                    Action::FireAtInterchange { station }
                } else {
                    Action::FireAtOther { station }
                }
            }
            other => other,
        };
        if ambiguous {
            return Err(ActionError {
                message: format!(
                    "ambiguous action {text}: it matches more than one form of Rule 1.7.2"
                ),
                suggestions: vec![],
            });
        }
        return Ok(action);
    }
    if let Some((_, e)) = arg_errors.into_iter().max_by_key(|(len, _)| *len) {
        return Err(e);
    }
    Err(ActionError {
        message: format!(
            "an Action of Rule 1.7.2 (grammar/actions.toml){}",
            nearest_forms(&folded)
        ),
        suggestions: vec![],
    })
}

fn nearest_forms(folded: &str) -> String {
    let words: Vec<&str> = folded
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(' ')
        .collect();
    let mut scored: Vec<(usize, &str)> = SPECS
        .iter()
        .filter_map(|s| {
            let lit = fold(
                s.form
                    .trim_start_matches('[')
                    .split('<')
                    .next()
                    .unwrap_or(""),
            );
            let lit = lit.trim_end_matches(']').trim().to_string();
            let n = lit.split(' ').filter(|w| !w.is_empty()).count();
            if n == 0 {
                return None;
            }
            let head = words.iter().take(n).copied().collect::<Vec<_>>().join(" ");
            Some((crate::map::names::edit_distance(&head, &lit), s.form))
        })
        .collect();
    scored.sort();
    let near: Vec<&str> = scored
        .iter()
        .filter(|(d, _)| *d <= 2)
        .take(3)
        .map(|(_, f)| *f)
        .collect();
    if near.is_empty() {
        String::new()
    } else {
        format!("; nearest: {}", near.join(" or "))
    }
}

/// Matches an action's folded text against a form, reading each
/// placeholder as its type as soon as it is captured, and trying the next
/// split when it does not read (so `<Station> <Line>` finds where a
/// two-word station ends).
struct Reader<'t> {
    folded: &'t str,
    offsets: &'t [usize],
    original: &'t str,
    map: &'t Map,
}

impl Reader<'_> {
    fn matches(
        &self,
        parts: &[(bool, String)],
        pos: usize,
        args: &mut Vec<Arg>,
        err: &mut Option<ActionError>,
    ) -> bool {
        let text = self.folded;
        let Some((is_hole, lit)) = parts.first() else {
            return pos == text.len();
        };
        if !is_hole {
            return text[pos..].starts_with(lit.as_str())
                && self.matches(&parts[1..], pos + lit.len(), args, err);
        }
        let try_capture = |end: usize,
                           rest: &[(bool, String)],
                           args: &mut Vec<Arg>,
                           err: &mut Option<ActionError>|
         -> bool {
            let folded = text[pos..end].trim();
            let spelled = self.original[self.offsets[pos]..self.offsets[end]].trim();
            if folded.is_empty() {
                return false;
            }
            match read_arg(lit, folded, spelled, self.map) {
                Ok(arg) => {
                    args.push(arg);
                    if self.matches(rest, end, args, err) {
                        return true;
                    }
                    args.pop();
                    false
                }
                Err(e) => {
                    *err = Some(e);
                    false
                }
            }
        };
        match parts.get(1) {
            None => try_capture(text.len(), &[], args, err),
            Some((true, _)) => false, // two holes in a row are not in the table
            Some((false, next)) => {
                // A placeholder holds at least one character, which may be
                // several bytes.
                let mut from = pos + text[pos..].chars().next().map_or(1, char::len_utf8);
                while from <= text.len() {
                    let Some(off) = text.get(from..).and_then(|t| find_short(t, next)) else {
                        return false;
                    };
                    let at = from + off;
                    if try_capture(at, &parts[1..], args, err) {
                        return true;
                    }
                    from = at + 1;
                    while from < text.len() && !text.is_char_boundary(from) {
                        from += 1;
                    }
                }
                false
            }
        }
    }
}

fn err(message: String) -> ActionError {
    ActionError {
        message,
        suggestions: vec![],
    }
}

fn read_arg(kind: &str, folded: &str, original: &str, map: &Map) -> Result<Arg, ActionError> {
    Ok(match kind {
        "Station" => {
            Arg::Target(
                crate::gsd::parse::read_target(original, map).map_err(|e| ActionError {
                    message: e.0,
                    suggestions: e.1,
                })?,
            )
        }
        "Line" => Arg::Line(crate::gsd::parse::read_line_code(original).ok_or_else(|| {
            err(format!(
                "expected a Line Code (Rule 1.17.4), found {original:?}"
            ))
        })?),
        "Colour" => Arg::Colour(
            Colour::parse(original)
                .ok_or_else(|| err(format!("expected a token colour, found {original:?}")))?,
        ),
        "N" => Arg::Number(
            original
                .parse()
                .map_err(|_| err(format!("expected a number, found {original:?}")))?,
        ),
        "Zone" => Arg::Zone(
            original
                .parse()
                .ok()
                .filter(|z| (1..=7).contains(z))
                .ok_or_else(|| err(format!("expected a zone 1-7, found {original:?}")))?,
        ),
        "Day" => Arg::Day(
            parse_day(original)
                .ok_or_else(|| err(format!("expected a day, found {original:?}")))?,
        ),
        "Possession" => {
            Arg::Item(
                crate::gsd::parse::item(original, map).map_err(|e| ActionError {
                    message: e.0,
                    suggestions: e.1,
                })?,
            )
        }
        "Tokens" => Arg::Tokens(parse_token_list(folded).ok_or_else(|| {
            err(format!(
                "expected tokens such as 2Re,1Bu, found {original:?}"
            ))
        })?),
        "Direction" => {
            const DIRS: [&str; 6] = ["N-S", "S-N", "E-W", "W-E", "Clockwise", "Anti-Clockwise"];
            let d = DIRS.iter().find(|d| fold(d) == folded).ok_or_else(|| {
                err(format!(
                    "expected a Line Direction ({}), found {original:?}",
                    DIRS.join(", ")
                ))
            })?;
            Arg::Text(d.to_string())
        }
        "Compass" => {
            const C: [&str; 4] = ["North", "South", "East", "West"];
            let c = C
                .iter()
                .find(|c| c.eq_ignore_ascii_case(folded))
                .ok_or_else(|| {
                    err(format!(
                        "expected North, South, East or West, found {original:?}"
                    ))
                })?;
            Arg::Text(c.to_string())
        }
        "Time" => {
            if original.is_empty() || original.len() > 5 {
                return Err(err(format!(
                    "expected a time such as 0130, found {original:?}"
                )));
            }
            Arg::Text(original.to_string())
        }
        _ => {
            if original.is_empty() {
                return Err(err(format!("expected <{kind}>")));
            }
            Arg::Text(original.to_string())
        }
    })
}

/// Parses `2Re,1Bu` (also `2 Re, 1 Bu`, `Re` for one) into counts.
pub fn parse_token_list(s: &str) -> Option<TokenList> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let part: String = part.chars().filter(|c| !c.is_whitespace()).collect();
        if part.is_empty() {
            return None;
        }
        let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
        // At most 999 of a colour: no Action costs more, and sums of such
        // counts cannot overflow.
        let n = if digits.is_empty() {
            1
        } else {
            digits.parse().ok().filter(|n| *n <= 999)?
        };
        out.push((n, Colour::parse(&part[digits.len()..])?));
    }
    Some(TokenList(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_ignores_spacing_and_case() {
        assert_eq!(fold("[LV + 1]"), "[lv+1]");
        assert_eq!(
            fold("[Shunting  Garden to   Moorgate (NT)]"),
            "[shunting garden to moorgate(nt)]"
        );
    }

    #[test]
    fn token_lists() {
        assert_eq!(parse_token_list("2Re,1Bu").unwrap().to_string(), "2Re,1Bu");
        assert_eq!(
            parse_token_list("2 re, gold").unwrap().to_string(),
            "2Re,1Go"
        );
        assert!(parse_token_list("2Xx").is_none());
    }
}
