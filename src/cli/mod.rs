//! The command line: argument types and the commands behind them.
//!
//! This is an edge module: it reads files, prints, and turns library errors
//! into exit codes. The work itself is done by the pure library modules.

mod archive_cmd;
mod daemon_cmd;
mod db_cmd;
pub mod demo;
mod engine_cmd;
mod gsd_cmd;
mod map_cmd;
mod oneday_cmd;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// How a command ended, as the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: done.
    Ok,
    /// 1: the command ran and the answer is "no" (or it cannot run yet).
    Failure,
    /// 2: bad input: an unknown name, a malformed file or argument.
    BadInput,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Failure => 1,
            Exit::BadInput => 2,
        }
    }
}

/// mornbot referees Mornington Nomic on its mailing list.
#[derive(Debug, Parser)]
#[command(name = "mornbot", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the referee daemon (embedded default: a Maildir spool and SQLite
    /// under ./mornbot-data/; with --config: IMAP and SMTP).
    Run {
        /// Configuration file (see config.example.toml).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Play a scripted game of 20+ turns through the embedded daemon (mails
    /// into a spool, verdicts read back from the outbox); exit 0 only if
    /// every verdict is the scripted one.
    Demo {
        /// Data directory for the demo (default: a fresh temporary one).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Validate a configuration file and try its IMAP and SMTP logins.
    CheckConfig {
        /// The configuration file.
        file: PathBuf,
    },
    /// Check the database with SQLite's full integrity_check and say what
    /// it holds; exit 1 if it is damaged (the daemon will not start on it).
    CheckDb {
        /// Configuration file: its data directory's database.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database file itself (instead of --config's).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// What the daemon holds: its games and turns, replies waiting, and the
    /// messages it set aside (quarantined) because judging them failed;
    /// `--show ID` prints one quarantined mail as received.
    Status {
        /// Configuration file: its data directory's database.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database file itself (instead of --config's).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Print the quarantined mail with this id to stdout.
        #[arg(long)]
        show: Option<i64>,
    },
    /// Copy the database to FILE with SQLite's online backup API (safe
    /// while the daemon runs); the copy is checked, then put in place.
    Backup {
        /// Configuration file: its data directory's database.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database file itself (instead of --config's).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The backup file (replaced atomically if it exists).
        file: PathBuf,
    },
    /// Recheck a game's dice (RULINGS S14): after the seed is revealed,
    /// every recorded draw recomputed from it and the seed checked against
    /// the published commitment (exit 1 on any mismatch); before, the
    /// commitment.
    VerifyDice {
        /// The game's tag (`MN1`).
        game: String,
        /// Configuration file: its data directory's database.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database file itself (instead of --config's).
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// The game archive as static web pages.
    Archive {
        /// What to do.
        #[command(subcommand)]
        command: ArchiveCommand,
    },
    /// Print the deadline for an event (Rules 1.3.5, 1.16.x) as RFC 3339 UTC.
    Deadline {
        /// turn (36 weekday hours), buzz (36 hours), judgment (three days).
        #[arg(long)]
        kind: String,
        /// When the event happened, RFC 3339.
        timestamp: String,
    },
    /// Parse or format a Game State Document.
    Gsd {
        /// What to do.
        #[command(subcommand)]
        command: GsdCommand,
    },
    /// Run rule cases (fixtures/cases format): PASS/FAIL per case.
    Case {
        /// Case files or directories (searched for *.toml).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON object per case.
        #[arg(long)]
        json: bool,
    },
    /// Judge one play against the state a GSD describes.
    Adjudicate {
        /// The GSD.
        #[arg(long)]
        gsd: PathBuf,
        /// The play, as written in a GSD.
        #[arg(long)]
        play: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Replay every play of a GSD from the game's start: the first play
    /// that is not legal, and where the tables disagree with the replay.
    Check {
        /// The GSD.
        file: PathBuf,
    },
    /// Every rule of Volume 1 (or of another kind's seed) and whether
    /// mornbot adjudicates it.
    Rules {
        /// List coverage (the only report so far).
        #[arg(long)]
        coverage: bool,
        /// The game kind: `mn` (Volume 1, the default), `mc-xml` or `money-run`.
        #[arg(long)]
        kind: Option<String>,
        /// Count the cases of this corpus (default: the corpus mornbot was
        /// built with).
        #[arg(long)]
        cases: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Inspect the Underground map.
    Map {
        /// Map file to use instead of the embedded 1999 map.
        #[arg(long, global = true)]
        map: Option<PathBuf>,
        /// What to show.
        #[command(subcommand)]
        command: MapCommand,
    },
}

/// `mornbot archive ...`
#[derive(Debug, Subcommand)]
pub enum ArchiveCommand {
    /// Write the archive of every game in the database into DIR: an index
    /// of the games, and per game every turn with its play, verdict, GSD
    /// and picture (plain HTML and CSS; only changed files are rewritten).
    Build {
        /// Configuration file: its data directory's database (and map).
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database file itself (instead of --config's).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The site's directory (created if needed).
        dir: PathBuf,
    },
}

/// `mornbot gsd ...`
#[derive(Debug, Subcommand)]
pub enum GsdCommand {
    /// Print the parsed document as JSON.
    Parse {
        /// The GSD (a file, or `-` for standard input); mail around it is ignored.
        file: PathBuf,
    },
    /// Print the canonical rendering (Rule 1.2.0 layout).
    Fmt {
        /// The GSD (a file, or `-` for standard input).
        file: PathBuf,
    },
    /// Parse one Play line and print it as JSON.
    Play {
        /// The Play, e.g. "Rushton : [LV+1] Euston (VC via: CN,NT)".
        line: String,
    },
}

/// `mornbot map ...`
#[derive(Debug, Subcommand)]
pub enum MapCommand {
    /// Counts of the map, or one station's record with --station.
    Stats {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// The map as a game kind sees it: `mc-xml` (its plain graph:
        /// termini and interchanges by degree, RULINGS MX1, MX2) or
        /// `oneday` (the deck's cards, their lines and before/after counts).
        #[arg(long)]
        kind: Option<String>,
        /// Show this station (its name, or its Venbacker Number) instead of
        /// the whole map.
        #[arg(long)]
        station: Option<String>,
    },
    /// The Fosdyke Code (Rule 1.17.9) between two stations.
    Fosdyke {
        /// The subject station.
        from: String,
        /// The object station.
        to: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Validate a map file (the embedded one without --map) and exit.
    Check,
    /// One Day in London's deck derived from the map, as the deck file
    /// (`mornbot map oneday-deck > maps/oneday-zone1.toml`; RULINGS OD1).
    OnedayDeck,
    /// Draw a game: the network and, on it, the state a GSD describes.
    Draw {
        /// The GSD (a file, or `-` for standard input); mail around it is ignored.
        #[arg(long)]
        gsd: PathBuf,
        /// Where to write the picture: PNG, or SVG if the name ends in `.svg`.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Runs a parsed command line, writing to stdout/stderr.
pub fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Command::Run { config } => daemon_cmd::run(config.as_deref()),
        Command::Demo { dir } => demo::run(dir.as_deref()),
        Command::CheckConfig { file } => daemon_cmd::check_config(&file),
        Command::CheckDb { config, db } => db_cmd::check_db(config.as_deref(), db.as_deref()),
        Command::Status { config, db, show } => {
            db_cmd::status(config.as_deref(), db.as_deref(), show)
        }
        Command::Backup { config, db, file } => {
            db_cmd::backup(config.as_deref(), db.as_deref(), &file)
        }
        Command::VerifyDice { game, config, db } => {
            db_cmd::verify_dice(&game, config.as_deref(), db.as_deref())
        }
        Command::Archive {
            command: ArchiveCommand::Build { config, db, dir },
        } => archive_cmd::build(config.as_deref(), db.as_deref(), &dir),
        Command::Deadline { kind, timestamp } => daemon_cmd::deadline(&kind, &timestamp),
        Command::Map { map, command } => map_cmd::run(map.as_deref(), command),
        Command::Gsd { command } => gsd_cmd::run(command),
        Command::Case { paths, json } => engine_cmd::case(&paths, json),
        Command::Check { file } => engine_cmd::check(&file),
        Command::Rules {
            coverage: _,
            kind: Some(kind),
            cases,
            json,
        } if kind != "mn" => engine_cmd::rules_of_kind(&kind, cases.as_deref(), json),
        Command::Rules {
            coverage: _,
            kind: _,
            cases,
            json,
        } => engine_cmd::rules(cases.as_deref(), json),
        Command::Adjudicate { gsd, play, json } => engine_cmd::adjudicate(&gsd, &play, json),
    }
}
