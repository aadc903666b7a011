//! A USI engine for mate search, started by GUIs (ShogiGUI, 将棋所, ShogiHome,
//! cshogi's `usi.Engine`) as `shogi-lab-usi` with no arguments, or as
//! `shogi-lab usi`.
//!
//! - `go mate <ms>|infinite` → `checkmate <moves>` (a line the independent checker
//!   replayed), `checkmate nomate` (a complete disproof of a valid position) or
//!   `checkmate timeout` (limits, `stop` before a line could be read, or no valid
//!   position). `checkmate notimplemented` is never sent. A `stop` is honoured in every
//!   phase: the search, the minimality search, the line walk and the 余詰 search
//!   (`specs/tsume.md`, stop requests).
//! - A normal `go` (`btime`/`wtime`/`binc`/`winc`/`byoyomi`/`movetime`/`infinite`/
//!   `ponder`) searches for a mate within the time control ([`clock`]) and answers
//!   `bestmove <first move> [ponder <reply>]` after `info … score mate N pv …` if one is
//!   proven, otherwise `bestmove resign` (the engine plays only proven mates). With
//!   `infinite` or `ponder` the reply waits for `stop` (or `ponderhit`).
//! - As soon as a mate within L plies is proven (the first proof, then each shorter proof
//!   of the minimality search), `info depth L score mate L nodes … time … pv …` with the
//!   line read off the table then ([`info::proven_line`]).
//! - Periodic `info time … nodes … nps … hashfull …` about once a second, and `info
//!   string` lines at the start and end of each search; bad input of any kind is an
//!   `info string error: …` line, never the end of the engine.
//!
//! Design after KomoringHeights (`source/engine/user-engine/user-search.cpp`): the
//! input is read on its own thread, the search runs on another, the stop flag is
//! shared. One concept per file: [`command`] (syntax), [`options`], [`clock`],
//! [`input`] (the reader thread), [`search`] (the search thread), [`info`] (lines
//! printed), [`engine`] (the loop).

pub mod clock;
pub mod command;
pub mod engine;
pub mod info;
pub mod input;
pub mod options;
pub mod search;

pub use engine::run_usi;
