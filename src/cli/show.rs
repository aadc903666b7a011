//! `shogi-lab show POSITION|RECORD [--ply N] [--svg FILE]`: a position as a BOD
//! diagram (text) and, on request, an SVG picture.

use super::Failure;
use crate::notation::sfen::write_sfen;
use crate::output::{self, show::Shown};
use crate::render::svg::board_svg;
use crate::rules::Rules;

/// Arguments of `shogi-lab show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// A SFEN (quoted), `startpos`, `position … moves …`, or a KIF/KI2/CSA record file.
    pub position: String,
    /// With a record: the position after this many main-line moves.
    #[arg(long, default_value_t = 0)]
    pub ply: usize,
    /// Also write an SVG diagram to this file (the last move highlighted).
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
    /// Print one JSON object (`sfen`, `bod`, `last_move`, `svg`).
    #[arg(long)]
    pub json: bool,
}

/// Writes `text` to `path` atomically (a temporary file beside it, then a rename).
pub(crate) fn write_atomically(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Failure::input(format!("{}: {e}", path.display()))
        })
}

/// Runs `show`.
pub fn run(a: ShowArgs) -> Result<(), Failure> {
    let pos = super::read_position(&a.position, Rules::STANDARD, a.ply).or_else(|e| {
        // A tsume position (no attacker king) is shown too.
        super::read_position(&a.position, Rules::TSUME, a.ply).map_err(|_| e)
    })?;
    let last = pos.last_move();
    if let Some(path) = &a.svg {
        write_atomically(path, &board_svg(&pos.to_setup(), last))?;
    }
    let shown = Shown {
        sfen: write_sfen(&pos),
        bod: pos.to_string(),
        last_move: last.map(|m| m.to_string()),
        svg: a.svg.as_ref().map(|p| p.display().to_string()),
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
