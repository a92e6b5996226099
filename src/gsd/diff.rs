//! Where a GSD's tables disagree with the canonical ones (Rule 1.16.5).

use super::model::{Colour, Gsd, Tokens};

/// Differences between the tables of a `posted` GSD and the `canonical`
/// one, each naming what differs and both values; `labels` name the two
/// sides (`("yours", "mornbot's")`, `("the GSD says", "the replay gives")`).
pub fn table_diffs(posted: &Gsd, canonical: &Gsd, labels: (&str, &str)) -> Vec<String> {
    let (theirs, ours) = labels;
    let mut d = Vec::new();
    if posted.time.is_some() && posted.time != canonical.time {
        d.push(format!(
            "Game Time: {theirs} {}, {ours} {}",
            posted.time.map(|t| t.to_string()).unwrap_or_default(),
            canonical.time.map(|t| t.to_string()).unwrap_or_default()
        ));
    }
    for row in &canonical.players {
        match posted
            .players
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(&row.name))
        {
            None => d.push(format!("{}: missing from the posted Token Table", row.name)),
            Some(p) => {
                if p.lv != row.lv {
                    d.push(format!(
                        "{} LV: {theirs} {}, {ours} {}",
                        row.name, p.lv, row.lv
                    ));
                }
                if p.charge != row.charge {
                    d.push(format!(
                        "{} Charge: {theirs} {}, {ours} {}",
                        row.name, p.charge, row.charge
                    ));
                }
                if p.tokens != row.tokens {
                    d.push(format!(
                        "{} Tokens: {theirs} {}, {ours} {}",
                        row.name,
                        tokens_text(&p.tokens),
                        tokens_text(&row.tokens)
                    ));
                }
                if p.home != row.home {
                    d.push(format!(
                        "{} Home: {theirs} {}, {ours} {}",
                        row.name,
                        p.home.as_deref().unwrap_or("none"),
                        row.home.as_deref().unwrap_or("none")
                    ));
                }
            }
        }
    }
    if posted.disruptions != canonical.disruptions {
        d.push("Disruptions differ".to_string());
    }
    if posted.wild != canonical.wild {
        d.push(format!(
            "Wild Stations: {theirs} {:?}, {ours} {:?}",
            posted.wild, canonical.wild
        ));
    }
    d
}

fn tokens_text(t: &Tokens) -> String {
    let mut parts = Vec::new();
    for c in Colour::ALL {
        let n = t.get(c);
        if n > 0 {
            parts.push(format!("{n} {}", c.code()));
        }
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}
