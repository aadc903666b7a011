//! Legal move generation and bulk counting.
//!
//! One [`Frame`] (king escapes, evasion targets, pins) is computed per
//! position and then either materialised ([`Position::generate`]) or counted
//! ([`Position::count_legal_moves`], perft's last ply) with the same masks,
//! so the two cannot drift apart (and a property test compares them).
//! Drops are generated per hand kind from one mask each — 二歩 files and the
//! last ranks removed as bitboards, 打ち歩詰め tested once, on the single
//! square in front of the enemy king — the approach of YaneuraOu's and
//! haitaka's drop generators. The order of the generated moves is fixed:
//! king moves, then board moves by origin square, then drops by kind
//! (歩香桂銀金角飛) and square; the tsume solver's node counts depend on it.

use super::Position;
use crate::rules::bitboard::{attacks, between, line, step_attacks, Bitboard};
use crate::rules::moves::{Move, MoveList};
use crate::rules::types::{Color, PieceKind, Square};

/// What every legal move of a position must respect, computed once.
struct Frame {
    /// Safe destinations of the king (empty without a king).
    king_moves: Bitboard,
    /// The king's square, if any.
    king: Option<Square>,
    /// Double check: only king moves.
    only_king: bool,
    /// Destinations for the other board moves (evasion squares when in check).
    targets: Bitboard,
    /// Squares drops may land on (interpositions when in check).
    drop_targets: Bitboard,
    /// Our pieces pinned to our king.
    pinned: Bitboard,
    /// Our pieces other than the king that may have a legal move: all of them, or when in
    /// check by one piece and the evasion squares are few, those attacking one of them.
    movers: Bitboard,
}

/// Drop destinations per hand kind (before looking at the hand).
struct DropMasks {
    pawn: Bitboard,
    lance: Bitboard,
    knight: Bitboard,
    other: Bitboard,
}

/// Promotion zone of `color` (its last three ranks).
#[inline]
pub(super) fn promotion_zone(color: Color) -> Bitboard {
    const ZONES: [Bitboard; 2] = [
        Bitboard::relative_ranks(Color::Sente, 1, 3),
        Bitboard::relative_ranks(Color::Gote, 1, 3),
    ];
    ZONES[color.index()]
}

/// The squares where an unpromoted `kind` of `color` could never move again (行き所のない駒).
#[inline]
pub(crate) fn dead_squares(color: Color, kind: PieceKind) -> Bitboard {
    const LAST1: [Bitboard; 2] = [
        Bitboard::relative_ranks(Color::Sente, 1, 1),
        Bitboard::relative_ranks(Color::Gote, 1, 1),
    ];
    const LAST2: [Bitboard; 2] = [
        Bitboard::relative_ranks(Color::Sente, 1, 2),
        Bitboard::relative_ranks(Color::Gote, 1, 2),
    ];
    match kind {
        PieceKind::Pawn | PieceKind::Lance => LAST1[color.index()],
        PieceKind::Knight => LAST2[color.index()],
        _ => Bitboard::EMPTY,
    }
}

const fn build_king_zone() -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let df = (a / 9) as i32 - (b / 9);
            let dr = (a % 9) as i32 - (b % 9);
            if df >= -2 && df <= 2 && dr >= -3 && dr <= 3 {
                t[a] |= 1u128 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// `KING_ZONE[k]`: the squares within two files and three ranks of `k`, from which every
/// stepping attack on a square next to `k` comes (a knight's from two ranks beyond it).
static KING_ZONE: [u128; 81] = build_king_zone();

/// The hand kinds other than 歩香桂, in generation order.
const OTHER_DROPS: [PieceKind; 4] = [
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

impl Position {
    fn frame(&self) -> Frame {
        let us = self.side;
        let occ = self.occupied();
        let ours = self.colors[us];
        let Some(k) = self.kings[us] else {
            return Frame {
                king_moves: Bitboard::EMPTY,
                king: None,
                only_king: false,
                targets: !ours,
                drop_targets: !occ,
                pinned: Bitboard::EMPTY,
                movers: ours,
            };
        };
        let king_moves = self.king_moves(k);
        let (only_king, targets, drop_targets) = match self.checkers.first() {
            None => (false, !ours, !occ),
            Some(_) if self.checkers.has_more_than_one() => {
                (true, Bitboard::EMPTY, Bitboard::EMPTY)
            }
            Some(c) => (false, self.checkers | between(k, c), between(k, c)),
        };
        let pinned = if only_king {
            Bitboard::EMPTY
        } else {
            self.pinned
        };
        let mut movers = ours.without(k);
        // In check, only a piece moving to an evasion square (every piece moves where it
        // attacks) has a move: with at most three such squares, ask who attacks them.
        if self.in_check() && !only_king && targets.count() <= 3 {
            let mut reach = Bitboard::EMPTY;
            for t in targets {
                reach |= self.attackers_to(us, t, occ);
            }
            movers &= reach;
        }
        Frame {
            king_moves,
            king: Some(k),
            only_king,
            targets,
            drop_targets,
            pinned,
            movers,
        }
    }

    /// The steps of our king on `k` to squares not ours that no enemy stepping piece
    /// attacks: one pass over the enemy pieces near the king ([`KING_ZONE`]; a knight
    /// attacks from three ranks away). The sliders are left to the caller.
    #[inline]
    fn escapes_past_steppers(&self, k: Square) -> Bitboard {
        let us = self.side;
        let them = !us;
        let escapes = step_attacks(us, PieceKind::King, k) & !self.colors[us];
        if escapes.is_empty() {
            return escapes;
        }
        let mut covered = Bitboard::EMPTY;
        for sq in self.colors[them] & Bitboard(KING_ZONE[k.index()]) {
            let kind = self.board[sq.index()].expect("occupied").kind;
            covered |= step_attacks(them, kind, sq);
        }
        escapes & !covered
    }

    /// The safe destinations of our king on `k`: [`Position::escapes_past_steppers`]
    /// less the squares an enemy slider attacks once the king has left `k`.
    #[inline]
    fn king_moves(&self, k: Square) -> Bitboard {
        let escapes = self.escapes_past_steppers(k);
        if escapes.is_empty() {
            return escapes;
        }
        escapes & !self.slider_cover(!self.side, escapes, self.occupied().without(k))
    }

    /// The squares of `squares` a slider of `by` (香角飛, 馬龍's rays) attacks given
    /// `occ`: each slider whose empty-board reach meets them traced once (the bulk twin
    /// of [`Position::is_attacked_by_slider`] square by square).
    #[inline]
    fn slider_cover(&self, by: Color, squares: Bitboard, occ: Bitboard) -> Bitboard {
        use crate::rules::bitboard::{
            bishop_attacks, bishop_pseudo, lance_attacks, rook_attacks, rook_pseudo,
        };
        let k = &self.kinds;
        let theirs = self.colors[by];
        let mut cover = Bitboard::EMPTY;
        for s in (k[5] | k[12]) & theirs {
            if !(bishop_pseudo(s) & squares).is_empty() {
                cover |= bishop_attacks(s, occ);
            }
        }
        for s in (k[6] | k[13]) & theirs {
            if !(rook_pseudo(s) & squares).is_empty() {
                cover |= rook_attacks(s, occ);
            }
        }
        for s in k[1] & theirs {
            if !(lance_attacks(by, s, Bitboard::EMPTY) & squares).is_empty() {
                cover |= lance_attacks(by, s, occ);
            }
        }
        cover & squares
    }

    /// Whether our king on `k` has a safe move: [`Position::king_moves`] stopping at
    /// the first one found.
    #[inline]
    fn has_king_move(&self, k: Square) -> bool {
        let occ_wo = self.occupied().without(k);
        self.escapes_past_steppers(k)
            .into_iter()
            .any(|to| !self.is_attacked_by_slider(!self.side, to, occ_wo))
    }

    /// The naive twin of [`Position::king_moves`]: every step to a square not ours,
    /// kept when [`Position::is_attacked`] says no enemy piece attacks it once the king
    /// has left `k`.
    #[cfg(test)]
    fn king_moves_naive(&self, k: Square) -> Bitboard {
        let occ_wo = self.occupied().without(k);
        let mut safe = Bitboard::EMPTY;
        for to in step_attacks(self.side, PieceKind::King, k) & !self.colors[self.side] {
            if !self.is_attacked(!self.side, to, occ_wo) {
                safe = safe.with(to);
            }
        }
        safe
    }

    /// Destinations of the non-king piece on `from`.
    #[inline(always)]
    fn destinations(&self, f: &Frame, kind: PieceKind, from: Square) -> Bitboard {
        let mut t = attacks(self.side, kind, from, self.occupied()) & f.targets;
        if f.pinned.has(from) {
            if let Some(k) = f.king {
                t &= line(k, from);
            }
        }
        t
    }

    fn drop_masks(&self, targets: Bitboard) -> DropMasks {
        let us = self.side;
        let lance = targets & !dead_squares(us, PieceKind::Lance);
        let knight = targets & !dead_squares(us, PieceKind::Knight);
        let mut pawn = Bitboard::EMPTY;
        if self.hands[us].has(PieceKind::Pawn) {
            pawn = lance;
            for p in self.pieces(us, PieceKind::Pawn) {
                pawn &= !Bitboard::file_mask(p.file());
            }
            // Only a pawn in front of the enemy king checks it; 打ち歩詰め is tested there alone.
            if let Some(tk) = self.kings[!us] {
                if let Some(front) = step_attacks(!us, PieceKind::Pawn, tk).first() {
                    if pawn.has(front) && self.is_pawn_drop_mate(front, tk) {
                        pawn = pawn.without(front);
                    }
                }
            }
        }
        DropMasks {
            pawn,
            lance,
            knight,
            other: targets,
        }
    }

    /// All legal moves (full legality: pins, evasions, 二歩, 打ち歩詰め, no dead pieces).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Appends all legal moves to `list`.
    pub fn generate(&self, list: &mut MoveList) {
        let f = self.frame();
        if let Some(k) = f.king {
            for to in f.king_moves {
                list.push(Move::Normal {
                    from: k,
                    to,
                    promote: false,
                });
            }
        }
        if f.only_king {
            return;
        }
        let us = self.side;
        for from in f.movers {
            let Some(pc) = self.board[from.index()] else {
                continue;
            };
            let t = self.destinations(&f, pc.kind, from);
            push_board_moves(list, us, pc.kind, from, t);
        }
        let hand = self.hands[us];
        if hand.is_empty() || f.drop_targets.is_empty() {
            return;
        }
        let d = self.drop_masks(f.drop_targets);
        push_drops(list, PieceKind::Pawn, d.pawn);
        if hand.has(PieceKind::Lance) {
            push_drops(list, PieceKind::Lance, d.lance);
        }
        if hand.has(PieceKind::Knight) {
            push_drops(list, PieceKind::Knight, d.knight);
        }
        for kind in OTHER_DROPS {
            if hand.has(kind) {
                push_drops(list, kind, d.other);
            }
        }
    }

    /// The number of legal moves, counted from the same masks as [`Position::generate`]
    /// without materialising them (perft's bulk count at the last ply).
    pub fn count_legal_moves(&self) -> usize {
        let f = self.frame();
        let mut n = self.count_board_moves(&f);
        if f.only_king {
            return n as usize;
        }
        let hand = self.hands[self.side];
        if hand.is_empty() || f.drop_targets.is_empty() {
            return n as usize;
        }
        let d = self.drop_masks(f.drop_targets);
        n += d.pawn.count();
        if hand.has(PieceKind::Lance) {
            n += d.lance.count();
        }
        if hand.has(PieceKind::Knight) {
            n += d.knight.count();
        }
        let others = OTHER_DROPS.iter().filter(|&&k| hand.has(k)).count() as u32;
        n += others * d.other.count();
        n as usize
    }

    /// The legal moves counted as the tsume solver's first proof number of a defender
    /// in check: board moves (king moves included) plus the squares a drop can go to,
    /// each counted once whatever kinds can drop there (the solver opens interpositions
    /// one at a time). From the same masks as [`Position::generate`], without
    /// materialising the moves; tested against it.
    pub fn count_replies(&self) -> u32 {
        let f = self.frame();
        let n = self.count_board_moves(&f);
        if f.only_king {
            return n;
        }
        let hand = self.hands[self.side];
        if hand.is_empty() || f.drop_targets.is_empty() {
            return n;
        }
        let d = self.drop_masks(f.drop_targets);
        let mut squares = d.pawn;
        if hand.has(PieceKind::Lance) {
            squares |= d.lance;
        }
        if hand.has(PieceKind::Knight) {
            squares |= d.knight;
        }
        if OTHER_DROPS.iter().any(|&k| hand.has(k)) {
            squares |= d.other;
        }
        n + squares.count()
    }

    /// The legal moves of the side to move's piece on `from` to `to`, in
    /// [`Position::generate`]'s order (the promotion first): the checker's recaptures of
    /// an interposition in a 無駄合 test, without generating every move. Tested against
    /// the filtered [`Position::legal_moves`].
    pub fn moves_to(&self, from: Square, to: Square, list: &mut MoveList) {
        let us = self.side;
        let Some(pc) = self.board[from.index()] else {
            return;
        };
        let occ = self.occupied();
        if pc.color != us || self.colors[us].has(to) || !attacks(us, pc.kind, from, occ).has(to) {
            return;
        }
        // Legal when no enemy piece but the one captured on `to` attacks our king after.
        let after = occ.without(from).with(to);
        let king = if pc.kind == PieceKind::King {
            Some(to)
        } else {
            self.kings[us]
        };
        if let Some(k) = king {
            if !(self.attackers_to(!us, k, after) & !Bitboard::from_square(to)).is_empty() {
                return;
            }
        }
        push_board_moves(list, us, pc.kind, from, Bitboard::from_square(to));
    }

    /// Whether the side to move, in check, has a legal reply that is no interposition: a
    /// king move or a capture of the (single) checker. The tsume solver's test of a
    /// defender out of plies (an interposition may be 無駄合, any other reply refutes),
    /// tried for nearly every check: it stops at the first safe king move and otherwise
    /// asks who attacks the checker, without building the whole `Frame` (the masks of
    /// [`Position::generate`]). Tested against [`Position::legal_moves`] and against its
    /// twin from the `Frame`.
    pub fn has_reply_besides_interposition(&self) -> bool {
        let us = self.side;
        let Some(k) = self.kings[us] else {
            return false;
        };
        if self.has_king_move(k) {
            return true;
        }
        let Some(c) = self.checkers.first() else {
            return false;
        };
        if self.checkers.has_more_than_one() {
            return false;
        }
        // Every piece attacking the checker can take it (promoting where it could not
        // move again); a pinned one only along its pin line.
        let capturers = self.attackers_to(us, c, self.occupied()).without(k);
        capturers
            .into_iter()
            .any(|from| !self.pinned.has(from) || line(k, from).has(c))
    }

    /// The twin of [`Position::has_reply_besides_interposition`] from the whole
    /// [`Frame`]: safe king moves, or board moves restricted to the checker's square.
    #[cfg(test)]
    fn has_reply_besides_interposition_by_frame(&self) -> bool {
        let f = self.frame();
        if !f.king_moves.is_empty() {
            return true;
        }
        if f.only_king || self.checkers.is_empty() {
            return false;
        }
        let captures = Frame {
            targets: self.checkers,
            ..f
        };
        self.count_board_moves(&captures) > 0
    }

    /// The legal board moves (king moves included) of the frame `f`, counted.
    #[inline]
    fn count_board_moves(&self, f: &Frame) -> u32 {
        let mut n = f.king_moves.count();
        if f.only_king {
            return n;
        }
        let us = self.side;
        let movers = f.movers;
        // Kind by kind, so that each loop knows its piece's attack table.
        let pawns = self.kinds[PieceKind::Pawn.index()] & movers;
        let free = pawns & !f.pinned;
        // Unpinned pawns in bulk: one step forward never leaves the file (no pawn stands on its last rank).
        let t = Bitboard(match us {
            Color::Sente => free.0 >> 1,
            Color::Gote => free.0 << 1,
        }) & f.targets;
        let zone = promotion_zone(us);
        n += (t & !dead_squares(us, PieceKind::Pawn)).count() + (t & zone).count();
        n += self.count_kind(f, PieceKind::Pawn, pawns & f.pinned);
        // The other kinds, stopping once every piece has been counted.
        let mut rest = movers & !pawns;
        for kind in [
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::ProPawn,
            PieceKind::ProLance,
            PieceKind::ProKnight,
            PieceKind::ProSilver,
            PieceKind::Horse,
            PieceKind::Dragon,
        ] {
            if rest.is_empty() {
                break;
            }
            let these = self.kinds[kind.index()] & rest;
            if !these.is_empty() {
                rest.0 ^= these.0;
                n += self.count_kind(f, kind, these);
            }
        }
        n
    }

    /// The legal board moves of the pieces `from` (all of kind `kind`), counted.
    #[inline(always)]
    fn count_kind(&self, f: &Frame, kind: PieceKind, from: Bitboard) -> u32 {
        let mut n = 0;
        if kind.promote().is_none() {
            for sq in from {
                n += self.destinations(f, kind, sq).count();
            }
            return n;
        }
        let zone = promotion_zone(self.side);
        let alive = !dead_squares(self.side, kind);
        for sq in from {
            let t = self.destinations(f, kind, sq);
            let promoting = if zone.has(sq) { t } else { t & zone };
            n += (t & alive).count() + promoting.count();
        }
        n
    }

    /// Whether a piece of `by` attacks `sq` given occupancy `occ` (early exit twin of
    /// [`Position::attackers_to`]).
    #[inline]
    pub fn is_attacked(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let k = &self.kinds;
        let theirs = self.colors[by];
        let rev = !by;
        let steps = (step_attacks(rev, PieceKind::Pawn, sq) & k[0])
            | (step_attacks(rev, PieceKind::Knight, sq) & k[2])
            | (step_attacks(rev, PieceKind::Silver, sq) & k[3])
            | (step_attacks(rev, PieceKind::Gold, sq) & (k[4] | k[8] | k[9] | k[10] | k[11]))
            | (step_attacks(rev, PieceKind::King, sq) & (k[7] | k[12] | k[13]));
        if !(steps & theirs).is_empty() {
            return true;
        }
        self.is_attacked_by_slider(by, sq, occ)
    }

    /// Whether a slider of `by` (香角飛, 馬龍's rays) attacks `sq` given occupancy `occ`
    /// (the slider half of [`Position::is_attacked`]).
    #[inline]
    fn is_attacked_by_slider(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        use crate::rules::bitboard::{
            bishop_attacks, bishop_pseudo, lance_attacks, rook_attacks, rook_pseudo,
        };
        let k = &self.kinds;
        let theirs = self.colors[by];
        let diag = (k[5] | k[12]) & theirs & bishop_pseudo(sq);
        if !diag.is_empty() && !(bishop_attacks(sq, occ) & diag).is_empty() {
            return true;
        }
        let orth = (k[6] | k[13]) & theirs & rook_pseudo(sq);
        if !orth.is_empty() && !(rook_attacks(sq, occ) & orth).is_empty() {
            return true;
        }
        let lances = k[1] & theirs & rook_pseudo(sq);
        !lances.is_empty() && !(lance_attacks(!by, sq, occ) & lances).is_empty()
    }

    /// 打ち歩詰め test: would a pawn dropped on `to`, checking the king on `tk`, mate?
    pub(crate) fn is_pawn_drop_mate(&self, to: Square, tk: Square) -> bool {
        let us = self.side;
        let them = !us;
        let occ = self.occupied().with(to);
        // Can a defender other than the king capture the pawn?
        let pinned = self.blockers(them, tk, us, occ);
        let capturers = self.attackers_to(them, to, occ).without(tk) & !pinned;
        if !capturers.is_empty() {
            return false;
        }
        // Can the king step to a square (including the pawn's) the attacker does not control?
        // The pawn itself attacks only the king's square, so the board's attackers decide.
        let occ_wo = occ.without(tk);
        for esc in step_attacks(them, PieceKind::King, tk) & !self.colors[them] {
            if !self.is_attacked(us, esc, occ_wo) {
                return false;
            }
        }
        true
    }
}

#[inline]
fn push_drops(list: &mut MoveList, kind: PieceKind, targets: Bitboard) {
    for to in targets {
        list.push(Move::Drop { kind, to });
    }
}

#[inline]
fn push_board_moves(list: &mut MoveList, us: Color, kind: PieceKind, from: Square, t: Bitboard) {
    if kind.promote().is_none() {
        for to in t {
            list.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
        return;
    }
    let zone = promotion_zone(us);
    let promoting = if zone.has(from) { t } else { t & zone };
    let dead = dead_squares(us, kind);
    for to in t {
        if promoting.has(to) {
            list.push(Move::Normal {
                from,
                to,
                promote: true,
            });
        }
        if !dead.has(to) {
            list.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use rand::{Rng, SeedableRng};

    /// Every position after a check, and every position on the way, along random walks
    /// from the classics (their SFENs as given, the defender's hand included).
    fn along_walks(seed: u64, mut f: impl FnMut(&Position)) {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let sfen = line.split('\t').nth(1).expect("id<TAB>sfen");
            let mut pos = crate::notation::sfen::parse_position(sfen, Rules::TSUME).unwrap();
            for _ in 0..12 {
                f(&pos);
                let mut checks = MoveList::new();
                pos.generate_checks(&mut checks);
                for &m in &checks {
                    pos.play_unchecked(m);
                    f(&pos);
                    pos.undo();
                }
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                pos.play_unchecked(all[rng.gen_range(0..all.len())]);
            }
        }
    }

    /// The king's safe moves against asking [`Position::is_attacked`] square by square.
    #[test]
    fn king_moves_match_the_naive_twin() {
        let mut n = 0u32;
        along_walks(3, |pos| {
            if let Some(k) = pos.kings[pos.side] {
                let want = pos.king_moves_naive(k);
                assert_eq!(pos.king_moves(k), want, "{pos:?}");
                assert_eq!(pos.has_king_move(k), !want.is_empty(), "{pos:?}");
                n += 1;
            }
        });
        assert!(n > 5_000, "{n}");
    }

    /// The early-exit reply test against its [`Frame`] twin and against the legal
    /// moves: some legal reply is a king move or lands on the single checker.
    #[test]
    fn reply_besides_interposition_matches_its_twins() {
        let (mut yes, mut no) = (0u32, 0u32);
        along_walks(5, |pos| {
            if !pos.in_check() {
                return;
            }
            let k = pos.kings[pos.side].expect("in check");
            let single = (!pos.checkers.has_more_than_one()).then(|| pos.checkers.first());
            let want = pos
                .legal_moves()
                .iter()
                .any(|m| m.from() == Some(k) || single.flatten().is_some_and(|c| m.to() == c));
            let got = pos.has_reply_besides_interposition();
            assert_eq!(got, want, "{pos:?}");
            assert_eq!(
                got,
                pos.has_reply_besides_interposition_by_frame(),
                "{pos:?}"
            );
            if got {
                yes += 1;
            } else {
                no += 1;
            }
        });
        assert!(yes > 1_000 && no > 50, "{yes} {no}");
    }
}
