//! The state document (what a verdict mails the lounge): the grid, the
//! pawns, the table, the bag, and whose turn and step it is. Every line
//! is at most [`WIDTH`] columns.

use super::board::{Coin, Square};
use super::state::{seat, Ending, State};

pub use super::order::canonical;

/// The widest line the state document writes.
pub const WIDTH: usize = 72;

/// What one square shows: its top coin and height (`M3`), then the seats
/// of the pawns on it after `@` (`M3@1`); `.` for nothing.
pub fn cell(state: &State, sq: Square) -> String {
    let stack = state.stack(sq);
    let mut out = match stack.top() {
        Some(c) => format!("{c}{}", stack.height()),
        None => String::new(),
    };
    let seats: String = state
        .pawns_at(sq)
        .map(|i| char::from(b'0' + state.pawns[i].seat))
        .collect();
    if !seats.is_empty() {
        if out.len() + 1 + seats.len() > 6 {
            out.push_str("@+");
        } else {
            out.push('@');
            out.push_str(&seats);
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// Words wrapped at [`WIDTH`], later lines indented by `indent`.
fn wrap(text: &str, indent: &str) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("a line");
        if !last.trim().is_empty() && last.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(format!("{indent}{word}"));
        } else {
            if !last.trim().is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

/// The status line: who acts next and for what, or how the game ended.
pub fn status(state: &State, deadline: Option<&str>) -> String {
    let by = deadline.map_or(String::new(), |d| format!(", by {d}"));
    let names = |v: &[usize]| {
        v.iter()
            .map(|&i| state.pawns[i].name.as_str())
            .collect::<Vec<_>>()
            .join(" and ")
    };
    match state.ending {
        Some(Ending::Goal) => {
            let w = &state.pawns[state.winners[0]];
            format!("Game over: {} reached {} and wins.", w.name, w.goal())
        }
        Some(e) => format!(
            "Game over by the tie-break of EFAQ 3 (MR12), as {e}: {} {}.",
            names(&state.winners),
            if state.winners.len() == 1 {
                "wins"
            } else {
                "share the win"
            }
        ),
        None => match state.open {
            Some(o) => format!(
                "Next: {}, second action ({} taken; one more action or end){by}.",
                state.current().name,
                o.actions
            ),
            None => format!(
                "Next: {}, turn {} (up to two actions, pass or end){by}.",
                state.current().name,
                state.turn_number()
            ),
        },
    }
}

/// The state document; `deadline` is the caller's text for when the next
/// order is due.
pub fn document(state: &State, deadline: Option<&str>) -> String {
    let mut out: Vec<String> = Vec::new();
    out.push(format!(
        "Money Run (money-run), after {} turn{}",
        state.turns,
        if state.turns == 1 { "" } else { "s" }
    ));
    out.extend(wrap(
        "House ruling MR2 (the seed's setup image is lost, so this is a reconstruction): \
         seat 1 starts on e1 for row 9, seat 2 on e9 for row 1, seat 3 on a5 for column i, \
         seat 4 on i5 for column a.",
        "  ",
    ));
    out.extend(wrap(&status(state, deadline), "  "));
    out.push(String::new());
    let mut head = String::from("  ");
    for c in 0..9u8 {
        head.push_str(&format!("{:<7}", (b'a' + c) as char));
    }
    out.push(head.trim_end().to_string());
    for row in (0..9u8).rev() {
        let mut line = format!("{} ", row + 1);
        for col in 0..9u8 {
            let sq = Square::new(col, row).expect("on the board");
            line.push_str(&format!("{:<7}", cell(state, sq)));
        }
        out.push(line.trim_end().to_string());
    }
    out.push("Each square: top coin and height (M3); @ and seats: pawns (@1).".into());
    out.push(String::new());
    out.push("Pawns, in order of play".into());
    let col = state
        .pawns
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    for &i in &state.order {
        let p = &state.pawns[i];
        let name: String = p.name.chars().take(24).collect();
        let goal = p.goal();
        out.push(format!(
            "  {} {name:<col$}  {}, height {}; from {} to {}, {} to go",
            p.seat,
            p.at,
            state.stack(p.at).height(),
            seat(p.seat).0,
            goal,
            goal.distance(p.at)
        ));
    }
    out.push(String::new());
    out.push(format!(
        "Table: {}",
        super::judge::table_words(&state.table)
    ));
    let bag: Vec<String> = Coin::ALL
        .iter()
        .map(|c| format!("{} {}", state.bag[c.index()], c.letter()))
        .collect();
    out.push(format!(
        "Bag: {} ({} coins; drawn so far: {})",
        bag.join(", "),
        state.bag_total(),
        state.bag_draws
    ));
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::moneyrun::{Rulings, Stack};

    #[test]
    fn the_document_fits_72_columns_and_says_the_house_ruling() {
        let names: Vec<String> = ["Annabel Longname-Smythe", "Bob", "Cy", "Di"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut zero = |_: u64, _: &str, _: u32| 0;
        let (mut s, _) = State::start(&names, Rulings::default(), &mut zero).unwrap();
        *s.stack_mut(Square::parse("e2").unwrap()) = Stack::parse("LLLLLMMMMMM").unwrap();
        s.pawns[0].at = Square::parse("e2").unwrap();
        s.pawns[1].at = Square::parse("e2").unwrap();
        let d = document(&s, Some("2026-11-20 10:00 UTC"));
        for l in d.lines() {
            assert!(l.chars().count() <= WIDTH, "{l:?}");
        }
        assert!(d.contains("House ruling MR2"), "{d}");
        assert!(d.contains("M11@12"), "{d}");
        assert!(d.contains("Table: L L L L L"), "{d}");
        assert!(d.contains("Bag: 0 L, 10 M, 12 S, 15 P (37 coins"), "{d}");
    }
}
