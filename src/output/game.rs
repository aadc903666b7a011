//! Positions and game outcomes in JSON.

use crate::notation::record::EndWord;
use crate::rules::{Color, Outcome};
use serde::Serialize;

/// `sente` or `gote`.
pub const fn color_name(c: Color) -> &'static str {
    match c {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}

/// An [`Outcome`]: `{"result":"sente_win","winner":"sente","reason":"checkmate"}`;
/// `winner` and `reason` are `null` while the game goes on (and `winner` for a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OutcomeJson {
    /// `ongoing`, `sente_win`, `gote_win` or `draw`.
    pub result: &'static str,
    /// `sente`, `gote` or `null`.
    pub winner: Option<&'static str>,
    /// `checkmate`, `no_legal_moves`, `perpetual_check`, `declaration`,
    /// `illegal_declaration`, `repetition` or `null`; from a record's end word
    /// ([`OutcomeJson::from_end_word`]) also `resignation`, `time_up`, `illegal_move`,
    /// `impasse`, `draw`, `max_moves` and `interrupted` (with `ongoing`).
    pub reason: Option<&'static str>,
}

impl From<Outcome> for OutcomeJson {
    fn from(o: Outcome) -> OutcomeJson {
        OutcomeJson {
            result: o.result(),
            winner: o.winner().map(color_name),
            reason: o.reason(),
        }
    }
}

impl OutcomeJson {
    /// The outcome a record's end word states, for a game whose position alone
    /// leaves it `ongoing`; `to_move` is the side to move after the last move.
    /// 投了 `resignation` and 切れ負け `time_up`: the side to move loses; 詰み `checkmate`:
    /// the side to move loses; 反則勝ち `illegal_move`: the side to move wins (the previous
    /// mover fouled); 反則負け `illegal_move`: the side to move loses; 入玉勝ち (`%KACHI`)
    /// `declaration`: the side to move wins; 千日手 `repetition`, 持将棋 `impasse`,
    /// 引き分け `draw`, 手数制限 `max_moves`: a draw; 中断 (`%CHUDAN`, `%ERROR`) `interrupted`:
    /// still `ongoing`.
    /// 不詰, 封じ手 and 待った state no outcome (`None`).
    pub fn from_end_word(word: EndWord, to_move: Color) -> Option<OutcomeJson> {
        let win = |winner: Color, reason| OutcomeJson {
            result: match winner {
                Color::Sente => "sente_win",
                Color::Gote => "gote_win",
            },
            winner: Some(color_name(winner)),
            reason: Some(reason),
        };
        let draw = |reason| OutcomeJson {
            result: "draw",
            winner: None,
            reason: Some(reason),
        };
        Some(match word {
            EndWord::Resign => win(!to_move, "resignation"),
            EndWord::TimeUp => win(!to_move, "time_up"),
            EndWord::Mate => win(!to_move, "checkmate"),
            EndWord::IllegalWin => win(to_move, "illegal_move"),
            EndWord::IllegalLoss | EndWord::IllegalAction => win(!to_move, "illegal_move"),
            EndWord::EnteringKing => win(to_move, "declaration"),
            EndWord::Repetition => draw("repetition"),
            EndWord::Impasse => draw("impasse"),
            EndWord::Draw => draw("draw"),
            EndWord::MaxMoves => draw("max_moves"),
            EndWord::Interrupt | EndWord::Error => OutcomeJson {
                result: "ongoing",
                winner: None,
                reason: Some("interrupted"),
            },
            _ => return None,
        })
    }
}
