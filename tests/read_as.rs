//! A mail whose bytes are not the UTF-8 it says is read as Windows-1252
//! ("ANSI", what Outlook and Notepad write), and every reply to it says so
//! (issue 39, item 2): the player learns how mornbot read eir text.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use mornbot::config::LobbyConfig;
use mornbot::daemon::letter::letter;
use mornbot::store::Origin;
use support::lobby::*;

/// Sends raw `body` bytes from rushton (a player of MN1) to the bot.
fn send_bytes(t: &mut T, id: &str, body: &[u8]) -> (String, Vec<String>) {
    let mut raw = format!(
        "From: rushton@example.org\r\nTo: {BOT}\r\nSubject: [MN1] turn\r\n\
         Message-ID: <{id}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    )
    .into_bytes();
    raw.extend_from_slice(body);
    raw.extend_from_slice(b"\r\n");
    let l = letter(&raw, &t.ctx, &t.referee);
    let before = t.store.all_mail().unwrap().len();
    let origin = Origin {
        source: "test".into(),
        uidvalidity: None,
        uid: None,
    };
    let h = t.referee.handle(&mut t.store, origin, &l, at(1)).unwrap();
    let mails = t.store.all_mail().unwrap()[before..]
        .iter()
        .map(|m| unwrap(&String::from_utf8_lossy(&m.raw)))
        .collect();
    (h.summary, mails)
}

#[test]
fn a_windows_1252_play_is_judged_and_every_reply_says_how_it_was_read() {
    let mut t = T::new(LobbyConfig::default());
    // `\x96` is an en dash in Windows-1252, and no UTF-8 at all.
    let (s, mails) = send_bytes(
        &mut t,
        "a1",
        b"Rushton : Morden (NT) [Home: Tooting Broadway] {Off we go \x96 south}",
    );
    assert_eq!(s, "legal", "{mails:?}");
    assert!(!mails.is_empty());
    for m in &mails {
        let flat = m.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("Note:") && flat.contains("Windows-1252"),
            "{m}"
        );
        // Once, before the signature.
        assert_eq!(flat.matches("Windows-1252").count(), 1, "{m}");
        let sig = flat
            .rfind("-- ")
            .or(flat.rfind("--=20"))
            .expect("a signature");
        assert!(flat.find("Note:").unwrap() < sig, "{m}");
    }
}

#[test]
fn a_utf8_mail_gets_no_note() {
    let mut t = T::new(LobbyConfig::default());
    let (s, mails) = send_bytes(
        &mut t,
        "a2",
        "Rushton : Morden (NT) [Home: Tooting Broadway] {Off we go – south}".as_bytes(),
    );
    assert_eq!(s, "legal", "{mails:?}");
    assert!(
        mails.iter().all(|m| !m.contains("Windows-1252")),
        "{mails:?}"
    );
}
