//! The progress display of a run on stderr (drawn only on a terminal): a bar of the
//! problems (a status line for a single one) with the running search's nodes and the
//! bounds on the shortest mate it has proven so far, and printing around it.

use crate::cli::emit;
use crate::tsume::{Outcome, SearchControl};

/// The bar; output goes through it so that it is not torn.
pub(super) struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar of `total` problems; a status line without a bar for exactly one.
    pub(super) fn new(total: Option<usize>) -> Progress {
        let (bar, template) = match total {
            Some(1) => (
                indicatif::ProgressBar::no_length(),
                "{spinner} {elapsed} {msg}",
            ),
            Some(n) => (
                indicatif::ProgressBar::new(n as u64),
                "{bar:40} {pos}/{len} {elapsed} {msg}",
            ),
            None => (
                indicatif::ProgressBar::no_length(),
                "{bar:40} {pos}/{len} {elapsed} {msg}",
            ),
        };
        bar.set_style(indicatif::ProgressStyle::with_template(template).expect("template"));
        Progress { bar }
    }

    /// Shows the running search of problem `id`: its nodes and the bounds on the shortest
    /// mate proven so far ([`SearchControl::bounds`]).
    pub(super) fn searching(&self, id: &str, c: &SearchControl) {
        let b = c.bounds();
        let bounds = if b.is_empty() {
            String::new()
        } else {
            format!("; proven so far: {b}")
        };
        let bounds = if c.is_certifying() {
            format!("{bounds}; certifying")
        } else {
            bounds
        };
        self.bar
            .set_message(format!("{id}: {} nodes{bounds}", c.nodes()));
        self.bar.tick();
    }

    /// Prints `text` on stdout, the bar hidden meanwhile.
    pub(super) fn emit(&self, text: String) {
        self.bar.suspend(|| emit(text));
    }

    /// Prints `msg` on stderr, the bar hidden meanwhile.
    pub(super) fn warn(&self, msg: String) {
        self.bar.suspend(|| eprintln!("{msg}"));
    }

    /// Counts problem `id` as done with `outcome`.
    pub(super) fn advance(&self, id: &str, outcome: Outcome) {
        self.bar.inc(1);
        self.bar.set_message(format!("{} {}", id, outcome.as_str()));
    }

    /// Removes the bar.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
