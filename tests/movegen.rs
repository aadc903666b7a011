//! The fast legal-move generator against its naive twin, hashing, play/undo,
//! check detection and 打ち歩詰め.

mod strategies;

use proptest::prelude::*;
use shogi_lab::notation::sfen::{parse_position, write_sfen};
use shogi_lab::rules::{Move, PieceKind, Position, Rules, Square};
use std::collections::BTreeSet;

fn set(moves: impl IntoIterator<Item = Move>) -> BTreeSet<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

fn drop_pawn(file: u8, rank: u8) -> Move {
    Move::Drop {
        kind: PieceKind::Pawn,
        to: Square::new(file, rank).unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, .. ProptestConfig::default() })]

    #[test]
    fn fast_generator_matches_naive_filter(pos in strategies::position()) {
        let fast = pos.legal_moves();
        let fast_set = set(fast.iter().copied());
        prop_assert_eq!(fast_set.len(), fast.len(), "duplicates in {}", write_sfen(&pos));
        prop_assert_eq!(fast_set, set(pos.legal_moves_naive()), "{}", write_sfen(&pos));
    }

    #[test]
    fn bulk_count_equals_generated_moves(pos in strategies::position()) {
        prop_assert_eq!(pos.count_legal_moves(), pos.legal_moves().len(), "{}", write_sfen(&pos));
    }

    /// The documented order (the tsume solver's node counts depend on it): king moves, board
    /// moves by origin then destination (promotion first), drops by kind (歩香桂銀金角飛) then square.
    #[test]
    fn generation_order_is_the_documented_one(pos in strategies::position()) {
        let king = pos.king(pos.side_to_move());
        let key = |m: Move| match m {
            Move::Normal { from, to, promote } if Some(from) == king => (0, 0, to.index(), !promote as usize),
            Move::Normal { from, to, promote } => (1, from.index(), to.index(), !promote as usize),
            Move::Drop { kind, to } => (2, kind.index(), to.index(), 0),
        };
        let keys: Vec<_> = pos.legal_moves().iter().map(|&m| key(m)).collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{}", write_sfen(&pos));
    }

    /// `moves_to` (one piece's legal moves to one square, the 無駄合 tests' recaptures)
    /// against filtering every legal move, for every origin and destination.
    #[test]
    fn moves_to_matches_the_filtered_legal_moves(pos in strategies::position()) {
        let all = pos.legal_moves();
        for from in Square::all() {
            for to in Square::all() {
                let mut fast = shogi_lab::rules::MoveList::new();
                pos.moves_to(from, to, &mut fast);
                let slow: Vec<Move> = all.iter().copied()
                    .filter(|m| m.from() == Some(from) && m.to() == to).collect();
                prop_assert_eq!(fast.to_vec(), slow, "{} {} {}", from, to, write_sfen(&pos));
            }
        }
    }

    #[test]
    fn is_attacked_matches_attackers_to(pos in strategies::position(), drop_mask in any::<u128>()) {
        // Random occupancies too: the slider early exits must not depend on the real board.
        let occ = shogi_lab::rules::Bitboard(pos.occupied().0 & (drop_mask | !0u128 << 64));
        for c in shogi_lab::rules::Color::ALL {
            for sq in Square::all() {
                prop_assert_eq!(pos.is_attacked(c, sq, occ), !pos.attackers_to(c, sq, occ).is_empty(),
                    "{:?} {} {}", c, sq, write_sfen(&pos));
            }
        }
    }

    #[test]
    fn incremental_key_matches_recomputed_after_random_play_and_undo(pos in strategies::position(), seed in any::<u64>()) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut p = pos.clone();
        let mut played = 0;
        for _ in 0..rng.gen_range(0..30) {
            let moves = p.legal_moves();
            if moves.is_empty() { break; }
            p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            played += 1;
            prop_assert_eq!(p.key(), p.key_from_scratch());
        }
        for _ in 0..played {
            p.undo();
            prop_assert_eq!(p.key(), p.key_from_scratch());
        }
        prop_assert_eq!(&p, &pos);
        prop_assert_eq!(p.key(), pos.key());
        prop_assert_eq!(p.checkers(), pos.checkers());
        prop_assert_eq!(write_sfen(&p), write_sfen(&pos));
    }

    #[test]
    fn gives_check_matches_playing_the_move(pos in strategies::position()) {
        for m in pos.legal_moves() {
            let mut p = pos.clone();
            p.play_unchecked(m);
            prop_assert_eq!(pos.gives_check(m), p.in_check(), "{} in {}", m, write_sfen(&pos));
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn play_accepts_exactly_the_legal_moves(pos in strategies::position()) {
        let legal = pos.legal_moves();
        // Every move of the naive pseudo-move space, legal or not.
        let mut p = pos.clone();
        for from in Square::all() {
            for to in Square::all() {
                for promote in [false, true] {
                    let m = Move::Normal { from, to, promote };
                    let before = write_sfen(&p);
                    let ok = p.play(m).is_ok();
                    prop_assert_eq!(ok, legal.contains(&m), "{:?}", m);
                    if ok { p.undo(); }
                    prop_assert_eq!(write_sfen(&p), before);
                }
            }
        }
        for kind in PieceKind::ALL {
            for to in Square::all() {
                let m = Move::Drop { kind, to };
                let ok = p.play(m).is_ok();
                prop_assert_eq!(ok, legal.contains(&m), "{:?}", m);
                if ok { p.undo(); }
            }
        }
    }

    #[test]
    fn sfen_round_trips(pos in strategies::position()) {
        let s = write_sfen(&pos);
        let back = parse_position(&s, Rules::STANDARD).unwrap();
        prop_assert_eq!(write_sfen(&back), s);
        prop_assert_eq!(back.key(), pos.key());
    }
}

#[test]
fn pawn_drop_mate_is_illegal() {
    // Gold on 1c guards 1b and 2b: P*1b would mate the king on 1a.
    let p = parse_position("7lk/9/8G/9/9/9/9/9/K8 b P 1", Rules::STANDARD).unwrap();
    assert!(!p.is_legal(drop_pawn(1, 2)));
    assert!(!set(p.legal_moves()).contains("P*1b"));
    assert!(p.is_legal(drop_pawn(1, 3 + 1)));
    // The defender's capturer is pinned by the rook on 9a: still mate, still illegal.
    let p = parse_position("R6sk/9/8G/9/9/9/9/9/K8 b P 1", Rules::STANDARD).unwrap();
    assert!(!p.is_legal(drop_pawn(1, 2)));
    // Gote drops too: the mirror image for Gote.
    let p = parse_position("k8/9/9/9/9/9/g8/9/KL7 w p 1", Rules::STANDARD).unwrap();
    assert!(!p.is_legal(drop_pawn(9, 8)));
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    // No guard on 1b: the king takes the pawn.
    let p = parse_position("7lk/9/9/9/9/9/9/9/K8 b P 1", Rules::STANDARD).unwrap();
    assert!(p.is_legal(drop_pawn(1, 2)));
    // The silver on 2a (not pinned) takes the pawn.
    let p = parse_position("7sk/9/8G/9/9/9/9/9/K8 b P 1", Rules::STANDARD).unwrap();
    assert!(p.is_legal(drop_pawn(1, 2)));
    // The king escapes to 2b (the gold on 1d guards only 1c, 2c).
    let p = parse_position("8k/9/9/8G/9/9/9/9/K8 b P 1", Rules::STANDARD).unwrap();
    assert!(p.is_legal(drop_pawn(1, 2)));
    // A pawn *move* that mates is legal (only drops are restricted).
    let mut q = parse_position("7lk/9/8P/8G/9/9/9/9/K8 b - 1", Rules::STANDARD).unwrap();
    let m = Move::Normal {
        from: Square::new(1, 3).unwrap(),
        to: Square::new(1, 2).unwrap(),
        promote: false,
    };
    assert!(q.play(m).is_ok());
}

#[test]
fn no_move_leaves_a_dead_piece() {
    let p = parse_position("4k4/P8/9/9/9/9/9/9/4K4 b NL 1", Rules::STANDARD).unwrap();
    let moves = set(p.legal_moves());
    assert!(moves.contains("9b9a+"));
    assert!(!moves.contains("9b9a"));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("N*") && (m.ends_with('a') || m.ends_with('b'))));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("L*") && m.ends_with('a')));
    assert!(moves.contains("N*5c") && moves.contains("L*5b"));
}

#[test]
fn two_pawns_on_a_file_are_never_generated() {
    let p = parse_position("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", Rules::STANDARD).unwrap();
    assert!(!set(p.legal_moves()).iter().any(|m| m.starts_with("P*5")));
    assert!(set(p.legal_moves()).contains("P*4e"));
}

#[test]
fn mate_and_check_detection() {
    // 頭金: gold on 5b protected by the pawn on 5c.
    let p = parse_position("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", Rules::STANDARD).unwrap();
    assert!(p.in_check() && p.is_mate());
    let p: Position = Position::startpos();
    assert!(!p.in_check() && !p.is_mate());
}
