//! # shogi-lab
//!
//! A research toolkit for constraint solving in shogi (将棋): an exact rules
//! core with perft, SFEN/USI notation, quantum shogi (量子将棋) convergence
//! engines, a df-pn tsume (詰将棋) solver and a 利かずの駒並べ placement solver.
//!
//! ```
//! use shogi_lab::rules::Position;
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 30);
//! assert_eq!(shogi_lab::rules::perft(&mut pos.clone(), 2), 900);
//! ```
// `deny`, not `forbid`: PyO3's macros expand to `unsafe` blocks, so the
// `python` module (feature-gated) carries `#[allow(unsafe_code)]`; the only other
// exceptions are the cache prefetch hints `tsume::table::Table::prefetch` and
// `Table::prefetch_count` (they cannot fault), the `popcnt` instruction of
// `rules::popcount` (registers only, run after CPUID reported it).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod atomic_write;
pub mod certificate;
pub mod cli;
pub mod experiments;
pub mod input_error;
pub mod notation;
pub mod output;
pub mod placement;
#[cfg(feature = "python")]
// `unexpected_cfgs`: pyo3 0.22's `create_exception!` tests its own `gil-refs` feature.
#[allow(unsafe_code, unexpected_cfgs)]
mod python;
pub mod quantum;
pub mod render;
pub mod resources;
pub mod rules;
pub mod shard;
pub mod testdata;
pub mod thread_clock;
pub mod tsume;
