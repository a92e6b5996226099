//! The picture of the game in every lounge verdict (issue 18, item 2):
//! `multipart/mixed`, the verdict's text first and unchanged, the PNG
//! second; off per game; left off, and said so, over `[limits]
//! picture_bytes`.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mail_parser::{MessageParser, MimeHeaders};
use mornbot::config::LimitsConfig;
use mornbot::daemon::referee::Painter;
use support::fake_referee::*;

fn with_pictures() -> T {
    T::with_game(
        SpeakerConfig::default(),
        GameConfig {
            picture: true,
            kind: Default::default(),
            deadline: None,
            kind_rulings: Default::default(),
            ..game()
        },
    )
}

/// The mails queued since `from` (an index into the outbox) as the sender
/// sends them: with the pictures they are owed drawn and attached.
fn raw_since(t: &T, from: usize) -> Vec<Vec<u8>> {
    sent_since(&t.store, from, &LimitsConfig::default())
}

/// [`raw_since`] under other `[limits]`.
fn sent_since(store: &Store, from: usize, limits: &LimitsConfig) -> Vec<Vec<u8>> {
    let painter = Painter::new(Map::london_1999(), me(), limits);
    let all = store.all_mail().unwrap();
    all[from..]
        .iter()
        .map(|m| match &m.owed {
            Some(owed) => painter.finish(owed).unwrap(),
            None => m.raw.clone(),
        })
        .collect()
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
        .find(|(text, _)| text.starts_with("Buzz:"))
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
    assert!(store.all_mail().unwrap()[0].owed.is_none());
    let raw = sent_since(&store, 0, &LimitsConfig::default()).remove(0);
    assert!(parts(&raw).1.is_none());
    assert!(!referee.live(&store, "MN1").unwrap().def.picture);
}

#[test]
fn a_picture_over_the_limit_is_left_off_and_the_verdict_says_so() {
    let mut t = with_pictures();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let limits = LimitsConfig {
        picture_bytes: 10_000,
        ..Default::default()
    };
    let raws = sent_since(&t.store, 0, &limits);
    let (text, png) = parts(&raws[0]);
    assert!(png.is_none());
    assert!(text.starts_with("Turn 1: Rushton (legal)"), "{text}");
    assert!(
        text.contains("(The picture of the game is left off: it is ")
            && text.contains("bytes, over [limits] picture_bytes = 10000.)"),
        "{text}"
    );
}

#[test]
fn the_picture_is_drawn_when_the_verdict_is_sent_with_the_same_bytes_each_time() {
    let mut t = with_pictures();
    t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
    let queued = t.store.all_mail().unwrap().remove(0);
    // The judging queued the text, and the picture it owes beside it.
    let owed = queued.owed.clone().expect("a picture owed");
    assert!(parts(&queued.raw).1.is_none());
    let painter = Painter::new(Map::london_1999(), me(), &LimitsConfig::default());
    let sent = painter.finish(&owed).unwrap();
    assert!(parts(&sent).1.is_some());
    // Sent again after a failure or a crash: the same bytes.
    assert_eq!(painter.finish(&owed).unwrap(), sent);
    // Marked sent: the text and what the picture is drawn from are kept,
    // not the picture; drawn again from them, the bytes sent.
    t.store.mark_sent(queued.id, at(9)).unwrap();
    let kept = t.store.all_mail().unwrap().remove(0);
    let due = t.store.due_mail(at(10), 10).unwrap();
    assert!(due.iter().all(|m| m.id != queued.id));
    assert_eq!((&kept.raw, &kept.owed), (&queued.raw, &queued.owed));
    assert_eq!(painter.finish(&owed).unwrap(), sent);
    // A record that does not decode is an error, never a panic.
    assert!(painter.finish("{\"reply\":").is_err());
}
