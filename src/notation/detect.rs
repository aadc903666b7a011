//! Reading a record file whose format is not given: the bytes are decoded
//! ([`decode`]: UTF-8 with or without BOM, else Shift_JIS), the format is chosen
//! from the file name and the first line ([`detect`]), and the text goes to that
//! format's reader.
//!
//! What [`detect`] accepts, in this order:
//! - **CSA** ([`read_csa`], every game of the file): the name ends in `.csa` in any
//!   case (`GAME.CSA`, as the CLI's record-file test takes it), or the first line
//!   starts with `V2`, `V3`, `PI`, `P1`, `N+`, `N-` or `$`;
//! - **USI** ([`parse_game_or_tsume`], one game a non-blank line): the first line
//!   starts with `position`, `sfen` or `startpos`; each line is checked as a game's
//!   position, or a tsume one when a side has no king (the attacker, to move or not),
//!   and its moves are played from it;
//! - **KIF/KI2** ([`read_kif`], one game) otherwise, whatever the name.
//!
//! The first line is the first one that is not blank, not a CSA comment (`'…`)
//! and not a KIF comment (`#…`), a BOM and surrounding white space removed. Other
//! extensions (`.kif`, `.kifu`, `.ki2`, `.sfen`, `.usi`) are not looked at: such
//! files are told apart by their first line. A file of bare SFENs (no `sfen` or
//! `position` word) is read as KIF and refused.
//!
//! Where either a record or lines of positions may come (`shogi-lab tsume`'s file or
//! stdin), [`sniff`] tells which from the name and the first deciding line, before
//! [`read_records`] reads a record.

use super::csa::read_csa;
use super::kif::read_kif;
use super::record::{decode, Record, RecordError, RecordErrorKind, BOM};
use super::sfen::{parse_game_or_tsume, UsiPositionError};
use std::fmt;
use thiserror::Error;

/// The format a record file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordFormat {
    /// CSA V2.2/V3.0, several games split by `/`.
    Csa,
    /// USI `position …` lines (or bare `startpos`/`sfen …`), one game a line.
    Usi,
    /// 柿木 KIF or KI2 (one grammar, [`read_kif`]).
    Kif,
}

/// The format of a record file named `name` (a path, or `-` for stdin) whose
/// decoded text is `text`: CSA by the `.csa` extension (any case) or the first line,
/// USI by the first line, else KIF/KI2 (module docs).
pub fn detect(name: &str, text: &str) -> RecordFormat {
    let first = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .find(|l| !l.is_empty() && !l.starts_with('\'') && !l.starts_with('#'))
        .unwrap_or("");
    let looks_csa =
        ends_with_ignoring_case(name, ".csa") || CSA_STARTS.iter().any(|p| first.starts_with(p));
    if looks_csa {
        RecordFormat::Csa
    } else if USI_STARTS.iter().any(|p| first.starts_with(p)) {
        RecordFormat::Usi
    } else {
        RecordFormat::Kif
    }
}

/// What a file (or stdin) given where positions are expected holds: a game record,
/// or lines of positions. `shogi-lab tsume` reads both; [`sniff`] tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Content {
    /// A KIF/KI2 ([`RecordFormat::Kif`]) or CSA ([`RecordFormat::Csa`]) game record,
    /// for [`read_records`].
    Record(RecordFormat),
    /// One position a line: a SFEN or a USI position text (`position …`, `sfen …`,
    /// `startpos …`), optionally after an id and a tab, `#` comments.
    Positions,
}

/// The record file extensions: `.kif`, `.kifu`, `.ki2`, `.ki2u` (KIF/KI2) and `.csa`.
pub const RECORD_EXTENSIONS: [&str; 5] = [".kif", ".kifu", ".ki2", ".ki2u", ".csa"];

/// The record format `name`'s extension says ([`RECORD_EXTENSIONS`], any case).
pub fn record_extension(name: &str) -> Option<RecordFormat> {
    if ends_with_ignoring_case(name, ".csa") {
        return Some(RecordFormat::Csa);
    }
    RECORD_EXTENSIONS
        .iter()
        .any(|e| ends_with_ignoring_case(name, e))
        .then_some(RecordFormat::Kif)
}

/// Whether line `raw` is skipped when [`sniff`] looks for the first line that
/// decides: blank, a `#` comment (KIF and position lists) or a `'` comment (CSA).
pub fn is_skipped_line(raw: &[u8]) -> bool {
    let t = raw.trim_ascii();
    let t = t.strip_prefix(BOM).unwrap_or(t).trim_ascii();
    t.is_empty() || t.starts_with(b"#") || t.starts_with(b"'")
}

/// What a file named `name` (a path, or `-` for stdin) holds, from its name and
/// `first`, its first line that [`is_skipped_line`] does not skip (as bytes:
/// UTF-8 or Shift_JIS; empty if there is none):
/// - a record by its extension ([`record_extension`]);
/// - CSA when the line starts like a CSA file (`V2`, `V3`, `PI`, `P1`, `N+`, `N-`, `$`);
/// - positions when it holds a tab (`id<TAB>SFEN`) or starts with `position`, `sfen`
///   or `startpos`;
/// - KIF/KI2 when it holds a character beyond ASCII (a header `手合割：平手`, a hand
///   `後手の持駒：なし`, the file numbers `９ ８ …`, a move) or starts like a diagram
///   (`|`, `+-`): a SFEN is ASCII;
/// - else positions (a bad SFEN is answered as a bad position line, not as a record).
///
/// A line that is neither UTF-8 nor Shift_JIS decides positions (its error is the
/// position list's, located at that line).
pub fn sniff(name: &str, first: &[u8]) -> Content {
    if let Some(f) = record_extension(name) {
        return Content::Record(f);
    }
    let Ok(text) = decode(first) else {
        return Content::Positions;
    };
    let line = text.trim_start_matches('\u{feff}').trim();
    if line.contains('\t') {
        Content::Positions
    } else if CSA_STARTS.iter().any(|p| line.starts_with(p)) {
        Content::Record(RecordFormat::Csa)
    } else if USI_STARTS.iter().any(|p| line.starts_with(p)) {
        Content::Positions
    } else if !line.is_ascii() || line.starts_with('|') || line.starts_with("+-") {
        Content::Record(RecordFormat::Kif)
    } else {
        Content::Positions
    }
}

/// [`sniff`] on the start of a file's bytes: its first line that [`is_skipped_line`] does
/// not skip (a line cut by the end of `head` counts as it is).
pub fn sniff_head(name: &str, head: &[u8]) -> Content {
    let first = head
        .split(|&b| b == b'\n')
        .find(|l| !is_skipped_line(l))
        .unwrap_or(&[]);
    sniff(name, first)
}

/// How the first line of a CSA file starts.
const CSA_STARTS: [&str; 7] = ["V2", "V3", "PI", "P1", "N+", "N-", "$"];
/// How the first line of a file of USI positions starts.
const USI_STARTS: [&str; 3] = ["position", "sfen", "startpos"];

/// Whether `name` ends in `suffix` (ASCII), letters compared case-insensitively.
fn ends_with_ignoring_case(name: &str, suffix: &str) -> bool {
    let (name, suffix) = (name.as_bytes(), suffix.as_bytes());
    name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// What is wrong with a record file, without its place.
///
/// `Display` is the message alone, as the CLI prints it after `PATH:LINE:COL:`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The bytes are not text ([`RecordErrorKind::Binary`], [`RecordErrorKind::Encoding`]),
    /// or the CSA or KIF/KI2 reader refused the text.
    #[error("{0}")]
    Record(RecordErrorKind),
    /// A USI line is malformed or illegal: its start, or a move (numbered from 1).
    #[error("{}", usi_message(.0))]
    Usi(UsiPositionError),
    /// A JSON text (JKF): written by `convert --to jkf`, not read.
    #[error("JKF (JSON) input is not supported: give KIF, KI2, CSA or USI")]
    Jkf,
}

/// The message of a USI line's error without its byte span (the column says where).
fn usi_message(e: &UsiPositionError) -> String {
    match e {
        UsiPositionError::Sfen(e) => e.kind.to_string(),
        UsiPositionError::Move { index, error, .. } => format!("move {}: {error}", index + 1),
    }
}

/// A record file that cannot be read, with where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct ReadError {
    /// The format the text was read as; `None` when the bytes did not decode.
    pub format: Option<RecordFormat>,
    /// 1-based line of the file.
    pub line: usize,
    /// 1-based column where known: characters in a USI line or a bad CSA board row,
    /// bytes for undecodable bytes; else `None` (the CSA and KIF/KI2 readers place by
    /// line).
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(c) = self.column {
            write!(f, ", column {c}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl ReadError {
    /// A CSA, KIF/KI2 or decoding error `e`, read as `format`.
    fn record(format: Option<RecordFormat>, e: RecordError) -> ReadError {
        ReadError {
            format,
            line: e.line,
            column: e.column(),
            kind: ReadErrorKind::Record(e.kind),
        }
    }
}

/// The 1-based character column of byte `offset` of the one-line `line` (clamped to
/// the line; inside a character, that character's).
fn char_column(line: &str, offset: usize) -> usize {
    let mut at = offset.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    line[..at].chars().count() + 1
}

/// Reads the records of a file named `name` (a path, or `-` for stdin; only its
/// extension is looked at) holding `bytes`: decoded, its format detected
/// ([`detect`]), then read by that format's reader (module docs). CSA and USI give
/// every game of the file, KIF/KI2 one.
///
/// # Errors
/// A [`ReadError`] with the line (and column where known): bytes that are not a
/// text record, a JSON (JKF) text (its first non-blank line starts with `{`), or the
/// first error of the format's reader.
pub fn read_records(name: &str, bytes: &[u8]) -> Result<Vec<Record>, ReadError> {
    let text = decode(bytes).map_err(|e| ReadError::record(None, e))?;
    let first = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim_start_matches('\u{feff}').trim()))
        .find(|(_, l)| !l.is_empty());
    if let Some((i, _)) = first.filter(|(_, l)| l.starts_with('{')) {
        return Err(ReadError {
            format: None,
            line: i + 1,
            column: None,
            kind: ReadErrorKind::Jkf,
        });
    }
    match detect(name, &text) {
        RecordFormat::Csa => {
            read_csa(&text).map_err(|e| ReadError::record(Some(RecordFormat::Csa), e))
        }
        RecordFormat::Usi => read_usi_lines(&text),
        RecordFormat::Kif => read_kif(&text)
            .map(|r| vec![r])
            .map_err(|e| ReadError::record(Some(RecordFormat::Kif), e)),
    }
}

/// One record per non-blank line of USI `position` text.
fn read_usi_lines(text: &str) -> Result<Vec<Record>, ReadError> {
    let mut out = Vec::new();
    for (i, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        // A game, or a tsume problem (one side without a king: Rules::game_or_tsume).
        let u = parse_game_or_tsume(l).map_err(|e| {
            let at = match &e {
                UsiPositionError::Sfen(s) => s.span.start,
                UsiPositionError::Move { span, .. } => span.start,
            };
            ReadError {
                format: Some(RecordFormat::Usi),
                line: i + 1,
                column: Some(char_column(l, at)),
                kind: ReadErrorKind::Usi(e),
            }
        })?;
        let mut start = u.position.clone();
        for _ in 0..u.moves.len() {
            start.undo();
        }
        out.push(Record::from_moves(start, &u.moves));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::record::encode_shift_jis;
    use crate::notation::sfen::write_sfen;

    const KIF: &str =
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    const KI2: &str = "手合割：平手\n▲７六歩 △３四歩\n";
    const CSA: &str = "V2.2\nPI\n+\n+7776FU\n-3334FU\n";
    const USI: &str = "position startpos moves 7g7f 3c3d\n";

    fn spec(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/specs/records/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn moves(r: &Record) -> Vec<String> {
        r.main_moves().iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn a_csa_extension_decides_whatever_the_text() {
        // The first line is a USI one, but the name says CSA: the CSA reader refuses it.
        assert_eq!(detect("a.csa", USI), RecordFormat::Csa);
        let e = read_records("a.csa", USI.as_bytes()).unwrap_err();
        assert_eq!((e.format, e.line), (Some(RecordFormat::Csa), 1));
        // Bare `+`/move lines: CSA only by the name.
        assert_eq!(detect("a.csa", "+\n+7776FU\n"), RecordFormat::Csa);
        assert_eq!(detect("a.kif", "+\n+7776FU\n"), RecordFormat::Kif);
        let r = read_records("x.csa", CSA.as_bytes()).unwrap();
        assert_eq!(moves(&r[0]), ["7g7f", "3c3d"]);
    }

    #[test]
    fn a_csa_extension_is_matched_in_any_case() {
        for name in ["GAME.CSA", "game.Csa", "dir/対局.cSa"] {
            assert_eq!(detect(name, "+\n+7776FU\n"), RecordFormat::Csa, "{name}");
            let r = read_records(name, CSA.as_bytes()).unwrap();
            assert_eq!(moves(&r[0]), ["7g7f", "3c3d"], "{name}");
        }
        // Only the ending counts, and all of it.
        for name in ["GAME.CSAX", "GAME.CS", "csa", "GAME.CSA.kif"] {
            assert_eq!(detect(name, "+\n+7776FU\n"), RecordFormat::Kif, "{name}");
        }
    }

    #[test]
    fn csa_is_known_by_its_first_line() {
        for first in [
            "V2.2", "V3.0", "PI", "P1-KY-KE", "N+sente", "N-gote", "$EVENT:x",
        ] {
            assert_eq!(
                detect("-", &format!("{first}\n")),
                RecordFormat::Csa,
                "{first}"
            );
        }
        // Comments and blank lines before it are skipped.
        assert_eq!(
            detect("game.kif", "\u{feff}\n' a CSA comment\n# a KIF one\n  PI\n"),
            RecordFormat::Csa
        );
        let r = read_records("-", format!("'c\n{CSA}").as_bytes()).unwrap();
        assert_eq!(moves(&r[0]), ["7g7f", "3c3d"]);
    }

    #[test]
    fn kif_kifu_and_ki2_names_are_read_as_kif() {
        for name in ["a.kif", "a.kifu", "a.ki2", "-"] {
            assert_eq!(detect(name, KIF), RecordFormat::Kif, "{name}");
            assert_eq!(detect(name, KI2), RecordFormat::Kif, "{name}");
            let r = read_records(name, KIF.as_bytes()).unwrap();
            assert_eq!(moves(&r[0]), ["7g7f", "3c3d"], "{name}");
            let r = read_records(name, KI2.as_bytes()).unwrap();
            assert_eq!(moves(&r[0]), ["7g7f", "3c3d"], "{name}");
        }
        // Nothing recognisable: KIF, whose reader says what is wrong.
        let e = read_records("a.kif", "これは何\n".as_bytes()).unwrap_err();
        assert_eq!(
            (e.format, e.line, e.column),
            (Some(RecordFormat::Kif), 1, None)
        );
        assert_eq!(e.kind.to_string(), "unrecognised line \"これは何\"");
    }

    #[test]
    fn usi_and_sfen_files_are_known_by_their_first_line() {
        let sfen = "sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b\n";
        for (name, text) in [
            ("a.usi", USI),
            ("a.sfen", sfen),
            ("a.kif", USI),
            ("-", "startpos\n"),
        ] {
            assert_eq!(detect(name, text), RecordFormat::Usi, "{name}");
        }
        // One game a non-blank line; a tsume start (no Sente king) is accepted.
        let r = read_records("a.usi", format!("{USI}\n{sfen}").as_bytes()).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(moves(&r[0]), ["7g7f", "3c3d"]);
        assert_eq!(
            write_sfen(&r[0].start),
            write_sfen(&crate::rules::Position::startpos())
        );
        assert_eq!(moves(&r[1]), ["G*5b"]);
        assert_eq!(
            write_sfen(&r[1].start),
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
        );
        // The same problem after ▲4二金: the defender to move, the attacker still kingless
        // (it was read as a game's start and refused: Sente has no king). With neither
        // king, refused for both.
        let after = "position sfen 4k4/5G3/4P4/9/9/9/9/9/9 w 2r2b3g4s4n4l17p 2 moves 5a6b\n";
        let r = read_records("a.usi", after.as_bytes()).unwrap();
        assert_eq!(moves(&r[0]), ["5a6b"]);
        let e = read_records("a.usi", b"sfen 9/9/9/9/9/9/9/9/9 w - 1\n").unwrap_err();
        assert!(
            e.to_string()
                .ends_with("illegal position: Sente has no king; Gote has no king"),
            "{e}"
        );
        // Bare SFENs are not detected: read as KIF and refused.
        let bare = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\n";
        assert_eq!(detect("a.sfen", bare), RecordFormat::Kif);
        assert!(read_records("a.sfen", bare.as_bytes()).is_err());
    }

    #[test]
    fn sniff_tells_records_from_position_lines_by_content() {
        let rec = |f| Content::Record(f);
        // By the name: a record whatever the first line.
        assert_eq!(sniff("a.KIF", b"startpos"), rec(RecordFormat::Kif));
        assert_eq!(sniff("a.ki2u", b""), rec(RecordFormat::Kif));
        assert_eq!(sniff("a.csa", b"8k/9 b - 1"), rec(RecordFormat::Csa));
        // By the first line, for any other name and for stdin.
        for name in ["p3.txt", "p3.bod", "-", "problems"] {
            for first in [
                "後手の持駒：なし",
                "手合割：平手",
                "  ９ ８ ７ ６ ５ ４ ３ ２ １",
                "+---------------------------+",
                "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一",
                "▲７六歩 △３四歩",
            ] {
                assert_eq!(
                    sniff(name, first.as_bytes()),
                    rec(RecordFormat::Kif),
                    "{first}"
                );
            }
            let sjis = encode_shift_jis("後手の持駒：なし").unwrap();
            assert_eq!(sniff(name, &sjis), rec(RecordFormat::Kif));
            for first in ["V2.2", "PI", "P1 *  * ", "N+sente", "$EVENT:x"] {
                assert_eq!(
                    sniff(name, first.as_bytes()),
                    rec(RecordFormat::Csa),
                    "{first}"
                );
            }
            for first in [
                "8k/9/8P/9/9/9/9/9/9 b G 1",
                "詰1\t8k/9/8P/9/9/9/9/9/9 b G 1",
                "position startpos moves 7g7f",
                "startpos",
                "sfen 8k/9/8P/9/9/9/9/9/9 b G 1",
                "junk",
                "",
            ] {
                assert_eq!(sniff(name, first.as_bytes()), Content::Positions, "{first}");
            }
            // Neither UTF-8 nor Shift_JIS: a position line that the list reports.
            assert_eq!(sniff(name, b"\xff\xfe"), Content::Positions);
        }
        // Comment and blank lines do not decide.
        for skipped in ["", "  ", "# Source: x", "'CSA comment", "\u{feff}#KIF"] {
            assert!(is_skipped_line(skipped.as_bytes()), "{skipped:?}");
        }
        assert!(!is_skipped_line(b"8k/9/8P/9/9/9/9/9/9 b G 1"));
    }

    #[test]
    fn shift_jis_and_utf8_read_alike() {
        let utf8 = read_records("a.kif", KIF.as_bytes()).unwrap();
        let sjis = read_records("a.kif", &encode_shift_jis(KIF).unwrap()).unwrap();
        let bom = read_records("a.kif", format!("\u{feff}{KIF}").as_bytes()).unwrap();
        assert_eq!(utf8, sjis);
        assert_eq!(utf8, bom);
        // The corpus: a Shift_JIS KIF and a UTF-8 KIFU with a BOM, read to their last move.
        let sjis = spec("sjis_hirate_times.kif");
        assert!(std::str::from_utf8(&sjis).is_err());
        let r = read_records("sjis_hirate_times.kif", &sjis).unwrap();
        assert_eq!(r[0].header("先手"), Some("山田太郎"));
        assert_eq!(r[0].main.moves[0].mv.to_string(), "7g7f");
        let bom = spec("utf8_bom_branches.kifu");
        assert!(bom.starts_with(b"\xEF\xBB\xBF"));
        let r = read_records("utf8_bom_branches.kifu", &bom).unwrap();
        assert_eq!(r[0].header("先手"), Some("先手さん"));
        assert_eq!(r[0].main.moves[0].mv.to_string(), "7g7f");
    }

    #[test]
    fn errors_carry_line_and_column() {
        // A USI move: line 3 (blank lines count), the character column of the move.
        let e = read_records(
            "a.usi",
            b"position startpos\n\nposition startpos moves 7g7f 7g7f\n",
        )
        .unwrap_err();
        assert_eq!(
            (e.format, e.line, e.column),
            (Some(RecordFormat::Usi), 3, Some(30))
        );
        assert_eq!(e.kind.to_string(), "move 2: illegal move 7g7f");
        assert_eq!(
            e.to_string(),
            "line 3, column 30: move 2: illegal move 7g7f"
        );
        // A bad SFEN: the column of the bad character, counted in characters.
        let e = read_records("-", "sfen 4k4/9/9/9/9/9/9/9/9 x - 1\n".as_bytes()).unwrap_err();
        assert_eq!((e.line, e.column), (1, Some(26)));
        // Undecodable bytes: no format, the byte column.
        let e = read_records("a.kif", b"ok\nx\xff\xff\n").unwrap_err();
        assert_eq!((e.format, e.line, e.column), (None, 2, Some(2)));
        assert_eq!(e.kind, ReadErrorKind::Record(RecordErrorKind::Encoding(2)));
        let e = read_records("a.kif", b"ab\ncd\0").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(3)));
        // A KIF error: its line, no column.
        let e = read_records("bad.kif", &spec("bad/illegal_move.kif")).unwrap_err();
        assert_eq!(
            (e.format, e.line, e.column),
            (Some(RecordFormat::Kif), 3, None)
        );
    }

    #[test]
    fn columns_count_characters_and_clamp() {
        assert_eq!(char_column("歩歩x", "歩歩".len()), 3);
        assert_eq!(char_column("歩", 1), 1);
        assert_eq!(char_column("ab", 99), 3);
    }
}
