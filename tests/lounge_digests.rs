//! MIME digests through `process` into the referee: each post judged in
//! order as a message of its own, a crash between two posts, a digest a
//! player forwards (issue 13, item 7; RULINGS L6).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::fake_lounge::*;

mod digests {
    use super::*;

    /// A post as the list distributed it, inside a digest.
    fn inner(from: &str, id: &str, body: &str) -> String {
        format!(
            "From: {from}
To: lounge@example.test
Subject: [MN1] my turn
Message-ID: <{id}>
Date: Mon, 16 Nov 2026 10:00:00 +0000

{body}"
        )
    }

    const RUSHTON: &str = "Rushton : Epping (CN) [Home: Hainault]";
    const WARREN: &str = "Warren : Morden (NT) [Home: Tooting Broadway]";

    /// mlmmj's digest of `posts`: From the list's +help address, a table of
    /// contents, one message/rfc822 part a post.
    fn digest(id: &str, posts: &[String]) -> String {
        let mut s = format!(
            "From: lounge+help@example.test
To: mornbot@example.test
Subject: Digest of lounge@example.test issue 1 (1-2)
Message-ID: <{id}>
MIME-Version: 1.0
Content-Type: multipart/digest; boundary=\"digest\"

--digest
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

Topics (messages 1 through 2):
 1. [MN1] my turn
"
        );
        for (i, p) in posts.iter().enumerate() {
            s.push_str(&format!(
                "\n--digest\nContent-Type: message/rfc822\nContent-Disposition: inline; filename=\"lounge_{i}.eml\"\n\n{p}"
            ));
        }
        s.push_str("\n--digest--\n");
        s
    }

    fn two() -> Vec<String> {
        vec![
            inner("rushton@example.org", "r1@example.org", RUSHTON),
            inner("warren@example.org", "w1@example.org", WARREN),
        ]
    }

    #[test]
    fn each_post_of_a_digest_is_judged_in_order() {
        let mut l = Lounge::new(None);
        let (s, r) = l.post(&digest("d1@example.test", &two()));
        assert_eq!(s, "2 posts: legal; legal");
        assert_eq!(l.turns(), 2);
        assert_eq!(r.len(), 2, "{r:?}");
        assert!(
            r[0].text.contains("In-Reply-To: <r1@example.org>"),
            "{}",
            r[0].text
        );
        assert!(
            r[1].text.contains("In-Reply-To: <w1@example.org>"),
            "{}",
            r[1].text
        );
        let turns = l.store.turns("MN1").unwrap();
        assert_eq!(turns[0].message_id, "r1@example.org");
        assert_eq!(turns[1].message_id, "w1@example.org");
        // The digest itself is recorded, never answered.
        assert!(l.store.is_processed("d1@example.test").unwrap());
    }

    #[test]
    fn a_digest_repeating_a_judged_post_changes_nothing_for_it() {
        let mut l = Lounge::new(None);
        let (s, _) = l.post(&two()[0]);
        assert_eq!(s, "legal");
        let (s, r) = l.post(&digest("d2@example.test", &two()));
        assert_eq!(s, "2 posts: already processed; legal");
        assert_eq!(l.turns(), 2);
        assert_eq!(r.len(), 1, "only Warren's verdict: {r:?}");
        // The same digest again: nothing at all.
        let (_, r) = l.post(&digest("d2@example.test", &two()));
        assert!(r.is_empty(), "{r:?}");
        assert_eq!(l.turns(), 2);
    }

    #[test]
    fn a_crash_between_two_posts_judges_each_exactly_once() {
        let dir = std::env::temp_dir().join(format!("mornbot-digest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("mornbot.db");
        let _ = std::fs::remove_file(&db);
        let mut l = Lounge::with_store(None, Store::open(&db).unwrap());
        // The second post's commit fails, as if the daemon died there.
        let sql = rusqlite::Connection::open(&db).unwrap();
        sql.execute_batch(
            "CREATE TRIGGER crash BEFORE INSERT ON processed
             WHEN NEW.message_id = 'w1@example.org'
             BEGIN SELECT RAISE(ABORT, 'crash'); END;",
        )
        .unwrap();
        let raw = digest("d3@example.test", &two());
        assert!(l.judge(&raw, 7).is_err());
        assert_eq!(l.turns(), 1, "the first post is committed");
        // The mail's position is not: it is read again.
        assert_ne!(l.store.mailbox("INBOX").unwrap().map(|m| m.1), Some(7));
        sql.execute_batch("DROP TRIGGER crash").unwrap();
        let (s, r) = l.judge(&raw, 7).unwrap();
        assert_eq!(s, "2 posts: already processed; legal");
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(l.turns(), 2);
        assert_eq!(l.store.mailbox("INBOX").unwrap(), Some((1, 7)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_digest_forwarded_by_a_player_is_read_for_players_posts() {
        let mut l = Lounge::new(None);
        let stranger = inner("stranger@example.net", "s1@example.net", "HELP");
        let digest = digest("d4@example.test", &[two()[0].clone(), stranger]);
        let raw = format!(
            "From: warren@example.org
To: mornbot@example.test
Subject: Fwd: Digest of lounge
Message-ID: <fwd@example.org>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary=\"fwd\"

--fwd
Content-Type: text/plain

mornbot missed this one, I think.
--fwd
Content-Type: message/rfc822
Content-Disposition: attachment

{digest}
--fwd--
"
        );
        let (s, r) = l.post(&raw);
        // Rushton's turn; the stranger's HELP is not read; the note is
        // not answered for not being understood.
        assert_eq!(s, "1 post: legal", "{r:?}");
        assert_eq!(l.turns(), 1);
        assert!(r
            .iter()
            .all(|m| !m.to.contains(&"stranger@example.net".to_string())));
        assert!(r
            .iter()
            .all(|m| !m.to.contains(&"warren@example.org".to_string())));
    }

    #[test]
    fn commands_and_the_bots_own_posts_in_a_digest() {
        let mut l = Lounge::new(None);
        let posts = vec![
            inner(
                "mornbot@example.test",
                "own@example.test",
                "Turn 1: Rushton (legal)",
            ),
            inner("cryer@example.org", "c1@example.org", "STATUS"),
        ];
        let (s, r) = l.post(&digest("d5@example.test", &posts));
        assert!(
            s.starts_with("2 posts: not answered: Own; 1 commands"),
            "{s}"
        );
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].to, vec!["cryer@example.org".to_string()]);
    }

    /// A post as the list archived it: the list's server stamped its
    /// arrival `min` minutes into the game, and its author dated it then.
    fn stamped(from: &str, id: &str, body: &str, min: i64) -> String {
        let t = at(min).to_rfc2822();
        format!(
            "Received: from mail.example.org by lists.example.test (Postfix)\n\
             \tfor <lounge@example.test>; {t} (UTC)\nFrom: {from}\nTo: lounge@example.test\n\
             Subject: [MN1] my turn\nMessage-ID: <{id}>\nDate: {t}\n\n{body}"
        )
    }

    /// Warren answers Rushton's post as he read it on the list, long before
    /// the digest holding both reaches the bot: his "Pass", a play already in
    /// the log, is dated before the digest came but after Rushton's post
    /// reached the lounge, which is when turn 7 was played. It is no replay
    /// (RULINGS L9).
    #[test]
    fn a_post_in_a_late_digest_answers_the_post_before_it() {
        let mut l = Lounge::new(None);
        for (who, play) in [
            ("rushton", RUSHTON),
            ("warren", WARREN),
            ("cryer", "Cryer : Upminster (DS) [Home: Hornchurch]"),
            ("rushton", "Rushton : Pass"),
            ("warren", "Warren : Pass"),
            ("cryer", "Cryer : Pass"),
        ] {
            let id = format!("{who}-{}@example.org", l.n);
            let (s, _) = l.post(&stamped(&format!("{who}@example.org"), &id, play, l.n + 1));
            assert_eq!(s, "legal", "{play}");
        }
        // Ten hours later the digest of turns 7 and 8 comes.
        l.n = 600;
        let posts = vec![
            stamped(
                "rushton@example.org",
                "r7@example.org",
                "Rushton : Pass",
                10,
            ),
            stamped("warren@example.org", "w8@example.org", "Warren : Pass", 12),
        ];
        let (s, r) = l.post(&digest("d6@example.test", &posts));
        assert_eq!(s, "2 posts: legal; legal", "{r:?}");
        let turns = l.store.turns("MN1").unwrap();
        assert_eq!(turns[6].submitted_at, at(10), "played when the list got it");
        assert_eq!(turns[7].submitted_at, at(12));
        // A play already made, dated an hour before the game began and
        // re-sent under a new Message-ID, is still a replay.
        let (s, _) = l.post(&stamped(
            "cryer@example.org",
            "c9@example.org",
            "Cryer : Pass",
            -60,
        ));
        assert_eq!(s, "refused: replay");
    }
}
