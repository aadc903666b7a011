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

/// Positions without one king or both (tsume problems have none for the attacker), as
/// `shogi-lab moves`/`perft` read them ([`Rules::KINGS_OPTIONAL`]): every count cshogi gave
/// in `specs/perft/kingless.perft` (687 positions from `paper/scripts/cshogi_kingless.py`'s
/// walks; each side missing its king, to move or not, and both missing).
#[test]
fn kingless_positions_match_cshogi() {
    let cases = read_perft_specs(include_str!("../specs/perft/kingless.perft")).unwrap();
    assert!(cases.len() >= 600, "{}", cases.len());
    let mut missing = [0usize; 3]; // Sente's king, Gote's king, both
    let mut checked = 0;
    for case in &cases {
        // Refused under the standard rules: these are the positions the change lets in.
        assert!(
            parse_position(&case.sfen, Rules::STANDARD).is_err(),
            "{}",
            case.id
        );
        let mut pos = parse_position(&case.sfen, Rules::KINGS_OPTIONAL)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        use shogi_lab::rules::Color;
        match (pos.king(Color::Sente), pos.king(Color::Gote)) {
            (None, Some(_)) => missing[0] += 1,
            (Some(_), None) => missing[1] += 1,
            (None, None) => missing[2] += 1,
            (Some(_), Some(_)) => unreachable!("refused above"),
        }
        for &(depth, nodes) in &case.counts {
            assert_eq!(perft(&mut pos, depth), nodes, "{} depth {depth}", case.id);
            checked += 1;
        }
    }
    assert!(missing.iter().all(|&n| n >= 50), "{missing:?}");
    assert!(checked >= 1500, "{checked}");
}

/// `shogi-lab moves` and `perft` take a position without a king (the tsume shape: they
/// said `illegal position: Sente has no king`), and refuse what they refused before.
#[test]
fn the_cli_takes_kingless_positions_and_refuses_the_rest() {
    use std::io::Write;
    let run = |args: &[&str], stdin: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    // Every piece in Gote's hand: Sente, to move without a king, has no move at all.
    let (code, out, err) = run(
        &["moves", "-", "--json"],
        "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1\n",
    );
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "{\"sfen\":\"4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1\",\"moves\":[]}\n"
        ),
        "{err}"
    );
    // 頭金: gold drops and the pawn's move; the counts are cshogi's (kingless-1).
    let (code, out, err) = run(&["moves", "-"], "8k/9/8P/9/9/9/9/9/9 b G 1\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim_end()
            .split('\t')
            .nth(1)
            .unwrap()
            .split(' ')
            .count(),
        81
    );
    let (code, out, err) = run(&["perft", "8k/9/8P/9/9/9/9/9/9 b G 1", "2"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("nodes 153\n"), "{out}");
    // Still refused: two kings of one side, 二歩, a pawn on the last rank, Gote in check.
    for (sfen, why) in [
        ("3kk4/9/9/9/9/9/9/9/9 b - 1", "Gote has 2 kings"),
        ("4k4/9/9/9/9/9/P8/P8/9 b - 1", "二歩"),
        ("P3k4/9/9/9/9/9/9/9/9 b - 1", "行き所のない駒"),
        (
            "4k4/4R4/9/9/9/9/9/9/9 b - 1",
            "the side not to move (Gote) is in check",
        ),
    ] {
        let (code, _, err) = run(&["moves", "-"], &format!("{sfen}\n"));
        assert_eq!(code, 2, "{sfen}: {err}");
        assert!(err.contains(why), "{sfen}: {err}");
        let (code, _, err) = run(&["perft", sfen, "1"], "");
        assert_eq!(code, 2, "{sfen}: {err}");
        assert!(err.contains(why), "{sfen}: {err}");
    }
}
