//! The mail reader and classifier on the `.eml` corpus in
//! `fixtures/mail/` (described in its README) for what its expectations
//! (`tests/mail_corpus.rs`) do not say: bodies, headers, ids, errors; plus
//! property tests that neither ever panics.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::PathBuf;

use mornbot::gsd::{parse_gsd, Gsd};
use mornbot::mail::classify::{classify, ClassifyContext, GameInfo, Request, Workflow};
use mornbot::mail::digest;
use mornbot::mail::inbound::{
    html_to_text, parse, AuthVerdict, AutoKind, Inbound, InboundError, Limits,
};
use mornbot::map::Map;
use proptest::prelude::*;

const GSD: &str = include_str!("../fixtures/mail/gsd-mn12.txt");

fn fixture(name: &str) -> Vec<u8> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "fixtures", "mail", name]
        .iter()
        .collect();
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn limits() -> Limits {
    Limits {
        own_addresses: vec!["mornbot@example.org".into()],
        loop_token: Some("mornbot@example.org".into()),
        trusted_authserv_id: Some("mx.example.net".into()),
        list_address: Some("lounge@lists.example.org".into()),
        ..Limits::default()
    }
}

fn ctx() -> ClassifyContext<'static> {
    ClassifyContext {
        map: Map::london_1999(),
        games: std::sync::Arc::new(mornbot::mail::classify::Roster::from(vec![
            GameInfo {
                tag: "MN12".into(),
                players: vec!["Rushton".into(), "Cryer".into(), "Brooke-Taylor".into()],
                kind: Default::default(),
            },
            GameInfo {
                tag: "MN13".into(),
                players: vec!["Garden".into(), "Lyttelton".into()],
                kind: Default::default(),
            },
        ])),
        bot_address: "mornbot@example.org".into(),
    }
}

fn read(name: &str) -> Inbound {
    parse(&fixture(name), &limits()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn reference() -> Gsd {
    parse_gsd(GSD, Map::london_1999()).expect("the reference GSD parses")
}

// ---- Bodies and headers -------------------------------------------------------

#[test]
fn plain_text_headers() {
    let m = read("01-plain-gsd.eml");
    assert_eq!(m.message_id, "turn-1@example.org");
    assert_eq!(m.from_name.as_deref(), Some("Tim Rushton"));
    assert_eq!(m.subject, "[MN12] Rushton's turn");
    assert_eq!(
        m.date.map(|d| d.to_rfc3339()),
        Some("2025-01-14T14:20:00+00:00".into())
    );
    assert_eq!(m.to, vec!["lounge@lists.example.org".to_string()]);
    assert_eq!(m.raw_size, fixture("01-plain-gsd.eml").len());
}

#[test]
fn a_list_reply_keeps_its_threading() {
    let m = read("02-bare-play.eml");
    assert_eq!(m.in_reply_to.as_deref(), Some("turn-1@example.org"));
    assert_eq!(
        m.references,
        vec![
            "turn-0@example.org".to_string(),
            "turn-1@example.org".into()
        ]
    );
}

#[test]
fn html_only_gsd_in_pre() {
    let m = read("03-html-pre.eml");
    assert!(m.body.contains(GSD.trim_end()), "{}", m.body);
    // The <pre> is set off by blank lines from the paragraphs around it.
    assert!(m.body.starts_with("My turn:\n\nGame MN12\n"), "{}", m.body);
    assert!(m.body.ends_with("(CN via: PD,NT)\n\nTim"), "{}", m.body);
    assert!(!m.body.contains("font-family"), "style is dropped");
}

#[test]
fn html_only_gsd_in_outlook_paragraphs() {
    let m = read("04-html-outlook-paragraphs.eml");
    assert!(m.body.contains(GSD.trim_end()), "{}", m.body);
    assert!(m.body.starts_with("Here is my turn.\n\nGame MN12\n"));
}

#[test]
fn html_only_gsd_with_br_and_nbsp() {
    let m = read("05-html-gmail-br.eml");
    assert!(m.body.contains(GSD.trim_end()), "{}", m.body);
    assert!(m.body.ends_with("\n--\nTim"), "{:?}", m.body);
}

#[test]
fn html_only_gsd_as_a_table() {
    let m = read("06-html-table.eml");
    assert!(
        m.body
            .contains("| Rushton       | Balham        | 3  | 17 | 2  |"),
        "{}",
        m.body
    );
}

#[test]
fn quoted_printable_and_base64_bodies() {
    let m = read("07-quoted-printable.eml");
    assert!(m.body.starts_with("Café turn; 2+2=4.\n"), "{}", m.body);
    assert!(m.body.contains(GSD.trim_end()));
    assert!(read("08-base64.eml").body.starts_with("Base64 turn.\n"));
}

#[test]
fn encoded_words_and_8bit_charsets() {
    let m = read("09-iso-8859-1.eml");
    assert_eq!(m.from_name.as_deref(), Some("Renée Cryer"));
    assert_eq!(m.subject, "[MN12] café");
    let m = read("10-utf8.eml");
    assert_eq!(m.from_name.as_deref(), Some("Bröoke-Taylor"));
    assert_eq!(m.subject, "[MN12] naïve");
}

#[test]
fn format_flowed_is_unflowed() {
    let m = read("11-format-flowed.eml");
    assert!(
        m.body.contains("\nFrom the stuffed line."),
        "space-stuffing removed"
    );
    assert!(!read("12-format-flowed-delsp.eml").body.contains("ic expi"));
}

#[test]
fn multipart_alternative_prefers_plain_text() {
    let m = read("13-multipart-alternative.eml");
    assert!(m.body.contains("PLAIN PART"));
    assert!(!m.body.contains("HTML PART"));
}

#[test]
fn attachments_are_not_read() {
    let m = read("39-attachment-gsd.eml");
    assert!(m.body.contains("My turn is attached."));
    assert!(!m.body.contains("Player"), "{}", m.body);
}

#[test]
fn an_html_blockquote_is_quoted() {
    let m = read("38-html-quoted-buzz.eml");
    assert!(m.body.contains("> Buzz: Rushton's turn 12"), "{}", m.body);
}

#[test]
fn a_take_back_replaces_with_its_own_gsd() {
    let m = read("32-take-back.eml");
    let Request::TakeBack(Some(g)) = classify(&m, &ctx()).request else {
        panic!("not a take-back")
    };
    let Request::Turn {
        text, gsd: true, ..
    } = *g
    else {
        panic!("not a take-back with a GSD: {g:?}")
    };
    let parsed = parse_gsd(&text, Map::london_1999()).unwrap();
    assert_eq!(parsed.plays.len(), 3);
    assert_eq!(parsed.plays[0].player, "Rushton");
    assert_ne!(parsed, reference());
}

// ---- Never-reply markers ----------------------------------------------------

#[test]
fn own_mail_without_the_loop_token() {
    let mut l = limits();
    l.loop_token = None;
    let m = parse(&fixture("21-own-loop.eml"), &l).unwrap();
    assert_eq!(m.auto, Some(AutoKind::Own));
    l.own_addresses.clear();
    let m = parse(&fixture("21-own-loop.eml"), &l).unwrap();
    assert_eq!(m.auto, None);
}

#[test]
fn a_list_post_keeps_its_list_id() {
    let m = read("20-list-post.eml");
    assert_eq!(m.list_id.as_deref(), Some("lounge.lists.example.org"));
}

#[test]
fn list_notice_needs_the_list_address_for_plus_owner() {
    let mut l = limits();
    l.list_address = None;
    let m = parse(&fixture("19-mlmmj-notice.eml"), &l).unwrap();
    // `lounge+owner@` still ends in "+owner".
    assert_eq!(m.auto, Some(AutoKind::ListNotice));
}

#[test]
fn a_bounce_is_read_for_its_text_only_and_never_a_buzz() {
    let m = read("16-bounce-dsn.eml");
    assert!(m
        .body
        .contains("Buzz: your message could not be delivered."));
    assert!(!m.body.contains("Reporting-MTA"), "only the text part");
    // The same text without the markers would be a Buzz.
    let mut unmarked = m.clone();
    unmarked.auto = None;
    assert!(matches!(
        classify(&unmarked, &ctx()).request,
        Request::Workflow(Workflow::Buzz { .. })
    ));
}

// ---- Ids, errors ----------------------------------------------------------------

#[test]
fn missing_message_id_is_synthesized_stably() {
    let raw = fixture("22-no-message-id.eml");
    let a = parse(&raw, &limits()).unwrap();
    let b = parse(&raw, &limits()).unwrap();
    assert!(a.message_id.starts_with("missing-"), "{}", a.message_id);
    assert!(a.message_id.ends_with("@mornbot.invalid"));
    assert_eq!(
        a.message_id.len(),
        "missing-".len() + 16 + "@mornbot.invalid".len()
    );
    assert_eq!(a.message_id, b.message_id);
    let mut other = raw.clone();
    other.extend_from_slice(b"\nmore\n");
    assert_ne!(parse(&other, &limits()).unwrap().message_id, a.message_id);
}

#[test]
fn oversize_mail_still_has_an_envelope() {
    let mut raw = fixture("29-buzz.eml");
    raw.extend(std::iter::repeat_n(b'x', limits().max_bytes));
    let err = parse(&raw, &limits()).unwrap_err();
    let InboundError::Oversize {
        bytes,
        limit,
        envelope,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*bytes, *limit), (raw.len(), 1 << 20));
    let env = envelope.as_ref().unwrap();
    assert_eq!(env.from.as_deref(), Some("barry@example.com"));
    assert_eq!(env.message_id, "buzz-29@example.com");
    assert_eq!(env.subject, "Re: [lounge] [MN12] Rushton's turn");
    assert_eq!(env.in_reply_to.as_deref(), Some("turn-1@example.org"));
    assert_eq!(env.auto, None);
    assert!(err.to_string().contains("over the limit"));
    // An oversize bounce says not to answer it.
    let small = Limits {
        max_bytes: 100,
        ..limits()
    };
    let err = parse(&fixture("16-bounce-dsn.eml"), &small).unwrap_err();
    assert_eq!(err.envelope().unwrap().auto, Some(AutoKind::Bounce));
}

#[test]
fn an_unreadable_mail_keeps_what_its_headers_say() {
    let err = parse(&fixture("40-no-from.eml"), &limits()).unwrap_err();
    let env = err.envelope().unwrap();
    assert_eq!(env.subject, "[MN12] who am I");
    assert_eq!(env.from, None);
    assert!(matches!(
        parse(b"", &limits()),
        Err(InboundError::Unreadable { .. })
    ));
}

#[test]
fn authentication_results_need_a_trusted_id() {
    let untrusting = Limits {
        trusted_authserv_id: None,
        ..limits()
    };
    let m = parse(&fixture("24-auth-pass.eml"), &untrusting).unwrap();
    assert_eq!(m.auth, AuthVerdict::Unknown);
}

// ---- Property tests ---------------------------------------------------------------

/// Fragments that steer generated text into the interesting paths.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("> ".to_string()),
        Just("-- \n".to_string()),
        Just("Buzz: ".to_string()),
        Just("BUZZ!".to_string()),
        Just("Rushton's turn 12: ".to_string()),
        Just("Judgment: Illegal".to_string()),
        Just("Take back: ".to_string()),
        Just("Rushton : Euston (NT)".to_string()),
        Just("Game MN12\n".to_string()),
        Just("+----+----+\n| Player | Home | LV | Ch | Tokens |\n".to_string()),
        Just("STATUS MN12\n".to_string()),
        Just("On Mon, X wrote:\n".to_string()),
        Just("-----Original Message-----\n".to_string()),
        Just("<pre>".to_string()),
        Just("<table><tr><td>".to_string()),
        Just("&nbsp;".to_string()),
        Just("İ".to_string()),
        Just("€".to_string()),
        "\\PC{0,12}".prop_map(|s| s),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..40).prop_map(|v| v.concat())
}

fn inbound(subject: String, body: String, to_bot: bool) -> Inbound {
    Inbound {
        message_id: "p@x".into(),
        in_reply_to: None,
        references: Vec::new(),
        from: "p@example.org".into(),
        from_name: None,
        to: if to_bot {
            vec!["mornbot@example.org".into()]
        } else {
            Vec::new()
        },
        subject,
        date: None,
        raw_size: body.len(),
        reply_to: vec![],
        original_from: None,
        read_as: None,
        body,
        auto: None,
        auth: AuthVerdict::Unknown,
        list_id: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..3000)) {
        if let Ok(m) = parse(&bytes, &limits()) {
            let _ = digest::read(&bytes, &m, &limits());
        }
    }

    #[test]
    fn parse_never_panics_on_mangled_fixtures(
        which in 0usize..40,
        at in any::<prop::sample::Index>(),
        junk in prop::collection::vec(any::<u8>(), 0..64),
        cut in any::<bool>(),
    ) {
        let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "fixtures", "mail"].iter().collect();
        let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "eml"))
            .collect();
        names.sort();
        let mut raw = std::fs::read(&names[which % names.len()]).unwrap();
        let i = at.index(raw.len() + 1);
        if cut {
            raw.truncate(i);
        }
        raw.splice(i.min(raw.len())..i.min(raw.len()), junk);
        if let Ok(m) = parse(&raw, &limits()) {
            let _ = classify(&m, &ctx());
            for post in digest::read(&raw, &m, &limits()).into_iter().flat_map(|d| d.posts) {
                if let Ok(p) = post.read {
                    let _ = classify(&p, &ctx());
                }
            }
        }
    }

    #[test]
    fn html_and_mail_text_never_panic(head in text(), html in text()) {
        let _ = html_to_text(&html);
        let raw = format!("From: a@b.c\nSubject: {}\nContent-Type: text/html\n\n{html}", head.replace('\n', " "));
        if let Ok(m) = parse(raw.as_bytes(), &limits()) {
            let _ = classify(&m, &ctx());
        }
    }

    #[test]
    fn classify_never_panics(subject in text(), body in text(), to_bot in any::<bool>(), games in any::<bool>()) {
        let c = if games { ctx() } else { ClassifyContext { games: Default::default(), ..ctx() } };
        let m = classify(&inbound(subject, body, to_bot), &c);
        // An excerpt always points inside the body.
        if let Request::Turn { line, column, .. } = &m.request {
            prop_assert!(*line >= 1 && *column >= 1);
        }
    }
}

/// A part that says UTF-8 (or says nothing) but holds Windows-1252 bytes,
/// as Outlook and Notepad on Windows write them, in each transfer
/// encoding: read as Windows-1252, with a note for the reply; never
/// with U+FFFD in a player's name.
#[test]
fn windows_1252_bytes_under_a_utf8_label_are_read_as_such() {
    use base64::Engine;
    let text: &[u8] = b"Zo\xeb Lyons : Euston (NT)\r\n";
    let head = |charset: &str, cte: &str| {
        format!(
            "From: Zoe <zoe@example.org>\r\nTo: lounge@lists.example.org\r\nSubject: [MN12] turn\r\n\
             Message-ID: <cp1252-{cte}@example.org>\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain{charset}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n"
        )
        .into_bytes()
    };
    let qp: Vec<u8> = b"Zo=EB Lyons : Euston (NT)\r\n".to_vec();
    let b64 = base64::engine::general_purpose::STANDARD
        .encode(text)
        .into_bytes();
    for (charset, cte, body) in [
        ("; charset=utf-8", "8bit", text.to_vec()),
        ("", "8bit", text.to_vec()),
        ("; charset=\"UTF-8\"", "quoted-printable", qp),
        ("; charset=utf-8", "base64", b64),
    ] {
        let mut raw = head(charset, cte);
        raw.extend(body);
        let m = parse(&raw, &limits()).unwrap();
        assert_eq!(
            m.body.trim_end(),
            "Zoë Lyons : Euston (NT)",
            "{charset} {cte}"
        );
        assert_eq!(
            m.read_as,
            Some(mornbot::text::CP1252_NOTE),
            "{charset} {cte}"
        );
    }
    // True UTF-8 says nothing.
    let mut raw = head("; charset=utf-8", "8bit");
    raw.extend("Zoë Lyons : Euston (NT)\r\n".as_bytes());
    let m = parse(&raw, &limits()).unwrap();
    assert_eq!(m.read_as, None);
}

/// What a reader does not see is not read: a zero-width space before a
/// Play, a byte-order mark in mid-mail, a line of only invisible
/// characters, decomposed accents.
#[test]
fn invisible_characters_are_not_read_and_accents_are_composed() {
    let raw = "From: a <a@example.org>\r\nTo: lounge@lists.example.org\r\nSubject: x\r\n\
               Message-ID: <zw@example.org>\r\nMIME-Version: 1.0\r\n\
               Content-Type: text/plain; charset=utf-8\r\n\r\n\
               \u{200b}Drone : Pass\r\n\u{feff}\u{2060}\r\nZoe\u{308} : Bank (NT)\r\n";
    let m = parse(raw.as_bytes(), &limits()).unwrap();
    assert_eq!(m.body.trim_end(), "Drone : Pass\n\nZoë : Bank (NT)");
}
