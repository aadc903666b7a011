//! The df-pn solver against the naive exhaustive minimax (the twin) on
//! generated small positions: same mate / no-mate verdict within the horizon,
//! same shortest length, and every line replayed by the checker.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shogi_lab::rules::{Color, Hand, Piece, PieceKind, Position, Rules, Setup, Square};
use shogi_lab::tsume::{checker, naive, solve, Outcome, SolverOptions};

/// A random legal tsume position: a Gote king near the top edge, a few Sente
/// pieces around it, a small Sente hand, Gote holding the rest.
fn random_problem(rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut s = Setup::default();
    let kf = rng.gen_range(1..=9u8);
    let kr = rng.gen_range(1..=3u8);
    s.board[Square::new(kf, kr)?.index()] = Some(Piece::new(Color::Gote, PieceKind::King));
    let kinds = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Dragon,
        PieceKind::Horse,
    ];
    let mut used = [0u8; 14];
    used[PieceKind::King.index()] = 1;
    for _ in 0..rng.gen_range(2..=5) {
        let k = kinds[rng.gen_range(0..kinds.len())];
        let f = (kf as i8 + rng.gen_range(-2..=2)).clamp(1, 9) as u8;
        let r = (kr as i8 + rng.gen_range(-1..=3)).clamp(1, 9) as u8;
        let sq = Square::new(f, r)?;
        if s.board[sq.index()].is_some() || used[k.unpromote().index()] >= k.max_count() {
            continue;
        }
        let color = if rng.gen_bool(0.8) {
            Color::Sente
        } else {
            Color::Gote
        };
        used[k.unpromote().index()] += 1;
        s.board[sq.index()] = Some(Piece::new(color, k));
    }
    let mut hand = Hand::EMPTY;
    for _ in 0..rng.gen_range(1..=2) {
        let k = PieceKind::HAND[rng.gen_range(0..7)];
        if used[k.index()] < k.max_count() {
            hand = hand.add(k);
            used[k.index()] += 1;
        }
    }
    s.hands.sente = hand;
    let mut rest = Hand::EMPTY;
    for k in PieceKind::HAND {
        rest = rest.with_count(k, k.max_count() - used[k.index()]);
    }
    s.hands.gote = rest;
    let pos = Position::from_setup(s, Rules::TSUME).ok()?;
    (!pos.in_check()).then_some(pos)
}

/// Fast tier: the first 20 generated positions (a few seconds of CPU).
#[test]
fn solver_agrees_with_naive_minimax_on_generated_positions() {
    agree_on_generated_positions(5, 20, 4);
}

/// Deep tier (`cargo test --release -- --ignored`, run by `.ci/run`): 300 positions.
#[test]
#[ignore = "deep tier: about 10 CPU minutes; run by .ci/run with --ignored"]
fn solver_agrees_with_naive_minimax_on_300_generated_positions() {
    agree_on_generated_positions(5, 300, 40);
}

/// Deep tier: 150 positions of another seed (session 27's probes of seeds 101–112 found
/// one disagreement, in seed 102: `a_mate_shown_only_through_a_check_the_search_never_proved`).
#[test]
#[ignore = "deep tier: about 4 CPU minutes; run by .ci/run with --ignored"]
fn solver_agrees_with_naive_minimax_on_150_positions_of_seed_102() {
    agree_on_generated_positions(102, 150, 20);
}

/// Seed 102 of the generator (a probe in session 27): the search proves ▲５二飛成 △７一玉
/// mate within 5 through ▲７三香, after which every reply is an interposition on ７二
/// that is 無駄合 only thanks to the budget (the recapture mates in 2 more), so no line
/// hides them. The line walk now proves the checks the search never needed (▲７四飛
/// △同銀 ▲７二龍) instead of answering a 7-ply line with `shortest: false` (and
/// `unknown` within 5 or 7 plies).
#[test]
fn a_mate_shown_only_through_a_check_the_search_never_proved() {
    let pos = shogi_lab::tsume::load_problem(
        "3k5/2R6/1s1B5/1R7/9/9/9/9/9 b Lb4g3s4n3l18p 1",
        shogi_lab::tsume::DefenderHand::AsGiven,
    )
    .unwrap();
    assert_eq!(naive::mate_length(&pos, 5), Some(5));
    // The solution, within no limit, 5 or 7 plies; any mate within 5 plies.
    for (max_plies, shortest) in [
        (None, true),
        (Some(5), true),
        (Some(7), true),
        (Some(5), false),
    ] {
        let opts = SolverOptions {
            shortest,
            max_plies,
            ..SolverOptions::default()
        };
        let r = solve(&pos, &opts);
        assert_eq!(r.outcome, Outcome::Mate, "{max_plies:?} {shortest}");
        assert_eq!(
            r.line_usi(),
            "7b5b+ 6a7a 8d7d 8c7d 5b7b",
            "{max_plies:?} {shortest}"
        );
        if shortest {
            assert_eq!(r.shortest, Some(true), "{max_plies:?}");
        }
        checker::verify_mate_line(&pos, &r.line).unwrap();
    }
}

/// Solves `count` generated positions (of `seed`) both ways; at least `min_each`
/// of them must be mates and as many complete disproofs, so the test can fail.
fn agree_on_generated_positions(seed: u64, count: usize, min_each: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut mates, mut nomates, mut checked) = (0, 0, 0);
    while checked < count {
        let Some(pos) = random_problem(&mut rng) else {
            continue;
        };
        checked += 1;
        let (naive_len, unbounded) = agree_on(&pos, 5, 200_000, 50_000);
        mates += usize::from(naive_len.is_some());
        nomates += usize::from(unbounded == Outcome::NoMate);
    }
    eprintln!("{mates} mates, {nomates} complete disproofs among {checked}");
    assert!(
        nomates >= min_each,
        "only {nomates} complete disproofs: too few to test anything"
    );
    assert!(
        mates >= min_each,
        "only {mates} mates among {checked}: the generator is too weak to test anything"
    );
}

/// Positions 3 and 5 plies before the end of shtsume's mating lines of the 200 classics
/// (`specs/tsume/near-end.tsv`): full boards from real problems, independent of our
/// lines. Both twins within 7 plies against the three modes, as above. Fast tier: every
/// other position.
#[test]
fn solver_agrees_with_both_twins_near_the_end_of_the_classics() {
    agree_near_the_end(2);
}

/// Deep tier: every position of `specs/tsume/near-end.tsv`.
#[test]
#[ignore = "deep tier: the 390 positions, about 8 s; run by .ci/run with --ignored"]
fn solver_agrees_with_both_twins_near_the_end_of_all_the_classics() {
    agree_near_the_end(1);
}

fn agree_near_the_end(step: usize) {
    let text = include_str!("../specs/tsume/near-end.tsv");
    let all = shogi_lab::tsume::problems::read_problems(text);
    assert!(all.len() >= 390, "{}", all.len());
    let problems: Vec<_> = all.iter().step_by(step).collect();
    let mut mates = 0;
    for p in &problems {
        let pos =
            shogi_lab::tsume::load_problem(&p.sfen, shogi_lab::tsume::DefenderHand::Remaining)
                .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        let (naive_len, _) = agree_on(&pos, 7, 2_000_000, 2_000_000);
        mates += usize::from(naive_len.is_some());
    }
    // shtsume's lines mate: nearly all of these are mates within 7.
    assert!(
        mates + 10 / step >= problems.len(),
        "{mates} of {}",
        problems.len()
    );
}

/// The solver on `pos` against the twins within `horizon` plies: the ply-limited
/// default mode (`bounded_nodes`) and `--count-futile` give the twins' shortest
/// lengths (or refute within the horizon), the line of the default mode is exact at
/// every attacker node, and the unbounded default mode (`unbounded_nodes`) claims
/// nothing the twin contradicts. Returns the twin's length and the unbounded outcome.
fn agree_on(
    pos: &Position,
    horizon: u32,
    bounded_nodes: u64,
    unbounded_nodes: u64,
) -> (Option<u32>, Outcome) {
    let h = horizon;
    let opts = SolverOptions {
        nodes: Some(bounded_nodes),
        memory_mib: 16,
        shortest: true,
        max_plies: Some(h as u16),
        ..SolverOptions::default()
    };
    // Without a ply budget (disproof pieces, 反証駒, are used only then): a mate the
    // twin finds must not be refuted, and a complete disproof must agree with the twin.
    let unbounded = SolverOptions {
        nodes: Some(unbounded_nodes),
        memory_mib: 16,
        ..SolverOptions::default()
    };
    let sfen = shogi_lab::notation::sfen::write_sfen(pos);
    let naive_len = naive::mate_length(pos, h);
    let r = solve(pos, &opts);
    match naive_len {
        Some(n) => {
            assert_eq!(r.outcome, Outcome::Mate, "{sfen}: naive mates in {n}");
            assert_eq!(r.shortest, Some(true), "{sfen}");
            assert_eq!(r.line.len() as u32, n, "{sfen}: {}", r.line_usi());
            // The line is a solution: from every attacker node on it the shortest mate
            // is exactly the rest of the line (longest replies, shortest checks).
            let mut q = pos.clone();
            for (k, &m) in r.line.iter().enumerate() {
                if k > 0 && k % 2 == 0 {
                    let left = n - k as u32;
                    assert_eq!(
                        naive::mate_length(&q, left),
                        Some(left),
                        "{sfen}: after {k} plies of {}",
                        r.line_usi()
                    );
                }
                q.play(m).unwrap();
            }
        }
        None => {
            assert_eq!(
                r.no_mate_within,
                Some(h as u16),
                "{sfen}: {:?} {}",
                r.outcome,
                r.line_usi()
            );
        }
    }
    if r.outcome == Outcome::Mate {
        checker::verify_mate_line(pos, &r.line).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    }
    // Every reply counted (`count_futile`, KomoringHeights' MinLength): the twin
    // counting every legal reply. Counting more replies never shortens a mate.
    let counted_len = naive::mate_length_counted(pos, h);
    if let (Some(c), Some(n)) = (counted_len, naive_len) {
        assert!(c >= n, "{sfen}: counted {c} < {n}");
    }
    let c = solve(
        pos,
        &SolverOptions {
            count_futile: true,
            ..opts.clone()
        },
    );
    match counted_len {
        Some(n) => {
            assert_eq!(
                c.outcome,
                Outcome::Mate,
                "{sfen}: counted, twin mates in {n}"
            );
            assert_eq!(c.shortest, Some(true), "{sfen}: counted");
            assert_eq!(c.line.len() as u32, n, "{sfen}: counted {}", c.line_usi());
            checker::verify_mate_line(pos, &c.line).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        }
        None => assert_eq!(
            c.no_mate_within,
            Some(h as u16),
            "{sfen}: counted {:?}",
            c.outcome
        ),
    }
    let u = solve(pos, &unbounded);
    // The default mode without a ply limit claims only what the twin allows: a length
    // called shortest is the twin's (or beyond its horizon), and its bounds hold.
    if let Some(n) = u.no_mate_within {
        assert!(
            naive_len.map_or(true, |l| u32::from(n) < l),
            "{sfen}: no mate within {n}, twin {naive_len:?}"
        );
    }
    if let Some(w) = u.mate_within {
        assert!(
            naive_len.map_or(u32::from(w) > h, |l| u32::from(w) >= l),
            "{sfen}: mate within {w}, twin {naive_len:?}"
        );
    }
    match u.outcome {
        Outcome::Mate => {
            checker::verify_mate_line(pos, &u.line).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            let len = u.line.len() as u32;
            match naive_len {
                Some(n) if u.shortest == Some(true) => {
                    assert_eq!(len, n, "{sfen}: unbounded {}", u.line_usi())
                }
                Some(n) => assert!(len >= n, "{sfen}: unbounded {}", u.line_usi()),
                None => assert!(len > h, "{sfen}: unbounded {}", u.line_usi()),
            }
        }
        Outcome::NoMate => {
            assert_eq!(naive_len, None, "{sfen}: nomate, but the twin mates");
        }
        Outcome::Unknown => {
            assert_eq!(
                naive_len, None,
                "{sfen}: unknown, but the twin mates within {h}"
            );
        }
    }
    (naive_len, u.outcome)
}

/// A search cut by a node limit anywhere (before its first proof, inside its minimality
/// search, after it) claims only what it proved: `mate_within` is never below the twin's
/// shortest length, `no_mate_within` always below it, a line shown is a verified mate no
/// longer than `mate_within`, and a length called shortest is the twin's. 40 generated
/// positions (as above), each cut at 3, 6, …, 300 and 1 000 nodes (186 cut mates, 27
/// no-mate bounds below a mate). Fast tier: the first 20 positions (162 and 27).
#[test]
fn cut_searches_bracket_the_twins_length() {
    cut_searches_bracket(20, 120, 20);
}

/// Deep tier: the first 40 positions.
#[test]
#[ignore = "deep tier: 4 040 cut searches, about 18 s; run by .ci/run with --ignored"]
fn cut_searches_bracket_the_twins_length_on_40_positions() {
    cut_searches_bracket(40, 150, 20);
}

/// `count` generated positions, each cut at every limit; at least `min_cut` cut mates
/// and `min_ruled_out` no-mate bounds below a mate, so the test can fail.
fn cut_searches_bracket(count: usize, min_cut: usize, min_ruled_out: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut checked, mut cut_mates, mut ruled_out) = (0, 0, 0);
    while checked < count {
        let Some(pos) = random_problem(&mut rng) else {
            continue;
        };
        checked += 1;
        let sfen = shogi_lab::notation::sfen::write_sfen(&pos);
        let twin = naive::mate_length(&pos, 5);
        for limit in (1..=100).map(|k| k * 3).chain([1_000]) {
            let r = solve(
                &pos,
                &SolverOptions {
                    nodes: Some(limit),
                    memory_mib: 16,
                    ..SolverOptions::default()
                },
            );
            let at = format!("{sfen} at {limit} nodes: {r:?}");
            if let Some(w) = r.mate_within {
                // The twin sees every mate within 5 plies.
                assert!(twin.map_or(w > 5, |n| n <= u32::from(w)), "{at}");
            }
            if let (Some(k), Some(n)) = (r.no_mate_within, twin) {
                assert!(u32::from(k) < n, "{at}");
                ruled_out += 1;
            }
            if r.outcome == Outcome::Mate {
                checker::verify_mate_line(&pos, &r.line).unwrap_or_else(|e| panic!("{at}: {e}"));
                let w = r
                    .mate_within
                    .expect("a mate of the default mode has its bound");
                assert!(r.line.len() <= usize::from(w), "{at}");
                match r.shortest {
                    Some(true) => assert_eq!(twin, Some(r.line.len() as u32), "{at}"),
                    _ => cut_mates += 1,
                }
            }
        }
    }
    eprintln!("{cut_mates} cut mates, {ruled_out} no-mate bounds below a mate");
    assert!(
        cut_mates >= min_cut && ruled_out >= min_ruled_out,
        "{cut_mates} {ruled_out}"
    );
}
