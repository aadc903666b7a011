//! `shogi-lab show POSITION|RECORD [--ply N] [--svg FILE]`: a position as a BOD
//! diagram (text) and, on request, an SVG picture — ordinary positions and records,
//! and quantum shogi records (ours or shogitter's JSON), all drawn by the one
//! renderer of [`crate::render`].

use super::quantum::game::{is_quantum_record, position_after, report, worlds_of};
use super::Failure;
use crate::notation::sfen::write_sfen;
use crate::output::{self, show::Shown};
use crate::render::{svg::picture_svg, Picture};
use crate::rules::Rules;

/// Arguments of `shogi-lab show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// A SFEN (quoted), `startpos`, `position … moves …`, a KIF/KI2/CSA record file, or a
    /// quantum shogi record (`quantum play` output, or shogitter's JSON); `-` reads any of
    /// them from stdin.
    pub position: String,
    /// With a record: the position after this many main-line moves.
    #[arg(long, default_value_t = 0)]
    pub ply: usize,
    /// Also write an SVG diagram to this file (the last move highlighted; a quantum
    /// piece's remaining kinds under it).
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
    /// Print one JSON object (`sfen`, `bod`, `last_move`, `svg`, `worlds`).
    #[arg(long)]
    pub json: bool,
}

/// Writes `text` to `path` atomically (a temporary file beside it, then a rename): a
/// path that cannot take a file (no such directory, a directory, a FIFO or device) is
/// bad input (exit 2); a write that fails there is output that could not be written
/// (exit 3, README's exit codes).
fn write_atomically(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    let named = || super::error::Origin::File(path.display().to_string());
    crate::atomic_write::target(path)
        .map_err(|e| Failure::from(super::error::InputError::new(named(), e)))?;
    crate::atomic_write::write_atomically(path, text)
        .map_err(|e| Failure::internal(format!("{}: cannot write: {e}", path.display())))
}

/// Whether `a` and `b` name one file (the same path, a symbolic link to it, or on Unix
/// a hard link); `false` when either does not exist.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
        false
    }
    #[cfg(not(unix))]
    {
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

/// `--svg` naming the record being shown would replace the record with its picture:
/// refused (exit 2) before anything is read or written.
fn check_svg_is_not_the_input(a: &ShowArgs) -> Result<(), Failure> {
    match &a.svg {
        Some(svg) if same_file(std::path::Path::new(&a.position), svg) => {
            Err(Failure::input(format!(
                "--svg {}: is the input file (the record would be overwritten by its picture)",
                svg.display()
            )))
        }
        _ => Ok(()),
    }
}

/// The text of `arg` if it names a quantum shogi record file.
fn quantum_record(arg: &str) -> Option<String> {
    if super::is_record_file(arg) || !std::path::Path::new(arg).is_file() {
        return None;
    }
    super::read_text(arg).ok().filter(|t| is_quantum_record(t))
}

/// Runs `show`.
pub fn run(a: ShowArgs) -> Result<(), Failure> {
    check_svg_is_not_the_input(&a)?;
    // `-`: stdin, read once, holds any of what a file may hold.
    let stdin = (a.position == "-").then(super::read_stdin).transpose()?;
    let quantum = match &stdin {
        Some(bytes) => std::str::from_utf8(bytes.strip_prefix(super::BOM).unwrap_or(bytes))
            .ok()
            .filter(|t| is_quantum_record(t))
            .map(str::to_string),
        None => quantum_record(&a.position),
    };
    if let Some(text) = quantum {
        let origin = super::error::Origin::file(&a.position);
        let p = position_after(&origin, &text, a.ply)?;
        let pic = p.picture();
        if let Some(path) = &a.svg {
            write_atomically(path, &picture_svg(&pic))?;
        }
        let shown = Shown {
            sfen: None,
            bod: pic.to_string(),
            last_move: p.moves().last().map(|m| m.to_string()),
            svg: a.svg.as_ref().map(|p| p.display().to_string()),
            worlds: Some(worlds_of(&p)),
        };
        if a.json {
            super::emit(output::to_line(&shown));
        } else {
            report(&p, false);
            if let Some(m) = p.moves().last() {
                let mut before = p.clone();
                before.undo();
                super::emit(format!("最終手: {} ({m})", before.move_text(m)));
            }
        }
        return Ok(());
    }
    let read = |rules| match &stdin {
        Some(bytes) => super::stdin_position(bytes, rules, a.ply),
        None => super::read_position(&a.position, rules, a.ply),
    };
    // A tsume position (one side without a king, to move or not: Rules::game_or_tsume)
    // is shown too.
    let pos = read(Rules::STANDARD).or_else(|e| {
        read(Rules::TSUME)
            .or_else(|_| read(Rules::TSUME.swapped()))
            .map_err(|_| e)
    })?;
    let pic = Picture::from_position(&pos);
    if let Some(path) = &a.svg {
        write_atomically(path, &picture_svg(&pic))?;
    }
    let shown = Shown {
        sfen: Some(write_sfen(&pos)),
        bod: pic.to_string(),
        last_move: pos.last_move().map(|m| m.to_string()),
        svg: a.svg.as_ref().map(|p| p.display().to_string()),
        worlds: None,
    };
    if a.json {
        super::emit(output::to_line(&shown));
    } else {
        super::emit(shown.bod.trim_end());
        if let Some(m) = &shown.last_move {
            super::emit(format!("最終手: {m}"));
        }
    }
    Ok(())
}
