//! Known answers computed independently (python3's hashlib and hmac,
//! `scripts/verify_dice.py`), uniformity, and verification.

use super::*;
use proptest::prelude::*;

fn counting() -> Seed {
    let mut b = [0u8; 32];
    for (i, x) in b.iter_mut().enumerate() {
        *x = i as u8;
    }
    Seed::from_bytes(b)
}

#[test]
fn commitments_are_sha256_of_the_seed() {
    assert_eq!(
        commitment(&Seed::from_bytes([0; 32])),
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    );
    assert_eq!(
        commitment(&counting()),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
}

#[test]
fn the_message_layout_is_as_documented() {
    let m = message("MN1", 1, "holiday", 6, 0);
    assert_eq!(
        hex(&m),
        "6d6f726e626f742d646963652d763100000000034d4e3100000000000000010000000768\
         6f6c696461790000000600000000"
    );
    assert_eq!(
        hex(&mac(&counting(), &m)),
        "74623acf9f358caefbe3e6085fe8016f9d04d7313fe3db4b212d47dfb1924a5a"
    );
}

#[test]
fn known_answers() {
    let zero = Seed::from_bytes([0; 32]);
    let s = counting();
    let v = |seed: &Seed, g: &str, t: u64, n: &str, sides: u32| {
        draw(seed, g, t, n, sides).unwrap().value
    };
    assert_eq!(v(&zero, "MN1", 1, "holiday", 6), 6);
    assert_eq!(v(&s, "MN1", 1, "holiday", 6), 1);
    assert_eq!(v(&s, "MN1", 4, "referee-0", 3), 1);
    assert_eq!(v(&s, "MN12", 7, "holiday", 6), 2);
    assert_eq!(v(&s, "MN1", 1, "x", 1), 1);
    assert_eq!(v(&s, "MN1", 1, "big", u32::MAX), 53_075_613);
    let turns: Vec<u32> = (1..=12).map(|t| v(&s, "MN1", t, "holiday", 6)).collect();
    assert_eq!(turns, [1, 3, 1, 4, 4, 2, 6, 5, 6, 6, 1, 6]);
}

#[test]
fn no_faces_is_an_error_not_a_panic() {
    assert_eq!(draw(&counting(), "MN1", 1, "x", 0), Err(DiceError::NoSides));
    let d = Draw {
        game: "MN1".into(),
        turn: 1,
        name: "x".into(),
        sides: 0,
        value: 1,
    };
    assert_eq!(check(&counting(), &d), Err(0));
}

#[test]
fn accept_rejects_exactly_the_biased_tail() {
    // 2^64 mod 6 = 4: the four highest outputs are rejected.
    assert_eq!(accept(u64::MAX, 6), None);
    assert_eq!(accept(u64::MAX - 3, 6), None);
    assert_eq!(accept(u64::MAX - 4, 6), Some((u64::MAX - 4) as u32 % 6 + 1));
    assert_eq!(accept(0, 6), Some(1));
    assert_eq!(accept(5, 6), Some(6));
    // Powers of two never reject.
    assert_eq!(accept(u64::MAX, 8), Some(8));
    assert_eq!(accept(u64::MAX, 1), Some(1));
    // A large die: 2^64 mod (2^32 - 1) = 1.
    assert_eq!(accept(u64::MAX, u32::MAX), None);
    assert!(accept(u64::MAX - 1, u32::MAX).is_some());
}

#[test]
fn a_d6_is_uniform() {
    let s = counting();
    let mut counts = [0u32; 6];
    for t in 0..60_000u64 {
        counts[draw(&s, "MN1", t, HOLIDAY, 6).unwrap().value as usize - 1] += 1;
    }
    // Expected 10,000 each; sd ~91: +-500 is over five sd.
    for c in counts {
        assert!((9_500..=10_500).contains(&c), "{counts:?}");
    }
}

#[test]
fn seeds_read_back_from_hex() {
    let s = counting();
    assert_eq!(Seed::from_hex(&s.to_hex()), Ok(s.clone()));
    assert_eq!(
        Seed::from_hex(&format!(" {} \n", s.to_hex().to_uppercase())),
        Ok(s)
    );
    assert!(Seed::from_hex("00").is_err());
    assert!(Seed::from_hex(&"g".repeat(64)).is_err());
    assert!(Seed::from_hex(&"é".repeat(32)).is_err());
    assert!(!format!("{:?}", counting()).contains(&counting().to_hex()));
}

#[test]
fn referee_names() {
    assert_eq!(referee_draw_name(0), "referee-0");
    assert_eq!(referee_draw_name(2), "referee-2");
}

proptest! {
    #[test]
    fn honest_draws_verify_and_altered_ones_do_not(
        bytes in any::<[u8; 32]>(),
        other in any::<[u8; 32]>(),
        game in "[A-Z]{2}[0-9]{1,3}",
        turn in 0u64..10_000,
        name in "[a-z-]{1,12}",
        sides in 1u32..1000,
        bump in 1u32..1000,
    ) {
        let seed = Seed::from_bytes(bytes);
        let d = draw(&seed, &game, turn, &name, sides).unwrap();
        prop_assert!((1..=sides).contains(&d.value));
        prop_assert_eq!(check(&seed, &d), Ok(()));
        prop_assert!(matches_commitment(&seed, &commitment(&seed)));
        // A changed value is caught.
        if sides > 1 {
            let mut changed = d.clone();
            changed.value = (d.value - 1 + bump % (sides - 1) + 1) % sides + 1;
            prop_assert_ne!(changed.value, d.value);
            prop_assert_eq!(check(&seed, &changed), Err(d.value));
        }
        // A changed seed fails its commitment.
        let other = Seed::from_bytes(other);
        if other != seed {
            prop_assert!(!matches_commitment(&other, &commitment(&seed)));
        }
    }
}
