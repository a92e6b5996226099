//! The bot's own dice, auditable (issue 16, RULINGS S14): pure, no IO, no
//! clock, no OS randomness (the daemon brings the seed).
//!
//! Each game has a secret 32-byte [`Seed`]. Its [`commitment`], the
//! lower-case hex SHA-256 of the seed's 32 bytes, is published in the
//! lounge when the game is first recorded; the seed itself is revealed when
//! the game ends. Every draw is a function of (seed, game tag, turn number,
//! draw name, sides), so anyone holding the revealed seed recomputes every
//! roll, and the published commitment shows the seed was fixed before the
//! first roll.
//!
//! # The layout of a draw
//!
//! For attempt `counter = 0, 1, 2, ...` the message is the bytes
//!
//! ```text
//! "mornbot-dice-v1" 0x00                 16 bytes, the domain
//! u32 big-endian  len(game)  game        the game's tag, UTF-8 ("MN1")
//! u64 big-endian  turn                   the turn the draw belongs to
//! u32 big-endian  len(name)  name        the draw's name, UTF-8 ("holiday")
//! u32 big-endian  sides                  how many faces (at least 1)
//! u32 big-endian  counter                0 for the first attempt
//! ```
//!
//! `h = HMAC-SHA-256(key = seed, message)`; `x` is `h`'s first 8 bytes read
//! as an unsigned big-endian number. With `limit = 2^64 - (2^64 mod
//! sides)`, an `x >= limit` is rejected (the next counter is tried: no
//! modulo bias; with a die of 6 faces a rejection comes once in 2^62
//! draws), and the value is `x mod sides + 1`, a face from 1 to `sides`.
//! `scripts/verify_dice.py` is the same in twenty lines of Python.
//!
//! ```
//! use mornbot::dice::{self, Seed};
//!
//! let seed = Seed::from_bytes([0; 32]);
//! assert_eq!(
//!     dice::commitment(&seed),
//!     "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
//! );
//! let d = dice::draw(&seed, "MN1", 1, "holiday", 6).unwrap();
//! assert_eq!(d.value, 6);
//! assert_eq!(dice::check(&seed, &d), Ok(()));
//! ```

pub mod verify;

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The domain separator that starts every draw's message.
pub const DOMAIN: &[u8; 16] = b"mornbot-dice-v1\0";

/// The name of the Upcoming Holiday's d6 (Rule 1.13.7).
pub const HOLIDAY: &str = "holiday";

/// The names of the two d295 of `[Courier Call (Random)]` (Rule 1.11.2):
/// the Pick-Up Station's, then the Destination's.
pub const COURIER_PICKUP: &str = "courier-pickup";
/// See [`COURIER_PICKUP`].
pub const COURIER_DESTINATION: &str = "courier-destination";

/// The name of `[Gold Rush]`'s d295 (Rule 1.7.47).
pub const GOLD_RUSH: &str = "gold-rush";

/// The name of the d295 the placer of the PoID rolls after each of eir
/// Turns while it rests at Mornington Crescent (Rule 1.4.24).
pub const POID_MC: &str = "poid-mc";

/// The name of `[Finding]`'s d100, or d20 at Paddington (Rule 1.7.53).
pub const FINDING: &str = "finding";

/// The name of the `k`-th (1 to 6) die of `[fFrobisher fFlourish]` (Rule
/// 1.7.59).
pub fn frobisher_draw_name(k: usize) -> String {
    format!("frobisher-{k}")
}

/// The name of the Referee draw of Rule 1.16.4 for attempt `attempt` (0
/// for the first Referee, then one more for each who declined or lapsed).
pub fn referee_draw_name(attempt: usize) -> String {
    format!("referee-{attempt}")
}

/// A dice failure: bad input, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// A die needs at least one face.
    #[error("a die needs at least one face (sides = 0)")]
    NoSides,
    /// A seed written in hex that is not 64 hex digits.
    #[error("a seed is 64 hex digits (32 bytes): {0}")]
    BadSeed(String),
}

/// A game's secret seed: 32 bytes. Its `Debug` never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

impl std::fmt::Debug for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seed(commitment {})", commitment(self))
    }
}

impl Seed {
    /// The seed of these bytes (from the OS at the daemon's edge, or a
    /// test's fixed value).
    pub fn from_bytes(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    /// Reads a seed written as 64 hex digits (either case, surrounding
    /// white space ignored), as the reveal prints it.
    ///
    /// # Errors
    ///
    /// [`DiceError::BadSeed`] for anything else.
    pub fn from_hex(text: &str) -> Result<Seed, DiceError> {
        let t = text.trim();
        let bad = || DiceError::BadSeed(format!("{:?}", t.chars().take(80).collect::<String>()));
        if t.len() != 64 || !t.is_ascii() {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&t[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Seed(out))
    }

    /// The seed as 64 lower-case hex digits (for the database and the
    /// reveal only).
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// The seed's 32 bytes (a key for the lobby's tokens; never shown).
    pub fn bytes(&self) -> [u8; 32] {
        self.0
    }
}

/// Lower-case hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The published commitment to `seed`: the lower-case hex SHA-256 of its
/// 32 bytes.
pub fn commitment(seed: &Seed) -> String {
    hex(&Sha256::digest(seed.0))
}

/// Whether `seed` is the one `published` committed to (hex, either case).
pub fn matches_commitment(seed: &Seed, published: &str) -> bool {
    commitment(seed).eq_ignore_ascii_case(published.trim())
}

/// One draw: where it belongs and the face it gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// The game's tag.
    pub game: String,
    /// The turn it belongs to.
    pub turn: u64,
    /// Its name (`holiday`, `referee-0`, ...).
    pub name: String,
    /// The die's faces.
    pub sides: u32,
    /// The face drawn, `1..=sides`.
    pub value: u32,
}

impl Draw {
    /// How a verdict states it: `d6 "holiday" of MN1 turn 4 = 3`.
    pub fn describe(&self) -> String {
        format!(
            "d{} \"{}\" of {} turn {} = {}",
            self.sides, self.name, self.game, self.turn, self.value
        )
    }
}

/// The message HMAC'd for attempt `counter` of a draw (the layout in the
/// module's documentation).
pub fn message(game: &str, turn: u64, name: &str, sides: u32, counter: u32) -> Vec<u8> {
    let mut m = Vec::with_capacity(DOMAIN.len() + game.len() + name.len() + 24);
    m.extend_from_slice(DOMAIN);
    m.extend_from_slice(&len32(game).to_be_bytes());
    m.extend_from_slice(game.as_bytes());
    m.extend_from_slice(&turn.to_be_bytes());
    m.extend_from_slice(&len32(name).to_be_bytes());
    m.extend_from_slice(name.as_bytes());
    m.extend_from_slice(&sides.to_be_bytes());
    m.extend_from_slice(&counter.to_be_bytes());
    m
}

/// A length as the layout writes it (a longer text is cut to fit, which no
/// tag or name comes near).
fn len32(s: &str) -> u32 {
    u32::try_from(s.len()).unwrap_or(u32::MAX)
}

/// HMAC-SHA-256 of `message` keyed with `seed`.
fn mac(seed: &Seed, message: &[u8]) -> [u8; 32] {
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(&seed.0).expect("HMAC takes any key length");
    m.update(message);
    m.finalize().into_bytes().into()
}

/// The face `x` gives on a die of `sides`, or `None` when `x` falls in the
/// biased tail (`x >= 2^64 - (2^64 mod sides)`) and must be redrawn.
pub fn accept(x: u64, sides: u32) -> Option<u32> {
    let n = u64::from(sides.max(1));
    let tail = n.wrapping_neg() % n; // 2^64 mod n
                                     // 2^64 - tail is the first rejected output; tail = 0 rejects none.
    if tail != 0 && x >= tail.wrapping_neg() {
        return None;
    }
    Some(u32::try_from(x % n).expect("below sides") + 1)
}

/// Draws a die of `sides` faces for (`game`, `turn`, `name`) from `seed`.
///
/// # Errors
///
/// [`DiceError::NoSides`] when `sides` is 0.
pub fn draw(seed: &Seed, game: &str, turn: u64, name: &str, sides: u32) -> Result<Draw, DiceError> {
    if sides == 0 {
        return Err(DiceError::NoSides);
    }
    let mut counter = 0u32;
    let value = loop {
        let h = mac(seed, &message(game, turn, name, sides, counter));
        let x = u64::from_be_bytes(h[..8].try_into().expect("8 bytes"));
        if let Some(v) = accept(x, sides) {
            break v;
        }
        // Each attempt is rejected with probability below 1/2: the loop
        // ends long before the counter could wrap.
        counter = counter.wrapping_add(1);
    };
    Ok(Draw {
        game: game.to_string(),
        turn,
        name: name.to_string(),
        sides,
        value,
    })
}

/// Checks a recorded draw against `seed`: `Ok` when recomputing gives the
/// same face, else the face it should have been (0 for a die of no faces).
///
/// # Errors
///
/// The value the seed gives, when the record says otherwise.
pub fn check(seed: &Seed, recorded: &Draw) -> Result<(), u32> {
    match draw(
        seed,
        &recorded.game,
        recorded.turn,
        &recorded.name,
        recorded.sides,
    ) {
        Ok(d) if d.value == recorded.value => Ok(()),
        Ok(d) => Err(d.value),
        Err(_) => Err(0),
    }
}

#[cfg(test)]
mod tests;
