//! Game-end rules: the vectors of `specs/game/*.toml` (outcomes after move
//! sequences, 入玉宣言 at the boundaries of each condition) and the fast
//! repetition detection against its naive twin on random games.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use shogi_lab::notation::sfen::{parse_position, resolve_usi_move};
use shogi_lab::rules::game::repetition_naive;
use shogi_lab::rules::{declaration, Game, Move, Outcome, Position, Rules};

#[derive(Deserialize)]
struct Outcomes {
    case: Vec<OutcomeCase>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeCase {
    id: String,
    #[allow(dead_code)]
    source: String,
    start: String,
    moves: String,
    outcome: String,
}

#[derive(Deserialize)]
struct Declarations {
    case: Vec<DeclarationCase>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeclarationCase {
    id: String,
    #[allow(dead_code)]
    source: String,
    sfen: String,
    points: u32,
    pieces_in_zone: u32,
    wins: bool,
}

#[test]
fn outcome_vectors() {
    let cases: Outcomes = toml::from_str(include_str!("../specs/game/outcomes.toml")).unwrap();
    assert!(cases.case.len() >= 8);
    for c in &cases.case {
        let start = parse_position(&c.start, Rules::STANDARD).unwrap();
        let mut g = Game::new(start.clone());
        let mut moves = Vec::new();
        for (i, u) in c.moves.split_whitespace().enumerate() {
            assert!(
                !g.outcome().is_over(),
                "{}: over before move {}",
                c.id,
                i + 1
            );
            let m = resolve_usi_move(g.position(), u)
                .unwrap_or_else(|e| panic!("{}: move {} {u}: {e}", c.id, i + 1));
            g.play(m).unwrap();
            moves.push(m);
        }
        assert_eq!(g.outcome().to_string(), c.outcome, "{}", c.id);
        // The naive twin sees the same repetition (or none).
        assert_eq!(repetition_naive(&start, &moves), g.repetition(), "{}", c.id);
    }
}

#[test]
fn declaration_vectors() {
    let cases: Declarations =
        toml::from_str(include_str!("../specs/game/declaration.toml")).unwrap();
    assert!(cases.case.len() >= 10);
    for c in &cases.case {
        let pos = parse_position(&c.sfen, Rules::STANDARD).unwrap();
        let d = declaration(&pos);
        assert_eq!(d.points, c.points, "{}", c.id);
        assert_eq!(d.pieces_in_zone, c.pieces_in_zone, "{}", c.id);
        assert_eq!(d.wins(), c.wins, "{}", c.id);
        let mut g = Game::new(pos.clone());
        let o = g.declare().unwrap();
        assert_eq!(
            o.winner(),
            Some(if c.wins {
                pos.side_to_move()
            } else {
                !pos.side_to_move()
            })
        );
    }
}

/// Random games in sparse positions, where repetitions are frequent: the game ends exactly
/// when the naive twin first sees a fourfold repetition, with the same description.
#[test]
fn repetition_equals_naive_twin_on_random_games() {
    let starts = [
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
        "8k/9/6R2/9/9/9/9/9/4K4 b - 1",
        "4k4/4g4/9/9/9/9/9/4G4/4K4 b - 1",
        "k8/9/9/9/9/9/9/9/8K b Rr 1",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut repetitions = 0;
    let mut perpetual = 0;
    for game_no in 0..400 {
        let start = parse_position(starts[game_no % starts.len()], Rules::STANDARD).unwrap();
        let mut g = Game::new(start.clone());
        let mut moves = Vec::new();
        while !g.outcome().is_over() && moves.len() < 120 {
            let legal = g.position().legal_moves();
            // Often move back the piece moved two plies ago, which makes cycles likely.
            let back = match moves.len().checked_sub(2).map(|i| moves[i]) {
                Some(Move::Normal { from, to, .. }) if rng.gen_bool(0.8) => Some(Move::Normal {
                    from: to,
                    to: from,
                    promote: false,
                }),
                _ => None,
            };
            let m = match back {
                Some(b) if legal.contains(&b) => b,
                _ => legal[rng.gen_range(0..legal.len())],
            };
            g.play(m).unwrap();
            moves.push(m);
            let naive = repetition_naive(&start, &moves);
            assert_eq!(
                naive,
                g.repetition(),
                "game {game_no} after {} plies",
                moves.len()
            );
            if let Some(r) = naive {
                assert_eq!(g.outcome(), r.outcome());
                repetitions += 1;
                if matches!(g.outcome(), Outcome::Win { .. }) {
                    perpetual += 1;
                }
            }
        }
    }
    assert!(
        repetitions >= 50,
        "only {repetitions} repetitions: the test sees too few"
    );
    assert!(
        perpetual >= 1,
        "no perpetual check among {repetitions} repetitions"
    );
}

/// A position never differs from its replay: Position::outcome is the mate test.
#[test]
fn position_outcome_is_the_mate_test() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let legal = pos.legal_moves();
            let o = pos.outcome();
            assert_eq!(o.is_over(), legal.is_empty());
            if legal.is_empty() {
                assert_eq!(o.winner(), Some(!pos.side_to_move()));
                break;
            }
            pos.play_unchecked(legal[rng.gen_range(0..legal.len())]);
        }
    }
}
