//! The search thread: one df-pn solve per `go`, with its own table of `USI_Hash`
//! MiB (an anonymous mapping, so a fresh table costs only the pages it touches)
//! and the solver's deep stack ([`SOLVER_STACK`]), stopped through a shared
//! [`Control`]. A table that does not fit and a panic in the solver come back as
//! an error event, never an abort.

use super::engine::Event;
use crate::rules::{Move, Position};
use crate::tsume::dfpn::SOLVER_STACK;
use crate::tsume::{Control, SolveResult, Solver, SolverOptions};
use std::sync::mpsc::Sender;

/// What a search thread sends back.
pub type SearchOutcome = Result<SolveResult<Move>, String>;

/// Starts a search of `position` (the side to move attacks); it ends with
/// [`Event::Done`] carrying `generation`.
///
/// # Errors
/// When the thread (with its [`SOLVER_STACK`] of address space) cannot be started.
pub fn spawn_search(
    position: Position,
    mut opts: SolverOptions,
    control: Control,
    generation: u64,
    tx: Sender<Event>,
) -> std::io::Result<()> {
    opts.control = Some(control);
    let run = move || {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Solver::<Position>::try_new(opts).map(|mut s| s.solve(&position))
        }));
        let outcome = match outcome {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(e)) => Err(e.to_string()),
            Err(p) => Err(format!(
                "internal error in the solver: {}",
                p.downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| p.downcast_ref::<&str>().copied())
                    .unwrap_or("panic")
            )),
        };
        let _ = tx.send(Event::Done {
            generation,
            outcome,
        });
    };
    std::thread::Builder::new()
        .name("usi-search".into())
        .stack_size(SOLVER_STACK)
        .spawn(run)
        .map(drop)
}
