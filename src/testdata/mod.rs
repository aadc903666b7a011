//! Test data for other shogi implementations: seeded random walks
//! ([`walk`]), the generators behind `shogi-lab gen`, and the differential
//! checks behind `shogi-lab diff` that run another program ([`engine`], its
//! processes in [`engine_process`], a USI session in [`usi_engine`] with its options in
//! [`usi_option`]) on the
//! same positions and shrink a disagreement to the shortest move path
//! ([`diff_moves`], [`diff_perft`], [`diff_mate`]).
//!
//! Everything is reproducible from a seed: the random numbers come from
//! `ChaCha8Rng::seed_from_u64(seed)` (STYLE 6).

pub mod diff_mate;
pub mod diff_moves;
pub mod diff_perft;
pub mod engine;
pub mod engine_process;
pub mod gen;
pub mod usi_engine;
pub mod usi_option;
pub mod walk;
