//! What a verdict says changed (issue 13, item 8): Tokens paid with their
//! reason, LV and Charge changes; a take-back says what was withdrawn.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

mod support;

use support::fake_referee::*;

mod what_changed {
    use super::*;

    /// The "What changed:" list of a verdict, each item on one line.
    fn changes(body: &str) -> Vec<String> {
        let mut items: Vec<String> = Vec::new();
        let list = body.split("What changed:\n").nth(1).unwrap_or_default();
        for l in list.lines() {
            if let Some(item) = l.strip_prefix("  - ") {
                items.push(item.to_string());
            } else if let Some(more) = l.strip_prefix("    ") {
                let last = items.last_mut().expect("an item before");
                last.push(' ');
                last.push_str(more);
            } else {
                break;
            }
        }
        items
    }

    #[test]
    fn tokens_paid_with_their_reason_and_where_the_spent_ones_went() {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        let (s, m) = t.play(
            "warren",
            "Warren : Morden (NT) [Home: Tooting Broadway] [Blocking South Wimbledon]",
        );
        assert_eq!(s, "legal", "{:#?}", m);
        let c = changes(&m[0].body);
        assert!(
            c.iter().any(|x| x.starts_with("Warren pays 1 Red for ")
                && x.contains("[Blocking South Wimbledon]")
                && x.ends_with("(Rule 1.9.1)")),
            "{c:#?}"
        );
        assert!(
            c.iter().any(|x| x.starts_with(
                "the Tokens spent (1 Red) are discarded: the play names no Stack for them"
            )),
            "{c:#?}"
        );
    }

    #[test]
    fn lv_and_charge_changes_are_listed_for_every_player() {
        let mut t = T::new();
        let mut charged = false;
        for (who, p) in [
            ("rushton", "Rushton : Epping (CN) [Home: Hainault]"),
            ("warren", "Warren : Morden (NT) [Home: Tooting Broadway]"),
            ("acton", "Acton : Upminster (DS) [Home: Hornchurch]"),
            ("rushton", "Rushton : [LV+1] Theydon Bois (CN)"),
            ("warren", "Warren : [LV+1] South Wimbledon (NT)"),
            ("acton", "Acton : [LV+2] Hornchurch (DS)"),
        ] {
            let before = t
                .referee
                .live(&t.store, "MN1")
                .unwrap()
                .game
                .state
                .players
                .clone();
            let (s, m) = t.play(who, p);
            assert_eq!(s, "legal", "{p}: {:#?}", m);
            let after = &t.referee.live(&t.store, "MN1").unwrap().game.state.players;
            let c = changes(&m[0].body);
            for (a, b) in before.iter().zip(after) {
                let lv = format!("{}'s LV {} -> {}", a.name, a.lv, b.lv);
                let charge = format!("{}'s Charge {} -> {}", a.name, a.charge, b.charge);
                assert_eq!(c.contains(&lv), a.lv != b.lv, "{p}: {lv}: {c:#?}");
                assert_eq!(
                    c.contains(&charge),
                    a.charge != b.charge,
                    "{p}: {charge}: {c:#?}"
                );
                charged |= a.charge != b.charge;
            }
        }
        assert!(charged, "no move changed a Charge: the test proves nothing");
    }
}

mod take_back {
    use super::*;

    fn turn(line: &str) -> Request {
        Request::Turn {
            text: line.into(),
            gsd: false,
            line: 1,
            column: 1,
        }
    }

    fn two_turns() -> T {
        let mut t = T::new();
        t.play("rushton", "Rushton : Epping (CN) [Home: Hainault]");
        t.play("warren", "Warren : Morden (NT) [Home: Tooting Broadway]");
        t
    }

    const WITHDRAWN: &str = "\n    Warren : Morden (NT) [Home: Tooting Broadway]\n";

    #[test]
    fn a_replacement_says_what_it_replaces_not_a_second_turn_2() {
        let mut t = two_turns();
        let r = turn("Warren : Edgware (NT) [Home: Burnt Oak]");
        let l = t.letter("warren", Request::TakeBack(Some(Box::new(r))), "");
        let (s, m) = t.send(l);
        assert_eq!(s, "taken back; replacement legal");
        assert_eq!(m.len(), 1, "{m:#?}");
        assert_eq!(
            m[0].headline(),
            "Turn 2: Warren took it back and plays again (legal)"
        );
        let b = &m[0].body;
        assert!(b.contains(WITHDRAWN), "{b}");
        assert!(
            b.contains("and plays instead:\n\n    Warren : Edgware (NT) [Home: Burnt Oak]\n"),
            "{b}"
        );
    }

    #[test]
    fn a_take_back_alone_quotes_the_play_withdrawn() {
        let mut t = two_turns();
        let l = t.letter("warren", Request::TakeBack(None), "");
        let (_, m) = t.send(l);
        assert_eq!(m[0].headline(), "Warren took back turn 2");
        assert!(m[0].body.contains(WITHDRAWN), "{}", m[0].body);
        assert!(m[0].on_thread(Some(&t.last_id())), "{:#?}", m[0]);
    }

    #[test]
    fn an_illegal_replacement_is_buzzed_saying_what_was_taken_back() {
        let mut t = two_turns();
        let r = turn("Warren : [LV+1] Tooting Broadway (NT)");
        let l = t.letter("warren", Request::TakeBack(Some(Box::new(r))), "");
        let (s, m) = t.send(l);
        assert_eq!(s, "taken back; replacement illegal");
        assert_eq!(m[0].headline(), "Buzz: Warren's turn 2 is illegal");
        assert!(m[0].body.contains(WITHDRAWN), "{}", m[0].body);
    }

    #[test]
    fn a_refused_replacement_is_announced_first_then_refused() {
        let mut t = two_turns();
        let r = turn("Warren : Edgware (NT) [Home: Burnt Oka]");
        let l = t.letter("warren", Request::TakeBack(Some(Box::new(r))), "");
        let (s, m) = t.send(l);
        assert!(s.starts_with("taken back; replacement parse error"), "{s}");
        assert_eq!(m[0].headline(), "Warren took back turn 2", "{m:#?}");
        assert!(m[0].body.contains(WITHDRAWN), "{}", m[0].body);
        assert!(m[0].body.contains("The replacement was not accepted"));
        assert_eq!(m[1].to, "warren@example.org");
    }
}
