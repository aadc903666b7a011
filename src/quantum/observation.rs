//! Observations that narrow one piece (絞り込み, seed `000_f094134babe25b9a.txt`,
//! `move2superPiece` and `EXCLUDING_PIECES`), and applying them to a world.

use super::{Contradiction, Converged, Convergence, Kind, KindSet, World};
use std::fmt;
use std::str::FromStr;

use Kind::{
    Bishop as B, Gold as G, King as K, Knight as N, Lance as L, Pawn as P, Rook as R, Silver as S,
};

/// What was seen of one piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Observation {
    /// The piece moved by `(dx, dy)` seen from its mover (`dy < 0` is forward);
    /// each coordinate is clamped to `[-2, 2]`. `promoted`: the piece was
    /// already promoted when it moved.
    Move {
        /// File offset.
        dx: i8,
        /// Rank offset, negative = forward.
        dy: i8,
        /// The piece was promoted before the move.
        promoted: bool,
    },
    /// The piece promoted: not G, K.
    Promote,
    /// Ended unpromoted on, or was dropped onto, the far rank: not P, L, N.
    FarRank,
    /// Ended unpromoted on, or was dropped onto, the second rank: not N.
    SecondRank,
    /// The piece was captured: not K (if that contradicts, it was the king).
    Captured,
}

impl Observation {
    /// The kinds compatible with the observation.
    pub fn allowed(self) -> KindSet {
        match self {
            Observation::Move { dx, dy, promoted } => {
                move_kinds(dx.clamp(-2, 2), dy.clamp(-2, 2), promoted)
            }
            Observation::Promote => KindSet::ALL.minus(KindSet::of(&[G, K])),
            Observation::FarRank => KindSet::ALL.minus(KindSet::of(&[P, L, N])),
            Observation::SecondRank => KindSet::ALL.minus(KindSet::of(&[N])),
            Observation::Captured => KindSet::ALL.minus(KindSet::of(&[K])),
        }
    }
}

/// The movement tables of the issue (clamped vectors, forward = `dy < 0`).
fn move_kinds(dx: i8, dy: i8, promoted: bool) -> KindSet {
    let ax = dx.abs();
    if promoted {
        return match (ax, dy) {
            (0, -1) | (1, -1) | (1, 0) | (0, 1) => KindSet::of(&[P, L, N, S, B, R]),
            (1, 1) => KindSet::of(&[B, R]),
            (0, -2) | (0, 2) | (2, 0) => KindSet::of(&[R]),
            (2, 2) | (2, -2) => KindSet::of(&[B]),
            _ => KindSet::EMPTY,
        };
    }
    match (ax, dy) {
        (0, -1) => KindSet::of(&[P, L, S, G, R, K]),
        (1, -1) => KindSet::of(&[S, G, B, K]),
        (1, 0) | (0, 1) => KindSet::of(&[G, R, K]),
        (1, 1) => KindSet::of(&[S, B, K]),
        (0, -2) => KindSet::of(&[L, R]),
        (2, 0) | (0, 2) => KindSet::of(&[R]),
        (2, 2) | (2, -2) => KindSet::of(&[B]),
        (1, -2) => KindSet::of(&[N]),
        _ => KindSet::EMPTY,
    }
}

/// Text form: `move DX DY`, `move+ DX DY` (a promoted piece moved), `promote`,
/// `far-rank`, `second-rank`, `captured`.
impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Observation::Move { dx, dy, promoted } => {
                write!(f, "move{} {dx} {dy}", if *promoted { "+" } else { "" })
            }
            Observation::Promote => f.write_str("promote"),
            Observation::FarRank => f.write_str("far-rank"),
            Observation::SecondRank => f.write_str("second-rank"),
            Observation::Captured => f.write_str("captured"),
        }
    }
}

/// A malformed observation text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad observation {0:?} (expected `move DX DY`, `move+ DX DY`, promote, far-rank, second-rank or captured)")]
pub struct ObservationParseError(pub String);

impl FromStr for Observation {
    type Err = ObservationParseError;
    fn from_str(s: &str) -> Result<Observation, ObservationParseError> {
        let bad = || ObservationParseError(s.to_string());
        let toks: Vec<&str> = s.split_whitespace().collect();
        match toks.as_slice() {
            ["promote"] => Ok(Observation::Promote),
            ["far-rank"] => Ok(Observation::FarRank),
            ["second-rank"] => Ok(Observation::SecondRank),
            ["captured"] => Ok(Observation::Captured),
            [m @ ("move" | "move+"), x, y] => Ok(Observation::Move {
                dx: x.parse::<i8>().map_err(|_| bad())?,
                dy: y.parse::<i8>().map_err(|_| bad())?,
                promoted: *m == "move+",
            }),
            _ => Err(bad()),
        }
    }
}

/// What an observation did to a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The world, narrowed and converged.
    Observed(Converged),
    /// A captured piece could only have been the king: its domain is `{K}`
    /// (converged) and the capturer wins.
    KingCaptured(Converged),
}

impl Outcome {
    /// The converged world either way.
    pub fn converged(&self) -> &Converged {
        match self {
            Outcome::Observed(c) | Outcome::KingCaptured(c) => c,
        }
    }
}

/// Narrows `piece` of `world` by `obs` and converges with `engine`.
///
/// # Errors
/// [`Contradiction`] if the observation is impossible (the move was illegal).
///
/// # Panics
/// If `piece >= 20`.
pub fn apply(
    engine: &dyn Convergence,
    world: &World,
    piece: usize,
    obs: Observation,
) -> Result<Outcome, Contradiction> {
    let mut w = *world;
    w.0[piece] = w.0[piece].and(obs.allowed());
    match engine.converge(&w) {
        Ok(c) => Ok(Outcome::Observed(c)),
        Err(e) if obs == Observation::Captured && world.0[piece].contains(K) => {
            let mut k = *world;
            k.0[piece] = KindSet::single(K);
            engine
                .converge(&k)
                .map(Outcome::KingCaptured)
                .map_err(|_| e)
        }
        Err(e) => Err(e),
    }
}

/// A world reached by `steps` random observations (moves with vectors in
/// `[-3, 3]²`, promotions, rank restrictions, captures), each converged with
/// `engine`; impossible observations are skipped as illegal moves would be.
/// Used by the experiments (the property tests have their own strategies).
pub fn random_history(engine: &dyn Convergence, rng: &mut impl rand::Rng, steps: usize) -> World {
    let mut w = World::UNOBSERVED;
    for _ in 0..steps {
        let piece = rng.gen_range(0..super::PIECES);
        let obs = match rng.gen_range(0..11) {
            0 => Observation::Promote,
            1 => Observation::FarRank,
            2 => Observation::SecondRank,
            3 | 4 => Observation::Captured,
            _ => loop {
                let (dx, dy) = (rng.gen_range(-3i8..=3), rng.gen_range(-3i8..=3));
                if (dx, dy) != (0, 0) {
                    break Observation::Move {
                        dx,
                        dy,
                        promoted: rng.gen_bool(0.2),
                    };
                }
            },
        };
        if let Ok(out) = apply(engine, &w, piece, obs) {
            w = out.converged().world;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_piece_movement() {
        // Naive twin: the one-step and slide directions of each piece, from the mover's side.
        let step = |k: Kind, promoted: bool| -> Vec<(i8, i8)> {
            let gold = vec![(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
            let king = vec![
                (0, -1),
                (-1, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (0, 1),
                (-1, 1),
                (1, 1),
            ];
            match (k, promoted) {
                (K, false) => king,
                (G, false) | (P | L | N | S, true) => gold,
                (S, false) => vec![(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)],
                (N, false) => vec![(-1, -2), (1, -2)],
                (P | L, false) => vec![(0, -1)],
                (B | R, true) => king,
                (B | R, false) => vec![],
                (G | K, true) => vec![],
            }
        };
        let slides = |k: Kind, promoted: bool| -> Vec<(i8, i8)> {
            match k {
                L if !promoted => vec![(0, -1)],
                R => vec![(0, -1), (0, 1), (-1, 0), (1, 0)],
                B => vec![(-1, -1), (1, -1), (-1, 1), (1, 1)],
                _ => vec![],
            }
        };
        for promoted in [false, true] {
            for dx in -8i8..=8 {
                for dy in -8i8..=8 {
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    let naive = KindSet::of(
                        &Kind::ALL
                            .into_iter()
                            .filter(|&k| !(promoted && matches!(k, G | K)))
                            .filter(|&k| {
                                step(k, promoted).contains(&(dx, dy))
                                    || slides(k, promoted)
                                        .iter()
                                        .any(|&(x, y)| (1..=8).any(|n| (x * n, y * n) == (dx, dy)))
                            })
                            .collect::<Vec<_>>(),
                    );
                    // The clamped tables lose the distinction between distances ≥ 2, so
                    // compare against the union over every vector with the same clamp.
                    let clamp = |v: i8| v.clamp(-2, 2);
                    let mut union = KindSet::EMPTY;
                    for x in -8i8..=8 {
                        for y in -8i8..=8 {
                            if (clamp(x), clamp(y)) == (clamp(dx), clamp(dy)) {
                                union = union.or(KindSet::of(
                                    &Kind::ALL
                                        .into_iter()
                                        .filter(|&k| !(promoted && matches!(k, G | K)))
                                        .filter(|&k| {
                                            step(k, promoted).contains(&(x, y))
                                                || slides(k, promoted).iter().any(|&(a, b)| {
                                                    (1..=8).any(|n| (a * n, b * n) == (x, y))
                                                })
                                        })
                                        .collect::<Vec<_>>(),
                                ));
                            }
                        }
                    }
                    let table = Observation::Move { dx, dy, promoted }.allowed();
                    assert_eq!(table, union, "({dx},{dy}) promoted={promoted}");
                    assert!(naive.is_subset(table));
                }
            }
        }
    }

    #[test]
    fn text_round_trip() {
        for o in [
            Observation::Move {
                dx: -1,
                dy: 2,
                promoted: true,
            },
            Observation::Move {
                dx: 0,
                dy: -1,
                promoted: false,
            },
            Observation::Promote,
            Observation::FarRank,
            Observation::SecondRank,
            Observation::Captured,
        ] {
            assert_eq!(o.to_string().parse::<Observation>(), Ok(o));
        }
        assert!("move 1".parse::<Observation>().is_err());
    }
}
