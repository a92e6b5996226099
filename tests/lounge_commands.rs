//! Commands posted to the lounge and several in one mail, and what
//! mornbot did not understand, through `process` into the referee
//! (issue 13, item 7; RULINGS L4, L5).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::fake_lounge::*;

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
            r[0].text.contains("Commands go one to a line"),
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
        assert!(
            r[0].text.contains("MN1: no turn has been played yet"),
            "{}",
            r[0].text
        );
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
            "MN1: no turn has been played yet",
            "Game MN1\n+---",
            "Commands go one to a line",
            "Not understood:\n  - what are the scores?",
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
        assert!(r[0].text.contains("Not understood:\n  - SCORES please"));
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
        assert!(
            r[0].text.contains("as STATUS [game] (e.g. STATUS MN1)"),
            "{}",
            r[0].text
        );
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
        assert!(!text.contains("Commands go one to a line"), "short: {text}");
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

mod replies_a_person_understands {
    //! Issue 39, items 1 and 8: HELP is complete in itself, and a misspelt
    //! command is told what it may have meant.
    use super::*;

    fn to_bot(l: &mut Lounge, id: &str, body: &str) -> String {
        let raw = post(
            "Warren <warren@example.org>",
            "mornbot@example.test",
            "hello",
            id,
            body,
        );
        let (_, r) = l.post(&raw);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].to, vec!["warren@example.org".to_string()]);
        r[0].text.clone()
    }

    #[test]
    fn help_gives_every_command_with_its_form_and_an_example_and_how_to_play() {
        let mut l = Lounge::new(None);
        let help = to_bot(&mut l, "help@example.org", "HELP");
        for c in mornbot::mail::commands::COMMANDS {
            assert!(
                help.contains(&format!("    {}\n", c.form())),
                "{}: {help}",
                c.verb
            );
            if !c.args.is_empty() {
                assert!(
                    help.contains(&format!("Example: {}\n", c.example("MN1"))),
                    "{}: {help}",
                    c.verb
                );
            }
        }
        for (form, _) in mornbot::mail::commands::STEPS {
            assert!(help.contains(form), "{form}: {help}");
        }
        // How to post a turn, and where the rules are; nothing sends the
        // player to a README e has not got.
        for want in [
            "post it to the lounge (lounge@example.test)",
            "[MN1] my turn",
            "Rushton : [LV+1] Euston (VC via: CN,NT)",
            "GSD with your play line",
            "Volume 1 of the Mornington Nomic ruleset",
            "RULES coverage",
        ] {
            assert!(help.contains(want), "{want:?}: {help}");
        }
        assert!(!help.contains("README"), "{help}");
    }

    /// RULES answers for every kind the lounge can host, each rule by
    /// number and title with what mornbot does with it.
    #[test]
    fn rules_lists_every_kinds_rules() {
        let mut l = Lounge::new(None);
        let rules = to_bot(&mut l, "rules@example.org", "RULES coverage");
        for want in [
            "Rules of Volume 1 and what mornbot does with them:",
            "1.16.1",
            "Rules of mc-xml and what mornbot does with them:",
            "Rule 6 Actions: ",
        ] {
            assert!(rules.contains(want), "{want:?}: {rules}");
        }
    }

    #[test]
    fn a_misspelt_command_gets_did_you_mean() {
        let mut l = Lounge::new(None);
        for (n, (line, meant)) in [
            ("STRAT MN28", "START MN28"),
            ("JION MN28 as Kit", "JOIN MN28 as Kit"),
            (
                "ABSENSE 2026-12-03 TO 2026-12-04",
                "ABSENCE 2026-12-03 TO 2026-12-04",
            ),
            ("STAUTS", "STATUS"),
        ]
        .iter()
        .enumerate()
        {
            let r = to_bot(&mut l, &format!("typo{n}@example.org"), line);
            assert!(
                r.contains(&format!("Did you mean `{meant}`?")),
                "{line}: {r}"
            );
            assert!(!r.contains("could not tell what your message asks"), "{r}");
        }
        // Among commands it knows, in the HELP it sends back.
        let r = to_bot(&mut l, "typo9@example.org", "GSD MN1\nSTRAT MN28");
        assert!(
            r.contains("Not understood:\n  - STRAT MN28 (did you mean `START MN28`?)\n"),
            "{r}"
        );
    }
}
