//! Bounded work per mail (issue 14, findings 1 and 4): the `[limits]` are
//! checked before the work they bound, so a 1 MiB mail of commands or a
//! play of 145,000 Actions is refused in a moment with a small reply that
//! names the limit, and the next mail is judged. STATUS tells a stranger
//! who plays, not where to mail them (finding 7). A mail whose judging
//! takes longer than work_ms_per_mail is refused and changes nothing.
//! Replies to strangers are rate-limited (backscatter, finding 7).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::{Duration, Instant};

use support::letters::{Lounge, FIRST};

/// The bytes of the replies queued.
fn bytes(replies: &[String]) -> usize {
    replies.iter().map(String::len).sum()
}

/// Posts and asserts the mail was refused, quickly, with a small reply
/// naming `key`, and that it changed nothing.
fn refused(t: &mut Lounge, who: &str, body: &str, key: &str) {
    let turns = t.turns();
    let started = Instant::now();
    let p = t.post(false, who, body);
    let took = started.elapsed();
    let (summary, bytes) = (p.summary, bytes(&p.replies));
    assert!(summary.contains(key), "{key}: {summary}");
    assert!(bytes > 0 && bytes < 8192, "{key}: a {bytes}-byte reply");
    assert!(took < Duration::from_secs(2), "{key}: took {took:?}");
    assert_eq!(t.turns(), turns, "{key}: nothing changed");
}

#[test]
fn a_mail_of_commands_over_the_limit_is_refused_in_a_moment() {
    let mut t = Lounge::new(None);
    // RULES x 40,000 once made a 504 MB reply; 1 MiB of it ran 70 s and
    // died at 6.4 GB.
    refused(
        &mut t,
        "warren",
        &"RULES\n".repeat(40_000),
        "commands_per_mail",
    );
    refused(
        &mut t,
        "warren",
        &"RULES\n".repeat(149_000),
        "commands_per_mail",
    );
    refused(
        &mut t,
        "warren",
        &"GSD MN1\n".repeat(11),
        "commands_per_mail",
    );
    // Ten are answered, in one reply under the reply cap.
    let p = t.post(false, "warren", &"GSD MN1\n".repeat(10));
    assert_eq!(p.summary, "10 commands");
    assert!(bytes(&p.replies) < 262_144 + 4096, "{}", bytes(&p.replies));
    // And the next turn is judged.
    assert_eq!(t.post(false, "rushton", FIRST).summary, "legal");
}

#[test]
fn a_play_or_gsd_over_the_limits_is_refused_before_it_is_parsed() {
    let mut t = Lounge::new(None);
    let lv = format!(
        "Rushton : {}Morden (NT) [Home: Tooting Broadway]",
        "[LV+1] ".repeat(145_000)
    );
    refused(&mut t, "rushton", &lv, "actions_per_play");
    let blocking = format!(
        "Rushton : Morden (NT) [Home: Tooting Broadway] {}",
        "[Blocking Euston] ".repeat(10_000)
    );
    refused(&mut t, "rushton", &blocking, "actions_per_play");
    // Forty Actions are still read (and judged on their merits).
    let forty = format!(
        "Rushton : Morden (NT) [Home: Tooting Broadway] {}",
        "[LV+1] ".repeat(39)
    );
    let summary = t.post(false, "rushton", &forty).summary;
    assert!(!summary.contains("actions_per_play"), "{summary}");
    assert_eq!(t.post(false, "rushton", FIRST).summary, "legal");
}

/// A Play's comment and a line are bounded (issue 40, finding 3): a legal
/// Pass with a 700 KB comment once grew the database tenfold; it is
/// refused naming the limit, and a comment of the limit's length is read.
#[test]
fn a_play_with_a_comment_or_line_over_the_limits_is_refused() {
    let mut t = Lounge::new(None);
    let pass =
        |comment: &str| format!("Rushton : Morden (NT) [Home: Tooting Broadway] {{{comment}}}");
    refused(
        &mut t,
        "rushton",
        &pass(&"x".repeat(700 << 10)),
        "comment_chars",
    );
    refused(
        &mut t,
        "rushton",
        &pass(&"word ".repeat(201)),
        "comment_chars",
    );
    let long = format!(
        "Rushton : Morden (NT) [Home: Tooting Broadway] {}",
        "{ok} ".repeat(900)
    );
    refused(&mut t, "rushton", &long, "line_chars");
    // 1,000 characters are read (and judged on their merits).
    let p = t.post(
        false,
        "rushton",
        &format!(
            "Rushton : Morden (NT) [Home: Tooting Broadway] {{{}}}",
            "y".repeat(1000)
        ),
    );
    assert_eq!(p.summary, "legal", "{:?}", p.replies);
}

/// A whole Play is bounded too (issue 40, item 3): 60 continuation lines
/// of four 990-character comments, every comment and line within its
/// limit, were a legal 238 KB Pass. It is refused naming `play_chars`,
/// posted alone or added to a GSD, and a Play of the limit's length is
/// read.
#[test]
fn a_play_over_the_play_limit_is_refused_alone_or_in_a_gsd() {
    let mut t = Lounge::new(None);
    let line = format!("{{{}}}", "c".repeat(990)).repeat(4);
    let huge = format!("{FIRST}\n{}", vec![line; 60].join("\n"));
    refused(&mut t, "rushton", &huge, "play_chars");
    // The same Play added to the game's GSD, as a player replies with it.
    let live = t.referee.live(&t.store, "MN1").unwrap();
    let gsd = mornbot::gsd::render(&live.game.gsd(mornbot::map::Map::london_1999()));
    refused(&mut t, "rushton", &format!("{gsd}\n{huge}\n"), "play_chars");
    // 4,000 characters are read, wrapped over lines (each line break one
    // character); 4,001 are not.
    let play = |n: usize| {
        let mut p = FIRST.to_string();
        for _ in 0..3 {
            p.push_str(&format!("\n{{{}}}", "y".repeat(998)));
        }
        let rest = n - p.chars().count() - 3;
        p + &format!("\n{{{}}}", "y".repeat(rest))
    };
    assert_eq!(play(4000).chars().count(), 4000);
    refused(&mut t, "rushton", &play(4001), "play_chars");
    let p = t.post(false, "rushton", &play(4000));
    assert_eq!(p.summary, "legal", "{:?}", p.replies);
}

#[test]
fn status_shows_addresses_to_the_games_players_only() {
    let mut t = Lounge::new(None);
    let status = |t: &mut Lounge, who: &str| t.post(false, who, "STATUS MN1").replies.concat();
    let player = status(&mut t, "warren");
    assert!(player.contains("rushton@example.org"), "{player}");
    let stranger = status(&mut t, "eve");
    assert!(stranger.contains("Rushton"), "{stranger}");
    assert!(!stranger.contains("rushton@example.org"), "{stranger}");
    assert!(!stranger.contains("acton@example.org"), "{stranger}");
}

/// A stopwatch that advances `step_ms` each time it is read.
fn slow(step_ms: u64) -> mornbot::daemon::referee::Stopwatch {
    let calls = std::sync::atomic::AtomicU64::new(0);
    std::sync::Arc::new(move || {
        let n = calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Duration::from_millis(n * step_ms)
    })
}

#[test]
fn a_mail_over_the_work_budget_is_refused_and_changes_nothing() {
    let mut t = Lounge::new(None);
    // Judging "takes" 1.5 s, over the default 1,000 ms.
    t.referee.set_stopwatch(slow(1500));
    let p = t.post(false, "rushton", FIRST);
    assert_eq!(p.summary, "refused: work_ms_per_mail");
    assert_eq!(p.kind, "error");
    assert_eq!(t.turns(), 0, "the legal turn was thrown away");
    assert_eq!(p.replies.len(), 1, "one refusal, no lounge notice");
    let reply = p.replies[0].replace("\r\n", " ");
    assert!(reply.contains("To: rushton@example.org"), "{reply}");
    assert!(reply.contains("work_ms_per_mail"), "{reply}");
    // Under the budget, the same turn is judged.
    t.referee.set_stopwatch(slow(900));
    let p = t.post(false, "rushton", FIRST);
    assert_eq!(p.summary, "legal");
    assert_eq!(t.turns(), 1);
}

#[test]
fn a_mail_over_the_budget_that_may_not_be_answered_gets_no_reply() {
    // With a trusted server, an unauthenticated mail is never answered,
    // over the budget or not (RULINGS L7).
    let mut t = Lounge::new(Some("mx.example.test"));
    t.referee.set_stopwatch(slow(1500));
    let p = t.post(false, "rushton", FIRST);
    assert_eq!(p.summary, "refused: work_ms_per_mail");
    assert!(p.replies.is_empty(), "{:?}", p.replies);
    assert_eq!(t.turns(), 0);
}

#[test]
fn replies_to_a_stranger_are_rate_limited_and_players_are_always_answered() {
    let mut t = Lounge::new(None);
    for i in 1..=5 {
        let p = t.post(false, "stranger", "HELP");
        assert_eq!(p.replies.len(), 1, "reply {i} to a stranger goes out");
    }
    // The sixth in the hour is judged, and answered only by one polite
    // notice that the limit is reached; the seventh not at all
    // (backscatter, issue 40).
    let p = t.post(false, "stranger", "HELP");
    assert_eq!(p.replies.len(), 1, "{:?}", p.replies);
    assert!(p.replies[0].contains("Limit reached"), "{}", p.replies[0]);
    assert!(
        p.summary.contains("limit reached for stranger@example.org"),
        "{}",
        p.summary
    );
    let p = t.post(false, "stranger", "HELP");
    assert!(p.replies.is_empty(), "{:?}", p.replies);
    assert!(
        p.summary.contains("stranger_replies_per_hour"),
        "{}",
        p.summary
    );
    // Another stranger, and a player, still are.
    assert_eq!(t.post(false, "other", "HELP").replies.len(), 1);
    for _ in 0..8 {
        assert_eq!(t.post(false, "warren", "HELP").replies.len(), 1);
    }
}

#[test]
fn a_players_commands_are_answered_thirty_times_an_hour_and_turns_always() {
    // 200 HISTORY requests under a player's (forged) From drew 200 answers
    // of the whole game (issue 40, finding 3).
    let mut t = Lounge::new(None);
    for i in 1..=30 {
        let p = t.post(false, "warren", "HISTORY");
        assert_eq!(p.replies.len(), 1, "answer {i}");
    }
    let p = t.post(false, "warren", "HISTORY");
    assert_eq!(p.replies.len(), 1);
    assert!(p.replies[0].contains("Limit reached"), "{}", p.replies[0]);
    assert!(
        p.replies[0].contains("command_replies_per_hour = 30"),
        "{}",
        p.replies[0]
    );
    for _ in 0..20 {
        let p = t.post(false, "warren", "HISTORY");
        assert!(p.replies.is_empty(), "{:?}", p.replies);
        assert_eq!(p.summary, "not answered: command_replies_per_hour");
    }
    // Another player's commands, and every turn, are answered as ever.
    assert_eq!(t.post(false, "acton", "HELP").replies.len(), 1);
    assert_eq!(t.post(false, "rushton", FIRST).summary, "legal");
}

#[test]
fn replies_to_all_strangers_together_are_rate_limited() {
    let mut t = Lounge::new(None);
    t.referee.set_limits(mornbot::config::LimitsConfig {
        stranger_replies_total_per_hour: 3,
        ..Default::default()
    });
    for who in ["a", "b", "c"] {
        assert_eq!(t.post(false, who, "HELP").replies.len(), 1, "{who}");
    }
    let p = t.post(false, "d", "HELP");
    assert!(p.replies.is_empty(), "{:?}", p.replies);
    assert!(
        p.summary.contains("stranger_replies_total_per_hour"),
        "{}",
        p.summary
    );
    // A player's turn, refused or not, is answered as ever.
    assert_eq!(t.post(false, "rushton", FIRST).summary, "legal");
}

#[test]
fn a_mail_of_several_plays_is_refused_whole() {
    let mut t = Lounge::new(None);
    let body = format!("{FIRST}\n\nWarren : Upminster (DS) [Home: Hornchurch]");
    let p = t.post(false, "rushton", &body);
    assert_eq!(t.turns(), 0, "neither play judged");
    assert_eq!(p.replies.len(), 1);
    let reply = p.replies[0].replace("\r\n", " ");
    assert!(
        reply.contains("more than one play (lines 1 and 3)"),
        "{reply}"
    );
    // A play and its continuation lines are one play.
    let p = t.post(
        false,
        "rushton",
        "Rushton : Morden (NT)\n[Home: Tooting Broadway]",
    );
    assert_eq!(p.summary, "legal");
}
