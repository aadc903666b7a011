//! `shogi-lab tsume` and `shogi-lab usi`.

use super::certificate::{certify_answer, ms_since, now, Certified};
use super::error::{InputError, Located, Origin};
use super::{emit, Failure};
use crate::notation::japanese::ki2_line;
use crate::notation::sfen::write_sfen;
use crate::output::tsume::TsumeOut;
use crate::tsume::problems::{parse_line as read_problem_line, Problem};
use crate::tsume::{load_problem, DefenderHand, Outcome, SolveResult, Solver, SolverOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `shogi-lab tsume`.
#[derive(Debug, clap::Args)]
pub struct TsumeArgs {
    /// A SFEN (quoted) or a USI position: `sfen <SFEN>`, `position sfen <SFEN> moves …`,
    /// `[position] startpos moves …` (the position after the moves is the problem; a bad move
    /// is an error naming its number); a KIF/KI2/CSA record (e.g. a BOD tsume diagram; hands
    /// as written there); a file with one SFEN or USI position per line (`id<TAB>…` allowed,
    /// `#` comments); or `-` for stdin (the same lines).
    pub input: String,
    /// Node limit per problem (reproducible, unlike --time).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Wall-clock time limit per problem, in seconds (finite, ≥ 0).
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Transposition table size in MiB (checked against the memory the machine has).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub memory: u64,
    /// Report the first mate proven, of any length, instead of the solution (the
    /// proven-shortest line, 攻方最短・玉方最長; see specs/tsume.md).
    #[arg(long)]
    pub any_mate: bool,
    /// The default (kept for old scripts): the proven-shortest line.
    #[arg(long, hide = true, conflicts_with = "any_mate")]
    pub shortest: bool,
    /// Count 無駄合 (futile interpositions) as replies and plies: the shortest mate as
    /// KomoringHeights (MinLength) and the 詰将棋500万問 data count it.
    #[arg(long, conflicts_with = "any_mate")]
    pub count_futile: bool,
    /// Look for other mating first moves (余詰) with this many nodes each.
    #[arg(long, default_value_t = 0)]
    pub alt_nodes: u64,
    /// Only look for mates of at most this many plies.
    #[arg(long)]
    pub max_plies: Option<u16>,
    /// Keep the defender's hand as given instead of giving it all remaining pieces.
    #[arg(long)]
    pub defender_hand_as_given: bool,
    /// One JSON object per problem.
    #[arg(long)]
    pub json: bool,
    /// Print each problem's board (BOD diagram) before its answer (text output).
    #[arg(long)]
    pub show: bool,
    /// Solve only part I of N (0-based) of the problem list: a contiguous block,
    /// so the N parts' outputs concatenated in order are the whole output.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::shard::Shard>,
    /// With a KIF/KI2/CSA file: solve the position after this many main-line moves.
    #[arg(long, default_value_t = 0)]
    pub ply: usize,
    /// Write the certificate of every mate and nomate (JSON lines, specs/certificate.md):
    /// with one problem PATH is the file, with several a directory of `<id>.jsonl` files.
    /// In the default mode a proven-shortest mate's length certificate (version 3) goes
    /// beside it, `.length.jsonl` for `.jsonl`.
    #[arg(long, value_name = "PATH")]
    pub certificate: Option<std::path::PathBuf>,
    /// Skip the in-process certificate check (`"certified": null`); certificates asked
    /// for with --certificate are still written, unchecked.
    #[arg(long)]
    pub no_certify: bool,
}

/// A time in seconds: finite and not negative.
fn parse_seconds(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !t.is_finite() || !(0.0..=1e9).contains(&t) {
        return Err(format!(
            "{s:?}: the time must be a finite number of seconds between 0 and 1e9"
        ));
    }
    Ok(t)
}

/// Problems read one at a time, or the error that ended the input.
type ProblemIter = Box<dyn Iterator<Item = Result<Problem, Failure>>>;

/// The problems of one run, streamed (a large file is never held whole): `total` is
/// known for a single problem, a regular file (counted in a first pass) and a sharded
/// stdin (read whole: a shard needs the count).
struct Problems {
    iter: ProblemIter,
    total: Option<usize>,
    /// Where the problems come from, for error messages.
    origin: Origin,
    /// Whether a problem's line and column are places in `origin` (not for a record file).
    located: bool,
}

fn problems_of(
    input: &str,
    ply: usize,
    shard: Option<crate::shard::Shard>,
) -> Result<(Problems, bool), Failure> {
    let given = |p: Problem, hands_given: bool, origin: Origin| {
        let only = shard.map_or(true, |s| !s.items(1).is_empty());
        (
            Problems {
                iter: Box::new(only.then_some(Ok(p)).into_iter()),
                total: Some(1),
                located: !hands_given,
                origin,
            },
            hands_given,
        )
    };
    if super::is_record_file(input) {
        // A record states both hands (KIF: 後手の持駒 / 残りの駒全部), so they are taken as given.
        let pos = super::record_position(input, ply)?;
        return Ok(given(
            Problem {
                id: input.to_string(),
                sfen: write_sfen(&pos),
                extra: Vec::new(),
                line: 1,
                column: 1,
            },
            true,
            Origin::File(input.to_string()),
        ));
    }
    if ply != 0 {
        return Err(Failure::input("--ply needs a KIF/KI2/CSA record file"));
    }
    let path = std::path::Path::new(input);
    if input != "-" && !path.exists() {
        // A SFEN or USI position always has spaces between its fields; a single word is a file name.
        if !input.trim().contains(char::is_whitespace) {
            return Err(InputError::new(
                Origin::File(input.to_string()),
                "no such file (and not a SFEN)",
            )
            .into());
        }
        return Ok(given(
            Problem {
                id: "1".into(),
                sfen: input.trim().to_string(),
                extra: Vec::new(),
                line: 1,
                column: 1 + input.len() - input.trim_start().len(),
            },
            false,
            Origin::Argument,
        ));
    }
    let lines = |name: &str| -> Result<ProblemIter, Failure> {
        Ok(Box::new(super::input_lines(name)?.filter_map(
            |item| match item {
                Ok((n, line)) => read_problem_line(&line, n).map(Ok),
                Err(e) => Some(Err(e)),
            },
        )))
    };
    let total = if path.is_file() {
        let mut n = 0;
        for p in lines(input)? {
            p?;
            n += 1;
        }
        Some(n)
    } else {
        None
    };
    match (shard, total) {
        (None, _) => Ok((
            Problems {
                iter: lines(input)?,
                total,
                origin: Origin::file(input),
                located: true,
            },
            false,
        )),
        (Some(s), Some(n)) => {
            let mine = s.items(n);
            Ok((
                Problems {
                    iter: Box::new(
                        lines(input)?
                            .enumerate()
                            .filter(move |(i, _)| mine.contains(i))
                            .map(|(_, p)| p),
                    ),
                    total: Some(n),
                    origin: Origin::file(input),
                    located: true,
                },
                false,
            ))
        }
        (Some(s), None) => {
            // A pipe: a shard needs the count, so this input is read whole.
            let all = lines(input)?.collect::<Result<Vec<_>, _>>()?;
            let n = all.len();
            let mine: Vec<_> = all[s.items(n)].to_vec();
            Ok((
                Problems {
                    iter: Box::new(mine.into_iter().map(Ok)),
                    total: Some(n),
                    origin: Origin::file(input),
                    located: true,
                },
                false,
            ))
        }
    }
}

/// Where each problem's certificate goes: with one problem `--certificate PATH` itself,
/// with several (or a stream of unknown length) `PATH/<id>.jsonl`, the directory created
/// first; ids must be distinct plain file names. Decided on the whole input before any
/// `--shard`, so every shard writes alike.
struct CertificatePaths {
    path: PathBuf,
    single: bool,
    seen: std::collections::HashSet<String>,
}

impl CertificatePaths {
    fn new(path: &Path, total: Option<usize>) -> Result<CertificatePaths, Failure> {
        let single = total == Some(1);
        if !single {
            std::fs::create_dir_all(path)
                .map_err(|e| Failure::input(format!("--certificate {}: {e}", path.display())))?;
        }
        Ok(CertificatePaths {
            path: path.to_path_buf(),
            single,
            seen: Default::default(),
        })
    }

    fn path_for(&mut self, p: &Problem) -> Result<PathBuf, Failure> {
        if self.single {
            return Ok(self.path.clone());
        }
        let plain = !p.id.is_empty()
            && p.id != "."
            && p.id != ".."
            && !p
                .id
                .chars()
                .any(|c| c == '/' || c == '\\' || c.is_control());
        if !plain {
            return Err(Failure::input(format!(
                "line {}: id {:?} is not a plain file name for --certificate",
                p.line, p.id
            )));
        }
        if !self.seen.insert(p.id.clone()) {
            return Err(Failure::input(format!(
                "line {}: id {:?} twice: --certificate needs distinct ids",
                p.line, p.id
            )));
        }
        Ok(self.path.join(format!("{}.jsonl", p.id)))
    }
}

/// Solves one problem and certifies the answer, on a thread with a deep stack
/// (ミクロコスモス needs recursion over 1 500 plies, in the search and in the extraction);
/// also returns the solve's CPU time in ms (wall clock where the platform has no thread clock).
fn solve_and_certify(
    pos: &crate::rules::Position,
    opts: &SolverOptions,
    path: Option<&Path>,
    check: bool,
) -> Result<(SolveResult<crate::rules::Move>, Certified, f64), Failure> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || {
                let mut solver = Solver::try_new(opts.clone())
                    .map_err(|e| Failure::input(format!("--memory: {e}")))?;
                let t = now();
                let r = solver.solve(pos);
                let solve_ms = ms_since(t);
                let c = certify_answer(&solver, pos, &r, path, check)?;
                Ok((r, c, solve_ms))
            })
            .map_err(|e| Failure::internal(format!("cannot start the solver thread: {e}")))?
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Runs `shogi-lab tsume`.
///
/// # Errors
/// Exit 2 for bad input, exit 1 when some problem is not solved (mate or no-mate) within limits.
pub fn run(a: TsumeArgs) -> Result<(), Failure> {
    let (problems, hands_given) = problems_of(&a.input, a.ply, a.shard)?;
    let no_problems = || {
        Failure::from(InputError::new(
            problems.origin.clone(),
            "no problems in the input (empty, or only blank and # lines)",
        ))
    };
    if problems.total == Some(0) {
        return Err(no_problems());
    }
    let mut cert_paths = match &a.certificate {
        Some(path) => Some(CertificatePaths::new(path, problems.total)?),
        None => None,
    };
    crate::resources::check_memory_request(a.memory << 20, "--memory")
        .map_err(|e| Failure::input(e.to_string()))?;
    let opts = SolverOptions {
        nodes: a.nodes,
        time: a.time.map(Duration::from_secs_f64),
        memory_mib: a.memory as usize,
        shortest: !a.any_mate,
        count_futile: a.count_futile,
        alt_nodes: a.alt_nodes,
        max_plies: a.max_plies,
        control: None,
    };
    let defender = if a.defender_hand_as_given || hands_given {
        DefenderHand::AsGiven
    } else {
        DefenderHand::Remaining
    };
    let bar = (problems.total != Some(1)).then(|| {
        let b = match problems.total {
            Some(n) => indicatif::ProgressBar::new(n as u64),
            None => indicatif::ProgressBar::no_length(),
        };
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
                .expect("template"),
        );
        b
    });
    let mut unsolved = 0usize;
    let mut bad = 0usize;
    let mut first_bad: Option<InputError> = None;
    let mut seen = 0usize;
    let mut uncertified = 0usize;
    for p in problems.iter {
        let p = &p?;
        seen += 1;
        let pos = match load_problem(&p.sfen, defender) {
            Ok(pos) => pos,
            Err(e) => {
                bad += 1;
                let err = if problems.located {
                    InputError::in_line(problems.origin.clone(), p.line, p.column, &p.sfen, &e)
                } else {
                    InputError::new(problems.origin.clone(), e.message())
                };
                if a.json {
                    emit(crate::output::to_line(&TsumeOut {
                        id: p.id.clone(),
                        sfen: p.sfen.clone(),
                        result: "error",
                        plies: None,
                        shortest: None,
                        usi: None,
                        kif: None,
                        no_mate_within: None,
                        mate_within: None,
                        alternatives: None,
                        certified: None,
                        shortest_certified: None,
                        nodes: 0,
                        time_ms: 0,
                        error: Some(err.to_string()),
                    }));
                } else {
                    emit(format!("{}: bad input: {err}", p.id));
                }
                first_bad.get_or_insert(err);
                continue;
            }
        };
        if a.show && !a.json {
            emit(pos.to_string());
        }
        let cert_path = match cert_paths.as_mut() {
            Some(c) => Some(c.path_for(p)?),
            None => None,
        };
        let (r, cert, solve_ms) =
            solve_and_certify(&pos, &opts, cert_path.as_deref(), !a.no_certify)?;
        if r.outcome == Outcome::Unknown {
            unsolved += 1;
        }
        if let Some(why) = &cert.length_reason {
            let msg = format!("{}: shortest length not certified: {why}", p.id);
            match &bar {
                Some(b) => b.suspend(|| eprintln!("{msg}")),
                None => eprintln!("{msg}"),
            }
        }
        if let Some(why) = &cert.reason {
            uncertified += 1;
            let msg = format!("{}: {} not certified: {why}", p.id, r.outcome.as_str());
            match &bar {
                Some(b) => b.suspend(|| eprintln!("{msg}")),
                None => eprintln!("{msg}"),
            }
        }
        let ms = r.stats.time.as_millis() as u64;
        let plies = (r.outcome == Outcome::Mate).then_some(r.line.len());
        if a.json {
            let mate = r.outcome == Outcome::Mate;
            let o = TsumeOut {
                id: p.id.clone(),
                sfen: write_sfen(&pos),
                result: r.outcome.as_str(),
                plies,
                shortest: if mate { r.shortest } else { None },
                usi: mate.then(|| r.line_usi()),
                kif: mate.then(|| ki2_line(&pos, &r.line)),
                no_mate_within: r.no_mate_within,
                mate_within: if mate { r.mate_within } else { None },
                alternatives: (a.alt_nodes > 0)
                    .then(|| r.alternatives.iter().map(|m| m.to_string()).collect()),
                certified: cert.certified,
                shortest_certified: cert.shortest_certified,
                nodes: r.stats.nodes,
                time_ms: ms,
                error: None,
            };
            let line = crate::output::to_line(&o);
            match &bar {
                Some(b) => b.suspend(|| emit(line)),
                None => emit(line),
            }
        } else {
            let mut lines = vec![format!("{}: {}", p.id, r.outcome.as_str())];
            if let Some(n) = plies {
                lines.push(format!(
                    "  plies {n}{}",
                    match (r.shortest, r.no_mate_within, r.mate_within) {
                        (Some(true), _, _) => " (shortest)".to_string(),
                        (Some(false), Some(low), Some(l)) if l <= low + 2 => format!(
                            " (the shortest mate is proven to have {l} plies; this line is not one of longest defences)"
                        ),
                        (Some(false), _, _) => " (shortest not proven within limits)".to_string(),
                        (None, _, _) => String::new(),
                    }
                ));
                lines.push(format!("  line  {}", ki2_line(&pos, &r.line)));
                lines.push(format!("  usi   {}", r.line_usi()));
            }
            if a.alt_nodes > 0 && r.outcome == Outcome::Mate {
                let alts: Vec<String> = r.alternatives.iter().map(|m| m.to_string()).collect();
                lines.push(format!(
                    "  余詰  {}",
                    if alts.is_empty() {
                        "none found".to_string()
                    } else {
                        alts.join(" ")
                    }
                ));
            }
            if let Some(n) = r.no_mate_within {
                lines.push(format!("  no mate within {n} plies"));
            }
            match r.mate_within {
                Some(l) if r.outcome == Outcome::Mate && plies != Some(usize::from(l)) => {
                    lines.push(format!("  mate within {l} plies (proven)"));
                }
                _ => {}
            }
            match cert.certified {
                Some(true) => lines.push(format!(
                    "  certified  {} nodes  {} bytes  cpu ms: solve {:.1} extraction {:.1} check {:.1}{}",
                    cert.nodes,
                    cert.bytes,
                    solve_ms,
                    cert.extract_ms,
                    cert.check_ms,
                    cert_path
                        .as_ref()
                        .map(|p| format!("  {}", p.display()))
                        .unwrap_or_default()
                )),
                Some(false) => lines.push("  NOT certified (reason on stderr)".into()),
                None if cert.nodes > 0 => lines.push(format!(
                    "  certificate (unchecked)  {} nodes  {} bytes  cpu ms: solve {:.1} extraction {:.1}{}",
                    cert.nodes,
                    cert.bytes,
                    solve_ms,
                    cert.extract_ms,
                    cert_path
                        .as_ref()
                        .map(|p| format!("  {}", p.display()))
                        .unwrap_or_default()
                )),
                None => {}
            }
            match (cert.shortest_certified, plies) {
                (Some(true), Some(n)) => lines.push(format!(
                    "  shortest certified: mate within {n} plies, no mate within {}{}  {} nodes  {} bytes  cpu ms: extraction {:.1} check {:.1}",
                    n.saturating_sub(2),
                    if a.count_futile {
                        ""
                    } else {
                        " (無駄合 not counted)"
                    },
                    cert.length_nodes,
                    cert.length_bytes,
                    cert.length_ms.0,
                    cert.length_ms.1,
                )),
                (Some(false), _) => {
                    lines.push("  shortest NOT certified (reason on stderr)".into())
                }
                _ => {}
            }
            lines.push(format!(
                "  nodes {}  time {:.3} s",
                r.stats.nodes,
                r.stats.time.as_secs_f64()
            ));
            let text = lines.join("\n");
            match &bar {
                Some(b) => b.suspend(|| emit(text)),
                None => emit(text),
            }
        }
        if let Some(b) = &bar {
            b.inc(1);
            b.set_message(format!("{} {}", p.id, r.outcome.as_str()));
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if problems.total.is_none() && seen == 0 {
        return Err(no_problems());
    }
    if uncertified > 0 {
        eprintln!("{uncertified} of {seen} answer(s) not certified");
    }
    if let Some(first) = first_bad {
        // The first bad problem, located; the others are on stdout.
        let more = match bad {
            1 => String::new(),
            n => format!(" (and {} more problem(s) that could not be read)", n - 1),
        };
        return Err(Failure::input(format!("{first}{more}")));
    }
    if unsolved > 0 {
        return Err(Failure::no_answer(format!(
            "{unsolved} of {seen} problem(s) unknown within limits"
        )));
    }
    Ok(())
}

/// Runs `shogi-lab usi` on stdin/stdout.
///
/// # Errors
/// Exit 3 on an I/O error.
pub fn run_usi() -> Result<(), Failure> {
    match crate::tsume::usi::run_usi(std::io::stdin(), std::io::stdout()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::internal(format!("usi: cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
