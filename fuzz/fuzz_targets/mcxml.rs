//! Fuzz the mc-xml turn reader (issue 41): any mail body either reads as
//! a turn or fails with an error, never a panic; a turn read renders to
//! canonical XML that reads back as the same turn, and judging it against
//! a started game never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mornbot::kinds::mcxml::{canonical, judge, read, Facts, Rulings, State};

fuzz_target!(|data: &[u8]| {
    if data.len() > 64 * 1024 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let facts = Facts::london();
    let Ok(r) = read(facts, text) else { return };
    let line = canonical(facts, &r.turn);
    if r.turn.foreign.is_empty() {
        let again = read(facts, &line).expect("the canonical turn reads");
        assert_eq!(again.turn, r.turn, "round trip of {line:?}");
    }
    let players = vec![r.turn.player.clone(), "Other Player".to_string()];
    if let Ok(state) = State::start(&players, Rulings::default()) {
        let _ = judge(facts, &state, &r.turn, &r.turn.player);
    }
});
