//! Reading and writing the shogi world's notations: SFEN and USI, Japanese
//! move text, KIF/KI2 and CSA records; [`detect`] reads a record file whose
//! format is not given.

pub mod bod;
pub mod csa;
pub mod detect;
pub mod japanese;
pub mod jkf;
pub mod kif;
pub mod record;
pub mod sfen;
