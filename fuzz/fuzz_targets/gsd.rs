//! Fuzz the GSD parser: any input either parses or fails with a located
//! error; a parsed GSD renders to text that parses back to the same GSD.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mornbot::gsd::{parse_gsd, render};
use mornbot::map::Map;

fuzz_target!(|data: &[u8]| {
    // Mail bodies are limited to 1 MB by the daemon; GSDs are far smaller.
    if data.len() > 64 * 1024 {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let map = Map::london_1999();
    match parse_gsd(text, map) {
        Ok(g) => {
            let canonical = render(&g);
            let again = parse_gsd(&canonical, map).expect("the canonical rendering parses");
            assert_eq!(again, g, "round trip");
        }
        Err(e) => assert!(e.line >= 1 && e.column >= 1),
    }
});
