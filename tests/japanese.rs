//! Japanese move notation: the 連盟 disambiguation table (insta snapshot) and
//! a Move → text → Move round trip on random playouts (proptest).

mod strategies;

use proptest::prelude::*;
use shogi_lab::notation::japanese::{ki2_move, kif_move, parse_and_resolve};
use shogi_lab::notation::sfen::parse_position;
use shogi_lab::rules::{Move, Position, Rules, Square};

/// (description, SFEN, destination square in USI) — positions where 2–4 pieces of one kind reach one square.
const TABLE: &[(&str, &str, &str)] = &[
    (
        "startpos: two golds to 5八",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "5h",
    ),
    (
        "four golds 2二 3一 2三 3三 to 3二",
        "k5G2/7G1/6GG1/9/9/9/9/9/K8 b - 1",
        "3b",
    ),
    (
        "three golds 6三 5三 4三 to 5二 (左 直 右)",
        "k8/9/3GGG3/9/9/9/9/9/K8 b - 1",
        "5b",
    ),
    (
        "golds 6五 6六 5六 to 5五 (寄 左上 直)",
        "k8/9/9/9/3G5/3GG4/9/9/K8 b - 1",
        "5e",
    ),
    (
        "gold straight up vs straight back: 5六 5四 4六 to 5五",
        "k8/9/9/4G4/9/4GG3/9/9/K8 b - 1",
        "5e",
    ),
    (
        "four silvers 6四 4四 6六 5六 to 5五",
        "k8/9/9/3S1S3/9/3SS4/9/9/K8 b - 1",
        "5e",
    ),
    (
        "knights 7七 5七 to 6五",
        "k8/9/9/9/9/9/2N1N4/9/K8 b - 1",
        "6e",
    ),
    (
        "dragons 1三 2二 to 2四 (Wikipedia 棋譜)",
        "k8/7+R1/8+R/9/9/9/9/9/K8 b - 1",
        "2d",
    ),
    (
        "horses 9一 8一 to 8二",
        "+B+B7/9/9/9/8k/9/9/9/K8 b - 1",
        "8b",
    ),
    (
        "rooks 8八 2八 to 5八",
        "k8/9/9/9/9/9/9/1R5R1/K8 b - 1",
        "5h",
    ),
    (
        "bishops 7七 3七 to 5五",
        "4k4/9/9/9/9/9/2B3B2/9/K8 b - 1",
        "5e",
    ),
    (
        "tokin 6六 5六 4六 to 5五",
        "k8/9/9/9/9/3+P+P+P3/9/9/K8 b - 1",
        "5e",
    ),
    (
        "gold on board and in hand to 5七 (打)",
        "k8/9/9/9/9/9/9/4G4/K8 b G 1",
        "5g",
    ),
    (
        "gote golds 6七 5七 4七 to 5八 (Gote's view)",
        "k8/9/9/9/9/9/3ggg3/9/K8 w - 1",
        "5h",
    ),
    (
        "gote silvers 6六 4六 to 5七 (Gote's view)",
        "k8/9/9/9/9/3s1s3/9/9/K8 w - 1",
        "5g",
    ),
    (
        "silver 7四 to 7三: 成 and 不成",
        "k8/9/9/2S6/9/9/9/9/K8 b - 1",
        "7c",
    ),
];

fn sq(usi: &str) -> Square {
    let b = usi.as_bytes();
    Square::new(b[0] - b'0', b[1] - b'a' + 1).expect("square")
}

#[test]
fn disambiguation_table() {
    let mut out = String::new();
    for (desc, sfen, to) in TABLE {
        let p = parse_position(sfen, Rules::TSUME).expect(sfen);
        let to = sq(to);
        out.push_str(&format!("## {desc}\n{sfen}\n"));
        let mut moves: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|m| m.to() == to)
            .collect();
        moves.sort_by_key(|m| m.to_string());
        for m in moves {
            let k2 = ki2_move(&p, m, None);
            let kf = kif_move(&p, m, None);
            assert_eq!(parse_and_resolve(&p, &k2, None), Ok(m), "{k2}");
            assert_eq!(parse_and_resolve(&p, &kf, None), Ok(m), "{kf}");
            out.push_str(&format!("{m:<6} {k2:<10} {kf}\n"));
        }
        out.push('\n');
    }
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!("japanese_disambiguation", out);
    });
}

fn playout(seed: u64, len: usize) -> (Position, Vec<Move>) {
    strategies::game(seed, len)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Random playouts: every move written in KIF and KI2 (with 同 where it applies) reads back to itself.
    #[test]
    fn playout_moves_round_trip(seed in any::<u64>(), len in 1usize..200) {
        let (start, moves) = playout(seed, len);
        let mut p = start;
        let mut prev = None;
        for &m in &moves {
            for text in [ki2_move(&p, m, prev), kif_move(&p, m, prev)] {
                prop_assert_eq!(parse_and_resolve(&p, &text, prev), Ok(m), "{}", text);
            }
            p.play(m).expect("legal");
            prev = Some(m.to());
        }
    }
}
