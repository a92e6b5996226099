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
    ] {
        let mut t = T::new(LobbyConfig::default());
        let html = format!("<html><body><p>Morning all, my turn below.</p>{hidden}</body></html>");
        let s = send_html(&mut t, "h1", &html);
        assert_ne!(s, "legal", "{hidden}");
        let live = t.referee.live(&t.store, "MN1").unwrap();
        assert_eq!(live.game.plays.len(), 0, "{hidden}: nothing played");
    }
    // The same play, shown, is the turn.
    let mut t = T::new(LobbyConfig::default());
    let s = send_html(
        &mut t,
        "h2",
        &format!("<html><body><p>{PLAY}</p></body></html>"),
    );
    assert_eq!(s, "legal");
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
