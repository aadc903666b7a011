//! The generators behind `shogi-lab gen`: seeded, reproducible test vectors.
//! Each takes a seed and calls `emit` once per vector; the same arguments give
//! the same vectors on every machine (ChaCha8 from `seed_from_u64`).

use super::walk::{random_move, random_walk, start};
use crate::notation::sfen::write_sfen;
use crate::output::gen::{GenPosition, GenQuantum, GenRecord, GenTsume};
use crate::quantum::{self, Observation, World};
use crate::rules::{perft, Game, Move, Position};
use crate::tsume::{Outcome as MateOutcome, Solver, SolverOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};

/// The SFEN without its move number: two positions are the same vector when these agree.
fn identity(pos: &Position) -> String {
    let s = write_sfen(pos);
    s.rsplit_once(' ').map_or(s.clone(), |x| x.0.to_string())
}

/// One [`GenPosition`] for `pos`: legal moves, perft 1..=depth, check, outcome.
pub fn describe_position(pos: &Position, depth: u32) -> GenPosition {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    let mut p = pos.clone();
    GenPosition {
        sfen: write_sfen(pos),
        moves,
        perft: (1..=depth).map(|d| perft(&mut p, d)).collect(),
        in_check: pos.in_check(),
        outcome: pos.outcome().into(),
    }
}

/// `gen positions`: `count` distinct positions reached by random walks (quiet moves,
/// checks, captures, drops and promotions mixed, [`super::walk`]), one taken every few
/// plies, each described to perft depth `depth`.
pub fn positions(count: usize, seed: u64, depth: u32, mut emit: impl FnMut(GenPosition)) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut n = 0;
    let mut walk = 0;
    while n < count {
        let mut pos = start(walk);
        walk += 1;
        let plies = rng.gen_range(10..200);
        for _ in 0..plies {
            if n >= count {
                break;
            }
            // Take about one position in four, so a walk gives varied game stages.
            if rng.gen_bool(0.25) && seen.insert(identity(&pos)) {
                emit(describe_position(&pos, depth));
                n += 1;
            }
            match random_move(&pos, &mut rng) {
                Some(m) => pos.play_unchecked(m),
                None => {
                    // Mate or no legal move: a vector too.
                    if n < count && seen.insert(identity(&pos)) {
                        emit(describe_position(&pos, depth));
                        n += 1;
                    }
                    break;
                }
            }
        }
    }
}

/// Options of [`tsume`].
#[derive(Debug, Clone, Copy)]
pub struct TsumeOptions {
    /// Mates of exactly this many plies.
    pub plies: u16,
    /// Solver nodes per candidate position.
    pub nodes: u64,
    /// Give up after this many candidate positions.
    pub max_candidates: u64,
}

/// `gen tsume`: positions from random walks whose proven-shortest mate (攻方最短・玉方最長,
/// `specs/tsume.md`) is exactly `plies` long. Each candidate (a walk position where the
/// side to move has a check) is solved with `shortest: true`, `max_plies: plies` and a
/// node limit; it is kept only if the result is a mate, `shortest == Some(true)` and the
/// line has `plies` moves — the line was replayed by the independent checker inside the
/// solver. Returns the number of candidates tried.
pub fn tsume(count: usize, seed: u64, o: TsumeOptions, mut emit: impl FnMut(GenTsume)) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let opts = SolverOptions {
        shortest: true,
        nodes: Some(o.nodes),
        max_plies: Some(o.plies),
        memory_mib: 16,
        ..SolverOptions::default()
    };
    let mut solver: Solver<Position> = Solver::new(opts);
    let mut seen = HashSet::new();
    let mut n = 0;
    let mut tried = 0;
    let mut walk = 0;
    while n < count && tried < o.max_candidates {
        let s = start(walk);
        walk += 1;
        let plies = rng.gen_range(20..200);
        let moves = random_walk(&s, plies, &mut rng);
        let mut pos = s;
        for &m in &moves {
            pos.play_unchecked(m);
            if n >= count || tried >= o.max_candidates {
                break;
            }
            let has_check = pos.legal_moves().iter().any(|&c| pos.gives_check(c));
            if !has_check || !seen.insert(identity(&pos)) {
                continue;
            }
            tried += 1;
            let root = Position::from_setup(pos.to_setup(), pos.rules()).expect("legal");
            let r = solver.solve(&root);
            if r.outcome == MateOutcome::Mate
                && r.shortest == Some(true)
                && r.line.len() == o.plies as usize
            {
                emit(GenTsume {
                    sfen: write_sfen(&root),
                    plies: r.line.len(),
                    usi: r.line_usi(),
                    nodes: r.stats.nodes,
                });
                n += 1;
            }
        }
    }
    tried
}

fn random_observation(rng: &mut ChaCha8Rng) -> Observation {
    match rng.gen_range(0..11) {
        0 => Observation::Promote,
        1 => Observation::FarRank,
        2 => Observation::SecondRank,
        3 | 4 => Observation::Captured,
        _ => loop {
            let (dx, dy) = (rng.gen_range(-2i8..=2), rng.gen_range(-2i8..=2));
            if (dx, dy) != (0, 0) {
                break Observation::Move {
                    dx,
                    dy,
                    promoted: rng.gen_bool(0.2),
                };
            }
        },
    }
}

/// `gen quantum`: worlds of one side's 20 pieces from random observation histories
/// (1–40 observations; one that would contradict the world is skipped, as the
/// illegal move it stands for would be), converged by the counting engine, with the
/// used-up kinds and the decision diagram's exact probabilities.
pub fn quantum(count: usize, seed: u64, mut emit: impl FnMut(GenQuantum)) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let engine = quantum::counting::SubsetPass;
    for _ in 0..count {
        let steps = rng.gen_range(1..=40);
        let mut w = World::UNOBSERVED;
        let mut observed = [false; quantum::PIECES];
        let mut history = Vec::new();
        for _ in 0..steps {
            let piece = rng.gen_range(0..quantum::PIECES);
            let obs = random_observation(&mut rng);
            if let Ok(out) = quantum::apply(&engine, &w, piece, obs) {
                w = out.converged().world;
                observed[piece] = true;
                history.push(format!("{piece} {obs}"));
            }
        }
        let d = quantum::enumeration::Diagram::build(&w);
        let probabilities = (0..quantum::PIECES)
            .map(|i| {
                quantum::Kind::ALL
                    .iter()
                    .filter_map(|&k| {
                        d.probability(i, k)
                            .filter(|_| d.count(i, k) > 0)
                            .map(|p| (k.letter().to_string(), p.to_string()))
                    })
                    .collect::<BTreeMap<_, _>>()
            })
            .collect();
        // 使い切り: the kinds a never-observed piece can no longer be (all of them alike).
        let used_up = match (0..quantum::PIECES).find(|&i| !observed[i]) {
            Some(i) => quantum::KindSet::ALL.minus(w.0[i]),
            None => quantum::KindSet::ALL,
        };
        emit(GenQuantum {
            history,
            world: w.to_string(),
            used_up: used_up.to_string(),
            worlds: d.total().to_string(),
            probabilities,
        });
    }
}

/// Record formats of [`records`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// 柿木 KIF.
    Kif,
    /// KI2.
    Ki2,
    /// CSA V2.2.
    Csa,
    /// JSON Kifu Format.
    Jkf,
    /// USI `position … moves …`.
    Usi,
}

impl RecordFormat {
    /// The format's name.
    pub const fn name(self) -> &'static str {
        match self {
            RecordFormat::Kif => "kif",
            RecordFormat::Ki2 => "ki2",
            RecordFormat::Csa => "csa",
            RecordFormat::Jkf => "jkf",
            RecordFormat::Usi => "usi",
        }
    }
}

/// `gen records`: random games (10–199 plies from the walk starts, ending early at mate
/// or 千日手), written in `format`.
pub fn records(count: usize, seed: u64, format: RecordFormat, mut emit: impl FnMut(GenRecord)) {
    use crate::notation::{csa, kif, record::Record};
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..count {
        let s = start(i);
        let plies = rng.gen_range(10..200);
        let mut game = Game::new(s.clone());
        while game.moves().len() < plies && !game.outcome().is_over() {
            let m = random_move(game.position(), &mut rng).expect("an ongoing game has a move");
            game.play(m).expect("legal");
        }
        let moves: Vec<Move> = game.moves();
        let rec = Record::from_moves(s.clone(), &moves);
        let text = match format {
            RecordFormat::Kif => kif::write_kif(&rec, kif::Flavor::Kif),
            RecordFormat::Ki2 => kif::write_kif(&rec, kif::Flavor::Ki2),
            RecordFormat::Csa => csa::write_csa(&rec),
            RecordFormat::Jkf => crate::notation::jkf::write_jkf(&rec),
            RecordFormat::Usi => crate::notation::sfen::write_usi_position(&s, &moves),
        };
        emit(GenRecord {
            start: write_sfen(&s),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            sfen: write_sfen(game.position()),
            outcome: game.outcome().into(),
            format: format.name(),
            text,
        });
    }
}
