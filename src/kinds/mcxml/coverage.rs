//! Every rule sentence of the mc-xml seed and how mornbot applies it
//! (`mornbot rules --coverage --kind mc-xml`): read from
//! `grammar/rules-mcxml.toml`, the one place a sentence's status is
//! written, with the cases citing each rule counted from
//! `fixtures/cases-mcxml/` when mornbot was built (or from a corpus given).

use serde::{Deserialize, Serialize};

/// How mornbot applies a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The judge or the reader applies the words as they stand.
    Adjudicated,
    /// Applied as a ruling of RULINGS.md reads them.
    ByRuling,
    /// Judges no turn (a header, a name, the lobby's business).
    NotApplicable,
}

/// One sentence of the seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sentence {
    /// Its rule, "1" - "7".
    pub rule: String,
    /// The seed's words.
    pub text: String,
    /// How mornbot applies it.
    pub status: Status,
    /// The ruling that reads it, if any.
    pub ruling: Option<String>,
    /// What mornbot does with it.
    pub note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SentenceList {
    sentence: Vec<Sentence>,
}

/// The data file, embedded.
pub const SENTENCES: &str = include_str!("../../../grammar/rules-mcxml.toml");

/// The cases of `fixtures/cases-mcxml/` citing each rule, counted by
/// `build.rs`.
pub const CASES_BY_RULE: &[(&str, usize)] =
    include!(concat!(env!("OUT_DIR"), "/mcxml_case_rules.rs"));

/// The titles of Rules 1 - 7.
pub const TITLES: [(&str, &str); 7] = [
    ("1", "Introduction"),
    ("2", "Turns"),
    ("3", "Moving"),
    ("4", "Tokens"),
    ("5", "Station Parts"),
    ("6", "Actions"),
    ("7", "Glossary"),
];

/// One rule of the report: its sentences and the cases citing it.
#[derive(Clone, Debug, Serialize)]
pub struct RuleCoverage {
    /// "1" - "7".
    pub rule: &'static str,
    /// Its title.
    pub title: &'static str,
    /// Cases citing it.
    pub cases: usize,
    /// Its sentences, in order.
    pub sentences: Vec<Sentence>,
}

/// Every sentence, in the seed's order.
pub fn sentences() -> Vec<Sentence> {
    let list: SentenceList = toml::from_str(SENTENCES)
        .expect("grammar/rules-mcxml.toml is valid (a unit test reads it)");
    list.sentence
}

/// The report: `case_rules` are the `rules` lists of a corpus, or `None`
/// for the corpus mornbot was built with.
pub fn coverage(case_rules: Option<&[Vec<String>]>) -> Vec<RuleCoverage> {
    let all = sentences();
    TITLES
        .iter()
        .map(|&(rule, title)| RuleCoverage {
            rule,
            title,
            cases: match case_rules {
                Some(lists) => lists
                    .iter()
                    .filter(|rs| rs.iter().any(|r| r == rule))
                    .count(),
                None => CASES_BY_RULE
                    .iter()
                    .find(|(r, _)| *r == rule)
                    .map_or(0, |(_, n)| *n),
            },
            sentences: all.iter().filter(|s| s.rule == rule).cloned().collect(),
        })
        .collect()
}

/// RULES: every rule of the seed, with how many of its sentences mornbot
/// judges as they stand, by a ruling, or not at all (they judge no turn).
pub fn rules_text() -> String {
    let mut s = String::from("Rules of mc-xml and what mornbot does with them:\n\n");
    for r in coverage(None) {
        let count = |st: Status| r.sentences.iter().filter(|x| x.status == st).count();
        s.push_str(&format!(
            "  Rule {} {}: {} adjudicated, {} by ruling, {} judge no turn\n",
            r.rule,
            r.title,
            count(Status::Adjudicated),
            count(Status::ByRuling),
            count(Status::NotApplicable),
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../../fixtures/ruleset/mc-xml-ruleset.txt");

    fn squash(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The sentences are the seed's words, in order, and together they are
    /// the whole of Rules 1 - 7 but for headings and bullets.
    #[test]
    fn the_sentences_are_all_of_rules_1_to_7() {
        let start = SEED.find("Rule 1 - Introduction\n\nMornington").unwrap();
        let end = SEED.find("Rule 8 - Todo\n\nNOTES").unwrap();
        let mut rest = squash(&SEED[start..end]);
        let mut at = 0;
        for s in sentences() {
            let text = squash(&s.text);
            let k = rest[at..]
                .find(&text)
                .unwrap_or_else(|| panic!("not in the seed, in order: {text:?}"));
            rest.replace_range(at + k..at + k + text.len(), "");
            at += k;
        }
        for (n, title) in TITLES {
            rest = rest.replacen(&format!("Rule {n} - {title}"), "", 1);
        }
        let left: String = rest
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '•')
            .collect();
        assert!(left.is_empty(), "seed text no sentence covers: {left:?}");
    }

    #[test]
    fn every_ruling_named_is_an_mx_ruling_and_rules_are_1_to_7() {
        for s in sentences() {
            assert!(TITLES.iter().any(|(r, _)| *r == s.rule), "{}", s.rule);
            if let Some(r) = &s.ruling {
                let n: u32 = r.strip_prefix("MX").unwrap().parse().unwrap();
                assert!((1..=19).contains(&n), "{r}");
            }
            if s.status == Status::ByRuling {
                assert!(
                    s.ruling.is_some(),
                    "{:?} is by-ruling without a ruling",
                    s.text
                );
            }
        }
    }

    #[test]
    fn the_built_corpus_is_counted() {
        let report = coverage(None);
        assert!(report.iter().all(|r| r.cases > 0), "{report:?}");
        let given = coverage(Some(&[vec!["3".into()], vec!["3".into(), "6".into()]]));
        assert_eq!(given[2].cases, 2);
        assert_eq!(given[5].cases, 1);
        assert_eq!(given[0].cases, 0);
    }
}
