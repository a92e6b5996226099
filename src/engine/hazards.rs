//! Hazards on the Map that the fold keeps beside the tables: Suspect
//! Packages (Rule 1.4.7) and who placed each, which Defusing needs (Rule
//! 1.7.30), and the Podume of Infinite Darkness resting at a Station (Rule
//! 1.4.24).

use serde::Serialize;

use super::convert::StateError;
use super::state::GameState;
use crate::gsd::{Action, Gsd, Marked, Play, StackMarker};
use crate::map::{Map, StationId};

/// "If there are less than three Suspect Packages in play" (Rule 1.4.7):
/// at most three are.
pub const MAX_PACKAGES: usize = 3;

/// One Suspect Package on the Map (Rule 1.4.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    /// The Station it rests at.
    pub at: StationId,
    /// Who placed it: `None` when a GSD's tables show it and its Plays do
    /// not say (RULINGS.md E97); then Defusing it needs a human ruling.
    pub by: Option<String>,
}

impl GameState {
    /// The Suspect Packages resting at a Station, oldest first.
    pub fn packages_at(&self, at: StationId) -> impl Iterator<Item = &Package> {
        self.packages.iter().filter(move |p| p.at == at)
    }

    /// Whether a Suspect Package rests at a Station.
    pub fn has_package(&self, at: StationId) -> bool {
        self.packages.iter().any(|p| p.at == at)
    }

    /// The Suspect Packages a GSD's Token Stacks box shows, each placed by
    /// the player of the latest `[Dropping Package at <Station>]` of its
    /// Plays at that Station (RULINGS.md E97), else by no one known.
    pub(super) fn packages_from_gsd(g: &Gsd, map: &Map) -> Vec<Package> {
        g.marked
            .iter()
            .filter(|m| m.marker == StackMarker::SuspectPackage)
            .filter_map(|m| map.find(&m.station))
            .map(|at| Package {
                at,
                by: dropped_by(&g.plays, at),
            })
            .collect()
    }

    /// The PoID a GSD's Token Stacks box shows resting on the Map: the
    /// Podume is Unique, so two are an error (Rule 1.4.24).
    pub(super) fn poid_from_gsd(g: &Gsd, map: &Map) -> Result<Option<StationId>, StateError> {
        let mut at = g
            .marked
            .iter()
            .filter(|m| m.marker == StackMarker::Poid)
            .map(|m| {
                map.find(&m.station).ok_or_else(|| {
                    StateError::Unknown(format!("{} is not a station of the map", m.station))
                })
            });
        let first = at.next().transpose()?;
        if at.next().is_some() {
            return Err(StateError::Unknown(
                "two PoIDs rest on the Map: the Podume of Infinite Darkness is Unique (Rule 1.4.24)"
                    .into(),
            ));
        }
        Ok(first)
    }

    /// Who placed the PoID resting at `at`: the player of the latest Play
    /// with `[PoID on <that Station>]`; and, when it rests at Mornington
    /// Crescent and the last Play is eirs, the Station its recorded
    /// `{rolled poid-mc N}` names, for the next Turn (Rule 1.4.24, RULINGS
    /// E126).
    pub(super) fn poid_placer_from_gsd(
        g: &Gsd,
        map: &Map,
        at: Option<StationId>,
    ) -> (Option<String>, Option<StationId>) {
        let Some(at) = at else {
            return (None, None);
        };
        let placer = g.plays.iter().rev().find_map(|p| {
            p.actions()
                .any(|a| matches!(a, Action::PoidOn { station } if station.place.station() == Some(at)))
                .then(|| p.player.clone())
        });
        let mc = map.landmark(crate::map::Landmark::MorningtonCrescent);
        let blast = g
            .plays
            .last()
            .filter(|last| {
                at == mc
                    && placer
                        .as_deref()
                        .is_some_and(|p| p.eq_ignore_ascii_case(&last.player))
            })
            .and_then(|last| {
                last.directives().find_map(|d| match d {
                    crate::gsd::Directive::RolledNamed { name, value }
                        if name == crate::dice::POID_MC =>
                    {
                        crate::map::Venbacker::new(*value).and_then(|v| map.by_venbacker(v))
                    }
                    _ => None,
                })
            });
        (placer, blast)
    }

    /// The Suspect Packages and the resting PoID as the Token Stacks box
    /// shows them.
    pub(super) fn packages_to_gsd(&self, map: &Map) -> Vec<Marked> {
        let marked = |at: StationId, marker| Marked {
            station: map.station(at).name.clone(),
            quadrants: map.station(at).quadrants.clone(),
            marker,
        };
        self.packages
            .iter()
            .map(|p| marked(p.at, StackMarker::SuspectPackage))
            .chain(self.poid.map(|at| marked(at, StackMarker::Poid)))
            .collect()
    }
}

/// The player of the latest Play that dropped a Suspect Package at `at`.
fn dropped_by(plays: &[Play], at: StationId) -> Option<String> {
    plays.iter().rev().find_map(|p| {
        p.actions()
            .any(|a| matches!(a, Action::DroppingPackage { station } if station.place.station() == Some(at)))
            .then(|| p.player.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gsd_shows_its_packages_its_poid_and_who_placed_the_packages() {
        let map = Map::london_1999();
        let text = include_str!("../../fixtures/gsd/valid/28-suspect-packages-and-poid.txt");
        let g = crate::gsd::parse_gsd(text, map).unwrap();
        let s = GameState::from_gsd(&g, map).unwrap();
        let by = |name: &str| {
            let at = map.find(name).unwrap();
            s.packages_at(at).next().map(|p| p.by.clone())
        };
        assert_eq!(by("Euston"), Some(Some("Cryer".to_string())));
        assert_eq!(by("Holborn"), Some(Some("Garden".to_string())));
        assert_eq!(s.packages.len(), 2);
        assert_eq!(s.poid, map.find("Bank"), "the PoID rests at Bank");
        assert_eq!(s.to_gsd(map, None, &g.plays).marked, g.marked);
    }
}
