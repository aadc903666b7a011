//! The progress bar of a run of several problems, and printing around it.

use crate::cli::emit;
use crate::tsume::Outcome;

/// A progress bar (on stderr, drawn only on a terminal) when the run has more than one
/// problem or an unknown number; output goes through it so that it is not torn.
pub(super) struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// A bar of `total` problems, none for exactly one.
    pub(super) fn new(total: Option<usize>) -> Progress {
        let bar = (total != Some(1)).then(|| {
            let b = match total {
                Some(n) => indicatif::ProgressBar::new(n as u64),
                None => indicatif::ProgressBar::no_length(),
            };
            b.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
                    .expect("template"),
            );
            b
        });
        Progress { bar }
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
