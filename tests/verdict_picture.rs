//! The picture of the game in every lounge verdict (issue 18, item 2):
//! `multipart/mixed`, the verdict's text first and unchanged, the PNG
//! second; off per game; left off, and said so, over `[limits]
//! picture_bytes`.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mail_parser::{MessageParser, MimeHeaders};
use support::fake_referee::*;

fn with_pictures() -> T {
    T::with_game(
        SpeakerConfig::default(),
        GameConfig {
            picture: true,
            ..game()
        },
    )
}

/// The raw mails queued since `from` (an index into the outbox).
fn raw_since(t: &T, from: usize) -> Vec<Vec<u8>> {
    let all = t.store.all_mail().unwrap();
    all[from..].iter().map(|m| m.raw.clone()).collect()
}

/// The verdict's text part and its PNG attachment (name, width, height),
/// if any.
fn parts(raw: &[u8]) -> (String, Option<(String, u32, u32)>) {
    let m = MessageParser::default().parse(raw).expect("a mail");
    let text = m.body_text(0).expect("a text part").into_owned();
    let png = m.attachments().next().map(|a| {
        assert_eq!(a.content_type().map(|c| c.ctype()), Some("image"));
        let name = a.attachment_name().unwrap_or_default().to_string();
        let decoder = png::Decoder::new(a.contents());
        let reader = decoder.read_info().expect("the PNG decodes");
        (name, reader.info().width, reader.info().height)
    });
    (text, png)
}

#[test]
fn a_legal_turn_an_illegal_one_and_a_timeout_carry_the_picture() {
    let mut t = with_pictures();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let raws = raw_since(&t, 0);
    assert_eq!(raws.len(), 1);
    let raw = String::from_utf8_lossy(&raws[0]).into_owned();
    assert!(raw.contains("Content-Type: multipart/mixed"), "{raw:.600}");
    let (text, png) = parts(&raws[0]);
    assert!(text.starts_with("Turn 1: Rushton (legal)"), "{text}");
    let (name, w, h) = png.expect("a picture");
    assert_eq!(name, "MN1-after-turn-1.png");
    assert_eq!(w, 1600);
    assert!(h > 800, "{h}");
    // The text part comes first: a reader without MIME sees the verdict.
    let first_part = raw.find("Turn 1: Rushton (legal)").unwrap();
    assert!(first_part < raw.find("image/png").unwrap());

    // An illegal turn is buzzed with the picture of the game as it stands.
    let before = t.store.all_mail().unwrap().len();
    t.play("warren", "Warren : Mornington Crescent (NT)");
    let raws = raw_since(&t, before);
    let buzz = raws
        .iter()
        .map(|r| parts(r))
        .find(|(text, _)| text.starts_with("BUZZ"))
        .expect("a buzz");
    assert_eq!(buzz.1.expect("a picture").0, "MN1-after-turn-1.png");
}

#[test]
fn a_timeout_carries_the_picture() {
    let mut t = with_pictures();
    let day = |d: u32, h: u32| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
    t.tick(day(17, 9));
    let before = t.store.all_mail().unwrap().len();
    t.tick(day(17, 22));
    let raws = raw_since(&t, before);
    let (text, png) = parts(&raws[0]);
    assert!(text.starts_with("Turn 1: Rushton timed out"), "{text}");
    assert_eq!(png.expect("a picture").0, "MN1-after-turn-1.png");
}

#[test]
fn a_game_with_pictures_off_gets_text_alone() {
    let mut t = T::new();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let raws = raw_since(&t, 0);
    let raw = String::from_utf8_lossy(&raws[0]).into_owned();
    assert!(!raw.contains("multipart"), "{raw:.600}");
    let (text, png) = parts(&raws[0]);
    assert!(text.starts_with("Turn 1: Rushton (legal)"));
    assert!(png.is_none());
    assert!(!text.contains("picture"), "{text}");
}

#[test]
fn the_configuration_switches_pictures_for_a_stored_game() {
    // Stored with pictures on, restarted with them off: off.
    let mut t = with_pictures();
    let mut store = std::mem::replace(&mut t.store, Store::in_memory().unwrap());
    let mut referee = Referee::load(
        Map::london_1999(),
        me(),
        SpeakerConfig::default(),
        &[game()],
        &mut store,
        at(0),
    )
    .unwrap();
    let letter = t.letter(
        "rushton",
        Request::Turn {
            text: "Rushton : Epping (CN) [Home: Hainault]".into(),
            gsd: false,
            line: 1,
            column: 1,
        },
        "Rushton : Epping (CN) [Home: Hainault]",
    );
    referee
        .handle(&mut store, origin(), &letter, at(5))
        .unwrap();
    let raw = store.all_mail().unwrap().remove(0).raw;
    assert!(parts(&raw).1.is_none());
    assert!(!referee.live(&store, "MN1").unwrap().def.picture);
}

#[test]
fn a_picture_over_the_limit_is_left_off_and_the_verdict_says_so() {
    let mut t = with_pictures();
    t.referee.set_limits(mornbot::config::LimitsConfig {
        picture_bytes: 10_000,
        ..Default::default()
    });
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let raws = raw_since(&t, 0);
    let (text, png) = parts(&raws[0]);
    assert!(png.is_none());
    assert!(text.starts_with("Turn 1: Rushton (legal)"), "{text}");
    assert!(
        text.contains("(The picture of the game is left off: it is ")
            && text.contains("bytes, over [limits] picture_bytes = 10000.)"),
        "{text}"
    );
}
