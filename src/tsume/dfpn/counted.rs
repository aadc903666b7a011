//! The solver's count of positions entered by a move ([`Stats::plays`]) against an
//! independent count: a position wrapper that counts every `play` the solver makes on
//! it and every 無駄合 test position it hands out, and otherwise answers as the
//! position it wraps.

use super::*;
use crate::rules::{Color, Hand, PieceKind, Position};
use crate::tsume::{load_problem, problems::read_problems, DefenderHand, SolverOptions};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A position that counts, in a counter its clones share, each move played on it and
/// each 無駄合 test position made from it.
#[derive(Clone)]
struct Counted {
    pos: Position,
    plays: Arc<AtomicU64>,
}

impl Counted {
    fn count(&self, n: u64) {
        self.plays.fetch_add(n, Ordering::Relaxed);
    }
}

impl MatePosition for Counted {
    type Move = <Position as MatePosition>::Move;
    fn side_to_move(&self) -> Color {
        MatePosition::side_to_move(&self.pos)
    }
    fn board_key(&self) -> u64 {
        MatePosition::board_key(&self.pos)
    }
    fn position_key(&self) -> u64 {
        MatePosition::position_key(&self.pos)
    }
    fn hand_of(&self, color: Color) -> Hand {
        MatePosition::hand_of(&self.pos, color)
    }
    fn in_check(&self) -> bool {
        MatePosition::in_check(&self.pos)
    }
    fn checks(&self, out: &mut Vec<Self::Move>) {
        MatePosition::checks(&self.pos, out)
    }
    fn check_count(&self) -> u32 {
        MatePosition::check_count(&self.pos)
    }
    fn evasions(&self, out: &mut Vec<Self::Move>) {
        MatePosition::evasions(&self.pos, out)
    }
    fn reply_count(&self) -> u32 {
        MatePosition::reply_count(&self.pos)
    }
    fn has_reply_besides_interposition(&self) -> bool {
        MatePosition::has_reply_besides_interposition(&self.pos)
    }
    fn drop_square(m: Self::Move) -> Option<u8> {
        <Position as MatePosition>::drop_square(m)
    }
    fn hand_delta(&self, m: Self::Move) -> (Option<PieceKind>, Option<PieceKind>) {
        MatePosition::hand_delta(&self.pos, m)
    }
    fn interposable(&self) -> bool {
        MatePosition::interposable(&self.pos)
    }
    fn defenders_of(&self, m: Self::Move) -> u32 {
        MatePosition::defenders_of(&self.pos, m)
    }
    fn guards_of(&self, m: Self::Move) -> u32 {
        MatePosition::guards_of(&self.pos, m)
    }
    fn king_distance(&self, sq: u8) -> u8 {
        MatePosition::king_distance(&self.pos, sq)
    }
    fn futility_tests(&self, m: Self::Move) -> Vec<Self> {
        let tests: Vec<Self> = MatePosition::futility_tests(&self.pos, m)
            .into_iter()
            .map(|pos| Counted {
                pos,
                plays: self.plays.clone(),
            })
            .collect();
        self.count(tests.len() as u64);
        tests
    }
    fn interposes(&self, m: Self::Move) -> bool {
        MatePosition::interposes(&self.pos, m)
    }
    fn keys_after(&mut self, m: Self::Move, attacker: Color) -> (u64, u64, Hand) {
        MatePosition::keys_after(&mut self.pos, m, attacker)
    }
    fn play(&mut self, m: Self::Move) {
        self.count(1);
        MatePosition::play(&mut self.pos, m)
    }
    fn undo(&mut self) {
        MatePosition::undo(&mut self.pos)
    }
    fn check_mate_line(&self, line: &[Self::Move]) -> Result<(), crate::tsume::checker::LineError> {
        MatePosition::check_mate_line(&self.pos, line)
    }
}

/// Every play the solver makes and every 無駄合 test position is in `Stats::plays`, in
/// both modes (the default's ply budgets run the 無駄合 tests and the 1-ply refutations;
/// its runs look for 余詰 as well),
/// and the wrapper changes no search: the same answers and node counts as on the bare
/// position.
#[test]
fn plays_are_every_move_the_solver_plays() {
    let text = include_str!("../../../specs/tsume/classics.sfen");
    let (mut runs, mut tested) = (0, 0u64);
    for p in read_problems(text).iter().step_by(10) {
        let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        for shortest in [true, false] {
            let opts = SolverOptions {
                nodes: Some(30_000),
                memory_mib: 16,
                shortest,
                // The 余詰 search plays from the root too.
                alt_nodes: if shortest { 2_000 } else { 0 },
                ..SolverOptions::default()
            };
            let counter = Arc::new(AtomicU64::new(0));
            let counted = Counted {
                pos: pos.clone(),
                plays: counter.clone(),
            };
            let r = Solver::<Counted>::new(opts.clone()).solve(&counted);
            let bare = Solver::<Position>::new(opts).solve(&pos);
            let played = counter.load(Ordering::Relaxed);
            assert_eq!(r.stats.plays, played, "{} shortest {shortest}", p.id);
            assert_eq!(r.stats.plays, bare.stats.plays, "{}", p.id);
            assert_eq!(r.stats.nodes, bare.stats.nodes, "{}", p.id);
            assert_eq!((r.outcome, r.line), (bare.outcome, bare.line), "{}", p.id);
            assert!(
                played >= r.stats.nodes,
                "{}: {played} < {}",
                p.id,
                r.stats.nodes
            );
            tested += played;
            runs += 1;
        }
    }
    assert_eq!(runs, 40);
    assert!(tested > 500_000, "{tested}");
}
