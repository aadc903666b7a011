//! The header part of a record, before the first move: free `key：value`
//! headers, and the 手合割, BOD diagram, hands, side to move and `手数＝N`
//! that make the initial position.

use super::diagram::{parse_bod_row, parse_hand};
use super::err;
use super::handicap::handicap_setup;
use super::numbers::kanji_number;
use crate::notation::record::{BoardRowError, RecordError, RecordErrorKind};
use crate::rules::{ByColor, Color, Hand, Piece, Position, Rules, Setup, Square};

/// What the header part has said so far.
#[derive(Default)]
pub(super) struct Preamble {
    /// Free headers in file order (not 手合割 or the hands).
    pub(super) headers: Vec<(String, String)>,
    /// The 手合割 and its line.
    handicap: Option<(usize, String)>,
    board: Option<[Option<Piece>; 81]>,
    /// The line of each rank's `|…|一` row, rank 1 first.
    row_lines: [Option<usize>; 9],
    /// The first line of the diagram: a hand, the file numbers, a border or a row.
    diagram_start: Option<usize>,
    /// Per color: not given, `Some(None)` for 残り全部, or the hand.
    hands: ByColor<Option<Option<Hand>>>,
    side: Option<Color>,
    /// `手数＝N`: the moves played before the diagram.
    diagram_moves: Option<u32>,
}

impl Preamble {
    /// Reads one line of the header part (`line` as written, `t` trimmed).
    pub(super) fn read_line(&mut self, ln: usize, line: &str, t: &str) -> Result<(), RecordError> {
        if line.starts_with('|') {
            self.diagram_start.get_or_insert(ln);
            return self.read_board_row(ln, line, t);
        }
        if (t.starts_with('+') && t.trim_matches(['+', '-']).is_empty())
            || t.chars().all(|c| "１２３４５６７８９ 　".contains(c))
        {
            self.diagram_start.get_or_insert(ln);
            return Ok(());
        }
        match t {
            "先手番" | "下手番" => {
                self.side = Some(Color::Sente);
                return Ok(());
            }
            "後手番" | "上手番" => {
                self.side = Some(Color::Gote);
                return Ok(());
            }
            _ => {}
        }
        if let Some(n) = t.strip_prefix("手数＝").or_else(|| t.strip_prefix("手数=")) {
            self.diagram_moves = Some(
                kanji_number(n).ok_or_else(|| err(ln, RecordErrorKind::UnknownLine(t.into())))?,
            );
            return Ok(());
        }
        if let Some((k, v)) = t
            .split_once('：')
            .or_else(|| t.split_once(':'))
            .filter(|(k, _)| is_header_key(k.trim()))
        {
            return self.read_header(ln, k.trim(), v.trim());
        }
        Err(err(ln, RecordErrorKind::UnknownLine(t.into())))
    }

    /// One BOD row `| ・v玉 …|一` onto the board.
    fn read_board_row(&mut self, ln: usize, line: &str, t: &str) -> Result<(), RecordError> {
        let (rank, row) =
            parse_bod_row(line).ok_or_else(|| err(ln, RecordErrorKind::BadBoard(t.into())))?;
        if let Some(first) = self.row_lines[rank as usize - 1] {
            return Err(err(
                ln,
                RecordErrorKind::BoardRow {
                    column: None,
                    error: BoardRowError::Repeated { rank, first },
                },
            ));
        }
        let b = self.board.get_or_insert([None; 81]);
        for (i, pc) in row.iter().enumerate() {
            let sq = Square::new(9 - i as u8, rank).expect("file/rank in range");
            b[sq.index()] = *pc;
        }
        self.row_lines[rank as usize - 1] = Some(ln);
        Ok(())
    }

    /// A `key：value` line: a hand, the 手合割, or a free header.
    fn read_header(&mut self, ln: usize, k: &str, v: &str) -> Result<(), RecordError> {
        let hand_of = match k {
            "先手の持駒" | "下手の持駒" => Some(Color::Sente),
            "後手の持駒" | "上手の持駒" => Some(Color::Gote),
            _ => None,
        };
        if let Some(c) = hand_of {
            self.diagram_start.get_or_insert(ln);
            let h = parse_hand(v).map_err(|_| err(ln, RecordErrorKind::BadHand(v.into())))?;
            self.hands[c] = Some(h);
        } else if k == "手合割" {
            // Part of the initial position, not a free header.
            self.handicap = Some((ln, v.to_string()));
        } else {
            self.headers.push((k.to_string(), v.to_string()));
        }
        Ok(())
    }

    /// The number of the first move: 1, or one after `手数＝N`.
    pub(super) fn first_move_number(&self) -> u32 {
        self.diagram_moves.map_or(1, |n| n + 1)
    }

    /// The initial position, when the header part ends at line `ln`.
    ///
    /// # Errors
    /// A diagram without nine rows, an unknown 手合割 (at its own line), both
    /// hands 残り全部 (at `ln`), or an illegal position; a diagram's rows and its
    /// illegal position at the diagram's first line, the rest at `ln`.
    pub(super) fn initial_position(&self, ln: usize) -> Result<Position, RecordError> {
        let at = match self.board {
            Some(_) => self.diagram_start.unwrap_or(ln),
            None => ln,
        };
        let mut setup = self.board_setup(at)?;
        setup.hands = self.hands_for(&setup, ln)?;
        position_from_setup(setup).map_err(|k| err(at, k))
    }

    /// The diagram's board and side, else the 手合割's position (平手 if none).
    fn board_setup(&self, ln: usize) -> Result<Setup, RecordError> {
        match self.board {
            Some(b) => {
                if let Some(rank) = self.row_lines.iter().position(Option::is_none) {
                    return Err(err(
                        ln,
                        RecordErrorKind::BoardRow {
                            column: None,
                            error: BoardRowError::Missing {
                                rank: rank as u8 + 1,
                            },
                        },
                    ));
                }
                Ok(Setup {
                    board: b,
                    hands: ByColor::default(),
                    side_to_move: self.side.unwrap_or(Color::Sente),
                    move_number: 1,
                })
            }
            None => {
                let (hl, name) = self.handicap.clone().unwrap_or((ln, "平手".into()));
                let mut s = handicap_setup(&name)
                    .ok_or_else(|| err(hl, RecordErrorKind::UnknownHandicap(name)))?;
                if let Some(c) = self.side {
                    s.side_to_move = c;
                }
                Ok(s)
            }
        }
    }

    /// The hands: as given, else the setup's (a diagram's are empty, a 手合割's its
    /// own: 歩三兵 gives Gote three pawns); one 残り全部 hand gets the rest of the pieces.
    fn hands_for(&self, setup: &Setup, ln: usize) -> Result<ByColor<Hand>, RecordError> {
        let sente = self.hands.sente.unwrap_or(Some(setup.hands.sente));
        let gote = self.hands.gote.unwrap_or(Some(setup.hands.gote));
        match (sente, gote) {
            (Some(s), Some(g)) => Ok(ByColor { sente: s, gote: g }),
            (Some(s), None) => Ok(ByColor {
                sente: s,
                gote: setup.rest_of_pieces(s),
            }),
            (None, Some(g)) => Ok(ByColor {
                sente: setup.rest_of_pieces(g),
                gote: g,
            }),
            (None, None) => Err(err(
                ln,
                RecordErrorKind::BadHand("both hands are 残り全部".into()),
            )),
        }
    }
}

/// A `key：value` header key: a nonempty word (Kifu for Windows keys such as
/// 開始日時, 先手, 手合割 hold no spaces, brackets or move text). A line whose
/// "key" fails this — e.g. a move with a `0:01` clock — is not a header.
fn is_header_key(k: &str) -> bool {
    !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && !k.contains(|c: char| c.is_whitespace() || "(){}（）[]<>".contains(c))
}

/// The position for a setup: a game's, or a tsume problem's when one side has no king
/// ([`Rules::game_or_tsume`]: the kingless side attacks, whoever is to move).
pub(crate) fn position_from_setup(setup: Setup) -> Result<Position, RecordErrorKind> {
    let rules = Rules::game_or_tsume(&setup);
    Position::from_setup(setup, rules).map_err(RecordErrorKind::Position)
}
