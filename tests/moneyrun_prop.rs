//! Money Run properties over random games (issue 42): 100,000 games from
//! fixed seeds, each capped at `MAILS` mails, never break the invariants:
//! 42 coins = table + bag + board; no coin on a smaller one (nor on an
//! equal one when the game forbids it); the table holds at most 5, and 5
//! while the bag has coins; a game ends only by a goal line, the
//! tie-break (a round of passes, no legal action) or agreement. Every
//! mail played renders to a canonical line that reads back as the same
//! orders, and replaying a game's canonical lines with its recorded draws
//! gives the same state.

use mornbot::kinds::moneyrun::{
    canonical, judge, legal_actions, read, Action, Close, Coin, Ending, Orders, Rulings, Square,
    State, Verdict,
};

const GAMES: u64 = 100_000;
const MAILS: usize = 40;

/// splitmix64: a small deterministic generator for the test's choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn check(s: &State) {
    assert_eq!(s.coins_total(), 42, "{s:?}");
    assert!(s.table.len() <= 5);
    if s.bag_total() > 0 {
        assert_eq!(
            s.table.len(),
            5,
            "the table is refilled while the bag has coins"
        );
    }
    for st in &s.board {
        let coins: Vec<Coin> = st.coins().collect();
        assert!(
            coins.windows(2).all(|w| w[0] <= w[1]),
            "a coin on a smaller one"
        );
        if !s.rulings.equal_stacking {
            assert!(
                coins.windows(2).all(|w| w[0] != w[1]),
                "equal sizes stacked"
            );
        }
    }
    if let Some(e) = s.ending {
        let n = s.pawns.len() as u32;
        match e {
            Ending::Goal => {
                let w = &s.pawns[s.winners[0]];
                assert!(w.goal().holds(w.at));
            }
            Ending::Passes => assert!(s.passes >= n),
            Ending::Agreement => assert!(s.agreed >= n),
            Ending::NoAction => {
                assert!(
                    (0..s.pawns.len()).all(|p| !mornbot::kinds::moneyrun::has_legal_action(s, p))
                )
            }
        }
        assert!(!s.winners.is_empty());
    }
}

/// A random candidate action for the player to act (often legal).
fn candidate(s: &State, rng: &mut Rng) -> Action {
    let at = s.current().at;
    match rng.below(3) {
        0 if !s.table.is_empty() => {
            // Half the time next to the pawn, ahead of it: games that race.
            let goal = s.current().goal();
            let ahead: Vec<Square> = at
                .around()
                .filter(|t| goal.distance(*t) < goal.distance(at))
                .collect();
            let to = if rng.below(2) == 0 && !ahead.is_empty() {
                ahead[rng.below(ahead.len())]
            } else {
                Square::from_index(rng.below(81))
            };
            Action::Place {
                coin: s.table[rng.below(s.table.len())],
                to,
            }
        }
        1 => {
            let full: Vec<usize> = (0..81).filter(|&i| !s.board[i].is_empty()).collect();
            let from = if full.is_empty() {
                rng.below(81)
            } else {
                full[rng.below(full.len())]
            };
            Action::Coin {
                from: Square::from_index(from),
                to: Square::from_index(rng.below(81)),
            }
        }
        _ => {
            let goal = s.current().goal();
            let mut near: Vec<Square> = at.around().collect();
            if rng.below(3) > 0 {
                near.retain(|t| goal.distance(*t) < goal.distance(at));
            }
            let mut path = vec![at, near[rng.below(near.len())]];
            // Descents, when there are any.
            while rng.below(2) == 0 {
                let last = *path.last().unwrap();
                let h = s.stack(last).height();
                let down: Vec<Square> = last
                    .around()
                    .filter(|t| {
                        let d = s.stack(*t).height();
                        d > 0 && d < h && (h >= 2 || !last.is_diagonal_to(*t))
                    })
                    .collect();
                if down.is_empty() {
                    break;
                }
                path.push(down[rng.below(down.len())]);
            }
            Action::Pawn { path }
        }
    }
}

fn rulings(rng: &mut Rng) -> Rulings {
    let mut r = Rulings::default();
    if rng.below(4) == 0 {
        r.equal_stacking = rng.below(2) == 0;
        r.coin_from_under_pawn = rng.below(2) == 0;
        r.coin_onto_opponent = rng.below(2) == 0;
        r.shared_squares = rng.below(2) == 0;
    }
    r
}

/// One mail: random actions and maybe a closing word.
fn mail(s: &State, rng: &mut Rng) -> Orders {
    let mut o = Orders::default();
    let roll = rng.below(100);
    if roll < 4 {
        o.close = Some(if rng.below(2) == 0 {
            Close::Pass
        } else {
            Close::Stalemate
        });
        return o;
    }
    let room = 2 - s.open.map_or(0, |t| t.actions as usize);
    if room == 2 && roll < 40 {
        // A racing turn: a coin on the square ahead, and the step onto it.
        let (at, goal) = (s.current().at, s.current().goal());
        let ahead = at
            .around()
            .find(|t| !at.is_diagonal_to(*t) && goal.distance(*t) < goal.distance(at));
        let coin = s.table.last().copied();
        if let (Some(to), Some(coin)) = (ahead, coin) {
            o.actions.push(Action::Place { coin, to });
            o.actions.push(Action::Pawn { path: vec![at, to] });
            return o;
        }
    }
    for _ in 0..1 + rng.below(room) {
        o.actions.push(candidate(s, rng));
    }
    if rng.below(5) == 0 {
        o.close = Some(if rng.below(8) == 0 {
            Close::Stalemate
        } else {
            Close::End
        });
    }
    o
}

type Played = Vec<(String, String, Vec<u32>)>;

/// Plays one game; the canonical lines played with their draws.
fn game(seed: u64) -> (Vec<String>, Rulings, Vec<u32>, Played, State) {
    let mut rng = Rng(seed);
    let n = 2 + rng.below(3);
    let players: Vec<String> = ["Ann", "Bob", "Cy", "Di"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let r = rulings(&mut rng);
    let mut start_draws = Vec::new();
    let mut oracle = |_: u64, _: &str, sides: u32| {
        let v = (rng.next() % u64::from(sides)) as u32;
        start_draws.push(v);
        v
    };
    let (mut s, _) = State::start(&players, r, &mut oracle).unwrap();
    check(&s);
    let mut played = Vec::new();
    for _ in 0..MAILS {
        if s.is_over() {
            break;
        }
        let sender = s.current().name.clone();
        let mut draws = Vec::new();
        let (mut o, mut verdict) = (Orders::default(), None);
        // Up to four tries for a mail that stands, then end.
        for _ in 0..4 {
            o = mail(&s, &mut rng);
            let line = canonical(&o);
            assert_eq!(read(&line).unwrap(), o, "round trip of {line:?}");
            draws.clear();
            let v = {
                let mut oracle = |_: u64, _: &str, sides: u32| {
                    let v = (rng.next() % u64::from(sides)) as u32;
                    draws.push(v);
                    v
                };
                judge(&s, &o, &sender, &mut oracle)
            };
            if !matches!(v, Verdict::Illegal(_)) {
                verdict = Some(v);
                break;
            }
        }
        let verdict = verdict.unwrap_or_else(|| {
            o = Orders::closing(Close::End);
            draws.clear();
            judge(&s, &o, &sender, &mut |_, _, _| unreachable!())
        });
        let next = verdict.state().expect("end always stands").clone();
        check(&next);
        played.push((canonical(&o), sender, draws));
        s = next;
    }
    (players, r, start_draws, played, s)
}

#[test]
fn random_games_keep_the_invariants_and_replay() {
    let mut ended = [0usize; 4];
    for seed in 0..GAMES {
        let (players, r, start, played, last) = game(seed);
        if let Some(e) = last.ending {
            ended[e as usize] += 1;
        }
        if seed % 16 == 0 {
            let mut values = start.into_iter();
            let mut o = |_: u64, _: &str, _: u32| values.next().unwrap();
            let (mut s, _) = State::start(&players, r, &mut o).unwrap();
            for (line, sender, draws) in &played {
                let mut values = draws.iter().copied();
                let mut o = |_: u64, _: &str, _: u32| values.next().unwrap();
                s = mornbot::kinds::moneyrun::replay(&s, line, sender, &mut o).unwrap();
            }
            assert_eq!(s, last, "replay of game {seed}");
        }
    }
    // The games reach every ending but agreement often enough to mean it.
    assert!(ended[Ending::Goal as usize] > 0, "{ended:?}");
    assert!(ended[Ending::Passes as usize] > 0, "{ended:?}");
}

#[test]
fn every_legal_action_is_judged_legal() {
    let mut rng = Rng(42);
    for seed in 0..300 {
        let (_, _, _, _, s) = game(10_000_000 + seed);
        if s.is_over() {
            continue;
        }
        let all = legal_actions(&s, s.to_play);
        for _ in 0..20 {
            let a = all[rng.below(all.len())].clone();
            let o = Orders {
                actions: vec![a],
                close: None,
            };
            let v = judge(&s, &o, &s.current().name.clone(), &mut |_, _, n| n - 1);
            assert!(!matches!(v, Verdict::Illegal(_)), "{o:?}: {v:?}");
        }
    }
}
