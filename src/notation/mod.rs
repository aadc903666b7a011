//! Reading and writing the shogi world's notations: SFEN and USI.

pub mod sfen;
