//! The classifier's unit tests.

use super::*;

pub(super) fn ctx() -> ClassifyContext<'static> {
    ClassifyContext {
        map: Map::london_1999(),
        games: std::sync::Arc::new(crate::mail::classify::Roster::from(vec![
            GameInfo {
                tag: "MN12".into(),
                players: vec!["Rushton".into(), "Cryer".into(), "Brooke-Taylor".into()],
                kind: Default::default(),
            },
            GameInfo {
                tag: "MN13".into(),
                players: vec!["Garden".into(), "Lyttelton".into()],
                kind: Default::default(),
            },
        ])),
        bot_address: "mornbot@example.org".into(),
    }
}

pub(super) fn msg(subject: &str, body: &str) -> Inbound {
    Inbound {
        message_id: "m@x".into(),
        in_reply_to: None,
        references: Vec::new(),
        from: "tim@example.org".into(),
        from_name: None,
        to: vec!["lounge@example.org".into()],
        subject: subject.into(),
        date: None,
        body: body.into(),
        auto: None,
        auth: crate::mail::inbound::AuthVerdict::Unknown,
        list_id: None,
        raw_size: body.len(),
        reply_to: vec![],
        original_from: None,
        read_as: None,
    }
}

pub(super) fn kind_of(subject: &str, body: &str) -> Request {
    classify(&msg(subject, body), &ctx()).request
}

#[test]
fn subject_core_strips_prefixes_and_groups() {
    assert_eq!(subject_core("Re: [lounge] AW: [MN12] Buzz"), ("Buzz", true));
    assert_eq!(subject_core("STATUS"), ("STATUS", false));
    assert_eq!(subject_core("[x"), ("[x", false));
}

#[test]
fn commands_need_every_line() {
    assert_eq!(
        kind_of("", "status mn12\nGSD\nRULES coverage\nHISTORY [MN13]\nhelp"),
        Request::Commands(vec![
            Command::Status(Some("MN12".into())),
            Command::Gsd(None),
            Command::Rules,
            Command::History(Some("MN13".into())),
            Command::Help,
        ])
    );
    assert_eq!(
        kind_of("", "STATUS\nSCORES MN12"),
        Request::Commands(vec![
            Command::Status(None),
            Command::Unknown("SCORES MN12".into())
        ])
    );
    assert_eq!(kind_of("", "STATUS is annoying me today"), Request::Chatter);
    // A command among prose (rule 7), a sign-off after it.
    assert_eq!(
        kind_of("", "STATUS\nThanks, everyone"),
        Request::Commands(vec![Command::Status(None)])
    );
    assert_eq!(kind_of("", "SCORES"), Request::Chatter);
}

#[test]
fn buzz_forms() {
    let b = |body: &str| kind_of("Re: [MN12] turn", body);
    assert_eq!(
        b("Buzz: Cryer's turn 12: Euston was closed."),
        Request::Workflow(Workflow::Buzz {
            player: Some("Cryer".into()),
            turn: Some(12),
            reason: "Euston was closed.".into()
        })
    );
    assert_eq!(
        b("Buzz brooke-taylor turn #7 - no LV\nsee Rule 1.6.1"),
        Request::Workflow(Workflow::Buzz {
            player: Some("Brooke-Taylor".into()),
            turn: Some(7),
            reason: "no LV\nsee Rule 1.6.1".into()
        })
    );
    assert_eq!(
        b("BUZZ!\n\nRushton moved through a closed station"),
        Request::Workflow(Workflow::Buzz {
            player: None,
            turn: None,
            reason: "Rushton moved through a closed station".into()
        })
    );
    assert_eq!(
        b("Hello all,\nBuzz: turn 3: wrong"),
        Request::Workflow(Workflow::Buzz {
            player: None,
            turn: Some(3),
            reason: "wrong".into()
        })
    );
    // A quoted buzz is not a new one.
    assert_eq!(
        b("I agree.\n\n> Buzz: Cryer's turn 12: no"),
        Request::Chatter
    );
}

#[test]
fn buzz_without_known_players() {
    let c = ClassifyContext {
        games: Default::default(),
        ..ctx()
    };
    let k = classify(&msg("x", "Buzz Jo Smith turn 4 - nope"), &c).request;
    assert_eq!(
        k,
        Request::Workflow(Workflow::Buzz {
            player: Some("Jo Smith".into()),
            turn: Some(4),
            reason: "nope".into()
        })
    );
    let k = classify(&msg("x", "Buzz! Euston was closed on that day"), &c).request;
    assert_eq!(
        k,
        Request::Workflow(Workflow::Buzz {
            player: None,
            turn: None,
            reason: "Euston was closed on that day".into()
        })
    );
}

#[test]
fn workflow_words() {
    assert_eq!(
        kind_of("", "I withdraw my Buzz, sorry."),
        Request::Workflow(Workflow::Withdraw)
    );
    assert_eq!(
        kind_of("", "Buzz withdrawn"),
        Request::Workflow(Workflow::Withdraw)
    );
    assert_eq!(
        kind_of("", "Withdrawn."),
        Request::Workflow(Workflow::Withdraw)
    );
    assert_eq!(
        kind_of("", "I withdraw from the game, it's been fun"),
        Request::Chatter
    );
    assert_eq!(
        kind_of("", "Conceded."),
        Request::Workflow(Workflow::Concede)
    );
    assert_eq!(
        kind_of("", "I do not concede: Euston was open.\nSee 1.11.4"),
        Request::Workflow(Workflow::Contest {
            text: "Euston was open.\nSee 1.11.4".into()
        })
    );
    assert_eq!(
        kind_of("", "Contest - the Peg was gone"),
        Request::Workflow(Workflow::Contest {
            text: "the Peg was gone".into()
        })
    );
    assert_eq!(
        kind_of("", "I must decline, I'm away."),
        Request::Workflow(Workflow::Decline)
    );
    assert_eq!(
        kind_of("", "Judgment: Illegal.\nThe line was Soaped."),
        Request::Workflow(Workflow::Judgment { legal: false })
    );
    assert_eq!(
        kind_of("", "I judge the turn Legal"),
        Request::Workflow(Workflow::Judgment { legal: true })
    );
    assert_eq!(
        kind_of("", "I judge the turn not legal"),
        Request::Workflow(Workflow::Judgment { legal: false })
    );
    assert_eq!(
        kind_of("", "Judgment will follow tomorrow."),
        Request::Chatter
    );
}

#[test]
fn take_back_with_inline_play() {
    let k = kind_of("", "Take back: Rushton : Euston (VC)");
    assert_eq!(
        k,
        Request::TakeBack(Some(Box::new(Request::turn(
            "Rushton : Euston (VC)".into(),
            false,
            1,
            12
        ))))
    );
    let e = Excerpt {
        text: String::new(),
        line: 1,
        column: 12,
    };
    assert_eq!(e.body_position(1, 3), (1, 14));
    assert_eq!(e.body_position(2, 3), (2, 3));
    assert_eq!(kind_of("", "I take back my turn."), Request::TakeBack(None));
}

#[test]
fn play_lines_and_continuations() {
    let k = kind_of(
        "Re: [MN12] GSD",
        "Here goes:\n\nRushton : [LV+1] Euston (VC\n  via: CN,NT)\n{phew}\nCheers",
    );
    assert_eq!(
        k,
        Request::turn(
            "Rushton : [LV+1] Euston (VC\n  via: CN,NT)\n{phew}".into(),
            false,
            3,
            1
        )
    );
    // Wrapped by a client at 78 columns (quirk-wrapped-play): read whole,
    // never as the Move to Wimbledon it starts with.
    let wrapped =
        "Rushton : [LV+2] {Northern line shut again, so the District instead} Wimbledon\nPark (DS)";
    assert_eq!(
        kind_of("Re: [MN12] GSD", &format!("{wrapped}\nCheers,\nTim")),
        Request::turn(wrapped.into(), false, 1, 1)
    );
    // Not a player of MN12: prose.
    assert_eq!(
        kind_of("[MN12]", "Note: Euston is lovely"),
        Request::Chatter
    );
}

#[test]
fn game_refs() {
    let c = ctx();
    let g = |s: &str, b: &str| classify(&msg(s, b), &c).game;
    assert_eq!(
        g("Re: [lounge] [mn12] x", ""),
        GameRef::Tagged("MN12".into())
    );
    assert_eq!(g("[MN14] new", ""), GameRef::Tagged("MN14".into()));
    assert_eq!(
        g("[MN12] vs [MN13]", ""),
        GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
    );
    assert_eq!(
        g("hi", ""),
        GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
    );
    assert_eq!(
        g("hi", "Game MN13\n+---+\n| Player |"),
        GameRef::Named("MN13".into())
    );
    assert_eq!(
        g("[MN12]", "Game MN13\n+---+\n| Player |"),
        GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
    );
    assert_eq!(
        g("hi", "> Game: mn12\n> +--+"),
        GameRef::Named("MN12".into())
    );
    assert_eq!(
        g("hi", "Game over, folks"),
        GameRef::Ambiguous(vec!["MN12".into(), "MN13".into()])
    );
    let one = ClassifyContext {
        games: std::sync::Arc::new(crate::mail::classify::Roster::from(vec![c
            .games
            .iter()
            .next()
            .unwrap()
            .clone()])),
        ..ctx()
    };
    assert_eq!(
        classify(&msg("hi", ""), &one).game,
        GameRef::Only("MN12".into())
    );
    let none = ClassifyContext {
        games: Default::default(),
        ..ctx()
    };
    assert_eq!(classify(&msg("hi", ""), &none).game, GameRef::Unknown);
}

#[test]
fn attribution_and_outlook_quotes() {
    let body = "STATUS MN12\n\nOn Mon, 1 Jan 2024 at 10:00, Tim Rushton <\ntim@example.org> wrote:\n> GSD MN12\n> whatever";
    assert_eq!(
        kind_of("Re: x", body),
        Request::Commands(vec![Command::Status(Some("MN12".into()))])
    );
    let outlook =
        "Fine by me.\n\n-----Original Message-----\nFrom: Cryer\nBuzz: Rushton's turn 3: no";
    assert_eq!(kind_of("RE: x", outlook), Request::Chatter);
}

#[test]
fn direct_mail_is_answered() {
    let mut m = msg("hello", "Hi bot, what can you do?");
    m.to = vec!["MornBot@Example.org".into()];
    let c = classify(&m, &ctx());
    assert!(c.direct);
    assert_eq!(
        c.request,
        Request::NotUnderstood {
            line: "Hi bot, what can you do?".into(),
            looks_like: LooksLike::Letter
        }
    );
    m.body = "Hi bot\nSTATUS MN12\nthanks".into();
    assert_eq!(
        classify(&m, &ctx()).request,
        Request::Commands(vec![Command::Status(Some("MN12".into()))])
    );
    // In the lounge, prose to the players is chatter.
    assert_eq!(kind_of("hello", "Hi all, what a game."), Request::Chatter);
}

#[test]
fn list_footers_are_cut_like_signatures() {
    for footer in [
        "_______________________________________________\nlounge mailing list\nlounge@lists.example.org\nhttps://lists.example.org/mailman/listinfo/lounge",
        "_______________________________________________\nlounge mailing list -- lounge@lists.example.org\nTo unsubscribe send an email to lounge-leave@lists.example.org",
        "-=-=-=-=-=-=-=-=-=-=-=-\nGroups.io Links: You receive all messages sent to this group.\n\nYou automatically follow any topics you start or reply to.\nView/Reply Online (#12): https://groups.io/g/lounge/message/12\nMute This Topic: https://groups.io/mt/1/2\nGroup Owner: lounge+owner@groups.io\nUnsubscribe: https://groups.io/g/lounge/unsub",
    ] {
        assert_eq!(
            kind_of("[MN12] help", &format!("HELP\n\n{footer}\n")),
            Request::Commands(vec![Command::Help]),
            "{footer}"
        );
    }
    // Not a footer: an Outlook quote, or a rule with prose after it.
    let outlook = "HELP\n________________________________\nFrom: Tim\nSubject: mailing list";
    assert_eq!(kind_of("", outlook), Request::Commands(vec![Command::Help]));
    let lines = body_lines("HELP\n__________\nsome words\nand more");
    assert_eq!(lines.iter().filter(|l| l.is_content()).count(), 4);
    let lines = body_lines("HELP\n__________\nlounge mailing list");
    assert_eq!(lines.iter().filter(|l| l.is_content()).count(), 1);
}

#[test]
fn subject_only_messages() {
    assert_eq!(
        kind_of("Re: [lounge] GSD MN12", ""),
        Request::Commands(vec![Command::Gsd(Some("MN12".into()))])
    );
    assert_eq!(
        kind_of("[MN12] Buzz: Cryer turn 4", "\n\n-- \nTim"),
        Request::Workflow(Workflow::Buzz {
            player: Some("Cryer".into()),
            turn: Some(4),
            reason: String::new()
        })
    );
    assert_eq!(kind_of("Re: Buzz: Cryer turn 4", ""), Request::Chatter);
}

#[test]
fn helpers_never_slice_inside_a_character() {
    for s in ["İbuzz", "ßtake back", "Buzz: İ's turn 1: x", "Ä", "Game Ä"] {
        let _ = kind_of(s, s);
    }
    assert_eq!(strip_prefix_ci("İx", "ab"), None);
    assert_eq!(column_of("ab€cd", "cd"), 4);
}
