//! The one table of the nine actions of Rule 6 and the four station parts
//! of Rule 5, read as RULINGS MX7 says (the seed's table lost its column
//! breaks). The judge, the reader, the renderer and the coverage read
//! costs, durations, prices and names from here only.

use serde::Serialize;

/// The nine actions of Rule 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ActionKind {
    /// `<Move steps="..."/>`.
    Move,
    /// `<Shunt player="..." steps="..."/>`.
    Shunt,
    /// `<Block station="..." strength="x"/>`.
    Block,
    /// `<Unblock station="..."/>`.
    Unblock,
    /// `<Steal player="..." item="..."/>`.
    Steal,
    /// `<Work/>`.
    Work,
    /// `<Slave/>`.
    Slave,
    /// `<Buy item="..."/>`.
    Buy,
    /// `<Build/>`.
    Build,
}

/// What an action costs or pays, in tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Cost {
    /// Nothing.
    Free,
    /// A fixed cost.
    Pays(u32),
    /// A fixed gain.
    Gains(u32),
    /// One token a step the shunted train takes.
    PerStep,
    /// The block's strength, x tokens.
    Strength,
    /// Twice the strength the block was placed with.
    TwiceStrength,
    /// The part's price (Rule 5).
    Price,
}

/// How long an action lasts, in minutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Duration {
    /// A fixed time.
    Fixed(u32),
    /// This many minutes a step.
    PerStep(u32),
    /// This many minutes a unit of strength.
    PerStrength(u32),
}

/// One row of Rule 6's table.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Spec {
    /// Which action.
    pub kind: ActionKind,
    /// The element's name as Rule 6 writes it.
    pub name: &'static str,
    /// The cost column.
    pub cost: Cost,
    /// The duration column.
    pub duration: Duration,
}

/// Rule 6's table (RULINGS MX7).
pub const ACTIONS: [Spec; 9] = [
    spec(ActionKind::Move, "Move", Cost::Free, Duration::PerStep(10)),
    spec(
        ActionKind::Shunt,
        "Shunt",
        Cost::PerStep,
        Duration::Fixed(30),
    ),
    spec(
        ActionKind::Block,
        "Block",
        Cost::Strength,
        Duration::PerStrength(10),
    ),
    spec(
        ActionKind::Unblock,
        "Unblock",
        Cost::TwiceStrength,
        Duration::Fixed(10),
    ),
    spec(
        ActionKind::Steal,
        "Steal",
        Cost::Pays(2),
        Duration::Fixed(30),
    ),
    spec(
        ActionKind::Work,
        "Work",
        Cost::Gains(1),
        Duration::Fixed(20),
    ),
    spec(
        ActionKind::Slave,
        "Slave",
        Cost::Gains(5),
        Duration::Fixed(60),
    ),
    spec(ActionKind::Buy, "Buy", Cost::Price, Duration::Fixed(20)),
    spec(ActionKind::Build, "Build", Cost::Free, Duration::Fixed(30)),
];

const fn spec(kind: ActionKind, name: &'static str, cost: Cost, duration: Duration) -> Spec {
    Spec {
        kind,
        name,
        cost,
        duration,
    }
}

/// The longest a turn may last (Rules 1, 2).
pub const TURN_MINUTES: u32 = 60;

impl ActionKind {
    /// Its row of [`ACTIONS`].
    pub fn spec(self) -> &'static Spec {
        ACTIONS
            .iter()
            .find(|s| s.kind == self)
            .expect("every kind has a row")
    }

    /// The element's name.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The kind whose element is named `name` (any case).
    pub fn from_name(name: &str) -> Option<ActionKind> {
        ACTIONS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| s.kind)
    }

    /// Minutes the action lasts, given its steps and strength.
    pub fn minutes(self, steps: usize, strength: u32) -> u32 {
        match self.spec().duration {
            Duration::Fixed(m) => m,
            Duration::PerStep(m) => m.saturating_mul(steps as u32),
            Duration::PerStrength(m) => m.saturating_mul(strength),
        }
    }

    /// Tokens the action costs (its gain is [`ActionKind::gain`]), given its
    /// steps, its strength (Block's, or the block's for Unblock) and a
    /// part's price.
    pub fn cost(self, steps: usize, strength: u32, price: u32) -> u32 {
        match self.spec().cost {
            Cost::Free | Cost::Gains(_) => 0,
            Cost::Pays(n) => n,
            Cost::PerStep => steps as u32,
            Cost::Strength => strength,
            Cost::TwiceStrength => strength.saturating_mul(2),
            Cost::Price => price,
        }
    }

    /// Tokens the action pays the player.
    pub fn gain(self) -> u32 {
        match self.spec().cost {
            Cost::Gains(n) => n,
            _ => 0,
        }
    }
}

/// The four station parts of Rule 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Part {
    /// Platform: 10 tokens, at an interchange, at most 2 x players - 1.
    Platform,
    /// Lift: 10 tokens, 10 steps from every other train, at most #players.
    Lift,
    /// Ticket machine: 5 tokens, where another train stands, unlimited.
    Ticket,
    /// Station announcer: 20 tokens, at a terminus, at most 1.
    Announcer,
}

/// Where a part may be bought (Rule 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Where {
    /// At a terminus.
    Terminus,
    /// At an interchange.
    Interchange,
    /// At least this many steps from the nearest other train.
    FarFromTrains(u16),
    /// Where another train stands.
    WithTrain,
}

/// How many of a part the game may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Maximum {
    /// A fixed number.
    Fixed(u32),
    /// `a x players - b`.
    PerPlayer(u32, u32),
    /// No limit.
    Unlimited,
}

/// One row of Rule 5's table.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PartSpec {
    /// Which part.
    pub part: Part,
    /// Its name in the singular, as Rule 5 writes it.
    pub name: &'static str,
    /// The plural.
    pub plural: &'static str,
    /// The word an `item` attribute uses canonically.
    pub item: &'static str,
    /// Price in tokens.
    pub price: u32,
    /// Where it may be bought.
    pub at: Where,
    /// How many the game may have.
    pub max: Maximum,
    /// How many a Build needs (Rule 1).
    pub needed: u32,
}

/// Rule 5's table, in [`Part`] order.
pub const PARTS: [PartSpec; 4] = [
    PartSpec {
        part: Part::Platform,
        name: "platform",
        plural: "platforms",
        item: "platform",
        price: 10,
        at: Where::Interchange,
        max: Maximum::PerPlayer(2, 1),
        needed: 2,
    },
    PartSpec {
        part: Part::Lift,
        name: "lift",
        plural: "lifts",
        item: "lift",
        price: 10,
        at: Where::FarFromTrains(10),
        max: Maximum::PerPlayer(1, 0),
        needed: 2,
    },
    PartSpec {
        part: Part::Ticket,
        name: "ticket machine",
        plural: "ticket machines",
        item: "ticket machine",
        price: 5,
        at: Where::WithTrain,
        max: Maximum::Unlimited,
        needed: 4,
    },
    PartSpec {
        part: Part::Announcer,
        name: "station announcer",
        plural: "station announcers",
        item: "station announcer",
        price: 20,
        at: Where::Terminus,
        max: Maximum::Fixed(1),
        needed: 1,
    },
];

impl Part {
    /// Every part, in table order.
    pub const ALL: [Part; 4] = [Part::Platform, Part::Lift, Part::Ticket, Part::Announcer];

    /// Its row of [`PARTS`].
    pub fn spec(self) -> &'static PartSpec {
        &PARTS[self.index()]
    }

    /// Its index in [`Part::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The game's maximum with `players` players (`None`: unlimited).
    pub fn maximum(self, players: usize) -> Option<u32> {
        let n = players as u32;
        match self.spec().max {
            Maximum::Fixed(m) => Some(m),
            Maximum::PerPlayer(a, b) => Some((a * n).saturating_sub(b)),
            Maximum::Unlimited => None,
        }
    }

    /// "a platform", "an ...": the part with its article.
    pub fn a(self) -> String {
        format!("a {}", self.spec().name)
    }

    /// "1 platform", "2 platforms".
    pub fn count(self, n: u32) -> String {
        let s = self.spec();
        format!("{n} {}", if n == 1 { s.name } else { s.plural })
    }

    /// The short name a case file's `parts` table uses.
    pub fn key(self) -> &'static str {
        match self {
            Part::Platform => "platform",
            Part::Lift => "lift",
            Part::Ticket => "ticket",
            Part::Announcer => "announcer",
        }
    }
}

/// "1 token", "3 tokens".
pub fn tokens(n: u32) -> String {
    if n == 1 {
        "1 token".into()
    } else {
        format!("{n} tokens")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_as_mx7() {
        use ActionKind::*;
        // (kind, steps, strength, price) -> (minutes, cost, gain)
        let rows = [
            (Move, 3, 0, 0, 30, 0, 0),
            (Shunt, 4, 0, 0, 30, 4, 0),
            (Block, 0, 3, 0, 30, 3, 0),
            (Unblock, 0, 3, 0, 10, 6, 0),
            (Steal, 0, 0, 0, 30, 2, 0),
            (Work, 0, 0, 0, 20, 0, 1),
            (Slave, 0, 0, 0, 60, 0, 5),
            (Buy, 0, 0, 20, 20, 20, 0),
            (Build, 0, 0, 0, 30, 0, 0),
        ];
        for (k, steps, strength, price, minutes, cost, gain) in rows {
            assert_eq!(k.minutes(steps, strength), minutes, "{k:?}");
            assert_eq!(k.cost(steps, strength, price), cost, "{k:?}");
            assert_eq!(k.gain(), gain, "{k:?}");
            assert_eq!(ActionKind::from_name(&k.name().to_uppercase()), Some(k));
        }
    }

    #[test]
    fn maxima_follow_the_player_count() {
        assert_eq!(Part::Platform.maximum(3), Some(5));
        assert_eq!(Part::Lift.maximum(3), Some(3));
        assert_eq!(Part::Ticket.maximum(3), None);
        assert_eq!(Part::Announcer.maximum(7), Some(1));
        for p in Part::ALL {
            assert_eq!(p.spec().part, p);
        }
    }
}
