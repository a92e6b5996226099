//! One mc-xml game from NEW GAME to a Build win (issue 41), by real mail
//! against the loopback stack (Dovecot, Postfix, mlmmj) and the real
//! daemon, in the lounge that plays Volume 1's MN1 (two of its turns are
//! judged between MX9's). The Speaker opens MX9; two players join and
//! START draws their order; after the first turn a third address asks to
//! join the game under way, both players consent, and e plays last.
//! [`SCRIPT`]'s 41 turns use every action of Rule 6: the supplier buys
//! parts for the builder to steal, the joiner shunts the supplier towards
//! a terminus and stands 10 steps from both lifts' stations, blocking and
//! unblocking a station. One turn is refused with its rule, to its sender
//! alone, and corrected; the daemon is SIGKILLed just after a turn reached
//! it; on a fast clock it plays the joiner's Timeout. The builder wins by
//! a Build: the subject says so, the dice's seed is revealed matching NEW
//! GAME's commitment, STATUS says who won, a turn after the end is
//! refused. Every mail is answered exactly once.
//!
//! The first test plays the script through the kind's interface alone
//! (the join and the Timeout as the daemon plays them), so that a failure
//! of the second is the daemon's or the mail's, never the script's.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::{Duration, Instant};

use mornbot::kinds::mcxml::{Facts, Part};
use mornbot::kinds::{Judged, Kind, Next, Position};
use support::live::Live;
use support::stack_mail::*;
use support::{header, imap_search_raw};

/// The Speaker's address; the outbox waits for the echo of a reply sent
/// just before a kill (as in tests/mail_faults.rs) before sending it again.
const CONFIG: &str = "[speaker]\naddresses = [\"speaker@example.test\"]\n\n\
                      [outbox]\nunconfirmed_wait_secs = 10\n";

/// The game's tag.
const TAG: &str = "MX9";

/// Game seconds per real second while the daemon runs fast: MX9's 2 plain
/// hours pass in 30 s.
const SPEED: &str = "240";

/// Who plays a turn of [`SCRIPT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// The first in the order of play: buys what the builder steals.
    Supplier,
    /// The second: steals and buys the nine parts, and builds.
    Builder,
    /// The third, joined late (last in the order): shunts, blocks and
    /// unblocks, and stands 10 steps from the lifts' stations.
    Joiner,
}

use Role::{Builder as B, Joiner as J, Supplier as S};

/// The actions of a turn the daemon plays as a Timeout (RULINGS MX5).
const TIMEOUT: &str = "";

/// The joiner asks to join after this turn of [`SCRIPT`]; both players
/// consent while the builder's first turn is awaited.
const JOINS_AFTER: usize = 1;

/// A turn of [`SCRIPT`] first sent illegal (these actions: an announcer
/// bought at Earl's Court, no terminus), refused citing this rule and
/// saying this, then corrected.
const REFUSED: (usize, &str, &str, &str) = (
    25,
    "<Move steps=\"South Kensington, Gloucester Road, Earl's Court\"/>\
     <Buy item=\"station announcer\"/>",
    "Rule 5",
    "station announcers may be bought at a terminus (one adjacent station)",
);

/// The turn of [`SCRIPT`] after which the daemon is SIGKILLed.
const KILLED: usize = 29;

/// MN1's turns 1 and 2, Volume 1's in the same lounge: after which turn of
/// [`SCRIPT`], by whom, and the play.
const MN1: [(usize, &str, &str); 2] = [
    (9, "rushton", "Rushton : Epping (CN) [Home: Hainault]"),
    (
        KILLED,
        "warren",
        "Warren : Morden (NT) [Home: Tooting Broadway]",
    ),
];

/// The game, turn by turn: who plays, the actions inside eir `<Turn>`, and
/// a line the verdict's "What changed" must hold. `{S}`, `{B}` and `{J}`
/// stand for the supplier's, the builder's and the joiner's names. Every
/// train starts at Tottenham Court Road (an interchange); Euston, where
/// the builder ends, is adjacent to Mornington Crescent (MX3's default
/// `build_at = "adjacent"`). With three players a lift must be bought 10
/// steps from both other trains (Rule 5), and the game holds 3 lifts and 5
/// platforms.
const SCRIPT: [(Role, &str, &str); 41] = [
    // Tokens first: a part is paid for when it is bought (Rule 4).
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Slave/>", "{J} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Work/><Work/><Work/>", "{J} worked: +1 token (20 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Slave/>", "{J} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Work/><Work/><Work/>", "{J} worked: +1 token (20 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Slave/>", "{J} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Work/><Work/><Work/>", "{J} worked: +1 token (20 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (J, "<Slave/>", "{J} slaved: +5 tokens (60 min)"),
    // Ticket machines, where the other trains stand.
    (
        S,
        "<Work/><Work/><Buy item=\"ticket machine\"/>",
        "{S} bought a ticket machine (5 tokens, 20 min)",
    ),
    (
        B,
        "<Buy item=\"ticket machine\"/><Steal player=\"{S}\" item=\"ticket machine\"/>\
         <Move steps=\"Holborn\"/>",
        "{B} stole a ticket machine from {S} (2 tokens, 30 min)",
    ),
    // The joiner shunts the supplier on the way to the terminus, and sets
    // out south.
    (
        J,
        "<Shunt player=\"{S}\" steps=\"Oxford Circus, Green Park, Hyde Park Corner, \
         Knightsbridge\"/><Move steps=\"Leicester Square, Charing Cross, Embankment\"/>",
        "{J} shunted {S} Tottenham Court Road -> Oxford Circus -> Green Park -> \
         Hyde Park Corner -> Knightsbridge (4 tokens)",
    ),
    (
        S,
        "<Move steps=\"South Kensington, Gloucester Road, Earl's Court, Kensington (Olympia)\"/>\
         <Buy item=\"station announcer\"/>",
        "{S} bought a station announcer (20 tokens, 20 min)",
    ),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (
        J,
        "<Move steps=\"Waterloo, Kennington, Oval, Stockwell, Clapham North, Clapham Common\"/>",
        "{J} moved Embankment -> Waterloo -> Kennington -> Oval -> Stockwell -> \
         Clapham North -> Clapham Common (60 min)",
    ),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    // 10 steps from Kensington (Olympia) and Clapham Common, the builder
    // buys a lift at Russell Square; the supplier, with the builder at
    // King's Cross, at Kensington (Olympia).
    (
        B,
        "<Work/><Move steps=\"Russell Square\"/><Buy item=\"lift\"/>\
         <Move steps=\"King's Cross St. Pancras\"/>",
        "{B} bought a lift (10 tokens, 20 min)",
    ),
    (
        J,
        "<Block station=\"Clapham South\" strength=\"1\"/><Work/><Work/>",
        "{J} blocked Clapham South with strength 1 (1 token, 10 min)",
    ),
    (
        S,
        "<Buy item=\"lift\"/><Move steps=\"Earl's Court, Gloucester Road, South Kensington\"/>",
        "{S} bought a lift (10 tokens, 20 min)",
    ),
    // A platform at an interchange (King's Cross has 7 neighbours).
    (
        B,
        "<Work/><Work/><Buy item=\"platform\"/>",
        "{B} bought a platform (10 tokens, 20 min)",
    ),
    (J, TIMEOUT, "{J} played no action"),
    (
        S,
        "<Move steps=\"Knightsbridge, Hyde Park Corner, Green Park, Oxford Circus, \
         Warren Street, Euston\"/>",
        "{S} moved South Kensington -> Knightsbridge -> Hyde Park Corner -> Green Park -> \
         Oxford Circus -> Warren Street -> Euston (60 min)",
    ),
    // Together at Euston: the builder buys and steals what is left.
    (
        B,
        "<Move steps=\"Euston\"/><Buy item=\"ticket machine\"/>\
         <Steal player=\"{S}\" item=\"lift\"/>",
        "{B} stole a lift from {S} (2 tokens, 30 min)",
    ),
    (
        J,
        "<Unblock steps=\"Clapham South\"/><Work/><Work/>",
        "{J} unblocked Clapham South (2 tokens, 10 min)",
    ),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (
        B,
        "<Buy item=\"ticket machine\"/><Steal player=\"{S}\" item=\"station announcer\"/>",
        "{B} stole a station announcer from {S} (2 tokens, 30 min)",
    ),
    (J, "<Slave/>", "{J} slaved: +5 tokens (60 min)"),
    (
        S,
        "<Work/><Work/><Buy item=\"platform\"/>",
        "{S} bought a platform (10 tokens, 20 min)",
    ),
    // 2 platforms, 2 lifts, 4 ticket machines, the announcer: Build.
    (
        B,
        "<Steal player=\"{S}\" item=\"platform\"/><Build/>",
        "{B} built Mornington Crescent and put eir train on it (30 min)",
    ),
];

/// The three players, by [`Role`].
struct Table([P; 3]);

impl Table {
    /// Players named so, their mailboxes their names in lower case.
    fn new(names: [&str; 3]) -> Table {
        Table(names.map(|name| P {
            name: name.to_string(),
            who: name.to_lowercase(),
        }))
    }

    /// The player of `role`.
    fn of(&self, role: Role) -> &P {
        &self.0[role as usize]
    }

    /// `text` with `{S}`, `{B}` and `{J}` replaced by the players' names.
    fn named(&self, text: &str) -> String {
        let marks = ["{S}", "{B}", "{J}"].iter().zip(&self.0);
        marks.fold(text.to_string(), |t, (m, p)| t.replace(m, &p.name))
    }
}

/// Turn `k` of [`SCRIPT`] is turn `n` of the game's log, the join taking
/// a line of it, and the game is then `k` turns old.
fn log_n(k: usize) -> usize {
    k + usize::from(k > JOINS_AFTER)
}

#[test]
fn the_three_player_script_is_legal_turn_by_turn_and_wins() {
    let t = Table::new(["Sam", "Bea", "Dee"]);
    let players = [t.of(S).name.clone(), t.of(B).name.clone()];
    let mut position = Kind::McXml.start(&players, &[]).unwrap();
    let mut log = String::new();
    let last = SCRIPT.len();
    for (i, (role, actions, says)) in SCRIPT.iter().enumerate() {
        let k = i + 1;
        let me = &t.of(*role).name;
        if k == REFUSED.0 {
            let (order, _) = position.read(&turn(me, &t.named(REFUSED.1))).unwrap();
            let Judged::Illegal(breaches) = position.judge(&order, me) else {
                panic!("turn {k}, first sent, stands")
            };
            let said: Vec<String> = breaches.iter().map(ToString::to_string).collect();
            assert!(
                said.iter()
                    .all(|b| b.starts_with(REFUSED.2) && b.contains(REFUSED.3)),
                "turn {k}: {said:#?}"
            );
        }
        let (order, judged) = if *actions == TIMEOUT {
            position.timeout()
        } else {
            let body = turn(me, &t.named(actions));
            let (order, repairs) = position
                .read(&body)
                .unwrap_or_else(|e| panic!("turn {k} does not read: {e}\n{body}"));
            assert!(repairs.is_empty(), "turn {k}: {repairs:?}");
            let judged = position.judge(&order, me);
            (order, judged)
        };
        assert_eq!(order.player(), me.as_str(), "turn {k}");
        let (Judged::Legal {
            position: next,
            changes,
        }
        | Judged::Over {
            position: next,
            changes,
        }) = judged
        else {
            panic!("turn {k} by {me}: {judged:#?}")
        };
        let ends = match SCRIPT.get(k) {
            Some((role, _, _)) => format!("{} plays next", t.of(*role).name),
            None => format!("{} wins and the game ends", t.of(B).name),
        };
        assert!(
            changes.last().is_some_and(|c| c.ends_with(&ends)),
            "turn {k}: {changes:#?}"
        );
        assert_eq!(matches!(next.next(), Next::Over { .. }), k == last, "{k}");
        let says = t.named(says);
        assert!(
            changes.contains(&says),
            "turn {k}: {says:?} in {changes:#?}"
        );
        // The log's canonical line replays to the same position.
        let line = position.canonical(&order);
        log.push_str(&line);
        assert_eq!(position.replay(&line, me).unwrap(), next, "turn {k}");
        position = next;
        if k == JOINS_AFTER {
            // Every player consented: the joiner plays last, from
            // Tottenham Court Road with nothing (RULINGS MX13).
            let line = Position::join_line(&t.of(J).name);
            position = position.replay(&line, &t.of(J).name).unwrap();
            assert_eq!(
                position.players(),
                [t.of(S).name.as_str(), &t.of(B).name, &t.of(J).name]
            );
        }
    }
    // Every action of Rule 6, at least once.
    for action in [
        "Move", "Shunt", "Block", "Unblock", "Steal", "Work", "Slave", "Buy", "Build",
    ] {
        assert!(log.contains(&format!("<{action}")), "no {action} in {log}");
    }
    assert_eq!(
        position.next(),
        Next::Over {
            winners: vec![t.of(B).name.clone()]
        }
    );
    let Position::McXml(state) = &position else {
        panic!("an mc-xml position")
    };
    let won = &state.trains[1];
    assert_eq!(won.at, Facts::london().mornington());
    for (part, needed) in [
        (Part::Platform, 2),
        (Part::Lift, 2),
        (Part::Ticket, 4),
        (Part::Announcer, 1),
    ] {
        assert_eq!(won.parts.get(part), needed, "{part:?}");
    }
    assert_eq!(state.turns as usize, last);
    let doc = position.render(&mornbot::kinds::Viewer::Public, None);
    let b = &t.of(B).name;
    assert!(
        doc.contains(&format!(
            "Game over: {b} built Mornington Crescent and won."
        )),
        "{doc}"
    );
    // Nothing after the end (RULINGS MX12).
    let (order, _) = position.read(&turn(&t.of(S).name, "<Work/>")).unwrap();
    let Judged::Illegal(breaches) = position.judge(&order, &t.of(S).name) else {
        panic!("a turn after the end stands")
    };
    let said: Vec<String> = breaches.iter().map(ToString::to_string).collect();
    let end = format!("Rule 6 (MX12): the game has ended: {b} built Mornington Crescent");
    assert!(said.contains(&end), "{said:#?}");
}

/// Posts turn `k` of [`SCRIPT`] to the lounge, by its player: the post's
/// Message-ID, and the player.
fn post(l: &mut Live, t: &Table, k: usize) -> (String, P) {
    let (role, actions, _) = SCRIPT[k - 1];
    let p = t.of(role).clone();
    let body = turn(&p.name, &t.named(actions));
    (l.post(&p.who, &format!("[{TAG}] my turn"), &body), p)
}

/// Checks `v`, the lounge's mail on turn `k` of [`SCRIPT`] on one line:
/// the game then `k` turns old, what the script says changed, and who
/// plays next.
fn judged(t: &Table, k: usize, v: &str) {
    let turns = if k == 1 { "turn" } else { "turns" };
    let after = format!("XML Mornington Crescent (mc-xml), after {k} {turns}");
    assert!(v.contains(&after), "turn {k}: {v}");
    let says = t.named(SCRIPT[k - 1].2);
    assert!(v.contains(&says), "turn {k}: {says:?} in {v}");
    if let Some((role, _, _)) = SCRIPT.get(k) {
        let next = format!("Next to play: {}", t.of(*role).name);
        assert!(v.contains(&next), "turn {k}: {next:?} in {v}");
    }
}

/// Checks `v`, the verdict on turn `k` of [`SCRIPT`] on one line: legal,
/// and [`judged`].
fn legal(l: &Live, t: &Table, k: usize, v: &str) {
    let (name, n) = (&t.of(SCRIPT[k - 1].0).name, log_n(k));
    assert!(
        v.contains(&format!("{name}'s turn {n} of {TAG} is legal")),
        "turn {k}: {v}\nlog:\n{}",
        log_tail(l)
    );
    judged(t, k, v);
}

/// Plays turn `k` of [`SCRIPT`]: posted, and judged legal in the lounge;
/// the SIGKILL of [`KILLED`] just after it reached the bot.
fn play(l: &mut Live, e: &mut Expect, t: &Table, k: usize) {
    let (id, p) = post(l, t, k);
    if k == KILLED {
        kill_after(l, &id, Duration::from_millis(60));
    }
    legal(l, t, k, &flat(&in_lounge(l, &id)));
    e.lounge(&id, &p.who, true);
}

/// [`REFUSED`]'s turn as first sent: refused to its sender alone, citing
/// the rule, nothing changed.
fn refused(l: &mut Live, e: &mut Expect, t: &Table) {
    let (k, actions, rule, says) = REFUSED;
    let p = t.of(SCRIPT[k - 1].0);
    let id = l.post(
        &p.who,
        &format!("[{TAG}] my turn"),
        &turn(&p.name, &t.named(actions)),
    );
    let refused = flat(&private(l, &p.who, &id));
    let n = log_n(k);
    for said in [
        &format!("Your turn {n} of {TAG} is refused"),
        rule,
        says,
        "Nothing has changed",
    ] {
        assert!(refused.contains(said), "{said:?} in {refused}");
    }
    e.private(&id, &p.who);
}

/// Turn `k` of [`SCRIPT`], which the joiner lets pass: the daemon,
/// restarted on a fast clock, plays eir Timeout once 2 plain hours have
/// passed, and runs at normal speed again. The search that finds it.
fn time_out(l: &mut Live, t: &Table, k: usize) -> String {
    let (n, name) = (log_n(k), &t.of(J).name);
    let subject = format!("[{TAG}] Turn {n}: {name} timed out");
    let (timeout, search) = fast_timeout(l, SPEED, &subject);
    let v = flat(&timeout);
    let missed = format!("{name} sent no turn {n} of {TAG} by");
    assert!(v.contains(&missed), "{v}");
    assert!(v.contains("2 hours a turn, every hour counted"), "{v}");
    judged(t, k, &v);
    search
}

#[test]
fn one_mcxml_game_by_real_mail_from_new_game_to_a_build_win() {
    let Some(mut l) = Live::start(CONFIG, &[]) else {
        return;
    };
    let started = Instant::now();
    l.stack.adduser("speaker", "speaker-pw");
    for u in ["ann", "bob", "dana"] {
        l.stack.adduser(u, &format!("{u}-pw"));
        l.stack.subscribe(&format!("{u}@example.test"));
    }
    let mut e = Expect::default();

    // 1. The Speaker opens MX9 for up to three; its dice's commitment is
    // published.
    let id = l.mail_bot(
        "speaker",
        "new game",
        &format!("NEW GAME {TAG} kind mc-xml players 3 deadline 2h plain"),
    );
    let open = flat(&in_lounge(&l, &id));
    for said in [
        &format!("A new game, {TAG}, is open"),
        "XML Mornington Crescent (mc-xml)",
        "2 hours a turn",
    ] {
        assert!(open.contains(said), "{said:?} in {open}");
    }
    let committed = hex_after(&open, &format!("{TAG} "));
    let told = flat(&private(&l, "speaker", &id));
    assert!(told.contains(&format!("{TAG} is created")), "{told}");
    e.both(&id, "speaker", false);

    for (who, name) in [("ann", "Ann"), ("bob", "Bob")] {
        join(&mut l, &mut e, TAG, who, name);
    }

    // 2. START draws the order: the first drawn supplies, the second builds.
    let id = l.mail_bot("speaker", "start", &format!("START {TAG}"));
    let start = flat(&in_lounge(&l, &id));
    assert!(
        start.contains(&format!(
            "{TAG}, a game of XML Mornington Crescent (mc-xml), starts with 2 players"
        )),
        "{start}"
    );
    let order = order_of(&start, 2);
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, ["Ann", "Bob"], "{start}");
    e.both(&id, "speaker", false);
    let t = Table::new([&order[0], &order[1], "Dana"]);

    // 3. The first turn; then Dana asks to join, both players consent,
    // and e plays last, after the builder, whose turn is awaited.
    play(&mut l, &mut e, &t, 1);
    let joined = join_late(&mut l, &mut e, TAG, ("dana", "Dana"), &[t.of(S), t.of(B)]);
    let next = format!("Next to play: {}", t.of(B).name);
    assert!(joined.contains(&next), "{joined}");

    // 4. The script, turn by turn, each judged legal in the lounge (one
    // first refused, one a Timeout), MN1's turns between them.
    let last = SCRIPT.len();
    let mut timeouts = None;
    for k in JOINS_AFTER + 1..last {
        if k == REFUSED.0 {
            refused(&mut l, &mut e, &t);
        }
        if SCRIPT[k - 1].1 == TIMEOUT {
            timeouts = Some(time_out(&mut l, &t, k));
        } else {
            play(&mut l, &mut e, &t, k);
        }
        for (i, (after, who, play)) in MN1.iter().enumerate() {
            if k == *after {
                mn1_turn(&mut l, &mut e, who, i + 1, play);
            }
        }
    }

    // 5. The Build: two lounge answers, in either order, its verdict and
    // the dice's seed revealed (RULINGS S14, MX13).
    let (id, p) = post(&mut l, &t, last);
    let both = all_in_lounge(&l, &id, 2);
    e.answers.push((id.clone(), "rushton".into(), 2));
    e.answers.push((id.clone(), p.who.clone(), 2));
    e.queued.push((id, 2));
    let n = log_n(last);
    let subject = format!("[{TAG}] Turn {n}: ");
    let (verdict, reveal): (Vec<&String>, Vec<&String>) = both
        .iter()
        .partition(|m| header(m, "Subject").is_some_and(|s| s.starts_with(&subject)));
    let [won] = verdict[..] else {
        panic!("one verdict in {both:#?}")
    };
    let b = &t.of(B).name;
    assert_eq!(
        header(won, "Subject"),
        Some(format!("{subject}{b}, legal, and wins").as_str()),
        "{won}"
    );
    let [reveal] = reveal[..] else {
        panic!("one seed in {both:#?}")
    };
    let (won, reveal) = (flat(won), flat(reveal));
    legal(&l, &t, last, &won);
    // The win, announced: the winner named, no one to play next.
    for said in [
        format!("{b} wins and the game ends"),
        format!("Game over: {b} built Mornington Crescent and won."),
    ] {
        assert!(won.contains(&said), "{said:?} in {won}");
    }
    assert!(!won.contains("Next to play"), "{won}");
    // The game is over: the seed of its dice is revealed, the one NEW
    // GAME committed to.
    seed_revealed(&reveal, TAG, &committed);

    // 6. STATUS, from each player: the game is over, and who won.
    for p in [t.of(S), t.of(J)] {
        let id = l.mail_bot(&p.who, "status", &format!("STATUS {TAG}"));
        let status = flat(&private(&l, &p.who, &id));
        for said in [
            format!("XML Mornington Crescent (mc-xml), after {last} turns"),
            format!("Game over: {b} built Mornington Crescent and won."),
        ] {
            assert!(status.contains(&said), "{said:?} in {status}");
        }
        assert!(!status.contains("Next to play"), "{status}");
        e.private(&id, &p.who);
    }

    // 7. A turn after the end is refused, to its sender alone, and changes
    // nothing (RULINGS MX12, MX20).
    let id = l.post(
        &t.of(S).who,
        &format!("[{TAG}] my turn"),
        &turn(&t.of(S).name, "<Work/>"),
    );
    let refused = flat(&private(&l, &t.of(S).who, &id));
    let over = format!("{TAG} is over: {b} won after {last} turns");
    assert!(refused.contains(&over), "{over:?} in {refused}");
    assert!(refused.contains("Nothing has changed"), "{refused}");
    assert!(!refused.contains("corrected turn"), "{refused}");
    e.private(&id, &t.of(S).who);
    assert!(l.daemon.terminate().success());

    // 8. Give a duplicate time to arrive, then count what came back.
    std::thread::sleep(Duration::from_secs(5));
    let search = timeouts.expect("a Timeout");
    let timeouts = imap_search_raw(l.imap, "rushton", "INBOX", Some(&search)).len();
    assert_eq!(timeouts, 1, "one Timeout");
    let users = ["rushton", "warren", "speaker", "ann", "bob", "dana"];
    e.check(&l, &users);
    eprintln!(
        "{last} turns to a Build; the game took {:?}",
        started.elapsed()
    );
}
