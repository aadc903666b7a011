//! A dedicated generator of the legal checking moves (王手生成), for the
//! tsume solver: direct checks are the moves landing on the squares from
//! which the moved (or promoted) piece kind attacks the enemy king, plus
//! drops there; discovered checks are the moves of our pieces that are the
//! only blocker between the enemy king and one of our sliders (the approach
//! of shtsume / YaneuraOu's `CHECKS` generator). Built on the public API of
//! [`Position`] and the [`bitboard`](super::bitboard) tables; its naive twin is
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

/// The stepping kinds whose direct-check origins [`CHECK_FROM`] holds: 歩 桂 銀 and 金 (with と 杏 圭 全).
const STEPPERS: [usize; 4] = [0, 2, 3, 4];

const fn build_check_from() -> [[[u128; 81]; 4]; 2] {
    let steps = super::bitboard::build_steps();
    let gold = 4;
    let mut t = [[[0u128; 81]; 4]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < 4 {
            let kind = STEPPERS[i];
            let mut k = 0;
            while k < 81 {
                // Squares from which `c`'s piece of `kind` (or 金 for the promotion) attacks `k`:
                // the opposite color's steps from `k`.
                let checking = steps[1 - c][kind][k] | steps[1 - c][gold][k];
                let mut from = 0;
                while from < 81 {
                    if steps[c][kind][from] & checking != 0 {
                        t[c][i][k] |= 1u128 << from;
                    }
                    from += 1;
                }
                k += 1;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

/// `CHECK_FROM[color][i][k]`: the squares from which a piece of kind `STEPPERS[i]` of `color`
/// can step to a square where it, or its promotion (金's steps), attacks a king on `k`
/// (YaneuraOu's `CHECK_CAND_BB`); empty-board, so a superset of the real direct checks.
static CHECK_FROM: [[[u128; 81]; 4]; 2] = build_check_from();

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

/// What the checks of a position not in check are computed from
/// ([`Position::generate_checks`] and [`Position::count_checks`] share it).
struct CheckFrame {
    us: Color,
    /// The enemy king.
    tk: Square,
    occ: Bitboard,
    ours: Bitboard,
    /// By kind: the squares from which a piece of that kind attacks `tk`.
    target: [Bitboard; 14],
    /// Our pieces that alone block one of our sliders from `tk`.
    discoverers: Bitboard,
    pinned: Bitboard,
    zone: Bitboard,
    /// Our pieces that may give a check.
    candidates: Bitboard,
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
        let Some(tk) = self.king(!self.side_to_move()) else {
            return;
        };
        if self.in_check() {
            let mut all = MoveList::new();
            self.generate(&mut all);
            list.extend(all.into_iter().filter(|&m| self.gives_check(m)));
            return;
        }
        let cf = self.check_frame(tk);
        for from in cf.candidates {
            let Some((kind, dests, off_line)) = self.checking_dests(&cf, from) else {
                continue;
            };
            if kind == PieceKind::King {
                self.push_king_discoveries(&cf, from, dests, list);
                continue;
            }
            let promoted = kind.promote();
            let from_in_zone = cf.zone.has(from);
            for to in dests {
                let disc_here = off_line.has(to);
                if let Some(pk) = promoted {
                    if from_in_zone || cf.zone.has(to) {
                        if disc_here || cf.target[pk.index()].has(to) {
                            list.push(Move::Normal {
                                from,
                                to,
                                promote: true,
                            });
                        }
                        if dead(cf.us, kind, to) {
                            continue;
                        }
                    }
                }
                if disc_here || cf.target[kind.index()].has(to) {
                    list.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        }
        self.drop_checks(list, &cf.target, tk, cf.occ);
    }

    /// The number of moves [`Position::generate_checks`] appends, counted with bitboards
    /// without materialising them (the tsume solver's first disproof number of a new
    /// node); tested against it.
    pub fn count_checks(&self) -> u32 {
        let Some(tk) = self.king(!self.side_to_move()) else {
            return 0;
        };
        if self.in_check() {
            let mut all = MoveList::new();
            self.generate(&mut all);
            return all.into_iter().filter(|&m| self.gives_check(m)).count() as u32;
        }
        let cf = self.check_frame(tk);
        let mut n = 0;
        for from in cf.candidates {
            let Some((kind, dests, off_line)) = self.checking_dests(&cf, from) else {
                continue;
            };
            if kind == PieceKind::King {
                let mut list = MoveList::new();
                self.push_king_discoveries(&cf, from, dests, &mut list);
                n += list.len() as u32;
                continue;
            }
            // Promotions where the promoted kind checks; plain moves where the piece
            // checks and can still move afterwards (dead squares lie in the zone).
            if let Some(pk) = kind.promote() {
                let promoting = if cf.zone.has(from) {
                    dests
                } else {
                    dests & cf.zone
                };
                n += (promoting & (cf.target[pk.index()] | off_line)).count();
            }
            n +=
                (dests & !dead_squares(cf.us, kind) & (cf.target[kind.index()] | off_line)).count();
        }
        n + self.count_drop_checks(&cf.target, tk, cf.occ)
    }

    /// What every direct and discovered check of a position not in check depends on.
    fn check_frame(&self, tk: Square) -> CheckFrame {
        let us = self.side_to_move();
        let them = !us;
        let occ = self.occupied();
        let ours = self.color_bb(us);
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
        // A stepping piece (歩桂銀金, promoted minors) gives a direct check only from its
        // `CHECK_FROM` squares, the king none; sliders and discoverers may be anywhere.
        let from_table = &CHECK_FROM[us.index()];
        let k = tk.index();
        let golds = self.pieces(us, PieceKind::Gold)
            | self.pieces(us, PieceKind::ProPawn)
            | self.pieces(us, PieceKind::ProLance)
            | self.pieces(us, PieceKind::ProKnight)
            | self.pieces(us, PieceKind::ProSilver);
        let steppers = (self.pieces(us, PieceKind::Pawn) & Bitboard(from_table[0][k]))
            | (self.pieces(us, PieceKind::Knight) & Bitboard(from_table[1][k]))
            | (self.pieces(us, PieceKind::Silver) & Bitboard(from_table[2][k]))
            | (golds & Bitboard(from_table[3][k]));
        let candidates = ours
            & (steppers
                | discoverers
                | self.pieces(us, PieceKind::Lance)
                | self.pieces(us, PieceKind::Bishop)
                | self.pieces(us, PieceKind::Rook)
                | self.pieces(us, PieceKind::Horse)
                | self.pieces(us, PieceKind::Dragon));
        CheckFrame {
            us,
            tk,
            occ,
            ours,
            target,
            discoverers,
            pinned: self.pinned_pieces(),
            zone: zone(us),
            candidates,
        }
    }

    /// For the candidate on `from`: its kind, the destinations where a move of it may
    /// check (pins respected) and the squares where it discovers a check (empty unless
    /// it is a discoverer); `None` when it has none.
    #[inline]
    fn checking_dests(
        &self,
        cf: &CheckFrame,
        from: Square,
    ) -> Option<(PieceKind, Bitboard, Bitboard)> {
        let us = cf.us;
        let kind = self.piece_at(from).expect("occupied").kind;
        let disc = cf.discoverers.has(from);
        // The squares where this piece, or its promotion, attacks `tk` (none for the king).
        let checking = match kind.promote() {
            Some(pk) => cf.target[kind.index()] | cf.target[pk.index()],
            None => cf.target[kind.index()],
        };
        // A slider whose empty-board reach misses every checking square gives no direct check.
        let reach = match kind {
            PieceKind::Lance => lance_attacks(us, from, Bitboard::EMPTY),
            PieceKind::Bishop | PieceKind::Horse => bishop_pseudo(from),
            PieceKind::Rook | PieceKind::Dragon => rook_pseudo(from),
            _ => Bitboard::FULL,
        } | step_attacks(us, kind, from);
        if !disc && (reach & checking).is_empty() {
            return None;
        }
        let mut dests = attacks(us, kind, from, cf.occ) & !cf.ours;
        if !disc {
            // Only direct checks: the destination must attack `tk` as the piece or its promotion.
            dests &= checking;
        }
        if dests.is_empty() {
            return None;
        }
        if cf.pinned.has(from) {
            let our_king = self.king(us).expect("pinned implies king");
            dests &= line(our_king, from);
        }
        if kind == PieceKind::King && !disc {
            return None;
        }
        let off_line = if disc {
            !line(cf.tk, from)
        } else {
            Bitboard::EMPTY
        };
        Some((kind, dests, off_line))
    }

    /// The discovered checks of our king on `from` (a discoverer): steps off the line
    /// to a square the enemy does not attack.
    fn push_king_discoveries(
        &self,
        cf: &CheckFrame,
        from: Square,
        dests: Bitboard,
        list: &mut MoveList,
    ) {
        let occ_wo = cf.occ.without(from);
        for to in dests & !line(cf.tk, from) {
            if self.attackers_to(!cf.us, to, occ_wo).is_empty() {
                list.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }

    fn drop_checks(&self, list: &mut MoveList, target: &[Bitboard; 14], tk: Square, occ: Bitboard) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() {
            return;
        }
        let empty = !occ;
        // The hand kinds but the pawn (its drop has its own rules, below).
        for kind in PieceKind::HAND[1..].iter().copied() {
            if !hand.has(kind) {
                continue;
            }
            for to in target[kind.index()] & empty & !dead_squares(us, kind) {
                list.push(Move::Drop { kind, to });
            }
        }
        if hand.has(PieceKind::Pawn) {
            self.pawn_drop_checks(list, target, tk, occ);
        }
    }

    /// The checking pawn drop, if any: at most one square; 二歩 and 打ち歩詰め decide.
    fn pawn_drop_checks(
        &self,
        list: &mut MoveList,
        target: &[Bitboard; 14],
        tk: Square,
        occ: Bitboard,
    ) {
        let us = self.side_to_move();
        for to in target[PieceKind::Pawn.index()] & !occ {
            if dead(us, PieceKind::Pawn, to) {
                continue;
            }
            let file = Bitboard::file_mask(to.file());
            if !(self.pieces(us, PieceKind::Pawn) & file).is_empty() {
                continue;
            }
            if !self.is_pawn_drop_mate(to, tk) {
                list.push(Move::Drop {
                    kind: PieceKind::Pawn,
                    to,
                });
            }
        }
    }

    /// The number of moves [`Position::drop_checks`] appends.
    fn count_drop_checks(&self, target: &[Bitboard; 14], tk: Square, occ: Bitboard) -> u32 {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() {
            return 0;
        }
        let empty = !occ;
        let mut n = 0;
        // The hand kinds but the pawn (its drop has its own rules, below).
        for kind in PieceKind::HAND[1..].iter().copied() {
            if hand.has(kind) {
                n += (target[kind.index()] & empty & !dead_squares(us, kind)).count();
            }
        }
        if hand.has(PieceKind::Pawn) {
            let mut list = MoveList::new();
            self.pawn_drop_checks(&mut list, target, tk, occ);
            n += list.len() as u32;
        }
        n
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
        assert_eq!(pos.count_checks() as usize, fast.len(), "{pos:?}");
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
