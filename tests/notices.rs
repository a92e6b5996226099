//! Notices a person can follow (issue 13, item 8): every mail about a
//! game on its thread, under one Subject, its verdict in the first line,
//! its prose wrapped at 72. The Buzz workflow's and the Speaker's notices
//! are in tests/notices_workflow.rs, what changed and take-backs in
//! tests/notices_changes.rs.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::fake_referee::*;

mod thread {
    use super::*;

    #[test]
    fn verdicts_answer_the_turn_under_the_games_root_and_subject() {
        let mut t = T::new();
        let (_, m) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        assert_eq!(m.len(), 1);
        assert!(m[0].on_thread(Some("m1@example.org")), "{:#?}", m[0]);
        assert_eq!(m[0].references, vec![ROOT, "m1@example.org"]);
        assert_eq!(m[0].headline(), "Turn 1: Rushton (legal)");
        assert_eq!(m[0].date, at(1));
        assert!(m[0].message_id.ends_with("@example.test"));
        // A turn posted without References still joins the thread.
        let mut l = t.letter(
            "warren",
            Request::Turn {
                text: "Warren : [LV+1] Tooting Broadway (NT)".into(),
                gsd: false,
                line: 1,
                column: 1,
            },
            "",
        );
        l.references.clear();
        l.subject = "[MN1] my turn".into();
        let (s, m) = t.send(l);
        assert_eq!(s, "illegal");
        assert!(m[0].on_thread(Some("m2@example.org")), "{:#?}", m[0]);
        assert_eq!(m[0].headline(), "Buzz: Warren's turn 2 is illegal");
    }

    #[test]
    fn the_buzz_workflow_is_on_the_thread_from_buzz_to_judgment() {
        let mut t = T::new();
        opening(&mut t);
        let (_, m) = t.step("acton", buzz(4, "no LV for that"), "");
        assert!(m[0].on_thread(Some(&t.last_id())), "{:#?}", m[0]);
        assert_eq!(m[0].headline(), "Turn 4 is Questionable");
        let (_, m) = t.step("rushton", contest("LV 1 is enough"), "");
        assert!(m[0].on_thread(Some(&t.last_id())), "{:#?}", m[0]);
        // The buzzer contests: to Judgment, a Referee drawn, told privately.
        let (_, m) = t.step("acton", contest("it is not"), "");
        let contest_id = t.last_id();
        let heads: Vec<&str> = m.iter().map(Mail::headline).collect();
        assert_eq!(
            heads,
            vec![
                "Turn 4: to Judgment",
                "Turn 4: Warren is Referee",
                "You are Referee of turn 4"
            ]
        );
        assert!(m.iter().all(|x| x.on_thread(Some(&contest_id))), "{m:#?}");
        assert_eq!(m[2].to, "warren@example.org");
        let (_, m) = t.step("warren", Workflow::Judgment { legal: true }, "");
        assert_eq!(m[0].headline(), "Turn 4 is Legal");
        assert!(m[0].on_thread(Some(&t.last_id())), "{m:#?}");
        // Distinct mails, distinct ids.
        let mut ids: Vec<String> = t
            .store
            .all_mail()
            .unwrap()
            .iter()
            .map(|x| x.message_id.clone())
            .collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
    }

    #[test]
    fn clock_notices_reminder_timeout_resignation_are_under_the_root() {
        let mut t = T::new();
        let day = |d: u32, h: u32| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
        let m = t.tick(day(17, 9));
        // The private reminder, and one line to the lounge (RULINGS S30).
        assert_eq!(m.len(), 2, "{m:#?}");
        assert_eq!(m[0].to, "rushton@example.org");
        assert_eq!(m[1].headline(), "Reminder: Rushton's turn 1 is due");
        assert!(m[1].on_thread(None), "{:#?}", m[1]);
        assert!(
            m[0].headline()
                .starts_with("Reminder: your turn 1 is due by Tue 17 Nov 2026 21:00"),
            "{:#?}",
            m[0]
        );
        assert!(m[0].on_thread(None), "{:#?}", m[0]);
        assert_eq!(m[0].references, vec![ROOT]);
        let m = t.tick(day(17, 22));
        assert_eq!(m[0].headline(), "Turn 1: Rushton timed out");
        assert!(m[0].on_thread(None), "{:#?}", m[0]);
        let m = t.tick(Utc.with_ymd_and_hms(2027, 1, 16, 9, 0, 1).unwrap());
        let resigned: Vec<&Mail> = m
            .iter()
            .filter(|x| x.headline().ends_with("has Resigned"))
            .collect();
        assert!(!resigned.is_empty(), "{m:#?}");
        assert!(resigned.iter().all(|x| x.on_thread(None)), "{resigned:#?}");
        assert!(
            m.iter()
                .all(|x| x.subject == format!("[MN1] {}", x.headline())),
            "{m:#?}"
        );
    }

    #[test]
    fn the_end_of_a_game_is_on_the_thread() {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        assert!(t
            .referee
            .edit_game(&mut t.store, "MN1", |g| g.game.state.winner =
                Some("Rushton".into()))
            .unwrap());
        let due = t.referee.next_due().unwrap();
        let m = t.tick(due);
        assert_eq!(m[0].headline(), "Game over: Rushton wins");
        assert!(m[0].on_thread(None), "{:#?}", m[0]);
    }

    #[test]
    fn private_replies_keep_the_senders_subject() {
        let mut t = T::new();
        let mut l = t.letter(
            "warren",
            Request::Turn {
                text: "Warren : Pass".into(),
                gsd: false,
                line: 1,
                column: 1,
            },
            "",
        );
        l.subject = "[MN1] my go".into();
        let (s, m) = t.send(l);
        assert_eq!(s, "out of turn");
        assert_eq!(m[0].subject, "Re: [MN1] my go");
        assert_eq!(m[0].in_reply_to.as_deref(), Some("m1@example.org"));
    }
}

mod wrapping {
    use super::*;

    #[test]
    fn notices_wrap_their_prose_at_72_and_leave_the_gsd_alone() {
        let mut t = T::new();
        opening(&mut t);
        // A long reason, as one line from a client that does not wrap.
        let reason = "Rushton's LV was 0 when the turn began and the move to Theydon Bois \
                      needs LV 1, which e only set in the same turn, and I believe Rule \
                      1.6.2 says the LV change applies from the next turn onwards only.";
        let (_, m) = t.step("acton", buzz(4, reason), "");
        let body = &m[0].body;
        assert!(
            prose(body).iter().all(|l| l.chars().count() <= 72),
            "{body}"
        );
        assert!(prose(body).len() > 6, "{body}");
        assert!(body.contains("applies from the next turn"), "{body}");
        // The reminder: its sentence is wrapped, the GSD kept whole.
        let mut t = T::new();
        t.play("rushton", "Rushton : [LV+1] Epping (CN) [Home: Hainault]");
        let m = t.tick(Utc.with_ymd_and_hms(2026, 11, 17, 9, 30, 0).unwrap());
        let body = &m[0].body;
        assert!(
            prose(body).iter().all(|l| l.chars().count() <= 72),
            "{body}"
        );
        assert!(
            body.contains("\nRushton : [LV+1] Epping (CN) [Home: Hainault]\n"),
            "{body}"
        );
        let table = body.lines().find(|l| l.starts_with("| Rushton")).unwrap();
        assert!(table.chars().count() > 40, "{body}");
    }

    #[test]
    fn what_changed_items_wrap_under_their_text() {
        let mut t = T::new();
        let (_, m) = t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        let body = &m[0].body;
        assert!(
            prose(body).iter().all(|l| l.chars().count() <= 72),
            "{body}"
        );
        assert!(
            body.contains("\n    Rushton : Epping (CN) [Home: Hainault]\n"),
            "{body}"
        );
    }
}
