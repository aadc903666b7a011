//! The generators behind `shogi-lab gen`: seeded, reproducible test vectors.
//! Each takes a seed and calls `emit` once per vector; the same arguments give
//! the same vectors on every machine (ChaCha8 from `seed_from_u64`).
//!
//! Shards (`--shard I/N`, [`Shard::items`]): part I emits the I-th contiguous block of
//! the `count` vectors, so the N parts concatenated in order are the unsharded
//! output, byte for byte. What a part skips depends on the generator:
//! - `positions` draws every vector from one stream (the positions are distinct
//!   across the whole output), so a part replays the cheap walks before its block
//!   and describes (legal moves, perft) only its own vectors;
//! - `quantum` draws each vector's observations from one stream without looking at
//!   the worlds, so a part draws the earlier vectors' observations and converges
//!   only its own;
//! - `tsume` and `records` give vector `i` its own ChaCha8 stream (`set_stream(i)`),
//!   so a part computes only its own vectors.

use super::walk::{random_move, random_walk, start};
use crate::notation::sfen::write_sfen;
use crate::output::gen::{GenPosition, GenQuantum, GenRecord, GenTsume};
use crate::quantum::{self, Observation, World};
use crate::rules::{perft_until, Game, Move, Position};
use crate::shard::Shard;
use crate::tsume::{Control, Outcome as MateOutcome, Solver, SolverOptions};
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
    describe_position_until(pos, depth, &|| false).expect("no stop request")
}

/// [`describe_position`] that gives up (`None`) once `stop` returns true (polled at every
/// node of the perft counts, [`perft_until`]).
fn describe_position_until(
    pos: &Position,
    depth: u32,
    stop: &impl Fn() -> bool,
) -> Option<GenPosition> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    let mut p = pos.clone();
    let perft = (1..=depth)
        .map(|d| perft_until(&mut p, d, stop))
        .collect::<Option<Vec<u64>>>()?;
    Some(GenPosition {
        sfen: write_sfen(pos),
        moves,
        perft,
        in_check: pos.in_check(),
        outcome: pos.outcome().into(),
    })
}

/// `gen positions`: `count` distinct positions reached by random walks (quiet moves,
/// checks, captures, drops and promotions mixed, [`super::walk`]), one taken every few
/// plies, each described to perft depth `depth`; only `shard`'s block is described and
/// emitted (the walks before it are replayed to find its positions).
pub fn positions(count: usize, seed: u64, depth: u32, shard: Shard, emit: impl FnMut(GenPosition)) {
    positions_until(count, seed, depth, shard, &|| false, emit).expect("no stop request")
}

/// [`positions`] that gives up (`None`) once `stop` returns true: polled at every ply of
/// the walks and every node of a vector's perft counts, so a caller on another thread
/// stays interruptible (Python's Ctrl-C). The vectors emitted before are [`positions`]'.
pub fn positions_until(
    count: usize,
    seed: u64,
    depth: u32,
    shard: Shard,
    stop: &impl Fn() -> bool,
    mut emit: impl FnMut(GenPosition),
) -> Option<()> {
    let mine = shard.items(count);
    let count = mine.end;
    let mut emit = |n: usize, pos: &Position| -> Option<()> {
        if mine.contains(&n) {
            emit(describe_position_until(pos, depth, stop)?);
        }
        Some(())
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut n = 0;
    let mut walk = 0;
    while n < count {
        let mut pos = start(walk);
        walk += 1;
        let plies = rng.gen_range(10..200);
        for _ in 0..plies {
            if stop() {
                return None;
            }
            if n >= count {
                break;
            }
            // Take about one position in four, so a walk gives varied game stages.
            if rng.gen_bool(0.25) && seen.insert(identity(&pos)) {
                emit(n, &pos)?;
                n += 1;
            }
            match random_move(&pos, &mut rng) {
                Some(m) => pos.play_unchecked(m),
                None => {
                    // Mate or no legal move: a vector too.
                    if n < count && seen.insert(identity(&pos)) {
                        emit(n, &pos)?;
                        n += 1;
                    }
                    break;
                }
            }
        }
    }
    Some(())
}

/// Options of [`tsume`].
#[derive(Debug, Clone, Copy)]
pub struct TsumeOptions {
    /// Mates of exactly this many plies.
    pub plies: u16,
    /// Solver nodes per candidate position.
    pub nodes: u64,
    /// Give up a vector after this many candidate positions.
    pub max_candidates: u64,
}

/// The ChaCha8 stream of vector `i` (the generators whose vectors are independent).
fn vector_rng(seed: u64, i: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(i as u64);
    rng
}

/// `gen tsume`: vector `i` (of `count`, the ones in `shard`'s block) is the first
/// candidate of its own random walks (stream `i`, `vector_rng`; walk `w` of it starts
/// from `start(i + w)`) whose proven-shortest mate (攻方最短・玉方最長, `specs/tsume.md`)
/// is exactly `plies` long. A candidate is a walk position where the side to move has a
/// check, not tried before in this vector; each is solved with `shortest: true`,
/// `max_plies: plies` and a node limit, and kept only if the result is a mate,
/// `shortest == Some(true)` and the line has `plies` moves — the line was replayed by
/// the independent checker inside the solver. A vector with no such candidate among
/// `max_candidates` is skipped (`None` to `emit`, so the caller knows which).
/// Returns the number of candidates tried.
pub fn tsume(
    count: usize,
    seed: u64,
    o: TsumeOptions,
    shard: Shard,
    emit: impl FnMut(usize, Option<GenTsume>),
) -> u64 {
    tsume_until(count, seed, o, shard, None, emit).expect("no stop request")
}

/// [`tsume`] that gives up once `control` is stopped (`None`; the vectors emitted so far
/// are as [`tsume`]'s): each candidate's solve polls it (within 1 024 nodes) and is then
/// dropped, and no candidate starts after it. For a caller on another thread that must
/// stay interruptible (Python's Ctrl-C). The control changes nothing else: the same
/// vectors, with the same node counts.
pub fn tsume_until(
    count: usize,
    seed: u64,
    o: TsumeOptions,
    shard: Shard,
    control: Option<&Control>,
    mut emit: impl FnMut(usize, Option<GenTsume>),
) -> Option<u64> {
    let stopped = || control.is_some_and(|c| c.0.is_stopped());
    let opts = SolverOptions {
        shortest: true,
        nodes: Some(o.nodes),
        max_plies: Some(o.plies),
        memory_mib: 16,
        control: control.cloned(),
        ..SolverOptions::default()
    };
    let mut solver: Solver<Position> = Solver::new(opts);
    let mut tried = 0;
    for i in shard.items(count) {
        let mut rng = vector_rng(seed, i);
        let mut seen = HashSet::new();
        let mut mine = 0;
        let mut found = None;
        let mut walk = 0;
        'walks: while mine < o.max_candidates {
            let s = start(i + walk);
            walk += 1;
            let plies = rng.gen_range(20..200);
            let moves = random_walk(&s, plies, &mut rng);
            let mut pos = s;
            for &m in &moves {
                pos.play_unchecked(m);
                if mine >= o.max_candidates {
                    break 'walks;
                }
                let has_check = pos.legal_moves().iter().any(|&c| pos.gives_check(c));
                if !has_check || !seen.insert(identity(&pos)) {
                    continue;
                }
                mine += 1;
                let root = Position::from_setup(pos.to_setup(), pos.rules()).expect("legal");
                if stopped() {
                    return None;
                }
                let r = solver.solve(&root);
                if stopped() {
                    return None;
                }
                if r.outcome == MateOutcome::Mate
                    && r.shortest == Some(true)
                    && r.line.len() == o.plies as usize
                {
                    found = Some(GenTsume {
                        sfen: write_sfen(&root),
                        plies: r.line.len(),
                        usi: r.line_usi(),
                        nodes: r.stats.nodes,
                    });
                    break 'walks;
                }
            }
        }
        tried += mine;
        emit(i, found);
    }
    Some(tried)
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
/// (1–40 observations drawn; one that would contradict the world is skipped, as the
/// illegal move it stands for would be, so a history can be empty), converged by the counting engine, with the
/// used-up kinds and the decision diagram's exact probabilities. The draws do not depend
/// on the worlds, so the vectors before `shard`'s block are drawn and not converged.
pub fn quantum(count: usize, seed: u64, shard: Shard, emit: impl FnMut(GenQuantum)) {
    quantum_until(count, seed, shard, &|| false, emit).expect("no stop request")
}

/// [`quantum()`] that gives up (`None`) once `stop` returns true (polled before each vector).
pub fn quantum_until(
    count: usize,
    seed: u64,
    shard: Shard,
    stop: &impl Fn() -> bool,
    mut emit: impl FnMut(GenQuantum),
) -> Option<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let engine = quantum::counting::SubsetPass;
    let mine = shard.items(count);
    for v in 0..mine.end {
        if stop() {
            return None;
        }
        let steps = rng.gen_range(1..=40);
        if !mine.contains(&v) {
            for _ in 0..steps {
                rng.gen_range(0..quantum::PIECES);
                random_observation(&mut rng);
            }
            continue;
        }
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
    Some(())
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
/// or 千日手), written in `format`; game `i` draws from its own stream (`vector_rng`),
/// and only `shard`'s block is played.
pub fn records(
    count: usize,
    seed: u64,
    format: RecordFormat,
    shard: Shard,
    emit: impl FnMut(GenRecord),
) {
    records_until(count, seed, format, shard, &|| false, emit).expect("no stop request")
}

/// [`records`] that gives up (`None`) once `stop` returns true (polled before each game).
pub fn records_until(
    count: usize,
    seed: u64,
    format: RecordFormat,
    shard: Shard,
    stop: &impl Fn() -> bool,
    mut emit: impl FnMut(GenRecord),
) -> Option<()> {
    use crate::notation::{csa, kif, record::Record};
    for i in shard.items(count) {
        if stop() {
            return None;
        }
        let mut rng = vector_rng(seed, i);
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
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A vector as its JSON line (`GenTsume` has no `PartialEq`).
    fn line(i: usize, v: Option<GenTsume>) -> (usize, Option<String>) {
        (i, v.map(|v| crate::output::to_line(&v)))
    }

    /// `tsume_until` with a control that is never stopped gives `tsume`'s vectors (node
    /// counts included); stopped, before the first candidate or after the first vector,
    /// it gives up (`None`) and emits nothing more.
    #[test]
    fn a_stopped_control_ends_the_tsume_generator() {
        let o = TsumeOptions {
            plies: 3,
            nodes: 20_000,
            max_candidates: 1_000,
        };
        let mut plain = Vec::new();
        let tried = tsume(3, 1, o, Shard::WHOLE, |i, v| plain.push(line(i, v)));
        assert!(plain.iter().all(|(_, v)| v.is_some()), "{plain:?}");
        let control = Control::default();
        let mut watched = Vec::new();
        let again = tsume_until(3, 1, o, Shard::WHOLE, Some(&control), |i, v| {
            watched.push(line(i, v))
        });
        assert_eq!((again, &watched), (Some(tried), &plain));

        control.0.stop();
        let mut none = Vec::new();
        let r = tsume_until(3, 1, o, Shard::WHOLE, Some(&control), |i, v| {
            none.push(line(i, v))
        });
        assert_eq!((r, none.len()), (None, 0));

        let control = Control::default();
        let mut first = Vec::new();
        let r = tsume_until(3, 1, o, Shard::WHOLE, Some(&control), |i, v| {
            first.push(line(i, v));
            control.0.stop();
        });
        assert_eq!((r, &first[..]), (None, &plain[..1]));
    }
}
