//! The dedicated check generator (`rules::checks`, used by the tsume solver)
//! against its naive twin `legal_moves().filter(gives_check)`, on random
//! playout positions (both sides to move, kings in check or not) and on
//! random walks from the 200 classics; the counted checks (`count_checks`)
//! against the generated list.

mod strategies;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use shogi_lab::rules::{MoveList, Position};
use shogi_lab::tsume::problems::read_problems;
use shogi_lab::tsume::{load_problem, DefenderHand};

fn fast_and_slow(pos: &Position) -> (Vec<String>, Vec<String>) {
    let mut list = MoveList::new();
    pos.generate_checks(&mut list);
    // The bitboard count equals the generated list's length (the solver counts checks).
    assert_eq!(pos.count_checks() as usize, list.len(), "{pos:?}");
    let mut fast: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    fast.sort();
    (fast, pos.checks_naive_usi())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn checks_equal_filtered_legal_moves(pos in strategies::position()) {
        let (fast, slow) = fast_and_slow(&pos);
        prop_assert_eq!(fast, slow, "{:?}", pos);
    }
}

#[test]
fn checks_on_walks_from_the_classics() {
    let text = include_str!("../specs/tsume/classics.sfen");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for p in read_problems(text) {
        let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        for _ in 0..16 {
            let (fast, slow) = fast_and_slow(&pos);
            assert_eq!(fast, slow, "{} {:?}", p.id, pos);
            // Prefer checks so that the walk stays tsume-like (the attacker's king may end up in check).
            let all = pos.legal_moves();
            if all.is_empty() {
                break;
            }
            let checks: Vec<_> = all
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect();
            let m = if !checks.is_empty() && rng.gen_bool(0.7) {
                checks[rng.gen_range(0..checks.len())]
            } else {
                all[rng.gen_range(0..all.len())]
            };
            pos.play_unchecked(m);
        }
    }
}
