//! `shogi-lab tsume` and `shogi-lab usi`.
//!
//! A tsume run reads its problems ([`problems`]), decides where certificates go
//! ([`cert_paths`]), solves and certifies each problem ([`solve`]), prints each answer
//! ([`render`]) around a progress bar ([`progress`]), and counts what decides the exit
//! ([`tally`]).

mod cert_paths;
mod problems;
mod progress;
mod render;
mod solve;
mod tally;

use super::certificate::certified_or_failure;
use super::{emit, Failure};
use crate::rules::Position;
use crate::tsume::problems::Problem;
use crate::tsume::{load_problem, Outcome, SolverOptions};
use cert_paths::CertificatePaths;
use problems::{problems_of, unreadable, Entry};
use progress::Progress;
use render::Answer;
use solve::{defender_hand, solve_and_certify, solver_options};
use tally::{no_problems, Tally};

/// Arguments of `shogi-lab tsume`.
#[derive(Debug, clap::Args)]
pub struct TsumeArgs {
    /// A SFEN (quoted) or a USI position: `sfen <SFEN>`, `startpos`, `position sfen <SFEN>
    /// moves …`, `[position] startpos moves …` (the position after the moves is the problem;
    /// a bad move is an error naming its number); a KIF/KI2/CSA record file (e.g. a BOD tsume
    /// diagram; hands as written there; each game of a CSA file of several is a problem,
    /// `PATH#1`, `PATH#2`, …); a file with one SFEN or USI position per line (`id<TAB>…`
    /// allowed, `#` comments); or `-` for stdin (a record or such lines). A file of any name
    /// and stdin are told a record or a list by their content.
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
    /// with one problem PATH is the file, with several (or a stream: stdin, a pipe) a
    /// directory of `<id>.jsonl` files. In the default mode a proven-shortest mate's length
    /// certificate (version 4) goes beside it, `.length.jsonl` for `.jsonl`. Checked before
    /// solving: an existing file must be a regular one (a symbolic link is written
    /// through), its directory must exist.
    #[arg(long, value_name = "PATH")]
    pub certificate: Option<std::path::PathBuf>,
    /// Skip the in-process certificate check (`"certified": null`); certificates asked
    /// for with --certificate are still written, unchecked.
    #[arg(long)]
    pub no_certify: bool,
    /// Graph nodes each half of a proven length's certificate may hold [default:
    /// 8000000, fewer when the machine's memory cannot hold both halves]: a larger number
    /// certifies harder lengths at about 640 bytes a node, checked against the machine's
    /// memory.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub certificate_nodes: Option<u64>,
}

/// A time in seconds: finite and not negative.
fn parse_seconds(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !t.is_finite() || !(0.0..=crate::tsume::MAX_TIME_SECS).contains(&t) {
        return Err(format!(
            "{s:?}: the time must be a finite number of seconds between 0 and {:e}",
            crate::tsume::MAX_TIME_SECS
        ));
    }
    Ok(t)
}

/// Runs `shogi-lab tsume`.
///
/// # Errors
/// Exit 2 for bad input, exit 1 when some problem is not solved (mate or no-mate) within limits.
pub fn run(a: TsumeArgs) -> Result<(), Failure> {
    let (problems, hands_given) = problems_of(&a.input, a.ply, a.shard)?;
    if problems.total == Some(0) {
        return Err(no_problems(&problems.origin));
    }
    let cert_paths = match &a.certificate {
        Some(path) => {
            // The default mode's proven-shortest mates get a length certificate beside.
            let length = !a.count_futile && !a.any_mate;
            if problems.total.is_some_and(|n| n > 1) && std::path::Path::new(&a.input).is_file() {
                // A file is read again, whole: every id is checked before the first solve.
                let all = problems_of(&a.input, a.ply, None)?.0.iter;
                CertificatePaths::check_ids(
                    path,
                    length,
                    all.map(|e| e.map(|e| e.problem().clone())),
                )?;
            }
            Some(CertificatePaths::new(path, problems.total, length)?)
        }
        None => None,
    };
    if let Some(n) = a.certificate_nodes {
        crate::tsume::certificate::check_length_nodes(n as usize)
            .map_err(|e| Failure::input(e.to_string()))?;
    }
    let mut session = Session {
        opts: solver_options(&a)?,
        args: &a,
        cert_paths,
        progress: Progress::new(problems.total),
        tally: Tally::default(),
    };
    let defender = defender_hand(&a, hands_given);
    for entry in problems.iter {
        session.tally.read();
        let (p, err) = match entry? {
            Entry::Ready(p) => match load_problem(&p.sfen, defender) {
                Ok(pos) => {
                    session.solve(&p, &pos)?;
                    continue;
                }
                Err(e) => {
                    let err = unreadable(&problems.origin, problems.located, &p, &e);
                    (p, err)
                }
            },
            Entry::Unreadable(p, err) => (p, err),
        };
        // Printed as it comes, not through the bar.
        emit(render::unreadable(&p, &err, a.json));
        session.tally.unreadable(err);
    }
    session.progress.finish();
    session.tally.finish(problems.total, &problems.origin)
}

/// What the problems of a run share: the arguments, the solver's options, where the
/// certificates go, the progress bar and the counts.
struct Session<'a> {
    args: &'a TsumeArgs,
    opts: SolverOptions,
    cert_paths: Option<CertificatePaths>,
    progress: Progress,
    tally: Tally,
}

impl Session<'_> {
    /// Solves problem `p` (loaded as `pos`), certifies the answer (the certificate
    /// written where `--certificate` says), prints it (after the board with `--show`),
    /// and counts it.
    ///
    /// # Errors
    /// A bad certificate path for `p` (exit 2, before solving); after the answer is
    /// printed, a certificate that could not be written (exit 3).
    fn solve(&mut self, p: &Problem, pos: &Position) -> Result<(), Failure> {
        let a = self.args;
        if a.show && !a.json {
            emit(pos.to_string());
        }
        let cert_path = match self.cert_paths.as_mut() {
            Some(c) => Some(c.path_for(p)?),
            None => None,
        };
        let cert_path = cert_path.as_deref();
        let progress = &self.progress;
        let (r, cert, solve_ms) = solve_and_certify(
            pos,
            &self.opts,
            cert_path,
            !a.no_certify,
            a.certificate_nodes.map(|n| n as usize),
            |c| progress.searching(&p.id, c),
        )?;
        let option_path = a.certificate.as_deref().unwrap_or(std::path::Path::new(""));
        let (cert, unwritten) = certified_or_failure(cert, option_path)?;
        let cert = cert.with_cap_hint("--certificate-nodes");
        // Under --max-plies a refutation is proven: "no mate within N plies" answers the
        // question asked (README's exit-code rule: a proved negative answer exits 0).
        let refuted = r.outcome == Outcome::Unknown
            && r.mate_within.is_none()
            && self
                .opts
                .max_plies
                .is_some_and(|n| r.no_mate_within == Some(n));
        self.tally.answered(r.outcome, refuted, &cert);
        let answer = Answer {
            problem: p,
            pos,
            result: &r,
            cert: &cert,
            solve_ms,
            cert_path,
            unwritten: unwritten.as_ref().map(|(file, _)| file.as_path()),
        };
        for msg in render::warnings(&answer) {
            self.progress.warn(msg);
        }
        self.progress.emit(if a.json {
            render::json(&answer, a)
        } else {
            render::text(&answer, a)
        });
        self.progress.advance(&p.id, r.outcome);
        match unwritten {
            // The answer is out; a certificate that could not be written ends the run.
            Some((_, failure)) => {
                self.progress.finish();
                Err(failure)
            }
            None => Ok(()),
        }
    }
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
