//! Malformed SFENs and USI lines: each gives its expected located error, never a panic.

use proptest::prelude::*;
use shogi_lab::notation::sfen::{
    parse_position, parse_usi_position, write_usi_position, SfenErrorKind, UsiMoveError,
    UsiPositionError,
};
use shogi_lab::rules::{Color, PieceKind, Rules, Violation};

const GOOD_BOARD: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

#[test]
fn malformed_sfens_give_located_errors() {
    use SfenErrorKind as K;
    let cases: Vec<(String, SfenErrorKind, std::ops::Range<usize>)> = vec![
        (String::new(), K::Empty, 0..0),
        (format!("{GOOD_BOARD} x - 1"), K::BadSide, 58..59),
        (
            GOOD_BOARD.to_string(),
            K::MissingField("side to move"),
            57..57,
        ),
        (format!("{GOOD_BOARD} b"), K::MissingField("hands"), 59..59),
        (format!("{GOOD_BOARD} b - 0"), K::BadMoveNumber, 62..63),
        (format!("{GOOD_BOARD} b - 1 extra"), K::TrailingText, 64..69),
        (format!("{GOOD_BOARD} b 0P 1"), K::BadHandCount, 60..62),
        (format!("{GOOD_BOARD} b 2 1"), K::BadHandCount, 60..61),
        (
            format!("{GOOD_BOARD} b PP 1"),
            K::DuplicateHandKind('P'),
            61..62,
        ),
        (format!("{GOOD_BOARD} b K 1"), K::KingInHand, 60..61),
        (format!("{GOOD_BOARD} b X 1"), K::BadHandChar('X'), 60..61),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1".into(),
            K::WrongRankCount(8),
            0..47,
        ),
        (
            "lnsgkgsnlp/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            K::RankTooLong(1),
            9..10,
        ),
        (
            "lnsgkgsn/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            K::RankTooShort(1),
            0..8,
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/4x4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            K::BadBoardChar('x'),
            29..30,
        ),
        (
            "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            K::BadPromotion,
            4..6,
        ),
        (
            "lnsgkgsn+/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            K::BadPromotion,
            8..9,
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/90/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            K::BadBoardChar('0'),
            29..30,
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19P 1".into(),
            K::BadHandCount,
            60..62,
        ),
    ];
    for (text, kind, span) in cases {
        let e = parse_position(&text, Rules::STANDARD).expect_err(&text);
        // 19P is a valid count syntactically; too many pawns is a rule violation instead.
        if text.contains("19P") {
            assert!(matches!(e.kind, K::Illegal(_)), "{text}: {e:?}");
            continue;
        }
        assert_eq!((e.kind.clone(), e.span.clone()), (kind, span), "{text}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn rule_violations_are_named() {
    let cases: &[(&str, Violation)] = &[
        (
            "4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1",
            Violation::TwoPawns {
                color: Color::Sente,
                file: 5,
            },
        ),
        (
            "4k4/9/9/9/9/9/9/9/3nK4 b - 1",
            Violation::DeadPiece {
                piece: shogi_lab::rules::Piece::new(Color::Gote, PieceKind::Knight),
                square: shogi_lab::rules::Square::new(6, 9).unwrap(),
            },
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 b 3B 1",
            Violation::TooManyPieces {
                kind: PieceKind::Bishop,
                count: 3,
                max: 2,
            },
        ),
        (
            "4k4/9/9/9/9/9/9/9/9 b - 1",
            Violation::MissingKing {
                color: Color::Sente,
            },
        ),
        (
            "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
            Violation::OpponentInCheck { color: Color::Gote },
        ),
        (
            "3kk4/9/9/9/9/9/9/9/4K4 b - 1",
            Violation::TooManyKings {
                color: Color::Gote,
                count: 2,
            },
        ),
    ];
    for (sfen, v) in cases {
        match parse_position(sfen, Rules::STANDARD).map_err(|e| e.kind) {
            Err(SfenErrorKind::Illegal(pe)) => assert!(pe.violations.contains(v), "{sfen}: {pe:?}"),
            other => panic!("{sfen}: {other:?}"),
        }
    }
    // Tsume rules: the attacker (side to move) may lack a king, the defender may not.
    assert!(parse_position("4k4/9/9/9/9/9/9/9/9 b G 1", Rules::TSUME).is_ok());
    assert!(parse_position("9/9/9/9/9/9/9/9/4K4 b G 1", Rules::TSUME).is_err());
    // Every violation at once.
    let e = parse_position("4k4/4R4/9/9/9/4P4/4P4/9/9 b 3B 1", Rules::STANDARD).unwrap_err();
    let SfenErrorKind::Illegal(pe) = e.kind else {
        panic!()
    };
    assert_eq!(pe.violations.len(), 4, "{pe:?}");
}

#[test]
fn usi_position_errors_name_the_move() {
    let e =
        parse_usi_position("position startpos moves 7g7f 3c3d xx", Rules::STANDARD).unwrap_err();
    assert!(
        matches!(e, UsiPositionError::Move { index: 2, error: UsiMoveError::Malformed(_), span } if span == (34..36))
    );
    let e = parse_usi_position("position startpos moves 7g7f 7g7f", Rules::STANDARD).unwrap_err();
    assert!(matches!(
        e,
        UsiPositionError::Move {
            index: 1,
            error: UsiMoveError::Illegal(_),
            ..
        }
    ));
    assert!(parse_usi_position("position startpos 7g7f", Rules::STANDARD).is_err());
    let ok = parse_usi_position(
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1 moves P*5b",
        Rules::STANDARD,
    );
    // P*5b checks, but the king takes it: not 打ち歩詰め.
    assert_eq!(ok.unwrap().moves.len(), 1);
}

proptest! {
    /// Arbitrary text never panics the parsers.
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,80}") {
        let _ = parse_position(&s, Rules::STANDARD);
        let _ = parse_usi_position(&s, Rules::STANDARD);
    }

    /// Mutated SFENs never panic.
    #[test]
    fn mutated_sfens_never_panic(i in 0usize..70, c in "[0-9a-zA-Z+/ *-]") {
        let mut s: Vec<char> = format!("{GOOD_BOARD} b - 1").chars().collect();
        let i = i.min(s.len() - 1);
        s[i] = c.chars().next().unwrap();
        let s: String = s.into_iter().collect();
        let _ = parse_position(&s, Rules::STANDARD);
    }

    #[test]
    fn usi_position_round_trips(seed in any::<u64>(), n in 0usize..60) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let start = shogi_lab::rules::Position::startpos();
        let mut p = start.clone();
        let mut moves = Vec::new();
        for _ in 0..n {
            let l = p.legal_moves();
            if l.is_empty() { break; }
            let m = l[rng.gen_range(0..l.len())];
            p.play_unchecked(m);
            moves.push(m);
        }
        let text = write_usi_position(&start, &moves);
        let back = parse_usi_position(&text, Rules::STANDARD).unwrap();
        prop_assert_eq!(back.moves, moves);
        prop_assert_eq!(back.position, p);
    }
}
