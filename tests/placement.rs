//! 利かずの駒並べ: published counts, brute-force oracles, certificates.

use shogi_lab::placement::{
    brute_force_count, check_placement, sweep_count, Directions, First, PieceSet, Placement,
    Problem,
};
use shogi_lab::rules::PieceKind;
use std::collections::HashSet;
use std::ops::ControlFlow;

fn problem(text: &str, dirs: Directions) -> Problem {
    Problem::new(PieceSet::parse(text).expect("valid set"), dirs)
}

/// Every placement listed, each checked; returns them.
fn list_checked(p: &Problem) -> Vec<Placement> {
    let mut out = Vec::new();
    p.for_each(|b| {
        check_placement(p, b).unwrap_or_else(|e| panic!("{e}: {}", b.sfen()));
        out.push(b.clone());
        ControlFlow::Continue(())
    });
    out
}

#[test]
fn forty_pieces_have_3720_placements_in_1860_mirror_pairs() {
    let p = problem("P18L4N4S4G4K2R2B2", Directions::One);
    let c = p.count();
    assert_eq!(c.count, 3720);
    assert_eq!(c.symmetric, 0);
    assert_eq!(c.up_to_mirror(), 1860);
    let all = list_checked(&p);
    assert_eq!(all.len(), 3720);
    let set: HashSet<Placement> = all.iter().cloned().collect();
    assert_eq!(set.len(), 3720, "listed placements are distinct");
    assert!(
        all.iter().all(|b| set.contains(&b.mirror())),
        "closed under mirror"
    );
    // All share one rook/bishop layout up to mirror.
    let layout = |b: &Placement| -> Vec<String> {
        b.pieces()
            .filter(|(_, p)| matches!(p.kind, PieceKind::Rook | PieceKind::Bishop))
            .map(|(s, p)| format!("{}{s}", p.kind.letter()))
            .collect()
    };
    let layouts: HashSet<Vec<String>> = all
        .iter()
        .map(|b| std::cmp::min(layout(b), layout(&b.mirror())))
        .collect();
    assert_eq!(layouts.len(), 1, "{layouts:?}");
}

#[test]
fn forty_one_pieces_do_not_fit() {
    for text in ["P19L4N4S4G4K2R2B2", "P18L4N5S4G4K2R2B2"] {
        let p = problem(text, Directions::One);
        assert_eq!(p.count().count, 0, "{text}");
        assert_eq!(p.first(None).0, First::Impossible, "{text}");
    }
}

#[test]
fn small_sets_match_published_counts() {
    assert_eq!(problem("R2B2", Directions::One).count().count, 1_331_924);
    assert_eq!(problem("K2G2", Directions::One).count().count, 5_772_534);
    assert_eq!(problem("P6", Directions::One).count().count, 227_916_084);
}

/// P6 in closed form: the coefficient of x⁶ in (Σₖ C(10−k,k)xᵏ)⁹.
#[test]
fn p6_closed_form() {
    let c = |n: u64, k: u64| (0..k).fold(1u64, |a, i| a * (n - i) / (i + 1));
    let col: Vec<u64> = (0..=5).map(|k| c(10 - k, k)).collect();
    let mut poly = vec![1u64];
    for _ in 0..9 {
        let mut next = vec![0u64; poly.len() + 5];
        for (i, a) in poly.iter().enumerate() {
            for (k, w) in col.iter().enumerate() {
                next[i + k] += a * w;
            }
        }
        poly = next;
    }
    assert_eq!(poly[6], 227_916_084);
}

#[test]
fn closed_form_pawn_leaves_match_listing() {
    let cases: &[(&str, u8, u8)] = &[
        ("R2B2P4", 5, 5),
        ("R2P3", 9, 5),
        ("K2G2P2", 9, 4),
        ("P6", 5, 6),
        ("P5", 7, 5),
        ("G2S2P3", 5, 5),
        ("K2L2P4", 5, 5),
        ("N4P5", 5, 5),
        ("RBGSNLPK", 5, 5),
        ("P4", 9, 4),
    ];
    for &(text, files, ranks) in cases {
        let p = problem(text, Directions::One).on_board(files, ranks);
        let (fast, slow) = (p.count(), p.count_by_listing());
        assert_eq!(
            (fast.count, fast.symmetric),
            (slow.count, slow.symmetric),
            "{text} {files}x{ranks}"
        );
    }
}

#[test]
fn solver_matches_brute_force_on_small_boards() {
    let cases: &[(&str, u8, u8)] = &[
        ("P3", 4, 4),
        ("P2L2", 4, 4),
        ("R", 5, 5),
        ("R2", 5, 4),
        ("B2P", 4, 4),
        ("K2G", 4, 4),
        ("S2N2", 4, 4),
        ("G2S", 4, 5),
        ("NLSP2", 4, 4),
        ("+R+B", 5, 5),
        ("+P2+N+S", 4, 4),
        ("RBP3", 4, 5),
        ("P8", 4, 4),
        ("N8", 4, 4),
    ];
    for &(text, files, ranks) in cases {
        for dirs in [Directions::One, Directions::Two] {
            let p = problem(text, dirs).on_board(files, ranks);
            let brute = brute_force_count(&p);
            let fast = p.count();
            let slow = p.count_by_listing();
            assert_eq!(fast.count, brute, "{text} {files}x{ranks} {dirs:?} count");
            assert_eq!(slow.count, brute, "{text} {files}x{ranks} {dirs:?} listing");
            if dirs == Directions::One {
                // The sweep: the second, independent counting method (one direction).
                let sweep = sweep_count(&p).expect("one direction");
                assert_eq!(sweep.count, brute, "{text} {files}x{ranks} sweep");
                assert_eq!(
                    sweep.symmetric, slow.symmetric,
                    "{text} {files}x{ranks} sweep symmetric"
                );
            }
            assert_eq!(
                fast.symmetric, slow.symmetric,
                "{text} {files}x{ranks} {dirs:?} symmetric"
            );
            assert_eq!(
                list_checked(&p).len() as u64,
                brute,
                "{text} {files}x{ranks} {dirs:?} listed"
            );
            let expect_found = brute > 0;
            match p.first(None).0 {
                First::Found(b) => {
                    assert!(expect_found);
                    check_placement(&p, &b).expect("checked");
                }
                First::Impossible => assert!(!expect_found, "{text} {dirs:?}"),
                First::Unknown => panic!("no limit was set"),
            }
        }
    }
}

#[test]
fn checker_rejects_wrong_boards() {
    let p = problem("R2B2", Directions::One);
    let (First::Found(b), _) = p.first(None) else {
        panic!("R2B2 fits")
    };
    check_placement(&p, &b).expect("solver output is valid");
    // Move one piece next to another: now attacked or the set changes.
    let mut bad = b.clone();
    let (sq, piece) = bad.pieces().next().expect("pieces");
    bad.board[sq.index()] = None;
    assert!(check_placement(&p, &bad).is_err());
    let target = shogi_lab::rules::Square::all()
        .find(|s| bad.board[s.index()].is_none() && s.file() == 5)
        .expect("square");
    bad.board[target.index()] = Some(piece);
    let _ = check_placement(&p, &bad); // may or may not be valid; must not panic
    let mut gote = b.clone();
    let (s0, p0) = gote.pieces().next().expect("pieces");
    gote.board[s0.index()] = Some(shogi_lab::rules::Piece::new(
        shogi_lab::rules::Color::Gote,
        p0.kind,
    ));
    assert!(check_placement(&p, &gote).is_err());
}

/// The counting fast path (one placement of each mirror pair counted twice,
/// closed-form pawn leaves without a feasibility test) against the slow path
/// (every placement listed, one thread), on boards with an odd and an even
/// number of files, both directions, sets whose first groups are often their
/// own mirror images (so later groups decide the pair).
#[test]
fn mirror_pair_counting_matches_listing() {
    let cases: &[(&str, u8, u8)] = &[
        ("R2P2", 5, 4),
        ("K2G", 5, 4),
        ("KS2", 4, 4),
        ("B2P3", 5, 4),
        ("G2N", 4, 5),
        ("+R+S", 4, 4),
        ("RBN2", 5, 5),
        ("S2L2", 4, 4),
        ("N2P3", 5, 4),
        ("K2P2", 6, 3),
    ];
    for &(text, files, ranks) in cases {
        for dirs in [Directions::One, Directions::Two] {
            let p = problem(text, dirs).on_board(files, ranks);
            let (fast, slow) = (p.count(), p.count_by_listing());
            assert!(
                slow.count > 0,
                "{text} {files}x{ranks} {dirs:?}: pick a case with placements"
            );
            assert_eq!(
                (fast.count, fast.symmetric),
                (slow.count, slow.symmetric),
                "{text} {files}x{ranks} {dirs:?}"
            );
        }
    }
}

/// The tail memo (counts shared by boards that agree on the free squares and
/// on the occupied squares the remaining kinds can reach) against the same
/// count with every subtree searched, and against listing; sets whose tail
/// kinds (桂 香 玉 金 銀 and promoted) come after a long-range group, both
/// directions, boards small enough to list.
#[test]
fn tail_memo_matches_unmemoised_count() {
    let cases: &[(&str, u8, u8)] = &[
        ("RN2L2P2", 5, 4),
        ("BN2LKP", 4, 5),
        ("RBN2GP", 5, 5),
        ("R2LN3P2", 5, 5),
        ("RK2GP2", 4, 5),
        ("B2S2N2", 4, 5),
        ("R+S+N+LP", 4, 5),
    ];
    let mut hits = 0;
    for &(text, files, ranks) in cases {
        for dirs in [Directions::One, Directions::Two] {
            let p = problem(text, dirs).on_board(files, ranks);
            let (memo, plain, slow) = (p.count(), p.count_unmemoised(), p.count_by_listing());
            assert!(
                slow.count > 0,
                "{text} {files}x{ranks} {dirs:?}: pick a case with placements"
            );
            assert_eq!(
                (memo.count, memo.symmetric),
                (plain.count, plain.symmetric),
                "{text} {files}x{ranks} {dirs:?} memo vs unmemoised"
            );
            assert_eq!(
                (memo.count, memo.symmetric),
                (slow.count, slow.symmetric),
                "{text} {files}x{ranks} {dirs:?} memo vs listing"
            );
            hits += memo.memo_hits;
        }
    }
    // The memo is used on these sets (otherwise the test would test nothing).
    assert!(hits > 100_000, "{hits}");
}

/// The 40-piece count with and without the memo (full board).
#[test]
fn tail_memo_matches_unmemoised_on_forty_and_minus_knight() {
    for text in ["P18L4N4S4G4K2R2B2", "P18L4N3S4G4K2R2B2"] {
        let p = problem(text, Directions::One);
        let (memo, plain) = (p.count(), p.count_unmemoised());
        assert_eq!(
            (memo.count, memo.symmetric),
            (plain.count, plain.symmetric),
            "{text}"
        );
        assert!(memo.memo_hits > 0, "{text}");
    }
}

/// Classic N-queens counts (OEIS A000170) on the n×n corner board, by the main
/// search (count with mirror pairs, listing with every board checked) and,
/// for n ≤ 6, by the brute-force counter. The queen attacks as 飛 + 角.
#[test]
fn n_queens_counts() {
    const KNOWN: [u64; 8] = [1, 0, 0, 2, 10, 4, 40, 92];
    for (i, &want) in KNOWN.iter().enumerate() {
        let n = i as u8 + 1;
        for dirs in [Directions::One, Directions::Two] {
            let p = problem(&format!("Q{n}"), dirs).on_board(n, n);
            let c = p.count();
            assert_eq!(c.count, want, "n={n} count");
            let listed = list_checked(&p);
            assert_eq!(listed.len() as u64, want, "n={n} listed");
            let distinct: HashSet<Placement> = listed.into_iter().collect();
            assert_eq!(distinct.len() as u64, want, "n={n} distinct");
            if n <= 6 {
                assert_eq!(brute_force_count(&p), want, "n={n} brute force");
            }
            match p.first(None).0 {
                First::Found(b) => check_placement(&p, &b).expect("checked"),
                First::Impossible => assert_eq!(want, 0, "n={n}"),
                First::Unknown => panic!("no limit was set"),
            }
        }
    }
    // Up to mirror (Burnside, left-right only): 92 solutions of 8-queens, none
    // left-right symmetric, form 46 mirror pairs.
    let c = problem("Q8", Directions::One).on_board(8, 8).count();
    assert_eq!((c.symmetric, c.up_to_mirror()), (0, 46));
    // Queens mixed with shogi pieces: solver = brute force.
    for (text, n) in [("Q2P2", 4u8), ("QN2", 4), ("Q2G", 5), ("QR", 4)] {
        for dirs in [Directions::One, Directions::Two] {
            let p = problem(text, dirs).on_board(n, n);
            let brute = brute_force_count(&p);
            assert_eq!(p.count().count, brute, "{text} {dirs:?}");
            assert_eq!(p.count_by_listing().count, brute, "{text} {dirs:?}");
            assert_eq!(list_checked(&p).len() as u64, brute, "{text} {dirs:?}");
        }
    }
}

/// Two directions: the published maxima (our reading: additions to /
/// promotions within the 40-piece set) that the search finds, each checked,
/// and the next steps (one more piece) proved impossible by exhaustive search.
#[test]
fn two_directional_maxima_and_next_steps() {
    // `first` splits its top-level branches over the thread pool; in the shared
    // test pool other tests' jobs change which branches start first (and so
    // where the node limit stops the search), so it runs in a pool of its own.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("thread pool");
    pool.install(two_directional_maxima_and_next_steps_in_pool);
}

fn two_directional_maxima_and_next_steps_in_pool() {
    for text in [
        "P22L4N4S4G4K2R2B2",
        "P18L4N10S4G4K2R2B2",
        "P18L4N5S7G4K2R2B2",
        "P18L4N7S4G6K2R2B2",
        "P18L4N6S4G4K4R2B2",
        "P18L4N4S4G4K2R2B4",
        "P18L4+N4N1S4G4K2R2B2",
        "P18L4N8+S4G4K2R2B2",
        "P18L4N6S4G4K2R1+R1B2",
        "P18L4N7S4G4K2R2+B2",
    ] {
        let p = problem(text, Directions::Two);
        match p.first(Some(5_000_000)).0 {
            First::Found(b) => check_placement(&p, &b).unwrap_or_else(|e| panic!("{text}: {e}")),
            other => panic!("{text}: {other:?}"),
        }
    }
    for text in [
        "P23L4N4S4G4K2R2B2",
        "P18L4N11S4G4K2R2B2",
        "P18L4N4S4G4K2R3B2",
        "P18L4N4S4G4K2R2B5",
        "P18L4N6S7G4K2R2B2",
        "P18L4N8S4G6K2R2B2",
        "P18L4N7S4G4K4R2B2",
        "P18L4+N4N2S4G4K2R2B2",
        "P18L4N9+S4G4K2R2B2",
        "P18L4N7S4G4K2R1+R1B2",
        "P18L4N8S4G4K2R2+B2",
    ] {
        let p = problem(text, Directions::Two);
        assert_eq!(p.first(None).0, First::Impossible, "{text}");
    }
}

/// "8 歩 → と, + 1 桂" (`P10+P8L4N5S4G4K2R2B2`, two directions): the board
/// found by `shogi-lab place --first --both-directions P10+P8L4N5S4G4K2R2B2`
/// (315 M nodes, too long for this test), re-checked here square by square.
#[test]
fn promoted_pawns_maximum_certificate() {
    let sfen =
        "K1K1PLLLL/4NNNNN/+P1+P1ppppp/3R5/+P1+p1PSP1G/5p1P1/+P1+P1g1g1g/1R7/+p1+p1SBSBS b - 1";
    let setup = shogi_lab::notation::sfen::parse_setup(sfen).expect("setup");
    let board = Placement {
        board: setup.board,
        queens: shogi_lab::rules::Bitboard::EMPTY,
    };
    let p = problem("P10+P8L4N5S4G4K2R2B2", Directions::Two);
    check_placement(&p, &board).expect("checked");
    assert_eq!(board.sfen(), sfen);
    // The same board is not a solution in one direction (it has Gote pieces).
    let one = problem("P10+P8L4N5S4G4K2R2B2", Directions::One);
    assert!(check_placement(&one, &board).is_err());
}

/// Counts past 2^64 are no answer, never a number wrapped round: the search saturates
/// (`Count::overflowed`) and the sweep refuses. P18N3 has 35 431 992 821 189 507 720
/// placements (2^64 + the 16 985 248 747 479 956 104 the search once printed); P18N2's
/// 3 549 908 191 360 382 448 fit, and the two methods agree on them.
#[test]
fn counts_past_2_pow_64_are_flagged_not_wrapped() {
    use shogi_lab::placement::{sweep_count, SweepError};
    let big = problem("P18N3", Directions::One);
    assert!(big.count().overflowed());
    assert_eq!(sweep_count(&big).unwrap_err(), SweepError::Overflow);
    let fits = problem("P18N2", Directions::One);
    let c = fits.count();
    assert!(!c.overflowed());
    assert_eq!(c.count, 3_549_908_191_360_382_448);
    assert_eq!(sweep_count(&fits).unwrap().count, c.count);
}
