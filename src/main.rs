//! The `shogi-lab` command-line tool; see `shogi-lab --help`.

fn main() {
    let cli = match shogi_lab::cli::parse() {
        Ok(cli) => cli,
        Err(e) => match shogi_lab::cli::usage_error(&e) {
            // Help and version go to stdout as clap prints them.
            None => e.exit(),
            Some(line) => {
                eprintln!("shogi-lab: {line}");
                std::process::exit(2);
            }
        },
    };
    if let Err(failure) = shogi_lab::cli::run(cli) {
        eprintln!("shogi-lab: {}", failure.line());
        std::process::exit(failure.code);
    }
}
