//! Fuzz raw mail through reading, authentication, digests, classification,
//! the referee (a game with three players, an in-memory store) and the
//! reply built to it: nothing panics, the referee never fails on a message, and
//! whatever the mail holds, the reply's header lines stay under RFC 5322's
//! 998 characters and carry no control character. Run with `-rss_limit_mb` and `-timeout` (scripts/test
//! does) so that a mail costing too much memory or time is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mornbot::mail::classify::{classify, ClassifyContext, GameInfo};
use mornbot::mail::digest;
use mornbot::mail::inbound::{parse, Limits};
use mornbot::mail::outbound::{build, reply_id, Auto, Identity, Reply};
use mornbot::map::Map;

/// The whole pipeline the daemon runs: `process` (`letters`, then
/// `Referee::handle` for each, a digest's posts first), committed to an
/// in-memory store. A store error is a finding.
fn referee(data: &[u8]) {
    use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
    use mornbot::daemon::letter::Context;
    use mornbot::daemon::referee::Referee;
    use mornbot::store::{Origin, Store};
    let me = Identity {
        address: "mornbot@example.org".into(),
        name: "mornbot".into(),
        lounge: "lounge@lists.example.org".into(),
    };
    let game = GameConfig {
        tag: "MN12".into(),
        start: "Monday 0900".into(),
        players: ["Rushton", "Cryer", "Garden"]
            .iter()
            .map(|n| PlayerConfig {
                name: n.to_string(),
                address: format!("{}@example.org", n.to_lowercase()),
            })
            .collect(),
        referee: None,
        rulings: Default::default(),
        // Judging is what is fuzzed; drawing is not (and is slow here).
        picture: false,
        kind: Default::default(),
        deadline: None,
        kind_rulings: Default::default(),
    };
    let speaker = SpeakerConfig {
        addresses: vec!["speaker@example.org".into()],
        ..SpeakerConfig::default()
    };
    let now = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
    let mut store = Store::in_memory().unwrap();
    let map = Map::london_1999();
    let mut r = Referee::load(map, me.clone(), speaker, &[game], &mut store, now).unwrap();
    let mut cfg = Config::default();
    cfg.bot.address = me.address.clone();
    cfg.bot.lounge = me.lounge.clone();
    cfg.bot.max_message_bytes = 1 << 20;
    let ctx = Context::new(map, &me, &cfg);
    let origin = Origin {
        source: "fuzz".into(),
        uidvalidity: Some(1),
        uid: Some(1),
    };
    mornbot::daemon::process(&mut r, &mut store, &ctx, data, origin, now, false).unwrap();
}

fuzz_target!(|data: &[u8]| {
    referee(data);
    let limits = Limits {
        own_addresses: vec!["mornbot@example.org".into()],
        loop_token: Some("mornbot@example.org".into()),
        trusted_authserv_id: Some("mx.example.net".into()),
        internal_networks: vec!["10.0.0.0/8".parse().unwrap()],
        list_address: Some("lounge@lists.example.org".into()),
        ..Limits::default()
    };
    let (from, subject, id, mut refs) = match parse(data, &limits) {
        Ok(m) => {
            let ctx = ClassifyContext {
                map: Map::london_1999(),
                games: std::sync::Arc::new(mornbot::mail::classify::Roster::from(vec![GameInfo {
                    tag: "MN12".into(),
                    players: vec!["Rushton".into(), "Cryer".into()],
                    kind: Default::default(),
                }])),
                bot_address: "mornbot@example.org".into(),
            };
            let _ = classify(&m, &ctx);
            // A digest's posts are read as mails of their own.
            for post in digest::read(data, &m, &limits)
                .into_iter()
                .flat_map(|d| d.posts)
            {
                if let Ok(p) = post.read {
                    let _ = classify(&p, &ctx);
                }
            }
            let mut refs = m.references.clone();
            refs.extend(m.in_reply_to.clone());
            (m.from, m.subject, m.message_id, refs)
        }
        Err(e) => match e.envelope() {
            Some(env) => match &env.from {
                Some(f) => (
                    f.clone(),
                    env.subject.clone(),
                    env.message_id.clone(),
                    env.references.clone(),
                ),
                None => return,
            },
            None => return,
        },
    };
    let me = Identity {
        address: "mornbot@example.org".into(),
        name: "mornbot".into(),
        lounge: "lounge@lists.example.org".into(),
    };
    refs.push(id.clone());
    let reply = Reply {
        to: vec![from],
        subject: format!("Re: {subject}"),
        body: "Refused.\n".into(),
        in_reply_to: Some(id.clone()),
        references: refs,
        message_id: reply_id(&id, 0, &me),
        date: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
        auto: Auto::Replied,
        picture: None,
    };
    // A sender address lettre will not take is an error, not a panic.
    let Ok(mail) = build(&me, &reply) else { return };
    let text = String::from_utf8_lossy(&mail.raw);
    let head = text.split("\r\n\r\n").next().unwrap_or("");
    for line in head.split("\r\n") {
        assert!(
            line.len() <= 998,
            "a reply header line of {} bytes",
            line.len()
        );
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\t'),
            "a control character in the reply header {line:?}"
        );
    }
});
