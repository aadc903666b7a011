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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod experiments;
pub mod notation;
pub mod quantum;
pub mod rules;
