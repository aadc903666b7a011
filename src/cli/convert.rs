//! `shogi-lab convert --to kif|ki2|csa|jkf|sfen|usi FILE|-`: converts game records.

use super::Failure;
use crate::notation::csa::{read_csa, write_csa_games};
use crate::notation::jkf::write_jkf;
use crate::notation::kif::{read_kif, write_kif, Flavor};
use crate::notation::record::{decode, Record};
use crate::notation::sfen::{parse_usi_position, write_sfen, write_usi_position};
use crate::output::gen::GenRecord;
use crate::rules::Rules;
use std::io::Read;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// 柿木 KIF (UTF-8).
    Kif,
    /// 柿木 KI2 (UTF-8).
    Ki2,
    /// CSA V2.2.
    Csa,
    /// The SFEN of the position after `--ply` main-line moves (default 0: the start).
    Sfen,
    /// One USI `position … moves …` line per game.
    Usi,
    /// JSON Kifu Format, one JSON object a line per game (Kifu for JS, tsshogi, ShogiHome).
    Jkf,
}

/// Arguments of `shogi-lab convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Output format.
    #[arg(long)]
    pub to: Format,
    /// A KIF/KI2 (UTF-8 or Shift_JIS), CSA or USI file; `-` reads stdin.
    pub file: String,
    /// For `--to sfen`: the number of main-line moves to play first.
    #[arg(long, default_value_t = 0)]
    pub ply: usize,
    /// One JSON object a line per game: `start`, `moves`, `sfen`, `outcome`, `format`, `text`
    /// (specs/schema/gen-records.md).
    #[arg(long)]
    pub json: bool,
}

/// Reads records from bytes: CSA if the name ends in `.csa` or the text looks like CSA,
/// a USI `position` line, else KIF/KI2.
///
/// # Errors
/// A [`Failure::input`] with the located parse error.
pub fn read_records(name: &str, bytes: &[u8]) -> Result<Vec<Record>, Failure> {
    let text = decode(bytes).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let first = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .find(|l| !l.is_empty() && !l.starts_with('\'') && !l.starts_with('#'))
        .unwrap_or("");
    let looks_csa = name.ends_with(".csa")
        || ["V2", "V3", "PI", "P1", "N+", "N-", "$"]
            .iter()
            .any(|p| first.starts_with(p));
    if looks_csa {
        return read_csa(&text).map_err(|e| Failure::input(format!("{name}: {e}")));
    }
    if first.starts_with("position") || first.starts_with("sfen") || first.starts_with("startpos") {
        let mut out = Vec::new();
        for (i, l) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let u = parse_usi_position(l, Rules::STANDARD)
                .or_else(|_| parse_usi_position(l, Rules::TSUME))
                .map_err(|e| Failure::input(format!("{name}: line {}: {e}", i + 1)))?;
            let mut start = u.position.clone();
            for _ in 0..u.moves.len() {
                start.undo();
            }
            out.push(Record::from_moves(start, &u.moves));
        }
        return Ok(out);
    }
    read_kif(&text)
        .map(|r| vec![r])
        .map_err(|e| Failure::input(format!("{name}: {e}")))
}

/// Runs `convert`.
///
/// # Errors
/// Exit 2 on unreadable input or a record error (with its line), or a `--ply` beyond the record.
pub fn run(a: ConvertArgs) -> Result<(), Failure> {
    let bytes = if a.file == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| Failure::input(format!("stdin: {e}")))?;
        b
    } else {
        std::fs::read(&a.file).map_err(|e| Failure::input(format!("{}: {e}", a.file)))?
    };
    let recs = read_records(&a.file, &bytes)?;
    if a.json {
        for r in &recs {
            super::emit(crate::output::to_line(&record_json(r, a.to, a.ply)?));
        }
        return Ok(());
    }
    match a.to {
        Format::Kif | Format::Ki2 => {
            let flavor = if a.to == Format::Kif {
                Flavor::Kif
            } else {
                Flavor::Ki2
            };
            let texts: Vec<String> = recs.iter().map(|r| write_kif(r, flavor)).collect();
            super::emit(texts.join("\n").trim_end());
        }
        Format::Csa => super::emit(write_csa_games(&recs).trim_end()),
        Format::Sfen => {
            for r in &recs {
                let p = r.position_after(a.ply).ok_or_else(|| {
                    Failure::input(format!(
                        "--ply {} but the main line has {} moves",
                        a.ply,
                        r.main.moves.len()
                    ))
                })?;
                super::emit(write_sfen(&p));
            }
        }
        Format::Usi => {
            for r in &recs {
                super::emit(write_usi_position(&r.start, &r.main_moves()));
            }
        }
        Format::Jkf => {
            for r in &recs {
                super::emit(write_jkf(r));
            }
        }
    }
    Ok(())
}

/// One game as a [`GenRecord`]: its start, moves, final position, outcome and the text in `to`.
fn record_json(r: &Record, to: Format, ply: usize) -> Result<GenRecord, Failure> {
    let moves = r.main_moves();
    let game = crate::rules::Game::from_moves(r.start.clone(), &moves)
        .map_err(|(i, e)| Failure::input(format!("move {}: {e}", i + 1)))?;
    let (format, text) = match to {
        Format::Kif => ("kif", write_kif(r, Flavor::Kif)),
        Format::Ki2 => ("ki2", write_kif(r, Flavor::Ki2)),
        Format::Csa => ("csa", write_csa_games(std::slice::from_ref(r))),
        Format::Jkf => ("jkf", write_jkf(r)),
        Format::Usi => ("usi", write_usi_position(&r.start, &moves)),
        Format::Sfen => (
            "sfen",
            write_sfen(&r.position_after(ply).ok_or_else(|| {
                Failure::input(format!(
                    "--ply {ply} but the main line has {} moves",
                    moves.len()
                ))
            })?),
        ),
    };
    Ok(GenRecord {
        start: write_sfen(&r.start),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        sfen: write_sfen(game.position()),
        outcome: game.outcome().into(),
        format,
        text,
    })
}
