//! `shogi-lab tsume` reads USI position texts wherever it reads a SFEN (the argument,
//! a file's lines, stdin): the position after the moves is the problem; a bad move is
//! one located line naming its number and text.

mod strategies;
mod support;

use proptest::prelude::*;
use shogi_lab::notation::sfen::{write_sfen, write_usi_position};
use shogi_lab::tsume::{load_problem, DefenderHand};
use std::io::Write;
use std::process::{Command, Stdio};
use support::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_shogi-lab");

/// cases.sfen's pawn-drop-not-mate (▲2二歩 △1一玉 ▲2三桂), after its first two moves.
const AFTER_TWO: &str = "position sfen 7k1/5G3/8S/9/9/9/9/9/9 b NP 1 moves P*2b 2a1a";
/// The same position as a SFEN (Sente's hand: the knight; Gote's: as given, empty).
const AFTER_TWO_SFEN: &str = "8k/5G1P1/8S/9/9/9/9/9/9 b N 3";

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_with(args: &[&str], stdin: &str) -> Out {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let o = child.wait_with_output().expect("the binary ends");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn run(args: &[&str]) -> Out {
    run_with(args, "")
}

/// The `--json` lines of a successful run, without `time_ms` (the only field that varies).
#[track_caller]
fn json_lines(o: &Out) -> Vec<serde_json::Value> {
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    o.stdout
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v.as_object_mut().expect("an object").remove("time_ms");
            v
        })
        .collect()
}

/// Exit 2 with exactly one `shogi-lab: …` line on stderr, equal to `shogi-lab: {line}`.
#[track_caller]
fn one_error(o: &Out, line: &str) {
    assert_eq!(o.code, 2, "stdout: {} stderr: {}", o.stdout, o.stderr);
    assert_eq!(
        o.stderr.lines().collect::<Vec<_>>(),
        [format!("shogi-lab: {line}")]
    );
}

#[test]
fn every_form_of_the_argument_solves_the_same_problem() {
    let sfen = "8k/9/8P/9/9/9/9/9/9 b G 1";
    let expected = json_lines(&run(&["tsume", sfen, "--json"]));
    assert_eq!(expected[0]["usi"], "G*1b");
    for text in [
        format!("sfen {sfen}"),
        format!("position sfen {sfen}"),
        format!("position sfen {sfen} moves"),
    ] {
        assert_eq!(
            json_lines(&run(&["tsume", &text, "--json"])),
            expected,
            "{text}"
        );
    }
}

#[test]
fn the_position_after_the_moves_is_the_problem() {
    let o = json_lines(&run(&["tsume", AFTER_TWO, "--json"]));
    assert_eq!(o[0]["result"], "mate");
    assert_eq!(o[0]["usi"], "N*2c");
    // The defender got the remaining pieces at the start; `sfen` is the problem solved.
    assert_eq!(o[0]["sfen"], "8k/5G1P1/8S/9/9/9/9/9/9 b N2r2b3g3s3n4l17p 3");
    let direct = json_lines(&run(&["tsume", "8k/5G1P1/8S/9/9/9/9/9/9 b N 3", "--json"]));
    assert_eq!(o, direct);
    // --defender-hand-as-given keeps the start's (empty) hand.
    let given = json_lines(&run(&[
        "tsume",
        AFTER_TWO,
        "--json",
        "--defender-hand-as-given",
    ]));
    assert_eq!(given[0]["sfen"], AFTER_TWO_SFEN);
    assert_eq!(given[0]["usi"], "N*2c");
    // Text output too, and `startpos moves …` (no check in a game's opening: nomate).
    let text = run(&["tsume", AFTER_TWO]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("usi   N*2c"), "{}", text.stdout);
    for start in [
        "startpos moves 7g7f 3c3d",
        "position startpos moves 7g7f 3c3d",
    ] {
        let o = json_lines(&run(&["tsume", start, "--json"]));
        assert_eq!(
            o[0]["sfen"],
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        assert_eq!(o[0]["result"], "nomate");
    }
}

#[test]
fn files_and_stdin_take_usi_lines() {
    let tmp = TempDir::new("tsume-input");
    let lines =
        format!("# mixed\nbare\t8k/9/8P/9/9/9/9/9/9 b G 1\nafter-2\t{AFTER_TWO}\n{AFTER_TWO}\n");
    let file = tmp.file("mixed.sfen", lines.as_bytes());
    let from_file = json_lines(&run(&["tsume", &file, "--json"]));
    let from_stdin = json_lines(&run_with(&["tsume", "-", "--json"], &lines));
    assert_eq!(from_file, from_stdin);
    let got: Vec<(&str, &str)> = from_file
        .iter()
        .map(|v| (v["id"].as_str().unwrap(), v["usi"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [("bare", "G*1b"), ("after-2", "N*2c"), ("line-4", "N*2c")]
    );
}

#[test]
fn a_bad_move_is_one_line_with_its_number_text_and_place() {
    let illegal = "position sfen 8k/9/8P/9/9/9/9/9/9 b G 1 moves G*1b 1a1b";
    // The move is at column 52 of the argument (byte 51, counted from 0).
    assert_eq!(illegal.find("1a1b"), Some(51));
    let o = run(&["tsume", illegal]);
    one_error(&o, "<argument>:1:52: move 2: illegal move 1a1b");
    assert_eq!(
        o.stdout.trim(),
        "1: bad input: <argument>:1:52: move 2: illegal move 1a1b"
    );
    one_error(
        &run(&["tsume", "startpos moves 7g7f 7g7f"]),
        "<argument>:1:21: move 2: illegal move 7g7f",
    );
    one_error(
        &run(&["tsume", "startpos moves 7g7f 3c3"]),
        "<argument>:1:21: move 2: malformed USI move \"3c3\"",
    );
    // 打ち歩詰め.
    one_error(
        &run(&[
            "tsume",
            "position sfen 7lk/9/8G/9/9/9/9/9/K8 b P 1 moves P*1b",
        ]),
        "<argument>:1:49: move 1: illegal move P*1b",
    );
    // A drop from a hand that --defender-hand-as-given leaves empty.
    let drop = "position sfen 8k/9/9/9/9/9/9/9/R8 b - 1 moves 9i9a P*2a";
    assert_eq!(
        json_lines(&run(&["tsume", drop, "--json"]))[0]["result"],
        "nomate"
    );
    one_error(
        &run(&["tsume", drop, "--defender-hand-as-given"]),
        "<argument>:1:52: move 2: illegal move P*2a",
    );
    // In a file and on stdin: the line, and the column in that line.
    let tmp = TempDir::new("tsume-input");
    let lines = format!("# c\nok\t{AFTER_TWO}\nbad\t{illegal}\n");
    let file = tmp.file("bad.sfen", lines.as_bytes());
    let o = run(&["tsume", &file, "--json"]);
    one_error(&o, &format!("{file}:3:56: move 2: illegal move 1a1b"));
    assert_eq!(o.stdout.lines().count(), 2, "{}", o.stdout);
    one_error(
        &run_with(&["tsume", "-"], &lines),
        "<stdin>:3:56: move 2: illegal move 1a1b",
    );
}

#[test]
fn other_bad_usi_texts_are_one_line() {
    one_error(
        &run(&[
            "tsume",
            "position sfen 8k/9/8P/9/9/9/9/9/9 b G 1 mvoes G*1b",
        ]),
        "<argument>:1:41: unexpected text after the SFEN",
    );
    one_error(
        &run(&["tsume", "position sfen"]),
        "<argument>:1:1: empty SFEN",
    );
    // One move leaves the kingless attacker to defend.
    one_error(
        &run(&[
            "tsume",
            "position sfen 7lk/9/9/9/9/9/9/9/9 b G 1 moves G*2b",
        ]),
        "<argument>:1: after 1 move, Gote to move attacks: illegal position: Sente has no king",
    );
}

// The answers and the end of a run, as printed (src/cli/tsume/render.rs, tally.rs).

/// `text` with the numbers that vary with the search or the machine (timings, node and
/// byte counts) as `N`.
fn redact(text: &str) -> String {
    text.lines()
        .map(|line| {
            let t: Vec<&str> = line.split(' ').collect();
            (0..t.len())
                .map(|i| {
                    let number = t[i].parse::<f64>().is_ok();
                    let after = i > 0
                        && ["solve", "extraction", "check", "time", "nodes", "plays"]
                            .contains(&t[i - 1]);
                    let before = t.get(i + 1).is_some_and(|n| *n == "nodes" || *n == "bytes");
                    if number && (after || before) {
                        "N"
                    } else {
                        t[i]
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// G*1b and G*2b both mate at once (the pawns on ２三 and １三 guard the gold).
const TWO_MATES: &str = "8k/9/7PP/9/9/9/9/9/9 b G 1";

#[test]
fn the_text_answer_is_one_line_per_fact() {
    let o = run(&[
        "tsume",
        TWO_MATES,
        "--nodes",
        "20000",
        "--alt-nodes",
        "1000",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        redact(&o.stdout),
        "1: mate
  plies 1 (shortest)
  line  ▲１二金
  usi   G*1b
  余詰  G*2b
  certified  N nodes  N bytes  cpu ms: solve N extraction N check N
  shortest certified: mate within 1 ply, no mate within 0 (無駄合 not counted)  N nodes  N bytes  cpu ms: extraction N check N
  nodes N  plays N  time N s"
    );
    // Unchecked, the certificate's line names where it was written; no 余詰 line without --alt-nodes.
    let tmp = TempDir::new("tsume-text");
    let path = tmp.join("c.jsonl").display().to_string();
    let o = run(&[
        "tsume",
        TWO_MATES,
        "--nodes",
        "20000",
        "--count-futile",
        "--no-certify",
        "--certificate",
        &path,
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        redact(&o.stdout),
        format!(
            "1: mate
  plies 1 (shortest)
  line  ▲１二金
  usi   G*1b
  certificate (unchecked)  N nodes  N bytes  cpu ms: solve N extraction N  {path}
  nodes N  plays N  time N s"
        )
    );
    assert!(std::path::Path::new(&path).is_file());
}

#[test]
fn an_unknown_answer_is_exit_1_with_the_count() {
    // 図巧1 within 100 nodes: no first proof.
    let o = run(&[
        "tsume",
        "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
        "--nodes",
        "100",
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(
        redact(&o.stdout),
        "1: unknown\n  nodes N  plays N  time N s"
    );
    assert_eq!(
        o.stderr.trim_end(),
        "shogi-lab: 1 of 1 problem(s) unknown within limits"
    );
}

/// A refutation within `--max-plies` is proven: it answers the question asked, so it
/// exits 0 like any proved negative answer (README's exit codes); cut short by the node
/// limit first, the same problem is `unknown` with exit 1.
#[test]
fn a_refutation_within_max_plies_is_an_answer() {
    // cases.sfen's pawn-drop-not-mate is a mate in 3: none within 1 ply.
    let o = run(&[
        "tsume",
        "7k1/5G3/8S/9/9/9/9/9/9 b NP 1",
        "--max-plies",
        "1",
        "--nodes",
        "20000",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("no mate within 1 "), "{}", o.stdout);
    assert_eq!(o.stderr, "");
    let json = run(&[
        "tsume",
        "7k1/5G3/8S/9/9/9/9/9/9 b NP 1",
        "--max-plies",
        "1",
        "--json",
    ]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert!(
        json.stdout.contains("\"result\":\"unknown\"")
            && json.stdout.contains("\"no_mate_within\":1,"),
        "{}",
        json.stdout
    );
    // Within 3 plies it is a mate; 1 node is not enough to find it: exit 1.
    let cut = run(&[
        "tsume",
        "7k1/5G3/8S/9/9/9/9/9/9 b NP 1",
        "--max-plies",
        "3",
        "--nodes",
        "1",
    ]);
    assert_eq!(cut.code, 1, "{}", cut.stdout);
}

#[test]
fn show_prints_the_board_before_the_text_answer_only() {
    let o = run(&["tsume", TWO_MATES, "--nodes", "20000", "--show"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(lines[0].starts_with("後手の持駒"), "{}", o.stdout);
    let hand = lines.iter().position(|l| l.starts_with("先手の持駒"));
    let answer = lines.iter().position(|l| *l == "1: mate");
    assert!(hand.is_some() && hand < answer, "{}", o.stdout);
    let json = run(&["tsume", TWO_MATES, "--nodes", "20000", "--show", "--json"]);
    assert_eq!(json_lines(&json).len(), 1, "{}", json.stdout);
}

#[test]
fn bad_lines_are_answered_in_place_and_the_first_is_the_error() {
    let tmp = TempDir::new("tsume-bad");
    let file = tmp.file(
        "bad.sfen",
        b"ok\t8k/9/8P/9/9/9/9/9/9 b G 1\nbad1\t8k/9/8P/9/9/9/9/9 b G 1\nbad2\t8k/9/8P/9/9/9/9/9/9 x G 1\n",
    );
    let first = format!("{file}:2:6: the board has 8 ranks, expected 9");
    let o = run(&["tsume", &file, "--nodes", "20000"]);
    one_error(
        &o,
        &format!("{first} (and 1 more problem(s) that could not be read)"),
    );
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines[0], "ok: mate");
    assert!(lines.contains(&format!("bad1: bad input: {first}").as_str()));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("bad2: bad input: ") && l.contains(":3:")));
    let o = run(&["tsume", &file, "--nodes", "20000", "--json"]);
    assert_eq!(o.code, 2);
    let bad1: serde_json::Value =
        serde_json::from_str(o.stdout.lines().nth(1).expect("a second line")).expect("JSON");
    assert_eq!(
        bad1,
        serde_json::json!({
            "id": "bad1", "sfen": "8k/9/8P/9/9/9/9/9 b G 1", "result": "error",
            "plies": null, "shortest": null, "usi": null, "kif": null,
            "no_mate_within": null, "mate_within": null, "alternatives": null,
            "certified": null, "shortest_certified": null, "nodes": 0, "plays": 0, "time_ms": 0,
            "error": first,
        })
    );
}

#[test]
fn certificate_ids_must_be_distinct_plain_file_names() {
    let tmp = TempDir::new("tsume-ids");
    let sfen = "8k/9/8P/9/9/9/9/9/9 b G 1";
    let dup = tmp.file("dup.sfen", format!("a\t{sfen}\na\t{sfen}\n").as_bytes());
    let dir = tmp.join("certs").display().to_string();
    let o = run(&["tsume", &dup, "--nodes", "20000", "--certificate", &dir]);
    one_error(
        &o,
        "line 2: id \"a\" twice: --certificate needs distinct ids",
    );
    // A file's ids are all checked before the first solve: nothing is solved or written.
    assert!(!tmp.join("certs").exists());
    let o = run(&[
        "tsume",
        &dup,
        "--nodes",
        "20000",
        "--show",
        "--certificate",
        &dir,
    ]);
    assert_eq!(o.code, 2);
    assert_eq!(o.stdout, "", "no board is shown before the ids are checked");
    // From a stream the ids are checked as the problems come: the first is solved, then
    // the repeated id ends the run (with --show, after its board).
    let o = run_with(
        &[
            "tsume",
            "-",
            "--nodes",
            "20000",
            "--show",
            "--certificate",
            &dir,
        ],
        &format!("a\t{sfen}\na\t{sfen}\n"),
    );
    one_error(
        &o,
        "line 2: id \"a\" twice: --certificate needs distinct ids",
    );
    assert!(tmp.join("certs/a.jsonl").is_file());
    assert_eq!(
        o.stdout
            .lines()
            .filter(|l| l.starts_with("後手の持駒"))
            .count(),
        2,
        "{}",
        o.stdout
    );
    let slash = tmp.file("slash.sfen", format!("a/b\t{sfen}\n").as_bytes());
    // One problem in a file: the certificate path is the file itself, no id needed.
    let one = tmp.join("one.jsonl").display().to_string();
    let o = run(&["tsume", &slash, "--nodes", "20000", "--certificate", &one]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(tmp.join("one.jsonl").is_file());
    let slash = tmp.file("slash.sfen", format!("a/b\t{sfen}\nc\t{sfen}\n").as_bytes());
    one_error(
        &run(&["tsume", &slash, "--nodes", "20000", "--certificate", &dir]),
        "line 1: id \"a/b\" is not a plain file name for --certificate",
    );
}

#[test]
fn an_input_without_problems_is_an_error() {
    let tmp = TempDir::new("tsume-empty");
    let file = tmp.file("empty.sfen", b"# only a comment\n\n");
    let why = "no problems in the input (empty, or only blank and # lines)";
    one_error(&run(&["tsume", &file]), &format!("{file}: {why}"));
    one_error(
        &run_with(&["tsume", "-"], "# nothing\n"),
        &format!("<stdin>: {why}"),
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Twin: a start and a random legal line as a USI text load as the SFEN of the
    /// position the rules core reaches by playing the line (hands as given), and with the
    /// default hand as that problem read again (the hands after the moves are complete).
    #[test]
    fn usi_text_loads_as_the_sfen_after_its_moves(
        start in 0..strategies::STARTS.len(),
        seed in any::<u64>(),
        plies in 0usize..40,
    ) {
        let (first, line, pos) = strategies::playout_line(start, seed, plies);
        let text = write_usi_position(&first, &line);
        let given = load_problem(&text, DefenderHand::AsGiven)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(write_sfen(&given), write_sfen(&pos));
        let full = load_problem(&text, DefenderHand::Remaining)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let again = load_problem(&write_sfen(&full), DefenderHand::Remaining)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(write_sfen(&full), write_sfen(&again));
        prop_assert_eq!(full.side_to_move(), pos.side_to_move());
    }
}
