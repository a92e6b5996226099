//! One Day in London by mail (issue 43), in memory: created, joined and
//! started in the lobby of a lounge that plays Volume 1; the deck dealt
//! from the game's dice; every player's cards sent to eir registered
//! address alone; set-up in parallel with a placement timed out on its own
//! clock; a turn from a face-up pile (refused first for the empty pile),
//! a turn from the draw pile in two mails with a restart between them, a
//! missed turn and a missed second step timed out; STATUS, HISTORY and
//! ARCHIVE; a stalemate by all, after which everything is shown.
//!
//! The leak checker: after every mail the test knows what each reader may
//! see (the kind's `visible`), and fails if a mail names a station none of
//! whose cards its reader may see.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod oneday_support;
mod support;

use mornbot::config::LobbyConfig;
use mornbot::kinds::oneday::{Phase, State};
use mornbot::kinds::{Next, Position};
use support::lobby::*;

const PLAYERS: [(&str, &str); 3] = [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")];

fn state(t: &T) -> State {
    match t.referee.hosted(&t.store, "OD1").unwrap().position {
        Position::OneDay(s) => *s,
        other => panic!("not One Day: {other:?}"),
    }
}

/// The reader of a mail: a player (by eir address), or the public.
fn reader(to: &str) -> Option<&'static str> {
    PLAYERS
        .iter()
        .find(|(who, _)| to == format!("{who}@example.org"))
        .map(|(_, name)| *name)
}

/// Fails when a mail names a station its reader may not see.
fn no_leaks(t: &T, mails: &[Mail]) {
    let s = state(t);
    for m in mails {
        // The text, not an attached picture's bytes.
        let text = m.text.split("Content-Type: image/png").next().unwrap();
        let who = reader(&m.to);
        let visible = s.visible(who);
        if let Err(e) = oneday_support::names_only(text, &visible) {
            panic!("a leak to {} ({who:?}): {e}", m.to);
        }
    }
}

/// Sends and checks for leaks, and that each private mail, and it alone,
/// is copied blind to the bot (RULINGS OD16: the copy confirms it).
fn send(t: &mut T, who: &str, subject: &str, body: &str) -> (String, Vec<Mail>) {
    let (s, mails) = t.send(who, subject, body);
    no_leaks(t, &mails);
    for m in &mails {
        let private = m.text.contains("alone: your cards");
        assert_eq!(m.to_bot, private, "the bot's copy of a mail to {}", m.to);
    }
    (s, mails)
}

fn private_to<'a>(mails: &'a [Mail], who: &str) -> Vec<&'a Mail> {
    mails
        .iter()
        .filter(|m| m.text.contains("alone: your cards"))
        .filter(|m| m.to == format!("{who}@example.org"))
        .collect()
}

fn all_private(mails: &[Mail]) -> usize {
    mails
        .iter()
        .filter(|m| m.text.contains("alone: your cards"))
        .count()
}

fn started() -> T {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = t.send(
        "speaker",
        "new game",
        "NEW GAME OD1 kind one-day players 3 ruling placement_deadline=2h_plain \
         turn_deadline=3h_plain",
    );
    assert_eq!(s, "new game OD1", "{mails:?}");
    let open = flat(&to_lounge(&mails));
    assert!(
        open.contains(
            "2 hours a placement, every hour counted, then 3 hours a turn, every hour counted"
        ),
        "{open}"
    );
    for (who, name) in PLAYERS {
        t.join(who, "OD1", name);
    }
    let (s, mails) = send(&mut t, "speaker", "start", "START OD1");
    assert!(s.starts_with("start OD1: "), "{s}: {mails:?}");
    // The deck was shuffled from the game's dice: 71 draws at turn 0.
    let deck: Vec<String> = t
        .store
        .draws("OD1")
        .unwrap()
        .into_iter()
        .filter(|d| d.name.starts_with("deck-"))
        .map(|d| d.name)
        .collect();
    assert_eq!(deck.len(), 71, "{deck:?}");
    // Each player's first card, to eir own address alone.
    for (who, name) in PLAYERS {
        let own = private_to(&mails, who);
        assert_eq!(own.len(), 1, "{who}: {mails:#?}");
        assert!(own[0].text.contains(&format!("For {name} alone")));
    }
    assert_eq!(all_private(&mails), 3);
    let lounge = flat(&to_lounge(&mails));
    assert!(
        lounge.contains("Every player's placement is awaited"),
        "{lounge}"
    );
    // Each step's deadline (OD14), the first step's first.
    assert!(
        lounge.contains(
            "2 hours a placement, every hour counted, then 3 hours a turn, every hour counted"
        ),
        "{lounge}"
    );
    t
}

/// The text of the newest mail the bot queued, on one line.
fn newest(t: &T) -> String {
    let all = t.store.all_mail().unwrap();
    let raw = String::from_utf8_lossy(&all.last().unwrap().raw).into_owned();
    unwrap(&raw)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `who` places eir next card in eir leftmost empty slot.
fn place(t: &mut T, who: &str, name: &str) {
    let s = state(t);
    let slot = s
        .rack(name)
        .unwrap()
        .iter()
        .position(Option::is_none)
        .unwrap()
        + 1;
    let (r, mails) = send(t, who, "[OD1] place", &format!("PLACE {slot}"));
    assert_eq!(r, "legal", "{mails:?}");
    // The next card (if any) comes to em alone.
    let own = private_to(&mails, who);
    let left = state(t).placements_left(name);
    assert_eq!(
        own.len(),
        usize::from(left > 0) + usize::from(left == 0),
        "{mails:#?}"
    );
    assert_eq!(all_private(&mails), own.len(), "to no one else: {mails:#?}");
}

#[test]
fn one_day_in_london_by_mail_keeps_every_card_where_it_belongs() {
    let mut t = started();

    // In the set-up everyone is in turn: a slot taken is refused as
    // illegal, never as "not your turn".
    place(&mut t, "bob", "Bob");
    let (r, mails) = send(&mut t, "bob", "[OD1] place", "PLACE 1");
    assert_eq!(r, "illegal", "{mails:?}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(!text.contains("not yours"), "{text}");
    // No take-backs where cards are hidden (OD12).
    let (r, mails) = send(&mut t, "bob", "[OD1] oops", "I take back my turn.");
    assert_ne!(r, "legal", "{mails:?}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("OD12"), "{text}");
    assert_eq!(state(&t).placements_left("Bob"), 9);

    // Set-up in parallel: Ann and Bob place all ten, Cat nine.
    for _ in 0..9 {
        place(&mut t, "ann", "Ann");
        place(&mut t, "bob", "Bob");
    }
    place(&mut t, "ann", "Ann");
    for _ in 0..9 {
        place(&mut t, "cat", "Cat");
    }
    // A placement slot taken is refused to its sender alone.
    let (r, mails) = send(&mut t, "cat", "[OD1] place", "PLACE 1");
    assert_eq!(r, "illegal", "{mails:?}");
    assert!(to_lounge(&mails).is_empty());
    // Cat's own clock runs from eir own last placement: past it, the
    // Timeout places the card in the leftmost empty slot (OD11).
    assert!(
        matches!(state(&t).next(), mornbot::kinds::oneday::Next::Act { ref players, .. } if players == &["Cat"])
    );
    let now = at(t.n * t.step) + chrono::Duration::minutes(125);
    let done = t.referee.tick(&mut t.store, now).unwrap();
    let summaries: Vec<&str> = done.iter().map(|h| h.summary.as_str()).collect();
    assert!(
        summaries.iter().any(|s| s.starts_with("Timeout for Cat")),
        "{summaries:?}"
    );
    // The Timeout names the deadline of the step missed, not the next's.
    let timeout = newest(&t);
    assert!(
        timeout.contains("(2 hours a placement, every hour counted)"),
        "{timeout}"
    );
    let s = state(&t);
    assert!(matches!(s.phase(), Phase::Play { .. }), "{:?}", s.phase());
    assert!(s.rack("Cat").unwrap().iter().all(Option::is_some));
    let h = t.referee.hosted(&t.store, "OD1").unwrap();
    assert_eq!(h.turns.last().unwrap().play, "#timeout");
    t.n += 130; // the clock moved on

    // The order of play was drawn at START: p[0] moves first.
    let p: Vec<String> = h.position.players();
    let who = |name: &str| name.to_lowercase();
    let Next::Act { players, step, .. } = h.position.next() else {
        panic!("over")
    };
    assert_eq!((players[0].as_str(), step), (p[0].as_str(), "turn"));

    // Turn 1: a face-up card, refused first for the empty pile.
    let (r, mails) = send(&mut t, &who(&p[0]), "[OD1] turn", "TAKE 1 PUT 4 DISCARD 2");
    assert_eq!(r, "illegal", "{mails:?}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("OD7"), "{text}");
    assert!(to_lounge(&mails).is_empty());
    let (r, mails) = send(
        &mut t,
        &who(&p[0]),
        "[OD1] turn",
        "take 1\nput 4\ndiscard 1\n",
    );
    assert_eq!(r, "legal", "{mails:?}");
    assert_eq!(private_to(&mails, &who(&p[0])).len(), 1, "eir rack changed");
    assert_eq!(all_private(&mails), 1);

    // Turn 2: DRAW, the card to its drawer alone, the turn open.
    let draws_before = t.store.draws("OD1").unwrap().len();
    let (r, mails) = send(&mut t, &who(&p[1]), "[OD1] turn", "DRAW");
    assert_eq!(r, "legal", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(lounge.contains("legal, turn open"), "{lounge}");
    assert_eq!(private_to(&mails, &who(&p[1])).len(), 1);
    assert_eq!(all_private(&mails), 1);
    let drawn = state(&t).drawn().unwrap();
    assert!(!state(&t).visible(None).contains(&drawn));
    // Another cannot act in it; the refusal names nothing ey may not see.
    let (r, mails) = send(&mut t, &who(&p[2]), "[OD1] turn", "DISCARD 2");
    assert_ne!(r, "legal", "{mails:?}");
    assert!(to_lounge(&mails).is_empty());
    // A restart between the draw and its reply: nothing drawn or sent
    // again.
    let outbox = t.store.all_mail().unwrap().len();
    let before = state(&t);
    t.restart();
    assert_eq!(state(&t), before);
    t.referee
        .tick(
            &mut t.store,
            at(t.n * t.step) + chrono::Duration::minutes(1),
        )
        .unwrap();
    assert_eq!(t.store.all_mail().unwrap().len(), outbox);
    assert_eq!(t.store.draws("OD1").unwrap().len(), draws_before);
    // STATUS from the drawer: the public document and eir own cards, to
    // em alone.
    let (_, mails) = send(&mut t, &who(&p[1]), "status", "STATUS OD1");
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, format!("{}@example.org", who(&p[1])));
    assert!(
        mails[0].text.contains(&format!("Your rack ({})", p[1])),
        "{}",
        mails[0].text
    );
    // The second mail: the drawn card into slot 3.
    let s = state(&t);
    let piles = [s.pile(1).to_vec(), s.pile(2).to_vec(), s.pile(3).to_vec()];
    let forced = mornbot::kinds::oneday::forced_pile(&piles).unwrap_or(2);
    let (r, mails) = send(
        &mut t,
        &who(&p[1]),
        "[OD1] rest",
        &format!("PUT 3 DISCARD {forced}"),
    );
    assert_eq!(r, "legal", "{mails:?}");
    assert_eq!(state(&t).rack(&p[1]).unwrap()[2], Some(drawn));

    // Turn 3: missed; it passes (OD11).
    let now = at(t.n * t.step) + chrono::Duration::minutes(185);
    let done = t.referee.tick(&mut t.store, now).unwrap();
    let summaries: Vec<&str> = done.iter().map(|h| h.summary.as_str()).collect();
    assert!(
        summaries
            .iter()
            .any(|s| s.starts_with(&format!("Timeout for {}", p[2]))),
        "{summaries:?}"
    );
    let timeout = newest(&t);
    assert!(
        timeout.contains("(3 hours a turn, every hour counted)"),
        "{timeout}"
    );
    t.n += 190;
    // Turn 4: DRAW, then the second step missed: the card discarded.
    let (r, _) = send(&mut t, &who(&p[0]), "[OD1] turn", "DRAW");
    assert_eq!(r, "legal");
    let drawn = state(&t).drawn().unwrap();
    let now = at(t.n * t.step) + chrono::Duration::minutes(185);
    t.referee.tick(&mut t.store, now).unwrap();
    t.n += 190;
    let s = state(&t);
    assert!(s.visible(None).contains(&drawn), "discarded face up");
    assert!(
        matches!(
            s.phase(),
            Phase::Play {
                mover: 1,
                drawn: None
            }
        ),
        "{:?}",
        s.phase()
    );

    // HISTORY and ARCHIVE from Cat name no hidden card.
    for c in ["HISTORY OD1", "ARCHIVE OD1", "STATUS OD1"] {
        let (_, mails) = send(&mut t, "cat", "cmd", c);
        assert_eq!(mails.len(), 1, "{c}");
    }

    // A stalemate by all: the end, and everything shown.
    for (who, _) in PLAYERS {
        let (r, mails) = send(&mut t, who, "[OD1] stalemate", "STALEMATE");
        assert_eq!(r, "legal", "{mails:?}");
    }
    let h = t.referee.hosted(&t.store, "OD1").unwrap();
    assert_eq!(h.position.next(), Next::Over { winners: vec![] });
    let doc = h.document();
    let s = state(&t);
    for (_, name) in PLAYERS {
        for c in s.rack(name).unwrap().into_iter().flatten() {
            assert!(doc.contains(s.card_name(c)), "{name}'s {c} in {doc}");
        }
    }
    let (r, mails) = send(&mut t, &who(&p[1]), "[OD1] turn", "DRAW");
    assert_eq!(r, "game over", "{mails:?}");
}

#[test]
fn the_leak_checker_finds_a_card_named_to_someone_who_may_not_see_it() {
    let t = started();
    let s = state(&t);
    let card = s.to_place("Ann").unwrap();
    let name = s.card_name(card);
    let to_ann = Mail {
        to: "ann@example.org".into(),
        text: format!("Your card to place: {name}"),
        to_bot: true,
    };
    no_leaks(&t, std::slice::from_ref(&to_ann));
    for to in [LOUNGE, "bob@example.org"] {
        let leak = Mail {
            to: to.into(),
            text: format!("Ann's card to place: {name}"),
            to_bot: false,
        };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            no_leaks(&t, std::slice::from_ref(&leak))
        }));
        assert!(caught.is_err(), "{name} to {to} not caught");
    }
}

/// RULINGS OD16: a private mail whose `sent` mark a kill lost (its attempt
/// begun, never marked) waits, and its blind copy reaching the bot's
/// mailbox confirms it: it is never sent again, and the copy is not
/// answered.
#[test]
fn a_private_mail_a_kill_left_unconfirmed_is_confirmed_by_its_copy_to_the_bot() {
    use mornbot::daemon::letter::letter;
    use mornbot::store::Origin;
    let mut t = started();
    let rows = t.store.all_mail().unwrap();
    let private = rows
        .iter()
        .find(|m| String::from_utf8_lossy(&m.raw).contains("alone: your cards"))
        .expect("a private mail");
    assert!(private.recipients.iter().any(|r| r == BOT), "{private:?}");
    // A batch's attempts begun, every reply but the private one marked
    // sent, then the kill.
    let now = chrono::Utc::now();
    let ids: Vec<i64> = rows.iter().map(|m| m.id).collect();
    t.store.begin_attempts(&ids, now).unwrap();
    for m in rows.iter().filter(|m| m.id != private.id) {
        t.store.mark_sent(m.id, now).unwrap();
    }
    let until = now + chrono::Duration::seconds(30);
    assert_eq!(t.store.defer_unconfirmed(until).unwrap(), 1);
    assert!(t.store.due_mail(now, 10).unwrap().is_empty(), "held back");
    // Without its copy it would be sent again once the wait is over.
    assert_eq!(t.store.due_mail(until, 10).unwrap().len(), 1);
    // Its copy comes into the bot's mailbox.
    let l = letter(&private.raw, &t.ctx, &t.referee);
    let origin = Origin {
        source: "test".into(),
        uidvalidity: None,
        uid: None,
    };
    let h = t.referee.handle(&mut t.store, origin, &l, at(500)).unwrap();
    assert_eq!(h.replies, 0, "the copy is answered: {}", h.summary);
    assert!(
        t.store.due_mail(until, 10).unwrap().is_empty(),
        "sent again"
    );
    assert_eq!(t.store.outbox_counts().unwrap(), (0, rows.len() as u64));
}
