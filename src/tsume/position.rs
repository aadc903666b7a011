//! [`MatePosition`] for the rules core's [`Position`], and loading problems.

use super::MatePosition;
use crate::notation::sfen::{read_usi_position, SfenError, UsiMoveError, UsiPositionError};
use crate::rules::{Color, Hand, Move, MoveList, PieceKind, Position, PositionError, Rules, Setup};
use std::ops::Range;

impl MatePosition for Position {
    type Move = Move;
    #[inline]
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }
    #[inline]
    fn board_key(&self) -> u64 {
        // The board key's low byte is clear (see rules::position), so the side fits there.
        Position::board_key(self) | Position::side_to_move(self) as u64
    }
    #[inline]
    fn position_key(&self) -> u64 {
        self.key()
    }
    #[inline]
    fn hand_of(&self, color: Color) -> Hand {
        self.hand(color)
    }
    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    fn checks(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.generate_checks(&mut list);
        out.extend_from_slice(&list);
    }
    fn evasions(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.generate(&mut list);
        out.extend_from_slice(&list);
    }
    #[inline]
    fn check_count(&self) -> u32 {
        self.count_checks()
    }
    #[inline]
    fn reply_count(&self) -> u32 {
        self.count_replies()
    }
    #[inline]
    fn has_reply_besides_interposition(&self) -> bool {
        Position::has_reply_besides_interposition(self)
    }
    #[inline]
    fn drop_square(m: Move) -> Option<u8> {
        match m {
            Move::Drop { to, .. } => Some(to.index() as u8),
            Move::Normal { .. } => None,
        }
    }
    #[inline]
    fn hand_delta(&self, m: Move) -> (Option<PieceKind>, Option<PieceKind>) {
        match m {
            Move::Drop { kind, .. } => (Some(kind), None),
            Move::Normal { to, .. } => (None, self.piece_at(to).map(|p| p.kind.unpromote())),
        }
    }
    #[inline]
    fn interposable(&self) -> bool {
        let checkers = self.checkers();
        match (
            Position::king(self, Position::side_to_move(self)),
            checkers.first(),
        ) {
            (Some(k), Some(c)) if !checkers.has_more_than_one() => {
                !crate::rules::bitboard::between(k, c).is_empty()
            }
            _ => false,
        }
    }
    #[inline]
    fn interposes(&self, m: Move) -> bool {
        let checkers = self.checkers();
        match (
            Position::king(self, Position::side_to_move(self)),
            checkers.first(),
        ) {
            (Some(k), Some(c)) if !checkers.has_more_than_one() => {
                m.from() != Some(k) && crate::rules::bitboard::between(k, c).has(m.to())
            }
            _ => false,
        }
    }
    #[inline]
    fn defenders_of(&self, m: Move) -> u32 {
        let them = !Position::side_to_move(self);
        self.attackers_to(them, m.to(), self.occupied()).count()
    }
    #[inline]
    fn guards_of(&self, m: Move) -> u32 {
        let me = Position::side_to_move(self);
        self.attackers_to(me, m.to(), self.occupied()).count()
    }
    #[inline]
    fn king_distance(&self, sq: u8) -> u8 {
        Position::king(self, Position::side_to_move(self)).map_or(0, |k| {
            let (a, b) = (k.index() as i32, sq as i32);
            ((a / 9 - b / 9).abs()).max((a % 9 - b % 9).abs()) as u8
        })
    }
    fn futility_tests(&self, m: Move) -> Vec<Position> {
        futility_recaptures(self, m)
            .into_iter()
            .map(|(_, q)| q)
            .collect()
    }
    #[inline]
    fn keys_after(&mut self, m: Move, attacker: Color) -> (u64, u64, Hand) {
        // As `board_key`, `position_key` and `hand_of` after `play(m)`: the side flips,
        // only the mover's hand changes (rules::Position::key).
        let us = Position::side_to_move(self);
        let (board, mover_hand) = self.board_key_and_hand_after(m);
        let them = !us;
        let their_hand = self.hand(them);
        let position_key = board
            .wrapping_add(their_hand.raw())
            .wrapping_add(them as u64);
        let hand = if attacker == us {
            mover_hand
        } else {
            their_hand
        };
        (board | them as u64, position_key, hand)
    }
    #[inline]
    fn play(&mut self, m: Move) {
        self.play_unchecked(m);
    }
    #[inline]
    fn undo(&mut self) {
        Position::undo(self);
    }
    fn check_mate_line(&self, line: &[Move]) -> Result<(), super::checker::LineError> {
        super::checker::verify_mate_line(self, line)
    }
}

/// Whose pieces the defender's hand holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DefenderHand {
    /// Every piece that is neither on the board nor in the attacker's hand (the tsume convention).
    #[default]
    Remaining,
    /// Exactly the hand the input gives.
    AsGiven,
}

/// Why a problem cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// The SFEN (or the USI text around it) does not parse.
    #[error("bad SFEN: {0}")]
    Sfen(#[from] SfenError),
    /// The arrangement is not a legal tsume position.
    #[error("{0}")]
    Position(#[from] PositionError),
    /// A move of the `moves …` list is malformed or illegal.
    #[error("move {}: {error}", index + 1)]
    Move {
        /// 0-based index in the move list.
        index: usize,
        /// Its byte span in the input text.
        span: Range<usize>,
        /// What is wrong.
        error: UsiMoveError,
    },
    /// The position after the moves is no tsume position: the side to move there
    /// attacks, so after an odd number of moves the first attacker defends, and a
    /// kingless one cannot.
    #[error("after {moves} {}, {attacker:?} to move attacks: {error}", if *.moves == 1 { "move" } else { "moves" })]
    AfterMoves {
        /// How many moves were played.
        moves: usize,
        /// The side to move after them, the attacker of the problem.
        attacker: Color,
        /// What is wrong with the position.
        error: PositionError,
    },
}

/// Gives the defender (the side not to move) every piece that is neither on the board
/// nor in the attacker's hand.
fn give_remaining_to_defender(setup: &mut Setup) {
    let attacker = setup.side_to_move;
    setup.hands[!attacker] = setup.rest_of_pieces(setup.hands[attacker]);
}

/// Reads a tsume problem: the side to move attacks (it may lack a king); the other side
/// must have one.
///
/// `text` is what [`read_usi_position`] accepts: a bare SFEN, `sfen <SFEN>`, `startpos`,
/// each optionally after `position` and before `moves m1 m2 …`. The start is read as a
/// problem is (its side to move attacks; with [`DefenderHand::Remaining`] its defender
/// gets every remaining piece), the moves are played with the rules core's full
/// legality, and the position after them is the problem: its side to move attacks.
///
/// # Errors
/// [`ProblemError`] for malformed text, an illegal arrangement, a malformed or illegal
/// move (with its index and span), or a position after the moves whose defender has no king.
pub fn load_problem(text: &str, defender: DefenderHand) -> Result<Position, ProblemError> {
    let usi = read_usi_position(text)?;
    let mut setup = usi.setup.clone();
    if defender == DefenderHand::Remaining {
        give_remaining_to_defender(&mut setup);
    }
    let start = Position::from_setup(setup, Rules::TSUME)?;
    if usi.moves.is_empty() {
        return Ok(start);
    }
    let after = usi.play_moves(start).map_err(|e| match e {
        UsiPositionError::Sfen(e) => ProblemError::Sfen(e),
        UsiPositionError::Move { index, span, error } => ProblemError::Move { index, span, error },
    })?;
    // The pieces on the board and in hand are those of the start (a move only moves
    // them), so the defender's hand stays complete; only its king can be missing.
    let setup = after.position.to_setup();
    let attacker = setup.side_to_move;
    Position::from_setup(setup, Rules::TSUME).map_err(|error| ProblemError::AfterMoves {
        moves: usi.moves.len(),
        attacker,
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_pieces_go_to_the_defender() {
        let p = load_problem("8k/9/8P/9/9/9/9/9/9 b G 1", DefenderHand::Remaining).unwrap();
        let h = p.hand(Color::Gote);
        assert_eq!(h.count(PieceKind::Pawn), 17);
        assert_eq!(h.count(PieceKind::Gold), 3);
        assert_eq!(h.count(PieceKind::Rook), 2);
        let q = load_problem("8k/9/8P/9/9/9/9/9/9 b G 1", DefenderHand::AsGiven).unwrap();
        assert!(q.hand(Color::Gote).is_empty());
    }

    #[test]
    fn usi_texts_load_the_position_after_their_moves() {
        use crate::notation::sfen::write_sfen;
        // cases.sfen's pawn-drop-not-mate after ▲2二歩 △1一玉: ▲2三桂 mates.
        let text = "position sfen 7k1/5G3/8S/9/9/9/9/9/9 b NP 1 moves P*2b 2a1a";
        let given = load_problem(text, DefenderHand::AsGiven).unwrap();
        assert_eq!(write_sfen(&given), "8k/5G1P1/8S/9/9/9/9/9/9 b N 3");
        let full = load_problem(text, DefenderHand::Remaining).unwrap();
        assert_eq!(
            write_sfen(&full),
            "8k/5G1P1/8S/9/9/9/9/9/9 b N2r2b3g3s3n4l17p 3"
        );
        assert_eq!(
            full,
            load_problem(&write_sfen(&full), DefenderHand::Remaining).unwrap()
        );
        let r = crate::tsume::solve(&full, &Default::default());
        assert_eq!(r.line_usi(), "N*2c");
        // Every form of the start reads alike.
        for t in [
            "7k1/5G3/8S/9/9/9/9/9/9 b NP 1",
            "sfen 7k1/5G3/8S/9/9/9/9/9/9 b NP 1",
            "position sfen 7k1/5G3/8S/9/9/9/9/9/9 b NP 1 moves",
        ] {
            assert_eq!(
                load_problem(t, DefenderHand::Remaining).unwrap(),
                load_problem("7k1/5G3/8S/9/9/9/9/9/9 b NP 1", DefenderHand::Remaining).unwrap(),
                "{t}"
            );
        }
    }

    #[test]
    fn the_defender_hand_convention_applies_to_the_start() {
        // ▲9一飛 checks; △2一歩 interposes from the remaining pieces, not from an empty hand.
        let text = "position sfen 8k/9/9/9/9/9/9/9/R8 b - 1 moves 9i9a P*2a";
        let p = load_problem(text, DefenderHand::Remaining).unwrap();
        assert_eq!(p.side_to_move(), Color::Sente);
        assert_eq!(p.hand(Color::Gote).count(PieceKind::Pawn), 17);
        match load_problem(text, DefenderHand::AsGiven).unwrap_err() {
            e @ ProblemError::Move { index: 1, .. } => {
                assert_eq!(e.to_string(), "move 2: illegal move P*2a");
                let ProblemError::Move { span, .. } = e else {
                    unreachable!()
                };
                assert_eq!(&text[span], "P*2a");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_move_lists_are_refused() {
        let start = "position sfen 8k/9/8P/9/9/9/9/9/9 b G 1 moves";
        for (moves, index, message) in [
            ("G*1b 1a1b", 1, "move 2: illegal move 1a1b"),
            ("1c1d", 0, "move 1: illegal move 1c1d"),
            ("G*1b 1a", 1, "move 2: malformed USI move \"1a\""),
            ("P*1b", 0, "move 1: illegal move P*1b"),
        ] {
            let text = format!("{start} {moves}");
            match load_problem(&text, DefenderHand::Remaining).unwrap_err() {
                e @ ProblemError::Move { index: i, .. } if i == index => {
                    assert_eq!(e.to_string(), message, "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        // 打ち歩詰め is illegal in a move list too.
        let e = load_problem(
            "position sfen 7lk/9/8G/9/9/9/9/9/K8 b P 1 moves P*1b",
            DefenderHand::Remaining,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "move 1: illegal move P*1b");
        // After one move the kingless attacker would be the defender.
        let e = load_problem(
            "position sfen 7lk/9/9/9/9/9/9/9/9 b G 1 moves G*2b",
            DefenderHand::Remaining,
        )
        .unwrap_err();
        assert!(matches!(e, ProblemError::AfterMoves { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "after 1 move, Gote to move attacks: illegal position: Sente has no king"
        );
        // Text other than `moves …` after the SFEN.
        assert!(matches!(
            load_problem("8k/9/8P/9/9/9/9/9/9 b G 1 G*1b", DefenderHand::Remaining),
            Err(ProblemError::Sfen(_))
        ));
    }

    #[test]
    fn checks_are_the_checking_legal_moves() {
        let p = load_problem("7lk/9/8G/9/9/9/9/9/K8 b P 1", DefenderHand::Remaining).unwrap();
        let mut v = Vec::new();
        p.checks(&mut v);
        // P*1b would be 打ち歩詰め and is not generated.
        assert!(!v.iter().any(|m| m.to_string() == "P*1b"));
        assert!(v.iter().all(|&m| p.gives_check(m)));
    }
}

#[cfg(test)]
mod twin_tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `keys_after` (computed without playing) against playing the move and reading the
    /// keys and hands, for every legal move along random walks from the classics
    /// (captures of promoted pieces, promotions, drops, both attackers).
    #[test]
    fn keys_after_match_play() {
        let text = include_str!("../../specs/tsume/classics.sfen");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let mut checked = 0u32;
        for p in super::super::problems::read_problems(text).iter().take(60) {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for _ in 0..16 {
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                for &m in &all {
                    for attacker in Color::ALL {
                        let fast = pos.keys_after(m, attacker);
                        let mut q = pos.clone();
                        q.play_unchecked(m);
                        let slow = (
                            MatePosition::board_key(&q),
                            q.key_from_scratch(),
                            q.hand(attacker),
                        );
                        assert_eq!(
                            fast,
                            slow,
                            "{m} in {}",
                            crate::notation::sfen::write_sfen(&pos)
                        );
                        checked += 1;
                    }
                }
                pos.play_unchecked(all[rng.gen_range(0..all.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The futility tests as first written: every legal move filtered for the checker's
    /// recaptures, the test position rebuilt from its setup with the piece handed back.
    fn futility_recaptures_naive(pos: &Position, m: Move) -> Vec<(Move, Position)> {
        let me = Position::side_to_move(pos);
        let Some(checker) = interposed_checker(pos, m) else {
            return Vec::new();
        };
        let to = m.to();
        let mut after = pos.clone();
        after.play_unchecked(m);
        let Some(piece) = after.piece_at(to) else {
            return Vec::new();
        };
        let kind = piece.kind.unpromote();
        let mut out = Vec::new();
        for c in after.legal_moves() {
            if c.from() != Some(checker) || c.to() != to {
                continue;
            }
            let mut q = after.clone();
            q.play_unchecked(c);
            if !Position::in_check(&q) {
                continue;
            }
            let mut setup = q.to_setup();
            setup.hands[!me] = setup.hands[!me].remove(kind);
            setup.hands[me] = setup.hands[me].add(kind);
            if let Ok(p) = Position::from_setup(setup, crate::rules::Rules::TSUME.swapped()) {
                out.push((c, p));
            }
        }
        out
    }

    /// Everything a search reads of a position, for comparing two built differently.
    fn fingerprint(q: &Position) -> impl PartialEq + std::fmt::Debug {
        (
            q.to_setup(),
            q.rules(),
            q.board_key(),
            q.key(),
            q.key_from_scratch(),
            q.checkers(),
            q.pinned_pieces(),
            q.ply(),
            q.king(Color::Sente),
            q.king(Color::Gote),
            q.legal_moves().to_vec(),
        )
    }

    /// `futility_recaptures` against its naive twin on every defender reply after every
    /// check along random walks: the same recaptures in the same order, and test
    /// positions that are the same in every respect the search reads.
    #[test]
    fn futility_recaptures_match_naive() {
        let (mut replies, mut tests) = (0u32, 0u32);
        after_each_check(29, |pos, _| {
            for &m in &pos.legal_moves() {
                let fast = futility_recaptures(pos, m);
                let slow = futility_recaptures_naive(pos, m);
                let sfen = crate::notation::sfen::write_sfen(pos);
                assert_eq!(fast.len(), slow.len(), "{m} in {sfen}");
                for ((c1, q1), (c2, q2)) in fast.iter().zip(&slow) {
                    assert_eq!(c1, c2, "{m} in {sfen}");
                    assert!(fingerprint(q1) == fingerprint(q2), "{m} {c1} in {sfen}");
                    tests += 1;
                }
                replies += 1;
            }
        });
        assert!(
            replies > 5_000 && tests > 500,
            "{replies} replies, {tests} tests"
        );
    }

    /// Calls `f` on every position after a check along random walks (16 plies, seeded by
    /// `seed`) from the first 80 classics, with the classic's index.
    fn after_each_check(seed: u64, mut f: impl FnMut(&Position, usize)) {
        let text = include_str!("../../specs/tsume/classics.sfen");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for (i, p) in super::super::problems::read_problems(text)
            .iter()
            .enumerate()
            .take(80)
        {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for _ in 0..16 {
                let mut checks = Vec::new();
                pos.checks(&mut checks);
                for &m in &checks {
                    pos.play_unchecked(m);
                    f(&pos, i);
                    pos.undo();
                }
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                pos.play_unchecked(all[rng.gen_range(0..all.len())]);
            }
        }
    }

    /// `reply_count` (counted from the generator's masks) against counting the generated
    /// moves (drops once per square), in every position after a check along random
    /// walks from the classics; and against the naive generator for the first of them.
    #[test]
    fn reply_count_matches_generated_replies() {
        let count = |moves: &[Move]| {
            let mut squares = 0u128;
            let mut n = 0u32;
            for &m in moves {
                match m {
                    Move::Drop { to, .. } => squares |= 1u128 << to.index(),
                    Move::Normal { .. } => n += 1,
                }
            }
            n + squares.count_ones()
        };
        let (mut checked, mut with_drops) = (0u32, 0u32);
        after_each_check(7, |pos, i| {
            let all = pos.legal_moves();
            assert_eq!(
                pos.reply_count(),
                count(&all),
                "{}",
                crate::notation::sfen::write_sfen(pos)
            );
            if i < 4 {
                assert_eq!(pos.reply_count(), count(&pos.legal_moves_naive()));
            }
            checked += 1;
            with_drops += all.iter().any(|m| m.is_drop()) as u32;
        });
        assert!(
            checked > 2_000 && with_drops > 500,
            "{checked} {with_drops}"
        );
    }

    /// The out-of-plies refutation test against the generated replies (and the naive
    /// generator's on the first problems): some legal reply is no interposition.
    #[test]
    fn reply_besides_interposition_matches_generated_replies() {
        let (mut yes, mut no) = (0u32, 0u32);
        after_each_check(11, |pos, i| {
            let not_interposing = |r: &Move| !MatePosition::interposes(pos, *r);
            let got = MatePosition::has_reply_besides_interposition(pos);
            let want = pos.legal_moves().iter().any(not_interposing);
            assert_eq!(got, want, "{}", crate::notation::sfen::write_sfen(pos));
            if i < 4 {
                assert_eq!(got, pos.legal_moves_naive().iter().any(not_interposing));
            }
            if got {
                yes += 1;
            } else {
                no += 1;
            }
        });
        assert!(yes > 1_000 && no > 50, "{yes} {no}");
    }

    /// The solver's check and evasion lists against the naive twin: every legal
    /// move (rules core's naive generator), played, tested with `in_check`.
    #[test]
    fn check_generation_matches_play_and_test() {
        let text = include_str!("../../specs/tsume/classics.sfen");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for p in super::super::problems::read_problems(text).iter().take(60) {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for _ in 0..12 {
                let mut fast = Vec::new();
                if pos.in_check() {
                    pos.evasions(&mut fast);
                } else {
                    pos.checks(&mut fast);
                }
                let mut naive: Vec<Move> = pos
                    .legal_moves_naive()
                    .into_iter()
                    .filter(|&m| {
                        if Position::in_check(&pos) {
                            return true;
                        }
                        let mut q = pos.clone();
                        q.play_unchecked(m);
                        Position::in_check(&q)
                    })
                    .collect();
                let key = |m: &Move| m.to_string();
                fast.sort_by_key(key);
                naive.sort_by_key(key);
                assert_eq!(fast, naive, "{}", crate::notation::sfen::write_sfen(&pos));
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                pos.play_unchecked(all[rng.gen_range(0..all.len())]);
            }
        }
    }
}

/// The futility tests of the reply `m` at the defender node `pos` (definition 1 of
/// `specs/tsume.md`), each with its recapture: for every legal capture by the single
/// distant checker on the square `m` interposes on that gives check, the position after
/// it with the captured piece handed back to the defender. Empty unless `m` interposes.
/// [`MatePosition::futility_tests`] without the moves; the certificate extractor keeps
/// them for its witnesses.
/// The single distant checker whose line to the king the reply `m` (no king move)
/// interposes on, if any.
fn interposed_checker(pos: &Position, m: Move) -> Option<crate::rules::Square> {
    let checkers = pos.checkers();
    let king = Position::king(pos, Position::side_to_move(pos))?;
    let checker = checkers.first()?;
    (!checkers.has_more_than_one()
        && m.from() != Some(king)
        && crate::rules::bitboard::between(king, checker).has(m.to()))
    .then_some(checker)
}

pub(crate) fn futility_recaptures(pos: &Position, m: Move) -> Vec<(Move, Position)> {
    let me = Position::side_to_move(pos);
    let Some(checker) = interposed_checker(pos, m) else {
        return Vec::new();
    };
    let to = m.to();
    // Copies without the path's history; only the checker's moves to `to` are generated
    // (the twin test compares with filtering every legal move and rebuilding the setup).
    let mut after = pos.detached(pos.rules());
    after.play_unchecked(m);
    let Some(piece) = after.piece_at(to) else {
        return Vec::new();
    };
    let kind = piece.kind.unpromote();
    let mut recaptures = crate::rules::moves::MoveList::new();
    after.moves_to(checker, to, &mut recaptures);
    let mut out = Vec::new();
    for &c in &recaptures {
        let mut q = after.detached(crate::rules::Rules::TSUME.swapped());
        q.play_unchecked(c);
        if !Position::in_check(&q) || !q.hand_over(!me, kind) {
            continue;
        }
        q.forget_history();
        out.push((c, q));
    }
    out
}
