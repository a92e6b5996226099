//! Notices a person can follow (issue 13, item 8), read from real
//! players' Dovecot mailboxes (IMAP) after mail through Postfix and mlmmj:
//! every mail about the game's turns (verdicts, the bot's Buzz, a
//! player's Buzz with its defence and contest, the Referee's request and
//! Judgment, the Speaker's Judgment, a reminder, a Timeout, a
//! resignation) has a Subject saying what it is after the game's tag, is
//! threaded on the game's root, says what happened in its first body line,
//! is signed once with no sentence said twice, and wraps its prose at 72
//! columns (templates/README.md); the Referee's request quotes the
//! play, the Buzz, the defence and the contest, without sign-offs.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::live::Live;

const ROOT: &str = "<mn1.game@example.test>";
const SPEAKER: &str = "\n[speaker]\naddresses = [\"speaker@example.test\"]\n";

/// A header of a raw mail, its folded lines unfolded.
fn head(m: &str, name: &str) -> Option<String> {
    let h = m.split("\n\n").next().unwrap_or("");
    let h = h.replace("\n ", " ").replace("\n\t", " ");
    h.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

fn body(m: &str) -> &str {
    m.split_once("\n\n").map_or("", |(_, b)| b)
}

/// The prose of a body: its lines before the GSD (`Game MN1`) and the
/// signature, but for play lines, tables and quotes (left as they are).
fn prose(body: &str) -> Vec<&str> {
    body.lines()
        .take_while(|l| *l != "-- " && !l.starts_with("Game MN1"))
        .filter(|l| !l.starts_with("    ") && !l.starts_with(['|', '+', '>']))
        .collect()
}

/// Asserts that `m` is a notice on the game's thread answering `id` (the
/// root when `None`), its first line `headline` (or starting with it when
/// it ends in "..."), its Subject the game's tag and that headline, its
/// prose wrapped at 72, signed once (the list's footer aside).
fn on_thread(m: &str, answering: Option<&str>, headline: &str) {
    let first = body(m).lines().next().unwrap_or_default();
    assert_eq!(
        head(m, "Subject"),
        Some(format!("[MN1] {first}")),
        "the Subject says what the notice is: {m}"
    );
    let faults = mornbot::mail::render::faults(&support::as_written(body(m)));
    assert!(faults.is_empty(), "{faults:?}\n{m}");
    let parent = answering.map_or(ROOT.to_string(), |id| format!("<{id}>"));
    assert_eq!(head(m, "In-Reply-To"), Some(parent.clone()), "{m}");
    let refs = head(m, "References").unwrap_or_default();
    let refs: Vec<&str> = refs.split_whitespace().collect();
    assert_eq!(refs.first(), Some(&ROOT), "{m}");
    assert_eq!(refs.last(), Some(&parent.as_str()), "{m}");
    match headline.strip_suffix("...") {
        Some(start) => assert!(first.starts_with(start), "{first:?}\n{m}"),
        None => assert_eq!(first, headline, "{m}"),
    }
    let long: Vec<&str> = prose(body(m))
        .into_iter()
        .filter(|l| l.chars().count() > 72)
        .collect();
    assert!(long.is_empty(), "prose over 72 columns: {long:?}\n{m}");
}

/// The one mail in `user`'s mailbox answering `id` whose first line is
/// `headline`.
fn notice(l: &Live, user: &str, id: &str, headline: &str) -> String {
    l.wait_for(user, &format!("{headline:?} answering {id}"), |m| {
        head(m, "In-Reply-To").is_some_and(|v| v.contains(id))
            && body(m).lines().next() == Some(headline)
    })
}

/// Plays a legal turn and checks its verdict in Acton's mailbox; returns
/// the verdict's Message-ID.
fn play(l: &mut Live, who: &str, line: &str, n: usize) -> String {
    let id = l.post(who, "[MN1] my turn", line);
    let name = line.split(" : ").next().unwrap();
    let headline = format!("Turn {n}: {name} (legal)");
    let v = notice(l, "acton", &id, &headline);
    on_thread(&v, Some(&id), &headline);
    head(&v, "Message-ID")
        .unwrap()
        .trim_matches(['<', '>'])
        .to_string()
}

/// The Referee's request answering the contest `c`, private to Warren:
/// the whole case quoted, without the sign-offs.
fn referee_request(l: &Live, c: &str) -> String {
    let req = notice(l, "warren", c, "You are Referee of turn 4");
    on_thread(&req, Some(c), "You are Referee of turn 4");
    assert_eq!(head(&req, "To").as_deref(), Some("warren@example.test"));
    let to: Vec<Vec<String>> = l.sent_answering(c).into_iter().map(|m| m.0).collect();
    let lounge = vec!["lounge@example.test".to_string()];
    let warren = vec!["warren@example.test".to_string()];
    assert_eq!(
        to,
        [lounge.clone(), lounge, warren],
        "the request is private"
    );
    let b_ = body(&req);
    for want in [
        "\n    Rushton : [LV+1] Theydon Bois (CN)\n",
        "Acton's Buzz:\n\n> Rushton had LV 0 when e moved.\n",
        "Rushton's defence:\n\n> [LV+1] comes before the Move, so LV 1 applies.\n",
        "Acton's contest of the defence:\n\n> Rule 1.6.2 says otherwise.\n",
        "\"Judgment: Legal\"",
    ] {
        assert!(b_.contains(want), "{want:?} in\n{req}");
    }
    for gone in ["Cheers", "Barry", "Regards", "Best,"] {
        assert!(!b_.contains(gone), "{gone:?} in\n{req}");
    }
    req
}

#[test]
fn a_buzz_its_defence_contest_referee_and_judgments_stay_on_the_thread() {
    let Some(mut l) = Live::start(SPEAKER, &[]) else {
        return;
    };
    l.stack.adduser("speaker", "speaker-pw");
    play(
        &mut l,
        "rushton",
        "Rushton : Epping (CN) [Home: Hainault]",
        1,
    );
    play(
        &mut l,
        "warren",
        "Warren : Morden (NT) [Home: Tooting Broadway]",
        2,
    );
    play(
        &mut l,
        "acton",
        "Acton : Upminster (DS) [Home: Hornchurch]",
        3,
    );
    let v4 = play(&mut l, "rushton", "Rushton : [LV+1] Theydon Bois (CN)", 4);

    // Acton buzzes turn 4, signing off; Rushton defends; Acton contests.
    let b = l.answer(
        "acton",
        &v4,
        "Buzz turn 4: Rushton had LV 0 when e moved.\n\nCheers,\nBarry",
    );
    let m = notice(&l, "rushton", &b, "Turn 4 is Questionable");
    on_thread(&m, Some(&b), "Turn 4 is Questionable");
    assert!(!body(&m).contains("Cheers"), "{m}");
    let d = l.answer(
        "rushton",
        &b,
        "Contest: [LV+1] comes before the Move, so LV 1 applies.\n\nRegards,\nTim",
    );
    let m = l.reply("acton", &d);
    on_thread(&m, Some(&d), "...");
    let c = l.answer(
        "acton",
        &d,
        "Contest: Rule 1.6.2 says otherwise.\n\nBest,\nBarry",
    );
    on_thread(
        &notice(&l, "acton", &c, "Turn 4: to Judgment"),
        Some(&c),
        "Turn 4: to Judgment",
    );
    let who = notice(&l, "acton", &c, "Turn 4: Warren is Referee");
    on_thread(&who, Some(&c), "Turn 4: Warren is Referee");

    let req = referee_request(&l, &c);

    // The Referee's Judgment.
    let req_id = head(&req, "Message-ID").unwrap();
    let head_ = format!(
        "From: warren@example.test\nTo: bot@example.test\nSubject: Re: {}\n\
         In-Reply-To: {req_id}\nReferences: {ROOT} {req_id}",
        head(&req, "Subject").unwrap()
    );
    let j = l.send("warren", "bot@example.test", &head_, "Judgment: Legal");
    on_thread(
        &notice(&l, "acton", &j, "Turn 4 is Legal"),
        Some(&j),
        "Turn 4 is Legal",
    );

    // The bot buzzes an illegal turn; the Speaker judges it Legal.
    let t5 = l.post(
        "warren",
        "[MN1] my turn",
        "Warren : [LV+1] Tooting Broadway (NT)",
    );
    let buzz = notice(&l, "acton", &t5, "Buzz: Warren's turn 5 is illegal");
    on_thread(&buzz, Some(&t5), "Buzz: Warren's turn 5 is illegal");
    let buzz_id = head(&buzz, "Message-ID").unwrap();
    let head_ = format!(
        "From: speaker@example.test\nTo: lounge@example.test\nSubject: Re: {}\n\
         In-Reply-To: {buzz_id}\nReferences: {ROOT} {buzz_id}",
        head(&buzz, "Subject").unwrap()
    );
    let s = l.send("speaker", "lounge@example.test", &head_, "Judgment: Legal");
    let m = l.reply("acton", &s);
    on_thread(&m, Some(&s), "...");
    assert!(m.contains("Legal by Judgment"), "{m}");
    assert!(l.daemon.terminate().success());
}

#[test]
fn reminders_timeouts_and_resignations_are_under_the_games_root() {
    // 20000 game seconds a real second: a 36-hour deadline in ~7 s.
    let Some(mut l) = Live::start(SPEAKER, &[("MORNBOT_CLOCK_SPEED", "20000")]) else {
        return;
    };
    l.stack.adduser("speaker", "speaker-pw");
    play(
        &mut l,
        "rushton",
        "Rushton : Epping (CN) [Home: Hainault]",
        1,
    );
    let first = |m: &str| body(m).lines().next().unwrap_or_default().to_string();
    let reminder = l.wait_for("warren", "Warren's reminder", |m| {
        first(m).starts_with("Reminder: your turn 2 is due by")
    });
    on_thread(&reminder, None, "Reminder: your turn 2 is due by...");
    assert_eq!(
        head(&reminder, "To").as_deref(),
        Some("warren@example.test")
    );
    let timeout = l.wait_for("acton", "Warren's Timeout", |m| {
        first(m) == "Turn 2: Warren timed out"
    });
    on_thread(&timeout, None, "Turn 2: Warren timed out");
    assert_eq!(head(&timeout, "To").as_deref(), Some("lounge@example.test"));

    // The Speaker Resigns Warren by a command to the bot.
    l.mail_bot("speaker", "MN1", "RESIGN Warren MN1");
    let resigned = l.wait_for("acton", "Warren's resignation", |m| {
        first(m) == "Warren has Resigned"
    });
    on_thread(&resigned, None, "Warren has Resigned");
    assert!(
        body(&resigned).contains("The Speaker Resigns Warren from MN1"),
        "{resigned}"
    );
    assert!(l.daemon.terminate().success());
}
