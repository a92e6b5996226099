//! One authentication gate (issue 14, finding 2; RULINGS L7): with a
//! trusted authserv-id configured, a mail without an aligned pass from
//! that server changes nothing and is never answered, whatever it asks: a
//! turn, a take-back, a Buzz, a Concede, the Speaker's Judgment or
//! command, or a mere HELP. The same mail with the pass is judged.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::letters::{Lounge, FIRST};

/// Asserts an unsigned mail is refused silently, changing nothing.
fn refused_silently(t: &mut Lounge, who: &str, body: &str) {
    let (turns, q) = (t.turns(), t.questionable());
    let p = t.post(false, who, body);
    assert_eq!(p.kind, "auth", "{who}: {body}: {}", p.summary);
    assert!(
        p.summary.starts_with("authentication failed"),
        "{}",
        p.summary
    );
    assert!(p.replies.is_empty(), "{who}: {body}: never answered");
    assert_eq!((t.turns(), t.questionable()), (turns, q), "{body}");
}

#[test]
fn turns_take_backs_and_commands_need_the_trusted_pass() {
    let mut t = Lounge::new(Some("mx.example.test"));
    refused_silently(&mut t, "rushton", FIRST);
    assert_eq!(t.turns(), 0);
    let p = t.post(true, "rushton", FIRST);
    assert_eq!((p.kind.as_str(), p.summary.as_str()), ("turn", "legal"));
    assert!(!p.replies.is_empty());
    // A forged take-back, or a forged HELP, is not answered either.
    refused_silently(&mut t, "rushton", "Take back my turn.");
    assert_eq!(t.turns(), 1);
    refused_silently(&mut t, "warren", "HELP");
    let p = t.post(true, "warren", "HELP");
    assert_eq!((p.summary.as_str(), p.replies.len()), ("1 commands", 1));
}

#[test]
fn buzz_workflow_steps_need_the_trusted_pass() {
    let mut t = Lounge::new(Some("mx.example.test"));
    let first = t.post(true, "rushton", FIRST);
    assert_eq!(t.turns(), 1, "{}", first.summary);
    refused_silently(&mut t, "warren", "Buzz: Rushton's turn 1: Morden is wrong");
    assert!(!t.questionable());
    let summary = t
        .post(true, "warren", "Buzz: Rushton's turn 1: Morden is wrong")
        .summary;
    assert!(summary.starts_with("Buzz"), "{summary}");
    assert!(t.questionable());
    // A forged Concede from the buzzed player would delete the turn.
    refused_silently(&mut t, "rushton", "Concede");
    assert!(t.questionable());
    assert_eq!(t.turns(), 1);
    refused_silently(&mut t, "warren", "I withdraw my Buzz.");
    assert!(t.questionable());
}

#[test]
fn the_speakers_judgments_and_commands_need_the_trusted_pass() {
    let mut t = Lounge::new(Some("mx.example.test"));
    t.post(true, "rushton", FIRST);
    refused_silently(&mut t, "speaker", "VOID MN1");
    assert_eq!(t.turns(), 1);
    refused_silently(&mut t, "speaker", "RESIGN Warren MN1");
    assert_eq!(
        t.referee.live(&t.store, "MN1").unwrap().game.to_play(),
        "Warren"
    );
    let p = t.post(true, "speaker", "VOID MN1");
    assert_eq!(p.kind, "speaker", "{}", p.summary);
    assert_eq!(t.turns(), 0);
    // A Judgment from the Speaker's address, unsigned, settles nothing.
    t.post(
        true,
        "rushton",
        "Rushton : Epping (CN) [Home: Hainault] [Taking a Bow]",
    );
    assert!(t.referee.live(&t.store, "MN1").unwrap().pending.is_some());
    refused_silently(&mut t, "speaker", "Judgment: Legal");
    assert!(t.referee.live(&t.store, "MN1").unwrap().pending.is_some());
    assert_eq!(t.turns(), 0);
}
