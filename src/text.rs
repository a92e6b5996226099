//! Text as people's machines write it, made what a reader sees (pure).
//!
//! Shared by the GSD reader and the mail layer, so that the two never
//! disagree about what a line says:
//!
//! - [`decode`]: bytes as UTF-8, else as Windows-1252 ("ANSI", what
//!   Notepad and Outlook on Windows save), with a note saying so;
//! - [`is_invisible`]: the default-ignorable code points (zero-width
//!   spaces, joiners, byte-order marks, bidirectional controls, Hangul
//!   fillers, variation selectors), which a reader does not see;
//! - [`visible`]: a line with those removed and Unicode-normalised (NFC),
//!   so that `Zoë` typed precomposed and decomposed is one name;
//! - [`box_drawing`]: the box-drawing characters of every style (light,
//!   heavy, rounded, double, dashed) as the ASCII `-`, `|` and `+` a GSD's
//!   tables are written in.

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// Text decoded from bytes, with how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text.
    pub text: String,
    /// `Some` when the bytes were not UTF-8 and were read as Windows-1252:
    /// a sentence for the reply.
    pub note: Option<&'static str>,
}

/// What a reply says when a text was read as Windows-1252.
pub const CP1252_NOTE: &str = "Your text was not UTF-8; it was read as Windows-1252 \
     (\"ANSI\"). If a name or a station looks wrong below, save it as UTF-8 and send it again.";

/// Bytes as UTF-8 (a byte-order mark dropped); bytes that are not UTF-8 as
/// Windows-1252, never with replacement characters.
pub fn decode(bytes: &[u8]) -> Decoded {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Decoded {
            text: s.to_string(),
            note: None,
        },
        Err(_) => Decoded {
            text: bytes.iter().map(|b| cp1252(*b)).collect(),
            note: Some(CP1252_NOTE),
        },
    }
}

/// One byte of Windows-1252. The five bytes it leaves undefined (0x81,
/// 0x8D, 0x8F, 0x90, 0x9D) read as the C1 controls of the same value, as
/// the WHATWG Encoding Standard reads them.
pub fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}',
        '\u{8f}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}',
        '\u{178}',
    ];
    match b {
        0x80..=0x9f => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// A default-ignorable code point (Unicode's `Default_Ignorable_Code_Point`,
/// DerivedCoreProperties.txt): drawn as nothing, so a reader never sees it.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{3164}'
        | '\u{fe00}'..='\u{fe0f}'
        | '\u{feff}'
        | '\u{ffa0}'
        | '\u{fff0}'..='\u{fff8}'
        | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e0fff}')
}

/// `s` as a reader sees it: invisible code points removed, then NFC.
/// Borrows when there is nothing to do (the common, ASCII case).
pub fn visible(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    let seen = if s.chars().any(is_invisible) {
        Cow::Owned(s.chars().filter(|c| !is_invisible(*c)).collect())
    } else {
        Cow::Borrowed(s)
    };
    if is_nfc_quick(seen.chars()) == IsNormalized::Yes {
        return seen;
    }
    Cow::Owned(seen.nfc().collect())
}

/// A box-drawing character as the ASCII a table is written in: lines
/// across are `-`, lines down `|`, corners and junctions `+`; anything
/// else as it is.
pub fn box_drawing(c: char) -> char {
    match c {
        '\u{2500}'..='\u{257f}' => match c {
            // Horizontal lines: light, heavy, dashed, double, half.
            '─' | '━' | '┄' | '┅' | '┈' | '┉' | '╌' | '╍' | '═' | '╼' | '╾' | '╴' | '╶' | '╸'
            | '╺' => '-',
            // Vertical lines.
            '│' | '┃' | '┆' | '┇' | '┊' | '┋' | '╎' | '╏' | '║' | '╽' | '╿' | '╵' | '╷' | '╹'
            | '╻' => '|',
            // Diagonals draw no table.
            '╱' | '╲' | '╳' => c,
            _ => '+',
        },
        _ => c,
    }
}

/// `s` with its box-drawing characters as ASCII ([`box_drawing`]).
pub fn ascii_boxes(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| ('\u{2500}'..='\u{257f}').contains(&c)) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().map(box_drawing).collect())
}

/// Why a player's name cannot be told from another's, or cannot be seen
/// whole: characters drawn as nothing, controls, a space that is not a
/// plain one, or letters of two scripts (`Rushtоn` with a Cyrillic `о`:
/// Unicode TR39's "mixed script"). `None` for a name a reader sees as it
/// is.
pub fn name_problem(name: &str) -> Option<String> {
    use unicode_security::MixedScript;
    if let Some(c) = name.chars().find(|c| is_invisible(*c) || c.is_control()) {
        return Some(format!(
            "it holds U+{:04X}, a character drawn as nothing",
            u32::from(c)
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_whitespace() && *c != ' ') {
        return Some(format!(
            "it holds U+{:04X}, a space that is not a plain one",
            u32::from(c)
        ));
    }
    if !name.is_single_script() {
        return Some("it mixes the letters of two scripts (say Latin and Cyrillic), so it can pass for another name".into());
    }
    None
}

/// A name as it looks: Unicode TR39's skeleton of its lower case, so that
/// two names that can be taken one for the other (`Rushton`, `Rushtоn`,
/// `RUSHTON`, `Rushton` in full-width letters) have the same key.
pub fn look_alike_key(name: &str) -> String {
    let lower: String = visible(name)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    unicode_security::skeleton(&lower)
        .collect::<String>()
        .to_lowercase()
}

/// An address that is not plain ASCII, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the address {address} contains {code} ({ch}) at character {position}: mornbot accepts only \
     ASCII addresses, so that no look-alike can pass for a registered one"
)]
pub struct NonAscii {
    /// The address.
    pub address: String,
    /// The first non-ASCII character.
    pub ch: char,
    /// Its code point, `U+212A`.
    pub code: String,
    /// Its 1-based position, in characters.
    pub position: usize,
}

/// Refuses an address with a non-ASCII character (an address with a look-alike of an ASCII letter could pass for a
/// registered one; see `mail::address`);
/// control characters and spaces are refused too.
pub fn check_ascii(address: &str) -> Result<(), NonAscii> {
    match address
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_graphic())
    {
        None => Ok(()),
        Some((i, ch)) => Err(NonAscii {
            address: address.escape_debug().to_string(),
            ch,
            code: format!("U+{:04X}", u32::from(ch)),
            position: i + 1,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_is_read_as_such_and_said() {
        let d = decode(b"Zo\xeb Lyons \x96 \x93Euston\x94");
        assert_eq!(d.text, "Zoë Lyons – “Euston”");
        assert_eq!(d.note, Some(CP1252_NOTE));
        let u = decode("\u{feff}Zoë".as_bytes());
        assert_eq!(u.text, "Zoë");
        assert_eq!(u.note, None);
    }

    #[test]
    fn every_byte_decodes_to_one_char() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode(&all).text.chars().count(), 256);
    }

    #[test]
    fn invisible_characters_are_gone_and_accents_composed() {
        assert_eq!(visible("\u{200b}Drone"), "Drone");
        assert_eq!(visible("Zoe\u{308} Lyons"), "Zoë Lyons");
        assert_eq!(visible("\u{3164}\u{115f}"), "");
        assert_eq!(visible("Ru\u{200d}shton\u{feff}"), "Rushton");
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn box_drawing_of_every_style_is_ascii() {
        assert_eq!(ascii_boxes("┏━━┳━┓"), "+--+-+");
        assert_eq!(ascii_boxes("╔══╦═╗"), "+--+-+");
        assert_eq!(ascii_boxes("╭─ Disruptions ─╮"), "+- Disruptions -+");
        assert_eq!(ascii_boxes("┃ a ║ b │"), "| a | b |");
        assert_eq!(ascii_boxes("╰──╯"), "+--+");
    }

    #[test]
    fn names_that_pass_for_another_are_told() {
        assert_eq!(name_problem("Rushton"), None);
        assert_eq!(name_problem("Zoë Lyons"), None);
        assert_eq!(name_problem("D'Arcy"), None);
        assert!(name_problem("Rushtоn").is_some(), "Cyrillic o");
        assert!(name_problem("Ruѕhton").is_some(), "Cyrillic s");
        assert!(name_problem("\u{3164}\u{3164}").is_some(), "Hangul fillers");
        assert!(name_problem("Rush\u{200b}ton").is_some());
        assert!(name_problem("Rush\u{3000}ton").is_some());
        let k = look_alike_key("Rushton");
        for other in [
            "Rushtоn",
            "Ruѕhton",
            "RUSHTON",
            "Ｒｕｓｈｔｏｎ",
            "Rush ton",
            "rushton ",
        ] {
            if other != "Rush ton" {
                assert_eq!(look_alike_key(other), k, "{other}");
            }
        }
        assert_ne!(look_alike_key("Rush ton"), k);
        assert_ne!(look_alike_key("Cryer"), k);
    }
}
