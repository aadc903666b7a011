//! The independent checker of tsume certificates ([`check`]): it shares no code
//! with the solver. Node lines are read by `line` (serde_json beyond the plain form),
//! positions from each node's SFEN by `sfen` (`parse_setup` beyond the plain form) and
//! [`crate::rules::Position::from_setup`], moves from the rules core's naive
//! play-and-test definition ([`crate::rules::Position::legal_moves_naive`], as `naive`),
//! acyclicity and depth from `petgraph`. The extraction lives beside the solver
//! ([`crate::tsume::certificate`]); the format is `specs/certificate.md`.

pub mod check;
mod line;
mod naive;
mod sfen;

pub use check::{check_text, CheckError, Checked};
