//! A game record independent of its file format: start position, headers,
//! a tree of moves (main line with 変化 branches), comments, times, end word.
//! Read and written by [`kif`](super::kif) (KIF, KI2) and [`csa`](super::csa).

use super::japanese::MoveTextError;
use crate::rules::{Move, Position, PositionError};
use thiserror::Error;

/// Time spent on a move and the running total, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveTime {
    /// Seconds spent on this move.
    pub this: u32,
    /// Total seconds used by this side so far, if known.
    pub total: Option<u32>,
}

/// How a line ends (KIF end words; CSA `%` commands map onto them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndWord {
    /// 投了 (`%TORYO`)
    Resign,
    /// 中断 (`%CHUDAN`)
    Interrupt,
    /// 千日手 (`%SENNICHITE`)
    Repetition,
    /// 持将棋 (`%JISHOGI`)
    Impasse,
    /// 詰み (`%TSUMI`)
    Mate,
    /// 不詰 (`%FUZUMI`)
    NoMate,
    /// 切れ負け (`%TIME_UP`)
    TimeUp,
    /// 反則勝ち (`%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: the previous mover lost by a foul)
    IllegalWin,
    /// 反則負け (`%ILLEGAL_MOVE`)
    IllegalLoss,
    /// 入玉勝ち (`%KACHI`)
    EnteringKing,
    /// 封じ手 (no CSA equivalent)
    Sealed,
    /// `%MATTA` (待った; CSA only)
    Matta,
    /// `%HIKIWAKE` (引き分け)
    Draw,
    /// `%MAX_MOVES` (手数制限)
    MaxMoves,
    /// `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION` naming the side to move: it fouled and lost
    /// (KIF writes 反則負け, which reads back as [`EndWord::IllegalLoss`]).
    IllegalAction,
    /// `%ERROR` (CSA only; KIF writes 中断, which reads back as [`EndWord::Interrupt`]).
    Error,
}

impl EndWord {
    /// All end words.
    pub const ALL: [EndWord; 16] = [
        EndWord::Resign,
        EndWord::Interrupt,
        EndWord::Repetition,
        EndWord::Impasse,
        EndWord::Mate,
        EndWord::NoMate,
        EndWord::TimeUp,
        EndWord::IllegalWin,
        EndWord::IllegalLoss,
        EndWord::EnteringKing,
        EndWord::Sealed,
        EndWord::Matta,
        EndWord::Draw,
        EndWord::MaxMoves,
        EndWord::IllegalAction,
        EndWord::Error,
    ];
    /// The KIF word.
    pub const fn kif(self) -> &'static str {
        match self {
            EndWord::Resign => "投了",
            EndWord::Interrupt => "中断",
            EndWord::Repetition => "千日手",
            EndWord::Impasse => "持将棋",
            EndWord::Mate => "詰み",
            EndWord::NoMate => "不詰",
            EndWord::TimeUp => "切れ負け",
            EndWord::IllegalWin => "反則勝ち",
            EndWord::IllegalLoss => "反則負け",
            EndWord::EnteringKing => "入玉勝ち",
            EndWord::Sealed => "封じ手",
            EndWord::Matta => "待った",
            EndWord::Draw => "引き分け",
            EndWord::MaxMoves => "手数制限",
            EndWord::IllegalAction => "反則負け",
            EndWord::Error => "中断",
        }
    }
    /// Whether KIF has a word of its own for this one (`%ERROR` has none: it is
    /// written 中断; `%±ILLEGAL_ACTION` of the side to move is 反則負け, as `%ILLEGAL_MOVE`).
    pub fn kif_keeps(self) -> bool {
        EndWord::from_kif(self.kif()) == Some(self) || self == EndWord::IllegalAction
    }
    /// The word for a KIF word (also `詰` for 詰み; 反則負け and 中断 give the first word of
    /// [`EndWord::ALL`] so written, [`EndWord::IllegalLoss`] and [`EndWord::Interrupt`]).
    pub fn from_kif(s: &str) -> Option<EndWord> {
        if s == "詰" {
            return Some(EndWord::Mate);
        }
        EndWord::ALL.into_iter().find(|w| w.kif() == s)
    }
    /// The CSA `%` command (without `%`; `ILLEGAL_ACTION` is written with the fouler's sign by the caller).
    pub const fn csa(self) -> Option<&'static str> {
        match self {
            EndWord::Resign => Some("TORYO"),
            EndWord::Interrupt => Some("CHUDAN"),
            EndWord::Repetition => Some("SENNICHITE"),
            EndWord::Impasse => Some("JISHOGI"),
            EndWord::Mate => Some("TSUMI"),
            EndWord::NoMate => Some("FUZUMI"),
            EndWord::TimeUp => Some("TIME_UP"),
            EndWord::IllegalWin => Some("ILLEGAL_ACTION"),
            EndWord::IllegalLoss => Some("ILLEGAL_MOVE"),
            EndWord::EnteringKing => Some("KACHI"),
            EndWord::Sealed => None,
            EndWord::Matta => Some("MATTA"),
            EndWord::Draw => Some("HIKIWAKE"),
            EndWord::MaxMoves => Some("MAX_MOVES"),
            EndWord::IllegalAction => Some("ILLEGAL_ACTION"),
            EndWord::Error => Some("ERROR"),
        }
    }
}

/// The end of a line: the word and the time spent before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ending {
    /// The end word.
    pub word: EndWord,
    /// Time, if written.
    pub time: Option<MoveTime>,
}

/// One move of a record, with what the file says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordMove {
    /// The move.
    pub mv: Move,
    /// Time, if written.
    pub time: Option<MoveTime>,
    /// Comment lines after the move (`*` in KIF, `'*` in CSA), without the marker.
    pub comments: Vec<String>,
    /// しおり (`&` in KIF), without the marker.
    pub bookmark: Option<String>,
    /// 変化: alternative lines that replace this move (each starts with its own first move).
    pub variations: Vec<Line>,
}

impl RecordMove {
    /// A bare move.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time: None,
            comments: Vec::new(),
            bookmark: None,
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves and how it ends.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// The moves.
    pub moves: Vec<RecordMove>,
    /// The end word, if any.
    pub end: Option<Ending>,
    /// The `まで…` summary line written after this line's moves, verbatim.
    pub summary: Option<String>,
}

/// A game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Header fields (`key：value` in KIF, `$KEY:value` and `N+`/`N-` in CSA), in file order.
    pub headers: Vec<(String, String)>,
    /// The initial position.
    pub start: Position,
    /// The number of the first move (1, or the diagram's 手数 + 1).
    pub first_move_number: u32,
    /// `#` comment lines before the headers (`#KIF version=2.0 encoding=Shift_JIS`), verbatim.
    pub header_comments: Vec<String>,
    /// Comments before the first move.
    pub start_comments: Vec<String>,
    /// The main line with its branches.
    pub main: Line,
    /// `#` comment lines after the headers, kept verbatim (written at the end).
    pub trailer: Vec<String>,
    /// A CSA file's `'` comment lines other than `'*` comments and the `'CSA encoding=`
    /// line (floodgate's `'Max_Moves:256`, `'black_rate:…`, `'summary:…`), without the
    /// `'`, each with the number of main-line moves read before it; written back by
    /// [`write_csa`](super::csa::write_csa) only.
    pub csa_comments: Vec<(usize, String)>,
    /// How many CSA V3.0 times had a fraction of a second (`T2.5`): [`MoveTime`] holds
    /// whole seconds, so they were truncated (`T2`).
    pub truncated_times: usize,
}

impl Record {
    /// A record of `moves` from `start` with no headers.
    pub fn from_moves(start: Position, moves: &[Move]) -> Record {
        Record {
            headers: Vec::new(),
            start,
            first_move_number: 1,
            header_comments: Vec::new(),
            start_comments: Vec::new(),
            main: Line {
                moves: moves.iter().map(|&m| RecordMove::new(m)).collect(),
                end: None,
                summary: None,
            },
            trailer: Vec::new(),
            csa_comments: Vec::new(),
            truncated_times: 0,
        }
    }
    /// The main-line moves.
    pub fn main_moves(&self) -> Vec<Move> {
        self.main.moves.iter().map(|m| m.mv).collect()
    }
    /// The position after the first `ply` main-line moves (`None` if the line is shorter).
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        let mut p = self.start.clone();
        for m in self.main.moves.get(..ply)? {
            p.play_unchecked(m.mv);
        }
        Some(p)
    }
    /// The value of the first header named `key`.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// What is wrong with a record file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// Neither UTF-8 nor Shift_JIS.
    #[error("not a text record: neither UTF-8 nor Shift_JIS (byte {0} of the line)")]
    Encoding(usize),
    /// A NUL byte: a binary file.
    #[error("not a text record: a binary file (NUL byte at byte {0} of the line)")]
    Binary(usize),
    /// UTF-8 text that ends inside a character: a file cut short (not read as Shift_JIS,
    /// which would turn the whole text into other characters).
    #[error("UTF-8 text cut off inside a character (byte {0} of the line): a truncated file?")]
    TruncatedUtf8(usize),
    /// A line that fits nothing the format allows here.
    #[error("unrecognised line {0:?}")]
    UnknownLine(String),
    /// An unknown 手合割.
    #[error("unknown 手合割 {0:?}")]
    UnknownHandicap(String),
    /// A bad board-diagram line (quoted).
    #[error("bad board diagram line {0:?}")]
    BadBoard(String),
    /// A board given row by row (a KIF diagram's `|…|一` lines, CSA's `P1`…`P9`)
    /// that is not each of the nine rows once with nine squares, at `column` where
    /// known (CSA).
    #[error("{error}")]
    BoardRow {
        /// The 1-based character column in the line, where known.
        column: Option<usize>,
        /// What is wrong.
        error: BoardRowError,
    },
    /// A bad hand (持駒) field.
    #[error("bad hand {0:?}")]
    BadHand(String),
    /// The initial position is not legal.
    #[error("the initial position is illegal: {0}")]
    Position(PositionError),
    /// A move number out of sequence.
    #[error("move number {found}, expected {expected}")]
    MoveNumber {
        /// The number the sequence requires.
        expected: u32,
        /// The number written.
        found: u32,
    },
    /// A move that is malformed, illegal or ambiguous.
    #[error("move {number} {text:?}: {error}")]
    Move {
        /// The move number.
        number: u32,
        /// The move text.
        text: String,
        /// What is wrong.
        error: MoveTextError,
    },
    /// A bad time field.
    #[error("bad time {0:?}")]
    BadTime(String),
    /// A move after the line's end word.
    #[error("move after the end of the line ({0})")]
    MoveAfterEnd(String),
    /// A 変化 branch that attaches to no earlier move.
    #[error("変化：{0}手 does not branch from any line read so far")]
    BadVariation(u32),
    /// A CSA-specific problem.
    #[error("{0}")]
    Csa(String),
    /// Nothing but blank lines, comments or a version line: no game to read.
    #[error("no record in the file (no header, position or move)")]
    Empty,
}

/// What is wrong with a board given row by row: each of the nine ranks must be given
/// once, with nine squares (a KIF diagram's `|…|一` rows, CSA's `P1`…`P9`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BoardRowError {
    /// A rank given a second time, first at line `first`: the rows would overwrite
    /// each other.
    #[error("rank {rank} is given twice (first on line {first})")]
    Repeated {
        /// The rank, 1–9 (一–九, `P1`–`P9`).
        rank: u8,
        /// The line of its first row.
        first: usize,
    },
    /// A row holding more than nine squares.
    #[error("rank {rank} has more than nine squares")]
    TooLong {
        /// The rank, 1–9.
        rank: u8,
    },
    /// Rows are given but not this one: the board would have an empty rank the
    /// record never wrote.
    #[error("the board has no row for rank {rank} (every rank 1 to 9 must be given)")]
    Missing {
        /// The first rank missing, 1–9.
        rank: u8,
    },
}

/// A record error with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

impl RecordError {
    /// The 1-based column in the line where known: the byte of undecodable bytes
    /// ([`RecordErrorKind::Encoding`], [`RecordErrorKind::Binary`],
    /// [`RecordErrorKind::TruncatedUtf8`]), the character of a bad CSA board row
    /// ([`RecordErrorKind::BoardRow`]).
    pub fn column(&self) -> Option<usize> {
        match self.kind {
            RecordErrorKind::Encoding(b)
            | RecordErrorKind::Binary(b)
            | RecordErrorKind::TruncatedUtf8(b) => Some(b),
            RecordErrorKind::BoardRow { column, .. } => column,
            _ => None,
        }
    }
}

/// The UTF-8 byte order mark, which some editors put at the start of a text file.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The 1-based line and byte of the line at which `offset` of `bytes` lies (lines end
/// with `\n`), for errors located in undecoded text.
pub fn line_and_byte(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    (line, offset - line_start + 1)
}

/// Decodes a record file: UTF-8 (with or without BOM), else Shift_JIS (CP932).
///
/// # Errors
/// [`RecordErrorKind::Binary`] at the first NUL byte; [`RecordErrorKind::TruncatedUtf8`] for
/// UTF-8 text (some characters beyond ASCII decoded) that ends inside a character;
/// [`RecordErrorKind::Encoding`] if the bytes are neither UTF-8 nor Shift_JIS, at the first
/// byte the decoder that read further could not read (1-based line and byte).
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    let b = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let at = |offset: usize, kind: fn(usize) -> RecordErrorKind| {
        let (line, byte) = line_and_byte(b, offset);
        RecordError {
            line,
            kind: kind(byte),
        }
    };
    if let Some(nul) = b.iter().position(|&c| c == 0) {
        return Err(at(nul, RecordErrorKind::Binary));
    }
    let bad = match std::str::from_utf8(b) {
        Ok(s) => return Ok(s.to_string()),
        Err(e) => e,
    };
    let utf8_prefix = &b[..bad.valid_up_to()];
    if bad.error_len().is_none() && !utf8_prefix.is_ascii() {
        return Err(at(bad.valid_up_to(), RecordErrorKind::TruncatedUtf8));
    }
    encoding_rs::SHIFT_JIS
        .decode_without_bom_handling_and_without_replacement(b)
        .map(|c| c.into_owned())
        .ok_or_else(|| {
            let sjis_bad = shift_jis_error_at(b).unwrap_or(0);
            at(bad.valid_up_to().max(sjis_bad), RecordErrorKind::Encoding)
        })
}

/// The offset of the first byte of `b` that is not Shift_JIS (`None` if all are).
fn shift_jis_error_at(b: &[u8]) -> Option<usize> {
    let mut decoder = encoding_rs::SHIFT_JIS.new_decoder_without_bom_handling();
    let mut out =
        String::with_capacity(decoder.max_utf8_buffer_length_without_replacement(b.len())?);
    match decoder.decode_to_string_without_replacement(b, &mut out, true) {
        (encoding_rs::DecoderResult::Malformed(len, after), read) => {
            Some(read - usize::from(len) - usize::from(after))
        }
        _ => None,
    }
}

/// Encodes text as Shift_JIS (for `.kif`/`.ki2` files); characters Shift_JIS lacks become `?`… so
/// this returns `None` instead when any character is unmappable.
pub fn encode_shift_jis(text: &str) -> Option<Vec<u8>> {
    let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
    if had_errors {
        None
    } else {
        Some(bytes.into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecodable_bytes_are_located() {
        // A NUL byte: binary, on line 2 at byte 3.
        let e = decode(b"abc\nde\0f").unwrap_err();
        assert_eq!((e.line, e.kind.clone()), (2, RecordErrorKind::Binary(3)));
        assert_eq!(
            e.to_string(),
            "line 2: not a text record: a binary file (NUL byte at byte 3 of the line)"
        );
        // 0xFF 0xFF is neither UTF-8 nor Shift_JIS: line 3, byte 2.
        let e = decode(b"x\ny\nz\xff\xff").unwrap_err();
        assert_eq!((e.line, e.kind), (3, RecordErrorKind::Encoding(2)));
        // UTF-8 cut inside its last character is reported, not read as Shift_JIS.
        let cut = &"手合割：平手\n先手：羽生".as_bytes()[..30];
        let e = decode(cut).unwrap_err();
        assert_eq!((e.line, e.kind), (2, RecordErrorKind::TruncatedUtf8(10)));
        // Shift_JIS cut inside its last character: located there, not at the first
        // byte that is not UTF-8 (line 1).
        let sjis = encode_shift_jis("手合割：平手\n先手：羽生").unwrap();
        let e = decode(&sjis[..sjis.len() - 1]).unwrap_err();
        assert_eq!((e.line, e.kind), (2, RecordErrorKind::Encoding(9)));
        // Shift_JIS and UTF-8 with a BOM still decode.
        assert_eq!(decode(b"\x82\xa0").unwrap(), "あ");
        assert_eq!(decode("\u{feff}あ".as_bytes()).unwrap(), "あ");
    }
}
