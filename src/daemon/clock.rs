//! The clock injected into the Speaker: the daemon asks it for "now" and
//! passes the answer to the pure machine; tests run it faster.

use std::time::Duration;

use chrono::{DateTime, Utc};

/// Where the daemon's time comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clock {
    /// Wall-clock time.
    System,
    /// Wall-clock time sped up `speed` times from the instant `base`
    /// (tests: at 3600, a 36-hour deadline passes in 36 seconds). Server
    /// timestamps are mapped through the same transformation.
    Scaled {
        /// The real instant where both clocks agree.
        base: DateTime<Utc>,
        /// How many game seconds pass per real second.
        speed: f64,
    },
    /// Tokio's clock (paused and advanced by tests): `base` at the tokio
    /// instant `origin`, `speed` game seconds per tokio second. Arrival
    /// times given to it are taken as already on this clock.
    Tokio {
        /// The game instant at `origin`.
        base: DateTime<Utc>,
        /// The tokio instant where both agree.
        origin: tokio::time::Instant,
        /// How many game seconds pass per tokio second.
        speed: f64,
    },
}

impl Clock {
    /// From the `MORNBOT_CLOCK_SPEED` environment variable (tests only;
    /// documented in the README): a number > 1 speeds the clock up.
    pub fn from_env() -> Clock {
        match std::env::var("MORNBOT_CLOCK_SPEED")
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
        {
            Some(speed) if speed.is_finite() && speed > 1.0 => Clock::Scaled {
                base: Utc::now(),
                speed,
            },
            _ => Clock::System,
        }
    }

    /// Now.
    pub fn now(&self) -> DateTime<Utc> {
        match *self {
            Clock::Tokio {
                base,
                origin,
                speed,
            } => {
                let d = origin.elapsed().as_secs_f64() * speed * 1000.0;
                base + chrono::Duration::milliseconds(d as i64)
            }
            _ => self.map(Utc::now()),
        }
    }

    /// A real instant (e.g. a server's INTERNALDATE) on this clock.
    pub fn map(&self, real: DateTime<Utc>) -> DateTime<Utc> {
        match *self {
            Clock::System | Clock::Tokio { .. } => real,
            Clock::Scaled { base, speed } => {
                let d = (real - base).num_milliseconds() as f64 * speed;
                base + chrono::Duration::milliseconds(d as i64)
            }
        }
    }

    /// How long to wait, in real time, until `t` on this clock.
    pub fn real_until(&self, t: DateTime<Utc>) -> Duration {
        let d = (t - self.now()).to_std().unwrap_or(Duration::ZERO);
        match *self {
            Clock::System => d,
            Clock::Scaled { speed, .. } | Clock::Tokio { speed, .. } => d.div_f64(speed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_clock_maps_and_waits_consistently() {
        let base = Utc::now();
        let c = Clock::Scaled {
            base,
            speed: 3600.0,
        };
        let later = base + chrono::Duration::seconds(2);
        assert_eq!(c.map(later), base + chrono::Duration::hours(2));
        assert_eq!(c.map(base), base);
        let wait = c.real_until(c.now() + chrono::Duration::hours(36));
        assert!(wait <= Duration::from_secs(36) && wait > Duration::from_secs(35));
        assert_eq!(Clock::System.map(later), later);
    }
}
