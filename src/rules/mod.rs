//! Ordinary shogi: squares, pieces, packed hands, bitboards and attack
//! tables, `Setup` → `Position`, legal move generation, hashing, perft.

pub mod bitboard;
pub mod checks;
pub mod game;
pub mod hand;
pub mod moves;
pub mod perft;
mod popcount;
pub mod position;
pub mod types;

pub use bitboard::Bitboard;
pub use game::{declaration, Declaration, DrawReason, Game, GameError, Outcome, WinReason};
pub use hand::Hand;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use perft::{
    perft_checked, perft_count, perft_reach, position_reach, PerftCount, PerftError, TooDeep,
};
pub use position::{
    perft, perft_divide, perft_until, IllegalMove, Position, PositionError, Rules, Setup,
    Violation, MAX_PERFT_DEPTH,
};
pub use types::*;
