//! The checker's SFEN reader: a strict, allocation-free pass over the plain form the
//! extractor writes (`<board> <b|w> <hands|-> [<move number>]`, single spaces, hand
//! counts 1–38 without leading zeros, each hand kind once). It answers only where it
//! is sure and then exactly as [`parse_setup`]; on anything else (other whitespace,
//! `sfen`/`startpos`, any malformed text) it gives `None` and [`read`] leaves the
//! decision, and the error, to [`parse_setup`]. Compared with [`parse_setup`] on
//! mutated SFENs in the tests.

use crate::notation::sfen::{parse_setup, SfenError};
use crate::rules::{ByColor, Color, Hand, Piece, PieceKind, Setup, Square};

/// The setup of `text`, as [`parse_setup`] reads it.
///
/// # Errors
/// [`parse_setup`]'s error for text that is not a SFEN.
pub fn read(text: &str) -> Result<Setup, SfenError> {
    match read_plain(text) {
        Some(s) => Ok(s),
        None => parse_setup(text),
    }
}

/// The plain form alone; `None` for anything else.
fn read_plain(text: &str) -> Option<Setup> {
    let mut fields = text.as_bytes().split(|&c| c == b' ');
    let (board, side, hands) = (fields.next()?, fields.next()?, fields.next()?);
    let number = fields.next();
    if fields.next().is_some() {
        return None;
    }
    let mut setup = Setup::default();
    read_board(board, &mut setup.board)?;
    setup.side_to_move = match side {
        b"b" => Color::Sente,
        b"w" => Color::Gote,
        _ => return None,
    };
    setup.hands = read_hands(hands)?;
    if let Some(n) = number {
        setup.move_number = read_count(n, u32::MAX)?;
    }
    Some(setup)
}

/// A number without sign or leading zero, 1 to `max`, spanning all of `b`.
fn read_count(b: &[u8], max: u32) -> Option<u32> {
    if !matches!(b.first(), Some(b'1'..=b'9')) {
        return None;
    }
    let mut n: u32 = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
    }
    (n <= max).then_some(n)
}

fn letter(c: u8) -> Option<(Color, PieceKind)> {
    let kind = PieceKind::from_letter(c as char).filter(|_| c.is_ascii_alphabetic())?;
    let color = if c.is_ascii_uppercase() {
        Color::Sente
    } else {
        Color::Gote
    };
    Some((color, kind))
}

fn read_board(b: &[u8], board: &mut [Option<Piece>; 81]) -> Option<()> {
    let (mut rank, mut file): (u8, i32) = (1, 9);
    let mut promoted = false;
    for &c in b {
        match c {
            b'1'..=b'9' if !promoted => {
                file -= i32::from(c - b'0');
                if file < 0 {
                    return None;
                }
            }
            b'/' if !promoted && file == 0 && rank < 9 => {
                rank += 1;
                file = 9;
            }
            b'+' if !promoted => promoted = true,
            _ => {
                let (color, kind) = letter(c)?;
                let kind = if promoted { kind.promote()? } else { kind };
                promoted = false;
                let sq = Square::new(u8::try_from(file).ok()?, rank)?;
                board[sq.index()] = Some(Piece::new(color, kind));
                file -= 1;
            }
        }
    }
    (rank == 9 && file == 0 && !promoted).then_some(())
}

fn read_hands(b: &[u8]) -> Option<ByColor<Hand>> {
    let mut hands = ByColor::<Hand>::default();
    if b == b"-" {
        return Some(hands);
    }
    if b.is_empty() {
        return None;
    }
    let mut seen = [[false; 7]; 2];
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let n = if i > start {
            read_count(&b[start..i], 38)?
        } else {
            1
        };
        let (color, kind) = letter(*b.get(i)?)?;
        if kind == PieceKind::King
            || std::mem::replace(&mut seen[color.index()][kind.index()], true)
        {
            return None;
        }
        hands[color] = hands[color].with_count(kind, n as u8);
        i += 1;
    }
    Some(hands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    const PLAIN: [&str; 6] = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "4k4/9/9/9/4S4/9/9/9/4R4 w RB2GS2N2L17Prbg2s2nl 6",
        "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
        "7nk/9/7PP/9/9/9/9/9/9 b P2r2b4g4s3n4l15p",
        "9/9/4l4/9/5p3/9/4G4/4K4/9 w RBSN2Prb3g3s3n3l15p 123",
        "+R+B+S+N+L+P3/9/9/9/4k4/9/9/9/9 b 38p 4294967295",
    ];

    #[test]
    fn the_plain_form_is_read_as_parse_setup_reads_it() {
        for s in PLAIN {
            assert_eq!(read_plain(s), Some(parse_setup(s).unwrap()), "{s}");
        }
    }

    #[test]
    fn other_forms_are_left_to_parse_setup() {
        for s in [
            "startpos",
            "sfen 4k4/9/9/9/9/9/9/9/9 b - 1",
            "4k4/9/9/9/9/9/9/9/9  b - 1",
            " 4k4/9/9/9/9/9/9/9/9 b - 1",
            "4k4/9/9/9/9/9/9/9/9\tb - 1",
            "4k4/9/9/9/9/9/9/9/9 b 01P 1",
            "4k4/9/9/9/9/9/9/9/9 b - 01",
        ] {
            assert_eq!(read_plain(s), None, "{s}");
            assert_eq!(read(s), parse_setup(s), "{s}");
        }
    }

    /// Random byte edits of plain SFENs: wherever the plain reader answers, it
    /// answers as `parse_setup` (which then accepts).
    #[test]
    fn mutated_sfens_agree_with_parse_setup() {
        let alphabet = b"0123456789+/-bwPLNSGBRKplnsgbrk x\t";
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut answered, mut rejected) = (0, 0);
        for _ in 0..40_000 {
            let base = PLAIN[rng.gen_range(0..PLAIN.len())];
            let s = super::super::mutate::mutate(&mut rng, base, alphabet, 3);
            match read_plain(&s) {
                Some(setup) => {
                    answered += 1;
                    assert_eq!(Ok(setup), parse_setup(&s), "{s:?}");
                }
                None => {
                    rejected += 1;
                    assert_eq!(read(&s), parse_setup(&s));
                }
            }
        }
        assert!(answered > 1000 && rejected > 1000, "{answered} {rejected}");
    }
}
