use super::Failure;
use crate::notation::sfen::parse_position;
use crate::rules::Rules;

/// Arguments of `shogi-lab moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// A file with one SFEN per line (`id<TAB>SFEN` allowed, `#` comments, blank lines), or `-`
    /// for stdin; read line by line. A position may lack one king or both (a tsume problem).
    pub file: String,
    /// One JSON object a line: `{"sfen":…, "moves":[…]}`.
    #[arg(long)]
    pub json: bool,
}

/// Prints `<SFEN>\t<legal USI moves, sorted, space-separated>` per input line — the
/// interface the cshogi differential script (paper/scripts/cshogi_diff.py) drives.
pub fn run(a: MovesArgs) -> Result<(), Failure> {
    let origin = super::error::Origin::file(&a.file);
    // Streamed: one line at a time, so a large file or pipe is never held whole.
    for item in super::input_lines(&a.file)? {
        let (number, raw) = item?;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // `id<TAB>SFEN[<TAB>…]`, as `tsume` reads it (crate::tsume::problems).
        let sfen = match line.split('\t').nth(1) {
            Some(s) => s.trim(),
            None => line,
        };
        let pos = parse_position(sfen, Rules::KINGS_OPTIONAL).map_err(|e| {
            let col = super::error::column_of(&raw, sfen);
            super::error::InputError::in_line(origin.clone(), number, col, sfen, &e)
        })?;
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
