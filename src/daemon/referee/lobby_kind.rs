//! A lobby game's kind (issue 41): what `NEW GAME ... kind K` records
//! beside Volume 1's house rulings, in the lobby row's `rulings` column. A
//! Volume 1 game's column is its rulings' JSON as before; another kind's is
//! a [`KindOptions`] object, told apart by its `kind` key (Volume 1's
//! rulings have none, and refuse unknown keys).

use serde::{Deserialize, Serialize};

use crate::kinds::vol1::Rulings;
use crate::kinds::Kind;
use crate::mail::lobby::NewGame;
use crate::speaker::policy::Policy;

/// What a lobby game of a kind other than Volume 1 records.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct KindOptions {
    /// The kind.
    pub(super) kind: Kind,
    /// The deadline, when not the kind's.
    #[serde(default)]
    pub(super) deadline: Option<Policy>,
    /// The kind's rulings, `key=value`.
    #[serde(default)]
    pub(super) kind_rulings: Vec<(String, String)>,
}

/// What `g` asks of its kind.
pub(super) fn options(g: &NewGame) -> KindOptions {
    KindOptions {
        kind: g.kind,
        deadline: g.deadline,
        kind_rulings: g.kind_rulings.clone(),
    }
}

/// The lobby row's `rulings` column for `g`.
pub(super) fn column(g: &NewGame) -> String {
    if g.kind == Kind::MnVol1 {
        serde_json::to_string(&g.rulings).expect("rulings serialise")
    } else {
        serde_json::to_string(&options(g)).expect("options serialise")
    }
}

/// Volume 1's rulings and the kind's options a `rulings` column holds.
pub(super) fn read(column: &str) -> Result<(Rulings, KindOptions), serde_json::Error> {
    let v: serde_json::Value = serde_json::from_str(column)?;
    if v.get("kind").is_some() {
        Ok((Rulings::default(), serde_json::from_value(v)?))
    } else {
        Ok((serde_json::from_value(v)?, KindOptions::default()))
    }
}

/// What a lobby announcement says of the kind: nothing for Volume 1.
pub(super) fn describe(o: &KindOptions) -> String {
    if o.kind == Kind::MnVol1 {
        return String::new();
    }
    let rulings = if o.kind_rulings.is_empty() {
        String::new()
    } else {
        let pairs: Vec<String> = o
            .kind_rulings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!(", with the house rulings {}", pairs.join(", "))
    };
    format!(
        "a game of {} ({}), {}{rulings}",
        o.kind.title(),
        o.kind.id(),
        o.kind.deadlines_said(&o.kind_rulings, o.deadline)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One Day in London's announcement says each step's deadline, its
    /// defaults when the Speaker gives none (RULINGS OD14).
    #[test]
    fn one_day_is_announced_with_each_steps_deadline() {
        let o = KindOptions {
            kind: Kind::OneDay,
            ..KindOptions::default()
        };
        assert_eq!(
            describe(&o),
            "a game of One Day in London (one-day), 24 counted hours a placement (weekends \
             not counted), then 48 counted hours a turn (weekends not counted)"
        );
    }

    #[test]
    fn volume_1_columns_read_as_before_and_kinds_read_back() {
        let old = serde_json::to_string(&Rulings::default()).unwrap();
        assert_eq!(
            read(&old).unwrap(),
            (Rulings::default(), KindOptions::default())
        );
        let g = match crate::mail::lobby::parse(
            "NEW GAME MX1 kind mc-xml deadline 48h ruling build_at=on",
        ) {
            Some(crate::mail::lobby::Lobby::NewGame(g)) => g,
            other => panic!("{other:?}"),
        };
        let (_, o) = read(&column(&g)).unwrap();
        assert_eq!(o.kind, Kind::McXml);
        assert_eq!(o.kind_rulings, vec![("build_at".into(), "on".into())]);
        assert!(
            describe(&o).contains("48 counted hours"),
            "{}",
            describe(&o)
        );
    }
}
