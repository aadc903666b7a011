//! The problems of one run: the argument read as a record file, a SFEN or USI text,
//! a file of problem lines or stdin, and cut to a `--shard`.

use crate::cli::error::{InputError, Located, Origin};
use crate::cli::Failure;
use crate::cli::{ByteLines, Opened};
use crate::notation::detect::read_records;
use crate::notation::sfen::write_sfen;
use crate::shard::Shard;
use crate::tsume::problems::{parse_line_bytes, Problem};
use crate::tsume::ProblemError;
use std::path::Path;

/// One problem of a run: ready to load, or unreadable already (a line that is not
/// UTF-8), with why.
pub(super) enum Entry {
    /// A problem to load and solve.
    Ready(Problem),
    /// A problem line that cannot be read: answered with its error, counted as bad.
    Unreadable(Problem, InputError),
}

impl Entry {
    /// The problem, readable or not.
    pub(super) fn problem(&self) -> &Problem {
        match self {
            Entry::Ready(p) | Entry::Unreadable(p, _) => p,
        }
    }
}

/// Problems read one at a time, or the error that ended the input.
type ProblemIter = Box<dyn Iterator<Item = Result<Entry, Failure>>>;

/// The problems of one run, streamed (a large file is never held whole): `total` is
/// known for a single problem, a record, a regular file (counted in a first pass) and a
/// sharded stdin (read whole: a shard needs the count).
pub(super) struct Problems {
    pub(super) iter: ProblemIter,
    pub(super) total: Option<usize>,
    /// Where the problems come from, for error messages.
    pub(super) origin: Origin,
    /// Whether a problem's line and column are places in `origin` (not for a record file).
    pub(super) located: bool,
}

/// The problems `input` names, cut to `shard`, and whether the input states both hands
/// (a record: its defender's hand is taken as given).
///
/// `input` is a file or `-` (stdin) when one by that name exists, else a position
/// (a SFEN, `startpos`, a USI position text). A file or stdin is a KIF/KI2/CSA record
/// or a list of position lines, told apart by its name and content
/// ([`crate::notation::detect::sniff`]); each game of a record is a problem (`PATH` for
/// a record of one game, `PATH#1`, `PATH#2`, … for several; `stdin` for `-`), at `ply`
/// main-line moves.
///
/// # Errors
/// An unreadable record, a game shorter than `ply`, `--ply` without a record, a missing
/// file that is not a position either, and (for a regular file, read whole in a first
/// pass to count its problems, or a sharded stdin) a read error.
pub(super) fn problems_of(
    input: &str,
    ply: usize,
    shard: Option<Shard>,
) -> Result<(Problems, bool), Failure> {
    if input != "-" && !Path::new(input).exists() {
        return position_argument(input, ply, shard).map(|p| (p, false));
    }
    match crate::cli::open_input(input)? {
        Opened::Record(bytes) => Ok((record(input, &bytes, ply, shard)?, true)),
        Opened::Lines(_) if ply != 0 => Err(InputError::new(
            Origin::file(input),
            "--ply needs a KIF/KI2/CSA record, and this input holds position lines",
        )
        .into()),
        Opened::Lines(lines) => Ok((listed(input, lines, shard)?, false)),
    }
}

/// The position argument `input` (no file has that name) as the one problem.
fn position_argument(input: &str, ply: usize, shard: Option<Shard>) -> Result<Problems, Failure> {
    let text = input.trim();
    // A SFEN or USI position has spaces between its fields, but for `startpos`: any
    // other single word is a file name.
    // (`startpos` between spaces only: a line end echoed in an argument is no position.)
    let word = !text.contains(char::is_whitespace) && input.trim_matches(' ') != "startpos";
    if ply != 0 {
        return Err(crate::cli::ply_without_record(input));
    }
    if word {
        return Err(InputError::new(
            Origin::File(input.to_string()),
            "no such file (and not a SFEN)",
        )
        .into());
    }
    let p = Problem {
        id: "1".into(),
        sfen: text.to_string(),
        extra: Vec::new(),
        line: 1,
        column: 1 + input.len() - input.trim_start().len(),
    };
    Ok(single(p, Origin::Argument, true, shard))
}

/// The games of the record in `bytes` (the file `input`, `-` for stdin), each after
/// `ply` main-line moves, cut to `shard`.
fn record(
    input: &str,
    bytes: &[u8],
    ply: usize,
    shard: Option<Shard>,
) -> Result<Problems, Failure> {
    let origin = Origin::file(input);
    let recs =
        read_records(input, bytes).map_err(|e| InputError::in_text(origin.clone(), "", &e))?;
    let several = recs.len() > 1;
    let name = if input == "-" { "stdin" } else { input };
    let mut all = Vec::with_capacity(recs.len());
    for (i, rec) in recs.iter().enumerate() {
        let id = if several {
            format!("{name}#{}", i + 1)
        } else {
            name.to_string()
        };
        let pos = rec.position_after(ply).ok_or_else(|| {
            InputError::new(
                Origin::File(id.clone()),
                crate::cli::ply_beyond_the_line(ply, rec.main.moves.len()),
            )
        })?;
        all.push(Problem {
            id,
            sfen: write_sfen(&pos),
            extra: Vec::new(),
            line: 1,
            column: 1,
        });
    }
    let n = all.len();
    let mine: Vec<Problem> = match shard {
        Some(s) => all[s.items(n)].to_vec(),
        None => all,
    };
    Ok(Problems {
        iter: Box::new(mine.into_iter().map(|p| Ok(Entry::Ready(p)))),
        total: Some(n),
        origin,
        located: false,
    })
}

/// One problem from `origin`, or none when `shard` leaves it out; `located` when its
/// line and column are places in `origin`.
fn single(p: Problem, origin: Origin, located: bool, shard: Option<Shard>) -> Problems {
    let only = shard.map_or(true, |s| !s.items(1).is_empty());
    Problems {
        iter: Box::new(only.then_some(Ok(Entry::Ready(p))).into_iter()),
        total: Some(1),
        located,
        origin,
    }
}

/// The problem lines of file `input` (`-`: stdin), opened as `opened`, cut to `shard`.
fn listed(input: &str, opened: ByteLines, shard: Option<Shard>) -> Result<Problems, Failure> {
    let total = if Path::new(input).is_file() {
        let mut n = 0;
        for p in entries(input, crate::cli::input_byte_lines(input)?) {
            p?;
            n += 1;
        }
        Some(n)
    } else {
        None
    };
    let all = entries(input, opened);
    let (iter, total): (ProblemIter, _) = match (shard, total) {
        (None, _) => (all, total),
        (Some(s), Some(n)) => {
            let mine = s.items(n);
            (
                Box::new(
                    all.enumerate()
                        .filter(move |(i, _)| mine.contains(i))
                        .map(|(_, p)| p),
                ),
                Some(n),
            )
        }
        (Some(s), None) => {
            // A pipe: a shard needs the count, so this input is read whole.
            let mut all = all.collect::<Result<Vec<_>, _>>()?;
            let n = all.len();
            let mine: Vec<_> = all.drain(s.items(n)).collect();
            (Box::new(mine.into_iter().map(Ok)), Some(n))
        }
    };
    Ok(Problems {
        iter,
        total,
        origin: Origin::file(input),
        located: true,
    })
}

/// The problems of the lines `lines` of file `name` (`-`: stdin), one per line,
/// streamed; a line that is not UTF-8 is an [`Entry::Unreadable`] at its line and column.
fn entries(name: &str, lines: ByteLines) -> ProblemIter {
    let origin = Origin::file(name);
    Box::new(lines.filter_map(move |item| match item {
        Ok((n, line)) => parse_line_bytes(&line, n).map(|p| {
            Ok(match p {
                Ok(p) => Entry::Ready(p),
                Err(e) => {
                    let why = InputError::at(origin.clone(), n, Some(e.column), &e);
                    Entry::Unreadable(e.problem, why)
                }
            })
        }),
        Err(e) => Some(Err(e)),
    }))
}

/// Why problem `p` could not be loaded, located at its line and column in `origin` when
/// `located` (a problem line), else at `origin` alone (a record file).
pub(super) fn unreadable(
    origin: &Origin,
    located: bool,
    p: &Problem,
    e: &ProblemError,
) -> InputError {
    if located {
        InputError::in_line(origin.clone(), p.line, p.column, &p.sfen, e)
    } else {
        InputError::new(origin.clone(), e.message())
    }
}
