//! 入玉宣言 (entering-king declaration), the 27-point rule.
//!
//! CSA 通信プロトコル ver. 1.2.1 (<http://www2.computer-shogi.org/protocol/tcp_ip_server_121.html>,
//! 「入玉宣言法」), the rule USI engines call `EnteringKingRule = CSARule27` and floodgate
//! plays by (`bestmove win` in USI, `%KACHI` in CSA). The side to move wins by declaring
//! when all of these hold, and loses when any fails:
//! 1. it is the declaring side's turn (the declaration replaces a move);
//! 2. its king is in the enemy camp (the three ranks nearest the opponent);
//! 3. it has at least 28 points as Sente, 27 as Gote, counting 5 for each rook and
//!    bishop (promoted or not) and 1 for each other piece, over its pieces in hand and
//!    its pieces in the enemy camp other than the king;
//! 4. it has at least ten pieces other than the king in the enemy camp;
//! 5. its king is not in check;
//! 6. (time remains on its clock — outside the rules core).
//!
//! The thresholds are those of an even game (平手); handicap games are not covered.

use crate::rules::{Bitboard, Color, PieceKind, Position};

/// The points Sente and Gote need (CSA 27-point rule): 28 and 27.
pub const DECLARATION_POINTS: [u32; 2] = [28, 27];

/// The 入玉宣言 conditions for one side, as they stand in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Declaration {
    /// The declaring side (the side to move).
    pub side: Color,
    /// Its king is in the enemy camp.
    pub king_in_zone: bool,
    /// Its pieces other than the king in the enemy camp.
    pub pieces_in_zone: u32,
    /// Points (大駒 5, 小駒 1) over its hand and its pieces in the enemy camp other than the king.
    pub points: u32,
    /// The points it needs: 28 for Sente, 27 for Gote.
    pub points_needed: u32,
    /// Its king is in check.
    pub in_check: bool,
}

impl Declaration {
    /// Whether the declaration wins (every condition holds).
    pub const fn wins(self) -> bool {
        self.king_in_zone
            && self.pieces_in_zone >= 10
            && self.points >= self.points_needed
            && !self.in_check
    }
}

/// 5 for rooks and bishops (promoted or not), 0 for the king, 1 for the rest.
const fn points(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

/// The enemy camp of `color`: ranks 1–3 for Sente, 7–9 for Gote.
fn zone(color: Color) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for sq in crate::rules::Square::all() {
        if sq.relative_rank(color) <= 3 {
            b = b.with(sq);
        }
    }
    b
}

/// The 入玉宣言 conditions for the side to move of `pos` (CSA 27-point rule, module doc).
pub fn declaration(pos: &Position) -> Declaration {
    let us = pos.side_to_move();
    let camp = zone(us);
    let king_in_zone = pos.king(us).is_some_and(|k| camp.has(k));
    let mut pieces_in_zone = 0;
    let mut pts = 0;
    for sq in pos.color_bb(us) & camp {
        let kind = pos.piece_at(sq).expect("occupied").kind;
        if kind != PieceKind::King {
            pieces_in_zone += 1;
            pts += points(kind);
        }
    }
    for (kind, n) in pos.hand(us).iter() {
        pts += points(kind) * n as u32;
    }
    Declaration {
        side: us,
        king_in_zone,
        pieces_in_zone,
        points: pts,
        points_needed: DECLARATION_POINTS[us.index()],
        in_check: pos.in_check(),
    }
}
