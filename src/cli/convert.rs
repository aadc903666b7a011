//! `shogi-lab convert --to kif|ki2|csa|jkf|sfen|usi FILE|-`: converts game records.

mod losses;

use super::error::{InputError, Origin};
use super::Failure;
use crate::notation::csa::write_csa_games;
use crate::notation::detect::read_records;
use crate::notation::jkf::write_jkf;
use crate::notation::kif::{write_kif, Flavor};
use crate::notation::record::Record;
use crate::notation::sfen::{write_sfen, write_usi_position};
use crate::output::game::OutcomeJson;
use crate::output::gen::GenRecord;
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

/// Output encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Encoding {
    /// UTF-8.
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    /// Shift_JIS (CP932), as Kifu for Windows writes `.kif`/`.ki2` and many CSA files.
    #[value(name = "shift_jis", alias = "sjis", alias = "cp932")]
    ShiftJis,
}

/// Arguments of `shogi-lab convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// Output format.
    #[arg(long)]
    pub to: Format,
    /// A KIF/KI2 (UTF-8 or Shift_JIS), CSA or USI file (JKF is written, not read); `-` reads stdin.
    pub file: String,
    /// For `--to sfen`: the number of main-line moves to play first.
    #[arg(long, default_value_t = 0)]
    pub ply: usize,
    /// One JSON object a line per game: `start`, `moves`, `sfen`, `outcome`, `format`, `text`
    /// (specs/schema/gen-records.md).
    #[arg(long)]
    pub json: bool,
    /// Output encoding of KIF, KI2 and CSA text (SFEN and USI are ASCII; JKF and --json are UTF-8 only).
    #[arg(long, value_enum, default_value_t = Encoding::Utf8)]
    pub encoding: Encoding,
}

/// A `#KIF version=… encoding=…` header line made to name the encoding actually written.
fn header_comment(c: &str, encoding: Encoding) -> String {
    let name = match encoding {
        Encoding::Utf8 => "UTF-8",
        Encoding::ShiftJis => "Shift_JIS",
    };
    match c.find("encoding=") {
        Some(i) if c.starts_with("#KIF") => {
            let rest = &c[i + "encoding=".len()..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            format!("{}encoding={name}{}", &c[..i], &rest[end..])
        }
        _ => c.to_string(),
    }
}

/// The line that tells 柿木-convention readers (Kifu for Windows, cshogi) a `.kif` is UTF-8:
/// without it they decode it as CP932.
const UTF8_KIF_HEADER: &str = "#KIF version=2.0 encoding=UTF-8";

/// Puts [`UTF8_KIF_HEADER`] first unless a `#KIF` line (already naming UTF-8) is there.
fn add_utf8_header(comments: &mut Vec<String>) {
    if !comments.iter().any(|c| c.starts_with("#KIF")) {
        comments.insert(0, UTF8_KIF_HEADER.to_string());
    }
}

/// Writes `text` and a line end to stdout in `encoding`.
fn emit_encoded(text: &str, encoding: Encoding) -> Result<(), Failure> {
    match encoding {
        Encoding::Utf8 => super::emit(text),
        Encoding::ShiftJis => {
            let bytes = crate::notation::record::encode_shift_jis(&format!("{text}\n"))
                .ok_or_else(|| {
                    let c = text
                        .chars()
                        .find(|c| {
                            crate::notation::record::encode_shift_jis(&c.to_string()).is_none()
                        })
                        .unwrap_or('?');
                    Failure::input(format!(
                    "the output holds {c:?}, which Shift_JIS cannot encode (use --encoding utf-8)"
                ))
                })?;
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(&bytes).and_then(|_| out.flush()) {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    std::process::exit(0);
                }
                return Err(Failure::internal(format!("cannot write output: {e}")));
            }
        }
    }
    Ok(())
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
            .map_err(|e| InputError::new(Origin::Stdin, e))?;
        b
    } else {
        std::fs::read(&a.file).map_err(|e| InputError::new(Origin::file(&a.file), e))?
    };
    if a.ply != 0 && a.to != Format::Sfen {
        return Err(Failure::input(format!(
            "--ply is for --to sfen (the position after that many moves), not --to {}",
            clap::ValueEnum::to_possible_value(&a.to)
                .map_or_else(String::new, |v| v.get_name().to_string())
        )));
    }
    let mut recs = read_records(&a.file, &bytes)
        .map_err(|e| InputError::in_text(Origin::file(&a.file), "", &e))?;
    let kif_like = matches!(a.to, Format::Kif | Format::Ki2);
    for r in &mut recs {
        for c in &mut r.header_comments {
            *c = header_comment(c, a.encoding);
        }
        if kif_like && a.encoding == Encoding::Utf8 {
            add_utf8_header(&mut r.header_comments);
        }
    }
    if kif_like && !a.json && recs.len() > 1 {
        return Err(Failure::input(format!(
            "{} holds one game a file and the input has {} games: convert to csa, jkf or usi (they hold several), or with --json (one object a game)",
            if a.to == Format::Kif { "KIF" } else { "KI2" },
            recs.len()
        )));
    }
    if a.encoding == Encoding::ShiftJis && (a.json || a.to == Format::Jkf) {
        return Err(Failure::input(
            "JSON (--json, --to jkf) is UTF-8 only: drop --encoding shift_jis",
        ));
    }
    // Printed once the output is written: an error on the way is the one stderr line.
    let notes = losses::notes(&recs, a.to);
    let print_notes = || {
        for n in &notes {
            eprintln!("shogi-lab: note: {n}");
        }
    };
    if a.json {
        for r in &recs {
            super::emit(crate::output::to_line(
                &record_json(r, a.to, a.ply).map_err(|f| Failure {
                    message: InputError::new(Origin::file(&a.file), f.message).to_string(),
                    ..f
                })?,
            ));
        }
        print_notes();
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
            emit_encoded(texts.join("\n").trim_end(), a.encoding)?;
        }
        Format::Csa => {
            emit_encoded(write_csa_games(&recs).trim_end(), a.encoding)?;
        }
        Format::Sfen => {
            for r in &recs {
                let p = r.position_after(a.ply).ok_or_else(|| {
                    InputError::new(
                        Origin::file(&a.file),
                        format!(
                            "--ply {} but the main line has {} moves",
                            a.ply,
                            r.main.moves.len()
                        ),
                    )
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
    print_notes();
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
        outcome: match (game.outcome(), &r.main.end) {
            (crate::rules::Outcome::Ongoing, Some(end)) => {
                OutcomeJson::from_end_word(end.word, game.position().side_to_move())
                    .unwrap_or_else(|| game.outcome().into())
            }
            (o, _) => o.into(),
        },
        format,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_encoding_written() {
        let c = "#KIF version=2.0 encoding=Shift_JIS";
        assert_eq!(
            header_comment(c, Encoding::Utf8),
            "#KIF version=2.0 encoding=UTF-8"
        );
        assert_eq!(header_comment(c, Encoding::ShiftJis), c);
        assert_eq!(header_comment("# other", Encoding::Utf8), "# other");
    }

    #[test]
    fn branches_are_counted_for_the_csa_note() {
        let text = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/specs/records/utf8_bom_branches.kifu"
        ))
        .unwrap();
        let recs = read_records("utf8_bom_branches.kifu", &text).unwrap();
        assert_eq!(losses::branches(&recs[0].main), 2);
    }
}
