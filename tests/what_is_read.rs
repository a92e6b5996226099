//! What a reader sees is what is read, and a name cannot pass for
//! another (issue 40, findings 4 and 5), through the embedded referee:
//! raw mail in, the verdicts and refusals read back from the outbox.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::LobbyConfig;
use mornbot::daemon::letter::letter;
use mornbot::store::Origin;
use support::lobby::*;

/// Sends an HTML-only mail from rushton (a player of MN1, first to play).
fn send_html(t: &mut T, id: &str, html: &str) -> String {
    let raw = format!(
        "From: rushton@example.org\r\nTo: {BOT}\r\nSubject: [MN1] turn\r\n\
         Message-ID: <{id}@example.org>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n"
    );
    let l = letter(raw.as_bytes(), &t.ctx, &t.referee);
    let origin = Origin {
        source: "test".into(),
        uidvalidity: None,
        uid: None,
    };
    t.referee
        .handle(&mut t.store, origin, &l, at(1))
        .unwrap()
        .summary
}

const PLAY: &str = "Rushton : Morden (NT) [Home: Tooting Broadway]";

#[test]
fn a_play_hidden_by_html_is_not_read() {
    for hidden in [
        format!("<div hidden>{PLAY}</div>"),
        format!("<div style=\"display:none\">{PLAY}</div>"),
        format!("<p style=\"color:red; DISPLAY: none !important\">{PLAY}</p>"),
        format!("<span style=\"visibility:hidden\">{PLAY}</span>"),
        format!("<span style=\"font-size:0px\">{PLAY}</span>"),
        format!("<div aria-hidden=\"true\" hidden=\"hidden\"><p>{PLAY}</p></div>"),
        format!("<div style=\"position:absolute;left:-9999px\">{PLAY}</div>"),
        format!("<p style=\"color:transparent\">{PLAY}</p>"),
        // Hidden by a sheet: a class, an id, one of several selectors and
        // classes, under @media, the sheet after the element.
        format!("<style>.x{{display:none}}</style><div class=\"x\">{PLAY}</div>"),
        format!("<div id=\"later\">{PLAY}</div><style>#later{{visibility:hidden}}</style>"),
        format!(
            "<style>@media screen {{ .a, .b {{ display: none }} }}</style>\
             <p class=\"c b\">{PLAY}</p>"
        ),
    ] {
        let mut t = T::new(LobbyConfig::default());
        let html = format!("<html><body><p>Morning all, my turn below.</p>{hidden}</body></html>");
        let s = send_html(&mut t, "h1", &html);
        assert_ne!(s, "legal", "{hidden}");
        let live = t.referee.live(&t.store, "MN1").unwrap();
        assert_eq!(live.game.plays.len(), 0, "{hidden}: nothing played");
    }
    // The same play, shown, is the turn: also under a sheet that hides
    // other classes, or hides it only in print.
    for shown in [
        format!("<p>{PLAY}</p>"),
        format!("<style>.x{{display:none}} @media print{{.p{{display:none}}}}</style><p class=\"p\">{PLAY}</p>"),
    ] {
        let mut t = T::new(LobbyConfig::default());
        let s = send_html(&mut t, "h2", &format!("<html><body>{shown}</body></html>"));
        assert_eq!(s, "legal", "{shown}");
    }
}

#[test]
fn a_name_that_can_pass_for_another_does_not_join() {
    let mut t = T::new(LobbyConfig::default());
    t.send("speaker", "new game", "NEW GAME MN20");
    // Each is refused, whatever catches it first: the body's cleaning
    // (invisible characters are never read), the name's own check, or its
    // likeness to a player's.
    for (name, why) in [
        ("Rusht\u{43e}n", "mixes the letters of two scripts"), // Cyrillic o
        ("Ru\u{455}hton", "mixes the letters of two scripts"), // Cyrillic s
        ("\u{3164}\u{3164}", "\"\" is not a player's name"),   // Hangul fillers
        ("Rush\u{200b}ton", "can be taken for Rushton"),       // zero-width space
    ] {
        // One address each: a stranger gets five replies an hour.
        let who = format!("m{}", name.len());
        let (s, mails) = t.send(&who, "join", &format!("JOIN MN20 as {name}"));
        assert!(!s.contains("awaiting confirmation"), "{name}: {s}");
        let text = flat(&mails.iter().collect::<Vec<_>>());
        assert!(text.contains(why), "{name}: {text}");
    }
    // A name in one script that looks like no player's is a name like any.
    let (s, _) = t.send(
        "mallory",
        "join",
        "JOIN MN20 as \u{416}\u{435}\u{43d}\u{44f}",
    );
    assert!(s.contains("awaiting confirmation"), "{s}");
    // A look-alike in one script: full-width letters read as Rushton.
    let (s, mails) = t.send("wide", "join", "JOIN MN20 as \u{ff32}ushton");
    assert!(s.contains("refused"), "{s}");
    let text = flat(&mails.iter().collect::<Vec<_>>());
    assert!(text.contains("can be taken for Rushton"), "{text}");
}

/// A games file whose players' names can be taken one for another is
/// refused, with the reason, before any game is recorded (issue 40,
/// finding 4; RULINGS L14): `Rushtоn` with a Cyrillic `о` beside Rushton,
/// and look-alikes in one script (full-width letters, capitals). The same
/// name at the same address, in two games, is one player.
#[test]
fn a_games_file_with_names_that_look_alike_is_refused() {
    let dir = std::env::temp_dir().join(format!("mornbot-lookalike-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.toml");
    let read = |second: &str, address: &str| {
        let text = format!(
            "[[game]]\ntag = \"MN1\"\n\
             [[game.player]]\nname = \"Rushton\"\naddress = \"rushton@example.org\"\n\
             [[game.player]]\nname = \"Warren\"\naddress = \"warren@example.org\"\n\
             [[game]]\ntag = \"MN2\"\n\
             [[game.player]]\nname = \"Acton\"\naddress = \"acton@example.org\"\n\
             [[game.player]]\nname = \"{second}\"\naddress = \"{address}\"\n"
        );
        std::fs::write(&file, text).unwrap();
        mornbot::daemon::games_file::read(&file).map_err(|e| e.to_string())
    };
    for (second, why) in [
        (
            "Rusht\u{43e}n",
            "player \"Rusht\u{43e}n\": it mixes the letters of two scripts",
        ),
        (
            "\u{ff32}\u{ff55}\u{ff53}\u{ff48}\u{ff54}\u{ff4f}\u{ff4e}",
            "can be taken for \"Rushton\" of MN1, another address's",
        ),
        ("RUSHTON", "can be taken for \"Rushton\" of MN1"),
    ] {
        let err = read(second, "mallory@example.org").unwrap_err();
        assert!(
            err.contains("[[game]] MN2") && err.contains(why),
            "{second}: {err}"
        );
        assert!(err.contains("games.toml"), "names the file: {err}");
    }
    // Rushton plays both games from one address: one player, not a look-alike.
    let games = read("Rushton", "rushton@example.org").unwrap();
    assert_eq!(games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
