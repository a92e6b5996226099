//! One Day in London drawn (issue 43): the public table
//! ([`oneday_table_svg`], [`oneday_table_png`]) and one player's private
//! rack as a journey on Zone 1 ([`oneday_rack_svg`], [`oneday_rack_png`],
//! in `oneday_rack`).
//!
//! Pure functions of the deck and plain values, not of a game state: the
//! caller says what a viewer may see. A hidden card is a
//! [`RackSlot::Hidden`], which carries no card, so the table cannot name
//! it. Cards are drawn alike in both pictures: the station's name under a
//! strip of its lines' colours (the map file's colours, the one source of
//! truth), the card's number in a corner.

use super::writer::{text_width, Svg};
use super::{png, PictureError};
use crate::kinds::oneday::{CardId, Deck, StationIdx};
use crate::map::Map;

pub use super::oneday_rack::{oneday_rack_png, oneday_rack_svg};

/// What one rack shows a viewer: a named card, or a hidden one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RackSlot {
    /// No card in the slot.
    Empty,
    /// A card the viewer may not see: drawn face down.
    Hidden,
    /// A card the viewer sees.
    Card(CardId),
}

/// A card's width on the table, px.
pub(super) const CARD_W: f64 = 104.0;
/// A card's height on the table, px.
const CARD_H: f64 = 72.0;
/// Space between cards, px.
pub(super) const GAP: f64 = 6.0;
const MARGIN: f64 = 24.0;
/// The players' names' column, px.
const NAME_W: f64 = 150.0;
const WIDTH: f64 = MARGIN * 2.0 + NAME_W + 10.0 * CARD_W + 9.0 * GAP;
/// A row of the table: a card and its caption.
const ROW_H: f64 = CARD_H + 26.0;
pub(super) const INK: &str = "#212121";
pub(super) const GREY: &str = "#757575";

/// The colour of a deck line, from the map file.
pub(super) fn line_colour(deck: &Deck, line: crate::kinds::oneday::LineIdx) -> String {
    Map::london_1999().line(deck.line(line).code).colour.hex()
}

/// `text` in lines of at most `max` characters, broken between words (a
/// longer word stands alone).
pub(super) fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= max => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The size at most `size` px at which `text` fits in `width` px.
pub(super) fn fit(text: &str, width: f64, size: f64) -> f64 {
    let w = text_width(text, size);
    if w <= width {
        size
    } else {
        size * width / w
    }
}

/// A card face up at (`x`, `y`), `w` x `h` px: its lines' colours in a
/// strip along the top, the station's name, the number in a corner. A
/// number the deck lacks is drawn as such, never skipped.
pub(super) fn card_face(
    w: &mut Svg,
    deck: &Deck,
    id: CardId,
    (x, y): (f64, f64),
    (cw, ch): (f64, f64),
) {
    w.rect(
        x,
        y,
        cw,
        ch,
        5.0,
        r##"fill="#fffdf5" stroke="#424242" stroke-width="1.2""##,
    );
    let Some(card) = deck.card(id) else {
        w.text_centred(
            (x + cw / 2.0, y + ch / 2.0),
            12.0,
            "#c62828",
            &format!("no card {id}"),
        );
        return;
    };
    let st = deck.station(card.station);
    let band = (cw - 8.0) / st.stops.len().max(1) as f64;
    for (k, stop) in st.stops.iter().enumerate() {
        w.rect(
            x + 4.0 + band * k as f64,
            y + 4.0,
            band,
            6.0,
            0.0,
            &format!(r#"fill="{}""#, line_colour(deck, stop.line)),
        );
    }
    let name = wrap(&st.name, ((cw - 8.0) / (12.0 * 0.56)) as usize);
    let top = y + 14.0 + (ch - 30.0 - 14.0 * name.len() as f64) / 2.0;
    for (k, l) in name.iter().enumerate() {
        let at = (x + cw / 2.0, top + 7.0 + 14.0 * k as f64);
        w.text_centred(at, fit(l, cw - 8.0, 12.0), INK, l);
    }
    w.text((x + cw - 26.0, y + ch - 5.0), 9.0, GREY, &id.to_string());
}

/// A card face down: the back, which names nothing.
fn card_back(w: &mut Svg, (x, y): (f64, f64), (cw, ch): (f64, f64)) {
    w.rect(
        x,
        y,
        cw,
        ch,
        5.0,
        r##"class="hidden" fill="#1a237e" stroke="#424242" stroke-width="1.2""##,
    );
    w.rect(
        x + 6.0,
        y + 6.0,
        cw - 12.0,
        ch - 12.0,
        3.0,
        r##"fill="none" stroke="#c5cae9" stroke-width="1" stroke-dasharray="3 2""##,
    );
    w.text_centred((x + cw / 2.0, y + ch / 2.0), 11.0, "#e8eaf6", "One Day");
}

/// No card: a dashed outline.
fn card_empty(w: &mut Svg, (x, y): (f64, f64), (cw, ch): (f64, f64)) {
    w.rect(
        x,
        y,
        cw,
        ch,
        5.0,
        r##"fill="#fafafa" stroke="#bdbdbd" stroke-width="1" stroke-dasharray="4 3""##,
    );
}

/// One slot of a rack or pile as the viewer sees it.
fn slot(w: &mut Svg, deck: &Deck, s: &RackSlot, at: (f64, f64)) {
    match *s {
        RackSlot::Empty => card_empty(w, at, (CARD_W, CARD_H)),
        RackSlot::Hidden => card_back(w, at, (CARD_W, CARD_H)),
        RackSlot::Card(id) => card_face(w, deck, id, at, (CARD_W, CARD_H)),
    }
}

/// "1 card", "5 cards".
fn cards(n: usize) -> String {
    format!("{n} card{}", if n == 1 { "" } else { "s" })
}

/// The public picture as SVG text: the three face-up discard piles (each
/// its top card, or none, and how many cards it holds), the draw pile face
/// down with its size, and each player's rack as ten slots in order, the
/// cards the viewer may see named, the hidden ones drawn face down.
pub fn oneday_table_svg(
    deck: &Deck,
    piles: &[(Option<CardId>, usize); 3],
    draw_pile: usize,
    racks: &[(String, [RackSlot; 10])],
) -> String {
    let height = MARGIN * 2.0 + 24.0 + ROW_H * (1.0 + racks.len() as f64) + 20.0;
    let mut w = Svg::new(WIDTH, height);
    w.text((MARGIN, MARGIN + 8.0), 16.0, INK, "One Day in London");
    let top = MARGIN + 24.0;
    let x0 = MARGIN + NAME_W;
    let column = |k: usize| x0 + (CARD_W + GAP) * k as f64;
    w.text((MARGIN, top + CARD_H / 2.0 + 5.0), 14.0, INK, "Table");
    for (k, &(card, n)) in piles.iter().enumerate() {
        let s = match card {
            Some(id) => RackSlot::Card(id),
            None => RackSlot::Empty,
        };
        slot(&mut w, deck, &s, (column(k), top));
        let caption = format!("Discard {}: {}", k + 1, cards(n));
        w.text_centred(
            (column(k) + CARD_W / 2.0, top + CARD_H + 12.0),
            11.0,
            GREY,
            &caption,
        );
    }
    let draw = if draw_pile > 0 {
        RackSlot::Hidden
    } else {
        RackSlot::Empty
    };
    slot(&mut w, deck, &draw, (column(4), top));
    let caption = format!("Draw pile: {}", cards(draw_pile));
    w.text_centred(
        (column(4) + CARD_W / 2.0, top + CARD_H + 12.0),
        11.0,
        GREY,
        &caption,
    );
    for (r, (name, rack)) in racks.iter().enumerate() {
        let y = top + ROW_H * (r as f64 + 1.0) + 14.0;
        let size = fit(name, NAME_W - 12.0, 14.0);
        w.text((MARGIN, y + CARD_H / 2.0 + 5.0), size, INK, name);
        for (k, s) in rack.iter().enumerate() {
            w.text_centred(
                (column(k) + CARD_W / 2.0, y - 7.0),
                10.0,
                GREY,
                &(k + 1).to_string(),
            );
            slot(&mut w, deck, s, (column(k), y));
        }
    }
    w.finish()
}

/// The public picture as PNG bytes: what [`png()`] makes of
/// [`oneday_table_svg`].
pub fn oneday_table_png(
    deck: &Deck,
    piles: &[(Option<CardId>, usize); 3],
    draw_pile: usize,
    racks: &[(String, [RackSlot; 10])],
) -> Result<Vec<u8>, PictureError> {
    png(&oneday_table_svg(deck, piles, draw_pile, racks))
}

/// The station of a card, if the deck has the card.
pub(super) fn station_of(deck: &Deck, id: CardId) -> Option<StationIdx> {
    deck.card(id).map(|c| c.station)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The first card of the station named `name`.
    pub(in crate::picture) fn card(deck: &Deck, name: &str) -> CardId {
        let s = deck.find(name).unwrap();
        deck.cards_of(s).next().unwrap().id
    }

    /// Whether `svg` parses as the rasteriser reads it.
    pub(in crate::picture) fn parses(svg: &str) -> bool {
        super::super::raster::tree(svg).is_ok()
    }

    /// Whether `png` is a PNG `width` px wide and more than trivial.
    pub(in crate::picture) fn is_png(png: &[u8], width: f64) -> bool {
        let w = png
            .get(16..20)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 2000 && w == Some(width as u32)
    }

    fn table(deck: &Deck) -> Vec<(String, [RackSlot; 10])> {
        let mut ann = [RackSlot::Hidden; 10];
        ann[0] = RackSlot::Card(card(deck, "Blackfriars"));
        ann[4] = RackSlot::Card(card(deck, "Oxford Circus"));
        let mut bob = [RackSlot::Hidden; 10];
        bob[9] = RackSlot::Card(card(deck, "Edgware Road (Bakerloo)"));
        bob[3] = RackSlot::Empty;
        vec![("Ann".to_string(), ann), ("Bob".to_string(), bob)]
    }

    #[test]
    fn the_table_draws_as_svg_and_png() {
        let deck = Deck::zone1();
        let piles = [
            (Some(card(deck, "Bank")), 3),
            (None, 0),
            (Some(card(deck, "Angel")), 1),
        ];
        let racks = table(deck);
        let svg = oneday_table_svg(deck, &piles, 41, &racks);
        assert!(parses(&svg), "{svg}");
        for text in [
            "Blackfriars",
            "Oxford Circus",
            "Bank",
            "Angel",
            ">Ann<",
            ">Bob<",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(svg.contains("Discard 1: 3 cards") && svg.contains("Discard 2: 0 cards"));
        assert!(svg.contains("Draw pile: 41 cards"));
        // Ann's eight hidden cards, Bob's eight, the draw pile's back.
        assert_eq!(svg.matches(r#"class="hidden""#).count(), 17);
        assert!(is_png(
            &oneday_table_png(deck, &piles, 41, &racks).unwrap(),
            WIDTH
        ));
    }

    #[test]
    fn a_hidden_slot_never_names_its_station() {
        let deck = Deck::zone1();
        // What the hidden slots hold: the table is never told.
        let secret = [
            "Temple",
            "Lambeth North",
            "Southwark",
            "Pimlico",
            "Moorgate",
        ];
        let racks = table(deck);
        let svg = oneday_table_svg(deck, &[(None, 0); 3], 0, &racks);
        assert!(parses(&svg));
        for name in secret {
            assert!(!svg.contains(name), "{name}");
        }
        // The same names shown face up are written.
        let mut open = [RackSlot::Empty; 10];
        for (k, name) in secret.iter().enumerate() {
            open[k] = RackSlot::Card(card(deck, name));
        }
        let svg = oneday_table_svg(deck, &[(None, 0); 3], 0, &[("Cy".into(), open)]);
        for name in secret {
            assert!(svg.contains(name), "{name}");
        }
    }

    #[test]
    fn names_wrap_between_words() {
        assert_eq!(
            wrap("King's Cross St. Pancras", 16),
            ["King's Cross St.", "Pancras"]
        );
        assert_eq!(wrap("Bank", 3), ["Bank"]);
        assert!(fit("a long name indeed", 40.0, 12.0) < 12.0);
    }
}
