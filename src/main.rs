//! The `mornbot` binary: parse arguments, run the command, map the result to
//! an exit code. Everything else lives in the library.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::ExitCode;

use clap::Parser;
use mornbot::cli::{self, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli::run(cli) {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(e) => {
            eprintln!("mornbot: {e:#}");
            ExitCode::from(cli::Exit::Failure.code())
        }
    }
}
