//! `shogi-lab diff moves|perft|mate`: differential tests of another program.

use super::Failure;
use crate::output::{
    self,
    diff::{DiffMateLine, DiffMateSummary, DiffMoves, DiffPerft, MateVerdictCounts},
};
use crate::testdata::diff_mate::{MateComparison, Verdict};
use crate::testdata::diff_moves::diff_moves;
use crate::testdata::diff_perft::diff_perft;
use crate::testdata::engine::LineEngine;
use crate::testdata::usi_engine::UsiEngine;
use crate::testdata::walk::Starts;
use std::time::Instant;

/// Arguments of `shogi-lab diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// What to compare.
    #[command(subcommand)]
    pub what: DiffCommand,
}

/// The differential tests.
#[derive(Debug, clap::Subcommand)]
pub enum DiffCommand {
    /// Legal moves: CMD reads one SFEN a line and prints its legal USI moves, space-separated, a line.
    ///
    /// On a mismatch (exit 1) the first disagreeing position is reported with a shrunk
    /// move path from its walk's start. The shrunk path P is legal and ends at a
    /// disagreement; no proper prefix of P disagrees; and, for P of at most 160 plies, no
    /// legal path made from P by deleting a block of consecutive moves of even length or
    /// two moves of opposite sides disagrees (longer P: blocks of 2, 4, 8, … moves). It is
    /// locally minimal, not necessarily a shortest path from the start
    /// (specs/schema/diff.md).
    #[command(verbatim_doc_comment)]
    Moves(MovesArgs),
    /// perft: CMD reads `<depth> <SFEN>` a line and prints the count a line.
    ///
    /// On a mismatch (exit 1) the first disagreeing position is followed down the tree
    /// (perft divide: the first of our moves whose subcount differs) to a position whose
    /// number of legal moves differs, and the path to it is shrunk as `diff moves` shrinks
    /// (depth-1 counts compared); or to a position where the numbers of moves and every
    /// subcount agree but the total does not (a wrong move in place of a right one; not
    /// shrunk) (specs/schema/diff.md).
    #[command(verbatim_doc_comment)]
    Perft(PerftArgs),
    /// Mate: CMD is a USI engine answering `go mate`; verdicts and lengths compared, its lines checked.
    ///
    /// Each problem gets a verdict. Disagreements (exit 1): `not_mate` (the engine's line
    /// is illegal, has a move that is no check, or does not end in mate), `shorter` (its
    /// checked line is shorter than our proven minimum; the defender move that gives up the
    /// longer defence is named), `nomate_but_mate`, `mate_but_nomate`. Not disagreements:
    /// `same`, `longer` (longer than our minimum: not minimal, the composer's line, or 無駄合
    /// counted), `unranked` (within bounds our limits left), `undecided` (a timeout, our
    /// node limit). Lengths follow our 無駄合 convention, or with --count-futile one that
    /// counts every interposition (KomoringHeights') (specs/schema/diff.md).
    #[command(verbatim_doc_comment)]
    Mate(MateArgs),
}

/// Arguments of `diff perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The program, a shell command line (run with `sh -c`).
    #[arg(long)]
    pub engine: String,
    /// perft depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    /// Positions to compare.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub positions: u64,
    /// Seed of the random walks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds one batch of positions may take the program (it is killed then, with what
    /// it started, and the run ends with an error); by default no limit. On Unix the
    /// program runs in a process group of its own, which a Ctrl-C at the terminal does not
    /// reach, and is killed with what it started when shogi-lab ends, however it ends.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub timeout_s: Option<u64>,
    /// Walk from tsume positions, the attacker (Sente) without a king, instead of game
    /// positions: every position asked lacks Sente's king (half with Sente to move), as
    /// in a tsume solver's search.
    #[arg(long)]
    pub kingless: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `diff mate`.
#[derive(Debug, clap::Args)]
pub struct MateArgs {
    /// The USI engine, a shell command line (run with `sh -c`).
    #[arg(long)]
    pub engine: String,
    /// Problems: one SFEN a line or `id<TAB>SFEN…` (as `shogi-lab tsume` reads them); `-` for stdin.
    #[arg(long)]
    pub problems: String,
    /// Milliseconds per problem for the engine (`go mate <ms>`).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub time_ms: u64,
    /// Our solver's node limit per problem.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// The defender's hand as given in the SFEN (default: all remaining pieces).
    #[arg(long)]
    pub defender_hand_as_given: bool,
    /// Set an engine option (`setoption name NAME value VALUE`), checked against the
    /// options the engine declares: e.g. `--option Threads=1 --option USI_Hash=256`.
    /// Repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub options: Vec<(String, String)>,
    /// Count 無駄合 (futile interpositions) as plies, for an engine that does
    /// (KomoringHeights): our solver runs with `--count-futile`, and an engine line must end
    /// where the defender has no legal reply at all.
    #[arg(long)]
    pub count_futile: bool,
    /// Seconds the engine may take to answer `usi` with `usiok`, and `isready` with
    /// `readyok` (an engine allocates its USI_Hash then).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub handshake_timeout_s: u64,
    /// JSON lines: one per problem, then a summary.
    #[arg(long)]
    pub json: bool,
}

/// `NAME=VALUE` of `--option` (a name without spaces or `=`; any value, empty too).
fn name_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() && !n.contains(char::is_whitespace) => {
            Ok((n.to_string(), v.to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got `{s}`")),
    }
}

/// Arguments of `diff moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    /// The program, a shell command line (run with `sh -c`).
    #[arg(long)]
    pub engine: String,
    /// Distinct positions to compare.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub positions: u64,
    /// Seed of the random walks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds one batch of positions may take the program (it is killed then, with what
    /// it started, and the run ends with an error); by default no limit. On Unix the
    /// program runs in a process group of its own, which a Ctrl-C at the terminal does not
    /// reach, and is killed with what it started when shogi-lab ends, however it ends.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub timeout_s: Option<u64>,
    /// Walk from tsume positions, the attacker (Sente) without a king, instead of game
    /// positions: every position asked lacks Sente's king (half with Sente to move), as
    /// in a tsume solver's search.
    #[arg(long)]
    pub kingless: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `diff`.
pub fn run(a: DiffArgs) -> Result<(), Failure> {
    match a.what {
        DiffCommand::Moves(m) => run_moves(m),
        DiffCommand::Perft(p) => run_perft(p),
        DiffCommand::Mate(m) => run_mate(m),
    }
}

/// The walks' starts: `--kingless` or not.
fn starts(kingless: bool) -> Starts {
    if kingless {
        Starts::Tsume
    } else {
        Starts::Game
    }
}

fn run_moves(a: MovesArgs) -> Result<(), Failure> {
    let t = Instant::now();
    let engine =
        LineEngine::new(&a.engine).with_timeout(a.timeout_s.map(std::time::Duration::from_secs));
    let r = diff_moves(&engine, a.positions as usize, a.seed, starts(a.kingless))
        .map_err(Failure::input)?;
    let out = DiffMoves::new(
        &a.engine,
        a.seed,
        a.kingless,
        &r,
        output::millis(t.elapsed()),
    );
    if a.json {
        super::emit(output::to_line(&out));
    } else {
        if let Some(m) = &out.first {
            super::emit(format!("mismatch at {}", m.sfen));
            super::emit(format!(
                "  path: {}   ({} plies, shrunk from {})",
                usi_position(&m.start, &m.moves),
                m.moves.len(),
                m.unshrunk_plies
            ));
            super::emit(format!(
                "  missing (legal, not listed): {}",
                moves_or_none(&m.missing)
            ));
            super::emit(format!(
                "  extra (listed, not legal):   {}",
                super::one_line(&moves_or_none(&m.extra))
            ));
            if !m.duplicated.is_empty() {
                super::emit(format!(
                    "  listed more than once:       {}",
                    super::one_line(&m.duplicated.join(" "))
                ));
            }
        }
        super::emit(format!(
            "{}: {} {}positions from {} walks (seed {}), {} legal moves, {} mismatching positions, {} ms",
            out.result, out.positions, kingless_word(out.kingless), out.walks, out.seed, out.moves, out.mismatches, out.time_ms
        ));
    }
    if out.mismatches > 0 {
        Err(Failure::no_answer(format!(
            "{} of {} positions differ",
            out.mismatches, out.positions
        )))
    } else {
        Ok(())
    }
}

fn run_perft(a: PerftArgs) -> Result<(), Failure> {
    let t = Instant::now();
    let engine =
        LineEngine::new(&a.engine).with_timeout(a.timeout_s.map(std::time::Duration::from_secs));
    let r = diff_perft(
        &engine,
        a.depth,
        a.positions as usize,
        a.seed,
        starts(a.kingless),
    )
    .map_err(Failure::input)?;
    let out = DiffPerft::new(
        &a.engine,
        a.seed,
        a.depth,
        a.kingless,
        &r,
        output::millis(t.elapsed()),
    );
    if a.json {
        super::emit(output::to_line(&out));
    } else {
        if let Some(m) = &out.first {
            super::emit(format!("mismatch at {}", m.sfen));
            super::emit(format!(
                "  path: {}   ({} plies, {} {})",
                usi_position(&m.start, &m.moves),
                m.moves.len(),
                if m.localised == "move-count" {
                    "shrunk from"
                } else {
                    "not shrunk:"
                },
                m.unshrunk_plies
            ));
            super::emit(if m.localised == "move-count" {
                "  the move lists differ here: the numbers of legal moves differ".to_string()
            } else {
                format!(
                    "  the numbers of moves and every subcount of our moves at depth {} agree here: a move in place of one of ours, or a count that is not the sum over its moves",
                    m.depth - 1
                )
            });
            super::emit(format!(
                "  perft {}: ours {}, theirs {}",
                m.depth,
                m.ours,
                match m.theirs {
                    Some(n) => n.to_string(),
                    None => format!("not a number: \"{}\"", super::one_line(&m.answer)),
                }
            ));
        }
        super::emit(format!(
            "{}: {} {}positions at depth {} (seed {}), {} leaves, {} mismatching, {} ms",
            out.result,
            out.positions,
            kingless_word(out.kingless),
            out.depth,
            out.seed,
            out.nodes,
            out.mismatches,
            out.time_ms
        ));
    }
    if out.mismatches > 0 {
        return Err(Failure::no_answer(format!(
            "{} of {} positions differ",
            out.mismatches, out.positions
        )));
    }
    Ok(())
}

/// A USI `position` command: `moves …` only when there are moves.
fn usi_position(start: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        format!("position sfen {start}")
    } else {
        format!("position sfen {start} moves {}", moves.join(" "))
    }
}

/// The moves of a report line, or `none`.
fn moves_or_none(moves: &[String]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}

/// `kingless ` in the summary line of a `--kingless` run.
fn kingless_word(kingless: bool) -> &'static str {
    if kingless {
        "kingless "
    } else {
        ""
    }
}

fn run_mate(a: MateArgs) -> Result<(), Failure> {
    use super::error::{InputError, Origin};
    use crate::tsume::{
        load_problem, problems::read_problems, DefenderHand, Solver, SolverOptions,
    };
    let t = Instant::now();
    let text = super::read_text(&a.problems)?;
    let hand = if a.defender_hand_as_given {
        DefenderHand::AsGiven
    } else {
        DefenderHand::Remaining
    };
    let mut roots = Vec::new();
    for p in read_problems(&text) {
        let pos = load_problem(&p.sfen, hand).map_err(|e| {
            InputError::in_line(Origin::file(&a.problems), p.line, p.column, &p.sfen, &e)
        })?;
        roots.push((p.id, pos));
    }
    if roots.is_empty() {
        return Err(InputError::new(
            Origin::file(&a.problems),
            "no problems in the input (empty, or only blank and # lines)",
        )
        .into());
    }
    let mut engine = UsiEngine::start(
        &a.engine,
        &a.options,
        std::time::Duration::from_secs(a.handshake_timeout_s),
    )
    .map_err(Failure::input)?;
    let opts = SolverOptions {
        shortest: true,
        count_futile: a.count_futile,
        nodes: Some(a.nodes),
        memory_mib: 256,
        ..SolverOptions::default()
    };
    let mut counts = MateVerdictCounts::default();
    let solved: Vec<_> = on_solver_stack(|| -> Result<Vec<_>, Failure> {
        let mut solver = Solver::try_new(opts.clone()).map_err(Failure::input)?;
        Ok(roots.iter().map(|(_, r)| solver.solve(r)).collect())
    })??;
    for ((id, root), ours) in roots.iter().zip(solved) {
        let theirs = engine
            .go_mate(&crate::notation::sfen::write_sfen(root), a.time_ms)
            .map_err(|e| Failure::input(format!("problem {id}: {e}")))?;
        let mut c = MateComparison::new(root, ours, theirs, a.count_futile);
        if c.verdict == Verdict::Shorter {
            c = on_solver_stack(|| -> Result<_, Failure> {
                let mut solver = Solver::try_new(opts.clone()).map_err(Failure::input)?;
                c.locate_short_defence(root, |p| solver.solve(p));
                Ok(c)
            })??;
        }
        counts.add(c.verdict);
        let line = DiffMateLine::new(id, &c);
        if a.json {
            super::emit(output::to_line(&line));
        } else {
            let side = |v: &output::diff::MateVerdict| {
                super::one_line(&match (v.plies, &v.usi) {
                    (Some(n), Some(u)) => format!("{} {n} {u}", v.result),
                    _ => v.result.to_string(),
                })
            };
            super::emit(format!(
                "{}\t{}\tours {}\ttheirs {}",
                line.verdict,
                id,
                side(&line.ours),
                side(&line.theirs),
            ));
            if let Some(why) = mate_explanation(&c, a.time_ms) {
                super::emit(format!("  {}", super::one_line(&why)));
            }
        }
    }
    let mismatches = Verdict::ALL
        .iter()
        .filter(|v| v.is_disagreement())
        .map(|&v| counts.get(v))
        .sum();
    let summary = DiffMateSummary {
        result: if mismatches == 0 { "agree" } else { "mismatch" },
        engine: a.engine.clone(),
        count_futile: a.count_futile,
        problems: roots.len(),
        mismatches,
        verdicts: counts,
        time_ms: output::millis(t.elapsed()),
    };
    if a.json {
        super::emit(output::to_line(&summary));
    } else {
        let list = |disagreements: bool| {
            Verdict::ALL
                .iter()
                .filter(|v| v.is_disagreement() == disagreements)
                .map(|&v| format!("{} {}", v.name(), counts.get(v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        super::emit(format!(
            "{}: {} ({}): {}; {}: {}; {} ms",
            summary.result,
            counted(summary.problems, "problem"),
            convention(a.count_futile),
            list(false),
            counted(summary.mismatches, "disagreement"),
            list(true),
            summary.time_ms
        ));
    }
    if mismatches > 0 {
        return Err(Failure::no_answer(format!(
            "{mismatches} of {} differ",
            counted(roots.len(), "problem")
        )));
    }
    Ok(())
}

/// `1 problem`, `2 problems`: a count with its noun in the right number.
fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// Runs `f` on a thread with our solver's stack (it recurses per ply, as `tsume::solve`
/// gives it).
fn on_solver_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, Failure> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(crate::tsume::dfpn::SOLVER_STACK)
            .spawn_scoped(s, f)
            .map_err(Failure::internal)?
            .join()
            .map_err(|_| Failure::internal("the solver thread panicked"))
    })
}

/// The 無駄合 convention lengths are compared under.
fn convention(count_futile: bool) -> &'static str {
    if count_futile {
        "無駄合 counted as plies"
    } else {
        "無駄合 not counted"
    }
}

/// What a problem's verdict means, in words with its numbers (`None` for `same`):
/// whether it is a disagreement, and who may be wrong.
fn mate_explanation(c: &MateComparison, time_ms: u64) -> Option<String> {
    use crate::testdata::usi_engine::MateAnswer;
    let theirs = match &c.theirs.answer {
        MateAnswer::Mate(l) => l.len(),
        _ => 0,
    };
    let their_plies = crate::tsume::plies(theirs as u64);
    let conv = convention(c.count_futile);
    // Our bounds on the shortest mate, as a phrase: `our proven minimum of 25 plies`.
    let minimum = |b: crate::testdata::diff_mate::LengthBounds| {
        if b.min == b.max {
            format!(
                "our proven minimum of {} ({conv})",
                crate::tsume::plies(b.min as u64)
            )
        } else {
            format!(
                "our bounds on the minimum, {} to {} plies ({conv}; limits stopped the proof)",
                b.min, b.max
            )
        }
    };
    let remark = match &c.theirs.info_string {
        Some(s) if !s.is_empty() => format!("; its last info string: \"{s}\""),
        _ => String::new(),
    };
    let ms = crate::output::millis(c.theirs.elapsed);
    let timing = if c.theirs.after_stop {
        format!("; it answered only after `stop`, {ms} ms after `go mate {time_ms}`")
    } else if ms.saturating_mul(20) >= time_ms.saturating_mul(19) {
        format!("; it answered after {ms} ms of its {time_ms}: at its time limit")
    } else {
        String::new()
    };
    Some(match c.verdict {
        Verdict::Same => return None,
        Verdict::Longer => format!(
            "difference, not a wrong answer: their checked line of {their_plies} is longer than {}: \
             not the shortest line (the composer's, or a weaker search){}",
            minimum(c.bounds()?),
            if c.count_futile {
                ""
            } else {
                ", or one that counts 無駄合 as plies (compare it with --count-futile)"
            }
        ),
        Verdict::Unranked => format!(
            "not ranked: their checked line has {their_plies}, within {}",
            minimum(c.bounds()?)
        ),
        Verdict::Undecided => match c.theirs.answer {
            MateAnswer::Timeout => {
                format!("no comparison: the engine answered timeout{timing}{remark}")
            }
            _ if theirs > 0 => format!(
                "no comparison: our solver stopped at its node limit (--nodes); their line of {their_plies} is a checked mate"
            ),
            _ => "no comparison: our solver stopped at its node limit (--nodes)".to_string(),
        },
        Verdict::NotMate => format!(
            "DISAGREEMENT: their line of {their_plies} is not a mate: {}{remark}",
            c.line_check
                .as_ref()
                .and_then(|r| r.clone().err())
                .unwrap_or_default()
        ),
        Verdict::Shorter => format!(
            "DISAGREEMENT: their checked line of {their_plies} is shorter than {}: {}{remark}",
            minimum(c.bounds()?),
            match &c.short_defence {
                Some(d) => format!(
                    "at ply {} their defender plays {}, after which we prove mate within {}, \
                     where another reply needs at least {}",
                    d.ply,
                    d.usi,
                    crate::tsume::plies(d.mate_after as u64),
                    d.longest_at_least
                ),
                None => "their defender gives up a longer defence somewhere in that line \
                         (our limits did not find where), or our disproof of the shorter mates is wrong"
                    .to_string(),
            }
        ),
        Verdict::NomateButMate => format!(
            "DISAGREEMENT: they answer nomate where our line of {} is a checked mate{timing}{remark}",
            crate::tsume::plies(c.ours.line.len() as u64)
        ),
        Verdict::MateButNomate => format!(
            "DISAGREEMENT: their line of {their_plies} is a checked mate where we answer nomate: \
             our solver is wrong{remark}"
        ),
    })
}
