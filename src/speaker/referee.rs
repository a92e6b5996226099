//! The Referee draw of Rule 1.16.4, reproducible from a recorded seed.
//!
//! "If a Buzz is taken to Judgment, the Speaker shall randomly select a Player
//! from the set of Active Players, excluding the Buzzed and Buzzing Player, to
//! act as Referee. If this Player declines, or if e passes no Judgment within
//! three days of being selected, another Referee should be selected at random."
//!
//! The draw is pure: the randomness comes in as a `u64` seed, derived from the
//! Message-ID of the mail that took the Buzz to Judgment and the number of the
//! attempt ([`seed_from`]). The database records the seed with the draw, so a
//! restart, or anyone checking the Speaker, re-derives the seed and gets the
//! same Referee (RULINGS S8). A game with the bot's dice (RULINGS S14)
//! draws its Referee from them instead ([`sorted_candidates`],
//! [`referee_by_face`]); this draw remains for games without dice and for
//! the draws recorded before them:
//!
//! ```
//! use mornbot::speaker::referee::{draw_referee, eligible_referees, seed_from};
//!
//! let active: Vec<String> = ["Ann", "Bob", "Cat", "Dan", "Drone"].map(String::from).into();
//! let pool = eligible_referees(&active, "Ann", "Bob", &[]);
//! assert_eq!(pool, ["Cat", "Dan"]);
//! let seed = seed_from("<buzz-42@example.org>", 0);
//! let referee = draw_referee(&pool, seed).unwrap();
//! assert_eq!(draw_referee(&pool, seed), Some(referee.clone()));
//!
//! // Cat or Dan declines: the next attempt draws from those left.
//! let pool = eligible_referees(&active, "Ann", "Bob", &[referee]);
//! assert_eq!(pool.len(), 1);
//! assert!(draw_referee(&pool, seed_from("<buzz-42@example.org>", 1)).is_some());
//! ```

/// The name of the Drone (Rule 1.15.1), who never referees.
pub const DRONE: &str = "Drone";

/// The Players a Referee may be drawn from for one Buzz (Rule 1.16.4): the
/// Active Players except the Buzzed Player, the Buzzing Player, the Drone
/// (Rule 1.15.1) and everyone in `tried` (those who already declined or let
/// three days pass for this Buzz), in the order given, without repeats.
///
/// Names are compared exactly, as written in the Token Table. An empty result
/// means no Referee is available and the Game is put on hold (RULINGS S8).
pub fn eligible_referees(
    active: &[String],
    buzzed: &str,
    buzzing: &str,
    tried: &[String],
) -> Vec<String> {
    let mut pool: Vec<String> = Vec::new();
    for name in active {
        let excluded = name == buzzed
            || name == buzzing
            || name == DRONE
            || tried.contains(name)
            || pool.contains(name);
        if !excluded {
            pool.push(name.clone());
        }
    }
    pool
}

/// Draws the Referee uniformly at random from `candidates` (Rule 1.16.4),
/// reproducibly from `seed`; `None` when there are no candidates.
///
/// The algorithm, fixed so that a recorded seed always gives the same Referee:
/// 1. the candidates are sorted by their UTF-8 bytes and repeats dropped, so
///    the order in which the caller lists them does not matter;
/// 2. a SplitMix64 generator (Steele, Lea and Flood 2014; state advanced by
///    `0x9E3779B97F4A7C15`, output mixed by the `0xBF58476D1CE4E5B9` /
///    `0x94D049BB133111EB` finaliser) starts from state `seed`;
/// 3. with `n` candidates, outputs below `2^64 mod n` are rejected and the
///    first accepted output `x` picks candidate `x mod n` of the sorted list.
///    Every candidate is equally likely; with few candidates a rejection
///    almost never happens.
pub fn draw_referee(candidates: &[String], seed: u64) -> Option<String> {
    let mut pool: Vec<&String> = candidates.iter().collect();
    pool.sort();
    pool.dedup();
    if pool.is_empty() {
        return None;
    }
    let n = u64::try_from(pool.len()).expect("a candidate count fits in 64 bits");
    let index = SplitMix64::new(seed).below(n);
    let index = usize::try_from(index).expect("below the candidate count");
    Some(pool[index].clone())
}

/// The candidates as a die numbers them (RULINGS S14): sorted by their
/// UTF-8 bytes, repeats dropped, so the order the caller lists them in does
/// not matter; face `k` is the `k`-th.
pub fn sorted_candidates(candidates: &[String]) -> Vec<String> {
    let mut pool = candidates.to_vec();
    pool.sort();
    pool.dedup();
    pool
}

/// The Referee a die's `face` (1-based) names among `sorted` (as
/// [`sorted_candidates`] orders them); `None` for a face off the die.
pub fn referee_by_face(sorted: &[String], face: u32) -> Option<String> {
    let i = usize::try_from(face).ok()?.checked_sub(1)?;
    sorted.get(i).cloned()
}

/// The seed of attempt `attempt` (0 for the first draw, 1 after the first
/// Referee declined or timed out, ...) of the Referee draw for the Buzz taken
/// to Judgment by the mail `message_id` (RULINGS S8).
///
/// 64-bit FNV-1a (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`)
/// over the bytes of `message_id`, with surrounding white space and one pair
/// of enclosing angle brackets removed (`<a@b>` and `a@b` give the same seed),
/// followed by the four bytes of `attempt`, little-endian. A restart
/// re-derives the same seed from the stored Message-ID.
pub fn seed_from(message_id: &str, attempt: u32) -> u64 {
    let id = message_id.trim();
    let id = id
        .strip_prefix('<')
        .and_then(|rest| rest.strip_suffix('>'))
        .unwrap_or(id);
    fnv1a64(id.bytes().chain(attempt.to_le_bytes()))
}

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// 64-bit FNV-1a of a byte sequence.
fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(FNV_OFFSET_BASIS, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// SplitMix64: a tiny, well-mixed generator, plenty for drawing a Referee.
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), by rejecting the `2^64 mod n`
    /// lowest outputs so that every residue is hit equally often.
    fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "drawing from nothing");
        let threshold = n.wrapping_neg() % n; // 2^64 mod n
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splitmix64_reference_outputs() {
        // Seed 0: the first output widely published for SplitMix64.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        let mut rng = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
        assert_eq!(
            got,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }

    #[test]
    fn fnv1a64_reference_vectors() {
        assert_eq!(fnv1a64(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(*b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn seed_is_fnv1a_of_the_id_then_the_attempt() {
        let mut bytes = b"buzz-42@example.org".to_vec();
        bytes.extend_from_slice(&[3, 0, 0, 0]);
        assert_eq!(seed_from("buzz-42@example.org", 3), fnv1a64(bytes));
        assert_eq!(seed_from("", 0), fnv1a64([0, 0, 0, 0]));
    }

    #[test]
    fn seed_ignores_angle_brackets_and_white_space() {
        let plain = seed_from("buzz-42@example.org", 0);
        assert_eq!(seed_from("<buzz-42@example.org>", 0), plain);
        assert_eq!(seed_from("  <buzz-42@example.org>\r\n", 0), plain);
        assert_ne!(seed_from("<buzz-42@example.org", 0), plain);
    }

    #[test]
    fn seed_changes_with_attempt_and_id() {
        let a = seed_from("<m1@x>", 0);
        assert_ne!(a, seed_from("<m1@x>", 1));
        assert_ne!(a, seed_from("<m2@x>", 0));
        assert_eq!(a, seed_from("<m1@x>", 0));
    }

    #[test]
    fn seed_golden_values() {
        // Recorded seeds must keep reproducing: these values never change.
        assert_eq!(seed_from("", 0), 0x4d25_767f_9dce_13f5);
        assert_eq!(seed_from("<buzz-42@example.org>", 0), 0x6980_7308_68cb_11e7);
        assert_eq!(seed_from("<buzz-42@example.org>", 1), 0xc985_c700_1295_5556);
    }

    #[test]
    fn draw_golden_values() {
        // Recorded draws must keep reproducing: these values never change.
        let pool = names(&["Cat", "Dan", "Eve", "Fay"]);
        let got: Vec<String> = (0..8)
            .map(|seed| draw_referee(&pool, seed).unwrap())
            .collect();
        assert_eq!(
            got,
            names(&["Fay", "Dan", "Eve", "Dan", "Eve", "Eve", "Cat", "Fay"])
        );
    }

    #[test]
    fn faces_name_the_sorted_candidates() {
        let sorted = sorted_candidates(&names(&["Eve", "Cat", "Dan", "Cat"]));
        assert_eq!(sorted, names(&["Cat", "Dan", "Eve"]));
        assert_eq!(referee_by_face(&sorted, 1), Some("Cat".into()));
        assert_eq!(referee_by_face(&sorted, 3), Some("Eve".into()));
        assert_eq!(referee_by_face(&sorted, 0), None);
        assert_eq!(referee_by_face(&sorted, 4), None);
    }

    #[test]
    fn no_candidates_no_referee() {
        assert_eq!(draw_referee(&[], 7), None);
    }

    #[test]
    fn one_candidate_is_always_drawn() {
        let pool = names(&["Cat"]);
        for seed in [0, 1, u64::MAX, 0xdead_beef] {
            assert_eq!(draw_referee(&pool, seed), Some("Cat".to_string()));
        }
    }

    #[test]
    fn repeats_do_not_weigh_the_draw() {
        let with_repeats = names(&["Cat", "Dan", "Cat", "Cat"]);
        let plain = names(&["Cat", "Dan"]);
        for seed in 0..200 {
            assert_eq!(
                draw_referee(&with_repeats, seed),
                draw_referee(&plain, seed)
            );
        }
    }

    #[test]
    fn draw_is_uniform_over_many_seeds() {
        let pool = names(&["Ann", "Bob", "Cat", "Dan", "Eve"]);
        let mut counts = [0u32; 5];
        for seed in 0..50_000u64 {
            let name = draw_referee(&pool, seed).unwrap();
            counts[pool.iter().position(|p| *p == name).unwrap()] += 1;
        }
        for c in counts {
            assert!((9_500..=10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn draw_from_derived_seeds_is_uniform_too() {
        let pool = names(&["Ann", "Bob", "Cat"]);
        let mut counts = [0u32; 3];
        for i in 0..30_000u32 {
            let seed = seed_from(&format!("<m{i}@lounge.example>"), 0);
            let name = draw_referee(&pool, seed).unwrap();
            counts[pool.iter().position(|p| *p == name).unwrap()] += 1;
        }
        for c in counts {
            assert!((9_500..=10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn below_rejects_the_biased_low_outputs() {
        // n = 2^63 + 1: outputs below 2^63 - 1 are rejected, about half.
        let n = (1u64 << 63) + 1;
        let threshold = n.wrapping_neg() % n;
        assert_eq!(threshold, (1u64 << 63) - 1);
        let seed = (0..100u64)
            .find(|&s| SplitMix64::new(s).next_u64() < threshold)
            .expect("some seed's first output is rejected");
        let mut raw = SplitMix64::new(seed);
        let accepted = std::iter::from_fn(|| Some(raw.next_u64()))
            .find(|&x| x >= threshold)
            .unwrap();
        assert_eq!(SplitMix64::new(seed).below(n), accepted % n);
    }

    #[test]
    fn below_powers_of_two_never_reject() {
        for n in [1u64, 2, 4, 1 << 40] {
            assert_eq!(n.wrapping_neg() % n, 0);
            let mut a = SplitMix64::new(9);
            let mut b = SplitMix64::new(9);
            assert_eq!(a.below(n), b.next_u64() % n);
        }
    }

    #[test]
    fn eligible_referees_exclude_the_parties_the_drone_and_those_tried() {
        let active = names(&["Ann", "Bob", "Drone", "Cat", "Dan", "Eve", "Cat"]);
        assert_eq!(
            eligible_referees(&active, "Bob", "Dan", &[]),
            names(&["Ann", "Cat", "Eve"])
        );
        assert_eq!(
            eligible_referees(&active, "Bob", "Dan", &names(&["Cat", "Ann"])),
            names(&["Eve"])
        );
        assert!(
            eligible_referees(&active, "Bob", "Dan", &names(&["Ann", "Cat", "Eve"])).is_empty()
        );
    }

    #[test]
    fn eligible_referees_compare_names_exactly() {
        let active = names(&["Ann", "ann", "drone"]);
        assert_eq!(
            eligible_referees(&active, "Ann", "Bob", &[]),
            names(&["ann", "drone"])
        );
    }

    proptest! {
        #[test]
        fn draw_ignores_candidate_order(
            mut pool in proptest::collection::vec("[A-Za-z]{1,8}", 1..12),
            seed in any::<u64>(),
        ) {
            let first = draw_referee(&pool, seed);
            prop_assert!(first.as_ref().is_some_and(|name| pool.contains(name)));
            pool.reverse();
            prop_assert_eq!(draw_referee(&pool, seed), first.clone());
            pool.rotate_left(1);
            prop_assert_eq!(draw_referee(&pool, seed), first);
        }

        #[test]
        fn eligible_referees_are_a_subset_without_the_parties(
            active in proptest::collection::vec("[A-D]|Drone", 0..10),
            tried in proptest::collection::vec("[A-D]", 0..3),
        ) {
            let pool = eligible_referees(&active, "A", "B", &tried);
            for name in &pool {
                prop_assert!(active.contains(name));
                prop_assert!(name != "A" && name != "B" && name != DRONE);
                prop_assert!(!tried.contains(name));
            }
            let mut sorted = pool.clone();
            sorted.sort();
            sorted.dedup();
            prop_assert_eq!(sorted.len(), pool.len());
        }
    }
}
