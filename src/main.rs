//! The `mornbot` binary: parse arguments, run the command, map the result to
//! an exit code. Everything else lives in the library.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::ExitCode;

use clap::Parser;
use mornbot::cli::{self, Cli};

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    match cli::run(cli) {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(e) => {
            eprintln!("mornbot: {e:#}");
            ExitCode::from(cli::Exit::Failure.code())
        }
    }
}

/// `mornbot rules --coverage | head`: the reader left, so the output is no
/// longer wanted. Rust ignores SIGPIPE, and `println!` panics on the
/// closed pipe; end quietly instead, as a Unix tool does.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to std") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
