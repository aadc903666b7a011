//! The progress bar of a run of several problems, and printing around it.

use crate::cli::emit;
use crate::tsume::{bounds_text, Outcome, SearchControl};

/// A progress bar (on stderr, drawn only on a terminal; a status line for a single
/// problem) with the running search's nodes and the bounds on the shortest mate it has
/// proven so far; output goes through it so that it is not torn.
pub(super) struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// A bar of `total` problems; a status line without a bar for exactly one.
    pub(super) fn new(total: Option<usize>) -> Progress {
        let (b, template) = match total {
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
        b.set_style(indicatif::ProgressStyle::with_template(template).expect("template"));
        Progress { bar: Some(b) }
    }

    /// Shows the running search of problem `id`: its nodes and the bounds on the shortest
    /// mate proven so far (`SearchControl::mate_within`).
    pub(super) fn searching(&self, id: &str, c: &SearchControl) {
        if let Some(b) = &self.bar {
            let bounds = bounds_text(c.mate_within(), c.no_mate_within())
                .map_or(String::new(), |t| format!("; proven so far: {t}"));
            b.set_message(format!("{id}: {} nodes{bounds}", c.nodes()));
            b.tick();
        }
    }

    /// Prints `text` on stdout, the bar hidden meanwhile.
    pub(super) fn emit(&self, text: String) {
        match &self.bar {
            Some(b) => b.suspend(|| emit(text)),
            None => emit(text),
        }
    }

    /// Prints `msg` on stderr, the bar hidden meanwhile.
    pub(super) fn warn(&self, msg: String) {
        match &self.bar {
            Some(b) => b.suspend(|| eprintln!("{msg}")),
            None => eprintln!("{msg}"),
        }
    }

    /// Counts problem `id` as done with `outcome`.
    pub(super) fn advance(&self, id: &str, outcome: Outcome) {
        if let Some(b) = &self.bar {
            b.inc(1);
            b.set_message(format!("{} {}", id, outcome.as_str()));
        }
    }

    /// Removes the bar.
    pub(super) fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}
