//! The problems of one run: the argument read as a record file, a SFEN or USI text,
//! a file of problem lines or stdin, and cut to a `--shard`.

use crate::cli::error::{InputError, Located, Origin};
use crate::cli::Failure;
use crate::notation::sfen::write_sfen;
use crate::shard::Shard;
use crate::tsume::problems::{parse_line as read_problem_line, Problem};
use crate::tsume::ProblemError;
use std::path::Path;

/// Problems read one at a time, or the error that ended the input.
type ProblemIter = Box<dyn Iterator<Item = Result<Problem, Failure>>>;

/// The problems of one run, streamed (a large file is never held whole): `total` is
/// known for a single problem, a regular file (counted in a first pass) and a sharded
/// stdin (read whole: a shard needs the count).
pub(super) struct Problems {
    pub(super) iter: ProblemIter,
    pub(super) total: Option<usize>,
    /// Where the problems come from, for error messages.
    pub(super) origin: Origin,
    /// Whether a problem's line and column are places in `origin` (not for a record file).
    pub(super) located: bool,
}

/// The problems `input` names, cut to `shard`, and whether the input states both hands
/// (a record file: its defender's hand is taken as given).
///
/// # Errors
/// An unreadable record, `--ply` without a record, a missing file that is not a SFEN
/// either, and (for a regular file, read whole in a first pass to count its problems,
/// or a sharded stdin) the first bad line.
pub(super) fn problems_of(
    input: &str,
    ply: usize,
    shard: Option<Shard>,
) -> Result<(Problems, bool), Failure> {
    if crate::cli::is_record_file(input) {
        // A record states both hands (KIF: 後手の持駒 / 残りの駒全部), so they are taken as given.
        let pos = crate::cli::record_position(input, ply)?;
        let p = Problem {
            id: input.to_string(),
            sfen: write_sfen(&pos),
            extra: Vec::new(),
            line: 1,
            column: 1,
        };
        return Ok((
            single(p, Origin::File(input.to_string()), false, shard),
            true,
        ));
    }
    if ply != 0 {
        return Err(Failure::input("--ply needs a KIF/KI2/CSA record file"));
    }
    if input != "-" && !Path::new(input).exists() {
        // A SFEN or USI position always has spaces between its fields; a single word is a file name.
        if !input.trim().contains(char::is_whitespace) {
            return Err(InputError::new(
                Origin::File(input.to_string()),
                "no such file (and not a SFEN)",
            )
            .into());
        }
        let p = Problem {
            id: "1".into(),
            sfen: input.trim().to_string(),
            extra: Vec::new(),
            line: 1,
            column: 1 + input.len() - input.trim_start().len(),
        };
        return Ok((single(p, Origin::Argument, true, shard), false));
    }
    Ok((listed(input, shard)?, false))
}

/// One problem from `origin`, or none when `shard` leaves it out; `located` when its
/// line and column are places in `origin`.
fn single(p: Problem, origin: Origin, located: bool, shard: Option<Shard>) -> Problems {
    let only = shard.map_or(true, |s| !s.items(1).is_empty());
    Problems {
        iter: Box::new(only.then_some(Ok(p)).into_iter()),
        total: Some(1),
        located,
        origin,
    }
}

/// The problem lines of file `input` (`-`: stdin), cut to `shard`.
fn listed(input: &str, shard: Option<Shard>) -> Result<Problems, Failure> {
    let total = if Path::new(input).is_file() {
        let mut n = 0;
        for p in lines(input)? {
            p?;
            n += 1;
        }
        Some(n)
    } else {
        None
    };
    let (iter, total): (ProblemIter, _) = match (shard, total) {
        (None, _) => (lines(input)?, total),
        (Some(s), Some(n)) => {
            let mine = s.items(n);
            (
                Box::new(
                    lines(input)?
                        .enumerate()
                        .filter(move |(i, _)| mine.contains(i))
                        .map(|(_, p)| p),
                ),
                Some(n),
            )
        }
        (Some(s), None) => {
            // A pipe: a shard needs the count, so this input is read whole.
            let all = lines(input)?.collect::<Result<Vec<_>, _>>()?;
            let n = all.len();
            let mine: Vec<_> = all[s.items(n)].to_vec();
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

/// The problems of file `name` (`-`: stdin), one per line, streamed.
fn lines(name: &str) -> Result<ProblemIter, Failure> {
    Ok(Box::new(crate::cli::input_lines(name)?.filter_map(
        |item| match item {
            Ok((n, line)) => read_problem_line(&line, n).map(Ok),
            Err(e) => Some(Err(e)),
        },
    )))
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
