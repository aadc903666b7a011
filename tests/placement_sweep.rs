//! The transfer-matrix sweep against the search, brute force and the known counts.

use rand::{Rng, SeedableRng};
use shogi_lab::placement::{
    brute_force_count, sweep_count, Directions, PieceSet, Problem, SweepError,
};

fn problem(text: &str) -> Problem {
    Problem::new(PieceSet::parse(text).expect("valid set"), Directions::One)
}

/// Queens with the sweep (the small shogi sets against brute force are in
/// `tests/placement.rs`, `solver_matches_brute_force_on_small_boards`).
#[test]
fn sweep_matches_brute_force_with_queens() {
    let p = problem("Q5").on_board(5, 5);
    let s = sweep_count(&p).expect("one direction");
    assert_eq!(s.count, brute_force_count(&p));
    assert_eq!(s.count, 10);
    assert_eq!(s.symmetric, p.count_by_listing().symmetric);
}

/// Random sets of every one-directional kind on random small boards:
/// sweep and search (memo, mirror pairs, closed-form pawns) agree.
#[test]
fn sweep_matches_search_on_random_sets() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(61);
    let letters = [
        "P", "L", "N", "S", "G", "K", "R", "B", "+P", "+S", "+R", "+B",
    ];
    for case in 0..150 {
        let (files, ranks) = (rng.gen_range(2..=6u8), rng.gen_range(2..=6u8));
        let mut text = String::new();
        for _ in 0..rng.gen_range(1..=4) {
            let l = letters[rng.gen_range(0..letters.len())];
            let long = matches!(l, "R" | "B" | "+R" | "+B");
            let n = if long { 1 } else { rng.gen_range(1..=4) };
            text.push_str(&format!("{l}{n}"));
        }
        let Ok(set) = PieceSet::parse(&text) else {
            continue;
        };
        let p = Problem::new(set, Directions::One).on_board(files, ranks);
        let s = sweep_count(&p).expect("one direction");
        let c = p.count();
        assert_eq!(
            (s.count, s.symmetric),
            (c.count, c.symmetric),
            "case {case}: {text} on {files}x{ranks}"
        );
    }
}

#[test]
fn sweep_reproduces_the_full_board_counts() {
    for (text, count, up_to_mirror) in [
        ("P18L4N4S4G4K2R2B2", 3720, 1860),
        ("P19L4N4S4G4K2R2B2", 0, 0),
        ("P18L4N5S4G4K2R2B2", 0, 0),
        ("K2G2", 5_772_534, 2_887_696),
        ("P6", 227_916_084, 113_969_724),
        ("R2B2", 1_331_924, 665_962),
        // The 39-piece sets, counted by the search (specs/placement.md).
        ("P17L4N4S4G4K2R2B2", 14_032_268, 7_016_134),
        ("P18L3N4S4G4K2R2B2", 41_795_812, 20_897_906),
        ("P18L4N3S4G4K2R2B2", 3_124_954, 1_562_477),
        ("P18L4N4S3G4K2R2B2", 13_455_066, 6_727_533),
        ("P18L4N4S4G3K2R2B2", 64_913_024, 32_456_512),
        ("P18L4N4S4G4K1R2B2", 51_926_754, 25_963_377),
        ("P18L4N4S4G4K2R2B1", 140_352, 70_176),
    ] {
        let s = sweep_count(&problem(text)).expect("one direction");
        assert_eq!((s.count, s.up_to_mirror()), (count, up_to_mirror), "{text}");
    }
}

#[test]
fn sweep_refuses_two_directions() {
    let p = Problem::new(PieceSet::parse("P2").unwrap(), Directions::Two);
    assert_eq!(sweep_count(&p), Err(SweepError::TwoDirections));
}
