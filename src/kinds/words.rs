//! Order words, shared by the kinds whose orders are lines of words (Money
//! Run's and One Day in London's): where the order block ends, whether a
//! body holds an order (the classifier's cheap test), and typos of an order word (a line holding a
//! word one edit from one is never read past as prose: it may be a
//! mistyped order).

/// Whether `line` ends the order block of a mail: a signature separator,
/// a quoted message's header (Outlook's, or "On ... wrote:"), or a rule of
/// underscores.
pub(crate) fn ends_the_order(line: &str) -> bool {
    let t = line.trim();
    t == "--"
        || t.starts_with("-----Original Message-----")
        || (t.len() >= 5 && t.chars().all(|c| c == '_'))
        || (t.starts_with("On ") && t.ends_with("wrote:"))
}

/// Whether a line of `body` starts with one of `words` (any case).
pub(crate) fn a_line_starts_with(body: &str, words: &[&str]) -> bool {
    body.lines().any(|l| {
        let first = l.split_whitespace().next().unwrap_or("");
        words.iter().any(|w| first.eq_ignore_ascii_case(w))
    })
}

/// Whether `word` is one of `verbs` (any case) or one edit from one
/// (a letter added, dropped, changed, or two neighbours swapped); words of
/// fewer than three letters are too short to tell.
pub(crate) fn near_verb(word: &str, verbs: &[&str]) -> bool {
    let w = word.to_ascii_lowercase();
    w.len() >= 3 && verbs.iter().any(|v| one_edit(&w, v))
}

/// Whether `a` and `b` are equal or one edit apart (Damerau: a swap of two
/// neighbours is one edit).
fn one_edit(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a == b {
        return true;
    }
    let p = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    match a.len() as isize - b.len() as isize {
        0 => {
            a[p + 1..] == b[p + 1..]
                || (p + 1 < a.len()
                    && a[p] == b[p + 1]
                    && a[p + 1] == b[p]
                    && a[p + 2..] == b[p + 2..])
        }
        1 => a[p + 1..] == b[p..],
        -1 => a[p..] == b[p + 1..],
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_from_an_order_word_is_near() {
        let verbs = ["place", "draw"];
        for w in ["place", "PLACE", "plaec", "plac", "placee", "drwa", "dreaw"] {
            assert!(near_verb(w, &verbs), "{w}");
        }
        for w in ["dr", "plates", "morning", "drawing"] {
            assert!(!near_verb(w, &verbs), "{w}");
        }
    }
}
