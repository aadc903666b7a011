//! The `shogi-lab` command line: argument parsing, progress bars, text and
//! JSON output. Exit codes: 0 ok, 1 no answer within limits, 2 bad input.

mod experiments;
mod moves;
mod perft;
mod quantum;

use clap::{Parser, Subcommand};

/// Why a command failed, and the exit code to use.
#[derive(Debug)]
pub struct Failure {
    /// 1 = no answer within limits, 2 = bad input, 3 = internal error.
    pub code: i32,
    /// One readable line.
    pub message: String,
}

impl Failure {
    /// Bad input (exit 2).
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: 2,
            message: message.to_string(),
        }
    }
    /// No answer within limits (exit 1).
    pub fn no_answer(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: 1,
            message: message.to_string(),
        }
    }
    /// Internal failure, e.g. a result that does not match its oracle (exit 3).
    pub fn internal(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: 3,
            message: message.to_string(),
        }
    }
}

/// shogi-lab: constraint solving in shogi — rules core and perft, quantum
/// shogi convergence, df-pn tsume, 利かずの駒並べ.
#[derive(Debug, Parser)]
#[command(name = "shogi-lab", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the legal move tree (perft).
    Perft(perft::PerftArgs),
    /// List the legal moves of each SFEN line of a file (for differential tests).
    Moves(moves::MovesArgs),
    /// Quantum shogi (量子将棋): converge worlds, exact probabilities, observation.
    Quantum(quantum::QuantumArgs),
    /// Run the paper's experiments and write their tables to paper/results/.
    Experiments(experiments::ExperimentsArgs),
}

/// Runs a parsed command line.
///
/// # Errors
/// A [`Failure`] with the exit code and one line for the user.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Perft(a) => perft::run(a),
        Command::Experiments(a) => experiments::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Quantum(a) => quantum::run(a),
    }
}

/// Reads a position argument: a SFEN, `startpos`, `sfen …` or a USI `position … moves …` line.
pub(crate) fn read_position(
    text: &str,
    rules: crate::rules::Rules,
) -> Result<crate::rules::Position, Failure> {
    crate::notation::sfen::parse_usi_position(text, rules)
        .map(|p| p.position)
        .map_err(|e| Failure::input(format!("bad position: {e}")))
}

/// Prints one line to stdout; a closed pipe (`| head`) ends the program quietly instead of panicking.
pub(crate) fn emit(line: impl std::fmt::Display) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("shogi-lab: cannot write output: {e}");
        std::process::exit(3);
    }
}
