//! Mail as real lists and clients send it, through `process` (parse,
//! classify, judge) into the referee: lists that rewrite From for DMARC and
//! Outlook's unmarked quotes (issue 13). Commands and digests are in
//! tests/lounge_commands.rs and tests/lounge_digests.rs.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::fake_lounge::*;

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

    /// A display name is chosen by its writer: it never names a player
    /// (issue 40, finding 1). A list that hides the author is not
    /// answered; one that names a stranger answers the stranger.
    #[test]
    fn the_via_name_alone_never_names_a_player() {
        let mut l = Lounge::new(None);
        let raw = "From: \"Barry Rushton via lounge\" <lounge@example.test>
To: lounge@example.test
Subject: [MN1] my turn
Message-ID: <via@example.org>

Rushton : Epping (CN) [Home: Hainault]
";
        let (s, r) = l.post(raw);
        assert_ne!(s, "legal");
        assert_eq!(l.turns(), 0);
        assert!(r.is_empty(), "{r:?}");
        let raw = "From: \"Tim Rushton via lounge\" <lounge@example.test>
X-Original-From: mallory@example.net
Reply-To: rushton@example.org
To: lounge@example.test
Subject: [MN1] my turn
Message-ID: <via2@example.org>

Rushton : Epping (CN) [Home: Hainault]
";
        let (s, r) = l.post(raw);
        assert_ne!(s, "legal");
        assert_eq!(l.turns(), 0);
        assert!(
            r.iter()
                .all(|m| m.to == vec!["mallory@example.net".to_string()]),
            "{r:?}"
        );
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
