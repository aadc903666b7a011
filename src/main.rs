//! The `shogi-lab` command-line tool; see `shogi-lab --help`.

fn main() {
    let cli = match shogi_lab::cli::parse() {
        Ok(cli) => cli,
        Err(e) => match shogi_lab::cli::usage_error(&e) {
            // Help and version go to stdout as clap prints them.
            None => e.exit(),
            Some(line) => {
                say_error(&line);
                std::process::exit(2);
            }
        },
    };
    if let Err(failure) = shogi_lab::cli::run(cli) {
        say_error(&failure.line());
        std::process::exit(failure.code);
    }
}

/// The one error line on stderr, best effort: `eprintln!` panics when stderr is a closed
/// pipe (`… 2>&1 | head`), which would turn the documented exit code into 101.
fn say_error(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "shogi-lab: {line}");
}
