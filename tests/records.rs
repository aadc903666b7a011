//! The `specs/records/` corpus: every record parses, is summarised in a
//! snapshot, and reads back identically after being written as KIF, KI2 and
//! CSA (CSA: main line). Every file in `specs/records/bad/` gives a located
//! error (snapshotted), never a panic. Plus a round-trip property test over
//! random playouts in every format.

mod strategies;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use shogi_lab::notation::csa::{read_csa, write_csa};
use shogi_lab::notation::japanese::ki2_line;
use shogi_lab::notation::kif::{read_kif, write_kif, Flavor};
use shogi_lab::notation::record::{decode, EndWord, Ending, Line, Record, RecordMove};
use shogi_lab::notation::sfen::{parse_usi_position, write_sfen, write_usi_position};
use shogi_lab::rules::{Move, Position, Rules};
use std::fmt::Write as _;

fn read_any(path: &std::path::Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = decode(&bytes).map_err(|e| e.to_string())?;
    if path.extension().is_some_and(|e| e == "csa") {
        read_csa(&text).map_err(|e| e.to_string())
    } else {
        read_kif(&text).map(|r| vec![r]).map_err(|e| e.to_string())
    }
}

fn summarise_line(out: &mut String, line: &Line, start: &Position, depth: usize) {
    let moves: Vec<Move> = line.moves.iter().map(|m| m.mv).collect();
    let ind = "  ".repeat(depth);
    writeln!(out, "{ind}ki2: {}", ki2_line(start, &moves)).unwrap();
    writeln!(
        out,
        "{ind}usi: {}",
        moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    )
    .unwrap();
    if let Some(e) = &line.end {
        writeln!(out, "{ind}end: {} {:?}", e.word.kif(), e.time).unwrap();
    }
    if let Some(s) = &line.summary {
        writeln!(out, "{ind}summary: {s}").unwrap();
    }
    let mut pos = start.clone();
    for (i, rm) in line.moves.iter().enumerate() {
        if rm.time.is_some() || !rm.comments.is_empty() || rm.bookmark.is_some() {
            writeln!(
                out,
                "{ind}  [{}] time={:?} comments={:?} bookmark={:?}",
                i + 1,
                rm.time,
                rm.comments,
                rm.bookmark
            )
            .unwrap();
        }
        for v in &rm.variations {
            writeln!(out, "{ind}  variation replacing move index {i}:").unwrap();
            summarise_line(out, v, &pos, depth + 2);
        }
        pos.play_unchecked(rm.mv);
    }
}

fn summarise(rec: &Record) -> String {
    let mut out = String::new();
    writeln!(out, "headers: {:?}", rec.headers).unwrap();
    writeln!(out, "start: {}", write_sfen(&rec.start)).unwrap();
    writeln!(out, "first move number: {}", rec.first_move_number).unwrap();
    writeln!(out, "start comments: {:?}", rec.start_comments).unwrap();
    summarise_line(&mut out, &rec.main, &rec.start, 0);
    if !rec.header_comments.is_empty() {
        writeln!(out, "header comments: {:?}", rec.header_comments).unwrap();
    }
    writeln!(out, "trailer: {:?}", rec.trailer).unwrap();
    out
}

fn main_only(r: &Record) -> (String, Vec<Move>, Option<EndWord>) {
    (
        write_sfen(&r.start),
        r.main_moves(),
        r.main.end.map(|e| e.word),
    )
}

#[test]
fn corpus_parses_and_round_trips() {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::glob!("../specs/records", "*.{kif,kifu,ki2,csa}", |path| {
            let recs = read_any(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut snap = String::new();
            for (i, rec) in recs.iter().enumerate() {
                writeln!(snap, "=== game {}", i + 1).unwrap();
                snap.push_str(&summarise(rec));
                // KIF keeps everything (tree, times, comments, headers).
                let kif = write_kif(rec, Flavor::Kif);
                let back = read_kif(&kif).unwrap_or_else(|e| panic!("{}: re-read KIF: {e}\n{kif}", path.display()));
                assert_eq!(&back, rec, "KIF round trip of {}\n{kif}", path.display());
                // KI2 drops times only.
                let ki2 = write_kif(rec, Flavor::Ki2);
                let back = read_kif(&ki2).unwrap_or_else(|e| panic!("{}: re-read KI2: {e}\n{ki2}", path.display()));
                assert_eq!(main_only(&back), main_only(rec), "KI2 round trip of {}\n{ki2}", path.display());
                // CSA: main line.
                let csa = write_csa(rec);
                let back = read_csa(&csa).unwrap_or_else(|e| panic!("{}: re-read CSA: {e}\n{csa}", path.display()));
                assert_eq!(back.len(), 1);
                assert_eq!(main_only(&back[0]), main_only(rec), "CSA round trip of {}\n{csa}", path.display());
                if i == 0 {
                    writeln!(snap, "--- written as KIF:\n{kif}--- written as CSA:\n{csa}").unwrap();
                }
            }
            insta::assert_snapshot!(snap);
        });
    });
}

#[test]
fn malformed_corpus_gives_located_errors() {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::glob!("../specs/records/bad", "*", |path| {
            let e = read_any(path).expect_err("a malformed file must not parse");
            insta::assert_snapshot!(e);
        });
    });
}

fn playout(seed: u64, len: usize) -> (Position, Vec<Move>) {
    strategies::game(seed, len)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    /// Random games (with a branch at a random move) written as KIF, KI2, CSA and USI read back to the same moves.
    #[test]
    fn random_games_round_trip_in_every_format(seed in any::<u64>(), len in 1usize..160, branch_seed in any::<u64>()) {
        let (start, moves) = playout(seed, len);
        let mut rec = Record::from_moves(start.clone(), &moves);
        rec.main.end = Some(Ending { word: EndWord::Resign, time: None });
        // A branch replacing a random move: another random continuation from there.
        let k = (branch_seed as usize) % moves.len();
        let mut p = start.clone();
        for m in &moves[..k] { p.play_unchecked(*m); }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(branch_seed);
        let mut var = Vec::new();
        for _ in 0..(branch_seed % 7 + 1) {
            let legal = p.legal_moves();
            if legal.is_empty() { break; }
            let m = legal[rng.gen_range(0..legal.len())];
            p.play_unchecked(m);
            var.push(RecordMove::new(m));
        }
        if !var.is_empty() {
            rec.main.moves[k].variations.push(Line { moves: var, end: None, summary: None });
        }
        let kif = write_kif(&rec, Flavor::Kif);
        prop_assert_eq!(&read_kif(&kif).map_err(|e| TestCaseError::fail(e.to_string()))?, &rec, "{}", kif);
        let ki2 = write_kif(&rec, Flavor::Ki2);
        prop_assert_eq!(&read_kif(&ki2).map_err(|e| TestCaseError::fail(e.to_string()))?, &rec, "{}", ki2);
        let csa = write_csa(&rec);
        let back = read_csa(&csa).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back[0].main_moves(), moves.clone());
        let usi = write_usi_position(&start, &moves);
        prop_assert_eq!(parse_usi_position(&usi, Rules::STANDARD).map_err(|e| TestCaseError::fail(e.to_string()))?.moves, moves);
    }
}
