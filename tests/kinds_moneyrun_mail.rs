//! A Money Run game by mail (issue 42), in memory: created, joined and
//! started in the lobby of a lounge that plays Volume 1, its bag drawn
//! from the game's dice and recorded, a turn in two mails with a restart
//! between them (the open turn resumes, nothing drawn again), a turn in
//! one mail, a malformed order answered to its sender alone with the forms
//! expected, and a Timeout of each step.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::LobbyConfig;
use mornbot::kinds::{Next, Viewer};
use support::lobby::*;

/// Each seat's start square and the square in front of it (RULINGS MR2).
const SEATS: [(&str, &str); 3] = [("e1", "e2"), ("e9", "e8"), ("a5", "b5")];

fn started() -> T {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = t.send(
        "speaker",
        "new game",
        "NEW GAME MR1 kind money-run players 3 deadline 2h plain",
    );
    assert_eq!(s, "new game MR1", "{mails:?}");
    assert!(flat(&to_lounge(&mails)).contains("Money Run (money-run)"));
    for (who, name) in [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")] {
        t.join(who, "MR1", name);
    }
    let (s, mails) = t.send("speaker", "start", "START MR1");
    assert!(s.starts_with("start MR1: "), "{s}: {mails:?}");
    t
}

/// Who must act in MR1, for what step, and eir address's local part and
/// seat (0-based).
fn awaited(t: &T) -> (String, &'static str, String, usize) {
    let h = t.referee.hosted(&t.store, "MR1").unwrap();
    let Next::Act { players, step, .. } = h.position.next() else {
        panic!("over")
    };
    let seat = h
        .position
        .players()
        .iter()
        .position(|p| *p == players[0])
        .unwrap();
    let who = h
        .def
        .address_of(&players[0])
        .unwrap()
        .split('@')
        .next()
        .unwrap()
        .to_string();
    (players[0].clone(), step, who, seat)
}

/// A coin letter on MR1's table.
fn table_coin(t: &T) -> char {
    let h = t.referee.hosted(&t.store, "MR1").unwrap();
    let doc = h.position.render(&Viewer::Public, None);
    let line = doc
        .lines()
        .find(|l| l.trim_start().starts_with("Table"))
        .unwrap_or_else(|| panic!("no Table in {doc}"));
    line.split(':')
        .nth(1)
        .and_then(|s| s.chars().find(|c| "LMSP".contains(*c)))
        .unwrap_or_else(|| panic!("{line}"))
}

fn draws(t: &T) -> Vec<String> {
    t.store
        .draws("MR1")
        .unwrap()
        .into_iter()
        .map(|d| format!("{}:{}", d.turn, d.name))
        .collect()
}

#[test]
fn a_money_run_game_by_mail_with_a_turn_in_two_mails_and_timeouts() {
    let mut t = started();
    // START drew the order of play, the opening five and the first player.
    let drawn = draws(&t);
    for name in ["bag-1", "bag-2", "bag-3", "bag-4", "bag-5", "first-player"] {
        assert!(drawn.contains(&format!("0:{name}")), "{name}: {drawn:?}");
    }

    // Mail 1 of a turn: a placement; the refill is drawn, the turn open.
    let (name, step, who, seat) = awaited(&t);
    assert_eq!(step, "turn");
    let (home, front) = SEATS[seat];
    let coin = table_coin(&t);
    let (s, mails) = t.send(
        &who,
        "[MR1] my turn",
        &format!("Morning all!\n\nplace {coin} {front}\n"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(lounge.contains("legal, turn open"), "{lounge}");
    assert!(
        lounge.contains(&format!("{name}'s turn is still open")),
        "{lounge}"
    );
    assert!(lounge.contains("second action"), "{lounge}");
    let after_one = draws(&t);
    assert_eq!(
        after_one.len(),
        drawn.len() + 1,
        "one refill: {after_one:?}"
    );
    assert_eq!(awaited(&t).1, "second action");

    // A restart between the two mails: the open turn resumes as it was.
    let before = t.referee.hosted(&t.store, "MR1").unwrap().position;
    t.restart();
    assert_eq!(t.referee.hosted(&t.store, "MR1").unwrap().position, before);
    assert_eq!(draws(&t), after_one, "nothing drawn again");

    // Someone else cannot act in it.
    let other = if who == "ann" { "bob" } else { "ann" };
    let (s, _) = t.send(other, "[MR1] my turn", "pass\n");
    assert_ne!(s, "legal");

    // Mail 2: the pawn climbs onto the coin; the turn closes.
    let (s, mails) = t.send(&who, "[MR1] rest", &format!("pawn {home} {front}\n"));
    assert_eq!(s, "legal", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(!lounge.contains("turn open"), "{lounge}");
    let (next, step, next_who, next_seat) = awaited(&t);
    assert_ne!(next, name);
    assert_eq!(step, "turn");

    // A malformed order: to its sender alone, with the forms, nothing
    // changed.
    let (s, mails) = t.send(&next_who, "[MR1] turn", "place Q z12\n");
    assert_eq!(s, "unreadable", "{mails:?}");
    assert!(to_lounge(&mails).is_empty(), "{mails:?}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("place M e4"), "{text}");
    assert!(text.contains("line 1"), "{text}");
    assert_eq!(awaited(&t).0, next);

    // A whole turn in one mail.
    let (home2, front2) = SEATS[next_seat];
    let coin = table_coin(&t);
    let (s, mails) = t.send(
        &next_who,
        "[MR1] turn",
        &format!("place {coin} {front2}\npawn {home2} {front2}\n"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    let (third, _, third_who, third_seat) = awaited(&t);
    assert!(third != name && third != next);

    // The third opens a turn and lets the clock run: the Timeout closes
    // it as it stands ("end"); the next player's fresh turn times out as
    // a pass.
    let (_, front3) = SEATS[third_seat];
    let coin = table_coin(&t);
    let (s, _) = t.send(
        &third_who,
        "[MR1] turn",
        &format!("place {coin} {front3}\n"),
    );
    assert_eq!(s, "legal");
    assert_eq!(awaited(&t).1, "second action");
    let now = at(t.n * t.step) + chrono::Duration::hours(3);
    let done = t.referee.tick(&mut t.store, now).unwrap();
    let summaries: Vec<&str> = done.iter().map(|h| h.summary.as_str()).collect();
    assert!(
        summaries
            .iter()
            .any(|s| s.starts_with(&format!("Timeout for {third}"))),
        "{summaries:?}"
    );
    let (after, step, _, _) = awaited(&t);
    assert_eq!((after.as_str(), step), (name.as_str(), "turn"));
    let h = t.referee.hosted(&t.store, "MR1").unwrap();
    assert_eq!(h.turns.last().unwrap().play, "end");
    // Past the next deadline (2 hours after the last), not the one after.
    let later = now + chrono::Duration::minutes(90);
    t.referee.tick(&mut t.store, later).unwrap();
    let h = t.referee.hosted(&t.store, "MR1").unwrap();
    assert_eq!(h.turns.last().unwrap().play, "pass");
    assert_eq!(awaited(&t).0, next);

    // A restart folds the same game again, from its snapshot or its log.
    let before = h.position.clone();
    t.restart();
    assert_eq!(t.referee.hosted(&t.store, "MR1").unwrap().position, before);
}
