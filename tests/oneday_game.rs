//! Whole games of One Day in London through the pure core (RULINGS OD4 -
//! OD13): set-up, turns, the discard rule, the reshuffle, wins, timeouts,
//! stalemate, every refusal, and what each viewer may see.

mod oneday_support;

use std::collections::BTreeSet;

use mornbot::kinds::oneday::{
    judge, private_document, public_document, timeout, CardId, Next, Order, Rulings, State, Step,
    Verdict,
};
use oneday_support::*;

#[test]
fn set_up_is_in_parallel_and_ends_with_the_piles_dealt() {
    let s = State::start(&names(3), Rulings::default(), &mut ident).unwrap();
    let (s, ch) = legal(play(&s, "bob", "place 7"));
    assert_eq!(ch, ["Bob placed a card in slot 7 (1 of 10)"]);
    assert_eq!(s.to_place("Bob"), Some(CardId(12)), "Bob's second card");
    assert_eq!(s.rack("Bob").unwrap()[6], Some(CardId(11)));
    let (s, _) = legal(play(&s, "Ann", "PLACE 1"));
    let Next::Act { players, step } = s.next() else {
        panic!()
    };
    assert_eq!((players, step), (names(3), Step::Placement));
    // Ann fills her rack
    let mut s = s;
    for slot in 2..=10 {
        s = legal(play(&s, "Ann", &format!("place {slot}"))).0;
    }
    assert_eq!(s.placements_left("Ann"), 0);
    assert_eq!(
        s.next(),
        Next::Act {
            players: vec!["Bob".into(), "Cy".into()],
            step: Step::Placement
        }
    );
    assert_eq!(
        one(play(&s, "Ann", "place 3")),
        (
            "Setup",
            Some("OD5"),
            "you have placed all your ten cards: play starts when every rack is full".into()
        )
    );
    let s = set_up(3);
    assert_eq!(s.pile(1), [CardId(31)]);
    assert_eq!(s.pile(3), [CardId(33)]);
    assert_eq!(s.draw_pile()[0], CardId(34));
    assert_eq!(s.draw_pile().len(), 72 - 33);
    assert_eq!(
        s.next(),
        Next::Act {
            players: vec!["Ann".into()],
            step: Step::Turn
        }
    );
    assert_eq!(s.turns, 0);
}

#[test]
fn a_missed_placement_goes_to_the_leftmost_empty_slot() {
    let s = State::start(&names(2), Rulings::default(), &mut ident).unwrap();
    let s = legal(play(&s, "Bob", "place 1")).0;
    let s = legal(play(&s, "Bob", "place 3")).0;
    let (s, ch) = legal(timeout(&s, "Bob").unwrap());
    assert_eq!(s.rack("Bob").unwrap()[1], Some(CardId(13)));
    assert!(ch[0].contains("missed a placement"), "{ch:?}");
    assert_eq!(ch[1], "Bob placed a card in slot 2 (3 of 10)");
    assert!(timeout(&set_up(2), "Bob").is_none(), "Bob is not awaited");
}

#[test]
fn a_journey_at_the_end_of_set_up_wins() {
    let bob: Vec<CardId> = WIN.iter().map(|n| card(n)).collect();
    let others = rest(&bob);
    let mut order = others[..10].to_vec();
    order.extend(&bob);
    order.extend(&others[10..]);
    let mut s = State::start_with_order(&names(2), Rulings::default(), &order).unwrap();
    for slot in 1..=10 {
        s = legal(play(&s, "Ann", &format!("place {slot}"))).0;
        let v = play(&s, "Bob", &format!("place {slot}"));
        s = if slot < 10 { legal(v).0 } else { won(v).0 };
    }
    assert_eq!(
        s.next(),
        Next::Over {
            winners: vec!["Bob".into()]
        }
    );
    let doc = public_document(&s, None);
    assert!(doc.contains("Winner: Bob"), "{doc}");
    assert!(
        doc.contains("Bob's journey: Blackfriars to Aldgate on the District line"),
        "{doc}"
    );
    assert_eq!(s.visible(None).len(), 72, "all revealed at the end");
}

#[test]
fn take_with_put_and_without() {
    let (ann, bob) = plain();
    let s = arrange(
        ann,
        bob,
        [
            vec![CardId(29), CardId(30)],
            vec![CardId(31)],
            vec![CardId(32)],
        ],
    );
    let (s1, ch) = legal(play(&s, "ann", "take 1 put 4 discard 3"));
    let n = |c: u8| s.card_name(CardId(c));
    assert_eq!(
        ch,
        [format!(
            "Ann took {} from pile 1, put it in slot 4 and discarded {} onto pile 3",
            n(30),
            n(4)
        )]
    );
    assert_eq!(s1.rack("Ann").unwrap()[3], Some(CardId(30)));
    assert!(s1.exposed("Ann").unwrap()[3]);
    assert!(s1.visible(None).contains(&CardId(30)), "exposed: public");
    assert!(s1.visible(None).contains(&CardId(4)), "in a pile: public");
    assert_eq!(s1.turns, 1);
    // pile 1 emptied by the take: the discard is forced there
    let s = arrange(
        ann,
        bob,
        [vec![CardId(30)], vec![CardId(31)], vec![CardId(32)]],
    );
    let (rule, ruling, text) = one(play(&s, "Ann", "take 1 discard 2"));
    assert_eq!((rule, ruling), ("The Play", Some("OD7")));
    assert_eq!(
        text,
        "pile 1 is empty once you take its card, so the discard must go onto it"
    );
    let (s2, ch) = legal(play(&s, "Ann", "take 1 discard 1"));
    assert_eq!(
        ch,
        [format!(
            "Ann took {} from pile 1 and discarded it onto pile 1",
            n(30)
        )]
    );
    assert_eq!(s2.pile(1), [CardId(30)]);
    assert_eq!(s2.rack("Ann"), s.rack("Ann"));
    assert_eq!(
        s2.next(),
        Next::Act {
            players: vec!["Bob".into()],
            step: Step::Turn
        }
    );
}

#[test]
fn draw_then_the_rest_of_the_turn_in_a_second_mail() {
    let s = set_up(2);
    let top = s.draw_pile()[0];
    let (s1, ch) = legal(play(&s, "Ann", "draw"));
    assert_eq!(ch, ["Ann drew from the draw pile (48 left)"]);
    assert_eq!(s1.drawn(), Some(top));
    assert!(s1.visible(Some("Ann")).contains(&top));
    assert!(!s1.visible(Some("Bob")).contains(&top));
    assert!(!s1.visible(None).contains(&top));
    assert!(private_document(&s1, "Ann", None)
        .contains(&format!("The card you drew: {}", s1.card_name(top))));
    assert_eq!(s1.turns, 0, "the turn is open");
    let Next::Act { step, .. } = s1.next() else {
        panic!()
    };
    assert_eq!(step, Step::SecondStep);
    let (s2, ch) = legal(play(&s1, "Ann", "put 2 discard 3"));
    let old = s.rack("Ann").unwrap()[1].unwrap();
    assert_eq!(
        ch,
        [format!(
            "Ann put the drawn card in slot 2 and discarded {} onto pile 3",
            s.card_name(old)
        )]
    );
    assert_eq!(s2.rack("Ann").unwrap()[1], Some(top));
    assert!(!s2.exposed("Ann").unwrap()[1]);
    assert!(!s2.visible(None).contains(&top));
    assert_eq!(s2.turns, 1);
    let (s3, ch) = legal(play(&s1, "Ann", "discard 2"));
    assert!(ch[0].starts_with("Ann discarded the drawn card"));
    assert_eq!(s3.pile(2).last(), Some(&top));
}

#[test]
fn a_missed_second_step_discards_and_a_missed_turn_passes() {
    let s = set_up(2);
    let top = s.draw_pile()[0];
    let s1 = legal(play(&s, "Ann", "draw")).0;
    let (s2, ch) = legal(timeout(&s1, "Ann").unwrap());
    assert_eq!(s2.pile(1).last(), Some(&top));
    assert!(ch[0].contains("missed the rest of the turn"));
    assert_eq!(s2.turns, 1);
    assert!(timeout(&s2, "Ann").is_none());
    let (s3, ch) = legal(timeout(&s2, "Bob").unwrap());
    assert_eq!(ch, ["Bob missed the turn: it passes (OD11)"]);
    assert_eq!(s3.turns, 2);
    assert_eq!(s3.pile(1), s2.pile(1));
    assert_eq!(s3.draw_pile(), s2.draw_pile());
    assert_eq!(
        s3.next(),
        Next::Act {
            players: vec!["Ann".into()],
            step: Step::Turn
        }
    );
    // with pile 2 empty, a missed second step discards there
    let (ann, bob) = plain();
    let s = arrange(ann, bob, [vec![CardId(30)], vec![], vec![]]);
    let s1 = legal(play(&s, "Ann", "draw")).0;
    let drawn = s1.drawn().unwrap();
    let s2 = legal(timeout(&s1, "Ann").unwrap()).0;
    assert_eq!(s2.pile(2), [drawn]);
}

#[test]
fn the_discard_is_forced_onto_the_lowest_empty_pile() {
    let (ann, bob) = plain();
    let s = arrange(
        ann,
        bob,
        [vec![CardId(30), CardId(33)], vec![], vec![CardId(32)]],
    );
    assert_eq!(
        one(play(&s, "Ann", "take 1 put 1 discard 3")),
        (
            "The Play",
            Some("OD7"),
            "pile 2 is empty, so the discard must go onto it".into()
        )
    );
    legal(play(&s, "Ann", "take 1 put 1 discard 2"));
    let s = arrange(ann, bob, [vec![CardId(30)], vec![], vec![]]);
    let s1 = legal(play(&s, "Ann", "draw")).0;
    assert_eq!(
        one(play(&s1, "Ann", "discard 3")),
        (
            "The Play",
            Some("OD7"),
            "piles 2 and 3 are empty, so the discard must go onto pile 2, the lowest of them"
                .into()
        )
    );
    let vs = refused(play(&s1, "Ann", "discard 1"));
    assert_eq!(vs[0].to_string(), "Rule The Play (OD7): piles 2 and 3 are empty, so the discard must go onto pile 2, the lowest of them");
    legal(play(&s1, "Ann", "put 5 discard 2"));
}

#[test]
fn an_empty_draw_pile_is_reshuffled_from_under_the_tops() {
    let mut s = set_up(2);
    let mut k = 0;
    while !s.draw_pile().is_empty() {
        let who = if k % 2 == 0 { "Ann" } else { "Bob" };
        s = legal(play(&s, who, "draw")).0;
        s = legal(play(&s, who, "discard 1")).0;
        k += 1;
    }
    assert_eq!(s.turns, 49);
    assert_eq!(s.pile(1).len(), 50);
    let mut asked = Vec::new();
    let mut d = |turn: u64, name: &str, sides: u32| {
        asked.push((turn, name.to_string(), sides));
        Some(0)
    };
    let (s1, ch) = legal(judge(&s, &Order::Draw, "Bob", &mut d));
    assert_eq!(asked.len(), 48);
    assert_eq!(asked[0], (50, "reshuffle-1-48".to_string(), 49));
    assert_eq!(asked[47], (50, "reshuffle-1-1".to_string(), 2));
    assert!(
        ch[0].contains("the 49 cards under the piles' tops"),
        "{ch:?}"
    );
    assert_eq!(ch[1], "Bob drew from the draw pile (48 left)");
    assert_eq!(s1.pile(1).len(), 1);
    assert_eq!(s1.reshuffles(), 1);
    let all: BTreeSet<CardId> = s1.all_cards().into_iter().collect();
    assert_eq!(all.len(), 72);
    assert_eq!(s1.all_cards().len(), 72);
    assert!(matches!(
        judge(&s, &Order::Draw, "Bob", &mut mornbot::kinds::NoDraws),
        Verdict::NoDraw(_)
    ));
}

#[test]
fn nothing_to_reshuffle_makes_draw_illegal() {
    // a state no real game reaches (72 cards leave more): the rule's edge
    let (ann, bob) = plain();
    let s = State::arranged(
        &names(2),
        Rulings::default(),
        &[ann, bob],
        [vec![CardId(30)], vec![CardId(31)], vec![CardId(32)]],
        &[],
        0,
    );
    let (rule, ruling, text) = one(play(&s, "Ann", "draw"));
    assert_eq!((rule, ruling), ("The Play", Some("OD8")));
    assert!(text.contains("take from a discard pile"));
}

#[test]
fn a_journey_at_the_end_of_a_turn_wins() {
    let mut ann: [CardId; 10] = std::array::from_fn(|k| card(WIN[k]));
    let last = ann[9];
    let bob: [CardId; 10] = std::array::from_fn(|k| rest(&ann)[k]);
    let used: Vec<CardId> = ann.iter().chain(&bob).copied().collect();
    let spare = rest(&used);
    ann[9] = spare[0];
    let s = arrange(
        ann,
        bob,
        [vec![spare[3], last], vec![spare[1]], vec![spare[2]]],
    );
    let (s1, ch) = won(play(&s, "Ann", "take 1 put 10 discard 2"));
    assert_eq!(ch[1], "Ann's rack is a continuous journey: Ann wins");
    assert_eq!(
        s1.next(),
        Next::Over {
            winners: vec!["Ann".into()]
        }
    );
    assert_eq!(one(play(&s1, "Bob", "draw")).0, "Game End");
}

#[test]
fn stalemate_by_every_player_ends_with_no_winner() {
    let s = set_up(3);
    let s = legal(play(&s, "Bob", "stalemate")).0;
    assert_eq!(
        one(play(&s, "bob", "stalemate")),
        (
            "Game End",
            Some("OD13"),
            "you have agreed to a stalemate already: it stands until the end".into()
        )
    );
    let s = legal(play(&s, "Ann", "draw")).0;
    let s = legal(play(&s, "Cy", "stalemate")).0;
    assert!(public_document(&s, None).contains("Stalemate agreed by: Bob, Cy (2 of 3)"));
    let (s, ch) = won(play(&s, "Ann", "stalemate"));
    assert_eq!(
        ch[1],
        "Every player agrees: the game ends in a stalemate, with no winner"
    );
    assert_eq!(s.next(), Next::Over { winners: vec![] });
    assert_eq!(s.all_cards().len(), 72);
}

#[test]
fn every_refusal_cites_its_rule() {
    let start = State::start(&names(2), Rulings::default(), &mut ident).unwrap();
    let s = set_up(2);
    let drawn = legal(play(&s, "Ann", "draw")).0;
    let cases: Vec<(&State, &str, Order, &str, Option<&str>)> = vec![
        (&s, "Zed", Order::Draw, "The Play", None),
        (&s, "Bob", Order::Timeout, "The Play", Some("OD11")),
        (&s, "Ann", Order::Place(3), "Setup", Some("OD5")),
        (&start, "Ann", Order::Draw, "Setup", Some("OD5")),
        (&start, "Ann", Order::Place(11), "Setup", None),
        (&s, "Bob", Order::Draw, "The Play", None),
        (
            &s,
            "Ann",
            Order::Finish {
                put: None,
                discard: 1,
            },
            "The Play",
            Some("OD6"),
        ),
        (&drawn, "Ann", Order::Draw, "The Play", Some("OD6")),
        (
            &drawn,
            "Ann",
            Order::Take {
                pile: 1,
                put: None,
                discard: 1,
            },
            "The Play",
            Some("OD6"),
        ),
        (
            &s,
            "Ann",
            Order::Take {
                pile: 4,
                put: None,
                discard: 1,
            },
            "The Play",
            None,
        ),
        (
            &s,
            "Ann",
            Order::Take {
                pile: 1,
                put: Some(0),
                discard: 1,
            },
            "The Play",
            None,
        ),
        (
            &drawn,
            "Ann",
            Order::Finish {
                put: None,
                discard: 9,
            },
            "The Play",
            None,
        ),
    ];
    for (st, who, order, rule, ruling) in cases {
        let vs = refused(judge(st, &order, who, &mut ident));
        assert_eq!(
            (vs[0].rule, vs[0].ruling),
            (rule, ruling),
            "{who} {order:?}: {vs:?}"
        );
    }
    let filled = legal(play(&start, "Ann", "place 2")).0;
    let (rule, ruling, text) = one(play(&filled, "Ann", "place 2"));
    assert_eq!((rule, ruling), ("Setup", None));
    assert!(
        text.contains(filled.card_name(CardId(1))),
        "names Ann's own card: {text}"
    );
    let (ann, bob) = plain();
    let empty = arrange(ann, bob, [vec![CardId(30)], vec![], vec![CardId(32)]]);
    let vs = refused(play(&empty, "Ann", "take 2 discard 3"));
    assert_eq!(vs[0].text, "pile 2 is empty: there is no card to take");
    assert_eq!(vs[1].ruling, Some("OD7"));
}
