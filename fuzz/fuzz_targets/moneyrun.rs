//! Fuzz the Money Run order reader (issue 42): any mail body either reads
//! as orders or fails with an error, never a panic; orders read render to
//! a canonical line that reads back as the same orders, and judging them
//! against a started game never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mornbot::kinds::moneyrun::{canonical, judge, read, Rulings, State};

fuzz_target!(|data: &[u8]| {
    if data.len() > 64 * 1024 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(orders) = read(text) else { return };
    let line = canonical(&orders);
    let again = read(&line).expect("the canonical line reads");
    assert_eq!(again, orders, "round trip of {line:?}");
    let players = vec!["Ann".to_string(), "Bob".to_string()];
    let mut first = |_: u64, _: &str, _: u32| 0;
    if let Ok((state, _)) = State::start(&players, Rulings::default(), &mut first) {
        let mut draws = |_: u64, _: &str, sides: u32| sides - 1;
        let _ = judge(&state, &orders, "Ann", &mut draws);
    }
});
