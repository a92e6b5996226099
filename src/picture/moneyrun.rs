//! A Money Run game drawn as its board ([`moneyrun_svg`],
//! [`moneyrun_png`]): the 9x9 squares with their coordinates, each stack
//! as a disc sized by its top coin with the coin's letter and the height,
//! each pawn as a disc in its player's colour with the seat, the start
//! squares ringed and the goal lines tinted, and a panel below with who
//! acts next, the pawns, the table and the bag. The start squares and
//! goals are a house ruling (RULINGS MR2), and the panel says so.

use super::writer::Svg;
use super::{png, PictureError};
use crate::kinds::moneyrun::render::status;
use crate::kinds::moneyrun::state::seat;
use crate::kinds::moneyrun::{Coin, Goal, Square, State};

/// Players' colours, by seat (as the other pictures' first four).
const COLOURS: [&str; 4] = ["#d81b60", "#5e35b1", "#2e7d32", "#ef6c00"];
const CELL: f64 = 64.0;
const MARGIN: f64 = 32.0;
const WIDTH: f64 = MARGIN * 2.0 + CELL * 9.0;
const LEADING: f64 = 20.0;

fn colour(seat: u8) -> &'static str {
    COLOURS[usize::from(seat.saturating_sub(1)) % 4]
}

/// The top-left corner of a square (row 9 at the top).
fn corner(sq: Square) -> (f64, f64) {
    (
        MARGIN + CELL * f64::from(sq.col()),
        MARGIN + CELL * f64::from(8 - sq.row()),
    )
}

fn centre(sq: Square) -> (f64, f64) {
    let (x, y) = corner(sq);
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// The panel's lines below the board.
fn panel(state: &State) -> Vec<String> {
    let mut lines = vec![status(state, None)];
    for &i in &state.order {
        let p = &state.pawns[i];
        lines.push(format!(
            "{} (seat {}): {}, height {}; to {}, {} to go",
            p.name,
            p.seat,
            p.at,
            state.stack(p.at).height(),
            p.goal(),
            p.goal().distance(p.at)
        ));
    }
    lines.push(format!(
        "Table: {}",
        crate::kinds::moneyrun::judge::table_words(&state.table)
    ));
    let bag: Vec<String> = Coin::ALL
        .iter()
        .map(|c| format!("{} {}", state.bag[c.index()], c.letter()))
        .collect();
    lines.push(format!(
        "Bag: {} ({} coins)",
        bag.join(", "),
        state.bag_total()
    ));
    lines.push("Start squares and goals: house ruling MR2 (the seed's image is lost).".into());
    lines
}

/// The picture of a Money Run state as SVG text.
pub fn moneyrun_svg(state: &State) -> String {
    let lines = panel(state);
    let board = MARGIN * 2.0 + CELL * 9.0;
    let height = board + LEADING * (lines.len() as f64 + 0.5);
    let mut w = Svg::new(WIDTH, height);
    draw_squares(&mut w, state);
    for sq in Square::all() {
        let s = state.stack(sq);
        let Some(top) = s.top() else { continue };
        let r = [27.0, 23.0, 19.0, 15.0][top.index()];
        let fill = ["#b8860b", "#c0c0c0", "#cd7f32", "#8d6e63"][top.index()];
        w.circle(
            centre(sq),
            r,
            &format!(r##"fill="{fill}" stroke="#424242" stroke-width="1.5""##),
        );
        w.text_centred(
            centre(sq),
            13.0,
            "#000000",
            &format!("{}{}", top.letter(), s.height()),
        );
    }
    for p in &state.pawns {
        let (x, y) = corner(p.at);
        let k = f64::from(p.seat - 1);
        let at = (
            x + 10.0 + (k % 2.0) * 44.0,
            y + 10.0 + (k / 2.0).floor() * 44.0,
        );
        w.circle(
            at,
            9.0,
            &format!(
                r##"fill="{}" stroke="#ffffff" stroke-width="1.5""##,
                colour(p.seat)
            ),
        );
        w.text_centred(at, 11.0, "#ffffff", &p.seat.to_string());
    }
    for (k, text) in lines.iter().enumerate() {
        w.text((MARGIN, board + LEADING * k as f64), 13.0, "#212121", text);
    }
    w.finish()
}

/// Squares, goal tints, start rings and coordinates.
fn draw_squares(w: &mut Svg, state: &State) {
    for sq in Square::all() {
        let (x, y) = corner(sq);
        let light = (sq.col() + sq.row()) % 2 == 0;
        let fill = if light { "#f5f0e1" } else { "#e0d6bd" };
        w.rect(x, y, CELL, CELL, 0.0, &format!(r##"fill="{fill}""##));
    }
    for p in &state.pawns {
        let (start, goal) = seat(p.seat);
        let (x, y) = corner(start);
        w.rect(
            x + 2.0,
            y + 2.0,
            CELL - 4.0,
            CELL - 4.0,
            4.0,
            &format!(
                r##"fill="none" stroke="{}" stroke-width="2" stroke-dasharray="5 3""##,
                colour(p.seat)
            ),
        );
        let (gx, gy, gw, gh) = match goal {
            Goal::Row(r) => (MARGIN, MARGIN + CELL * f64::from(8 - r), CELL * 9.0, CELL),
            Goal::Column(c) => (MARGIN + CELL * f64::from(c), MARGIN, CELL, CELL * 9.0),
        };
        w.rect(
            gx,
            gy,
            gw,
            gh,
            0.0,
            &format!(r##"fill="{}" fill-opacity="0.10""##, colour(p.seat)),
        );
    }
    for k in 0..9u8 {
        let x = MARGIN + CELL * (f64::from(k) + 0.5);
        let letter = char::from(b'a' + k).to_string();
        w.text_centred((x, MARGIN / 2.0), 13.0, "#616161", &letter);
        w.text_centred((x, MARGIN * 1.5 + CELL * 9.0), 13.0, "#616161", &letter);
        let y = MARGIN + CELL * (8.5 - f64::from(k));
        w.text_centred((MARGIN / 2.0, y), 13.0, "#616161", &(k + 1).to_string());
        w.text_centred(
            (WIDTH - MARGIN / 2.0, y),
            13.0,
            "#616161",
            &(k + 1).to_string(),
        );
    }
}

/// The picture of a Money Run state as PNG bytes.
pub fn moneyrun_png(state: &State) -> Result<Vec<u8>, PictureError> {
    png(&moneyrun_svg(state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::moneyrun::Rulings;

    #[test]
    fn the_board_draws_as_svg_and_png() {
        let names: Vec<String> = ["Ann", "Bob", "Cy"].iter().map(|s| s.to_string()).collect();
        let mut zero = |_: u64, _: &str, _: u32| 0;
        let (mut s, _) = State::start(&names, Rulings::default(), &mut zero).unwrap();
        s.board[40].push(Coin::Medium);
        let svg = moneyrun_svg(&s);
        assert!(svg.contains(">M1<"), "{svg}");
        assert!(svg.contains("house ruling MR2"));
        let png = moneyrun_png(&s).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
