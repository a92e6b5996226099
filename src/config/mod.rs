//! The one configuration file (`config.example.toml` documents every key).
//!
//! Unknown keys are refused, so a typo never silently falls back to a
//! default. With no `[imap]` section the daemon runs on the embedded
//! default: a Maildir spool and a file outbox under the data directory.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod absence;
#[cfg(test)]
mod example;
mod games;
pub mod limits;
mod lobby;
mod network;
pub use absence::AbsenceConfig;
#[cfg(test)]
use games::default_start;
pub(crate) use games::yes;
pub use games::{check_players, GameConfig, PlayerConfig, RulingValue};
pub use limits::LimitsConfig;
pub use lobby::LobbyConfig;
pub use network::Network;

/// Games whose state the daemon keeps in memory at once, by default
/// (`[bot] cached_games`; issue 20).
pub const DEFAULT_CACHED: usize = 1000;

/// The whole configuration.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The `[map]` section.
    #[serde(default)]
    pub map: MapConfig,
    /// The `[bot]` section: who the bot is and where it keeps its data.
    #[serde(default)]
    pub bot: BotConfig,
    /// The `[imap]` section: where lounge mail is read. Absent: the Maildir
    /// spool `<data_dir>/lounge/`.
    pub imap: Option<ImapConfig>,
    /// The `[smtp]` section: how replies are sent. Absent: files in
    /// `<data_dir>/outbox/`.
    pub smtp: Option<SmtpConfig>,
    /// The `[speaker]` section: timeouts and the buzz workflow.
    #[serde(default)]
    pub speaker: SpeakerConfig,
    /// The `[outbox]` section: delivery retries.
    #[serde(default)]
    pub outbox: OutboxConfig,
    /// The `[limits]` section: the most work one mail may cause.
    #[serde(default)]
    pub limits: LimitsConfig,
    /// The `[lobby]` section: games created and joined by mail.
    #[serde(default)]
    pub lobby: LobbyConfig,
    /// The `[absence]` section: how long players may be away.
    #[serde(default)]
    pub absence: AbsenceConfig,
    /// `[[game]]` tables: the games the lounge hosts.
    #[serde(default, rename = "game")]
    pub games: Vec<GameConfig>,
}

/// `[bot]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct BotConfig {
    /// The bot's own address: the From of its replies, where players send
    /// commands.
    pub address: String,
    /// The display name on its replies.
    pub name: String,
    /// The lounge list's posting address: where verdicts go.
    pub lounge: String,
    /// Where the lounge's ruleset (Volume 1) can be read, for HELP; none:
    /// HELP names the ruleset and the Speaker's address.
    pub rules_url: Option<String>,
    /// The lounge list's `List-Id` (e.g. `lounge.example.org`): when set,
    /// a post whose From the list rewrote (DMARC) is read as its author's
    /// only when it carries this List-Id.
    pub list_id: Option<String>,
    /// The data directory (SQLite database, and on the embedded default the
    /// spool and outbox). Relative to the config file.
    pub data_dir: PathBuf,
    /// Largest message judged; larger ones get a polite refusal.
    pub max_message_bytes: usize,
    /// The authserv-id of the receiving server whose Authentication-Results
    /// (RFC 8601) headers are trusted; when set, a turn needs dkim=pass or
    /// spf=pass for its From domain.
    pub trusted_authserv_id: Option<String>,
    /// Networks (`10.0.0.0/8`, `192.0.2.7`) whose relays are inside the
    /// trust boundary: their `Received:` hops may stand above the trusted
    /// Authentication-Results (loopback and LMTP hops always may).
    pub internal_networks: Vec<Network>,
    /// Days a judged message stays in the Maildir spool's `cur/` (the
    /// embedded default) before it is deleted; 0 keeps them for ever.
    pub spool_keep_days: u32,
    /// Games a new database starts with, besides `[[game]]`: a TOML file of
    /// `[[game]]` tables. Default on the embedded default:
    /// `<data_dir>/game.toml`, written with a sample game on first start.
    pub games_file: Option<PathBuf>,
    /// How many games' live states stay in memory (the games recently
    /// played); the others are loaded from their snapshots when needed.
    /// At least 1.
    pub cached_games: usize,
    /// Whether `PRAGMA quick_check` runs at every start (`true`), or only
    /// when the last run did not stop cleanly (`false`, the default): a
    /// clean stop records the database file it left, and a start on that
    /// same file (its size, time and inode unchanged, no write-ahead log)
    /// does not read all of it again, as a file system is not checked
    /// after a clean unmount. A crash, a restored backup or any other
    /// change to the file means the check.
    pub check_db_every_start: bool,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            address: "mornbot@localhost".into(),
            name: "mornbot".into(),
            lounge: "lounge@localhost".into(),
            rules_url: None,
            list_id: None,
            data_dir: PathBuf::from("mornbot-data"),
            max_message_bytes: 1 << 20,
            trusted_authserv_id: None,
            internal_networks: Vec::new(),
            spool_keep_days: 90,
            games_file: None,
            cached_games: DEFAULT_CACHED,
            check_db_every_start: false,
        }
    }
}

/// How a connection is secured.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// STARTTLS upgrade (IMAP 143, submission 587).
    #[default]
    Starttls,
    /// No TLS: refused unless the host is a loopback address.
    Plain,
}

/// Where a password comes from: never the config text itself.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Secret {
    /// A file whose first line is the password.
    pub password_file: Option<PathBuf>,
    /// An environment variable holding the password.
    pub password_env: Option<String>,
}

/// How the daemon waits for new mail.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Wait {
    /// IMAP IDLE (RFC 2177), re-issued before the server's timeout.
    #[default]
    Idle,
    /// NOOP polling every `poll_ms`.
    Poll,
}

/// `[imap]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ImapConfig {
    /// Server host name.
    pub host: String,
    /// Port (default 993 for tls, 143 otherwise).
    pub port: Option<u16>,
    /// TLS mode.
    #[serde(default)]
    pub security: Security,
    /// Login name.
    pub user: String,
    /// The password's source.
    #[serde(flatten)]
    pub secret: Secret,
    /// The lounge folder.
    #[serde(default = "default_folder")]
    pub folder: String,
    /// Where a mail whose judging failed is moved (created when first
    /// needed): out of the lounge folder, kept for the operator.
    #[serde(default = "default_quarantine_folder")]
    pub quarantine_folder: String,
    /// IDLE or polling.
    #[serde(default)]
    pub wait: Wait,
    /// Polling interval, and the IDLE fallback's.
    #[serde(default = "default_poll_ms")]
    pub poll_ms: u64,
    /// Re-issue IDLE after this many seconds (RFC 2177: under 29 minutes).
    #[serde(default = "default_idle_secs")]
    pub idle_secs: u64,
    /// Extra CA certificate (PEM) to trust, e.g. a private server's.
    pub ca_file: Option<PathBuf>,
}

fn default_folder() -> String {
    "INBOX".into()
}
fn default_quarantine_folder() -> String {
    "mornbot-quarantine".into()
}
fn default_poll_ms() -> u64 {
    1000
}
fn default_idle_secs() -> u64 {
    25 * 60
}

/// `[smtp]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    /// Server host name.
    pub host: String,
    /// Port (default 465 for tls, 587 otherwise).
    pub port: Option<u16>,
    /// TLS mode.
    #[serde(default)]
    pub security: Security,
    /// Login name; none: no authentication (a local relay).
    pub user: Option<String>,
    /// The password's source.
    #[serde(flatten)]
    pub secret: Secret,
    /// Extra CA certificate (PEM) to trust.
    pub ca_file: Option<PathBuf>,
}

/// `[outbox]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct OutboxConfig {
    /// Longest wait between delivery attempts (they start at 1 s and
    /// double).
    pub retry_max_secs: u64,
    /// After a crash in the middle of a delivery, how long to wait before
    /// sending the reply again: a lounge post that did go out comes back
    /// through the list meanwhile and is not sent twice.
    pub unconfirmed_wait_secs: u64,
    /// Days a delivered reply's text is kept (for `mornbot db-status` and
    /// a look at what went out) before it is dropped: the row stays, so a
    /// reply is still never queued twice, but its text (about 2 KB a
    /// verdict) no longer grows the database for ever.
    pub keep_sent_days: u32,
}

impl Default for OutboxConfig {
    fn default() -> Self {
        OutboxConfig {
            retry_max_secs: 600,
            unconfirmed_wait_secs: 30,
            keep_sent_days: 30,
        }
    }
}

/// `[speaker]`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct SpeakerConfig {
    /// Hours before a turn deadline that the private reminder goes out.
    pub reminder_hours: u32,
    /// Whether the bot, as a buzzer, contests defences (so a human decides).
    pub bot_contests_defences: bool,
    /// Whether enforcing Timeouts is on.
    pub timeouts: bool,
    /// A winning turn (Rule 1.1.1) ends the game when every other Active
    /// player has replied "No buzz", or this many hours after it without a
    /// Buzz; 0: only the acknowledgements end it.
    pub win_window_hours: u32,
    /// The Speaker's addresses: they may settle a turn awaiting Judgment
    /// (`Judgment: Legal`, or a GSD carrying it) and use the Speaker's
    /// commands (`RESIGN <player>`, `VOID`, `PAUSE`, `RESUME`).
    pub addresses: Vec<String>,
    /// How long before the game's last turn a bare Play line's mail may be
    /// dated (slow clocks) and still be judged; an older one is refused as
    /// an old play sent again (RULINGS L9).
    pub replay_allowance_minutes: u32,
    /// A game waiting on a human (a Judgment, the Speaker's decision on an
    /// agreed Stalemate) is noticed in the lounge once per this many hours
    /// of waiting; 0: never.
    pub waiting_notice_hours: u32,
}

impl Default for SpeakerConfig {
    fn default() -> Self {
        SpeakerConfig {
            reminder_hours: 12,
            bot_contests_defences: true,
            timeouts: true,
            win_window_hours: 36,
            addresses: Vec::new(),
            replay_allowance_minutes: 10,
            waiting_notice_hours: 24,
        }
    }
}

/// Reads a password from its file (first line) or environment variable;
/// `None` when neither is configured.
pub fn read_secret(s: &Secret) -> Result<Option<String>, String> {
    if let Some(f) = &s.password_file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| format!("password_file {}: {e}", f.display()))?;
        return Ok(Some(text.lines().next().unwrap_or("").to_string()));
    }
    if let Some(v) = &s.password_env {
        return std::env::var(v)
            .map(Some)
            .map_err(|_| format!("password_env: environment variable {v} is not set"));
    }
    Ok(None)
}

/// Whether `host` is a loopback address or name (plain connections are
/// allowed only there).
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl Config {
    /// Checks what the types cannot: plain connections only to loopback,
    /// `[imap]` and `[smtp]` together, game tags and player lists sound.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(i) = &self.imap {
            if i.security == Security::Plain && !is_loopback(&i.host) {
                return Err(format!(
                    "[imap] security = \"plain\" is allowed only to a loopback host, not {}",
                    i.host
                ));
            }
        }
        if let Some(s) = &self.smtp {
            if s.security == Security::Plain && !is_loopback(&s.host) {
                return Err(format!(
                    "[smtp] security = \"plain\" is allowed only to a loopback host, not {}",
                    s.host
                ));
            }
        }
        if self.bot.cached_games == 0 {
            return Err(
                "[bot] cached_games must be at least 1: it is how many games' live \
                        states stay in memory (the default is 1000)"
                    .into(),
            );
        }
        if self.imap.is_some() != self.smtp.is_some() {
            return Err("[imap] and [smtp] go together: give both, or neither".into());
        }
        // Bounds keep every deadline computed from them inside chrono's range:
        // a year at most, in the key's own unit.
        const YEAR_HOURS: u64 = 24 * 366;
        const YEAR_SECS: u64 = 3600 * YEAR_HOURS;
        for (key, v, most) in [
            (
                "[speaker] reminder_hours",
                u64::from(self.speaker.reminder_hours),
                YEAR_HOURS,
            ),
            (
                "[speaker] win_window_hours",
                u64::from(self.speaker.win_window_hours),
                YEAR_HOURS,
            ),
            (
                "[speaker] waiting_notice_hours",
                u64::from(self.speaker.waiting_notice_hours),
                YEAR_HOURS,
            ),
            (
                "[outbox] retry_max_secs",
                self.outbox.retry_max_secs,
                YEAR_SECS,
            ),
            (
                "[outbox] unconfirmed_wait_secs",
                self.outbox.unconfirmed_wait_secs,
                YEAR_SECS,
            ),
            (
                "[outbox] keep_sent_days",
                u64::from(self.outbox.keep_sent_days),
                366,
            ),
        ] {
            if v > most {
                return Err(format!("{key} = {v}: at most {most} (a year)"));
            }
        }
        for (key, v, least, most) in self.limits.bounds() {
            if !(least..=most).contains(&v) {
                return Err(format!(
                    "[limits] {key} = {v}: must be from {least} to {most}"
                ));
            }
        }
        self.validate_addresses()?;
        self.lobby.validate()?;
        self.absence.validate()?;
        let mut tags = std::collections::BTreeSet::new();
        for g in &self.games {
            if g.tag.is_empty() || !g.tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(format!(
                    "[[game]] tag {:?}: letters, digits and '-' only",
                    g.tag
                ));
            }
            if !tags.insert(g.tag.to_uppercase()) {
                return Err(format!("[[game]] tag {} appears twice", g.tag));
            }
            if g.players.is_empty() {
                return Err(format!("[[game]] {}: no players", g.tag));
            }
        }
        check_players(&self.games)
    }
}

impl Config {
    /// Every configured address must be a plain ASCII `local@domain`:
    /// addresses are compared by ASCII rules only (see
    /// `mail::address`), so a non-ASCII one could never match.
    fn validate_addresses(&self) -> Result<(), String> {
        let mut all = vec![
            ("[bot] address".to_string(), self.bot.address.as_str()),
            ("[bot] lounge".to_string(), self.bot.lounge.as_str()),
        ];
        for g in &self.games {
            for p in &g.players {
                all.push((
                    format!("[[game]] {} player {}", g.tag, p.name),
                    p.address.as_str(),
                ));
            }
            if let Some(r) = &g.referee {
                all.push((format!("[[game]] {} referee", g.tag), r.as_str()));
            }
        }
        for (key, a) in all {
            crate::text::check_ascii(a).map_err(|e| format!("{key}: {e}"))?;
            match a.split_once('@') {
                Some((l, d)) if !l.is_empty() && !d.is_empty() && !d.contains('@') => {}
                _ => return Err(format!("{key}: {a:?} is not an address (local@domain)")),
            }
        }
        Ok(())
    }
}

/// A file of `[[game]]` tables.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GamesFile {
    /// The games.
    #[serde(default, rename = "game")]
    pub games: Vec<GameConfig>,
}

/// `[map]`: which Underground map the games use.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
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
        let abs = |f: PathBuf| if f.is_absolute() { f } else { base.join(f) };
        self.map.file = self.map.file.take().map(abs);
        self.bot.data_dir = abs(std::mem::take(&mut self.bot.data_dir));
        self.bot.games_file = self.bot.games_file.take().map(abs);
        if let Some(i) = &mut self.imap {
            i.ca_file = i.ca_file.take().map(abs);
            i.secret.password_file = i.secret.password_file.take().map(abs);
        }
        if let Some(s) = &mut self.smtp {
            s.ca_file = s.ca_file.take().map(abs);
            s.secret.password_file = s.secret.password_file.take().map(abs);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_config_parses() {
        let text = include_str!("../../config.example.toml");
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
    fn a_game_chooses_its_contested_rulings() {
        let text = "[[game]]\ntag = \"MN1\"\n[[game.player]]\nname = \"A\"\naddress = \"a@x\"\n\
                    [game.rulings]\nsoaped_phase = \"post\"\n";
        let c = Config::from_toml(text, "c").unwrap();
        let r = &c.games[0].rulings;
        assert_eq!(r.soaped_phase, crate::kinds::vol1::SoapedPhase::Post);
        // The others keep RULINGS.md's decisions.
        assert!(r.power_failure_voids_special_moves);
        let bad = text.replace("\"post\"", "\"later\"");
        assert!(Config::from_toml(&bad, "c").is_err());
        let unknown = text.replace("soaped_phase", "soap_phase");
        let msg = Config::from_toml(&unknown, "c").unwrap_err().to_string();
        assert!(msg.contains("soap_phase"), "{msg}");
    }

    #[test]
    fn limits_have_safe_defaults_and_bounds() {
        let c = Config::default();
        assert_eq!(c.limits.commands_per_mail, 10);
        assert_eq!(c.limits.reply_bytes, 256 * 1024);
        assert_eq!(c.limits.actions_per_play, 40);
        c.validate().unwrap();
        let c = Config::from_toml("[limits]\ncommands_per_mail = 0\n", "c").unwrap();
        let e = c.validate().unwrap_err();
        assert!(e.contains("[limits] commands_per_mail = 0"), "{e}");
        let c = Config::from_toml("[limits]\nreply_bytes = 100\n", "c").unwrap();
        assert!(c.validate().unwrap_err().contains("reply_bytes"));
        assert!(Config::from_toml("[limits]\ncommand_per_mail = 3\n", "c").is_err());
        let c = Config::from_toml("[bot]\ninternal_networks = [\"10.0.0.0/8\"]\n", "c").unwrap();
        assert_eq!(c.bot.internal_networks.len(), 1);
        let e = Config::from_toml("[bot]\ninternal_networks = [\"10.0.0.0/99\"]\n", "c")
            .unwrap_err()
            .to_string();
        assert!(e.contains("prefix length"), "{e}");
    }

    #[test]
    fn configured_addresses_are_plain_ascii() {
        let game = |addr: &str| {
            format!(
                "[[game]]\ntag = \"MN1\"\n[[game.player]]\nname = \"A\"\naddress = \"{addr}\"\n"
            )
        };
        let c = Config::from_toml(&game("a@example.org"), "c").unwrap();
        c.validate().unwrap();
        let c = Config::from_toml(&game("\u{212a}im@example.org"), "c").unwrap();
        let e = c.validate().unwrap_err();
        assert!(e.contains("player A") && e.contains("U+212A"), "{e}");
        let c = Config::from_toml(&game("nobody"), "c").unwrap();
        assert!(c.validate().unwrap_err().contains("not an address"));
    }

    #[test]
    fn relative_map_path_is_relative_to_the_config() {
        let c = Config::from_toml("[map]\nfile = \"maps/x.toml\"\n", "c").unwrap();
        let c = c.resolve_paths(Path::new("/etc/mornbot/config.toml"));
        assert_eq!(c.map.file, Some(PathBuf::from("/etc/mornbot/maps/x.toml")));
    }
}
