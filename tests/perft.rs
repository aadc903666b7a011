//! Every count in `specs/perft/*.perft` up to a node limit (set `SHOGI_LAB_PERFT_LIMIT`
//! to raise it); the deep tier (`cargo test --release -- --ignored`, run by `.ci/run`)
//! checks every count, slow depths included.

use shogi_lab::experiments::perft_speed::{embedded_cases, read_perft_specs, SPEC_FILES};
use shogi_lab::notation::sfen::parse_position;
use shogi_lab::rules::{perft, perft_divide, Rules};

fn limit() -> u64 {
    std::env::var("SHOGI_LAB_PERFT_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30_000_000)
}

#[test]
fn spec_files_list_every_required_case() {
    let cases = embedded_cases();
    let find = |id: &str| {
        cases
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("missing {id}"))
    };
    assert_eq!(
        find("startpos").counts,
        vec![
            (1, 30),
            (2, 900),
            (3, 25_470),
            (4, 719_731),
            (5, 19_861_490),
            (6, 547_581_517)
        ]
    );
    assert_eq!(
        find("matsuri").counts,
        vec![(1, 207), (2, 28_684), (3, 4_809_015), (4, 516_925_165)]
    );
    assert_eq!(
        find("max-moves").counts,
        vec![(1, 593), (2, 105_677), (3, 53_393_368)]
    );
    for c in &cases {
        assert!(!c.sources.is_empty(), "{} has no # Source: line", c.id);
    }
    assert!(SPEC_FILES.len() >= 4);
}

#[test]
fn perft_counts_match_specs_within_node_limit() {
    let checked = check_counts_up_to(limit());
    assert!(checked >= 14, "only {checked} counts checked");
}

/// Deep tier: every count, startpos depth 6 (547 581 517) and matsuri depth 4 included.
#[test]
#[ignore = "deep tier: about 20 CPU s; run by .ci/run with --ignored"]
fn perft_counts_match_specs_at_every_depth() {
    let checked = check_counts_up_to(u64::MAX);
    let all: usize = embedded_cases().iter().map(|c| c.counts.len()).sum();
    assert_eq!(checked, all);
}

/// Checks each spec count of at most `limit` nodes; returns how many were checked.
fn check_counts_up_to(limit: u64) -> usize {
    let mut checked = 0;
    for case in embedded_cases() {
        let mut pos = parse_position(&case.sfen, Rules::STANDARD)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in &case.counts {
            if nodes > limit {
                continue;
            }
            assert_eq!(perft(&mut pos, depth), nodes, "{} depth {depth}", case.id);
            checked += 1;
        }
    }
    checked
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = parse_position("startpos", Rules::STANDARD).unwrap();
    let d = perft_divide(&mut pos, 3);
    assert_eq!(d.len(), 30);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 25_470);
}

#[test]
fn perft_spec_reader_rejects_bad_lines() {
    assert_eq!(
        read_perft_specs("id x\nsfen startpos\nperft one 2\n")
            .unwrap_err()
            .line,
        3
    );
    assert_eq!(read_perft_specs("sfen startpos\n").unwrap_err().line, 1);
    assert_eq!(read_perft_specs("id x\nbogus 1\n").unwrap_err().line, 2);
    assert!(read_perft_specs("id x\n").is_err());
}
