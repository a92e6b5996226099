//! An mc-xml game won by a Build (Rule 6; RULINGS MX3, MX12), by real mail
//! against the loopback stack (Dovecot, Postfix, mlmmj) and the real
//! daemon, in the lounge that plays Volume 1's MN1: the Speaker opens MX9,
//! two players join and confirm from their own mailboxes, START draws
//! their order, and [`SCRIPT`]'s 28 turns are posted to the lounge, each
//! judged legal there. The first player (the supplier) buys parts for the
//! second (the builder) to steal, travelling to Kensington (Olympia), a
//! terminus 10 steps from the builder, for the station announcer and a
//! lift; the builder buys the rest and wins with a Build from Euston.
//! The winning verdict says so in the lounge, and the game's dice seed is
//! revealed there, matching the commitment NEW GAME published; STATUS then
//! says the game is over and who won; a turn sent after the end is
//! refused, to its sender alone. Every mail is answered exactly once.
//!
//! The script is also checked without the stack, through the kind's
//! interface alone (the first test), so that a failure of the second is
//! the daemon's or the mail's, never the script's.
//!
//! 28 turns is the shortest game we found: the nine parts cost 80 tokens
//! (16 Slaves' worth), a player buys at most once a turn, the announcer
//! needs a terminus and a lift 10 steps between the trains, and each part
//! the builder does not buy costs em a Steal. Counted so, no trip to a
//! terminus allows a Build before turn 27, which needs the builder to play
//! first; a turn-by-turn search of that case found no such game.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use std::time::{Duration, Instant};

use mornbot::kinds::mcxml::{Facts, Part};
use mornbot::kinds::{Judged, Kind, Next, Position};
use support::header;
use support::live::Live;
use support::stack_mail::*;

/// The Speaker's address, as the other stack tests configure it.
const CONFIG: &str = "[speaker]\naddresses = [\"speaker@example.test\"]\n";

/// The game's tag.
const TAG: &str = "MX9";

/// Who plays a turn of [`SCRIPT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// The first in the order of play: buys what the builder steals.
    Supplier,
    /// The second: steals and buys the nine parts, and builds.
    Builder,
}

use Role::{Builder as B, Supplier as S};

/// The game, turn by turn: who plays, the actions inside eir `<Turn>`, and
/// a line the verdict's "What changed" must hold. `{S}` and `{B}` stand for
/// the supplier's and the builder's names. Both trains start at Tottenham
/// Court Road (an interchange), and Euston, where the builder ends, is
/// adjacent to Mornington Crescent (MX3's default `build_at = "adjacent"`).
const SCRIPT: [(Role, &str, &str); 28] = [
    // Tokens first: a part is paid for when it is bought (Rule 4).
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    // Ticket machines, where the other train stands.
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
    // The supplier sets out for the terminus.
    (
        S,
        "<Work/><Move steps=\"Oxford Circus, Green Park, Hyde Park Corner, Knightsbridge\"/>",
        "{S} moved Tottenham Court Road -> Oxford Circus -> Green Park -> \
         Hyde Park Corner -> Knightsbridge (40 min)",
    ),
    (B, "<Slave/>", "{B} slaved: +5 tokens (60 min)"),
    (
        S,
        "<Move steps=\"South Kensington, Gloucester Road, Earl's Court, Kensington (Olympia)\"/>\
         <Buy item=\"station announcer\"/>",
        "{S} bought a station announcer (20 tokens, 20 min)",
    ),
    // 10 steps apart, each buys a lift: the builder at Russell Square,
    // the supplier at Kensington (Olympia) with the builder at King's
    // Cross.
    (
        B,
        "<Work/><Move steps=\"Russell Square\"/><Buy item=\"lift\"/>\
         <Move steps=\"King's Cross St. Pancras\"/>",
        "{B} bought a lift (10 tokens, 20 min)",
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
    (S, "<Slave/>", "{S} slaved: +5 tokens (60 min)"),
    (
        B,
        "<Buy item=\"ticket machine\"/><Steal player=\"{S}\" item=\"station announcer\"/>",
        "{B} stole a station announcer from {S} (2 tokens, 30 min)",
    ),
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

/// `text` with `{S}` and `{B}` replaced by the players' names.
fn named(text: &str, supplier: &str, builder: &str) -> String {
    text.replace("{S}", supplier).replace("{B}", builder)
}

/// The name of the player of `role`, and of the other.
fn names_of(role: Role, supplier: &str, builder: &str) -> (String, String) {
    match role {
        S => (supplier.to_string(), builder.to_string()),
        B => (builder.to_string(), supplier.to_string()),
    }
}

#[test]
fn the_build_script_is_legal_turn_by_turn_and_wins() {
    let (supplier, builder) = ("Sam", "Bea");
    let players = [supplier.to_string(), builder.to_string()];
    let mut position = Kind::McXml.start(&players, &[]).unwrap();
    let last = SCRIPT.len();
    for (i, (role, actions, says)) in SCRIPT.iter().enumerate() {
        let n = i + 1;
        let (me, other) = names_of(*role, supplier, builder);
        let body = turn(&me, &named(actions, supplier, builder));
        let (order, repairs) = position
            .read(&body)
            .unwrap_or_else(|e| panic!("turn {n} does not read: {e}\n{body}"));
        assert!(repairs.is_empty(), "turn {n}: {repairs:?}");
        let (next, changes) = match position.judge(&order, &me) {
            Judged::Legal { position, changes } if n < last => {
                assert!(
                    changes
                        .last()
                        .is_some_and(|c| c.ends_with(&format!("{other} plays next"))),
                    "turn {n}: {changes:#?}"
                );
                (position, changes)
            }
            Judged::Over { position, changes } if n == last => {
                assert!(
                    changes
                        .last()
                        .is_some_and(|c| c.ends_with(&format!("{builder} wins and the game ends"))),
                    "{changes:#?}"
                );
                (position, changes)
            }
            other => panic!("turn {n} by {me}: {other:#?}"),
        };
        let says = named(says, supplier, builder);
        assert!(
            changes.contains(&says),
            "turn {n}: {says:?} in {changes:#?}"
        );
        // The log's canonical line replays to the same position.
        let line = position.canonical(&order);
        assert_eq!(position.replay(&line, &me).unwrap(), next, "turn {n}");
        position = next;
    }
    assert_eq!(
        position.next(),
        Next::Over {
            winners: vec![builder.to_string()]
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
    assert_eq!(state.turns, 28);
    let doc = position.render(&mornbot::kinds::Viewer::Public, None);
    assert!(
        doc.contains(&format!(
            "Game over: {builder} built Mornington Crescent and won."
        )),
        "{doc}"
    );
    // Nothing after the end (RULINGS MX12).
    let (order, _) = position.read(&turn(supplier, "<Work/>")).unwrap();
    let Judged::Illegal(breaches) = position.judge(&order, supplier) else {
        panic!("a turn after the end stands")
    };
    let said: Vec<String> = breaches.iter().map(ToString::to_string).collect();
    assert!(
        said.iter().any(|b| b
            == &format!("Rule 6 (MX12): the game has ended: {builder} built Mornington Crescent")),
        "{said:#?}"
    );
}

/// Posts turn `n` of [`SCRIPT`] to the lounge, by its player of
/// `supplier` and `builder`: the post's Message-ID, and the player.
fn post(l: &mut Live, supplier: &P, builder: &P, n: usize) -> (String, P) {
    let (role, actions, _) = SCRIPT[n - 1];
    let p = match role {
        S => supplier.clone(),
        B => builder.clone(),
    };
    let actions = named(actions, &supplier.name, &builder.name);
    let id = l.post(
        &p.who,
        &format!("[{TAG}] my turn"),
        &turn(&p.name, &actions),
    );
    (id, p)
}

/// Checks `v`, the verdict on `p`'s turn `n` of [`SCRIPT`] on one line:
/// legal, the game then `n` turns old, and what the script says changed.
fn legal(l: &Live, supplier: &P, builder: &P, p: &P, n: usize, v: &str) {
    assert!(
        v.contains(&format!("{}'s turn {n} of {TAG} is legal", p.name)),
        "turn {n}: {v}\nlog:\n{}",
        log_tail(l)
    );
    let turns = if n == 1 { "turn" } else { "turns" };
    assert!(
        v.contains(&format!(
            "XML Mornington Crescent (mc-xml), after {n} {turns}"
        )),
        "turn {n}: {v}"
    );
    let says = named(SCRIPT[n - 1].2, &supplier.name, &builder.name);
    assert!(v.contains(&says), "turn {n}: {says:?} in {v}");
}

/// The 64 hex digits after the first `word` that has them in `text`.
fn hex_after(text: &str, word: &str) -> String {
    text.match_indices(word)
        .map(|(at, _)| &text[at + word.len()..])
        .filter_map(|rest| rest.get(..64))
        .find(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no 64 hex digits after {word:?} in {text}"))
        .to_string()
}

#[test]
fn an_mcxml_game_won_by_a_build_by_real_mail() {
    let Some(mut l) = Live::start(CONFIG, &[]) else {
        return;
    };
    let started = Instant::now();
    l.stack.adduser("speaker", "speaker-pw");
    for u in ["ann", "bob"] {
        l.stack.adduser(u, &format!("{u}-pw"));
        l.stack.subscribe(&format!("{u}@example.test"));
    }
    let mut e = Expect::default();

    // 1. The Speaker opens MX9 for two; its dice's commitment is published.
    let id = l.mail_bot(
        "speaker",
        "new game",
        &format!("NEW GAME {TAG} kind mc-xml players 2 deadline 48h"),
    );
    let open = flat(&in_lounge(&l, &id));
    assert!(
        open.contains(&format!("A new game, {TAG}, is open")),
        "{open}"
    );
    assert!(open.contains("XML Mornington Crescent (mc-xml)"), "{open}");
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
    let [supplier, builder] = [0, 1].map(|i| P {
        name: order[i].clone(),
        who: order[i].to_lowercase(),
    });

    // 3. The script, turn by turn, each judged legal in the lounge.
    let last = SCRIPT.len();
    for n in 1..last {
        let (id, p) = post(&mut l, &supplier, &builder, n);
        let v = flat(&in_lounge(&l, &id));
        legal(&l, &supplier, &builder, &p, n, &v);
        let next = if p.name == supplier.name {
            &builder
        } else {
            &supplier
        };
        assert!(
            v.contains(&format!("Next to play: {}", next.name)),
            "turn {n}: {v}"
        );
        e.lounge(&id, &p.who, true);
    }

    // 4. The Build: two lounge answers, in either order, its verdict and
    // the dice's seed revealed (RULINGS S14, MX13).
    let (id, p) = post(&mut l, &supplier, &builder, last);
    assert_eq!(p.name, builder.name);
    let both = wait(
        &l,
        Duration::from_secs(60),
        "the two lounge answers to the winning Build",
        || {
            let got = answers(&l, "rushton", &id);
            (got.len() >= 2).then_some(got)
        },
    );
    for m in &both {
        assert_eq!(header(m, "To"), Some("lounge@example.test"), "{m}");
    }
    e.answers.push((id.clone(), "rushton".into(), 2));
    e.answers.push((id.clone(), p.who.clone(), 2));
    e.queued.push((id, 2));
    let subject = format!("[{TAG}] Turn {last}: ");
    let (verdict, reveal): (Vec<&String>, Vec<&String>) = both
        .iter()
        .partition(|m| header(m, "Subject").is_some_and(|s| s.starts_with(&subject)));
    let [won] = verdict[..] else {
        panic!("one verdict in {both:#?}")
    };
    assert_eq!(
        header(won, "Subject"),
        Some(format!("[{TAG}] Turn {last}: {}, legal, and wins", p.name).as_str()),
        "{won}"
    );
    let [reveal] = reveal[..] else {
        panic!("one seed in {both:#?}")
    };
    let (won, reveal) = (flat(won), flat(reveal));
    legal(&l, &supplier, &builder, &p, last, &won);
    // The win, announced: the winner named, no one to play next.
    let b = &builder.name;
    for said in [
        format!("{b} wins and the game ends"),
        format!("Game over: {b} built Mornington Crescent and won."),
    ] {
        assert!(won.contains(&said), "{said:?} in {won}");
    }
    assert!(!won.contains("Next to play"), "{won}");
    // The game is over: the seed of its dice is revealed, and it is the
    // one NEW GAME committed to.
    assert!(
        reveal.contains(&format!(
            "{TAG} is over, so mornbot reveals the seed of its dice"
        )),
        "{reveal}"
    );
    let seed = mornbot::dice::Seed::from_hex(&hex_after(&reveal, "seed ")).unwrap();
    assert!(
        mornbot::dice::matches_commitment(&seed, &committed),
        "the revealed seed does not match the commitment {committed}: {reveal}"
    );
    assert_eq!(hex_after(&reveal, "commitment "), committed, "{reveal}");

    // 5. STATUS: the game is over, and who won.
    let id = l.mail_bot(&supplier.who, "status", &format!("STATUS {TAG}"));
    let status = flat(&private(&l, &supplier.who, &id));
    assert!(
        status.contains(&format!(
            "XML Mornington Crescent (mc-xml), after {last} turns"
        )),
        "{status}"
    );
    assert!(
        status.contains(&format!(
            "Game over: {b} built Mornington Crescent and won."
        )),
        "{status}"
    );
    assert!(!status.contains("Next to play"), "{status}");
    e.private(&id, &supplier.who);

    // 6. A turn after the end is refused, to its sender alone, and changes
    // nothing (RULINGS MX12, MX20).
    let id = l.post(
        &supplier.who,
        &format!("[{TAG}] my turn"),
        &turn(&supplier.name, "<Work/>"),
    );
    let refused = flat(&private(&l, &supplier.who, &id));
    assert!(
        refused.contains(&format!("{TAG} is over: {b} won after 28 turns")),
        "{refused}"
    );
    assert!(refused.contains("Nothing has changed"), "{refused}");
    assert!(!refused.contains("corrected turn"), "{refused}");
    e.private(&id, &supplier.who);
    let id = l.mail_bot(&builder.who, "status", &format!("STATUS {TAG}"));
    let status = flat(&private(&l, &builder.who, &id));
    assert!(
        status.contains(&format!(
            "XML Mornington Crescent (mc-xml), after {last} turns"
        )),
        "{status}"
    );
    e.private(&id, &builder.who);
    assert!(l.daemon.terminate().success());

    // 7. Give a duplicate time to arrive, then count what came back.
    std::thread::sleep(Duration::from_secs(5));
    e.check(&l, &["rushton", "speaker", "ann", "bob"]);
    eprintln!(
        "{last} turns to a Build; the game took {:?}",
        started.elapsed()
    );
}
