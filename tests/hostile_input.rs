//! Input that once crashed mornbot, found by the panic audit and its fuzz
//! targets: each must now get an answer (a reply, an error, a verdict) and
//! never a panic. The daemon reads mail from strangers, so a crash here is
//! a crash loop (the mail is read again after every restart).

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::{letter, Context};
use mornbot::daemon::referee::Referee;
use mornbot::mail::inbound::Limits;
use mornbot::mail::outbound::Identity;
use mornbot::map::Map;
use mornbot::store::{Origin, Store};

fn me() -> Identity {
    Identity {
        address: "mornbot@example.test".into(),
        name: "mornbot".into(),
        lounge: "lounge@example.test".into(),
    }
}

fn game() -> GameConfig {
    GameConfig {
        tag: "MN1".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Warren", "Acton"]
            .iter()
            .map(|n| PlayerConfig {
                name: n.to_string(),
                address: format!("{}@example.org", n.to_lowercase()),
            })
            .collect(),
        referee: None,
        rulings: Default::default(),
    }
}

fn at(min: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 16, 9, 0, 0).unwrap() + chrono::Duration::minutes(min)
}

fn origin() -> Origin {
    Origin {
        source: "maildir".into(),
        uidvalidity: None,
        uid: None,
    }
}

fn setup(speaker: SpeakerConfig) -> (Referee, Store, Context) {
    let map = Map::london_1999();
    let mut store = Store::in_memory().unwrap();
    let referee = Referee::load(map, me(), speaker, &[game()], &mut store, at(0)).unwrap();
    let ctx = Context {
        map,
        limits: Limits {
            own_addresses: vec![me().address],
            list_address: Some(me().lounge),
            ..Limits::default()
        },
        bot: me().address,
        clock: mornbot::daemon::clock::Clock::System,
    };
    (referee, store, ctx)
}

/// Handles one raw mail and returns every mail the bot has queued.
fn handle(raw: &str) -> Vec<String> {
    let (mut referee, mut store, ctx) = setup(SpeakerConfig::default());
    let l = letter(raw.as_bytes(), &ctx, &referee);
    referee.handle(&mut store, origin(), &l, at(1)).unwrap();
    store
        .all_mail()
        .unwrap()
        .iter()
        .map(|m| String::from_utf8_lossy(&m.raw).into_owned())
        .collect()
}

#[test]
fn a_caret_under_text_that_grows_when_lower_cased() {
    // `İ` lower-cases to one byte more: the caret once sliced the play at
    // a wrong offset, inside `é`, on every buzz of such a play.
    let c = mornbot::mail::render::caret(
        "Dee : {İ} [Purchasing Hat (ééé)] Southfields (DS)",
        Some("ééé"),
    );
    assert!(c.contains('^'), "{c}");
    let out = handle("From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\nMessage-ID: <t1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nRushton : {İ} Epping (CN) [Home: Hainault] [Purchasing Hat (ééé)]\r\n");
    assert!(
        out.iter().any(|m| m.contains("BUZZ") && m.contains("^~~")),
        "{out:?}"
    );
}

#[test]
fn a_stranger_with_a_non_ascii_subject_gets_a_reply() {
    // The reply's "Re:" test once cut the Subject at byte 3, inside `é`.
    let out = handle("From: stranger@example.net\r\nTo: mornbot@example.test\r\nSubject: \u{e9}\u{e9}\r\nMessage-ID: <s1@example.net>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n");
    assert!(!out.is_empty());
}

#[test]
fn an_absurd_token_count_is_a_parse_error_not_an_overflow() {
    let out = handle("From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\nMessage-ID: <h1@example.org>\r\nContent-Type: text/plain\r\n\r\nRushton : [Home: Hainault] [Hoarding 4294967295Re,1Bu] Epping (CN)\r\n");
    assert!(!out.is_empty());
}

#[test]
fn a_token_stack_on_a_ghost_station_is_refused() {
    let gsd = "+-----------+------------+----+-----+----------------------+\r\n\
| Player    | Home       | LV |  Ch | Bk Bu Br Go Gr Re Si |\r\n\
+-----------+------------+----+-----+----------------------+\r\n\
| Rushton   |            |  0 |   0 |  2  0  2  0  0  2  0 |\r\n\
| Warren    |            |  0 |   0 |  2  0  2  0  0  2  0 |\r\n\
| Acton     |            |  0 |   0 |  2  0  2  0  0  2  0 |\r\n\
+-----------+------------+----+-----+----------------------+\r\n\
\r\n\
+- Token Stacks -------------------------------------------------------+\r\n\
| Aldwych            | ReSi         |\r\n\
+----------------------------------------------------------------------+\r\n";
    let err = mornbot::gsd::parse_gsd(&gsd.replace("\r\n", "\n"), Map::london_1999()).unwrap_err();
    assert!(err.to_string().contains("Ghost Station"), "{err}");
    let out = handle(&format!("From: rushton@example.org\r\nTo: lounge@example.test\r\nSubject: [MN1] turn\r\nMessage-ID: <g1@example.org>\r\nContent-Type: text/plain\r\n\r\n{gsd}\r\nRushton : Epping (CN) [Home: Hainault]\r\n"));
    assert!(!out.is_empty());
}

#[test]
fn out_of_range_numbers_in_a_gsd_are_parse_errors() {
    let row = |lv: &str, ch: &str, si: &str| {
        format!("+-----+------+----+-----+----------------------+\n| Player | Home | LV | Ch | Bk Bu Br Go Gr Re Si |\n+-----+------+----+-----+----------------------+\n| Dee |  | {lv} | {ch} | 1 1 1 1 1 1 {si} |\n+-----+------+----+-----+----------------------+\n")
    };
    let map = Map::london_1999();
    assert!(mornbot::gsd::parse_gsd(&row("1", "0", "1"), map).is_ok());
    for (lv, ch, si, what) in [
        ("4294967295", "0", "1", "LV"),
        ("1", "-2147483648", "1", "Charge"),
        ("1", "1000", "1", "Charge"),
        ("1", "0", "4294967295", "Silver"),
    ] {
        let err = mornbot::gsd::parse_gsd(&row(lv, ch, si), map).unwrap_err();
        assert!(err.to_string().contains(what), "{what}: {err}");
    }
}

#[test]
fn a_via_list_longer_than_any_route_is_refused() {
    let via = ["CN"; 41].join(",");
    let map = Map::london_1999();
    assert!(mornbot::gsd::parse_play(&format!("Dee : Bank (CN via: {via})"), map).is_err());
    let via = ["CN"; 3].join(",");
    assert!(mornbot::gsd::parse_play(&format!("Dee : Bank (CN via: {via})"), map).is_ok());
}

#[test]
fn a_multipart_mail_that_trips_mail_parser_is_unreadable_not_fatal() {
    // Found by the mail fuzz target: mail-parser 0.11 `debug_assert!`s on it.
    let raw = b"Content-Type: multipart;boundary=DSN\r\n\n--DSNContent-Type:message/rfc822\n\nContent-Type:message/rfc822\n\n\n--DSN--";
    let _ = mornbot::mail::inbound::parse(raw, &Limits::default());
}

#[test]
fn deadlines_beyond_the_calendar_are_refused_in_the_config() {
    for extra in [
        "[speaker]\nreminder_hours = 4294967295\n",
        "[speaker]\nwin_window_hours = 4294967295\n",
        "[outbox]\nunconfirmed_wait_secs = 9223372036854775807\n",
    ] {
        let cfg =
            Config::from_toml(&format!("[bot]\ndata_dir = \"data\"\n{extra}"), "test").unwrap();
        assert!(cfg.validate().is_err(), "{extra}");
    }
    let cfg = Config::from_toml(
        "[bot]\ndata_dir = \"data\"\n[speaker]\nreminder_hours = 24\n",
        "test",
    )
    .unwrap();
    assert!(cfg.validate().is_ok());
}
