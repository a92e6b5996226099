//! Station name normalisation, the key behind lookup and suggestions.

/// Normalises a station name the way players write it: case, apostrophes,
/// full stops, commas, brackets and hyphens are ignored, `&` reads as `and`
/// and `Saint` as `St`, and runs of spaces collapse.
///
/// `"Kings Cross St Pancras"`, `"KING'S CROSS ST. PANCRAS"` and
/// `"king’s cross saint pancras"` all give `"kings cross st pancras"`.
pub fn normalise(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    // Start of the current word in `out`, to turn a finished "saint" into "st".
    let mut word_start = 0;
    let mut pending_space = false;
    let finish_word = |out: &mut String, word_start: usize| {
        if &out[word_start..] == "saint" {
            out.truncate(word_start);
            out.push_str("st");
        }
    };
    let push_word_char = |out: &mut String, word_start: &mut usize, pending: &mut bool, c: char| {
        if *pending && !out.is_empty() {
            finish_word(out, *word_start);
            out.push(' ');
            *word_start = out.len();
        }
        *pending = false;
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    };
    for c in name.chars() {
        match c {
            '\'' | '\u{2019}' | '\u{2018}' | '`' | '.' => {}
            '&' => {
                pending_space = true;
                for a in ['a', 'n', 'd'] {
                    push_word_char(&mut out, &mut word_start, &mut pending_space, a);
                }
                pending_space = true;
            }
            '-' | ',' | '(' | ')' | '_' | '/' => pending_space = true,
            c if c.is_whitespace() => pending_space = true,
            c => push_word_char(&mut out, &mut word_start, &mut pending_space, c),
        }
    }
    finish_word(&mut out, word_start);
    out
}

/// Levenshtein distance over chars, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(cur).min(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_ignores_the_usual_variations() {
        let key = "kings cross st pancras";
        for v in [
            "King's Cross St. Pancras",
            "Kings Cross St Pancras",
            "KING'S CROSS ST. PANCRAS",
            "king\u{2019}s  cross saint pancras",
        ] {
            assert_eq!(normalise(v), key, "{v}");
        }
        assert_eq!(normalise("Harrow & Wealdstone"), "harrow and wealdstone");
        assert_eq!(normalise("Harrow-on-the-Hill"), "harrow on the hill");
        assert_eq!(normalise("Kensington (Olympia)"), "kensington olympia");
        assert_eq!(
            normalise("Heathrow Terminals 1, 2, 3"),
            "heathrow terminals 1 2 3"
        );
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("euston", "euston"), 0);
        assert_eq!(edit_distance("eustn", "euston"), 1);
        assert_eq!(edit_distance("bank", "bamk"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
