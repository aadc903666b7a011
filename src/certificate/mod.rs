//! The independent checker of tsume certificates ([`check`]): it shares no code
//! with the solver. Positions come from the SFEN of each node, moves from the
//! rules core's naive play-and-test generator
//! ([`crate::rules::Position::legal_moves_naive`]), acyclicity and depth from
//! `petgraph`. The extraction lives beside the solver
//! ([`crate::tsume::certificate`]); the format is `specs/certificate.md`.

pub mod check;
mod line;
mod naive;
mod sfen;

pub use check::{check_text, CheckError, Checked};
