//! Posts received together, judged in turn order (RULINGS L12).
//!
//! A server's order is not always the order the posts reached it: three
//! turns delivered in turn to Dovecot while the daemon restarted were
//! numbered so that the first came last (most likely its delivery could
//! not lock the Maildir's UID list, and it was numbered at the next full
//! sync). The server's timestamps are whole seconds, so they cannot order
//! posts a second apart either. Judged in UID order, the
//! later turns would be refused as out of turn and the game would lose
//! them. So the daemon takes a source's fetch whole, and a turn that would
//! be refused as out of turn while a post received within [`TOGETHER`] of
//! it is still to be judged is put off until after that post.

use std::collections::VecDeque;

use crate::mail::inbox::Incoming;

/// How close two posts' reception times are for their order to be in
/// doubt: the servers' clocks count whole seconds, and a post one second
/// apart may straddle a tick.
pub const TOGETHER: chrono::TimeDelta = chrono::TimeDelta::seconds(2);

/// The kind of a [`crate::daemon::referee::Handled`] post put off: nothing
/// was committed, and it waits to be judged again.
pub const PUT_OFF: &str = "put off";

/// What the daemon may do with the post [`Together::take_next`] hands it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// It may be put off when out of turn: a post received with it waits,
    /// not every waiting post has been put off since the last one judged
    /// (so putting off always ends), and the fetch has put off fewer than
    /// [`PUT_OFFS_PER_POST`] times its posts (each is judged again, so a
    /// fetch's work stays bounded whatever its order).
    pub may_put_off: bool,
    /// A post of the same fetch with a lower UID is still to be judged:
    /// this one's commit must not move the mailbox's high-water mark past
    /// that one (a crash would then skip it), so it is recorded without
    /// its UID (the source moves the mark when the fetch is done).
    pub ahead_of_lower: bool,
}

/// Put-offs a fetch may make, for each of its posts.
pub const PUT_OFFS_PER_POST: usize = 8;

/// A fetch's posts, waiting to be judged.
#[derive(Debug, Default)]
pub struct Together {
    waiting: VecDeque<Incoming>,
    /// Posts put off since the last one judged.
    stalled: usize,
    /// Put-offs the fetch may still make.
    budget: usize,
}

impl Together {
    /// The posts of one fetch, in the source's order.
    pub fn new(posts: impl IntoIterator<Item = Incoming>) -> Together {
        let waiting: VecDeque<Incoming> = posts.into_iter().collect();
        Together {
            budget: waiting.len() * PUT_OFFS_PER_POST,
            waiting,
            stalled: 0,
        }
    }

    /// The next post to judge, and what may be done with it; `None` when
    /// all are judged.
    pub fn take_next(&mut self) -> Option<(Incoming, Ask)> {
        let m = self.waiting.pop_front()?;
        let with_it = self
            .waiting
            .iter()
            .any(|n| (n.received - m.received).abs() <= TOGETHER);
        let ask = Ask {
            may_put_off: with_it && self.stalled <= self.waiting.len() && self.budget > 0,
            ahead_of_lower: self
                .waiting
                .iter()
                .any(|n| matches!((n.origin.uid, m.origin.uid), (Some(a), Some(b)) if a < b)),
        };
        Some((m, ask))
    }

    /// `m` (from [`Together::take_next`]) was put off: it waits behind the rest.
    pub fn put_off(&mut self, m: Incoming) {
        self.stalled += 1;
        self.budget = self.budget.saturating_sub(1);
        self.waiting.push_back(m);
    }

    /// The post last handed out was judged.
    pub fn judged(&mut self) {
        self.stalled = 0;
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, TimeZone, Utc};

    use super::*;
    use crate::mail::inbox::{Key, Raw};
    use crate::store::Origin;

    fn at(s: i64) -> DateTime<Utc> {
        Utc.timestamp_opt(1_800_000_000 + s, 0).unwrap()
    }

    fn post(uid: u32, received: DateTime<Utc>) -> Incoming {
        Incoming {
            raw: Raw::Full(Vec::new()),
            origin: Origin {
                source: "INBOX".into(),
                uidvalidity: Some(1),
                uid: Some(uid),
            },
            received,
            key: Key::Uid(uid),
            behind: 0,
        }
    }

    /// Judges the fetch, `in_turn` saying which UIDs may be played given
    /// the UIDs already played; returns the order played and refused.
    fn run(posts: Vec<Incoming>, in_turn: impl Fn(u32, &[u32]) -> bool) -> Vec<(u32, bool)> {
        let mut t = Together::new(posts);
        let mut played = Vec::new();
        let mut out = Vec::new();
        let mut rounds = 0;
        while let Some((m, ask)) = t.take_next() {
            rounds += 1;
            assert!(rounds < 100, "putting off never ends");
            let uid = m.origin.uid.unwrap();
            let ok = in_turn(uid, &played);
            if !ok && ask.may_put_off {
                t.put_off(m);
                continue;
            }
            t.judged();
            if ok {
                played.push(uid);
            }
            out.push((uid, ok));
        }
        out
    }

    /// Turns 1, 2, 3 of a game are UIDs `order`: each in turn once the one
    /// before it is played.
    fn chain(uid: u32, played: &[u32]) -> bool {
        uid == 1 || played.contains(&(uid - 1))
    }

    #[test]
    fn turns_numbered_out_of_order_are_played_in_turn() {
        // Delivered 1, 2, 3; numbered so that 2 and 3 come first.
        let posts = vec![post(2, at(0)), post(3, at(1)), post(1, at(0))];
        assert_eq!(run(posts, chain), [(1, true), (2, true), (3, true)]);
    }

    #[test]
    fn a_post_truly_out_of_turn_is_refused_once_the_others_are_judged() {
        // Nobody's turn but 1's: 5 and 6 are refused, after 1.
        let posts = vec![post(5, at(0)), post(6, at(0)), post(1, at(1))];
        let got = run(posts, |u, _| u == 1);
        assert_eq!(got, [(1, true), (5, false), (6, false)]);
        // All out of turn: each put off once at most, then refused in order.
        let posts = vec![post(5, at(0)), post(6, at(0))];
        assert_eq!(run(posts, |_, _| false), [(5, false), (6, false)]);
    }

    #[test]
    fn a_fetch_puts_off_a_bounded_number_of_times() {
        // 30 turns numbered in reverse: every order but the right one is
        // out of turn. Judged in turn within the budget, then as they come.
        let posts: Vec<Incoming> = (1..=30).rev().map(|u| post(u, at(0))).collect();
        let mut t = Together::new(posts);
        let (mut put_offs, mut played) = (0, Vec::new());
        while let Some((m, ask)) = t.take_next() {
            let uid = m.origin.uid.unwrap();
            if !chain(uid, &played) && ask.may_put_off {
                put_offs += 1;
                t.put_off(m);
                continue;
            }
            t.judged();
            if chain(uid, &played) {
                played.push(uid);
            }
        }
        assert_eq!(put_offs, 30 * PUT_OFFS_PER_POST);
        assert!(played.len() >= 10, "{played:?}");
        assert!(played.windows(2).all(|w| w[1] == w[0] + 1));
    }

    #[test]
    fn posts_received_apart_are_judged_in_the_sources_order() {
        let posts = vec![post(2, at(0)), post(1, at(10))];
        assert_eq!(run(posts, chain), [(2, false), (1, true)]);
    }

    #[test]
    fn a_post_judged_ahead_of_a_lower_uid_keeps_the_mark_back() {
        let mut t = Together::new(vec![post(2, at(0)), post(1, at(0))]);
        let (m, ask) = t.take_next().unwrap();
        assert!(ask.ahead_of_lower && ask.may_put_off);
        t.put_off(m);
        let (_, ask) = t.take_next().unwrap();
        assert!(!ask.ahead_of_lower);
        t.judged();
        let (_, ask) = t.take_next().unwrap();
        assert_eq!(
            ask,
            Ask {
                may_put_off: false,
                ahead_of_lower: false
            }
        );
        assert!(t.take_next().is_none());
    }
}
