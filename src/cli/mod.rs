//! The `shogi-lab` command line: argument parsing, progress bars, text and
//! JSON output. Exit codes (README): 0 an answer (a proved negative answer too:
//! "nomate", "impossible", a contradictory world), 1 no answer within the limits
//! (or `diff` found a disagreement, or `place --sweep` reached its memory limit),
//! 2 bad input (one line on stderr, usage errors too; an input error as
//! `PATH:LINE:COL: message`, [`error`]), 3 internal error.

pub mod certificate;
mod convert;
mod diff;
pub mod error;
mod experiments;
mod gen;
mod moves;
mod perft;
mod place;
pub(crate) mod quantum;
mod show;
mod tsume;

use crate::notation::record::BOM;
use clap::{Parser, Subcommand};
use error::{InputError, Origin};

/// Why a command failed, and the exit code to use.
#[derive(Debug)]
pub struct Failure {
    /// 1 = no answer within limits, 2 = bad input, 3 = internal error.
    pub code: i32,
    /// One readable line.
    pub message: String,
}

impl Failure {
    /// Bad input (exit 2).
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: 2,
            message: message.to_string(),
        }
    }
    /// No answer within limits (exit 1).
    pub fn no_answer(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: 1,
            message: message.to_string(),
        }
    }
    /// Internal failure, e.g. a result that does not match its oracle (exit 3).
    pub fn internal(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: 3,
            message: message.to_string(),
        }
    }
}

impl Failure {
    /// The message as one line: control characters (a `\r` or `\n` echoed from the
    /// input, …) are written as escapes (`\r`, `\n`, `\u{1b}`).
    pub fn line(&self) -> String {
        one_line(&self.message)
    }
}

/// `text` with every control character escaped, so that it prints as one line.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// A command-line usage error as one line (`None` for `--help`/`--version` and for a
/// bare command, which print their help as usual): clap's message up to its first
/// blank line, joined, then a pointer to `--help`.
pub fn usage_error(e: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let text = e.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    Some(format!("{} (see --help)", one_line(message)))
}

/// Parses the command line. Every (sub)command takes negative numbers as values, so
/// `--nodes -1` is reported by the option's own check (`invalid value '-1' for '--nodes
/// <NODES>'`) instead of as an unknown flag `-1`.
pub fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    fn allow_negative(c: clap::Command) -> clap::Command {
        c.allow_negative_numbers(true)
            .mut_subcommands(allow_negative)
    }
    let matches = allow_negative(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// shogi-lab: constraint solving in shogi — rules core and perft, quantum
/// shogi convergence, df-pn tsume, 利かずの駒並べ.
#[derive(Debug, Parser)]
#[command(name = "shogi-lab", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the legal move tree (perft).
    Perft(perft::PerftArgs),
    /// List the legal moves of each SFEN line of a file (for differential tests).
    Moves(moves::MovesArgs),
    /// Convert a game record (KIF, KI2, CSA, USI) to KIF, KI2, CSA, JKF, SFEN or USI.
    Convert(convert::ConvertArgs),
    /// Quantum shogi (量子将棋): converge worlds, exact probabilities, observation.
    Quantum(quantum::QuantumArgs),
    /// 利かずの駒並べ: place pieces so that none is attacked (find, count, list).
    Place(place::PlaceArgs),
    /// Run the paper's experiments and write their tables (to target/experiments/; --out paper/results for the paper).
    Experiments(experiments::ExperimentsArgs),
    /// Solve tsume problems with df-pn (a SFEN or USI position, a file of such lines, or `-`).
    Tsume(tsume::TsumeArgs),
    /// Run as a USI mate engine (`go mate` → `checkmate`, `go` → `bestmove`); the same as `shogi-lab-usi`.
    Usi,
    /// Differential tests of another program: legal moves, perft, mate (exit 1 on a disagreement).
    Diff(diff::DiffArgs),
    /// Seeded, reproducible test vectors as JSON lines: positions, tsume, quantum worlds, records.
    Gen(gen::GenArgs),
    /// Show a position or a record's position: BOD diagram, SVG picture (--svg FILE).
    Show(show::ShowArgs),
    /// Check a tsume certificate (exit 0 valid, 1 invalid naming the first failing node, 2 unreadable).
    CheckCertificate(certificate::CheckArgs),
}

/// Runs a parsed command line.
///
/// # Errors
/// A [`Failure`] with the exit code and one line for the user.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Perft(a) => perft::run(a),
        Command::Experiments(a) => experiments::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Quantum(a) => quantum::run(a),
        Command::Tsume(a) => tsume::run(a),
        Command::Usi => tsume::run_usi(),
        Command::Place(a) => place::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Gen(a) => gen::run(a),
        Command::Show(a) => show::run(a),
        Command::CheckCertificate(a) => certificate::run_check(a),
    }
}

/// Whether `arg` names a game record file (KIF, KI2, CSA) rather than a position text:
/// by its extension, or, for any other name, by its first lines
/// ([`crate::notation::detect::sniff_head`]: a BOD diagram in `p3.txt` is a record).
pub(crate) fn is_record_file(arg: &str) -> bool {
    use crate::notation::detect::{record_extension, sniff_head, Content};
    use std::io::Read;
    let path = std::path::Path::new(arg);
    if !path.is_file() {
        return false;
    }
    if record_extension(arg).is_some() {
        return true;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(64 * 1024).read_to_end(&mut head));
    read.is_ok() && matches!(sniff_head(arg, &head), Content::Record(_))
}

/// The position after `ply` main-line moves of the one record in a KIF/KI2/CSA file (a
/// CSA file of several games is refused: which one is meant?).
pub(crate) fn record_position(path: &str, ply: usize) -> Result<crate::rules::Position, Failure> {
    let bytes = std::fs::read(path).map_err(|e| InputError::new(Origin::file(path), e))?;
    record_position_in(path, &bytes, ply)
}

/// [`record_position`] of the bytes of the file named `path` (`-`: stdin, read already).
fn record_position_in(
    path: &str,
    bytes: &[u8],
    ply: usize,
) -> Result<crate::rules::Position, Failure> {
    let origin = || Origin::file(path);
    let recs = crate::notation::detect::read_records(path, bytes)
        .map_err(|e| InputError::in_text(Origin::file(path), "", &e))?;
    let rec = match recs.as_slice() {
        [] => return Err(InputError::new(origin(), "no game in the file").into()),
        [rec] => rec,
        _ => {
            return Err(InputError::new(
                origin(),
                format!(
                    "{} games in the file (separated by /): this command reads one",
                    recs.len()
                ),
            )
            .into())
        }
    };
    Ok(rec
        .position_after(ply)
        .ok_or_else(|| InputError::new(origin(), ply_beyond_the_line(ply, rec.main.moves.len())))?)
}

/// Why `--ply ply` cannot be played in a main line of `moves` moves.
pub(crate) fn ply_beyond_the_line(ply: usize, moves: usize) -> String {
    let s = if moves == 1 { "" } else { "s" };
    format!("--ply {ply} but the main line has {moves} move{s}")
}

/// The error for `--ply` with a position argument `input` that names no record file
/// (by its extension): a missing file, a directory or another file are named as such.
pub(crate) fn ply_without_record(input: &str) -> Failure {
    if input == "-" {
        return InputError::new(
            Origin::Stdin,
            "--ply needs a KIF/KI2/CSA record; stdin holds a position",
        )
        .into();
    }
    let rules = crate::rules::Rules::KINGS_OPTIONAL;
    if crate::notation::sfen::parse_usi_position(input, rules).is_ok() {
        // `startpos` is one word, but no file name.
        return Failure::input(format!(
            "--ply needs a KIF/KI2/CSA record file; {input:?} is a position"
        ));
    }
    not_a_record_file(input).map_or_else(
        || Failure::input("--ply needs a KIF/KI2/CSA record file"),
        Into::into,
    )
}

/// Reads a position argument: a KIF/KI2/CSA file (after `ply` moves), a SFEN, `startpos`,
/// `sfen …` or a USI `position … moves …` line.
pub(crate) fn read_position(
    text: &str,
    rules: crate::rules::Rules,
    ply: usize,
) -> Result<crate::rules::Position, Failure> {
    if text == "-" {
        return stdin_position(&read_stdin()?, rules, ply);
    }
    if is_record_file(text) {
        return record_position(text, ply);
    }
    if ply != 0 {
        return Err(ply_without_record(text));
    }
    crate::notation::sfen::parse_usi_position(text, rules)
        .map(|p| p.position)
        .map_err(|e| {
            not_a_record_file(text)
                .unwrap_or_else(|| InputError::in_line(Origin::Argument, 1, 1, text, &e))
                .into()
        })
}

/// All of stdin (`-` given where a position or a record is expected), read once.
pub(crate) fn read_stdin() -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::new(Origin::Stdin, e))?;
    Ok(bytes)
}

/// The position that stdin's `bytes` hold: a KIF/KI2/CSA record (after `ply` main-line
/// moves; the format told by content, Shift_JIS or UTF-8), or one SFEN/USI position line
/// (`#` comments and blank lines around it allowed).
pub(crate) fn stdin_position(
    bytes: &[u8],
    rules: crate::rules::Rules,
    ply: usize,
) -> Result<crate::rules::Position, Failure> {
    use crate::notation::detect::{sniff_head, Content};
    if let Content::Record(_) = sniff_head("-", bytes) {
        return record_position_in("-", bytes, ply);
    }
    if ply != 0 {
        return Err(ply_without_record("-"));
    }
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let text = std::str::from_utf8(body).map_err(|e| {
        InputError::new(
            Origin::Stdin,
            format!("neither a record nor a UTF-8 position line: {e}"),
        )
    })?;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((n, line)) = lines.next() else {
        return Err(InputError::new(Origin::Stdin, "no position and no record").into());
    };
    if let Some((m, _)) = lines.next() {
        return Err(InputError::new(
            Origin::Stdin,
            format!("a second position on line {m} (after line {n}): this command reads one"),
        )
        .into());
    }
    crate::notation::sfen::parse_usi_position(line, rules)
        .map(|p| p.position)
        .map_err(|e| InputError::in_line(Origin::Stdin, n, 1, line, &e).into())
}

/// Why a one-word argument that is not a position (a SFEN has spaces; `startpos` is
/// read as a position) names no record file: a missing file, a directory, or a file
/// whose name does not say KIF/KI2/CSA. `None` for a text with spaces.
fn not_a_record_file(text: &str) -> Option<InputError> {
    let word = text.trim();
    if word.is_empty() || word.contains(char::is_whitespace) {
        return None;
    }
    let path = std::path::Path::new(word);
    let why = if path.is_dir() {
        "is a directory, not a record file or a SFEN"
    } else if path.exists() {
        "not a record file (.kif, .kifu, .ki2, .ki2u, .csa) and not a SFEN"
    } else {
        "no such file (and not a SFEN)"
    };
    Some(InputError::new(Origin::File(word.to_string()), why))
}

/// Numbered lines of an input, or the error that ended it.
pub(crate) type Lines = Box<dyn Iterator<Item = Result<(usize, String), Failure>>>;

/// Numbered lines of an input as bytes (not yet decoded), or the error that ended it.
pub(crate) type ByteLines = Box<dyn Iterator<Item = Result<(usize, Vec<u8>), Failure>>>;

/// The lines of a file (or `-`: stdin), read one at a time so that a large input is
/// never held whole: `(1-based line number, text without the line end)`, or a one-line
/// error (`PATH: is a directory`, `PATH:LINE:COL: not UTF-8 text` (COL in bytes), a read
/// error), which ends the lines.
///
/// # Errors
/// A [`Failure`] (exit 2) when the input cannot be opened.
pub(crate) fn input_lines(name: &str) -> Result<Lines, Failure> {
    let origin = Origin::file(name);
    let mut failed = false;
    let mut lines = input_byte_lines(name)?;
    Ok(Box::new(std::iter::from_fn(move || {
        if failed {
            return None;
        }
        let item = lines.next()?.and_then(|(number, buf)| {
            String::from_utf8(buf).map(|t| (number, t)).map_err(|e| {
                let col = e.utf8_error().valid_up_to() + 1;
                InputError::at(origin.clone(), number, Some(col), "not UTF-8 text").into()
            })
        });
        failed = item.is_err();
        Some(item)
    })))
}

/// The lines of a file (or `-`: stdin) as bytes, read one at a time: `(1-based line
/// number, bytes without the line end)`, a byte order mark removed from the first; a
/// read error ends them.
///
/// # Errors
/// A [`Failure`] (exit 2) when the input cannot be opened (`PATH: is a directory`, a
/// missing file).
pub(crate) fn input_byte_lines(name: &str) -> Result<ByteLines, Failure> {
    use std::io::BufRead;
    let origin = Origin::file(name);
    let reader: Box<dyn BufRead> = if name == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        if std::path::Path::new(name).is_dir() {
            return Err(InputError::new(origin, "is a directory, not a file").into());
        }
        let f = std::fs::File::open(name).map_err(|e| InputError::new(origin.clone(), e))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut reader = reader;
    let mut number = 0usize;
    let mut failed = false;
    Ok(Box::new(std::iter::from_fn(move || {
        if failed {
            return None;
        }
        let mut buf = Vec::new();
        number += 1;
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    buf.pop();
                }
                if number == 1 && buf.starts_with(BOM) {
                    // A byte order mark (Notepad's UTF-8) is no part of the first line.
                    buf.drain(..BOM.len());
                }
                Some(Ok((number, buf)))
            }
            Err(e) => {
                failed = true;
                Some(Err(InputError::at(origin.clone(), number, None, e).into()))
            }
        }
    })))
}

/// An input where positions are expected, opened: a game record (read whole), or lines
/// of positions (streamed).
pub(crate) enum Opened {
    /// A KIF/KI2/CSA record: the bytes of the whole input.
    Record(Vec<u8>),
    /// Lines of positions, from the first.
    Lines(ByteLines),
}

/// Opens a file (or `-`: stdin) where positions are expected and tells a game record
/// from lines of positions by its name and first deciding line
/// ([`crate::notation::detect::sniff`]); only the lines up to that one are read before
/// deciding, so a long list is still streamed.
///
/// # Errors
/// A [`Failure`] (exit 2) when the input cannot be opened or read.
pub(crate) fn open_input(name: &str) -> Result<Opened, Failure> {
    use crate::notation::detect::{is_skipped_line, sniff, Content};
    let mut lines = input_byte_lines(name)?;
    let mut head = Vec::new();
    let mut first: Vec<u8> = Vec::new();
    for item in lines.by_ref() {
        let (n, line) = item?;
        let decides = !is_skipped_line(&line);
        if decides {
            first = line.clone();
        }
        head.push((n, line));
        if decides {
            break;
        }
    }
    match sniff(name, &first) {
        Content::Record(_) => {
            let mut bytes = Vec::new();
            for item in head.into_iter().map(Ok).chain(lines) {
                let (_, line) = item?;
                bytes.extend_from_slice(&line);
                bytes.push(b'\n');
            }
            Ok(Opened::Record(bytes))
        }
        _ => Ok(Opened::Lines(Box::new(
            head.into_iter().map(Ok).chain(lines),
        ))),
    }
}

/// The whole text of a file (or `-`: stdin) that must be UTF-8, a leading byte order
/// mark removed: `PATH: reason` when it cannot be read (a directory, a missing file),
/// `PATH:LINE:COL: not UTF-8 text` at the first byte that is not UTF-8 (COL in bytes).
///
/// # Errors
/// A [`Failure`] (exit 2) as above.
pub(crate) fn read_text(name: &str) -> Result<String, Failure> {
    use crate::notation::record::line_and_byte;
    use std::io::Read;
    let origin = Origin::file(name);
    let mut bytes = Vec::new();
    if name == "-" {
        std::io::stdin().read_to_end(&mut bytes)
    } else if std::path::Path::new(name).is_dir() {
        return Err(InputError::new(origin, "is a directory, not a file").into());
    } else {
        std::fs::File::open(name).and_then(|mut f| f.read_to_end(&mut bytes))
    }
    .map_err(|e| InputError::new(origin.clone(), e))?;
    let body = bytes.strip_prefix(BOM).unwrap_or(&bytes);
    match std::str::from_utf8(body) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let (line, col) = line_and_byte(body, e.valid_up_to());
            Err(InputError::at(origin, line, Some(col), "not UTF-8 text").into())
        }
    }
}

/// Prints one line to stdout; a closed pipe (`| head`) ends the program quietly instead of panicking.
pub(crate) fn emit(line: impl std::fmt::Display) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        // Best effort: stderr may be a closed pipe too (`eprintln!` would panic, exit 101).
        let _ = writeln!(std::io::stderr(), "shogi-lab: cannot write output: {e}");
        std::process::exit(3);
    }
}
