//! The one configuration file (`config.example.toml` documents every key).
//!
//! Unknown keys are refused, so a typo never silently falls back to a
//! default. Each issue adds its own section; today the file can point the
//! daemon at another map.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The whole configuration.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The `[map]` section.
    #[serde(default)]
    pub map: MapConfig,
}

/// `[map]`: which Underground map the games use.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MapConfig {
    /// A map file of the shape of `maps/london-1999.toml`, replacing the
    /// embedded one. Relative paths are relative to the config file.
    pub file: Option<PathBuf>,
}

/// A configuration file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {message}")]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// What is wrong, with line and column.
    pub message: String,
}

impl Config {
    /// Parses configuration text; `origin` names the file in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError {
            file: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })
    }

    /// Resolves paths in the config relative to the directory of the config
    /// file at `path`.
    pub fn resolve_paths(mut self, path: &Path) -> Config {
        let base = path.parent().unwrap_or(Path::new("."));
        if let Some(f) = self.map.file.take() {
            self.map.file = Some(if f.is_absolute() { f } else { base.join(f) });
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_config_parses() {
        let text = include_str!("../config.example.toml");
        Config::from_toml(text, "config.example.toml").unwrap();
    }

    #[test]
    fn unknown_keys_are_refused_with_position() {
        let err = Config::from_toml("[map]\nfiel = \"x.toml\"\n", "c.toml").unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("c.toml:"), "{msg}");
        assert!(msg.contains("fiel"), "{msg}");
        assert!(msg.contains("line 2"), "{msg}");
    }

    #[test]
    fn relative_map_path_is_relative_to_the_config() {
        let c = Config::from_toml("[map]\nfile = \"maps/x.toml\"\n", "c").unwrap();
        let c = c.resolve_paths(Path::new("/etc/mornbot/config.toml"));
        assert_eq!(c.map.file, Some(PathBuf::from("/etc/mornbot/maps/x.toml")));
    }
}
