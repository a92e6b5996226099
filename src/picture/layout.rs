//! Placing labels so that they do not cover each other: greedy, each label
//! tried at growing distances in eight directions from its station.

/// A rectangle on the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// A square of side `2 r` centred on `c`.
    pub(super) fn around(c: (f64, f64), r: f64) -> Rect {
        Rect {
            x: c.0 - r,
            y: c.1 - r,
            w: 2.0 * r,
            h: 2.0 * r,
        }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    fn inside(&self, bounds: &Rect) -> bool {
        self.x >= bounds.x
            && self.y >= bounds.y
            && self.x + self.w <= bounds.x + bounds.w
            && self.y + self.h <= bounds.y + bounds.h
    }
}

/// Labels placed so far, and the canvas they must stay in.
pub(super) struct Placer {
    taken: Vec<Rect>,
    bounds: Rect,
}

/// Directions tried, nearest to the usual reading position first.
const DIRECTIONS: [(f64, f64); 8] = [
    (1.0, 0.0),
    (-1.0, 0.0),
    (1.0, -1.0),
    (1.0, 1.0),
    (-1.0, -1.0),
    (-1.0, 1.0),
    (0.0, -1.0),
    (0.0, 1.0),
];

impl Placer {
    /// Nothing placed yet in `bounds`.
    pub(super) fn new(bounds: Rect) -> Placer {
        Placer {
            taken: Vec::new(),
            bounds,
        }
    }

    /// Keeps `r` free (a station's symbols).
    pub(super) fn reserve(&mut self, r: Rect) {
        self.taken.push(r);
    }

    /// Places a `w` x `h` label near `anchor` where it covers nothing placed
    /// yet (the nearest such place), else beside the anchor; reserves it.
    pub(super) fn place(&mut self, anchor: (f64, f64), w: f64, h: f64) -> Rect {
        let at = |d: f64, (dx, dy): (f64, f64)| {
            // The label's side or corner nearest the anchor sits `d` away.
            let x = match dx {
                v if v > 0.0 => anchor.0 + d,
                v if v < 0.0 => anchor.0 - d - w,
                _ => anchor.0 - w / 2.0,
            };
            let y = match dy {
                v if v > 0.0 => anchor.1 + d * 0.6,
                v if v < 0.0 => anchor.1 - d * 0.6 - h,
                _ => anchor.1 - h / 2.0,
            };
            Rect { x, y, w, h }
        };
        let candidates = [14.0, 30.0, 55.0, 85.0, 120.0, 170.0, 230.0]
            .into_iter()
            .flat_map(|d| DIRECTIONS.into_iter().map(move |dir| (d, dir)));
        let mut fallback = None;
        for (d, dir) in candidates {
            let r = at(d, dir);
            if !r.inside(&self.bounds) {
                continue;
            }
            fallback.get_or_insert(r);
            if !self.taken.iter().any(|t| t.overlaps(&r)) {
                self.taken.push(r);
                return r;
            }
        }
        let r = fallback.unwrap_or_else(|| at(14.0, (1.0, 0.0)));
        self.taken.push(r);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_at_one_station_do_not_overlap() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            w: 1000.0,
            h: 1000.0,
        };
        let mut p = Placer::new(bounds);
        let placed: Vec<Rect> = (0..6)
            .map(|_| p.place((500.0, 500.0), 120.0, 40.0))
            .collect();
        for (i, a) in placed.iter().enumerate() {
            assert!(a.inside(&bounds));
            for b in &placed[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
        // Near the right edge the label goes left, still on the canvas.
        let r = p.place((995.0, 100.0), 120.0, 40.0);
        assert!(r.inside(&bounds) && r.x < 995.0);
    }
}
