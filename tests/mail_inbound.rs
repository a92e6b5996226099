//! The mail reader and classifier against the `.eml` corpus in
//! `fixtures/mail/` (described in its README), plus property tests that
//! neither ever panics.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::PathBuf;

use mornbot::gsd::{parse_gsd, parse_play, Gsd};
use mornbot::mail::classify::{
    classify, ClassifyContext, Command, Excerpt, GameInfo, GameRef, Kind, Message, Replacement,
};
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
        games: vec![
            GameInfo {
                tag: "MN12".into(),
                players: vec!["Rushton".into(), "Cryer".into(), "Brooke-Taylor".into()],
            },
            GameInfo {
                tag: "MN13".into(),
                players: vec!["Garden".into(), "Lyttelton".into()],
            },
        ],
        bot_address: "mornbot@example.org".into(),
    }
}

fn read(name: &str) -> Inbound {
    parse(&fixture(name), &limits()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn classified(name: &str) -> (Inbound, Message) {
    let m = read(name);
    let c = classify(&m, &ctx());
    (m, c)
}

fn reference() -> Gsd {
    parse_gsd(GSD, Map::london_1999()).expect("the reference GSD parses")
}

/// The message is a Turn with a GSD equal to the reference; returns the
/// excerpt.
fn gsd_turn(name: &str) -> Excerpt {
    let (m, c) = classified(name);
    assert_eq!(m.auto, None, "{name}");
    let Kind::Turn {
        gsd: Some(gsd),
        play: None,
    } = c.kind
    else {
        panic!("{name}: not a GSD turn: {:?}\nbody:\n{}", c.kind, m.body)
    };
    let parsed = parse_gsd(&gsd.text, Map::london_1999())
        .unwrap_or_else(|e| panic!("{name}: {e}\nexcerpt:\n{}", gsd.text));
    assert_eq!(parsed, reference(), "{name}");
    assert_eq!(c.game, GameRef::Tagged("MN12".into()), "{name}");
    // The excerpt is where the body says it is.
    let body_line = m.body.split('\n').nth(gsd.line - 1).unwrap();
    assert_eq!(body_line, gsd.text.split('\n').next().unwrap(), "{name}");
    gsd
}

/// The message is a Turn with this Play line; returns the excerpt.
fn play_turn(name: &str, play: &str) -> (Inbound, Message, Excerpt) {
    let (m, c) = classified(name);
    let Kind::Turn {
        gsd: None,
        play: Some(p),
    } = c.kind.clone()
    else {
        panic!("{name}: not a play turn: {:?}\nbody:\n{}", c.kind, m.body)
    };
    assert_eq!(p.text, play, "{name}");
    parse_play(&p.text, Map::london_1999()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        m.body.split('\n').nth(p.line - 1).map(str::trim_end),
        Some(play.split('\n').next().unwrap()),
        "{name}"
    );
    (m, c, p)
}

// ---- Bodies: encodings, charsets, HTML, flowed ---------------------------

#[test]
fn plain_text_gsd_turn() {
    let gsd = gsd_turn("01-plain-gsd.eml");
    assert_eq!((gsd.line, gsd.column), (3, 1));
    assert!(gsd.text.starts_with("Game MN12\n+----"));
    assert!(!gsd.text.contains("Cryer : Pass"), "the signature is cut");
    let m = read("01-plain-gsd.eml");
    assert!(!m.body.contains('\r'), "CRLF becomes LF");
    assert_eq!(m.message_id, "turn-1@example.org");
    assert_eq!(m.from, "tim@example.org");
    assert_eq!(m.from_name.as_deref(), Some("Tim Rushton"));
    assert_eq!(m.subject, "[MN12] Rushton's turn");
    assert_eq!(
        m.date.map(|d| d.to_rfc3339()),
        Some("2025-01-14T14:20:00+00:00".into())
    );
    assert_eq!(m.to, vec!["lounge@lists.example.org".to_string()]);
    assert_eq!(m.raw_size, fixture("01-plain-gsd.eml").len());
    assert_eq!(m.auth, AuthVerdict::Unknown);
}

#[test]
fn bare_play_line_in_a_list_reply() {
    let (m, c, p) = play_turn("02-bare-play.eml", "Cryer : [LV+1] Edgware Road (BL)");
    assert_eq!((p.line, p.column), (1, 1));
    assert_eq!(c.game, GameRef::Tagged("MN12".into()));
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
    gsd_turn("03-html-pre.eml");
    let m = read("03-html-pre.eml");
    assert!(m.body.contains(GSD.trim_end()), "{}", m.body);
    // The <pre> is set off by blank lines from the paragraphs around it.
    assert!(m.body.starts_with("My turn:\n\nGame MN12\n"), "{}", m.body);
    assert!(m.body.ends_with("(CN via: PD,NT)\n\nTim"), "{}", m.body);
    assert!(!m.body.contains("font-family"), "style is dropped");
}

#[test]
fn html_only_gsd_in_outlook_paragraphs() {
    gsd_turn("04-html-outlook-paragraphs.eml");
    let m = read("04-html-outlook-paragraphs.eml");
    assert!(m.body.contains(GSD.trim_end()), "{}", m.body);
    assert!(m.body.starts_with("Here is my turn.\n\nGame MN12\n"));
}

#[test]
fn html_only_gsd_with_br_and_nbsp() {
    gsd_turn("05-html-gmail-br.eml");
    let m = read("05-html-gmail-br.eml");
    assert!(m.body.contains(GSD.trim_end()), "{}", m.body);
    assert!(m.body.ends_with("\n--\nTim"), "{:?}", m.body);
}

#[test]
fn html_only_gsd_as_a_table() {
    gsd_turn("06-html-table.eml");
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
    gsd_turn("07-quoted-printable.eml");
    let m = read("07-quoted-printable.eml");
    assert!(m.body.starts_with("Café turn; 2+2=4.\n"), "{}", m.body);
    assert!(m.body.contains(GSD.trim_end()));
    gsd_turn("08-base64.eml");
    assert!(read("08-base64.eml").body.starts_with("Base64 turn.\n"));
}

#[test]
fn iso_8859_1_body_and_encoded_words() {
    let (m, _, _) = play_turn(
        "09-iso-8859-1.eml",
        "Cryer : [LV+1] Edgware Road (BL) {café crème}",
    );
    assert_eq!(m.from, "renee@example.com", "lowercased");
    assert_eq!(m.from_name.as_deref(), Some("Renée Cryer"));
    assert_eq!(m.subject, "[MN12] café");
}

#[test]
fn utf8_body() {
    let (m, _, _) = play_turn(
        "10-utf8.eml",
        "Brooke-Taylor : Holborn (CN via: PD,NT) {naïve — £5}",
    );
    assert_eq!(m.from_name.as_deref(), Some("Bröoke-Taylor"));
    assert_eq!(m.subject, "[MN12] naïve");
}

#[test]
fn format_flowed_play_is_joined() {
    let (m, _, _) = play_turn(
        "11-format-flowed.eml",
        "Rushton : [LV+1] Euston (VC via: CN,NT) {a long comment to make this line wrap over the seventy-eight column limit}",
    );
    assert!(
        m.body.contains("\nFrom the stuffed line."),
        "space-stuffing removed"
    );
    let (m, _, _) = play_turn(
        "12-format-flowed-delsp.eml",
        "Rushton : [LV+1] Euston (VC via: CN,NT) {supercalifragilisticexpialidocious}",
    );
    assert!(!m.body.contains("ic expi"));
}

#[test]
fn multipart_alternative_prefers_plain_text() {
    let (m, _, _) = play_turn(
        "13-multipart-alternative.eml",
        "Cryer : [LV+1] Edgware Road (BL)",
    );
    assert!(m.body.contains("PLAIN PART"));
    assert!(!m.body.contains("HTML PART"));
}

#[test]
fn quoted_gsd_with_a_new_play_below() {
    let (m, c, p) = play_turn(
        "14-quoted-reply-play.eml",
        "Rushton : [LV+2] Mornington Crescent (NT)",
    );
    assert_eq!(p.line, 2 + GSD.trim_end().lines().count() + 1);
    assert_eq!(c.game, GameRef::Tagged("MN12".into()));
    assert!(m.body.starts_with("On Tue"));
}

#[test]
fn a_play_in_the_signature_is_chatter() {
    let (_, c) = classified("15-signature-play.eml");
    assert_eq!(c.kind, Kind::Chatter);
}

#[test]
fn attachments_are_not_read() {
    let (m, c) = classified("39-attachment-gsd.eml");
    assert!(m.body.contains("My turn is attached."));
    assert!(!m.body.contains("Player"), "{}", m.body);
    assert_eq!(c.kind, Kind::Chatter);
}

// ---- Never-reply markers ----------------------------------------------------

#[test]
fn auto_kinds() {
    let auto = |name: &str| read(name).auto;
    assert_eq!(auto("16-bounce-dsn.eml"), Some(AutoKind::Bounce));
    assert_eq!(auto("17-auto-replied.eml"), Some(AutoKind::AutoSubmitted));
    assert_eq!(auto("18-vacation-bulk.eml"), Some(AutoKind::Bulk));
    assert_eq!(auto("19-mlmmj-notice.eml"), Some(AutoKind::ListNotice));
    assert_eq!(
        auto("20-list-post.eml"),
        None,
        "a post the list distributes"
    );
    assert_eq!(auto("21-own-loop.eml"), Some(AutoKind::Loop));
    for name in ["01-plain-gsd.eml", "02-bare-play.eml", "29-buzz.eml"] {
        assert_eq!(auto(name), None, "{name}");
    }
}

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
fn list_post_keeps_its_list_id_and_is_a_turn() {
    let (m, _, _) = play_turn("20-list-post.eml", "Cryer : [LV+1] Edgware Road (BL)");
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
fn garbage_and_missing_from_are_unreadable() {
    let err = parse(&fixture("23-garbage.eml"), &limits()).unwrap_err();
    assert!(matches!(err, InboundError::Unreadable { .. }), "{err:?}");
    let err = parse(&fixture("40-no-from.eml"), &limits()).unwrap_err();
    let env = err.envelope().unwrap();
    assert_eq!(env.message_id, "nofrom-40@example.org");
    assert_eq!(env.subject, "[MN12] who am I");
    assert_eq!(env.from, None);
    assert!(matches!(
        parse(b"", &limits()),
        Err(InboundError::Unreadable { .. })
    ));
}

// ---- Authentication-Results ------------------------------------------------------

#[test]
fn authentication_results() {
    let auth = |name: &str| read(name).auth;
    assert_eq!(auth("24-auth-pass.eml"), AuthVerdict::Pass);
    assert_eq!(auth("25-auth-fail.eml"), AuthVerdict::Fail);
    assert_eq!(auth("26-auth-forged-other-id.eml"), AuthVerdict::Unknown);
    assert_eq!(auth("27-auth-forged-below.eml"), AuthVerdict::Fail);
    let untrusting = Limits {
        trusted_authserv_id: None,
        ..limits()
    };
    let m = parse(&fixture("24-auth-pass.eml"), &untrusting).unwrap();
    assert_eq!(m.auth, AuthVerdict::Unknown);
}

// ---- Kinds ------------------------------------------------------------------------

#[test]
fn commands_sent_to_the_bot() {
    let (_, c) = classified("28-commands-direct.eml");
    assert!(c.direct);
    assert_eq!(
        c.kind,
        Kind::Command(vec![
            Command::Status {
                game: Some("MN12".into())
            },
            Command::Gsd {
                game: Some("MN13".into())
            },
            Command::History { game: None },
            Command::Rules {
                topic: Some("coverage".into())
            },
            Command::Help,
            Command::Unknown("SCORES".into()),
        ])
    );
}

#[test]
fn buzzes() {
    let (_, c) = classified("29-buzz.eml");
    assert_eq!(
        c.kind,
        Kind::Buzz {
            player: Some("Rushton".into()),
            turn: Some(12),
            reason: "Euston (NT) needs LV 4, he has 3.\nSee Rule 1.6.1.".into()
        }
    );
    let (_, c) = classified("30-buzz-bottom-posted.eml");
    assert_eq!(
        c.kind,
        Kind::Buzz {
            player: None,
            turn: None,
            reason: "Euston was Pegged.".into()
        }
    );
    // Only unquoted text counts: a quoted Buzz (HTML blockquote) is not new.
    let (m, c) = classified("38-html-quoted-buzz.eml");
    assert!(m.body.contains("> Buzz: Rushton's turn 12"), "{}", m.body);
    assert_eq!(c.kind, Kind::Chatter);
}

#[test]
fn buzz_workflow_replies() {
    let kind = |name: &str| classified(name).1.kind;
    assert_eq!(
        kind("31-judgment.eml"),
        Kind::Judgment {
            legal: true,
            text: "Judgement: Legal.\nThe LV was raised by the Action in the same Play.".into()
        }
    );
    assert_eq!(kind("33-concede.eml"), Kind::Concede);
    assert_eq!(
        kind("34-contest.eml"),
        Kind::Contest {
            text: "the [LV+1] makes it 4.".into()
        }
    );
    assert_eq!(kind("35-withdraw.eml"), Kind::Withdraw);
    assert_eq!(kind("36-decline.eml"), Kind::Decline);
}

#[test]
fn take_back_with_a_replacement_gsd() {
    let (m, c) = classified("32-take-back.eml");
    let Kind::TakeBack {
        replacement: Some(Replacement::Gsd(g)),
    } = c.kind
    else {
        panic!("{:?}", c.kind)
    };
    assert_eq!(g.line, 3);
    assert_eq!(m.body.split('\n').nth(2), Some("Game MN12"));
    let parsed = parse_gsd(&g.text, Map::london_1999()).unwrap();
    assert_eq!(parsed.plays.len(), 3);
    assert_eq!(parsed.plays[0].player, "Rushton");
    assert_ne!(parsed, reference());
}

#[test]
fn game_tags() {
    let game = |name: &str| classified(name).1.game;
    assert_eq!(game("02-bare-play.eml"), GameRef::Tagged("MN12".into()));
    assert_eq!(
        game("37-ambiguous.eml"),
        GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
    );
    // The commands mail has no tag: both games are candidates.
    assert_eq!(
        game("28-commands-direct.eml"),
        GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
    );
}

#[test]
fn auto_mail_is_chatter() {
    // The bounce's text says "Buzz:", the auto-reply too, the notice is
    // sent to the bot, and the looped mail holds a GSD: all chatter.
    for name in [
        "16-bounce-dsn.eml",
        "17-auto-replied.eml",
        "18-vacation-bulk.eml",
        "19-mlmmj-notice.eml",
        "21-own-loop.eml",
    ] {
        let (m, c) = classified(name);
        assert!(m.auto.is_some(), "{name}");
        assert_eq!(c.kind, Kind::Chatter, "{name}");
    }
    let m = read("16-bounce-dsn.eml");
    assert!(m
        .body
        .contains("Buzz: your message could not be delivered."));
    assert!(!m.body.contains("Reporting-MTA"), "only the text part");
    // The same text without the markers would be a Buzz.
    let mut unmarked = m.clone();
    unmarked.auto = None;
    assert!(matches!(
        classify(&unmarked, &ctx()).kind,
        Kind::Buzz { .. }
    ));
    assert_eq!(
        classified("21-own-loop.eml").1.game,
        GameRef::Tagged("MN12".into())
    );
}

#[test]
fn every_fixture_reads_or_fails_cleanly() {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "fixtures", "mail"]
        .iter()
        .collect();
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eml") {
            continue;
        }
        n += 1;
        let raw = std::fs::read(&path).unwrap();
        match parse(&raw, &limits()) {
            Ok(m) => {
                let _ = classify(&m, &ctx());
                assert!(!m.body.contains('\r'), "{}", path.display());
            }
            Err(e) => {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                assert!(
                    ["23-garbage.eml", "40-no-from.eml"].contains(&name.as_str()),
                    "{name}: {e}"
                );
            }
        }
    }
    assert!(n >= 40, "{n} fixtures");
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
        let _ = parse(&bytes, &limits());
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
        let c = if games { ctx() } else { ClassifyContext { games: Vec::new(), ..ctx() } };
        let m = classify(&inbound(subject, body, to_bot), &c);
        // An excerpt always points inside the body.
        if let Kind::Turn { gsd, play } = &m.kind {
            for e in gsd.iter().chain(play) {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
        }
    }
}
