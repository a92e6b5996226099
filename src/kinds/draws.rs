//! Draws inside a game (issue 42): a kind that needs chance (a coin from a
//! bag, a shuffled deck) asks for it by name, at its place in the log, and
//! the value comes in from outside. The daemon answers from the game's
//! committed seed (`crate::dice::draw`, the same draws as Volume 1's dice,
//! recorded and recomputed by `mornbot verify-dice` once the seed is
//! revealed); a replay asks again and gets the same values, so an open turn
//! resumed after a restart never draws anew. The pure core never draws for
//! itself.

/// The source of a game's named draws.
pub trait Draws {
    /// The draw `name` at turn `turn` of the game as an index, in
    /// `0..sides`: face k of the die (`1..=sides`, as the dice and
    /// `verify-dice` write it) is index k - 1, the k-th of what is drawn
    /// from. `None` when there is no source (a game without dice).
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32>;
}

/// No source of draws: every ask is answered `None` (a kind that needs a
/// draw then refers the order to a person; no kind guesses a value).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDraws;

impl Draws for NoDraws {
    fn draw(&mut self, _turn: u64, _name: &str, _sides: u32) -> Option<u32> {
        None
    }
}

impl<F: FnMut(u64, &str, u32) -> Option<u32>> Draws for F {
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32> {
        self(turn, name, sides)
    }
}

/// Draws answered from their records (turn, name, sides, face), as the
/// store keeps them (the face `1..=sides`, answered as the index face - 1):
/// how a game is replayed where its seed is not at hand (the web archive).
/// A draw not recorded is `None`.
#[derive(Clone, Debug, Default)]
pub struct Recorded(pub Vec<(u64, String, u32, u32)>);

impl Draws for Recorded {
    fn draw(&mut self, turn: u64, name: &str, sides: u32) -> Option<u32> {
        self.0
            .iter()
            .find(|(t, n, s, _)| *t == turn && n == name && *s == sides)
            .and_then(|r| r.3.checked_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_draws_answers_nothing_and_a_closure_answers_its_values() {
        assert_eq!(NoDraws.draw(0, "bag-1", 42), None);
        let mut asked = Vec::new();
        let mut f = |turn: u64, name: &str, sides: u32| {
            asked.push((turn, name.to_string(), sides));
            Some(sides - 1)
        };
        assert_eq!(Draws::draw(&mut f, 3, "bag-6", 37), Some(36));
        assert_eq!(asked, [(3, "bag-6".to_string(), 37)]);
    }

    #[test]
    fn recorded_draws_answer_only_what_was_recorded() {
        let mut r = Recorded(vec![(0, "bag-1".into(), 42, 7)]);
        assert_eq!(r.draw(0, "bag-1", 42), Some(6), "face 7 is index 6");
        assert_eq!(r.draw(1, "bag-1", 42), None, "another turn");
        assert_eq!(r.draw(0, "bag-1", 41), None, "another die");
        assert_eq!(r.draw(0, "bag-2", 42), None);
    }
}
