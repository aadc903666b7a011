//! Certificates of tsume answers: extraction from the solver's table
//! ([`extract`], in `src/tsume/certificate.rs`) and an independent checker
//! ([`check`]) that shares no code with the solver: positions come from the
//! SFEN of each node, moves from the rules core's naive play-and-test
//! generator ([`crate::rules::Position::legal_moves_naive`]), acyclicity and
//! depth from `petgraph`. The format is `specs/certificate.md`.

// The extraction reads the solver's table and belongs beside it; it is declared
// here so that `src/tsume/mod.rs` (under rewrite) stays untouched.
#[path = "../tsume/certificate.rs"]
pub mod extract;

pub mod check;

pub use check::{check_text, CheckError, Checked};
pub use extract::{extract, extract_with, write_jsonl, Certificate, ExtractError, ExtractLimits};
