//! CSA 標準棋譜ファイル形式 V2.2 and V3.0 (computer-shogi.org), read and written.
//!
//! Accepted: `'` comments (`'*` comments attach to the previous move, the
//! V3.0 `'CSA encoding=…` line is skipped), `V2`/`V2.1`/`V2.2`/`V3.0`,
//! `N+`/`N-` names, `$KEY:value` fields, positions by `PI` (with removals like
//! `PI82HI22KA`), `P1`…`P9` rows, or `P+`/`P-` placements (`P+00KI` in hand,
//! `P-00AL` the rest), the side `+`/`-`, moves `+7776FU` (several per line
//! with `,`), times `T12` (`T12.5` in V3.0, truncated to seconds), `%` end
//! commands, and several games separated by a `/` line. A malformed or illegal
//! move is an error with its move number and line.
//!
//! One file per concept: [`read_csa`] splits lines into statements and
//! dispatches them (`read.rs`) to the initial position (`position.rs`) or the
//! moves, times and end commands (`moves.rs`); [`write_csa`] writes
//! (`write.rs`); `codes.rs` holds piece codes, signs and squares.

mod codes;
mod moves;
mod position;
mod read;
mod write;

pub(crate) use codes::code_of;
pub use read::read_csa;
pub use write::{write_csa, write_csa_games};

use super::record::{RecordError, RecordErrorKind};

/// A CSA error at line `line`.
fn cerr(line: usize, msg: impl Into<String>) -> RecordError {
    RecordError {
        line,
        kind: RecordErrorKind::Csa(msg.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::record::EndWord;

    /// Issue 15: a file with no game (empty, or only `V2.2`) is refused.
    #[test]
    fn no_game_is_refused() {
        for text in ["", "\n", "V2.2\n", "V2.2\n'a comment\n"] {
            let e = read_csa(text).unwrap_err();
            assert_eq!(e.kind, RecordErrorKind::Empty, "{text:?}");
        }
    }

    /// Issue 15: floodgate writes `'*` comments after `,` on statement lines.
    #[test]
    fn comma_comments_are_read() {
        let text =
            "V2.2\nPI\n+\n+7776FU,T1,'* 30 -3434FU\n-3334FU,T2\n%KACHI,'* -5000 win, really\n";
        let games = read_csa(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.main.moves.len(), 2);
        assert_eq!(g.main.moves[0].comments, vec![" 30 -3434FU".to_string()]);
        assert_eq!(
            g.main.moves[1].comments,
            vec![" -5000 win, really".to_string()]
        );
        assert_eq!(g.main.end.map(|e| e.word), Some(EndWord::EnteringKing));
    }
}
