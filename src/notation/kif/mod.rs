//! 柿木 KIF and KI2 records, read and written
//! (format: 柿木義一「KIF形式棋譜ファイル」, kakinoki.o.oo7.jp/kif_format.html).
//!
//! Reading accepts both formats in one grammar, line by line (decode bytes
//! first with [`decode`](super::record::decode): UTF-8 with or without BOM, or
//! Shift_JIS):
//! - `#…` file comments; `key：value` headers before the first move (手合割
//!   with every standard handicap gives the initial position, 先手/後手 are
//!   kept as headers; 下手/上手 are aliases);
//! - a BOD board diagram (`後手の持駒：…`, the file header `９ ８ …`, `+---+`,
//!   nine `|…|一` rows with `v` for Gote, `先手の持駒：…`, `後手番`/`先手番`,
//!   `手数＝N`), hands in kanji numerals, `なし`, and `残りの駒全部`/`残り全部`
//!   (all pieces not on the board or in the other hand);
//! - KIF move lines `N move [( m:ss/h:mm:ss)] [+]` where the move is Japanese
//!   text with its origin `(77)` or an end word; KI2 lines of one or more
//!   marked moves `▲７六歩 △３四歩 …`;
//! - `*` comments and `&` しおり after a move (or before the first);
//!   `変化：N手` starting a branch that replaces move N of the nearest enclosing
//!   line containing it (Kifu for Windows order); `まで…` summaries.
//!
//! Every move is parsed to a [`JapaneseMove`](super::japanese::JapaneseMove)
//! and then resolved against the position; a malformed, illegal or ambiguous
//! move is an error with its move number and line. Nothing is skipped.
//!
//! One file per concept: [`read_kif`] dispatches each line (`read.rs`) to the
//! header part and initial position (`preamble.rs`, `diagram.rs`,
//! `handicap.rs`), the move lines (`moves.rs`) or the tree of lines
//! (`lines.rs`); [`write_kif`] writes (`write.rs`); `numbers.rs` holds kanji
//! numbers and times.

mod diagram;
mod handicap;
mod lines;
mod moves;
mod numbers;
mod preamble;
mod read;
mod write;

pub use handicap::{handicap_name, HANDICAPS};
pub(crate) use preamble::position_from_setup;
pub use read::read_kif;
pub use write::{write_kif, Flavor};

use super::record::{RecordError, RecordErrorKind};

/// An error at line `line`.
fn err(line: usize, kind: RecordErrorKind) -> RecordError {
    RecordError { line, kind }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: an empty file (or one holding only comments) is no record.
    #[test]
    fn empty_input_is_refused() {
        for text in ["", "\n\n", "# comment only\n", "\u{feff}"] {
            let e = read_kif(text).unwrap_err();
            assert_eq!(e.kind, RecordErrorKind::Empty, "{text:?}");
        }
        // Headers alone are a record of the start position with no moves.
        let r = read_kif("手合割：平手\n").unwrap();
        assert!(r.main.moves.is_empty());
    }

    /// Issue 15: a line holding `:` inside a move or clock is not a header.
    #[test]
    fn move_like_lines_are_not_headers() {
        let e = read_kif("手合割：平手\n {  1 ７六歩(77)   ( 0:01/00:00:01)\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, RecordErrorKind::UnknownLine(_)), "{e}");
        let r = read_kif("開始日時：2024/01/02 10:00:00\n棋戦：test\n").unwrap();
        assert_eq!(r.header("開始日時"), Some("2024/01/02 10:00:00"));
        assert_eq!(r.header("棋戦"), Some("test"));
    }

    /// Issue 15: a file's `#` header comment stays in front and each line's `まで…`
    /// summary stays after that line's moves, in KIF and in KI2.
    #[test]
    fn header_comments_and_summaries_keep_their_place() {
        let kif = "#KIF version=2.0 encoding=UTF-8\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33) +\n   3 投了\nまで2手で後手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n   3 投了\nまで2手で後手の勝ち\n#末尾のコメント\n";
        let r = read_kif(kif).unwrap();
        assert_eq!(r.header_comments, ["#KIF version=2.0 encoding=UTF-8"]);
        assert_eq!(r.trailer, ["#末尾のコメント"]);
        assert_eq!(r.main.summary.as_deref(), Some("まで2手で後手の勝ち"));
        assert_eq!(write_kif(&r, Flavor::Kif), kif);
        let ki2 = write_kif(&r, Flavor::Ki2);
        assert_eq!(
            ki2,
            "#KIF version=2.0 encoding=UTF-8\n手合割：平手\n▲７六歩    △３四歩\n投了\nまで2手で後手の勝ち\n\n変化：2手\n△８四歩\n投了\nまで2手で後手の勝ち\n#末尾のコメント\n"
        );
        assert_eq!(
            read_kif(&ki2).unwrap().main.moves[1].variations[0].summary,
            r.main.moves[1].variations[0].summary
        );
    }

    /// Issue 15: `まで…` closes the line; a move after it is refused (KIF and KI2),
    /// while a 変化 after it is read.
    #[test]
    fn moves_after_the_summary_are_refused() {
        let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\n   3 ２六歩(27)\n";
        let e = read_kif(kif).unwrap_err();
        assert_eq!(e.line, 5);
        assert!(matches!(e.kind, RecordErrorKind::MoveAfterEnd(_)), "{e}");
        let ki2 = "手合割：平手\n▲７六歩 △３四歩\nまで2手で後手の勝ち\n▲２六歩\n";
        let e = read_kif(ki2).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(matches!(e.kind, RecordErrorKind::MoveAfterEnd(_)), "{e}");
        let branch = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n\n変化：2手\n   2 ８四歩(83)\nまで2手で中断\n";
        let r = read_kif(branch).unwrap();
        assert_eq!(r.main.moves.len(), 2);
        assert_eq!(r.main.moves[1].variations.len(), 1);
    }
}
