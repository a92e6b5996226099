//! Every rule sentence of the Money Run seed and how mornbot applies it
//! (`mornbot rules --coverage --kind money-run`): read from
//! `grammar/rules-moneyrun.toml`, the one place a sentence's status is
//! written, with the cases citing each rule counted from
//! `fixtures/cases-moneyrun/` when mornbot was built (or from a corpus
//! given).

use serde::{Deserialize, Serialize};

pub use crate::kinds::mcxml::coverage::Status;

/// One sentence of the seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sentence {
    /// Its rule: `W1` - `W5`, `S1` - `S4`, `O1` - `O4`, `H1` - `H6`,
    /// `C1` - `C9`, `M1` - `M11`, `E1` - `E3`.
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
pub const SENTENCES: &str = include_str!("../../../grammar/rules-moneyrun.toml");

/// The cases of `fixtures/cases-moneyrun/` citing each rule, counted by
/// `build.rs`.
pub const CASES_BY_RULE: &[(&str, usize)] =
    include!(concat!(env!("OUT_DIR"), "/moneyrun_case_rules.rs"));

/// The seed's sections, by the letter of their rules.
pub const SECTIONS: [(char, &str); 7] = [
    ('W', "What you'll need"),
    ('S', "Setup"),
    ('O', "Objective"),
    ('H', "How to Play"),
    ('C', "Placing Coins"),
    ('M', "Moving your Pawn"),
    ('E', "EFAQ"),
];

/// One rule of the report: its sentences and the cases citing it.
#[derive(Clone, Debug, Serialize)]
pub struct RuleCoverage {
    /// The rule, `H2`.
    pub rule: String,
    /// Its section's title.
    pub section: &'static str,
    /// Cases citing it.
    pub cases: usize,
    /// Its sentences, in order.
    pub sentences: Vec<Sentence>,
}

/// Every sentence, in the seed's order.
pub fn sentences() -> Vec<Sentence> {
    let list: SentenceList = toml::from_str(SENTENCES)
        .expect("grammar/rules-moneyrun.toml is valid (a unit test reads it)");
    list.sentence
}

/// The report, rule by rule in the seed's order: `case_rules` are the
/// `rules` lists of a corpus, or `None` for the corpus mornbot was built
/// with.
pub fn coverage(case_rules: Option<&[Vec<String>]>) -> Vec<RuleCoverage> {
    let mut out: Vec<RuleCoverage> = Vec::new();
    for s in sentences() {
        if out.last().is_none_or(|r| r.rule != s.rule) {
            let rule = s.rule.clone();
            let section = SECTIONS
                .iter()
                .find(|(c, _)| rule.starts_with(*c))
                .map_or("", |(_, t)| t);
            let cases = match case_rules {
                Some(lists) => lists.iter().filter(|rs| rs.contains(&rule)).count(),
                None => CASES_BY_RULE
                    .iter()
                    .find(|(r, _)| *r == rule)
                    .map_or(0, |(_, n)| *n),
            };
            out.push(RuleCoverage {
                rule,
                section,
                cases,
                sentences: Vec::new(),
            });
        }
        out.last_mut().expect("pushed").sentences.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../../fixtures/ruleset/gamestopica-feed-money-run.xml");

    /// The Money Run item's text: tags stripped, entities decoded, spaces
    /// squashed.
    fn item() -> String {
        let start = SEED.find("<title>Money Run</title>").unwrap();
        let body = &SEED[start..];
        let body = &body[body.find("<description><![CDATA[").unwrap()..];
        let body = &body[..body.find("]]></description>").unwrap()];
        let mut text = String::new();
        let mut in_tag = false;
        for (i, c) in body.char_indices() {
            match c {
                '<' => {
                    in_tag = true;
                    // Inline tags join their text; block tags part it.
                    let name: String = body[i + 1..]
                        .trim_start_matches('/')
                        .chars()
                        .take_while(char::is_ascii_alphanumeric)
                        .collect();
                    if !["strong", "em", "a", "span"].contains(&name.as_str()) {
                        text.push(' ');
                    }
                }
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(k) = rest.find("&#") {
            out.push_str(&rest[..k]);
            let end = rest[k..].find(';').unwrap() + k;
            let n: u32 = rest[k + 2..end].parse().unwrap();
            out.push(char::from_u32(n).unwrap());
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        squash(&out.replace("&amp;", "&"))
    }

    fn squash(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_sentences_are_the_seeds_in_order() {
        let seed = item();
        let mut at = seed.find("What you’ll need").unwrap();
        for s in sentences() {
            let text = squash(&s.text);
            let k = seed[at..]
                .find(&text)
                .unwrap_or_else(|| panic!("not in the seed, in order: {text:?}"));
            at += k + text.len();
        }
        assert!(
            seed[at..].trim().starts_with("That’s all folks!"),
            "{}",
            &seed[at..]
        );
    }

    #[test]
    fn rulings_are_mr_and_rules_are_in_sections() {
        for s in sentences() {
            assert!(
                SECTIONS.iter().any(|(c, _)| s.rule.starts_with(*c)),
                "{}",
                s.rule
            );
            if let Some(r) = &s.ruling {
                let n: u32 = r.strip_prefix("MR").unwrap().parse().unwrap();
                assert!((1..=16).contains(&n), "{r}");
            }
            if s.status == Status::ByRuling {
                assert!(s.ruling.is_some(), "{:?}", s.text);
            }
        }
        let report = coverage(None);
        for rule in ["H2", "H4", "C3", "M1", "E1", "E2", "E3"] {
            let r = report.iter().find(|r| r.rule == rule).unwrap();
            assert!(r.cases > 0, "{rule}");
        }
    }
}
