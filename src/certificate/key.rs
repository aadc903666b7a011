//! The compact state the checker keeps (`specs/certificate.md`, checker step 3): a
//! position's exact identity ([`Key`]) and the key after a move, per-node move sets
//! ([`MoveSet`]) and the node-id index ([`Index`]).

use crate::rules::{Color, Hand, Move, Piece, PieceKind, Setup, Square};
use std::collections::HashMap;

/// The exact identity of a position: what [`Position`](crate::rules::Position)'s equality compares (board,
/// side to move, both hands; move number and history ignored), in 98 bytes instead of
/// a whole position per node.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub(super) board: [u8; 81],
    pub(super) side: Color,
    pub(super) hands: [Hand; 2],
}

/// The key of a setup (what [`Position::from_setup`](crate::rules::Position::from_setup) keeps of it, move number aside).
pub(super) fn key_of(s: &Setup) -> Key {
    let mut board = [0u8; 81];
    for (b, pc) in board.iter_mut().zip(s.board) {
        *b = pc.map_or(0, |pc| pc.index() as u8 + 1);
    }
    Key {
        board,
        side: s.side_to_move,
        hands: [s.hands.sente, s.hands.gote],
    }
}

impl Key {
    pub(super) fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    pub(super) fn piece(&self, sq: Square) -> Option<Piece> {
        let i = usize::from(self.board[sq.index()].checked_sub(1)?);
        let color = if i < 14 { Color::Sente } else { Color::Gote };
        PieceKind::from_index(i % 14).map(|k| Piece::new(color, k))
    }

    pub(super) fn set(&mut self, sq: Square, pc: Option<Piece>) {
        self.board[sq.index()] = pc.map_or(0, |pc| pc.index() as u8 + 1);
    }

    /// The key after the legal move `m` (as [`Position::play_unchecked`] then the key;
    /// compared in the tests). `None` if `m` moves from an empty square.
    pub(super) fn after(&self, m: Move) -> Option<Key> {
        let mut k = *self;
        let us = self.side;
        let hand = &mut k.hands[us.index()];
        match m {
            Move::Normal { from, to, promote } => {
                let pc = self.piece(from)?;
                if let Some(cap) = self.piece(to) {
                    *hand = hand.add(cap.kind.unpromote());
                }
                let kind = if promote {
                    pc.kind.promote().unwrap_or(pc.kind)
                } else {
                    pc.kind
                };
                k.set(from, None);
                k.set(to, Some(Piece::new(us, kind)));
            }
            Move::Drop { kind, to } => {
                *hand = hand.remove(kind);
                k.set(to, Some(Piece::new(us, kind)));
            }
        }
        k.side = !us;
        Some(k)
    }
}

/// A dense number for every move (board moves by squares and promotion, drops by
/// kind and square), for the per-node move sets.
pub(super) fn code(m: Move) -> usize {
    match m {
        Move::Normal { from, to, promote } => {
            (from.index() * 81 + to.index()) * 2 + usize::from(promote)
        }
        Move::Drop { kind, to } => 2 * 81 * 81 + kind.index() * 81 + to.index(),
    }
}

/// The number of move codes.
pub(super) const CODES: usize = 2 * 81 * 81 + 7 * 81;

/// A set of moves as bits by [`code`], emptied by taking back what was put in.
pub(super) struct MoveSet {
    bits: Vec<u64>,
    pub(super) moves: Vec<Move>,
}

impl MoveSet {
    pub(super) fn new() -> MoveSet {
        MoveSet {
            bits: vec![0; CODES.div_ceil(64)],
            moves: Vec::new(),
        }
    }

    /// Adds `m`; false if it was there.
    pub(super) fn insert(&mut self, m: Move) -> bool {
        let c = code(m);
        let (w, b) = (c / 64, 1u64 << (c % 64));
        let fresh = self.bits[w] & b == 0;
        if fresh {
            self.bits[w] |= b;
            self.moves.push(m);
        }
        fresh
    }

    pub(super) fn contains(&self, m: Move) -> bool {
        let c = code(m);
        self.bits[c / 64] & (1u64 << (c % 64)) != 0
    }

    pub(super) fn len(&self) -> usize {
        self.moves.len()
    }

    pub(super) fn clear(&mut self) {
        for m in self.moves.drain(..) {
            let c = code(m);
            self.bits[c / 64] &= !(1u64 << (c % 64));
        }
    }
}

/// Node ids to node indices: a vector for the small ids the extractor writes, a map
/// for any others.
pub(super) struct Index {
    dense: Vec<u32>,
    sparse: HashMap<u64, u32>,
}

impl Index {
    pub(super) fn new(dense: usize) -> Index {
        Index {
            dense: vec![u32::MAX; dense],
            sparse: HashMap::new(),
        }
    }

    /// Records `id` at `ix`; false if `id` was there.
    pub(super) fn insert(&mut self, id: u64, ix: u32) -> bool {
        match usize::try_from(id).ok().and_then(|i| self.dense.get_mut(i)) {
            Some(slot) if *slot == u32::MAX => {
                *slot = ix;
                true
            }
            Some(_) => false,
            None => match self.sparse.entry(id) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(ix);
                    true
                }
            },
        }
    }

    pub(super) fn get(&self, id: u64) -> Option<u32> {
        match usize::try_from(id).ok().and_then(|i| self.dense.get(i)) {
            Some(&ix) => (ix != u32::MAX).then_some(ix),
            None => self.sparse.get(&id).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_setup;
    use crate::rules::{Position, Rules};
    use rand::{Rng, SeedableRng};

    fn key(p: &Position) -> Key {
        key_of(&p.to_setup())
    }

    #[test]
    fn a_key_after_a_move_is_the_key_after_playing_it() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for (sfen, rules) in [
            (crate::notation::sfen::STARTPOS, Rules::STANDARD),
            (
                "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
                Rules::TSUME,
            ),
            (
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                Rules::STANDARD,
            ),
        ] {
            let start = Position::from_setup(parse_setup(sfen).unwrap(), rules).unwrap();
            for _ in 0..20 {
                let mut p = start.clone();
                for _ in 0..30 {
                    let moves = p.legal_moves_naive();
                    if moves.is_empty() {
                        break;
                    }
                    let k = key(&p);
                    for &m in &moves {
                        let mut q = p.clone();
                        q.play_unchecked(m);
                        assert!(k.after(m) == Some(key(&q)), "{m} in {p:?}");
                    }
                    p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
    }

    #[test]
    fn move_codes_are_distinct_and_in_range() {
        let mut seen = vec![false; CODES];
        let mut set = MoveSet::new();
        for from in Square::all() {
            for to in Square::all() {
                for promote in [false, true] {
                    let m = Move::Normal { from, to, promote };
                    assert!(!std::mem::replace(&mut seen[code(m)], true));
                    assert!(set.insert(m) && !set.insert(m) && set.contains(m));
                }
            }
        }
        for kind in PieceKind::HAND {
            for to in Square::all() {
                let m = Move::Drop { kind, to };
                assert!(!std::mem::replace(&mut seen[code(m)], true));
                assert!(set.insert(m) && set.contains(m));
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(set.len(), CODES);
        set.clear();
        assert!(set.bits.iter().all(|&w| w == 0) && set.len() == 0);
    }

    #[test]
    fn the_index_holds_small_and_large_ids() {
        let mut ix = Index::new(4);
        assert!(ix.insert(2, 0) && ix.insert(1 << 40, 1) && ix.insert(4, 2));
        assert!(!ix.insert(2, 3) && !ix.insert(1 << 40, 3) && !ix.insert(4, 3));
        assert_eq!(
            [ix.get(2), ix.get(1 << 40), ix.get(4), ix.get(0), ix.get(9)],
            [Some(0), Some(1), Some(2), None, None]
        );
    }
}
