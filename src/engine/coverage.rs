//! Which rules of Volume 1 mornbot applies, and how (`mornbot rules
//! --coverage`): read from `grammar/rules-vol1.toml`, the one place a
//! rule's status is written, with the number of rule cases that cite each
//! rule counted from `fixtures/cases/` when mornbot was built. Nothing here
//! is kept by hand: a test checks the TOML against the engine and the cases.

use serde::{Deserialize, Serialize};

/// How far mornbot applies a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Fully adjudicated.
    Adjudicated,
    /// Partly adjudicated; the rest needs a human ruling.
    Partly,
    /// Map or grammar rule: applied by the map or the parser.
    Data,
    /// Run by the Speaker's automation in the daemon (deadlines, buzzes,
    /// take-backs), tested in `tests/referee.rs` and by mail.
    Speaker,
    /// Defines terms, names the ruleset or guides rule-makers: it judges
    /// no play, so there is nothing to adjudicate (the rules it heads or
    /// defines terms for have their own status).
    Definition,
    /// Needs a human ruling.
    Ruling,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleList {
    rule: Vec<RuleEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleEntry {
    number: String,
    title: String,
    status: Status,
    what: String,
}

/// One line of the coverage report.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    /// Rule number.
    pub rule: String,
    /// Its title.
    pub title: String,
    /// Status.
    pub status: Status,
    /// What mornbot does with it.
    pub note: String,
    /// Rule cases citing it.
    pub cases: usize,
}

/// The number of cases of `fixtures/cases/` that cite each rule, counted
/// by `build.rs`.
pub const CASES_BY_RULE: &[(&str, usize)] = include!(concat!(env!("OUT_DIR"), "/case_rules.rs"));

/// Every rule of Volume 1 with its status and the cases that cite it:
/// `case_rules` are the `rules` lists of a case corpus, or `None` for the
/// corpus mornbot was built with.
pub fn coverage(case_rules: Option<&[Vec<String>]>) -> Vec<Coverage> {
    let list: RuleList = toml::from_str(include_str!("../../grammar/rules-vol1.toml"))
        .expect("grammar/rules-vol1.toml is valid (checked by the test suite)");
    list.rule
        .into_iter()
        .map(|r| {
            let cases = match case_rules {
                Some(all) => all.iter().filter(|rs| rs.contains(&r.number)).count(),
                None => CASES_BY_RULE
                    .iter()
                    .find(|(n, _)| *n == r.number)
                    .map_or(0, |(_, k)| *k),
            };
            Coverage {
                rule: r.number,
                title: r.title,
                status: r.status,
                note: r.what,
                cases,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_list_reads_and_adjudicated_rules_have_cases() {
        let all = coverage(None);
        assert!(all.len() > 170, "the whole of Volume 1");
        let mut seen = std::collections::HashSet::new();
        for c in &all {
            assert!(seen.insert(&c.rule), "{} listed twice", c.rule);
            assert!(!c.note.is_empty(), "{}: say what mornbot does", c.rule);
            if c.status == Status::Adjudicated {
                assert!(
                    c.cases > 0,
                    "{} is adjudicated but no case cites it",
                    c.rule
                );
            }
        }
        for (n, _) in CASES_BY_RULE {
            let known =
                all.iter().any(|c| c.rule == *n) || n.starts_with("0.") || n.ends_with(".x");
            assert!(known, "cases cite {n}, which is not a rule of Volume 1");
        }
    }
}
