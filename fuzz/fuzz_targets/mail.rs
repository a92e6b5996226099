//! Fuzz raw mail through reading, authentication, digests, classification and the
//! reply built to it: nothing panics, and whatever the mail holds, the
//! reply's header lines stay under RFC 5322's 998 characters and carry no
//! control character. Run with `-rss_limit_mb` and `-timeout` (scripts/test
//! does) so that a mail costing too much memory or time is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mornbot::mail::classify::{classify, ClassifyContext, GameInfo};
use mornbot::mail::digest;
use mornbot::mail::inbound::{parse, Limits};
use mornbot::mail::outbound::{build, reply_id, Auto, Identity, Reply};
use mornbot::map::Map;

fuzz_target!(|data: &[u8]| {
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
                games: vec![GameInfo {
                    tag: "MN12".into(),
                    players: vec!["Rushton".into(), "Cryer".into()],
                }],
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
