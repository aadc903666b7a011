//! The solver of one run: its options from the arguments, and one problem solved and
//! certified on a thread of its own.

use super::TsumeArgs;
use crate::cli::Failure;
use crate::thread_clock::Stopwatch;
use crate::tsume::certificate::{certify_answer, Certified, CertifyError};
use crate::tsume::{watched, DefenderHand, SearchControl, SolveResult, Solver, SolverOptions};
use std::path::Path;
use std::time::Duration;

/// How often a running solve's status is read for the terminal's status line.
const WATCH_PERIOD: Duration = Duration::from_millis(250);

/// The solver's options from the arguments, once `--memory` is checked against the
/// memory the machine has.
pub(super) fn solver_options(a: &TsumeArgs) -> Result<SolverOptions, Failure> {
    crate::resources::check_memory_request(a.memory << 20, "--memory")
        .map_err(|e| Failure::input(e.to_string()))?;
    Ok(SolverOptions {
        nodes: a.nodes,
        time: a.time.map(Duration::from_secs_f64),
        memory_mib: a.memory as usize,
        shortest: !a.any_mate,
        count_futile: a.count_futile,
        alt_nodes: a.alt_nodes,
        max_plies: a.max_plies,
        control: None,
    })
}

/// The defender's hand: as given with `--defender-hand-as-given` or when the input
/// states both hands (a record), else all remaining pieces.
pub(super) fn defender_hand(a: &TsumeArgs, hands_given: bool) -> DefenderHand {
    if a.defender_hand_as_given || hands_given {
        DefenderHand::AsGiven
    } else {
        DefenderHand::Remaining
    }
}

/// A problem solved: the answer, its certification (an error holds a certificate not
/// written, with the answer's [`Certified`]) and the solve's CPU time in ms.
pub(super) type Solved = (
    SolveResult<crate::rules::Move>,
    Result<Certified, CertifyError>,
    f64,
);

/// Solves one problem and certifies the answer, on a thread with a deep stack
/// ([`watched`]: ミクロコスモス needs recursion over 1 500 plies, in the search and in the
/// extraction); also returns the solve's CPU time in ms (wall clock where the platform
/// has no thread clock). Meanwhile this thread hands `watch` the search's
/// [`SearchControl`] (nodes, the bounds on the shortest mate proven so far) every
/// [`WATCH_PERIOD`] until the solve and its certificate are done. The certification's
/// error (a file not written: it still holds the answer's [`Certified`]) is the caller's
/// to report after the answer.
pub(super) fn solve_and_certify(
    pos: &crate::rules::Position,
    opts: &SolverOptions,
    path: Option<&Path>,
    check: bool,
    length_nodes: Option<usize>,
    watch: impl Fn(&SearchControl),
) -> Result<Solved, Failure> {
    watched(
        WATCH_PERIOD,
        |control| {
            let opts = SolverOptions {
                control: Some(control.clone()),
                ..opts.clone()
            };
            let mut solver =
                Solver::try_new(opts).map_err(|e| Failure::input(format!("--memory: {e}")))?;
            let t = Stopwatch::start();
            let r = solver.solve(pos);
            let solve_ms = t.elapsed_ms();
            let c = certify_answer(&solver, pos, &r, path, check, length_nodes);
            Ok((r, c, solve_ms))
        },
        |c| {
            watch(c);
            true
        },
    )
    .map_err(|e| Failure::internal(format!("cannot start the solver thread: {e}")))?
}
