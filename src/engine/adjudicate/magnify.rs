//! Fosdyke's Magnifier (Rule 1.4.48, RULINGS.md E79): `[Magnify]
//! {magnifies S for Bob}` loosens by one the index of one component of the
//! Fosdyke Requirement (Rule 1.17.9) of the Turn's later Actions operating
//! on that Player, Station or Line. The Requirement is the index's FR column
//! (`grammar/actions.toml`); an Action with none there is not loosened.

use super::*;
use crate::gsd::Good;

/// What a `[Magnify]` magnifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lens {
    /// A Player (index).
    Player(usize),
    /// A Station (or the Token Stack there).
    Station(StationId),
    /// A Line.
    Line(LineCode),
}

/// The index FR whose index is the actor's LV (Dead-End Shunting's).
const LV_INDEX: &str = "(S=LV)";

/// A Fosdyke Requirement as its components: class letter and index.
type Requirement = Vec<(char, u32)>;

/// The Turn's `[Magnify]`: the class loosened and its object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Magnified {
    /// `S`, `L`, `R`, `Q` or `Z`.
    class: char,
    /// The object the loosened Actions operate on.
    on: Lens,
}

impl Turn<'_> {
    /// `[Magnify]` (Rule 1.4.48): with a Magnifier carried, the Play names
    /// the component and the object, `{magnifies S for Bob}`; the object is
    /// a Player of the game, a station or a Line Code, else Illegal.
    pub(super) fn magnify(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        if !self.s.players[self.me].carries(Good::Magnifier) {
            let who = self.my_name();
            self.illegal(rule, format!("{who} carries no Magnifier"));
            return Charge::Free;
        }
        let Some((class, on)) = self.directive(|d| match d {
            Directive::Magnifies { class, on } => Some((*class, on.clone())),
            _ => None,
        }) else {
            self.illegal(
                rule,
                "the Play names the Fosdyke component loosened and what the Actions operate on, e.g. {magnifies S for Bob}",
            );
            return Charge::Free;
        };
        let several = self
            .play
            .directives()
            .filter(|d| matches!(d, Directive::Magnifies { .. }))
            .count()
            > 1;
        if several {
            self.illegal(
                rule,
                "one [Magnify] loosens a single Fosdyke Requirement component: the Play names one {magnifies ...}",
            );
            return Charge::Free;
        }
        let lens = match self.s.player_index(&on) {
            Some(i) if i == self.me => {
                self.illegal(rule, "[Magnify] loosens Actions on another Player, a Station, a Token Stack or a Line, not on the Magnifier's carrier");
                return Charge::Free;
            }
            Some(i) => Lens::Player(i),
            None => match (self.map.find(&on), LineCode::parse(&on)) {
                (Some(s), _) => Lens::Station(s),
                (None, Some(l)) => Lens::Line(l),
                (None, None) => {
                    self.illegal(
                        rule,
                        format!("{on} is neither a player of this game, a station nor a Line Code"),
                    );
                    return Charge::Free;
                }
            },
        };
        self.tally.magnify = Some(Magnified { class, on: lens });
        self.change(format!(
            "Fosdyke Requirements of this Turn's Actions on {on}: the {class} component loosened by one (Rule 1.4.48)"
        ));
        Charge::Table
    }

    /// A `{magnifies ...}` without a `[Magnify]` is an error, not prose.
    pub(super) fn stray_magnifies(&mut self) {
        let asked = self
            .play
            .directives()
            .any(|d| matches!(d, Directive::Magnifies { .. }));
        if asked && !self.play.actions().any(|a| matches!(a, Action::Magnify)) {
            self.illegal(
                "1.4.48",
                "{magnifies ...} names what a [Magnify] loosens, and none is played",
            );
        }
    }

    /// Whether the Turn's `[Magnify]` lets `a`, operating on `on`, meet its
    /// index FR with the loosened component, the subject at `from` and the
    /// object at `to`. Called where the unloosened requirement failed.
    pub(super) fn magnified(&mut self, a: &Action, on: Lens, from: Position, to: Position) -> bool {
        let Some((m, fr, parts)) = self.loosened(a, on) else {
            return false;
        };
        let met = parts.iter().all(|&(c, n)| {
            let limit = n + u32::from(c == m.class);
            self.fosdyke_value(c, from, to, limit)
                .is_some_and(|v| v <= limit)
        });
        if met {
            self.magnifier_used(a, m, fr, &parts);
        }
        met
    }

    /// For an Action operating on a Line: the Line State Actions' (L0),
    /// the Piece's station on the line, loosened to one line change from it.
    pub(super) fn magnified_line(&mut self, a: &Action, line: LineCode, at: StationId) -> bool {
        let Some((m, fr, parts)) = self.loosened(a, Lens::Line(line)) else {
            return false;
        };
        let changes = if self.map.station(at).lines.contains(line) {
            Some(0)
        } else {
            self.map
                .station_ids()
                .filter(|t| self.map.station(*t).lines.contains(line))
                .filter_map(|t| self.map.line_changes(at, t))
                .min()
                .map(|n| n + 1)
        };
        let met = parts.iter().all(|&(c, n)| {
            let limit = n + u32::from(c == m.class);
            c == 'L' && changes.is_some_and(|v| v <= limit)
        });
        if met {
            self.magnifier_used(a, m, fr, &parts);
        }
        met
    }

    /// The Turn's Magnifier on `on` and `a`'s index FR as components, when
    /// it names the magnified class; otherwise a note (or, for an FR with
    /// no fixed index, a human ruling) and `None`.
    fn loosened(&mut self, a: &Action, on: Lens) -> Option<(Magnified, &'static str, Requirement)> {
        let m = self.tally.magnify.filter(|m| m.on == on)?;
        let Some(fr) = a.spec().fosdyke else {
            self.change(format!(
                "[Magnify] does not loosen {}: the index gives it no Fosdyke Requirement (RULINGS E79)",
                a.render()
            ));
            return None;
        };
        if fr == LV_INDEX {
            // Loosened where the Shunt's distance is judged: magnified_lv.
            return None;
        }
        let mut parts = Vec::new();
        for c in fr.trim_matches(|c| c == '(' || c == ')').split(',') {
            let c = c.trim();
            let class = c.chars().next().unwrap_or('?');
            let index = c[class.len_utf8()..].trim();
            // `S<5` is `S4` (an index is a most): loosened, fewer than 6.
            let index = match index.strip_prefix('<') {
                Some(n) => n.parse::<u32>().ok().and_then(|n| n.checked_sub(1)),
                None => index.parse::<u32>().ok(),
            };
            match index {
                Some(n) => parts.push((class, n)),
                None => {
                    self.ruling(
                        "1.4.48",
                        format!("[Magnify] and {}'s Fosdyke Requirement {fr}: only a component with a fixed index is loosened mechanically", a.render()),
                    );
                    return None;
                }
            }
        }
        if !parts.iter().any(|(c, _)| *c == m.class) {
            self.change(format!(
                "[Magnify] does not loosen {}: its Fosdyke Requirement {fr} has no {} component",
                a.render(),
                m.class
            ));
            return None;
        }
        Some((m, fr, parts))
    }

    /// For an Action whose index FR is [`LV_INDEX`] (Dead-End Shunting's:
    /// a Terminus fewer than LV stations away, Rule 1.10.3): whether the
    /// Turn's `[Magnify]` of S on one of `on` loosens it to fewer than
    /// LV + 1 (RULINGS E79). Called where the unloosened distance failed.
    pub(super) fn magnified_lv(&mut self, a: &Action, on: &[Lens]) -> bool {
        let Some(m) = self.tally.magnify.filter(|m| on.contains(&m.on)) else {
            return false;
        };
        if a.spec().fosdyke != Some(LV_INDEX) || m.class != 'S' {
            return false;
        }
        self.change(format!(
            "{} is played under the Magnifier's (S=LV+1) for {LV_INDEX} (Rule 1.4.48)",
            a.render()
        ));
        true
    }

    /// Reports the loosened Requirement an Action met.
    fn magnifier_used(&mut self, a: &Action, m: Magnified, fr: &str, parts: &[(char, u32)]) {
        let loose: Vec<String> = parts
            .iter()
            .map(|&(c, n)| format!("{c}{}", n + u32::from(c == m.class)))
            .collect();
        self.change(format!(
            "{} is played under the Magnifier's ({}) for {fr} (Rule 1.4.48)",
            a.render(),
            loose.join(",")
        ));
    }

    /// One indicator of the Fosdyke Code (Rule 1.17.9) from the subject's
    /// Position to the object's: S along the subject's line (up to `limit`
    /// stations), L the line changes from the subject's line; `None` is `*`.
    fn fosdyke_value(&self, class: char, from: Position, to: Position, limit: u32) -> Option<u32> {
        let (a, b) = (from.station, to.station);
        let same_line = match (from.line, to.line) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        };
        match class {
            'S' if a == b => Some(0),
            'S' => match from.line {
                Some(l) => self.along(l, a, b, limit),
                None => self.map.same_line_distance(a, b),
            },
            'L' if same_line
                && (a == b
                    || from
                        .line
                        .is_none_or(|l| self.along(l, a, b, u32::MAX).is_some())) =>
            {
                Some(0)
            }
            'L' if a == b => Some(1),
            'L' => self.map.line_changes(a, b).map(|n| n.max(1)),
            'R' => self.map.route_distance(a, b),
            'Q' => Some(self.map.quadrant_distance(a, b)),
            'Z' => Some(self.map.zone_distance(a, b)),
            _ => None,
        }
    }

    /// Stations from `a` to `b` along line `l` without changing line, if
    /// at most `limit`.
    fn along(&self, l: LineCode, a: StationId, b: StationId, limit: u32) -> Option<u32> {
        let mut seen = vec![a];
        let mut ring = vec![a];
        let mut d = 0;
        while !ring.is_empty() && d < limit {
            d += 1;
            let mut next = Vec::new();
            for s in ring {
                for &n in self.map.neighbours(s, l) {
                    if n == b {
                        return Some(d);
                    }
                    if !seen.contains(&n) {
                        seen.push(n);
                        next.push(n);
                    }
                }
            }
            ring = next;
        }
        None
    }

    /// [`Turn::magnified`] for an Action operating on a Station, the
    /// subject the player's Piece where it stands now.
    pub(super) fn magnified_station(&mut self, a: &Action, id: StationId) -> bool {
        let Some(from) = self.s.players[self.me].at else {
            return false;
        };
        let to = Position {
            station: id,
            line: None,
        };
        self.magnified(a, Lens::Station(id), from, to)
    }
}
