use super::Failure;
use crate::notation::sfen::parse_position;
use crate::rules::Rules;
use std::io::Read;

/// Arguments of `shogi-lab moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// A file with one SFEN per line (`#` comments, blank lines allowed), or `-` for stdin.
    pub file: String,
    /// One JSON object a line: `{"sfen":…, "moves":[…]}`.
    #[arg(long)]
    pub json: bool,
}

/// Prints `<SFEN>\t<legal USI moves, sorted, space-separated>` per input line — the
/// interface the cshogi differential script (paper/scripts/cshogi_diff.py) drives.
pub fn run(a: MovesArgs) -> Result<(), Failure> {
    let mut text = String::new();
    if a.file == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::input(format!("stdin: {e}")))?;
    } else {
        text = std::fs::read_to_string(&a.file)
            .map_err(|e| Failure::input(format!("{}: {e}", a.file)))?;
    }
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = parse_position(line, Rules::STANDARD)
            .map_err(|e| Failure::input(format!("{}:{}: {e}", a.file, i + 1)))?;
        let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        moves.sort();
        if a.json {
            super::emit(crate::output::to_line(&crate::output::rules::MovesOut {
                sfen: crate::notation::sfen::write_sfen(&pos),
                moves,
            }));
        } else {
            super::emit(format!("{line}\t{}", moves.join(" ")));
        }
    }
    Ok(())
}
