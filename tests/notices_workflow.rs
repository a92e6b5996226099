//! Notices of the Buzz workflow and the Speaker (issue 13, item 8): the
//! Referee's request quotes the whole case without sign-offs; held turns
//! are judged after the settlement; the Speaker's VOID is on the thread.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::fake_referee::*;

mod referee_request {
    use super::*;
    use mornbot::config::Config;
    use mornbot::daemon::letter::{letter, Context};

    #[test]
    fn the_referee_gets_the_play_the_buzz_the_defence_and_the_contest_without_sign_offs() {
        let mut t = T::new();
        opening(&mut t);
        t.step(
            "acton",
            buzz(4, "Rushton had LV 0 when e moved.\n\nCheers,\nAlan"),
            "",
        );
        t.step(
            "rushton",
            contest("[LV+1] comes before the Move, so LV 1 applies.\nRegards\nRushton"),
            "",
        );
        let (_, m) = t.step(
            "acton",
            contest("Rule 1.6.2 says otherwise.\n-- \nAlan Acton\n07700 900000"),
            "",
        );
        let req = m
            .iter()
            .find(|x| x.headline() == "You are Referee of turn 4")
            .unwrap_or_else(|| panic!("{m:#?}"));
        let b = &req.body;
        for want in [
            "\n    Rushton : [LV+1] Theydon Bois (CN)\n",
            "Acton's Buzz:\n\n> Rushton had LV 0 when e moved.\n",
            "Rushton's defence:\n\n> [LV+1] comes before the Move, so LV 1 applies.\n",
            "Acton's contest of the defence:\n\n> Rule 1.6.2 says otherwise.\n\nReply by",
            "\"Judgment: Legal\"",
        ] {
            assert!(b.contains(want), "{want:?} in\n{b}");
        }
        for gone in ["Cheers", "Alan", "Regards", "07700"] {
            assert!(!b.contains(gone), "{gone:?} in\n{b}");
        }
        // The lounge saw each of them quoted too.
        let all = t
            .store
            .all_mail()
            .unwrap()
            .iter()
            .map(|x| Mail::parse(&x.raw).body)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            all.contains("Acton's reason:\n\n> Rushton had LV 0"),
            "{all}"
        );
        assert!(!all.contains("Cheers"), "{all}");
        assert!(
            all.contains("> [LV+1] comes before the Move, so LV 1 applies.\n"),
            "{all}"
        );
    }

    #[test]
    fn a_contest_by_mail_reaches_the_referee_in_its_own_words() {
        let mut t = T::new();
        opening(&mut t);
        let mut cfg = Config::default();
        cfg.bot.address = "mornbot@example.test".into();
        cfg.bot.lounge = "lounge@example.test".into();
        let ctx = Context::new(Map::london_1999(), &me(), &cfg);
        let post = |t: &mut T, n: usize, from: &str, body: &str| {
            let raw = format!(
                "From: {from}@example.org\r\nTo: lounge@example.test\r\n\
                 Subject: Re: [MN1] Game State\r\nMessage-ID: <p{n}@example.org>\r\n\
                 References: <{ROOT}>\r\n\r\n{}\r\n",
                body.replace('\n', "\r\n")
            );
            let l = letter(raw.as_bytes(), &ctx, &t.referee);
            t.n += 1;
            t.send(l).1
        };
        post(
            &mut t,
            1,
            "acton",
            "Buzz turn 4: no LV for that\n\nCheers,\nAlan",
        );
        post(
            &mut t,
            2,
            "rushton",
            "Contest: the LV was set first.\n\nThanks,\nR.",
        );
        let m = post(&mut t, 3, "acton", "Contest: not in time.\n\nBest,\nAlan");
        let req = m
            .iter()
            .find(|x| x.headline() == "You are Referee of turn 4")
            .unwrap_or_else(|| panic!("{m:#?}"));
        let b = &req.body;
        assert!(b.contains("> no LV for that\n"), "{b}");
        assert!(b.contains("> the LV was set first.\n"), "{b}");
        assert!(b.contains("> not in time.\n"), "{b}");
        assert!(!b.contains("Cheers") && !b.contains("Thanks"), "{b}");
    }
}

mod held {
    use super::*;

    #[test]
    fn held_turns_are_judged_after_the_settlement_which_names_no_player_to_move() {
        let mut t = T::new();
        opening(&mut t);
        t.step("acton", buzz(4, "no LV for that"), "");
        let (s, _) = t.play("warren", "Warren : [LV+1] South Wimbledon (NT)");
        assert_eq!(s, "mistimed: held");
        let (_, m) = t.step("acton", Workflow::Withdraw, "");
        let heads: Vec<&str> = m.iter().map(Mail::headline).collect();
        assert_eq!(heads, vec!["Turn 4 is Legal", "Turn 5: Warren (legal)"]);
        // "It is Warren's turn" would be untrue by the next mail.
        assert!(!m[0].body.contains("It is Warren's turn"), "{}", m[0].body);
        assert!(m[0].body.contains("judged now"), "{}", m[0].body);
        assert!(m[1].body.contains("Next to play: Acton"), "{}", m[1].body);
        // Read in date order, the verdict still follows the settlement.
        assert!(m[1].date >= m[0].date, "{m:#?}");
        assert!(m[1].on_thread(Some("m6@example.org")), "{:#?}", m[1]);
    }

    #[test]
    fn with_nothing_held_the_settlement_says_who_plays() {
        let mut t = T::new();
        opening(&mut t);
        t.step("acton", buzz(4, "no LV for that"), "");
        let (_, m) = t.step("acton", Workflow::Withdraw, "");
        assert_eq!(m.len(), 1);
        assert!(
            m[0].body.contains("It is Warren's turn, due by"),
            "{}",
            m[0].body
        );
    }
}

mod speakers_notices {
    use super::*;
    use mornbot::daemon::referee::Command;

    #[test]
    fn a_void_by_the_speaker_is_on_the_thread_with_its_gsd_whole() {
        let mut t = T::with(SpeakerConfig {
            addresses: vec!["speaker@example.org".into()],
            ..SpeakerConfig::default()
        });
        // A play line longer than 72 columns, as the GSD carries it.
        let long = "Rushton : Epping (CN) [Home: Hainault] {a comment long enough to pass \
                    the seventy-two columns of prose}";
        assert_eq!(t.play("rushton", long).0, "legal");
        t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
        let l = t.letter(
            "speaker",
            Request::Commands(vec![Command::Speaker("VOID MN1".into())]),
            "VOID MN1",
        );
        let (_, m) = t.send(l);
        let void = m
            .iter()
            .find(|x| x.headline() == "Turn 2 voided by the Speaker")
            .unwrap_or_else(|| panic!("{m:#?}"));
        // The Speaker's command came privately: the notice answers no
        // message of the lounge's.
        assert!(void.on_thread(None), "{void:#?}");
        let played = t.referee.live(&t.store, "MN1").unwrap().turns[0]
            .play
            .clone();
        assert!(played.chars().count() > 72, "{played}");
        assert!(
            void.body.contains(&format!("\n{played}\n")),
            "{}",
            void.body
        );
    }
}
