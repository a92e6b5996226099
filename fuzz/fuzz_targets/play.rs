//! Fuzz the play parser: any line either parses or fails with a located
//! error; a parsed Play renders to a line that parses back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mornbot::gsd::{parse_play, render_play};
use mornbot::map::Map;

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let map = Map::london_1999();
    match parse_play(text, map) {
        Ok(p) => {
            let line = render_play(&p);
            let again = parse_play(&line, map).expect("the canonical play parses");
            assert_eq!(again, p, "round trip of {line:?}");
        }
        Err(e) => assert!(e.line >= 1 && e.column >= 1),
    }
});
