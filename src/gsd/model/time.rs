//! Game Time (Rule 1.13.1) and the days of the week as the GSD writes them.

use super::*;

/// Game Time (Rule 1.13.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GameTime {
    /// The day.
    #[serde(serialize_with = "ser_day")]
    pub day: Weekday,
    /// Minutes after 0000 (0..1440).
    pub minutes: u16,
    /// The Night Train asterisk (Rule 1.13.1).
    pub night_train: bool,
}

impl fmt::Display for GameTime {
    /// `Wednesday 2340`, with `*` appended for Night Train.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:02}{:02}{}",
            day_name(self.day),
            self.minutes / 60,
            self.minutes % 60,
            if self.night_train { "*" } else { "" }
        )
    }
}

/// English day names, Monday first.
pub const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The English name of a day.
pub fn day_name(d: Weekday) -> &'static str {
    DAYS[d.num_days_from_monday() as usize]
}

/// Parses an English day name or its three-letter abbreviation, any case.
pub fn parse_day(s: &str) -> Option<Weekday> {
    let s = s.trim();
    DAYS.iter()
        .position(|d| d.eq_ignore_ascii_case(s) || (s.len() == 3 && d[..3].eq_ignore_ascii_case(s)))
        .map(|i| {
            [
                Weekday::Mon,
                Weekday::Tue,
                Weekday::Wed,
                Weekday::Thu,
                Weekday::Fri,
                Weekday::Sat,
                Weekday::Sun,
            ][i]
        })
}

pub(crate) fn ser_day<S: Serializer>(d: &Weekday, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(day_name(*d))
}

pub(super) fn ser_day_opt<S: Serializer>(d: &Option<Weekday>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_str(day_name(*d)),
        None => s.serialize_none(),
    }
}
