//! `shogi-lab diff moves|perft|mate`: differential tests of another program.

use super::Failure;
use crate::output::{
    self,
    diff::{DiffMateLine, DiffMateSummary, DiffMoves, DiffPerft},
};
use crate::testdata::diff_mate::{MateComparison, UsiEngine};
use crate::testdata::diff_moves::diff_moves;
use crate::testdata::diff_perft::diff_perft;
use crate::testdata::engine::LineEngine;
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
    /// Mate: CMD is a USI engine answering `go mate`; verdicts compared, its lines checked.
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
    /// JSON lines: one per problem, then a summary.
    #[arg(long)]
    pub json: bool,
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
    let mut engine = UsiEngine::start(&a.engine).map_err(Failure::input)?;
    let opts = SolverOptions {
        shortest: true,
        nodes: Some(a.nodes),
        memory_mib: 256,
        ..SolverOptions::default()
    };
    let mut mismatches = 0;
    // Our solver recurses per ply: a deep stack, as tsume::solve gives it.
    let solved: Vec<_> = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || -> Result<Vec<_>, Failure> {
                let mut solver = Solver::try_new(opts).map_err(Failure::input)?;
                Ok(roots.iter().map(|(_, r)| solver.solve(r)).collect())
            })
            .map_err(Failure::internal)?
            .join()
            .map_err(|_| Failure::internal("the solver thread panicked"))?
    })?;
    for ((id, root), ours) in roots.iter().zip(solved) {
        let theirs = engine
            .go_mate(&crate::notation::sfen::write_sfen(root), a.time_ms)
            .map_err(|e| Failure::input(format!("problem {id}: {e}")))?;
        let c = MateComparison::new(root, ours, theirs);
        let line = DiffMateLine::new(id, &c);
        if !line.agree {
            mismatches += 1;
        }
        if a.json {
            super::emit(output::to_line(&line));
        } else {
            super::emit(format!(
                "{}\t{}\tours {} {}\ttheirs {} {}{}",
                if line.agree { "agree" } else { "MISMATCH" },
                id,
                line.ours.result,
                line.ours.usi.as_deref().unwrap_or(""),
                line.theirs.result,
                super::one_line(line.theirs.usi.as_deref().unwrap_or("")),
                match line.theirs.error.as_ref().and_then(|e| e.as_ref()) {
                    Some(e) => format!(" (line rejected: {})", super::one_line(e)),
                    None => String::new(),
                }
            ));
        }
    }
    let summary = DiffMateSummary {
        result: if mismatches == 0 { "agree" } else { "mismatch" },
        engine: a.engine.clone(),
        problems: roots.len(),
        mismatches,
        time_ms: output::millis(t.elapsed()),
    };
    if a.json {
        super::emit(output::to_line(&summary));
    } else {
        super::emit(format!(
            "{}: {} problems, {} mismatching, {} ms",
            summary.result, summary.problems, summary.mismatches, summary.time_ms
        ));
    }
    if mismatches > 0 {
        return Err(Failure::no_answer(format!(
            "{mismatches} of {} problems differ",
            roots.len()
        )));
    }
    Ok(())
}
