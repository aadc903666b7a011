//! A dedicated generator of the legal checking moves (王手生成), for the
//! tsume solver: direct checks are the moves landing on the squares from
//! which the moved (or promoted) piece kind attacks the enemy king, plus
//! drops there; discovered checks are the moves of our pieces that are the
//! only blocker between the enemy king and one of our sliders (the approach
//! of shtsume / YaneuraOu's `CHECKS` generator). Built on the public API of
//! [`Position`] and [`bitboard`](super::bitboard) only; its naive twin is
//! `legal_moves().filter(gives_check)` (tests below and `tests/tsume_checks.rs`).

use super::bitboard::{
    attacks, between, bishop_attacks, bishop_pseudo, lance_attacks, line, rook_attacks,
    rook_pseudo, step_attacks,
};
use super::position::dead_squares;
use super::{Bitboard, Color, Move, MoveList, PieceKind, Position, Square};

/// Promotion zone of `color` (its last three ranks).
#[inline]
fn zone(color: Color) -> Bitboard {
    Bitboard::relative_ranks(color, 1, 3)
}

const fn build_near() -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let df = (a / 9) as i32 - (b / 9);
            let dr = (a % 9) as i32 - (b % 9);
            if df >= -2 && df <= 2 && dr >= -4 && dr <= 4 {
                t[a] |= 1u128 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// `NEAR[k]`: the squares within two files and four ranks of `k` — every square from which a
/// stepping piece can move to a square attacking `k` (a knight moves two ranks, then attacks two).
static NEAR: [u128; 81] = build_near();

/// Whether a `kind` piece of `color` standing on `to` could never move again.
#[inline]
fn dead(color: Color, kind: PieceKind, to: Square) -> bool {
    let rr = to.relative_rank(color);
    match kind {
        PieceKind::Pawn | PieceKind::Lance => rr == 1,
        PieceKind::Knight => rr <= 2,
        _ => false,
    }
}

impl Position {
    /// The naive twin of [`Position::generate_checks`]: every legal move filtered by
    /// [`Position::gives_check`], as sorted USI texts.
    pub fn checks_naive_usi(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal_moves()
            .into_iter()
            .filter(|&m| self.gives_check(m))
            .map(|m| m.to_string())
            .collect();
        v.sort();
        v
    }

    /// Appends every legal move of the side to move that gives check.
    ///
    /// Equals `legal_moves().filter(|m| gives_check(m))` as a set (tested);
    /// when the side to move is itself in check it falls back to exactly that.
    pub fn generate_checks(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = !us;
        let Some(tk) = self.king(them) else {
            return;
        };
        if self.in_check() {
            let mut all = MoveList::new();
            self.generate(&mut all);
            list.extend(all.into_iter().filter(|&m| self.gives_check(m)));
            return;
        }
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let our_king = self.king(us);
        // Squares from which a piece of ours of each kind attacks `tk` (reverse attacks);
        // each slider ray from `tk` is computed once.
        let diag = bishop_attacks(tk, occ);
        let orth = rook_attacks(tk, occ);
        let king_step = step_attacks(them, PieceKind::King, tk);
        let gold = step_attacks(them, PieceKind::Gold, tk);
        let mut target = [Bitboard::EMPTY; 14];
        target[PieceKind::Pawn.index()] = step_attacks(them, PieceKind::Pawn, tk);
        target[PieceKind::Lance.index()] = lance_attacks(them, tk, occ);
        target[PieceKind::Knight.index()] = step_attacks(them, PieceKind::Knight, tk);
        target[PieceKind::Silver.index()] = step_attacks(them, PieceKind::Silver, tk);
        target[PieceKind::Gold.index()] = gold;
        target[PieceKind::Bishop.index()] = diag;
        target[PieceKind::Rook.index()] = orth;
        target[PieceKind::Horse.index()] = diag | king_step;
        target[PieceKind::Dragon.index()] = orth | king_step;
        for k in [
            PieceKind::ProPawn,
            PieceKind::ProLance,
            PieceKind::ProKnight,
            PieceKind::ProSilver,
        ] {
            target[k.index()] = gold;
        }
        // Our pieces that alone block one of our sliders from `tk` (discovered-check candidates).
        let sliders = ((bishop_pseudo(tk)
            & (self.pieces(us, PieceKind::Bishop) | self.pieces(us, PieceKind::Horse)))
            | (rook_pseudo(tk)
                & (self.pieces(us, PieceKind::Rook) | self.pieces(us, PieceKind::Dragon)))
            | (lance_attacks(them, tk, Bitboard::EMPTY) & self.pieces(us, PieceKind::Lance)))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for s in sliders {
            let b = between(tk, s) & occ;
            if b.count() == 1 {
                discoverers |= b & ours;
            }
        }
        let pinned = self.pinned_pieces();
        let all_targets = target.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let z = zone(us);
        // A stepping piece (歩桂銀金, promoted minors, 玉) gives a direct check only from within
        // two files and four ranks of `tk`; sliders and discoverers may be anywhere.
        let candidates = ours
            & (Bitboard(NEAR[tk.index()])
                | discoverers
                | self.pieces(us, PieceKind::Lance)
                | self.pieces(us, PieceKind::Bishop)
                | self.pieces(us, PieceKind::Rook)
                | self.pieces(us, PieceKind::Horse)
                | self.pieces(us, PieceKind::Dragon));
        for from in candidates {
            let kind = self.piece_at(from).expect("occupied").kind;
            let disc = discoverers.has(from);
            let mut dests = attacks(us, kind, from, occ) & !ours;
            if !disc {
                // Only direct checks: the destination must attack `tk` as the piece or its promotion.
                dests &= all_targets;
            }
            if dests.is_empty() {
                continue;
            }
            if pinned.has(from) {
                dests &= line(our_king.expect("pinned implies king"), from);
            }
            if kind == PieceKind::King {
                if !disc {
                    continue;
                }
                // Only discovered checks; the king must not step into an attack.
                let occ_wo = occ.without(from);
                for to in dests & !line(tk, from) {
                    if self.attackers_to(them, to, occ_wo).is_empty() {
                        list.push(Move::Normal {
                            from,
                            to,
                            promote: false,
                        });
                    }
                }
                continue;
            }
            let off_line = if disc {
                !line(tk, from)
            } else {
                Bitboard::EMPTY
            };
            let promoted = kind.promote();
            let from_in_zone = z.has(from);
            for to in dests {
                let disc_here = off_line.has(to);
                if let Some(pk) = promoted {
                    if from_in_zone || z.has(to) {
                        if disc_here || target[pk.index()].has(to) {
                            list.push(Move::Normal {
                                from,
                                to,
                                promote: true,
                            });
                        }
                        if dead(us, kind, to) {
                            continue;
                        }
                    }
                }
                if disc_here || target[kind.index()].has(to) {
                    list.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
        self.drop_checks(list, &target, tk, occ);
    }

    fn drop_checks(&self, list: &mut MoveList, target: &[Bitboard; 14], tk: Square, occ: Bitboard) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() {
            return;
        }
        let empty = !occ;
        for kind in [
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            if !hand.has(kind) {
                continue;
            }
            for to in target[kind.index()] & empty & !dead_squares(us, kind) {
                list.push(Move::Drop { kind, to });
            }
        }
        if hand.has(PieceKind::Pawn) {
            // At most one square; 二歩 and 打ち歩詰め decide.
            for to in target[PieceKind::Pawn.index()] & empty {
                if dead(us, PieceKind::Pawn, to) {
                    continue;
                }
                let file = Bitboard::file_mask(to.file());
                if !(self.pieces(us, PieceKind::Pawn) & file).is_empty() {
                    continue;
                }
                if !self.pawn_drop_mates(to, tk, occ) {
                    list.push(Move::Drop {
                        kind: PieceKind::Pawn,
                        to,
                    });
                }
            }
        }
    }

    /// 打ち歩詰め: would our pawn dropped on `to` (checking the king on `tk`) leave no legal reply?
    fn pawn_drop_mates(&self, to: Square, tk: Square, occ: Bitboard) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let occ_p = occ.with(to);
        // A defender capture is legal if it leaves the king unattacked (the pawn is off the board then,
        // and `self` does not hold it, so `attackers_to` ignores it).
        for c in self.attackers_to(them, to, occ_p).without(tk) {
            if self.attackers_to(us, tk, occ_p.without(c)).is_empty() {
                return false;
            }
        }
        // King moves (including taking the pawn): the pawn attacks only `tk`.
        let occ_wo = occ_p.without(tk);
        for esc in super::bitboard::step_attacks(them, PieceKind::King, tk) & !self.color_bb(them) {
            if self.attackers_to(us, esc, occ_wo).is_empty() {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::rules::Rules;

    fn same(pos: &Position) {
        let mut fast = MoveList::new();
        pos.generate_checks(&mut fast);
        let mut fast: Vec<String> = fast.iter().map(|m| m.to_string()).collect();
        fast.sort();
        assert_eq!(fast, pos.checks_naive_usi(), "{pos:?}");
    }

    #[test]
    fn uchifuzume_and_discoveries() {
        for sfen in [
            "7lk/9/8G/9/9/9/9/9/K8 b P 1",
            "8k/9/7GP/9/9/9/9/9/K8 b P 1",
            "4k4/9/4P4/9/4R4/9/9/9/4K4 b BGSNLP 1",
            "4k4/4n4/9/4B4/9/4R4/9/9/K8 b GS2P 1",
            "k8/9/9/9/4K4/9/9/9/8R b - 1",
            "3nk4/9/4S4/9/9/4L4/9/9/9 b P 1",
        ] {
            same(&parse_position(sfen, Rules::TSUME).unwrap());
        }
    }
}
