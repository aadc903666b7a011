//! CSA's two-letter piece codes, `+`/`-` signs, two-digit squares and the
//! `$` header keys with a Japanese name.

use crate::rules::{Color, PieceKind, Square};

const CODES: [(&str, PieceKind); 14] = [
    ("FU", PieceKind::Pawn),
    ("KY", PieceKind::Lance),
    ("KE", PieceKind::Knight),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NY", PieceKind::ProLance),
    ("NK", PieceKind::ProKnight),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::Horse),
    ("RY", PieceKind::Dragon),
];

/// The kind of a piece code (`FU` → pawn).
pub(super) fn kind_of(code: &str) -> Option<PieceKind> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, k)| *k)
}

/// The code of a kind (pawn → `FU`).
pub(crate) fn code_of(kind: PieceKind) -> &'static str {
    CODES
        .iter()
        .find(|(_, k)| *k == kind)
        .map(|(c, _)| *c)
        .expect("every kind has a code")
}

/// `+` for Sente, `-` for Gote.
pub(super) fn sign(c: Color) -> char {
    match c {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

/// The side of a sign.
pub(super) fn color_of(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Sente),
        '-' => Some(Color::Gote),
        _ => None,
    }
}

/// A two-digit square, file then rank: `Some(None)` for `00` (the hand).
pub(super) fn csa_square(s: &str) -> Option<Option<Square>> {
    let b = s.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    if b == b"00" {
        return Some(None);
    }
    Square::new(b[0] - b'0', b[1] - b'0').map(Some)
}

/// `$` fields read and written under a Japanese header name.
pub(super) const HEADER_MAP: [(&str, &str); 6] = [
    ("$EVENT", "棋戦"),
    ("$SITE", "場所"),
    ("$START_TIME", "開始日時"),
    ("$END_TIME", "終了日時"),
    ("$TIME_LIMIT", "持ち時間"),
    ("$OPENING", "戦型"),
];
