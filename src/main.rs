//! The `shogi-lab` command-line tool; see `shogi-lab --help`.

use clap::Parser;

fn main() {
    let cli = shogi_lab::cli::Cli::parse();
    if let Err(failure) = shogi_lab::cli::run(cli) {
        eprintln!("shogi-lab: {}", failure.message);
        std::process::exit(failure.code);
    }
}
