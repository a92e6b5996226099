//! Mail as real lists and clients send it, through `process` (parse,
//! classify, judge) into the referee: lists that rewrite From for DMARC, Outlook's
//! unmarked quotes, digests, commands posted to the lounge (issue 13).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use chrono::{DateTime, TimeZone, Utc};
use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
use mornbot::daemon::letter::Context;
use mornbot::daemon::process;
use mornbot::daemon::referee::Referee;
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
        players: ["Rushton", "Warren", "Cryer"]
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

struct Lounge {
    referee: Referee,
    store: Store,
    ctx: Context,
    n: i64,
}

/// One reply: its recipients and text.
#[derive(Debug)]
struct Reply {
    to: Vec<String>,
    text: String,
}

impl Lounge {
    fn new(list_id: Option<&str>) -> Lounge {
        Lounge::with_store(list_id, Store::in_memory().unwrap())
    }

    fn with_store(list_id: Option<&str>, mut store: Store) -> Lounge {
        let referee = Referee::load(
            Map::london_1999(),
            me(),
            SpeakerConfig::default(),
            &[game()],
            &mut store,
            at(0),
        )
        .unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        cfg.bot.list_id = list_id.map(str::to_string);
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        Lounge {
            referee,
            store,
            ctx,
            n: 0,
        }
    }

    /// Judges a raw mail (LF line ends, sent as CRLF) as the daemon does,
    /// as IMAP UID `n` of the `INBOX`; returns the summary and the replies
    /// it queued.
    fn post(&mut self, raw: &str) -> (String, Vec<Reply>) {
        self.n += 1;
        self.judge(raw, self.n as u32).unwrap()
    }

    fn judge(
        &mut self,
        raw: &str,
        uid: u32,
    ) -> Result<(String, Vec<Reply>), mornbot::daemon::DaemonError> {
        let raw = raw.replace('\n', "\r\n");
        let before = self.store.all_mail().unwrap().len();
        let origin = Origin {
            source: "INBOX".into(),
            uidvalidity: Some(1),
            uid: Some(uid),
        };
        let h = process(
            &mut self.referee,
            &mut self.store,
            &self.ctx,
            raw.as_bytes(),
            origin,
            at(self.n),
        )?;
        let replies = self.store.all_mail().unwrap()[before..]
            .iter()
            .map(|m| Reply {
                to: m.recipients.clone(),
                text: String::from_utf8_lossy(&m.raw).replace("\r\n", "\n"),
            })
            .collect();
        Ok((h.summary, replies))
    }

    fn turns(&self) -> usize {
        self.store.turns("MN1").unwrap().len()
    }
}

mod dmarc {
    use super::*;

    /// Mailman 3 with `dmarc_mitigate_action = munge_from`: From is the
    /// list, the author in Reply-To (with the list itself).
    const MAILMAN3: &str = "From: \"Rushton via lounge\" <lounge@example.test>
Reply-To: lounge@example.test, Rushton <rushton@example.org>
To: lounge@example.test
List-Id: Lounge <lounge.example.test>
Subject: [lounge] [MN1] my turn
Message-ID: <mm3@example.org>
Date: Mon, 16 Nov 2026 10:00:00 +0000

Rushton : Epping (CN) [Home: Hainault]
";

    /// Google Groups: `'Name' via list`, the author in X-Original-From.
    const GOOGLE: &str = "From: \"'Rushton' via lounge\" <lounge@example.test>
X-Original-From: Rushton <rushton@example.org>
Reply-To: Rushton <rushton@example.org>
To: lounge@example.test
List-Id: <lounge.example.test>
Subject: [MN1] my turn
Message-ID: <gg@example.org>

Rushton : Epping (CN) [Home: Hainault]
";

    #[test]
    fn a_mailman3_munged_post_is_its_authors_turn() {
        let mut l = Lounge::new(Some("lounge.example.test"));
        let (s, r) = l.post(MAILMAN3);
        assert_eq!(s, "legal");
        assert_eq!(l.turns(), 1);
        assert!(
            r[0].text.contains("Turn 1: Rushton (legal)"),
            "{}",
            r[0].text
        );
    }

    #[test]
    fn a_google_groups_post_is_its_authors_turn() {
        let mut l = Lounge::new(None);
        let (s, _) = l.post(GOOGLE);
        assert_eq!(s, "legal");
    }

    #[test]
    fn only_the_via_name_is_enough_when_it_names_one_player() {
        let mut l = Lounge::new(None);
        let raw = "From: \"Barry Rushton via lounge\" <lounge@example.test>
To: lounge@example.test
Subject: [MN1] my turn
Message-ID: <via@example.org>

Rushton : Epping (CN) [Home: Hainault]
";
        assert_eq!(l.post(raw).0, "legal");
    }

    #[test]
    fn a_turn_for_another_player_via_the_list_is_refused_to_the_author_alone() {
        let mut l = Lounge::new(None);
        l.post(MAILMAN3);
        // Cryer (via the list) posts Warren's turn: refused to Cryer only.
        let raw = "From: \"Barry Cryer via lounge\" <lounge@example.test>
X-Original-From: cryer@example.org
To: lounge@example.test
Subject: [MN1] turn
Message-ID: <cry@example.org>

Warren : Morden (NT) [Home: Tooting Broadway]
";
        let (s, r) = l.post(raw);
        assert_eq!(s, "spoofed player");
        assert!(
            r.iter()
                .all(|m| !m.to.contains(&"lounge@example.test".to_string())),
            "{r:?}"
        );
        assert_eq!(r[0].to, vec!["cryer@example.org".to_string()]);
        assert!(
            r[0].text.contains("registered in MN1 as Cryer"),
            "{}",
            r[0].text
        );
    }

    #[test]
    fn an_unknown_author_via_the_list_is_answered_privately_never_the_lounge() {
        let mut l = Lounge::new(None);
        let raw = "From: \"Stranger via lounge\" <lounge@example.test>
X-Original-From: stranger@example.net
To: lounge@example.test
Subject: [MN1] turn
Message-ID: <str@example.net>

Rushton : Epping (CN) [Home: Hainault]
";
        let (s, r) = l.post(raw);
        assert_eq!(s, "unregistered sender");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].to, vec!["stranger@example.net".to_string()]);
        // No address at all: nobody is answered, the list least of all.
        let raw = "From: lounge <lounge@example.test>
To: lounge@example.test
Subject: [MN1] turn
Message-ID: <nobody@example.net>

Rushton : Epping (CN) [Home: Hainault]
";
        let (_, r) = l.post(raw);
        assert!(r.is_empty(), "{r:?}");
        assert_eq!(l.turns(), 0);
    }

    #[test]
    fn with_a_list_id_configured_another_lists_rewrite_is_not_trusted() {
        let mut l = Lounge::new(Some("other.example.test"));
        let (s, r) = l.post(MAILMAN3);
        assert_ne!(s, "legal");
        assert!(r.is_empty(), "{r:?}");
    }
}

mod quotes {
    use super::*;

    const FIRST: &str = "From: rushton@example.org
To: lounge@example.test
Subject: [MN1] my turn
Message-ID: <q1@example.org>

Rushton : Epping (CN) [Home: Hainault]
";

    /// The body of the bot's verdict on turn 1 (with its GSD).
    fn verdict(l: &mut Lounge) -> String {
        let (_, r) = l.post(FIRST);
        let text = &r[0].text;
        text[text.find("\n\n").unwrap() + 2..].to_string()
    }

    /// Warren's reply with the quote block `head`, the verdict unmarked
    /// below it.
    fn reply(head: &str, quoted: &str) -> String {
        format!(
            "From: Warren <warren@example.org>
To: lounge@example.test
Subject: RE: [MN1] Turn 1: Rushton (legal)
Message-ID: <w{}@example.org>

Warren : Morden (NT) [Home: Tooting Broadway]

Regards,
Warren

{head}
{quoted}",
            head.len()
        )
    }

    fn check(head: &str) {
        let mut l = Lounge::new(None);
        let quoted = verdict(&mut l);
        let (s, r) = l.post(&reply(head, &quoted));
        assert_eq!(s, "legal", "{head}: {r:?}");
        assert_eq!(l.turns(), 2);
    }

    #[test]
    fn an_outlook_reply_with_an_unmarked_quote_is_the_play_on_top() {
        check(
            "________________________________
From: mornbot <mornbot@example.test>
Sent: Monday, November 16, 2026 9:01 AM
To: lounge@example.test
Subject: [MN1] Turn 1: Rushton (legal)
",
        );
        // New Outlook and Outlook for Mac: no rule above, Date for Sent.
        check(
            "From: mornbot <mornbot@example.test>
Date: Monday, 16 November 2026 at 09:01
To: lounge@example.test
Subject: [MN1] Turn 1: Rushton (legal)
",
        );
        // Outlook's bold HTML headers, as text.
        check(
            "*From:* mornbot <mornbot@example.test>
*Sent:* Monday, November 16, 2026 9:01 AM
*To:* lounge@example.test
*Subject:* [MN1] Turn 1: Rushton (legal)
",
        );
    }

    #[test]
    fn localised_outlook_header_blocks_start_the_quote() {
        check(
            "Von: mornbot <mornbot@example.test>
Gesendet: Montag, 16. November 2026 09:01
An: lounge@example.test
Betreff: [MN1] Turn 1: Rushton (legal)
",
        );
        check(
            "De : mornbot <mornbot@example.test>
Envoyé : lundi 16 novembre 2026 09:01
À : lounge@example.test
Objet : [MN1] Turn 1: Rushton (legal)
",
        );
        check(
            "Da: mornbot <mornbot@example.test>
Inviato: lunedì 16 novembre 2026 09:01
A: lounge@example.test
Oggetto: [MN1] Turn 1: Rushton (legal)
",
        );
    }

    #[test]
    fn an_attribution_without_quote_marks_starts_the_quote() {
        check("On Mon, 16 Nov 2026 at 09:01, mornbot <mornbot@example.test> wrote:\n");
    }

    #[test]
    fn a_bottom_posted_play_below_a_marked_quote_is_still_read() {
        let mut l = Lounge::new(None);
        l.post(FIRST);
        let raw = "From: warren@example.org
To: lounge@example.test
Subject: Re: [MN1] Turn 1
Message-ID: <bottom@example.org>

On Mon, 16 Nov 2026 at 09:01, mornbot <mornbot@example.test> wrote:
> Rushton : Epping (CN) [Home: Hainault]

Warren : Morden (NT) [Home: Tooting Broadway]
";
        assert_eq!(l.post(raw).0, "legal");
    }

    #[test]
    fn a_gsd_with_no_new_play_says_so_not_based_on_n_at_n() {
        let mut l = Lounge::new(None);
        let v = verdict(&mut l);
        let gsd_start = v.find("+--").or_else(|| v.find("Game ")).unwrap();
        let raw = format!(
            "From: warren@example.org
To: lounge@example.test
Subject: [MN1] GSD
Message-ID: <same@example.org>

{}",
            &v[gsd_start..]
        );
        let (s, r) = l.post(&raw);
        assert!(s.starts_with("stale"), "{s}");
        let text = &r[0].text;
        assert!(text.contains("adds no play"), "{text}");
        assert!(
            !text.contains("based on turn 1, the\ngame is at turn 1"),
            "{text}"
        );
        assert_eq!(r[0].to, vec!["warren@example.org".to_string()]);
    }
}

/// The headers of a post the list distributes (Mailman), from `from`.
fn post(from: &str, to: &str, subject: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}
To: {to}
List-Id: Lounge <lounge.example.test>
Precedence: list
Subject: {subject}
Message-ID: <{id}>

{body}"
    )
}

const FOOTER: &str = "_______________________________________________
lounge mailing list
lounge@example.test
https://lists.example.test/mailman/listinfo/lounge
";

mod commands {
    use super::*;

    #[test]
    fn help_posted_to_the_lounge_is_answered_privately() {
        let mut l = Lounge::new(Some("lounge.example.test"));
        let raw = post(
            "Warren <warren@example.org>",
            "lounge@example.test",
            "[lounge] help",
            "h1@example.org",
            &format!("HELP\n\n{FOOTER}"),
        );
        let (s, r) = l.post(&raw);
        assert_eq!(s, "1 commands");
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].to, vec!["warren@example.org".to_string()]);
        assert!(
            r[0].text.contains("Commands (one per line"),
            "{}",
            r[0].text
        );
        // Re-sent under the list's From (DMARC): the author is answered,
        // never the lounge.
        let raw = post(
            "\"Warren via lounge\" <lounge@example.test>",
            "lounge@example.test",
            "[lounge] STATUS",
            "h2@example.org",
            &format!("X-Original-From: warren@example.org\n\n{FOOTER}"),
        )
        .replacen("\n\nX-Original", "\nX-Original", 1);
        let (s, r) = l.post(&raw);
        assert_eq!(s, "1 commands", "{r:?}");
        assert_eq!(r[0].to, vec!["warren@example.org".to_string()]);
        assert!(r[0].text.contains("MN1: turn 0 played"), "{}", r[0].text);
    }

    /// HELP, STATUS, GSD and a question, in one mail.
    const SEVERAL: &str = "HELP\nSTATUS\nGSD\nwhat are the scores?\n";

    fn check_all_answered(r: &[Reply]) {
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].to, vec!["rushton@example.org".to_string()]);
        let text = &r[0].text;
        let body = &text[text.find("\n\n").unwrap()..];
        let signature = body.find("\n-- \n").expect("a signature");
        assert_eq!(body.matches("\n-- \n").count(), 1, "one signature: {body}");
        for answer in [
            "MN1: turn 0 played",
            "Game MN1\n+---",
            "Commands (one per line",
            "Not understood: what are the scores?",
        ] {
            let at = body
                .find(answer)
                .unwrap_or_else(|| panic!("{answer:?} missing: {body}"));
            assert!(at < signature, "{answer:?} after the signature: {body}");
        }
    }

    #[test]
    fn several_commands_to_the_bot_are_all_answered() {
        let mut l = Lounge::new(None);
        let raw = post(
            "rushton@example.org",
            "mornbot@example.test",
            "commands",
            "c1@example.org",
            SEVERAL,
        );
        let (s, r) = l.post(&raw);
        assert_eq!(s, "4 commands");
        check_all_answered(&r);
    }

    #[test]
    fn several_commands_in_the_lounge_are_all_answered_privately() {
        let mut l = Lounge::new(None);
        let raw = post(
            "rushton@example.org",
            "lounge@example.test",
            "[lounge] commands",
            "c2@example.org",
            &format!("{SEVERAL}\n{FOOTER}"),
        );
        let (s, r) = l.post(&raw);
        // In the lounge a question among commands is prose: only the
        // commands are answered.
        assert_eq!(s, "3 commands", "{r:?}");
        let raw = post(
            "rushton@example.org",
            "lounge@example.test",
            "[lounge] commands",
            "c3@example.org",
            "HELP\nSTATUS\nGSD\nSCORES please\n",
        );
        let (s, r) = l.post(&raw);
        assert_eq!(s, "4 commands", "{r:?}");
        assert_eq!(r[0].to, vec!["rushton@example.org".to_string()]);
        assert!(r[0].text.contains("Not understood: SCORES please"));
    }
}

mod unclear {
    use super::*;

    fn lounge_post(from: &str, id: &str, body: &str) -> String {
        post(from, "lounge@example.test", "[MN1] my turn", id, body)
    }

    #[test]
    fn a_players_failed_play_in_the_lounge_is_answered_privately() {
        let mut l = Lounge::new(None);
        let (s, r) = l.post(&lounge_post(
            "rushton@example.org",
            "u1@example.org",
            "Rushtin : Epping (CN) [Home: Hainault]\n",
        ));
        assert_eq!(s, "not understood");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].to, vec!["rushton@example.org".to_string()]);
        let text = &r[0].text;
        assert!(text.contains("    Rushtin : Epping (CN)"), "{text}");
        assert!(
            text.contains("Rushtin is not a player of MN1\n(Rushton, Warren, Cryer)"),
            "{text}"
        );
        assert!(text.contains("Send HELP to mornbot@example.test"), "{text}");
        assert_eq!(l.turns(), 0);
        // A play without the name.
        let (s, r) = l.post(&lounge_post(
            "rushton@example.org",
            "u2@example.org",
            "[LV+1] Epping (CN) [Home: Hainault]\n",
        ));
        assert_eq!(s, "not understood");
        assert!(r[0].text.contains("without the name"), "{}", r[0].text);
    }

    #[test]
    fn a_failed_command_in_the_lounge_is_answered_privately() {
        let mut l = Lounge::new(None);
        let (s, r) = l.post(&lounge_post(
            "warren@example.org",
            "u3@example.org",
            "Evening all.\nSTATUS of MN1 please\n",
        ));
        assert_eq!(s, "not understood");
        assert_eq!(r[0].to, vec!["warren@example.org".to_string()]);
        assert!(
            r[0].text
                .contains("STATUS is a command, but not with the words after it"),
            "{}",
            r[0].text
        );
        assert!(r[0].text.contains("(STATUS MN1)"), "{}", r[0].text);
    }

    #[test]
    fn chatter_and_strangers_in_the_lounge_stay_unanswered() {
        let mut l = Lounge::new(None);
        for (from, body) in [
            (
                "warren@example.org",
                "Good luck everyone! Euston is mine.\n",
            ),
            ("cryer@example.org", "STATUS is a state of mind, frankly.\n"),
            // A stranger on the list is not a player.
            (
                "stranger@example.net",
                "Rushtin : Epping (CN) [Home: Hainault]\n",
            ),
        ] {
            let id = format!("{}@example.org", body.replace(' ', "."));
            let (s, r) = l.post(&lounge_post(from, &id, body));
            assert_eq!(s, "ignored", "{body}");
            assert!(r.is_empty(), "{body}: {r:?}");
        }
    }

    #[test]
    fn mail_to_the_bot_that_it_does_not_understand_is_answered_briefly() {
        let mut l = Lounge::new(None);
        let raw = post(
            "rushton@example.org",
            "mornbot@example.test",
            "hello",
            "u4@example.org",
            "Hi bot, what can you do?\n",
        );
        let (s, r) = l.post(&raw);
        assert_eq!(s, "not understood");
        let text = &r[0].text;
        assert!(text.contains("    Hi bot, what can you do?\n"), "{text}");
        assert!(text.contains("That is not a turn"), "{text}");
        assert!(text.contains("Send HELP to mornbot@example.test"), "{text}");
        assert!(!text.contains("Commands (one per line"), "short: {text}");
        // "No buzz" to the bot is still an acknowledgement.
        let raw = post(
            "rushton@example.org",
            "mornbot@example.test",
            "Re: [MN1] win",
            "u5@example.org",
            "No buzz\n",
        );
        assert_ne!(l.post(&raw).0, "not understood");
    }
}

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
}
