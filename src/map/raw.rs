//! The map file as written (`maps/london-1999.toml`), before validation.
//!
//! Station names keep their byte spans so that validation errors can name the
//! line of the file they come from.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMap {
    pub map: RawHeader,
    pub lines: BTreeMap<Spanned<String>, RawLine>,
    pub links: RawLinks,
    pub ghosts: RawGhosts,
    #[serde(default)]
    pub aliases: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    pub restricted: RawRestricted,
    /// Where the map spells a station the rules name otherwise.
    #[serde(default)]
    pub landmarks: BTreeMap<Spanned<String>, Spanned<String>>,
    pub stations: RawStations,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHeader {
    pub name: String,
    pub meridian: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLine {
    pub name: String,
    pub colour: Spanned<String>,
    pub direction: String,
    pub branches: Vec<RawBranch>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum BranchKind {
    #[default]
    Line,
    Loop,
    TurningLoop,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBranch {
    pub name: String,
    #[serde(default)]
    pub kind: BranchKind,
    pub stations: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLinks {
    pub escalator: Vec<[Spanned<String>; 2]>,
    pub walking: Vec<[Spanned<String>; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawGhosts {
    pub current: u32,
    pub names: Vec<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRestricted {
    #[serde(default)]
    pub stations: Vec<RawStationRestriction>,
    #[serde(default)]
    pub segments: Vec<RawSegmentRestriction>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStationRestriction {
    pub station: Option<Spanned<String>>,
    pub category: Option<Spanned<String>>,
    pub line: Option<Spanned<String>>,
    pub open: Spanned<Vec<String>>,
    pub note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSegmentRestriction {
    pub line: Spanned<String>,
    pub from: Spanned<String>,
    pub to: Spanned<String>,
    pub open: Spanned<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStations {
    pub list: Vec<RawStation>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawKind {
    Interchange,
    CoLocated,
    Single,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RawBank {
    North,
    South,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStation {
    pub name: Spanned<String>,
    pub current: u32,
    /// The station's face of the 295-sided die (RULINGS.md M19).
    pub venbacker: u32,
    pub zones: Vec<u8>,
    pub kind: RawKind,
    #[serde(default)]
    pub british_rail: bool,
    pub thames: RawBank,
    pub quadrants: Vec<u8>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub sites: Option<Vec<RawSite>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSite {
    pub lines: Vec<String>,
    pub lat: f64,
    pub lon: f64,
}
