//! Games created, joined and started by mail (issue 17, items 1 and 2;
//! RULINGS S16 - S20): raw mail through `letter` into the referee, the
//! replies read back from the outbox, and a restart that agrees.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::LobbyConfig;
use support::lobby::*;

#[test]
fn the_speaker_creates_players_join_and_start_draws_the_order() {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = t.send(
        "speaker",
        "new game",
        "NEW GAME MN20 players 4 start \"Tuesday 1000\" ruling bare_move_any_line=true",
    );
    assert_eq!(s, "new game MN20", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(lounge.contains("A new game, MN20, is open"), "{lounge}");
    assert!(lounge.contains("bare_move_any_line = true"), "{lounge}");
    assert!(lounge.contains("JOIN MN20 as <Name>"), "{lounge}");
    assert!(mails.iter().any(|m| m.to == "speaker@example.org"));

    for (who, name) in [
        ("rushton", "Rushton"),
        ("warren", "Warren"),
        ("acton", "Acton"),
    ] {
        let mails = t.join(who, "MN20", name);
        // The confirmation goes to the lounge and to the player alone.
        assert!(flat(&to_lounge(&mails)).contains(&format!("{name} joins MN20")));
    }
    // Not yet a game to play.
    assert!(!t.referee.has_game("MN20"));

    let (s, mails) = t.send("speaker", "start", "START MN20");
    assert!(s.starts_with("start MN20: "), "{s}: {mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(
        lounge.contains("The order of play (Rule 1.1.12)"),
        "{lounge}"
    );
    assert!(
        lounge.contains("\"order-of-play\" of MN20 turn 0"),
        "{lounge}"
    );
    assert!(lounge.contains("mornbot verify-dice MN20"), "{lounge}");
    assert!(t.referee.has_game("MN20"));

    // MN1's order is Rushton, Acton, Warren: each of those pairs is
    // avoided, so the cycle runs the other way.
    let live = t.referee.live(&t.store, "MN20").unwrap();
    let order: Vec<String> = live.def.players.iter().map(|p| p.0.clone()).collect();
    let i = order.iter().position(|n| n == "Rushton").unwrap();
    assert_eq!(order[(i + 1) % 3], "Warren", "{order:?}");
    assert!(live.def.rulings.bare_move_any_line);
    assert_eq!(live.game.state.time.to_string(), "Tuesday 1000");
    assert!(live.dice.is_some(), "the game has its dice");
    assert_eq!(t.store.draws("MN20").unwrap().len(), 1);

    // Play starts, as in a configured game.
    let first = live.game.to_play().to_string();
    assert_eq!(first, order[0]);
    let (s, mails) = t.send(
        &first.to_lowercase(),
        "[MN20] turn",
        &format!("{first} : Morden (NT) [Home: Tooting Broadway]"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    t.restart();
    let live = t.referee.live(&t.store, "MN20").unwrap();
    assert_eq!(live.game.plays.len(), 1);
    assert_eq!(live.game.to_play(), order[1]);
}

#[test]
fn a_forged_join_never_confirmed_does_not_register() {
    let mut t = T::new(LobbyConfig::default());
    t.send("speaker", "new game", "NEW GAME MN20");
    t.join("rushton", "MN20", "Rushton");
    // Mallory forges Cryer's From: the token goes to Cryer's address only.
    let (s, mails) = t.send("cryer", "join", "JOIN MN20 as Cryer");
    assert!(s.contains("awaiting confirmation"), "{s}");
    assert!(
        mails.iter().all(|m| m.to == "cryer@example.org"),
        "{mails:?}"
    );
    let token = token_in(&mails).unwrap();
    // Guessing, or even knowing, the token from another address is no use.
    for (guess, said) in [
        ("0123456789abcdef0123", "no such join"),
        (token.as_str(), "another address"),
    ] {
        let (s, mails) = t.send("mallory", "confirm", &format!("CONFIRM {guess}"));
        assert_eq!(s, format!("confirm: {said}"), "{mails:?}");
        assert!(to_lounge(&mails).is_empty());
    }
    t.join("warren", "MN20", "Warren");
    let (s, _) = t.send("speaker", "start", "START MN20");
    assert!(s.starts_with("start MN20"), "{s}");
    let live = t.referee.live(&t.store, "MN20").unwrap();
    let names: Vec<&str> = live.def.players.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(!names.contains(&"Cryer"), "{names:?}");
    // Cryer's real owner confirming late finds the game started.
    let (s, _) = t.send("cryer", "Re: join", &format!("CONFIRM {token}"));
    assert_eq!(s, "confirm: refused");
}

#[test]
fn refusals_go_to_the_sender_alone_and_change_nothing() {
    let mut t = T::new(LobbyConfig::default());
    let refused = |mails: &[Mail], who: &str, says: &str| {
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert_eq!(mails[0].to, format!("{who}@example.org"));
        let text = flat(&[&mails[0]]);
        assert!(text.contains(says), "{says:?} not in {text}");
    };
    // Only the Speaker creates games (open_games = false).
    let (_, mails) = t.send("rushton", "new", "NEW GAME MN20");
    refused(&mails, "rushton", "Only the Speaker creates games");
    // A tag already used; a malformed line names the form expected.
    let (_, mails) = t.send("speaker", "new", "NEW GAME MN1");
    refused(&mails, "speaker", "There is already a game MN1");
    let (_, mails) = t.send("speaker", "new", "NEW GAME MN20 ruling no_such=true");
    refused(&mails, "speaker", "the keys are");
    let (_, mails) = t.send("rushton", "join", "JOIN MN20 Rushton");
    refused(&mails, "rushton", "JOIN <TAG> as <Name>");
    let (_, mails) = t.send("rushton", "join", "JOIN MN20 as Rushton");
    refused(&mails, "rushton", "There is no game MN20 in the lobby");

    t.send("speaker", "new", "NEW GAME MN20 players 2");
    t.join("rushton", "MN20", "Rushton");
    let (_, mails) = t.send("warren", "join", "JOIN MN20 as rushton");
    refused(&mails, "warren", "already taken");
    let (_, mails) = t.send("speaker", "start", "START MN20");
    refused(&mails, "speaker", "at least two players");
    t.join("warren", "MN20", "Warren");
    let (_, mails) = t.send("acton", "join", "JOIN MN20 as Acton");
    refused(&mails, "acton", "MN20 is full");
    let (_, mails) = t.send("rushton", "start", "START MN20");
    refused(&mails, "rushton", "Only the Speaker may start");
    // LEAVE before the start frees the place.
    let (s, mails) = t.send("warren", "leave", "LEAVE MN20");
    assert_eq!(s, "leave MN20", "{mails:?}");
    assert!(flat(&to_lounge(&mails)).contains("Warren leaves MN20"));
    t.join("acton", "MN20", "Acton");
    let (s, _) = t.send("speaker", "start", "START MN20");
    assert!(s.starts_with("start MN20"), "{s}");
    let (_, mails) = t.send("warren", "join", "JOIN MN20 as Warren");
    refused(&mails, "warren", "already started");
    let (_, mails) = t.send("acton", "leave", "LEAVE MN20");
    refused(&mails, "acton", "already started");
}

#[test]
fn an_unconfirmed_join_expires() {
    let mut t = T::new(LobbyConfig {
        confirm_hours: 1,
        ..LobbyConfig::default()
    });
    t.step = 40;
    t.send("speaker", "new", "NEW GAME MN20");
    let (_, mails) = t.send("rushton", "join", "JOIN MN20 as Rushton");
    let token = token_in(&mails).unwrap();
    // Eighty minutes later: past the hour.
    t.send("warren", "hello", "HELP");
    let (s, mails) = t.send("rushton", "Re: join", &format!("CONFIRM {token}"));
    assert_eq!(s, "confirm: expired", "{mails:?}");
    assert!(to_lounge(&mails).is_empty());
}

#[test]
fn open_games_let_anyone_create_and_their_creator_start() {
    let mut t = T::new(LobbyConfig {
        open_games: true,
        ..LobbyConfig::default()
    });
    let (s, _) = t.send("cryer", "new", "NEW GAME OPEN1");
    assert_eq!(s, "new game OPEN1");
    t.join("rushton", "OPEN1", "Rushton");
    t.join("warren", "OPEN1", "Warren");
    let (_, mails) = t.send("rushton", "start", "START OPEN1");
    assert!(
        flat(&mails.iter().collect::<Vec<_>>()).contains("Only the Speaker or the game's creator")
    );
    let (s, _) = t.send("cryer", "start", "START OPEN1");
    assert!(s.starts_with("start OPEN1"), "{s}");
    // The new game's players are known to the lounge at once.
    assert!(t.referee.is_registered("warren@example.org"));
    t.restart();
    assert!(t.referee.has_game("OPEN1"));
}

#[test]
fn help_lists_the_lobby_commands() {
    let mut t = T::new(LobbyConfig::default());
    let (_, mails) = t.send("warren", "help", "HELP");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    for example in [
        "NEW GAME MN20 players 4 start \"Monday 0900\"",
        "JOIN MN20 as Rushton",
        "CONFIRM 0123456789abcdef0123",
        "LEAVE MN20",
        "START MN20",
        "CANCEL GAME MN20",
    ] {
        assert!(text.contains(example), "{example:?} not in {text}");
    }
}

#[test]
fn the_speaker_cancels_a_game_before_its_start() {
    let mut t = T::new(LobbyConfig::default());
    t.send("speaker", "new game", "NEW GAME MN20");
    t.join("rushton", "MN20", "Rushton");
    t.join("kit", "MN20", "Kit");
    let (s, asked) = t.send("cryer", "join", "JOIN MN20 as Cryer");
    assert!(s.contains("awaiting confirmation"), "{s}");
    let cryers = token_in(&asked).expect("Cryer's token");
    // Not a player's to cancel (open_games is off).
    let (s, mails) = t.send("rushton", "cancel", "CANCEL GAME MN20");
    assert_eq!(s, "cancel: not allowed");
    assert_eq!(mails.len(), 1);
    assert!(flat(&mails.iter().collect::<Vec<_>>()).contains("Only the Speaker may cancel MN20"));
    // The Speaker's: the lounge is told, showing no one's address (issue
    // 39, item 9); Kit, who joined and is no player of record (mornbot
    // cannot tell who reads the lounge), is told privately too, in a mail
    // of eir own; Rushton, a player of MN1, reads the lounge. Cryer, who
    // asked and never confirmed, is not mailed: an address that never
    // answered its token may be forged (issue 40, item 2).
    let (s, mails) = t.send("speaker", "cancel", "CANCEL GAME MN20");
    assert_eq!(s, "cancel MN20", "{mails:?}");
    let told = mails
        .iter()
        .find(|m| m.to == LOUNGE)
        .expect("the lounge is told, alone");
    assert!(flat(&[told]).contains("MN20 is cancelled before its start"));
    let body = told.text.split_once("\n\n").unwrap().1;
    // (Only the bot's own address, in the signature.)
    assert!(
        !body.contains("@example.org"),
        "no one's address in the lounge: {body}"
    );
    assert!(
        told.text.contains("Subject: [MN20] Cancelled"),
        "{}",
        told.text
    );
    let to: Vec<&str> = mails.iter().map(|m| m.to.as_str()).collect();
    assert_eq!(
        to,
        [LOUNGE, "kit@example.org", "speaker@example.org"],
        "{mails:?}"
    );
    let private = flat(&[&mails[1]]);
    assert!(
        private.contains("MN20, which you asked to join as Kit, is cancelled"),
        "{private}"
    );
    assert!(mails[1].text.contains("Subject: [MN20] Cancelled"));
    // Cryer's token now says what became of the game (issue 39, item 4).
    let (s, mails) = t.send("cryer", "Re: join", &format!("CONFIRM {cryers}"));
    assert_eq!(s, "confirm: game cancelled", "{mails:?}");
    let said = flat(&mails.iter().collect::<Vec<_>>());
    assert!(
        said.contains("MN20, which you asked to join as Cryer, was cancelled on"),
        "{said}"
    );
    assert!(!said.contains("good only from the address"), "{said}");
    assert!(t.store.lobby_game("MN20").unwrap().is_none());
    assert!(t.store.lobby_joins("MN20").unwrap().is_empty());
    // Gone: no join, no start; the tag is free again.
    t.restart();
    let (s, mails) = t.send("warren", "join", "JOIN MN20 as Warren");
    assert!(!s.contains("awaiting confirmation"), "{s}");
    let said = flat(&mails.iter().collect::<Vec<_>>());
    assert!(said.contains("MN20 was cancelled on"), "{said}");
    let (s, _) = t.send("speaker", "start", "START MN20");
    assert_eq!(s, "start: refused");
    assert!(!t.referee.has_game("MN20"));
    let (s, _) = t.send("speaker", "new game", "NEW GAME MN20");
    assert_eq!(s, "new game MN20");
    // A game under way is not the lobby's to cancel.
    let (s, mails) = t.send("speaker", "cancel", "CANCEL GAME MN1");
    assert_eq!(s, "cancel: refused");
    assert!(flat(&mails.iter().collect::<Vec<_>>()).contains("MN1 is already being played"));
}

#[test]
fn a_confirm_that_matches_no_waiting_join_says_why() {
    let mut t = T::new(LobbyConfig::default());
    t.send("speaker", "new game", "NEW GAME MN20");
    let refusal = |t: &mut T, who: &str, token: &str| {
        let (s, mails) = t.send(who, "Re: join", &format!("CONFIRM {token}"));
        (s, flat(&mails.iter().collect::<Vec<_>>()))
    };
    // Confirmed once: the second CONFIRM is told so.
    let (_, asked) = t.send("cryer", "join", "JOIN MN20 as Cryer");
    let first = token_in(&asked).unwrap();
    t.send("cryer", "Re: join", &format!("CONFIRM {first}"));
    let (s, said) = refusal(&mut t, "cryer", &first);
    assert_eq!(s, "confirm: already confirmed");
    assert!(
        said.contains("You have already joined MN20 as Cryer"),
        "{said}"
    );
    // A token replaced by a later JOIN.
    let (_, asked) = t.send("acton", "join", "JOIN MN20 as Acton");
    let old = token_in(&asked).unwrap();
    let (_, asked) = t.send("acton", "join", "JOIN MN20 as Kim");
    let new = token_in(&asked).unwrap();
    let (s, said) = refusal(&mut t, "acton", &old);
    assert_eq!(s, "confirm: join replaced");
    assert!(
        said.contains("which a later JOIN MN20 from this address replaced"),
        "{said}"
    );
    // Sent from another address than the one that asked.
    let (s, said) = refusal(&mut t, "warren", &new);
    assert_eq!(s, "confirm: another address");
    assert!(
        said.contains("made from another address than warren@example.org"),
        "{said}"
    );
    // The latest one, from its address, counts.
    let (s, _) = refusal(&mut t, "acton", &new);
    assert_eq!(s, "confirm: Kim joins MN20");
    // Left: the token of the join left.
    let (s, _) = t.send("acton", "leave", "LEAVE MN20");
    assert_eq!(s, "leave MN20");
    let (s, said) = refusal(&mut t, "acton", &new);
    assert_eq!(s, "confirm: join left");
    assert!(said.contains("You left MN20 on"), "{said}");
    let (_, said) = refusal(&mut t, "acton", "0123456789abcdef0123");
    assert!(
        said.contains("No request to join from acton@example.org has the token"),
        "{said}"
    );
    let (s, mails) = t.send("acton", "leave", "LEAVE MN20");
    assert_eq!(s, "leave: not joined");
    assert!(flat(&mails.iter().collect::<Vec<_>>()).contains("You already left MN20 (as Kim)"));
}
