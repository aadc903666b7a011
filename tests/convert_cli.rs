//! `shogi-lab convert` through the built binary: the session-33 audit's defects
//! (multi-game KIF/KI2, the UTF-8 `#KIF` header, outcomes from end words, JKF times,
//! presets and end codes, reported losses, JKF input).

mod support;

use std::process::Command;
use support::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_shogi-lab");

fn run_in(args: &[&str], stdin: &[u8]) -> support::Finished {
    support::run_command(Command::new(BIN).args(args), stdin)
}

fn run(args: &[&str]) -> support::Finished {
    run_in(args, b"")
}

fn stdout(o: &support::Finished) -> String {
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

/// Exit `code` with exactly one `shogi-lab: …` line on stderr, containing `needle`.
#[track_caller]
fn one_line(o: &support::Finished, code: i32, needle: &str) {
    assert_eq!(o.code, code, "stderr: {}", o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "not one line: {:?}", o.stderr);
    assert!(lines[0].starts_with("shogi-lab: "), "{}", lines[0]);
    assert!(lines[0].contains(needle), "{:?} lacks {needle:?}", lines[0]);
}

#[test]
fn several_games_are_refused_as_kif_and_ki2_and_kept_by_the_others() {
    let tmp = TempDir::new("convert-cli");
    let usi = tmp.file(
        "two.usi",
        b"position startpos moves 7g7f\nposition startpos moves 2g2f\n",
    );
    for input in ["specs/records/floodgate_style.csa", usi.as_str()] {
        for to in ["kif", "ki2"] {
            let o = run(&["convert", "--to", to, input]);
            one_line(&o, 2, "the input has 2 games");
            assert!(o.stderr.contains("csa, jkf or usi"), "{}", o.stderr);
            assert!(o.stdout.is_empty());
        }
        // --json holds one object a game, each with its own KIF text.
        let json = stdout(&run(&["convert", "--to", "kif", "--json", input]));
        assert_eq!(json.lines().count(), 2);
        let jkf = stdout(&run(&["convert", "--to", "jkf", input]));
        assert_eq!(jkf.lines().count(), 2);
        for to in ["csa", "usi"] {
            let text = stdout(&run(&["convert", "--to", to, input]));
            let back = stdout(&run_in(&["convert", "--to", "usi", "-"], text.as_bytes()));
            assert_eq!(
                back,
                stdout(&run(&["convert", "--to", "usi", input])),
                "{to}"
            );
        }
    }
}

#[test]
fn utf8_kif_and_ki2_start_with_the_encoding_header_and_read_back() {
    let tmp = TempDir::new("convert-cli");
    for input in [
        "specs/records/sjis_hirate_times.kif",
        "specs/records/nimaiochi.ki2",
        "specs/records/utf8_bom_branches.kifu",
    ] {
        for to in ["kif", "ki2"] {
            let text = stdout(&run(&["convert", "--to", to, input]));
            assert_eq!(
                text.lines().next(),
                Some("#KIF version=2.0 encoding=UTF-8"),
                "{input} --to {to}"
            );
            assert_eq!(
                text.matches("#KIF").count(),
                1,
                "{input} --to {to}:\n{text}"
            );
            let f = tmp.file(&format!("back.{to}"), text.as_bytes());
            assert_eq!(
                stdout(&run(&["convert", "--to", "usi", &f])),
                stdout(&run(&["convert", "--to", "usi", input])),
            );
        }
        // Shift_JIS output gets no UTF-8 header (an input's `#KIF` line is renamed).
        let o = run(&["convert", "--to", "kif", "--encoding", "shift_jis", input]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(!o.stdout.windows(5).any(|w| w == b"UTF-8"), "{input}");
    }
}

fn outcome(input: &str) -> String {
    let json = stdout(&run(&["convert", "--to", "usi", "--json", input]));
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    v["outcome"].to_string()
}

#[test]
fn json_outcome_follows_the_end_word() {
    // 4 moves then 投了: Sente, to move, resigned.
    assert_eq!(
        outcome("specs/records/utf8_bom_branches.kifu"),
        r#"{"reason":"resignation","result":"gote_win","winner":"gote"}"#
    );
    let tmp = TempDir::new("convert-cli");
    for (word, want) in [
        (
            "投了",
            r#"{"reason":"resignation","result":"sente_win","winner":"sente"}"#,
        ),
        (
            "切れ負け",
            r#"{"reason":"time_up","result":"sente_win","winner":"sente"}"#,
        ),
        (
            "反則勝ち",
            r#"{"reason":"illegal_move","result":"gote_win","winner":"gote"}"#,
        ),
        (
            "反則負け",
            r#"{"reason":"illegal_move","result":"sente_win","winner":"sente"}"#,
        ),
        (
            "千日手",
            r#"{"reason":"repetition","result":"draw","winner":null}"#,
        ),
        (
            "持将棋",
            r#"{"reason":"impasse","result":"draw","winner":null}"#,
        ),
        (
            "中断",
            r#"{"reason":"interrupted","result":"ongoing","winner":null}"#,
        ),
    ] {
        let kif = format!(
            "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 {word}\n"
        );
        let f = tmp.file("end.kif", kif.as_bytes());
        assert_eq!(outcome(&f), want, "{word}");
    }
    // No end word: the position decides.
    let f = tmp.file(
        "none.kif",
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".as_bytes(),
    );
    assert_eq!(
        outcome(&f),
        r#"{"reason":null,"result":"ongoing","winner":null}"#
    );
}

fn jkf(input: &str) -> Vec<serde_json::Value> {
    stdout(&run(&["convert", "--to", "jkf", input]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn jkf_totals_are_running_sums_of_csa_times() {
    let games = jkf("specs/records/floodgate_style.csa");
    // Game 1: T3 T2.5 T1 T4 T10 T0 T12 T1 T2 T5 T3 (whole seconds as read).
    let totals: Vec<u64> = games[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.get("time"))
        .map(|t| {
            let t = &t["total"];
            t["h"].as_u64().unwrap() * 3600
                + t["m"].as_u64().unwrap() * 60
                + t["s"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(totals, [3, 2, 4, 6, 14, 6, 26, 7, 28, 12, 31]);
    // A record without times has none in JKF.
    let games = jkf("specs/records/nimaiochi.ki2");
    assert!(games[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m.get("time").is_none()));
    // KIF's own running totals are kept.
    let games = jkf("specs/records/utf8_bom_branches.kifu");
    assert_eq!(games[0]["moves"][3]["time"]["total"]["s"], 4);
}

#[test]
fn jkf_names_standard_handicaps_by_preset() {
    let games = jkf("specs/records/nimaiochi.ki2");
    assert_eq!(games[0]["initial"].to_string(), r#"{"preset":"2"}"#);
    let games = jkf("specs/records/floodgate_style.csa");
    assert_eq!(games[0]["initial"].to_string(), r#"{"preset":"HIRATE"}"#);
    assert_eq!(games[1]["initial"].to_string(), r#"{"preset":"2"}"#);
    // A diagram that is no handicap keeps its board.
    let games = jkf("specs/records/sjis_tsume_bod.kif");
    assert_eq!(games[0]["initial"]["preset"], "OTHER");
    assert!(games[0]["initial"]["data"]["board"].is_array());
}

#[test]
fn jkf_input_is_refused_in_one_short_line() {
    let tmp = TempDir::new("convert-cli");
    let text = stdout(&run(&[
        "convert",
        "--to",
        "jkf",
        "specs/records/utf8_bom_branches.kifu",
    ]));
    let f = tmp.file("t.jkf", text.as_bytes());
    let o = run(&["convert", "--to", "csa", &f]);
    one_line(&o, 2, "JKF (JSON) input is not supported");
    assert!(o.stderr.len() < 200, "{}", o.stderr);
    assert!(!o.stderr.contains("header"), "{}", o.stderr);
    let help = stdout(&run(&["convert", "--help"]));
    assert!(help.contains("JKF"), "{help}");
}

#[test]
fn end_codes_are_kept_where_the_target_has_them_and_noted_where_not() {
    let tmp = TempDir::new("convert-cli");
    // (command, JKF special, note for JKF, KIF word, note for KIF)
    for (cmd, special, jkf_note, kif_word, kif_note) in [
        (
            "%-ILLEGAL_ACTION",
            Some("-ILLEGAL_ACTION"),
            None,
            "反則負け",
            None,
        ),
        (
            "%+ILLEGAL_ACTION",
            Some("+ILLEGAL_ACTION"),
            None,
            "反則勝ち",
            None,
        ),
        (
            "%ERROR",
            Some("ERROR"),
            None,
            "中断",
            Some("KIF has no end word %ERROR: written 中断"),
        ),
        (
            "%MAX_MOVES",
            Some("HIKIWAKE"),
            Some("JKF has no end word %MAX_MOVES: written HIKIWAKE"),
            "手数制限",
            None,
        ),
    ] {
        let f = tmp.file(
            "end.csa",
            format!("V2.2\nPI\n+\n+7776FU\n{cmd}\n").as_bytes(),
        );
        let o = run(&["convert", "--to", "csa", &f]);
        assert!(stdout(&o).lines().any(|l| l == cmd), "{cmd}");
        assert_eq!(o.stderr, "", "{cmd}");
        let o = run(&["convert", "--to", "jkf", &f]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["moves"][2]["special"].as_str(), special, "{cmd}");
        match jkf_note {
            Some(n) => assert_eq!(o.stderr, format!("shogi-lab: note: {n}\n")),
            None => assert_eq!(o.stderr, "", "{cmd}"),
        }
        let o = run(&["convert", "--to", "kif", &f]);
        assert!(stdout(&o).contains(&format!("   2 {kif_word}\n")), "{cmd}");
        match kif_note {
            Some(n) => assert_eq!(o.stderr, format!("shogi-lab: note: {n}\n")),
            None => assert_eq!(o.stderr, "", "{cmd}"),
        }
    }
}

#[test]
fn what_a_target_cannot_hold_is_noted_once_a_kind() {
    let notes = |to: &str, input: &str| -> Vec<String> {
        let o = run(&["convert", "--to", to, input]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        o.stderr.lines().map(str::to_string).collect()
    };
    let kifu = "specs/records/utf8_bom_branches.kifu";
    // Branches, comments (1 on a move, 1 before it), times, headers, end word.
    assert_eq!(
        notes("usi", kifu),
        [
            "shogi-lab: note: USI has no 変化 branches: 2 branch(es) dropped, the main line written",
            "shogi-lab: note: USI has no comments: 2 dropped",
            "shogi-lab: note: USI has no header fields: 3 dropped",
            "shogi-lab: note: USI has no times: 4 dropped",
            "shogi-lab: note: USI has no end word %TORYO: dropped",
        ]
    );
    // JKF keeps branches, comments and times, not the しおり.
    assert_eq!(
        notes("jkf", kifu),
        ["shogi-lab: note: JKF has no しおり bookmarks: 1 dropped"]
    );
    assert_eq!(
        notes("csa", kifu),
        ["shogi-lab: note: CSA has no 変化 branches: 2 branch(es) dropped, the main line written"]
    );
    assert_eq!(notes("kif", kifu), Vec::<String>::new());
    // KI2 has no times; CSA no `#` lines and no まで summary.
    let times = "specs/records/sjis_hirate_times.kif";
    let ki2 = notes("ki2", times);
    assert_eq!(ki2.len(), 1, "{ki2:?}");
    assert!(
        ki2[0].starts_with("shogi-lab: note: KI2 has no times: "),
        "{ki2:?}"
    );
    let csa = notes("csa", times);
    assert!(
        csa.iter()
            .any(|n| n.contains("CSA has no `#` comment lines")),
        "{csa:?}"
    );
    assert!(
        csa.iter()
            .any(|n| n.contains("CSA has no `まで…` summary lines: 1 dropped")),
        "{csa:?}"
    );
}

#[test]
fn floodgate_quote_comments_are_kept_in_csa_and_noted_elsewhere() {
    let tmp = TempDir::new("convert-cli");
    let csa = "'CSA encoding=UTF-8\nV2.2\nN+a\nN-b\n'Max_Moves:256\nPI\n+\n'black_rate:a+0123:1500.0\n+7776FU\nT2\n-3334FU\n'between\n+2726FU\n%TORYO\n'summary:toryo:a win:b lose\n'$END_TIME:2024/05/01 12:10:00\n";
    let f = tmp.file("fg.csa", csa.as_bytes());
    let o = run(&["convert", "--to", "csa", &f]);
    let out = stdout(&o);
    assert_eq!(o.stderr, "");
    let quoted: Vec<&str> = out.lines().filter(|l| l.starts_with('\'')).collect();
    assert_eq!(
        quoted,
        [
            "'Max_Moves:256",
            "'black_rate:a+0123:1500.0",
            "'between",
            "'summary:toryo:a win:b lose",
            "'$END_TIME:2024/05/01 12:10:00",
        ],
        "{out}"
    );
    // In place: after the move read before it, the trailing ones after %TORYO.
    assert!(out.contains("-3334FU\n'between\n+2726FU\n"), "{out}");
    assert!(
        out.ends_with("%TORYO\n'summary:toryo:a win:b lose\n'$END_TIME:2024/05/01 12:10:00\n"),
        "{out}"
    );
    // Read back, the same text.
    let again = stdout(&run_in(&["convert", "--to", "csa", "-"], out.as_bytes()));
    assert_eq!(again, out);
    for to in ["kif", "jkf", "usi"] {
        let o = run(&["convert", "--to", to, &f]);
        assert!(
            o.stderr
                .lines()
                .any(|l| l.ends_with("has no CSA `'` comment lines: 5 dropped")),
            "{to}: {}",
            o.stderr
        );
    }
}

#[test]
fn fractional_csa_times_are_noted_as_truncated() {
    // floodgate_style.csa has one `T2.5`.
    for to in ["csa", "jkf"] {
        let o = run(&["convert", "--to", to, "specs/records/floodgate_style.csa"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_eq!(
            o.stderr,
            format!("shogi-lab: note: {} is written with whole seconds: 1 CSA time(s) with a fraction (T2.5) truncated\n", to.to_uppercase())
        );
    }
    // Whole seconds: no note.
    let o = run(&["convert", "--to", "csa", "specs/records/tsume_00AL.csa"]);
    assert_eq!(o.stderr, "");
}

/// KIF header fields CSA has no field for (表題, 作者) are noted when written as CSA; the
/// players and 手合割 are kept (N+, N-, PI).
#[test]
fn kif_headers_without_a_csa_field_are_noted() {
    let tmp = TempDir::new("convert-cli");
    let kif = tmp.file(
        "t.kif",
        "表題：テスト\n作者：誰か\n手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n"
            .as_bytes(),
    );
    let o = run(&["convert", "--to", "csa", &kif]);
    let out = stdout(&o);
    assert!(out.contains("N+a\nN-b\nPI\n"), "{out}");
    assert_eq!(
        o.stderr.trim_end(),
        "shogi-lab: note: CSA has no field for these header fields (表題, 作者, …): 2 dropped"
    );
}
