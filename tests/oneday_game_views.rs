//! One Day in London: what each viewer may see (RULINGS OD4): refusals,
//! `visible`, the documents, canonical orders read back, and a property
//! test of random play (72 cards always, no hidden card ever named).

mod oneday_support;

use std::collections::BTreeSet;

use mornbot::kinds::oneday::{
    canonical, judge, private_document, public_document, read, CardId, Next, Order, Rulings, State,
    Step, Verdict,
};
use oneday_support::*;

#[test]
fn a_refusal_never_names_a_card_its_sender_cannot_see() {
    let s = set_up(2);
    let drawn = legal(play(&s, "Ann", "draw")).0;
    let orders = [
        Order::Draw,
        Order::Finish {
            put: Some(1),
            discard: 1,
        },
        Order::Take {
            pile: 1,
            put: Some(1),
            discard: 2,
        },
        Order::Place(1),
        Order::Timeout,
    ];
    for st in [&s, &drawn] {
        for o in &orders {
            if let Verdict::Illegal(vs) = judge(st, o, "Bob", &mut ident) {
                for v in vs {
                    names_only(&v.text, &st.visible(Some("Bob"))).unwrap();
                }
            }
        }
    }
    let (_, _, text) = one(judge(&drawn, &Order::Draw, "Bob", &mut ident));
    assert_eq!(text, "it is Ann's turn, not yours");
}

#[test]
fn visible_for_each_viewer() {
    let start = State::start(&names(2), Rulings::default(), &mut ident).unwrap();
    assert!(start.visible(None).is_empty());
    assert_eq!(start.visible(Some("Ann")), BTreeSet::from([CardId(1)]));
    let s = set_up(2);
    let piles = BTreeSet::from([CardId(21), CardId(22), CardId(23)]);
    assert_eq!(s.visible(None), piles);
    let ann = s.visible(Some("ann"));
    assert_eq!(ann.len(), 13);
    assert!(ann.contains(&CardId(5)) && !ann.contains(&CardId(15)));
    assert_eq!(s.visible(Some("nobody")), piles);
}

#[test]
fn every_canonical_line_reads_back() {
    let mut all = vec![Order::Draw, Order::Stalemate];
    for slot in 1..=10 {
        all.push(Order::Place(slot));
        for p in 1..=3 {
            all.push(Order::Finish {
                put: Some(slot),
                discard: p,
            });
            for q in 1..=3 {
                all.push(Order::Take {
                    pile: q,
                    put: Some(slot),
                    discard: p,
                });
            }
        }
    }
    for p in 1..=3 {
        all.push(Order::Finish {
            put: None,
            discard: p,
        });
        for q in 1..=3 {
            all.push(Order::Take {
                pile: q,
                put: None,
                discard: p,
            });
        }
    }
    for o in all {
        assert_eq!(read(&canonical(&o)), Ok(o.clone()), "{}", canonical(&o));
    }
    assert_eq!(canonical(&Order::Timeout), "#timeout");
}

#[test]
fn documents_say_what_each_viewer_may_see() {
    let s = set_up(2);
    let s = legal(play(&s, "Ann", "draw")).0;
    let public = public_document(&s, Some("2025-01-02 12:00 UTC"));
    assert!(
        public.contains("Awaited (to finish the turn (a card drawn)): Ann"),
        "{public}"
    );
    assert!(public.contains("Deadline: 2025-01-02 12:00 UTC"));
    assert!(public.contains("Draw pile: 48 cards"));
    names_only(&public, &s.visible(None)).unwrap();
    let mine = private_document(&s, "Ann", None);
    assert!(mine.contains("Your rack (Ann), left to right:"), "{mine}");
    assert!(mine.contains("PUT <slot> DISCARD <pile>"));
    assert!(
        mine.contains("Your rack is no journey yet: it first breaks at slots"),
        "{mine}"
    );
    names_only(&mine, &s.visible(Some("Ann"))).unwrap();
    let bob = private_document(&s, "Bob", None);
    names_only(&bob, &s.visible(Some("Bob"))).unwrap();
    assert!(bob.contains("STALEMATE"));
    assert!(!bob.contains("DRAW ("));
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn lcg(seed: u64) -> impl FnMut(u64, &str, u32) -> Option<u32> {
        let mut x = seed;
        move |_, _, sides| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Some(((x >> 33) % u64::from(sides)) as u32)
        }
    }

    /// A candidate order for the step awaited, from a choice number.
    fn pick(s: &State, who: &str, step: Step, c: u32) -> Order {
        let slot = (c % 10) as u8 + 1;
        let pile = (c / 10 % 3) as u8 + 1;
        let discard = (c / 30 % 3) as u8 + 1;
        match (step, c % 17) {
            (_, 0) => Order::Timeout,
            (_, 1) if c % 5 == 0 => Order::Stalemate,
            (Step::Placement, _) => {
                let empty: Vec<u8> = (0..10u8)
                    .filter(|&k| s.rack(who).unwrap()[k as usize].is_none())
                    .collect();
                Order::Place(empty[c as usize % empty.len()] + 1)
            }
            (Step::Turn, k) if k % 2 == 0 => Order::Draw,
            (Step::Turn, k) => Order::Take {
                pile,
                put: (k % 3 != 0).then_some(slot),
                discard,
            },
            (Step::SecondStep, k) => Order::Finish {
                put: (k % 3 != 0).then_some(slot),
                discard,
            },
        }
    }

    fn check(s: &State, changes: &[String]) {
        let mut all = s.all_cards();
        all.sort();
        assert_eq!(all, (1..=72u8).map(CardId).collect::<Vec<_>>());
        let public = s.visible(None);
        for c in changes {
            names_only(c, &public).unwrap();
        }
        names_only(&public_document(s, None), &public).unwrap();
        for p in s.players() {
            names_only(&private_document(s, &p, None), &s.visible(Some(&p))).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_play_keeps_the_invariants(seed in any::<u64>(), n in 2usize..=4, choices in proptest::collection::vec(any::<u32>(), 150)) {
            let mut d = lcg(seed);
            let mut s = State::start(&names(n), Rulings::default(), &mut d).unwrap();
            check(&s, &[]);
            for c in choices {
                let Next::Act { players, step } = s.next() else { break };
                let who = players[c as usize % players.len()].clone();
                let o = pick(&s, &who, step, c / 7);
                match judge(&s, &o, &who, &mut d) {
                    Verdict::Legal { state, changes } | Verdict::Won { state, changes } => {
                        check(&state, &changes);
                        s = state;
                    }
                    Verdict::Illegal(vs) => {
                        for v in vs {
                            names_only(&v.text, &s.visible(Some(&who))).unwrap();
                        }
                    }
                    Verdict::NoDraw(e) => panic!("{e}"),
                }
            }
        }
    }
}

/// `scripts/verify_dice.py SEED COMMITMENT GAME deck` recomputes the deck
/// as the kind shuffles it (oneday-shuffle/1): a player needs only
/// Python 3 to check who was dealt what.
#[test]
fn the_python_verifier_recomputes_the_same_deck() {
    use mornbot::dice::{commitment, draw, Seed};
    let seed = Seed::from_bytes([7u8; 32]);
    let mut from_seed = |turn: u64, name: &str, sides: u32| {
        draw(&seed, "OD9", turn, name, sides)
            .ok()
            .and_then(|d| d.value.checked_sub(1))
    };
    let deck = mornbot::kinds::oneday::State::deck_order(&mut from_seed).unwrap();
    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/verify_dice.py"
        ))
        .args([&seed.to_hex(), &commitment(&seed), "OD9", "deck"])
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("commitment OK"), "{text}");
    let cards: Vec<String> = deck.iter().map(|c| c.0.to_string()).collect();
    assert!(
        text.contains(&format!("deck {}\n", cards.join(" "))),
        "{text}\nRust: {cards:?}"
    );
}
