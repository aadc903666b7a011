//! The standard handicaps (手合割): names, initial positions, and the name of a position.

use crate::notation::sfen::parse_setup;
use crate::rules::{Position, Setup};

/// The standard handicaps (手合割) and their initial positions (上手 = Gote moves first).
pub const HANDICAPS: [(&str, &str); 18] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    ("歩三兵", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1"),
    ("裸玉", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
];
/// The setup for a 手合割 name (empty = 平手); `None` if it is not a standard one.
pub(super) fn handicap_setup(name: &str) -> Option<Setup> {
    let name = name.trim();
    let name = if name == "平手" || name.is_empty() {
        "平手"
    } else {
        name
    };
    HANDICAPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| parse_setup(s).expect("built-in handicap SFEN"))
}

/// The handicap name whose position this is (for writing 手合割).
pub fn handicap_name(pos: &Position) -> Option<&'static str> {
    let setup = pos.to_setup();
    HANDICAPS.iter().find_map(|(n, s)| {
        let mut h = parse_setup(s).expect("built-in handicap SFEN");
        h.move_number = setup.move_number;
        (h == setup).then_some(*n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::kif::position_from_setup;

    #[test]
    fn handicap_positions_are_legal_and_named() {
        for (name, sfen) in HANDICAPS {
            let s = parse_setup(sfen).unwrap();
            let p = position_from_setup(s).unwrap();
            assert_eq!(handicap_name(&p), Some(name));
        }
    }
}
