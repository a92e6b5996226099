//! An old play sent again (issue 14, finding 5; RULINGS L9): a bare play
//! line already in the game's log, in a mail dated before the game's last
//! turn was played, is refused privately and not judged. A new play with
//! an old Date, a repeated play dated now, a clock a few minutes slow and
//! a mail without a Date are judged as they come.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::letters::{Lounge, FIRST};

const WARREN: &str = "Warren : Upminster (DS) [Home: Hornchurch]";
const ACTON: &str = "Acton : Epping (CN) [Home: Theydon Bois]";
const PASS: &str = "Rushton : Pass";

/// Turns 1-3 (09:11-09:13 GMT), Rushton's Pass as turn 4 (09:14, dated
/// 09:14), then Warren's and Acton's Passes (09:35, 09:36): Rushton to play.
fn two_rounds() -> Lounge {
    let mut t = Lounge::new(None);
    for (who, play) in [("rushton", FIRST), ("warren", WARREN), ("acton", ACTON)] {
        assert_eq!(t.post(false, who, play).summary, "legal", "{play}");
    }
    let p = t.post_dated(
        false,
        "rushton",
        PASS,
        Some("Mon, 16 Nov 2026 09:14:00 +0000"),
    );
    assert_eq!(p.summary, "legal");
    t.wait(20);
    for play in ["Warren : Pass", "Acton : Pass"] {
        let who = play.split(' ').next().unwrap().to_lowercase();
        assert_eq!(t.post(false, &who, play).summary, "legal", "{play}");
    }
    t
}

#[test]
fn an_old_play_sent_again_is_refused_privately() {
    let mut t = two_rounds();
    // Turn 4's mail again, under a new Message-ID, with its own Date.
    let p = t.post_dated(
        false,
        "rushton",
        PASS,
        Some("Mon, 16 Nov 2026 09:14:00 +0000"),
    );
    assert_eq!(p.summary, "refused: replay");
    assert_eq!(t.turns(), 6, "not judged");
    assert_eq!(p.replies.len(), 1, "to the sender alone");
    let reply = p.replies[0].replace("\r\n", "\n");
    assert!(reply.contains("To: rushton@example.org"), "{reply}");
    let reply = reply.replace('\n', " ");
    assert!(reply.contains("before turn 6 of MN1 was played"), "{reply}");
    assert!(reply.contains("its play is turn 4's"), "{reply}");
    assert!(reply.contains("Mon 16 Nov 2026 09:14 GMT"), "{reply}");
    // Dated 2001 (the case): the same.
    let p = t.post_dated(
        false,
        "rushton",
        PASS,
        Some("Mon, 1 Jan 2001 10:00:00 +0000"),
    );
    assert_eq!(p.summary, "refused: replay");
    // Posted again now, it is judged.
    let p = t.post(false, "rushton", PASS);
    assert_eq!(p.summary, "legal");
    assert_eq!(t.turns(), 7);
}

#[test]
fn a_new_play_is_judged_whatever_its_date() {
    let mut t = two_rounds();
    // A clock years wrong is no replay when the play was never made: it
    // is judged (and found Illegal: the Piece has no Velocity).
    let p = t.post_dated(
        false,
        "rushton",
        "Rushton : [LV+1] Tooting Broadway (NT)",
        Some("Mon, 1 Jan 2001 10:00:00 +0000"),
    );
    assert_eq!(p.summary, "illegal");
}

#[test]
fn the_allowance_and_the_zone_of_the_date_count() {
    // 09:27 is within ten minutes of turn 6 (09:36): judged.
    let mut t = two_rounds();
    let p = t.post_dated(
        false,
        "rushton",
        PASS,
        Some("Mon, 16 Nov 2026 09:27:00 +0000"),
    );
    assert_eq!(p.summary, "legal");
    // 09:25 is eleven minutes before: refused.
    let mut t = two_rounds();
    let p = t.post_dated(
        false,
        "rushton",
        PASS,
        Some("Mon, 16 Nov 2026 09:25:00 +0000"),
    );
    assert_eq!(p.summary, "refused: replay");
    // 04:40 in New York is 09:40 GMT, after turn 6: judged.
    let mut t = two_rounds();
    let p = t.post_dated(
        false,
        "rushton",
        PASS,
        Some("Mon, 16 Nov 2026 04:40:00 -0500"),
    );
    assert_eq!(p.summary, "legal");
}

#[test]
fn a_mail_without_a_date_and_the_first_turn_are_judged() {
    let mut t = two_rounds();
    assert_eq!(t.post(false, "rushton", PASS).summary, "legal");
    let mut t = Lounge::new(None);
    // The first turn follows no turn: an old Date proves nothing.
    let p = t.post_dated(
        false,
        "rushton",
        FIRST,
        Some("Mon, 1 Jan 2001 10:00:00 +0000"),
    );
    assert_eq!(p.summary, "legal");
}
