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
pub use write::{csa_keeps_header, write_csa, write_csa_games};

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

    /// A board given by `P1`…`P9` rows: every rank once, nine squares each. A missing
    /// row, a repeated one or a tenth square is refused at its line and column (the
    /// tsume problem would otherwise change silently); the valid forms still read.
    #[test]
    fn board_rows_are_nine_of_nine() {
        use crate::notation::record::BoardRowError;
        let row = |r: u8| match r {
            1 => "P1 *  *  *  *  *  *  *  * -OU\n".to_string(),
            3 => "P3 *  *  *  *  *  *  *  * +FU\n".to_string(),
            r => format!("P{r} *  *  *  *  *  *  *  *  * \n"),
        };
        let board = |ranks: &[u8]| -> String { ranks.iter().map(|&r| row(r)).collect() };
        let tail = "P+00KI\nP-00AL\n+\n";
        let all: Vec<u8> = (1..=9).collect();
        let good = format!("{}{tail}", board(&all));
        assert_eq!(read_csa(&good).unwrap().len(), 1);
        // PI, P+/P- placements alone, and rows whose last blanks are trimmed still read.
        assert!(read_csa("PI\n+\n").is_ok());
        assert!(read_csa("P-11OU\nP+13FU00KI\nP-00AL\n+\n").is_ok());
        assert!(read_csa(&good.replace(" * \n", " *\n")).is_ok());
        let board_error = |text: &str| {
            let e = read_csa(text).unwrap_err();
            match e.kind {
                RecordErrorKind::BoardRow { error, .. } => (e.line, e.column(), error),
                other => panic!("{other:?}"),
            }
        };
        // P5 missing: at the row after the gap (P6, line 5).
        let no_p5 = format!("{}{tail}", board(&[1, 2, 3, 4, 6, 7, 8, 9]));
        assert_eq!(
            board_error(&no_p5),
            (5, Some(1), BoardRowError::Missing { rank: 5 })
        );
        // P9 missing: at the last row given.
        let no_p9 = format!("{}{tail}", board(&[1, 2, 3, 4, 5, 6, 7, 8]));
        assert_eq!(
            board_error(&no_p9),
            (8, Some(1), BoardRowError::Missing { rank: 9 })
        );
        // P4 twice: the second is refused (the first held a rook).
        let rook = "P4 *  *  *  *  *  *  * -HI * \n";
        let twice = format!(
            "{}{rook}{}{tail}",
            board(&[1, 2, 3]),
            board(&[4, 5, 6, 7, 8, 9])
        );
        assert_eq!(
            board_error(&twice),
            (5, Some(1), BoardRowError::Repeated { rank: 4, first: 4 })
        );
        // A tenth square: at its column (30), after a `,` statement too.
        let tenth = good.replace("+FU\n", "+FU+HI\n");
        assert_eq!(
            board_error(&tenth),
            (3, Some(30), BoardRowError::TooLong { rank: 3 })
        );
        let after_comma = good.replace("P3 ", "V2.2,P3 ").replace("+FU\n", "+FU+HI\n");
        assert_eq!(board_error(&after_comma).1, Some(35));
        // Trailing blanks after the ninth square are no tenth one.
        assert!(read_csa(&good.replace("+FU\n", "+FU   \n")).is_ok());
        // A row after the position was complete is refused, not ignored.
        let late = format!("{good}P5 *  *  *  * -HI *  *  *  * \n");
        let e = read_csa(&late).unwrap_err();
        assert_eq!(e.line, 13, "{e}");
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
