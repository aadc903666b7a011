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
use shogi_lab::notation::record::{
    decode, BoardRowError, EndWord, Ending, Line, Record, RecordErrorKind, RecordMove,
};
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
    if !rec.csa_comments.is_empty() {
        writeln!(out, "csa comments: {:?}", rec.csa_comments).unwrap();
    }
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
                // KIF keeps everything (tree, times, comments, headers)…
                let kif = write_kif(rec, Flavor::Kif);
                let back = read_kif(&kif).unwrap_or_else(|e| panic!("{}: re-read KIF: {e}\n{kif}", path.display()));
                // …but CSA's `'` comment lines and the count of fractional times
                // (`convert` notes both).
                let mut want = rec.clone();
                want.csa_comments.clear();
                want.truncated_times = 0;
                assert_eq!(back, want, "KIF round trip of {}\n{kif}", path.display());
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

/// A BOD diagram (Gote's king on ５一, a Sente pawn on ５三) with the given hands;
/// `skip_row` leaves one rank out.
fn bod(gote_hand: &str, sente_hand: &str, skip_row: Option<usize>) -> String {
    let mut s = format!(
        "後手の持駒：{gote_hand}\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
    );
    for (i, rank) in "一二三四五六七八九".chars().enumerate() {
        let row = match i {
            0 => " ・ ・ ・ ・v玉 ・ ・ ・ ・",
            2 => " ・ ・ ・ ・ 歩 ・ ・ ・ ・",
            _ => " ・ ・ ・ ・ ・ ・ ・ ・ ・",
        };
        if skip_row != Some(i) {
            writeln!(s, "|{row}|{rank}").unwrap();
        }
    }
    writeln!(s, "+---------------------------+\n先手の持駒：{sente_hand}").unwrap();
    s
}

fn kif_error(text: &str) -> (usize, RecordErrorKind) {
    let e = read_kif(text).expect_err("a malformed record must not parse");
    (e.line, e.kind)
}

#[test]
fn kif_header_part_errors_name_their_line() {
    // A diagram without nine rows: at the diagram's first line, whether moves follow or
    // not, naming the rank missing (not quoting an explanation as a line).
    let missing = bod("なし", "金", Some(4));
    let nine_rows = RecordErrorKind::BoardRow {
        column: None,
        error: BoardRowError::Missing { rank: 5 },
    };
    assert_eq!(
        nine_rows.to_string(),
        "the board has no row for rank 5 (every rank 1 to 9 must be given)"
    );
    assert_eq!(
        kif_error(&format!("{missing}   1 ５二金打\n")),
        (1, nine_rows.clone())
    );
    assert_eq!(kif_error(&missing), (1, nine_rows));
    // A rank given twice is refused at its second row, not overwritten.
    let twice = bod("なし", "金", None).replace(
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 飛 ・ ・ ・ ・|二\n",
    );
    assert_eq!(
        kif_error(&twice),
        (
            6,
            RecordErrorKind::BoardRow {
                column: None,
                error: BoardRowError::Repeated { rank: 2, first: 5 }
            }
        )
    );
    // An illegal diagram position: at the diagram's first line, not after it.
    let two_kings = bod("なし", "金", None).replace(" 歩 ・ ・ ・ ・|三", "v玉 ・ ・ ・ ・|三");
    let (line, kind) = kif_error(&format!("{two_kings}   1 ５二金打\n"));
    assert_eq!(line, 1);
    assert!(matches!(kind, RecordErrorKind::Position(_)), "{kind:?}");
    assert_eq!(
        kif_error(&bod("残り全部", "残りの駒全部", None)),
        (
            14,
            RecordErrorKind::BadHand("both hands are 残り全部".into())
        )
    );
    for hand in ["玉", "歩　歩", "歩十九", "歩〇", "象"] {
        assert_eq!(
            kif_error(&bod("残り全部", hand, None)),
            (14, RecordErrorKind::BadHand(hand.into())),
            "{hand}"
        );
    }
    assert_eq!(
        kif_error(&format!("{}手数＝十x\n", bod("残り全部", "金", None))),
        (15, RecordErrorKind::UnknownLine("手数＝十x".into()))
    );
    // An unknown 手合割 is reported at its own line, not where the header part ends.
    assert_eq!(
        kif_error("手合割：九枚落ち\n棋戦：x\n\n   1 ７六歩(77)\n"),
        (1, RecordErrorKind::UnknownHandicap("九枚落ち".into()))
    );
}

#[test]
fn kif_diagram_sets_side_hands_and_first_move_number() {
    // 残り全部 for Sente: every piece not on the board or in Gote's hand.
    let r = read_kif(&format!(
        "{}先手番\n手数＝十\n  11 ５二金打\n",
        bod("金二　銀", "残り全部", None)
    ))
    .unwrap();
    assert_eq!(r.first_move_number, 11);
    assert_eq!(
        write_sfen(&r.start),
        "4k4/9/4P4/9/9/9/9/9/9 b 2R2B2G3S4N4L17P2gs 1"
    );
    assert_eq!(r.main_moves().len(), 1);
    // A side line overrides the 手合割's side to move.
    let r = read_kif("手合割：平手\n後手番\n   1 ３四歩(33)\n").unwrap();
    assert_eq!(
        write_sfen(&r.start),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
}

/// Every standard 手合割 read from its header alone is its own position, hands included
/// (歩三兵 was read as 裸玉: Gote's three pawns were dropped), and written back as itself.
#[test]
fn kif_handicap_header_alone_gives_its_position_and_hands() {
    use shogi_lab::notation::kif::HANDICAPS;
    for (name, sfen) in HANDICAPS {
        let r = read_kif(&format!("手合割：{name}\n")).unwrap();
        assert_eq!(write_sfen(&r.start), *sfen, "{name}");
        let back = read_kif(&write_kif(&r, Flavor::Kif)).unwrap();
        assert_eq!(
            write_sfen(&back.start),
            *sfen,
            "{name} written and read back"
        );
    }
    let r = read_kif("手合割：歩三兵\n   1 ５二玉(51)\n").unwrap();
    assert_eq!(
        write_sfen(&r.start),
        "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1"
    );
}

#[test]
fn kif_comments_bookmarks_and_summary_before_any_move_are_kept() {
    let r = read_kif("手合割：平手\n*before\n&mark\n   1 ７六歩(77)\n*after\n&mk1\n").unwrap();
    assert_eq!(r.start_comments, ["before", "&mark"]);
    assert_eq!(r.main.moves[0].comments, ["after"]);
    assert_eq!(r.main.moves[0].bookmark.as_deref(), Some("mk1"));
    // A summary with no moves belongs to the (empty) main line.
    let r = read_kif("手合割：平手\nまで0手で中断\n").unwrap();
    assert!(r.main.moves.is_empty());
    assert_eq!(r.main.summary.as_deref(), Some("まで0手で中断"));
    // A summary then a move is refused even before the first move.
    let (line, kind) = kif_error("手合割：平手\nまで0手\n   1 ７六歩(77)\n");
    assert_eq!(line, 3);
    assert!(matches!(kind, RecordErrorKind::MoveAfterEnd(_)), "{kind:?}");
}

#[test]
fn kif_variation_errors_name_their_line() {
    assert_eq!(
        kif_error("手合割：平手\n変化：1手\n"),
        (2, RecordErrorKind::BadVariation(1))
    );
    assert_eq!(
        kif_error("手合割：平手\n   1 ７六歩(77)\n変化：x手\n"),
        (3, RecordErrorKind::UnknownLine("変化：x手".into()))
    );
    // A line holds moves up to its end word only.
    assert_eq!(
        kif_error("手合割：平手\n   1 ７六歩(77)\n   2 投了\n変化：2手\n"),
        (4, RecordErrorKind::BadVariation(2))
    );
    assert_eq!(
        kif_error("手合割：平手\n▲７六歩\n投了\n投了\n"),
        (4, RecordErrorKind::MoveAfterEnd("投了".into()))
    );
}

/// Kifu for Windows order: a 変化 on the first move of the current branch
/// branches from that branch's parent, as its next variation.
#[test]
fn kif_variation_of_a_branch_first_move_attaches_to_the_parent() {
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n変化：3手\n   3 ６八銀(79)\n変化：2手\n   2 ４四歩(43)\n変化：二手\n   2 ５四歩(53)\n";
    let r = read_kif(kif).unwrap();
    let vars = &r.main.moves[1].variations;
    let first: Vec<String> = vars.iter().map(|v| v.moves[0].mv.to_string()).collect();
    assert_eq!(first, ["8c8d", "4c4d", "5c5d"]);
    assert_eq!(
        vars[0].moves[1].variations[0].moves[0].mv.to_string(),
        "7i6h"
    );
    assert_eq!(read_kif(&write_kif(&r, Flavor::Kif)).unwrap(), r);
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

fn csa_error(text: &str) -> String {
    read_csa(text)
        .expect_err("a malformed CSA record must not parse")
        .to_string()
}

/// Every reason the CSA reader gives, at the line of the statement.
#[test]
fn csa_statement_errors_name_their_line_and_reason() {
    let cases = [
        // Headers and the initial position.
        ("N+a\n$EVENT\n", "line 2: bad field \"$EVENT\""),
        (
            "PI\n+\n+７７７６FU\n",
            "line 3: non-ASCII text in \"+７７７６FU\"",
        ),
        ("PI82HI2\n", "line 1: bad PI removals \"82HI2\""),
        ("PI00HI\n", "line 1: bad square in PI \"00HI\""),
        ("PI82XX\n", "line 1: bad piece in PI \"82XX\""),
        (
            "PI82KA\n",
            "line 1: PI removes \"82KA\" but that square does not hold it",
        ),
        ("P1xKY\n", "line 1: bad square \"xKY\""),
        ("P1-KX\n", "line 1: bad piece \"-KX\""),
        ("P+5\n", "line 1: bad placement \"P+5\""),
        ("P+5AFU\n", "line 1: bad square \"5AFU\""),
        ("P+59AL\n", "line 1: AL must be given as 00AL"),
        ("P+00OU\n", "line 1: \"00OU\" cannot be in hand"),
        ("P+00XX\n", "line 1: bad piece \"00XX\""),
        (
            "+\n",
            "line 1: a move or side before any position (PI, P1…P9 or P+/P-)",
        ),
        (
            "PI\n+\n+7776FU\n-\n",
            "line 4: side to move after the moves began",
        ),
        // After the first move, `P+…` is no placement.
        (
            "PI\n+\n+7776FU\nP+00FU\n",
            "line 4: unrecognised line \"P+00FU\"",
        ),
        ("PI\n+\nX\n", "line 3: unrecognised line \"X\""),
        // Times and end commands.
        ("PI\n+\nT3\n", "line 3: a time before any move"),
        ("PI\n+\n+7776FU\nTx\n", "line 4: bad time \"Tx\""),
        ("PI\n+\n+7776FU\nT1e10\n", "line 4: bad time \"T1e10\""),
        ("PI\n+\n%FOO\n", "line 3: unknown end command \"%FOO\""),
        (
            "PI\n+\n%TORYO\n%CHUDAN\n",
            "line 4: second end command \"%CHUDAN\"",
        ),
        (
            "%TORYO\n",
            "line 1: a move or side before any position (PI, P1…P9 or P+/P-)",
        ),
        // Moves, each with its number.
        (
            "PI\n+\n+7776F\n",
            "line 3: move 1 \"+7776F\": not of the form +7776FU",
        ),
        ("PI\n+\n-3334FU\n", "line 3: move 1 \"-3334FU\": wrong side"),
        ("PI\n+\n+7A76FU\n", "line 3: move 1 \"+7A76FU\": bad origin"),
        (
            "PI\n+\n+7700FU\n",
            "line 3: move 1 \"+7700FU\": bad destination",
        ),
        ("PI\n+\n+7776FV\n", "line 3: move 1 \"+7776FV\": bad piece"),
        (
            "PI\n+\n+5556FU\n",
            "line 3: move 1 \"+5556FU\": no piece on the origin",
        ),
        (
            "PI\n+\n+7776KI\n",
            "line 3: move 1 \"+7776KI\": the piece does not match the origin",
        ),
        (
            "PI\n+\n+7776FU,-3334FU,+2725FU\n",
            "line 3: move 3 \"+2725FU\": illegal",
        ),
        (
            "PI\n+\n+7776FU\n%TORYO\n-3334FU\n",
            "line 5: move after the end of the line (-3334FU)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(csa_error(text), want, "{text:?}");
    }
}

/// `PI` removals, `P1`…`P9` rows (trailing blanks trimmed), `P+`/`P-`
/// placements with `00AL`, the side to move, names and `$` fields.
#[test]
fn csa_position_statements_give_the_initial_position() {
    let r =
        &read_csa("V3.0\nVx\nN+a\nN-b\n$EVENT:e\n$FOO:f:g\nPI82HI22KA\n-\n-5142OU\n").unwrap()[0];
    assert_eq!(
        r.headers,
        [("先手", "a"), ("後手", "b"), ("棋戦", "e"), ("$FOO", "f:g")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
    );
    assert_eq!(
        write_sfen(&r.start),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // Only the trailing blanks of the last ` * ` may be missing.
    let empty = " * ".repeat(9);
    let rows = format!(
        "P1{e4}-OU{e4}\nP2{empty}\nP3{e4}+FU{e4}\nP4{empty}\nP5{empty}\nP6{empty}\nP7{empty}\nP8{empty}\nP9{e4}+OU *  *  *  *\n",
        e4 = " * ".repeat(4)
    );
    let r = &read_csa(&format!("{rows}P+00KI00KI\nP-00AL\n")).unwrap()[0];
    assert_eq!(
        write_sfen(&r.start),
        "4k4/9/4P4/9/9/9/9/9/4K4 b 2G2r2b2g4s4n4l17p 1"
    );
    let r = &read_csa("P-51OU\nP+59OU53FU00KI\nP+00AL\n-\n").unwrap()[0];
    assert_eq!(
        write_sfen(&r.start),
        "4k4/9/4P4/9/9/9/9/9/4K4 w 2R2B4G4S4N4L17P 1"
    );
}

/// Every end command, the fouler of `%±ILLEGAL_ACTION`, and where a time goes:
/// to the last move, or to the end command once there is one.
#[test]
fn csa_end_commands_and_times_attach_where_read() {
    let words = [
        ("%TORYO", EndWord::Resign),
        ("%CHUDAN", EndWord::Interrupt),
        ("%SENNICHITE", EndWord::Repetition),
        ("%JISHOGI", EndWord::Impasse),
        ("%TSUMI", EndWord::Mate),
        ("%FUZUMI", EndWord::NoMate),
        ("%TIME_UP", EndWord::TimeUp),
        ("%ILLEGAL_MOVE", EndWord::IllegalLoss),
        ("%KACHI", EndWord::EnteringKing),
        ("%MATTA", EndWord::Matta),
        ("%HIKIWAKE", EndWord::Draw),
        ("%MAX_MOVES", EndWord::MaxMoves),
        ("%ERROR", EndWord::Error),
        // Gote is to move after +7776FU: Gote fouled and lost, or Sente did and Gote won.
        ("%-ILLEGAL_ACTION", EndWord::IllegalAction),
        ("%+ILLEGAL_ACTION", EndWord::IllegalWin),
        ("%ILLEGAL_ACTION", EndWord::IllegalWin),
    ];
    for (cmd, word) in words {
        let r = &read_csa(&format!("PI\n+\n+7776FU\nT2.9\n{cmd}\nT5\n")).unwrap()[0];
        let end = r.main.end.expect("an end");
        assert_eq!(end.word, word, "{cmd}");
        assert_eq!(end.time.map(|t| t.this), Some(5), "{cmd}");
        assert_eq!(r.main.moves[0].time.map(|t| t.this), Some(2), "{cmd}");
        // Written back as CSA, the command is the same (a bare `%ILLEGAL_ACTION` gets
        // the fouler's sign).
        let written = if cmd == "%ILLEGAL_ACTION" {
            "%+ILLEGAL_ACTION"
        } else {
            cmd
        };
        assert!(
            write_csa(r).lines().any(|l| l == written),
            "{cmd}:\n{}",
            write_csa(r)
        );
    }
}
