//! A game of another kind by mail (issue 41): an mc-xml game created,
//! joined and started in the lobby of a lounge that plays Volume 1, its
//! turns read and judged by its kind, refusals to the sender alone, a
//! Timeout by the game's deadline policy, STATUS and HISTORY, and a
//! restart that folds the same game from the log.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::LobbyConfig;
use support::lobby::*;

/// The players of MX1 in order of play, with the local part of each address.
fn order(t: &T) -> Vec<(String, String)> {
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    h.def
        .players
        .iter()
        .map(|(n, a)| (n.clone(), a.split('@').next().unwrap().to_string()))
        .collect()
}

fn started() -> T {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = t.send(
        "speaker",
        "new game",
        "NEW GAME MX1 kind mc-xml players 3 deadline 2h plain",
    );
    assert_eq!(s, "new game MX1", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(
        lounge.contains("XML Mornington Crescent (mc-xml)"),
        "{lounge}"
    );
    assert!(lounge.contains("2 hours a turn"), "{lounge}");
    for (who, name) in [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")] {
        t.join(who, "MX1", name);
    }
    let (s, mails) = t.send("speaker", "start", "START MX1");
    assert!(s.starts_with("start MX1: "), "{s}: {mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(
        lounge.contains("a game of XML Mornington Crescent"),
        "{lounge}"
    );
    assert!(lounge.contains("mornbot verify-dice MX1"), "{lounge}");
    assert!(!lounge.contains("Drone"), "mc-xml has no Drone: {lounge}");
    t
}

fn turn(name: &str, moves: &str) -> String {
    format!("Here is my turn.\n\n<Turn player=\"{name}\">{moves}</Turn>\n")
}

#[test]
fn an_mcxml_game_is_played_by_mail_beside_volume_1() {
    let mut t = started();
    let players = order(&t);
    let (first, first_who) = players[0].clone();
    let (second, second_who) = players[1].clone();

    // Out of turn, among posts received together: put off, nothing
    // recorded, to be judged after the others (RULINGS L12).
    let raw = format!(
        "From: {second_who}@example.org\r\nTo: {BOT}\r\nSubject: [MX1] early\r\n\
         Message-ID: <early@example.org>\r\n\r\n{}\r\n",
        turn(&second, "<Move steps=\"Goodge Street\"/>")
    );
    let l = mornbot::daemon::letter::letter(raw.as_bytes(), &t.ctx, &t.referee);
    let origin = mornbot::store::Origin {
        source: "test".into(),
        uidvalidity: None,
        uid: None,
    };
    let put_off = t
        .referee
        .handle_unless_out_of_turn(&mut t.store, origin, &l, at(t.n))
        .unwrap();
    assert!(put_off.is_none(), "{put_off:?}");
    assert!(!t.store.is_processed("early@example.org").unwrap());

    // Out of turn alone: refused to the sender alone, with the rule.
    let (s, mails) = t.send(
        &second_who,
        "[MX1] my turn",
        &turn(&second, "<Move steps=\"Goodge Street\"/>"),
    );
    assert_eq!(s, "out of turn", "{mails:?}");
    assert!(to_lounge(&mails).is_empty(), "{mails:?}");
    assert_eq!(mails.len(), 1);
    assert!(mails[0].text.contains("Rule"), "{}", mails[0].text);

    // No game named in a lounge of several: asked which, nothing judged.
    let (s, mails) = t.send(
        &first_who,
        "my turn",
        &turn(&first, "<Move steps=\"Goodge Street\"/>"),
    );
    assert_eq!(s, "game unknown", "{mails:?}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("\"[MX1] my turn\""), "{text}");
    assert!(to_lounge(&mails).is_empty());

    // An illegal move, then the corrected turn.
    let (s, mails) = t.send(
        &first_who,
        "[MX1] turn",
        &turn(&first, "<Move steps=\"Euston\"/>"),
    );
    assert_eq!(s, "illegal", "{mails:?}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("Rule 3"), "{text}");
    assert!(text.contains("Nothing has changed"), "{text}");
    assert_eq!(text.matches("othing").count(), 1, "said once: {text}");

    let (s, mails) = t.send(
        &first_who,
        "[MX1] turn",
        &turn(&first, "<Move steps=\"Goodge Street\"/>"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(
        lounge.contains(&format!("{first}'s turn 1 of MX1 is legal")),
        "{lounge}"
    );
    assert!(
        lounge.contains(&format!("Next to play: {second}")),
        "{lounge}"
    );
    // The verdict owes its picture, drawn by the sender through the kind.
    let painter = mornbot::daemon::referee::Painter::new(
        mornbot::map::Map::london_1999(),
        me(),
        &mornbot::config::LimitsConfig::default(),
    );
    let owed = t.store.all_mail().unwrap();
    let owed = owed
        .iter()
        .rev()
        .find_map(|m| m.owed.clone())
        .expect("a picture is owed");
    let raw = String::from_utf8_lossy(&painter.finish(&owed).unwrap()).into_owned();
    assert!(raw.contains("image/png"), "the picture is attached");
    assert!(
        raw.contains("MX1-after-turn-1.png"),
        "named by game and turn"
    );

    // What is not an order of this kind: named, and nothing changes.
    let (_, mails) = t.send(
        &second_who,
        "[MX1] turn",
        &format!("{second} : Euston (NT)"),
    );
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("<Turn player="), "{text}");
    let (s, mails) = t.send(&second_who, "[MX1] turn", "<Turn player=\"x\"><Move</Turn>");
    assert_eq!(s, "unreadable", "{mails:?}");

    // STATUS and HISTORY answer from the kind.
    let (_, mails) = t.send(&second_who, "status", "STATUS MX1\nHISTORY MX1");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(
        text.contains("XML Mornington Crescent (mc-xml), after 1 turn"),
        "{text}"
    );
    assert!(text.contains("Goodge Street"), "{text}");

    // HELP lists the kinds, each with an example turn.
    let (_, mails) = t.send(&second_who, "help", "HELP");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(
        text.contains("mc-xml: XML Mornington Crescent, 2 to 8 players"),
        "{text}"
    );
    assert!(text.contains("<Move steps=\"Goodge Street\"/>"), "{text}");
    assert!(
        text.contains("mn-vol1: Mornington Nomic, Volume 1"),
        "{text}"
    );

    // The deadline is 2 plain hours: the clock plays the Timeout.
    let now = at(t.n * t.step) + chrono::Duration::hours(3);
    let done = t.referee.tick(&mut t.store, now).unwrap();
    let summaries: Vec<&str> = done.iter().map(|h| h.summary.as_str()).collect();
    assert!(
        summaries.contains(&format!("Timeout for {second}, turn 2").as_str()),
        "{summaries:?}"
    );
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    assert_eq!(h.turns.len(), 2);
    assert!(h
        .document()
        .contains(&format!("Next to play: {}", players[2].0)));

    // The web archive shows it beside Volume 1's, read through its kind.
    let dir = std::env::temp_dir().join(format!("mornbot-kinds-archive-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    mornbot::archive::build(
        mornbot::map::Map::london_1999(),
        &t.store,
        &dir,
        &mornbot::daemon::ArchiveSource,
    )
    .unwrap();
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        index.contains("MX1/index.html") && index.contains("MN1/index.html"),
        "{index}"
    );
    let page = std::fs::read_to_string(dir.join("MX1/index.html")).unwrap();
    assert!(
        page.contains("XML Mornington Crescent (mc-xml), after 2 turns"),
        "{page}"
    );
    assert!(page.contains("<svg"), "the picture is on the page");
    assert!(
        page.contains("(Timeout)"),
        "the log says which turn timed out"
    );
    assert!(!page.contains("@example.org"), "no address in the archive");
    let _ = std::fs::remove_dir_all(&dir);

    // A restart folds the same game from the log and its snapshot.
    let before = h.position.clone();
    t.restart();
    let again = t.referee.hosted(&t.store, "MX1").unwrap();
    assert_eq!(again.position, before);
    assert!(t.referee.has_game("MN1"), "Volume 1's game is still there");
    assert!(t.referee.live(&t.store, "MN1").is_ok());
}

#[test]
fn a_start_outside_the_kinds_player_range_or_with_a_bad_ruling_is_refused() {
    let mut t = T::new(LobbyConfig::default());
    let (_, mails) = t.send(
        "speaker",
        "new game",
        "NEW GAME MX2 kind mc-xml ruling build_at=nowhere",
    );
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("build_at"), "{text}");
    assert!(!t.referee.has_game("MX2"));
    let (s, _) = t.send("speaker", "new game", "NEW GAME MX3 kind mc-xml");
    assert_eq!(s, "new game MX3");
    t.join("ann", "MX3", "Ann");
    let (s, mails) = t.send("speaker", "start", "START MX3");
    assert!(s.contains("too few"), "{s}: {mails:?}");
}

#[test]
fn a_late_join_needs_every_players_consent_and_resigning_takes_a_train_off() {
    let mut t = started();
    let players = order(&t);
    // Dan asks; each player consents; the last consent makes the join.
    let (s, mails) = t.send("dan", "join", "JOIN MX1 as Dan");
    assert_eq!(s, "late join asked: Dan", "{mails:?}");
    let lounge = flat(&to_lounge(&mails));
    assert!(lounge.contains("CONSENT MX1 Dan"), "{lounge}");
    // A stranger's consent does not count.
    let (s, _) = t.send("eve", "consent", "CONSENT MX1 Dan");
    assert_eq!(s, "consent: not a player");
    for (i, (name, who)) in players.iter().enumerate() {
        let (s, mails) = t.send(who, "consent", "CONSENT MX1 Dan");
        if i + 1 < players.len() {
            assert_eq!(s, format!("consent: {name} to Dan"), "{mails:?}");
            assert!(to_lounge(&mails).is_empty());
        } else {
            assert_eq!(s, "late join: Dan joins MX1", "{mails:?}");
            let lounge = flat(&to_lounge(&mails));
            assert!(
                lounge.contains("Dan joins MX1, last in the order"),
                "{lounge}"
            );
        }
    }
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    assert_eq!(h.position.players().last().map(String::as_str), Some("Dan"));

    // The first player resigns; the Speaker resigns the second; PAUSE is
    // Volume 1's.
    let (first, first_who) = players[0].clone();
    let (s, mails) = t.send(&first_who, "[MX1] resign", "RESIGN MX1");
    assert_eq!(s, format!("{first} resigned"), "{mails:?}");
    let (second, _) = players[1].clone();
    let (s, _) = t.send("speaker", "[MX1] resign", &format!("RESIGN {second} MX1"));
    assert_eq!(s, format!("speaker: {second} resigned"));
    let (s, mails) = t.send("speaker", "[MX1] pause", "PAUSE MX1");
    assert_eq!(s, "speaker: pause", "{mails:?}");
    assert!(flat(&to_lounge(&mails)).contains("no turn is due"));
    // Paused: a day later nothing times out.
    let later = at(t.n * t.step) + chrono::Duration::hours(24);
    let done = t.referee.tick(&mut t.store, later).unwrap();
    assert!(
        done.iter().all(|h| h.game.as_deref() != Some("MX1")),
        "{done:?}"
    );
    let (s, _) = t.send("speaker", "[MX1] void", "VOID MX1");
    assert_eq!(s, "speaker: VOID not this kind");

    // After a restart Dan's address is still Dan's, and the game still
    // paused; resumed, Dan's turn is judged.
    t.restart();
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    assert!(h.paused() && h.deadline().is_none());
    let (s, mails) = t.send("speaker", "[MX1] resume", "RESUME MX1");
    assert_eq!(s, "speaker: resume", "{mails:?}");
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    assert!(
        h.deadline().unwrap() > at(t.n * t.step),
        "the clock starts again"
    );
    // An absence stops the awaited player's clock, as in Volume 1.
    let third = players[2].clone();
    let before = h.deadline().unwrap();
    let (s, mails) = t.send(&third.1, "away", "ABSENCE 2026-11-16 TO 2026-11-16 MX1");
    assert!(s.contains("away in MX1"), "{s}: {mails:?}");
    assert!(
        flat(&to_lounge(&mails)).contains("is now due by"),
        "{mails:?}"
    );
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    let away = h.deadline().unwrap();
    assert!(away > before, "{away} after {before}");
    assert_eq!(away.date_naive().to_string(), "2026-11-17");
    let (s, _) = t.send(&third.1, "back", "CANCEL ABSENCE MX1");
    assert!(s.contains("ended"), "{s}");
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    assert!(h.deadline().unwrap() < away);
    assert_eq!(
        h.position.players(),
        vec![players[2].0.clone(), "Dan".to_string()]
    );
    let (s, mails) = t.send(
        &third.1,
        "[MX1] turn",
        &turn(&third.0, "<Move steps=\"Goodge Street\"/>"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    let (s, mails) = t.send(
        "dan",
        "[MX1] turn",
        &turn("Dan", "<Move steps=\"Goodge Street\"/>"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    // The last player left wins.
    let (s, mails) = t.send(&third.1, "[MX1] resign", "RESIGN MX1");
    assert!(s.contains("resigned"), "{s}: {mails:?}");
    // Over: the seed of its dice is revealed, and the order-of-play draw
    // recomputes from it (RULINGS S14, MX13).
    assert!(
        flat(&to_lounge(&mails)).contains("reveals the seed of its dice"),
        "{mails:?}"
    );
    let row = t.store.dice("MX1").unwrap().expect("MX1 has dice");
    assert!(row.revealed_at.is_some());
    let draws: Vec<mornbot::dice::Draw> = t
        .store
        .draws("MX1")
        .unwrap()
        .into_iter()
        .map(|d| mornbot::dice::Draw {
            game: d.game,
            turn: d.turn,
            name: d.name,
            sides: d.sides,
            value: d.value,
        })
        .collect();
    assert_eq!(draws.len(), 1, "the order of play");
    let report = mornbot::dice::verify::verify("MX1", &row.commitment, Some(&row.seed), &draws);
    assert!(report.ok(), "{}", report.render());
    let h = t.referee.hosted(&t.store, "MX1").unwrap();
    assert!(
        h.document()
            .contains("Game over: Dan won, the last player left."),
        "{}",
        h.document()
    );
    assert!(h.deadline().is_none());
    // A turn after the end is told the game is over, not asked to correct.
    let (s, mails) = t.send("dan", "[MX1] turn", &turn("Dan", "<Work/>"));
    assert_eq!(s, "game over", "{mails:?}");
    let all: Vec<&_> = mails.iter().collect();
    assert!(flat(&all).contains("MX1 is over: Dan won"), "{mails:?}");
    // In the Game Archive's list, won by Dan; no Points (Volume 1's).
    let e = t.store.endings().unwrap();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        (e[0].game.as_str(), e[0].winner.as_deref()),
        ("MX1", Some("Dan"))
    );
    assert!(t.store.points().unwrap().is_empty());
}

#[test]
fn a_game_of_another_kind_from_the_games_file_is_played_and_survives_a_restart() {
    use mornbot::config::{GameConfig, PlayerConfig, RulingValue};
    use mornbot::daemon::referee::Referee;
    let mx = GameConfig {
        tag: "MX9".into(),
        start: "Monday 0900".into(),
        players: ["Ann", "Bob"]
            .iter()
            .map(|n| PlayerConfig {
                name: n.to_string(),
                address: format!("{}@example.org", n.to_lowercase()),
            })
            .collect(),
        referee: None,
        rulings: Default::default(),
        picture: false,
        kind: mornbot::kinds::Kind::McXml,
        deadline: Some("24h plain".into()),
        kind_rulings: [("build_at".to_string(), RulingValue::Text("on".into()))].into(),
    };
    mornbot::config::check_players(std::slice::from_ref(&mx)).unwrap();
    let mut t = T::new(LobbyConfig::default());
    let load = |store: &mut mornbot::store::Store| {
        Referee::load(
            mornbot::map::Map::london_1999(),
            me(),
            speaker(),
            &[mn1(), mx.clone()],
            store,
            at(0),
        )
        .unwrap()
    };
    t.referee = load(&mut t.store);
    let h = t.referee.hosted(&t.store, "MX9").unwrap();
    assert_eq!(h.position.players(), vec!["Ann", "Bob"]);
    assert_eq!(
        h.deadline().unwrap(),
        at(0) + chrono::Duration::hours(24),
        "24 plain hours from the start"
    );
    let (s, mails) = t.send(
        "ann",
        "[MX9] go",
        &turn("Ann", "<Move steps=\"Goodge Street\"/>"),
    );
    assert_eq!(s, "legal", "{mails:?}");
    // The games file's rulings reach the game: build_at = on.
    let h = t.referee.hosted(&t.store, "MX9").unwrap();
    assert_eq!(
        h.def.kind_rulings,
        vec![("build_at".to_string(), "on".to_string())]
    );
    t.referee = load(&mut t.store);
    let again = t.referee.hosted(&t.store, "MX9").unwrap();
    assert_eq!(again.position, h.position);
    assert_eq!(again.turns.len(), 1);
    // Bob replies as Outlook does: his turn on top, the verdict he answers
    // below a rule and a header block, unquoted, Ann's turn in it. One
    // order is read: his.
    let outlook = format!(
        "{}\n________________________________\nFrom: mornbot <{BOT}>\nSent: Monday, \
         November 16, 2026 09:01\nTo: lounge <{LOUNGE}>\nSubject: [MX9] Turn 1: Ann, \
         legal\n\nAnn's turn 1 of MX9 is legal:\n\n    <Turn player=\"Ann\"><Move \
         steps=\"Goodge Street\"/></Turn>\n",
        turn("Bob", "<Move steps=\"Goodge Street\"/>")
    );
    let (s, mails) = t.send("bob", "RE: [MX9] Turn 1: Ann, legal", &outlook);
    assert_eq!(s, "legal", "{mails:?}");
    // A reply that only quotes the verdict is no order.
    let quoted = "Nice move!\n\nOn Mon, 16 Nov 2026 at 09:01, mornbot wrote:\n> <Turn \
                  player=\"Bob\"><Move steps=\"Goodge Street\"/></Turn>\n";
    let (s, mails) = t.send("ann", "Re: [MX9] Turn 2", quoted);
    assert_ne!(s, "illegal", "{mails:?}");
    assert_eq!(t.referee.hosted(&t.store, "MX9").unwrap().turns.len(), 2);
    // A games file whose mc-xml game has one player, or a Volume 1 game a
    // deadline, is refused when read.
    let mut bad = mx.clone();
    bad.players.truncate(1);
    assert!(mornbot::config::check_players(&[bad]).is_err());
    let mut bad = mn1();
    bad.deadline = Some("48h".into());
    let e = mornbot::config::check_players(&[bad]).unwrap_err();
    assert!(e.contains("Rule 1.3.5"), "{e}");
}

#[test]
fn a_money_run_start_names_the_first_player_its_dice_drew() {
    // The seats are START's order; the first to play is the kind's own
    // draw (RULINGS MR4), which the notice must name. Over a few games
    // the draw lands on another seat than the first.
    let mut other_than_seat_1 = 0;
    for k in 1..=6 {
        let tag = format!("MR{k}");
        let mut t = T::new(LobbyConfig::default());
        let (s, _) = t.send(
            "speaker",
            "new game",
            &format!("NEW GAME {tag} kind money-run players 3 deadline 2h plain"),
        );
        assert_eq!(s, format!("new game {tag}"));
        for (who, name) in [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")] {
            t.join(who, &tag, name);
        }
        let (s, mails) = t.send("speaker", "start", &format!("START {tag}"));
        assert!(s.starts_with(&format!("start {tag}: ")), "{s}: {mails:?}");
        let lounge = flat(&to_lounge(&mails));
        let h = t.referee.hosted(&t.store, &tag).unwrap();
        let mornbot::kinds::Next::Act { players, .. } = h.position.next() else {
            panic!("{tag} is over at its start")
        };
        let said = format!("It is {}'s turn", players[0]);
        assert!(lounge.contains(&said), "{said:?} in {lounge}");
        other_than_seat_1 += usize::from(players[0] != h.def.players[0].0);
    }
    assert!(other_than_seat_1 > 0, "every draw gave seat 1");
}
