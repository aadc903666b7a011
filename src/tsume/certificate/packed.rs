//! A certificate node's position, packed: one byte per square, both hands, the side to
//! move and the move number (104 bytes). A [`Position`] carries bitboards, keys and its
//! move history (about 580 bytes in a node); a length certificate holds millions of
//! nodes (図巧35: 2.9 M), which as positions took 2.4 GB and a quarter of the
//! extraction's CPU in page faults and copies (`paper/results/certificates.md`,
//! session 24). The file needs only the SFEN, and the checker rebuilds its own
//! positions from it.

use crate::notation::sfen::{push_setup, write_setup};
use crate::rules::{ByColor, Color, Hand, Piece, PieceKind, Position, Setup};
use std::fmt;

/// A position as the certificate writes it: exactly [`Position::to_setup`]'s fields.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct NodePosition {
    /// 0: empty; else 1 + [`Piece::index`].
    board: [u8; 81],
    side: Color,
    move_number: u32,
    hands: [Hand; 2],
}

impl NodePosition {
    /// `pos` packed (its move history is not kept).
    pub fn of(pos: &Position) -> NodePosition {
        let setup = pos.to_setup();
        let mut board = [0u8; 81];
        for (b, p) in board.iter_mut().zip(setup.board.iter()) {
            *b = p.map_or(0, |p| 1 + p.index() as u8);
        }
        NodePosition {
            board,
            side: setup.side_to_move,
            move_number: setup.move_number,
            hands: [setup.hands[Color::Sente], setup.hands[Color::Gote]],
        }
    }

    /// The position's [`Setup`], as [`Position::to_setup`] gave it.
    pub fn setup(&self) -> Setup {
        let mut board = [None; 81];
        for (p, &b) in board.iter_mut().zip(self.board.iter()) {
            if b != 0 {
                let i = usize::from(b - 1);
                let color = if i < 14 { Color::Sente } else { Color::Gote };
                let kind = PieceKind::from_index(i % 14).expect("packed from a piece index");
                *p = Some(Piece::new(color, kind));
            }
        }
        Setup {
            board,
            hands: ByColor {
                sente: self.hands[0],
                gote: self.hands[1],
            },
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Its SFEN (the certificate's `sfen` member).
    pub fn sfen(&self) -> String {
        write_setup(&self.setup())
    }

    /// Appends its SFEN to `out`.
    pub fn write_sfen(&self, out: &mut String) {
        push_setup(out, &self.setup());
    }
}

impl fmt::Debug for NodePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.sfen(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::write_sfen;
    use crate::testdata::walk::random_walk;
    use rand::SeedableRng;

    #[test]
    fn a_packed_position_is_small() {
        assert!(std::mem::size_of::<NodePosition>() <= 104);
    }

    /// Packing keeps exactly the setup and the SFEN: along random walks from the
    /// start position and from a tsume problem with pieces in hand, promoted pieces and
    /// both colours on the board.
    #[test]
    fn packing_keeps_the_setup_and_the_sfen() {
        let starts = [
            Position::startpos(),
            crate::tsume::load_problem(
                "l3+P2B+p/k2+rpg+P2/3+p+rPS1n/PP1s4p/3l+p+B1pP/L2n4g/+p4p+N2/5S1s+P/+PL+P+pg+N1G1 b - 1",
                crate::tsume::DefenderHand::Remaining,
            )
            .expect("problem"),
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(24);
        let mut seen = 0;
        for start in &starts {
            for _ in 0..20 {
                let mut pos = start.clone();
                for m in random_walk(start, 60, &mut rng) {
                    pos.play_unchecked(m);
                    let packed = NodePosition::of(&pos);
                    assert!(packed.setup() == pos.to_setup(), "{}", write_sfen(&pos));
                    assert_eq!(packed.sfen(), write_sfen(&pos));
                    let mut s = String::from("x");
                    packed.write_sfen(&mut s);
                    assert_eq!(s[1..], write_sfen(&pos));
                    assert_eq!(packed.side_to_move(), pos.side_to_move());
                    seen += 1;
                }
            }
        }
        assert!(seen > 500, "{seen}");
    }
}
