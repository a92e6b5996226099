//! Routes that follow written Line Codes (Rule 1.5.4 Move Portions).
//!
//! A polynomial search over (station, portion, direction): never an
//! enumeration of paths.

use std::collections::VecDeque;

use super::{Direction, LineCode, Map, StationId};

impl Map {
    /// The fewest stations from `from` to `to` along Move Portions on
    /// `portions`, in order: each portion travels at least one station on
    /// its line without reversing Line Direction (Rule 1.5.4), and the Piece
    /// changes to the next portion's line where both lines meet at one site
    /// or across an escalator link, which counts as one more station
    /// (Rule 1.5.3). `None` when no such route exists.
    ///
    /// `mornbot`'s adjudicator adds blocks, closures and Line States on top
    /// of the same search; this is the bare map.
    pub fn portion_distance(
        &self,
        from: StationId,
        portions: &[LineCode],
        to: StationId,
    ) -> Option<u32> {
        let first = *portions.first()?;
        if !self.station(from).lines.contains(first) {
            return None;
        }
        let n = self.stations().len();
        let k = portions.len();
        // State: station, portion index, direction, and whether the portion
        // has moved yet (a portion must travel at least one station).
        let idx = |s: StationId, p: usize, d: Direction, moved: bool| {
            ((s.index() * k + p) * 2 + d as usize) * 2 + moved as usize
        };
        let mut dist = vec![u32::MAX; n * k * 4];
        let mut queue = VecDeque::new();
        for d in [Direction::Forward, Direction::Backward] {
            dist[idx(from, 0, d, false)] = 0;
            queue.push_back((from, 0usize, d, false));
        }
        while let Some((s, p, d, moved)) = queue.pop_front() {
            let here = dist[idx(s, p, d, moved)];
            if s == to && p == k - 1 && moved {
                return Some(here);
            }
            let mut visit = |t: StationId,
                             p: usize,
                             d: Direction,
                             moved: bool,
                             cost: u32,
                             queue: &mut VecDeque<_>| {
                let i = idx(t, p, d, moved);
                if dist[i] > here + cost {
                    dist[i] = here + cost;
                    if cost == 0 {
                        queue.push_front((t, p, d, moved));
                    } else {
                        queue.push_back((t, p, d, moved));
                    }
                }
            };
            let line = portions[p];
            for step in self.steps(s, line) {
                if step.leave == d {
                    visit(step.to, p, step.arrive, true, 1, &mut queue);
                }
            }
            if moved && p + 1 < k {
                let next = portions[p + 1];
                if self.can_change_line(s, line, next) {
                    for nd in [Direction::Forward, Direction::Backward] {
                        visit(s, p + 1, nd, false, 0, &mut queue);
                    }
                }
                if let Some(partner) = self.escalator_partner(s) {
                    if self.station(partner).lines.contains(next) {
                        for nd in [Direction::Forward, Direction::Backward] {
                            visit(partner, p + 1, nd, false, 1, &mut queue);
                        }
                    }
                }
            }
        }
        None
    }
}
