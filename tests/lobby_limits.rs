//! The lobby under a flood (issue 40, findings 2 and 6): replies to
//! strangers counted per reply whatever sends them, games waiting in the
//! lobby bounded in all and per creator, and several lobby commands in one
//! mail each carried out and announced, or the mail refused whole.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::LobbyConfig;
use support::lobby::*;

const PER: usize = 5; // [limits] stranger_replies_per_hour, default
const TOTAL: usize = 20; // [limits] stranger_replies_total_per_hour, default

/// The mails to `who@example.org`.
fn to<'a>(mails: &'a [Mail], who: &str) -> Vec<&'a Mail> {
    let a = format!("{who}@example.org");
    mails.iter().filter(|m| m.to == a).collect()
}

/// Every mail the bot queued so far to an address that is neither the
/// lounge, the Speaker, nor a player of MN1.
fn to_strangers(t: &T) -> usize {
    let known = [
        LOUNGE,
        "speaker@example.org",
        "rushton@example.org",
        "acton@example.org",
        "warren@example.org",
    ];
    t.store
        .all_mail()
        .unwrap()
        .iter()
        .flat_map(|m| m.recipients.clone())
        .filter(|r| !known.contains(&r.as_str()))
        .count()
}

/// The Speaker opens games `MN20`.. (`n` of them, one mail).
fn open_games(t: &mut T, n: usize) {
    let body: Vec<String> = (0..n).map(|i| format!("NEW GAME MN{}", 20 + i)).collect();
    let (s, mails) = t.send("speaker", "new games", &body.join("\n"));
    assert_eq!(s.matches("new game MN").count(), n, "{s}: {mails:?}");
}

#[test]
fn several_new_games_in_one_mail_are_each_announced_with_their_commitment() {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = t.send(
        "speaker",
        "new games",
        "NEW GAME MN20\nNEW GAME MN21\nNEW GAME MN22",
    );
    assert_eq!(s, "new game MN20; new game MN21; new game MN22");
    let lounge = to_lounge(&mails);
    assert_eq!(lounge.len(), 3, "one announcement a game: {mails:?}");
    for tag in ["MN20", "MN21", "MN22"] {
        let a = lounge
            .iter()
            .find(|m| m.text.contains(&format!("Subject: [{tag}] Players wanted")))
            .unwrap_or_else(|| panic!("{tag} announced: {lounge:?}"));
        // The commitment of that game's dice, published as it is created.
        let line = a
            .text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{tag}  ")))
            .unwrap_or_else(|| panic!("{tag}'s commitment: {}", a.text));
        let hex = line.split_whitespace().nth(1).unwrap();
        assert_eq!(hex.len(), 64, "{line}");
    }
}

#[test]
fn two_confirmations_in_one_mail_are_each_announced() {
    let mut t = T::new(LobbyConfig::default());
    open_games(&mut t, 2);
    let mut tokens = Vec::new();
    for tag in ["MN20", "MN21"] {
        let (_, mails) = t.send("zoe", "join", &format!("JOIN {tag} as Zoe"));
        tokens.push(token_in(&mails).expect("a token"));
    }
    let (s, mails) = t.send(
        "zoe",
        "Re: join",
        &format!("CONFIRM {}\nCONFIRM {}", tokens[0], tokens[1]),
    );
    assert!(
        s.contains("Zoe joins MN20") && s.contains("Zoe joins MN21"),
        "{s}"
    );
    let lounge = flat(&to_lounge(&mails));
    assert!(lounge.contains("Zoe joins MN20"), "{lounge}");
    assert!(lounge.contains("Zoe joins MN21"), "{lounge}");
}

#[test]
fn two_commands_on_one_game_in_one_mail_refuse_the_mail_whole() {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = t.send(
        "speaker",
        "new game",
        "NEW GAME MN30\nNEW GAME MN31\nCANCEL GAME MN30",
    );
    assert!(s.contains("refused whole"), "{s}");
    assert!(to_lounge(&mails).is_empty(), "nothing announced: {mails:?}");
    let text = flat(&to(&mails, "speaker").into_iter().collect::<Vec<_>>());
    assert!(
        text.contains("two lobby commands on MN30 (NEW GAME MN30, then CANCEL GAME MN30)"),
        "{text}"
    );
    // Nothing was created: the same commands one per mail work.
    let (s, _) = t.send("speaker", "new game", "NEW GAME MN30");
    assert_eq!(s, "new game MN30");
    let (s, _) = t.send("speaker", "new game", "NEW GAME MN31");
    assert_eq!(s, "new game MN31");
}

#[test]
fn a_stranger_gets_five_replies_an_hour_then_one_notice_then_silence() {
    let mut t = T::new(LobbyConfig::default());
    open_games(&mut t, 10);
    // One mail of ten lobby commands: ten replies before (issue 40).
    let body: Vec<String> = (0..10)
        .map(|i| format!("JOIN MN{} as Mallory", 20 + i))
        .collect();
    let (_, mails) = t.send("mallory", "join", &body.join("\n"));
    let mine = to(&mails, "mallory");
    assert_eq!(mine.len(), PER + 1, "{mine:?}");
    assert!(
        mine[PER].text.contains("Limit reached")
            && mine[PER].text.contains("stranger_replies_per_hour = 5"),
        "{}",
        mine[PER].text
    );
    // Then silence for the hour: judged, not answered.
    let (s, mails) = t.send("mallory", "help", "HELP");
    assert!(to(&mails, "mallory").is_empty(), "{s}: {mails:?}");
    // Players and the Speaker are answered as ever.
    let (_, mails) = t.send("rushton", "help", "HELP");
    assert_eq!(to(&mails, "rushton").len(), 1);
}

#[test]
fn a_flood_of_forged_strangers_draws_at_most_twenty_replies_an_hour() {
    let mut t = T::new(LobbyConfig::default());
    open_games(&mut t, 1);
    for i in 0..60 {
        t.send(&format!("forged{i}"), "join", "JOIN MN20 as Somebody");
    }
    assert_eq!(to_strangers(&t), TOTAL);
    // Cancelling the game mails the lounge, and no one past the limit:
    // before, each of the 60 forged joiners was mailed a private copy.
    let (s, mails) = t.send("speaker", "cancel", "CANCEL GAME MN20");
    assert!(s.contains("cancel"), "{s}");
    assert_eq!(to_lounge(&mails).len(), 1, "{mails:?}");
    assert_eq!(to_strangers(&t), TOTAL);
}

#[test]
fn an_open_lobby_bounds_the_games_waiting_per_creator_and_in_all() {
    let lobby = LobbyConfig {
        open_games: true,
        ..LobbyConfig::default()
    };
    let mut t = T::new(lobby);
    let (s, _) = t.send(
        "rushton",
        "new",
        "NEW GAME MN40\nNEW GAME MN41\nNEW GAME MN42",
    );
    assert_eq!(
        s, "new game MN40; new game MN41; new game: lobby limit",
        "{s}"
    );
    let (_, mails) = t.send("rushton", "new", "NEW GAME MN43");
    let text = flat(&to(&mails, "rushton"));
    assert!(
        text.contains("MN43 was not created: 2 games you created are waiting")
            && text.contains("games_per_creator = 2"),
        "{text}"
    );
    // Cancelling one frees a place.
    let (s, _) = t.send("rushton", "cancel", "CANCEL GAME MN40");
    assert!(s.contains("cancel"), "{s}");
    let (s, _) = t.send("rushton", "new", "NEW GAME MN43");
    assert_eq!(s, "new game MN43");
    // Ten waiting in all, whoever created them: the eleventh is refused,
    // the Speaker's too.
    for (who, tags) in [("acton", [44, 45]), ("warren", [46, 47])] {
        let body = tags.map(|n| format!("NEW GAME MN{n}")).join("\n");
        t.send(who, "new", &body);
    }
    let body: Vec<String> = (48..52).map(|n| format!("NEW GAME MN{n}")).collect();
    let (s, _) = t.send("speaker", "new", &body.join("\n"));
    assert_eq!(s.matches("new game MN").count(), 4, "{s}");
    let (s, mails) = t.send("speaker", "new", "NEW GAME MN52");
    assert_eq!(s, "new game: lobby limit", "{mails:?}");
    let text = flat(&to(&mails, "speaker"));
    assert!(text.contains("10 games are waiting in the lobby"), "{text}");
    assert!(text.contains("waiting_games = 10"), "{text}");
}
