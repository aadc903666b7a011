//! Issue 15's reproducers, run through the built binary: every bad input is exit 2 with
//! one line on stderr (never a panic, an abort or a silent exit 0), limits end with
//! exit 1 and one line, and the fixed records behave as documented.

mod support;

use std::process::Command;
use support::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_shogi-lab");

type Out = support::Finished;

fn run_in(args: &[&str], stdin: &[u8], shell_prefix: Option<&str>) -> Out {
    let mut cmd = match shell_prefix {
        // Run under a shell limit (`ulimit -v …`), so that a missing bound fails the test
        // instead of taking the machine's memory.
        Some(prefix) => {
            let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("{prefix}; exec '{BIN}' {}", quoted.join(" ")));
            c
        }
        None => {
            let mut c = Command::new(BIN);
            c.args(args);
            c
        }
    };
    support::run_command(&mut cmd, stdin)
}

fn run(args: &[&str]) -> Out {
    run_in(args, b"", None)
}

/// Exit `code` with exactly one `shogi-lab: …` line on stderr, containing `needle`.
#[track_caller]
fn one_line(o: &Out, code: i32, needle: &str) {
    assert_eq!(o.code, code, "stderr: {}", o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "not one line: {:?}", o.stderr);
    assert!(lines[0].starts_with("shogi-lab: "), "{}", lines[0]);
    assert!(lines[0].contains(needle), "{:?} lacks {needle:?}", lines[0]);
}

const ONE_PLY: &str = "8k/9/8P/9/9/9/9/9/9 b G 1";

#[test]
fn item_1_time_must_be_finite() {
    for t in ["--time=NaN", "--time=inf", "--time=1e20", "--time=-1"] {
        one_line(&run(&["tsume", ONE_PLY, t]), 2, "finite number of seconds");
    }
}

#[test]
fn item_2_memory_requests_are_checked_never_aborted() {
    one_line(
        &run(&["tsume", ONE_PLY, "--memory", "1000000000"]),
        2,
        "--memory",
    );
    // Under `ulimit -v` (2 GB), a 3 GB table is refused before it is allocated.
    let o = run_in(
        &["tsume", ONE_PLY, "--memory", "3000"],
        b"",
        Some("ulimit -v 2000000"),
    );
    one_line(&o, 2, "MiB requested");
    // The sweep stops at its limit with exit 1 (the reproducer grows past 3 GB unbounded).
    let o = run_in(
        &["place", "+R2+B2B2", "--count", "--sweep", "--memory", "64"],
        b"",
        Some("ulimit -v 3000000"),
    );
    one_line(&o, 1, "memory limit of 64 MiB");
    // The search's tail memo is bounded by --memory too; a full memo only stops
    // remembering, so the count is the same under 1 MiB.
    let o = run(&[
        "place",
        "--count",
        "--json",
        "--memory",
        "1",
        "P18L4N3S4G4K2R2B2",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("\"count\":3124954,"));
    one_line(
        &run(&["place", "--count", "--memory", "16000000", "K2G2"]),
        2,
        "--memory: 16000000 MiB requested",
    );
}

#[test]
fn item_3_empty_records_are_refused() {
    let tmp = TempDir::new("cli-errors");
    for (name, text) in [("e.kif", ""), ("e.csa", ""), ("v.csa", "V2.2\n")] {
        one_line(
            &run(&["convert", "--to", "usi", &tmp.file(name, text.as_bytes())]),
            2,
            "no record",
        );
    }
}

#[test]
fn item_4_quantum_replay_refuses_bad_records_with_exit_2() {
    let tmp = TempDir::new("cli-errors");
    one_line(
        &run(&["quantum", "replay", &tmp.file("empty.txt", b"")]),
        2,
        "empty file",
    );
    one_line(
        &run(&["quantum", "replay", &tmp.file("empty.json", b"  \n")]),
        2,
        "empty file",
    );
    // Our own format, with a move that is not legal at ply 1.
    let bad = "# shogi-lab quantum record\nvariant standard\n1 5a5b ☗5二量子\nresult none\n";
    let o = run(&["quantum", "replay", &tmp.file("bad.txt", bad.as_bytes())]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
    // shogitter JSON: a kind that does not exist.
    let room = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/specs/quantum/room-9168.json"
    ))
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&room).unwrap();
    *v.pointer_mut("/record/kifu/0/move/1/3/1").unwrap() = "zz".into();
    let zz = v.to_string();
    one_line(
        &run(&["quantum", "replay", &tmp.file("zz.json", zz.as_bytes())]),
        2,
        "ply 1",
    );
    let o = run(&["quantum", "replay", "specs/quantum/room-9168.json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn item_6_floodgate_comments_after_a_comma() {
    let tmp = TempDir::new("cli-errors");
    let csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%KACHI,'* -5000 win\n";
    let o = run(&[
        "convert",
        "--to",
        "usi",
        &tmp.file("fg.csa", csa.as_bytes()),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap().trim(),
        "position startpos moves 7g7f 3c3d"
    );
}

#[test]
fn item_7_convert_notes_dropped_branches_and_writes_shift_jis() {
    let tmp = TempDir::new("cli-errors");
    let o = run(&[
        "convert",
        "--to",
        "csa",
        "specs/records/utf8_bom_branches.kifu",
    ]);
    assert_eq!(o.code, 0);
    assert!(o.stderr.contains("2 branch(es) dropped"), "{}", o.stderr);
    let o = run(&[
        "convert",
        "--to",
        "kif",
        "--encoding",
        "shift_jis",
        "specs/records/sjis_hirate_times.kif",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        std::str::from_utf8(&o.stdout).is_err(),
        "Shift_JIS output is not UTF-8"
    );
    // Read back, it is the same game.
    let back = run_in(&["convert", "--to", "usi", "-"], &o.stdout, None);
    let direct = run(&[
        "convert",
        "--to",
        "usi",
        "specs/records/sjis_hirate_times.kif",
    ]);
    assert_eq!(back.stdout, direct.stdout);
    one_line(
        &run(&[
            "convert",
            "--to",
            "jkf",
            "--encoding",
            "shift_jis",
            "specs/records/sjis_hirate_times.kif",
        ]),
        2,
        "UTF-8 only",
    );
    // An illegal start position is named in words.
    let kif = "手合割：平手\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・v歩|九\n+---------------------------+\n先手の持駒：なし\n";
    let o = run(&[
        "convert",
        "--to",
        "usi",
        &tmp.file("dead.kif", kif.as_bytes()),
    ]);
    one_line(&o, 2, "Gote's 歩 (p) on 1i");
    assert!(!o.stderr.contains("Piece {"), "{}", o.stderr);
}

#[test]
fn item_8_errors_are_one_line() {
    let tmp = TempDir::new("cli-errors");
    // Echoed input is escaped.
    one_line(&run(&["tsume", "startpos\r\n"]), 2, "startpos\\r\\n");
    // clap's usage errors, one line; --help stays as it is.
    one_line(
        &run(&["tsume", "--bogus", "x"]),
        2,
        "unexpected argument '--bogus'",
    );
    one_line(&run(&["tsume"]), 2, "<INPUT>");
    // A negative number is a value the option rejects, not an unknown flag `-1`.
    one_line(
        &run(&["tsume", "8k/9/8P/9/9/9/9/9/9 b G 1", "--nodes", "-1"]),
        2,
        "invalid value '-1' for '--nodes <NODES>'",
    );
    one_line(
        &run(&["perft", "startpos", "-1"]),
        2,
        "invalid value '-1' for '<DEPTH>'",
    );
    one_line(
        &run(&["place", "--count", "--first", "P"]),
        2,
        "cannot be used with",
    );
    let help = run(&["tsume", "--help"]);
    assert_eq!(help.code, 0);
    assert!(String::from_utf8(help.stdout).unwrap().lines().count() > 10);
    // Empty files, directories and binary records.
    one_line(&run(&["tsume", "/dev/null"]), 2, "no problems");
    let dir = std::env::temp_dir().display().to_string();
    one_line(&run(&["tsume", &dir]), 2, "is a directory");
    one_line(&run(&["moves", &dir]), 2, "is a directory");
    one_line(
        &run(&["convert", "--to", "usi", "specs/records/bad/not_text.kif"]),
        2,
        "specs/records/bad/not_text.kif:1:5: not a text record",
    );
    one_line(
        &run(&["tsume", &tmp.file("bad.sfen", b"\xff\xfe\n")]),
        2,
        "bad.sfen:1:1: not UTF-8",
    );
    // `moves` reads the `id<TAB>SFEN` lines `tsume` reads.
    let o = run(&[
        "moves",
        &tmp.file(
            "ids.sfen",
            b"# c\nstart\tlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
        ),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with("start\t"), "{out}");
    assert_eq!(
        out.trim_end()
            .rsplit('\t')
            .next()
            .unwrap()
            .split(' ')
            .count(),
        30
    );
}

/// Every input error is one line `PATH:LINE:COL: message` (`PATH:LINE:` without a
/// column, `PATH:` without a place; `<stdin>`, `<argument>`): the malformed record
/// corpus and one input of each kind, as the user reads them.
#[test]
fn item_8_input_errors_render_as_path_line_col() {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::glob!("../specs/records/bad", "*.{kif,ki2,csa}", |path| {
            let rel = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap()
                .display()
                .to_string();
            let o = run(&["convert", "--to", "usi", &rel]);
            assert_eq!(o.code, 2, "{}", o.stderr);
            assert!(o.stderr.starts_with(&format!("shogi-lab: {rel}:")), "{}", o.stderr);
            insta::assert_snapshot!(o.stderr.trim_end());
        });
    });
    let x = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1";
    let mut lines = Vec::new();
    let mut case = |args: &[&str], stdin: &str| {
        let o = run_in(args, stdin.as_bytes(), None);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert_eq!(o.stderr.lines().count(), 1, "{args:?}: {}", o.stderr);
        let shown: Vec<String> = args
            .iter()
            .map(|a| match a.contains(' ') {
                true => format!("{a:?}"),
                false => a.to_string(),
            })
            .collect();
        lines.push(format!(
            "$ {}{}\n{}",
            if stdin.is_empty() {
                String::new()
            } else {
                format!("printf {stdin:?} | ")
            },
            shown.join(" "),
            o.stderr.trim_end()
        ));
    };
    case(&["tsume", "-"], &format!("# comment\nz-1\t{x}\n"));
    case(&["moves", "-"], &format!("{x}\n"));
    case(&["tsume", "8k/9/8P/9/9/9/9/9/9 b G x"], "");
    case(&["perft", "startpos moves 7g7f 3c3d 7g7f", "1"], "");
    case(
        &["convert", "--to", "usi", "-"],
        "position startpos moves 7g7f 7g7g\n",
    );
    case(&["place", "--count", "P18L4X"], "");
    case(
        &[
            "quantum",
            "converge",
            "K R B G S N L P K R B G S N L P K R B Z",
        ],
        "",
    );
    case(&["quantum", "converge", "K", "R"], "");
    case(
        &["quantum", "replay", "specs/records/bad/unknown_line.kif"],
        "",
    );
    case(
        &["check-certificate", "specs/records/bad/unknown_line.kif"],
        "",
    );
    case(&["tsume", "specs/no-such-file"], "");
    case(&["tsume", "-"], "");
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("input_errors", lines.join("\n"));
    });
}

#[test]
fn item_9_tsume_and_moves_stream_stdin() {
    let tmp = TempDir::new("cli-errors");
    // Lines are answered as they come: a problem file on stdin with a bad last line
    // still answers the first problems before exit 2.
    let input = format!("a\t{ONE_PLY}\nb\t{ONE_PLY}\nc\tnot a sfen\n");
    let o = run_in(&["tsume", "-", "--json"], input.as_bytes(), None);
    assert_eq!(o.code, 2, "{}", o.stderr);
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.lines().nth(2).unwrap().contains("\"result\":\"error\""));
    let o = run_in(&["moves", "-"], b"not a position\n", None);
    one_line(&o, 2, "<stdin>:1:1: the board has 1 rank, expected 9");
    let o = run_in(
        &["moves", "-"],
        b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // A shard of a pipe is the same block as a shard of the file.
    let three = format!("a\t{ONE_PLY}\nb\t{ONE_PLY}\nc\t{ONE_PLY}\n");
    let piped = run_in(
        &["tsume", "-", "--json", "--shard", "1/2"],
        three.as_bytes(),
        None,
    );
    let file = run(&[
        "tsume",
        &tmp.file("three.sfen", three.as_bytes()),
        "--json",
        "--shard",
        "1/2",
    ]);
    assert_eq!(piped.code, 0);
    let ids = |o: &Out| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split('"').nth(3).unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&piped), ids(&file));
    assert!(!ids(&file).is_empty());
}

#[test]
fn item_10_experiments_out_is_checked_before_running() {
    let tmp = TempDir::new("cli-errors");
    let file = tmp.file("not-a-dir", b"x");
    let o = run(&["experiments", "placement", "--out", &format!("{file}/sub")]);
    one_line(&o, 2, "--out");
}

#[test]
fn item_11_a_contradiction_is_an_answer_for_converge_and_observe() {
    let world = "BR BK RK BRK * * * * * * * * * * * * * * * *";
    let c = run(&["quantum", "converge", world]);
    let o = run(&["quantum", "observe", "--seed", "1", world, "0"]);
    assert_eq!((c.code, o.code), (0, 0), "{} {}", c.stderr, o.stderr);
    assert_eq!(c.stdout, o.stdout);
    let p = run(&["quantum", "probabilities", "--json", world]);
    assert_eq!(p.code, 0);
    assert!(String::from_utf8(p.stdout)
        .unwrap()
        .starts_with("{\"worlds\":\"0\""));
}

#[test]
fn item_12_place_refuses_zero_counts_and_answers_sets_beyond_shogi() {
    one_line(
        &run(&["place", "P0"]),
        2,
        "count must be a number from 1 to 81",
    );
    one_line(&run(&["place", "--count", "K2P0"]), 2, "count must be");
    let o = run(&["place", "--count", "--json", "K3"]);
    assert_eq!(o.code, 0);
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("\"count\":65240"));
}

/// A perft depth the stack could not hold (100 000 aborted with a stack overflow) is an
/// input error, for the rules core's perft and the quantum game's.
#[test]
fn perft_depths_are_bounded() {
    one_line(&run(&["perft", "startpos", "100000"]), 2, "not in 0..=1000");
    one_line(&run(&["quantum", "perft", "1001"]), 2, "not in 0..=1000");
    let o = run(&["perft", "startpos", "2", "--json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("\"nodes\":900"));
}

/// A depth whose count would pass 2^64 − 1 is refused at once (exit 2, one line naming
/// the limit, the reason and the deepest depth within it), not counted for ever (`perft
/// startpos 99` ran until killed; here under a 20 s CPU limit, so that it fails instead).
/// A tree that does not grow is counted at any depth.
#[test]
fn perft_depths_beyond_reach_are_refused_at_once() {
    let limited = |args: &[&str]| run_in(args, b"", Some("ulimit -t 20"));
    for (args, deepest) in [
        (&["perft", "startpos", "99"][..], 13),
        (&["perft", "startpos", "14", "--divide", "--json"][..], 13),
        (&["quantum", "perft", "9"][..], 8),
    ] {
        let o = limited(args);
        one_line(
            &o,
            2,
            "is beyond reach: its count would pass 2^64 - 1 = 18446744073709551615",
        );
        assert!(
            o.stderr.trim_end().ends_with(&format!(
                "585 years at 10^9 a second; the deepest depth under that limit here is {deepest}"
            )),
            "{args:?}: {}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // The attacker of this tsume-shaped position has nothing to move: no leaves at any depth.
    let o = limited(&["perft", "4k4/9/9/9/9/9/9/9/9 b - 1", "1000", "--json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(String::from_utf8(o.stdout).unwrap().contains("\"nodes\":0"));
    // A depth within reach is counted as before.
    let o = limited(&["perft", "startpos", "3", "--divide"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("nodes 25470\n"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains(": ")).count(),
        30,
        "{text}"
    );
}

/// `show --svg`: a path that cannot take a file is bad input (exit 2, before anything is
/// written); a write that fails where the path could take one is output that could not be
/// written (exit 3, README's exit codes).
#[test]
fn show_svg_bad_paths_and_failed_writes() {
    let dir = TempDir::new("show-svg");
    let missing = dir.path().join("no-such-dir").join("x.svg");
    let o = run(&["show", "startpos", "--svg", missing.to_str().unwrap()]);
    one_line(&o, 2, "no directory");
    let o = run(&["show", "startpos", "--svg", dir.path().to_str().unwrap()]);
    one_line(&o, 2, "not a regular file");
    // /proc takes no new files, whoever runs the test (root included).
    if std::path::Path::new("/proc/self").exists() {
        let o = run(&["show", "startpos", "--svg", "/proc/shogi-lab-test.svg"]);
        one_line(&o, 3, "cannot write");
    }
}

/// `place --count` of a set whose count passes 2^64 (P18N3): no answer (exit 1, one
/// line), by the search and by the sweep, never a wrapped number with exit 0.
#[test]
fn place_counts_past_2_pow_64_are_no_answer() {
    for extra in [None, Some("--sweep")] {
        let mut args = vec!["place", "--count", "P18N3"];
        args.extend(extra);
        let o = run(&args);
        one_line(&o, 1, "does not fit in 64 bits");
        assert!(o.stdout.is_empty(), "{:?}", o.stdout);
    }
}

/// `place --first --node-limit 0` is refused (exit 2, one line), as `--memory 0` is.
#[test]
fn place_node_limit_zero_is_refused() {
    let o = run(&["place", "--first", "--node-limit", "0", "P2"]);
    one_line(&o, 2, "--node-limit");
}
