//! What a run counts as it goes, and the exit it ends with.

use crate::cli::error::{InputError, Origin};
use crate::cli::Failure;
use crate::tsume::certificate::Certified;
use crate::tsume::Outcome;

/// The error for an input without problems.
pub(super) fn no_problems(origin: &Origin) -> Failure {
    Failure::from(InputError::new(
        origin.clone(),
        "no problems in the input (empty, or only blank and # lines)",
    ))
}

/// The counts of a run.
#[derive(Default)]
pub(super) struct Tally {
    /// Problems read, readable or not.
    seen: usize,
    /// Problems that could not be read, and the first of them.
    bad: usize,
    first_bad: Option<InputError>,
    /// Answers `unknown` within the limits.
    unsolved: usize,
    /// Answers whose certificate was refused.
    uncertified: usize,
}

impl Tally {
    /// Counts a problem read.
    pub(super) fn read(&mut self) {
        self.seen += 1;
    }

    /// Counts a problem that could not be read, for why.
    pub(super) fn unreadable(&mut self, why: InputError) {
        self.bad += 1;
        self.first_bad.get_or_insert(why);
    }

    /// Counts an answer with `outcome` and its certificate; `refuted`: the `unknown` of a
    /// proven "no mate within `--max-plies`", an answer to the question asked (exit 0).
    pub(super) fn answered(&mut self, outcome: Outcome, refuted: bool, cert: &Certified) {
        if outcome == Outcome::Unknown && !refuted {
            self.unsolved += 1;
        }
        if cert.reason.is_some() {
            self.uncertified += 1;
        }
    }

    /// The end of a run of `total` problems (`None`: a stream) from `origin`: no problems
    /// at all and unreadable problems are input errors (exit 2), the first one located;
    /// unknown answers are no answer (exit 1). How many answers are not certified goes
    /// to stderr first.
    ///
    /// # Errors
    /// As above.
    pub(super) fn finish(self, total: Option<usize>, origin: &Origin) -> Result<(), Failure> {
        if total.is_none() && self.seen == 0 {
            return Err(no_problems(origin));
        }
        if self.uncertified > 0 {
            eprintln!(
                "{} of {} answer(s) not certified",
                self.uncertified, self.seen
            );
        }
        if let Some(first) = self.first_bad {
            // The first bad problem, located; the others are on stdout.
            let more = match self.bad {
                1 => String::new(),
                n => format!(" (and {} more problem(s) that could not be read)", n - 1),
            };
            return Err(Failure::input(format!("{first}{more}")));
        }
        if self.unsolved > 0 {
            return Err(Failure::no_answer(format!(
                "{} of {} problem(s) unknown within limits",
                self.unsolved, self.seen
            )));
        }
        Ok(())
    }
}
