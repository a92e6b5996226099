//! Station categories (Rule 1.17.6).

use serde::{Serialize, Serializer};

use super::LineSet;

/// A station category of Rule 1.17.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// "Street", "Road" or "Lane" in the name.
    AToZ,
    /// A connection to British Rail.
    BritishRail,
    /// "North", "South", "East" or "West" in the name.
    Compass,
    /// "Green" in the name.
    Green,
    /// "High" in the name.
    High,
    /// Both "High" and "Hill" in the name.
    HighHill,
    /// "Hill" in the name.
    Hill,
    /// "Angel", "Canon", "Chapel", "Church", "Cross", "Friars", "Saint" (or
    /// "St.") or "Temple" in the name.
    Holy,
    /// Drawn on the map as an Interchange.
    Interchange,
    /// Several lines at one map location, not an Interchange.
    CoLocated,
    /// "Park" in the name.
    Park,
    /// "Bush", "Elm", "Garden", "Grove", "Oak", "Poplar" or "Wood" in the name.
    Plant,
    /// "Town", "City" or "Manor" in the name.
    Populated,
    /// At least one line emerges from it in only one direction.
    Terminus,
    /// "Park", "Green" or "Garden" in the name.
    Verdant,
}

impl Category {
    /// Every category, in the order of Rule 1.17.6.
    pub const ALL: [Category; 15] = [
        Category::AToZ,
        Category::BritishRail,
        Category::Compass,
        Category::Green,
        Category::High,
        Category::HighHill,
        Category::Hill,
        Category::Holy,
        Category::Interchange,
        Category::CoLocated,
        Category::Park,
        Category::Plant,
        Category::Populated,
        Category::Terminus,
        Category::Verdant,
    ];

    /// The name used by the rules, e.g. `"A to Z"`, `"Co-Located"`.
    pub fn name(self) -> &'static str {
        match self {
            Category::AToZ => "A to Z",
            Category::BritishRail => "British Rail",
            Category::Compass => "Compass",
            Category::Green => "Green",
            Category::High => "High",
            Category::HighHill => "High Hill",
            Category::Hill => "Hill",
            Category::Holy => "Holy",
            Category::Interchange => "Interchange",
            Category::CoLocated => "Co-Located",
            Category::Park => "Park",
            Category::Plant => "Plant",
            Category::Populated => "Populated",
            Category::Terminus => "Terminus",
            Category::Verdant => "Verdant",
        }
    }

    /// Parses a category name, ignoring case, spaces and hyphens.
    pub fn parse(name: &str) -> Option<Category> {
        let squash = |s: &str| {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .collect::<String>()
                .to_lowercase()
        };
        let key = squash(name);
        Category::ALL.into_iter().find(|c| squash(c.name()) == key)
    }

    /// The strings of the name-based categories. Matching ignores case, so
    /// "Blackfriars" is Holy (Friars) and "Northwood" is Plant (Wood); see
    /// RULINGS.md.
    fn words(self) -> &'static [&'static str] {
        match self {
            Category::AToZ => &["street", "road", "lane"],
            Category::Compass => &["north", "south", "east", "west"],
            Category::Green => &["green"],
            Category::High | Category::HighHill => &["high"],
            Category::Hill => &["hill"],
            Category::Holy => &[
                "angel", "canon", "chapel", "church", "cross", "friars", "saint", "temple",
            ],
            Category::Park => &["park"],
            Category::Plant => &["bush", "elm", "garden", "grove", "oak", "poplar", "wood"],
            Category::Populated => &["town", "city", "manor"],
            Category::Verdant => &["park", "green", "garden"],
            _ => &[],
        }
    }
}

impl Serialize for Category {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Category {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Category, D::Error> {
        let name = String::deserialize(d)?;
        Category::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown category {name:?}")))
    }
}

/// A set of categories.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CategorySet(u16);

impl CategorySet {
    /// Whether `c` is in the set.
    pub fn contains(self, c: Category) -> bool {
        self.0 & (1 << c as u16) != 0
    }

    /// Adds `c`.
    pub fn insert(&mut self, c: Category) {
        self.0 |= 1 << c as u16;
    }

    /// The categories in Rule 1.17.6 order.
    pub fn iter(self) -> impl Iterator<Item = Category> {
        Category::ALL.into_iter().filter(move |c| self.contains(*c))
    }

    /// Stations in no category are "Hors Classification" (Rule 1.17.6).
    pub fn is_hors_classification(self) -> bool {
        self.0 == 0
    }

    /// The category names, or `["Hors Classification"]` for none.
    pub fn names(self) -> Vec<&'static str> {
        if self.is_hors_classification() {
            vec!["Hors Classification"]
        } else {
            self.iter().map(Category::name).collect()
        }
    }
}

/// The categories a station has by its name alone.
pub(crate) fn name_categories(name: &str) -> CategorySet {
    let lower = name.to_lowercase();
    let has = |w: &str| lower.contains(w);
    let mut set = CategorySet::default();
    for c in Category::ALL {
        let words = c.words();
        let hit = match c {
            Category::HighHill => has("high") && has("hill"),
            // "St." abbreviates Saint (Rule 1.17.6): St. Paul's, King's Cross St. Pancras.
            Category::Holy => {
                words.iter().any(|w| has(w))
                    || lower.split([' ', '-']).any(|w| w == "st." || w == "st")
            }
            _ => words.iter().any(|w| has(w)),
        };
        if hit {
            set.insert(c);
        }
    }
    set
}

pub(crate) fn serialize_lines<S: Serializer>(lines: &LineSet, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(lines.iter().map(|l| l.code()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &str) -> Vec<&'static str> {
        name_categories(n).names()
    }

    #[test]
    fn name_categories_follow_rule_1_17_6() {
        assert_eq!(names("Goodge Street"), ["A to Z"]);
        assert_eq!(names("Pudding Mill Lane"), ["A to Z"]);
        assert_eq!(names("West Hampstead"), ["Compass"]);
        assert_eq!(names("Highgate"), ["High"]);
        assert_eq!(names("Tower Hill"), ["Hill"]);
        assert_eq!(names("Angel"), ["Holy"]);
        assert_eq!(names("St. Paul's"), ["Holy"]);
        assert_eq!(names("Blackfriars"), ["Holy"]);
        assert_eq!(names("Whitechapel"), ["Holy"]);
        assert_eq!(names("Belsize Park"), ["Park", "Verdant"]);
        assert_eq!(names("Turnham Green"), ["Green", "Verdant"]);
        assert_eq!(names("Kew Gardens"), ["Plant", "Verdant"]);
        assert_eq!(names("Poplar"), ["Plant"]);
        assert_eq!(names("White City"), ["Populated"]);
        assert_eq!(names("Boston Manor"), ["Populated"]);
        assert_eq!(names("Bank"), ["Hors Classification"]);
    }

    #[test]
    fn combined_categories() {
        // Both High and Hill: the High Hill category, and both of its parts.
        let c = name_categories("High Hill Road");
        for cat in [
            Category::High,
            Category::Hill,
            Category::HighHill,
            Category::AToZ,
        ] {
            assert!(c.contains(cat), "{cat:?}");
        }
        assert!(!name_categories("Highgate").contains(Category::HighHill));
        let w = name_categories("Wood Green");
        for cat in [Category::Plant, Category::Green, Category::Verdant] {
            assert!(w.contains(cat), "{cat:?}");
        }
    }

    #[test]
    fn category_names_parse_back() {
        for c in Category::ALL {
            assert_eq!(Category::parse(c.name()), Some(c));
        }
        assert_eq!(Category::parse("co-located"), Some(Category::CoLocated));
        assert_eq!(Category::parse("atoz"), Some(Category::AToZ));
        assert_eq!(Category::parse("Sacred"), None);
    }
}
