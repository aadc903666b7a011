//! `shogi_lab.read_record` / `write_record`: KIF, KI2, CSA and USI game records (and JKF,
//! written only: the crate reads no JKF).

use super::{argument_error, input_error};
use crate::input_error::{InputError, Origin};
use crate::notation::csa::write_csa;
use crate::notation::detect::read_records;
use crate::notation::jkf::write_jkf;
use crate::notation::kif::{write_kif, Flavor};
use crate::notation::record::Record;
use crate::notation::sfen::{
    parse_game_or_tsume, resolve_usi_move, write_sfen, write_usi_position,
};
use pyo3::prelude::*;

/// The first game of a KIF/KI2/CSA/USI file, read as the CLI reads it
/// ([`read_records`]).
pub(crate) fn first_record(path: &std::path::Path) -> PyResult<Record> {
    let path = path.to_string_lossy();
    let path = path.as_ref();
    // Errors as the CLI writes them ([`InputError`]): `PATH: message`, or
    // `PATH:LINE[:COL]: message` for a record error.
    let file = || Origin::File(path.to_string());
    let bytes = std::fs::read(path).map_err(|e| input_error(InputError::new(file(), e)))?;
    let recs = read_records(path, &bytes)
        .map_err(|e| input_error(InputError::at(file(), e.line, e.column, e.kind)))?;
    recs.into_iter()
        .next()
        .ok_or_else(|| input_error(InputError::new(file(), "no game in the file")))
}

/// `(start_sfen, moves, headers)`: a record as Python sees it.
type RecordTuple = (String, Vec<String>, Vec<(String, String)>);

/// `(start_sfen, moves, headers)` of the first game in a record file (main line, USI moves);
/// `path` a `str` or any `os.PathLike` (`pathlib.Path`).
#[pyfunction]
pub fn read_record(path: std::path::PathBuf) -> PyResult<RecordTuple> {
    let rec = first_record(&path)?;
    Ok((
        write_sfen(&rec.start),
        rec.main_moves().iter().map(|m| m.to_string()).collect(),
        rec.headers.clone(),
    ))
}

/// The record text of a game given by its start SFEN and USI moves, in `to`: `kif`, `ki2`,
/// `csa`, `jkf` (one JSON object and a newline, as `shogi-lab convert --to jkf` writes
/// it: the same [`write_jkf`]) or `usi`.
#[pyfunction]
#[pyo3(signature = (start, moves, to="kif", headers=None))]
pub fn write_record(
    start: &str,
    moves: Vec<String>,
    to: &str,
    headers: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    // A game's start, or a tsume problem's (one side without a king, to move or not), as
    // a record's reader and `Position` take them (`Rules::game_or_tsume`).
    let mut pos = parse_game_or_tsume(start)
        .map_err(|e| argument_error("bad start position", start, &e))?
        .position;
    let begin = pos.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = resolve_usi_move(&pos, text)
            .map_err(|e| input_error(format!("move {} {text:?}: {e}", i + 1)))?;
        pos.play_unchecked(m);
        played.push(m);
    }
    let mut rec = Record::from_moves(begin.clone(), &played);
    if let Some(h) = headers {
        // A header is one line `key：value` (`key:value` in CSA): a line break, an empty
        // key or a `：` in it would write a record that reads back differently.
        let one_line = |t: &str| !t.contains(['\n', '\r']);
        if let Some((k, v)) = h
            .iter()
            .find(|(k, v)| k.is_empty() || k.contains('：') || !one_line(k) || !one_line(v))
        {
            return Err(input_error(format!(
                "bad header {k:?}: {v:?}: a header is a key (not empty, no '：') and a value, each on one line"
            )));
        }
        rec.headers = h;
    }
    Ok(match to {
        "kif" => write_kif(&rec, Flavor::Kif),
        "ki2" => write_kif(&rec, Flavor::Ki2),
        "csa" => write_csa(&rec),
        "jkf" => write_jkf(&rec) + "\n",
        "usi" => write_usi_position(&begin, &played) + "\n",
        other => {
            return Err(input_error(format!(
                "bad format {other:?}: expected \"kif\", \"ki2\", \"csa\", \"jkf\" or \"usi\""
            )))
        }
    })
}
