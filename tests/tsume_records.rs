//! How `shogi-lab tsume` reads a file or stdin: a KIF/KI2/CSA record (told by its
//! content, whatever the file's name) gives one problem per game; a list of position
//! lines answers every line, a line that is not UTF-8 too; `startpos` is a position;
//! `--ply` with a missing file names the file.

mod support;

use serde_json::Value;
use std::process::Command;
use support::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_shogi-lab");
/// A mate in one: ▲１二金.
const P: &str = "8k/9/8P/9/9/9/9/9/9 b G 1";

fn run_in(args: &[&str], stdin: &[u8]) -> support::Finished {
    support::run_command(Command::new(BIN).args(args), stdin)
}

/// The JSON lines of a run's stdout.
fn json(o: &support::Finished) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// `(id, result)` of each JSON line.
fn results(o: &support::Finished) -> Vec<(String, String)> {
    json(o)
        .iter()
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["result"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The BOD diagram of [`P`] with Sente's gold, as `shogi-lab show` prints it.
fn diagram() -> Vec<u8> {
    let o = run_in(&["show", P], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    o.stdout
}

/// A CSA file of two games: the even start (no check: nomate) after one move, then
/// [`P`] with the rest of the pieces in Gote's hand.
const TWO_GAMES: &str = "V2.2\nPI\n+\n+7776FU\n/\nP1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  * +FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \nP+00KI\nP-00AL\n+\n";

#[test]
fn every_game_of_a_csa_file_is_a_problem() {
    let tmp = TempDir::new("tsume-records");
    let file = tmp.file("two.csa", TWO_GAMES.as_bytes());
    let o = run_in(&["tsume", "--json", "--nodes", "20000", &file], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        results(&o),
        [
            (format!("{file}#1"), "nomate".to_string()),
            (format!("{file}#2"), "mate".to_string())
        ]
    );
    // The same from stdin, and --shard cuts the games like lines.
    let o = run_in(&["tsume", "--json", "-"], TWO_GAMES.as_bytes());
    assert_eq!(
        results(&o),
        [
            ("stdin#1".to_string(), "nomate".to_string()),
            ("stdin#2".to_string(), "mate".to_string())
        ]
    );
    let o = run_in(&["tsume", "--json", "--shard", "1/2", &file], b"");
    assert_eq!(results(&o), [(format!("{file}#2"), "mate".to_string())]);
    // --ply applies to each game: the second has no move, so it is refused by name.
    let o = run_in(&["tsume", "--ply", "1", &file], b"");
    assert_eq!(o.code, 2);
    assert_eq!(
        o.stderr.trim_end(),
        format!("shogi-lab: {file}#2: --ply 1 but the main line has 0 moves")
    );
    let one = tmp.file("one.csa", b"PI\n+\n+7776FU\n-3334FU\n/\nPI\n+\n+2726FU\n");
    let o = run_in(&["tsume", "--json", "--ply", "1", &one], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let sfens: Vec<String> = json(&o)
        .iter()
        .map(|v| v["sfen"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        sfens,
        [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2"
        ]
    );
}

#[test]
fn a_diagram_is_a_record_whatever_the_name_and_on_stdin() {
    let tmp = TempDir::new("tsume-records");
    let bod = diagram();
    for name in ["p3.txt", "p3.bod", "p3"] {
        let file = tmp.file(name, &bod);
        let o = run_in(&["tsume", "--json", &file], b"");
        assert_eq!(o.code, 0, "{name}: {}", o.stderr);
        assert_eq!(results(&o), [(file.clone(), "mate".to_string())]);
    }
    let o = run_in(&["tsume", "--json", "-"], &bod);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(results(&o), [("stdin".to_string(), "mate".to_string())]);
    // A `#` comment first does not hide it, nor Shift_JIS bytes.
    let commented = [b"# a tsume\n".as_slice(), &bod].concat();
    let o = run_in(&["tsume", "--json", "-"], &commented);
    assert_eq!(results(&o), [("stdin".to_string(), "mate".to_string())]);
    let sjis = encoding_rs::SHIFT_JIS
        .encode(std::str::from_utf8(&bod).unwrap())
        .0
        .into_owned();
    let o = run_in(&["tsume", "--json", &tmp.file("sjis.txt", &sjis)], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    // A list of position lines stays a list, named anything.
    let list = format!("# Source: test\na\t{P}\nposition sfen {P}\n");
    let o = run_in(
        &["tsume", "--json", &tmp.file("list.txt", list.as_bytes())],
        b"",
    );
    assert_eq!(
        results(&o),
        [
            ("a".to_string(), "mate".to_string()),
            ("line-3".to_string(), "mate".to_string())
        ]
    );
    // `show` and `perft` tell a record by its content too.
    let txt = tmp.file("shown.txt", &bod);
    let o = run_in(&["show", &txt, "--json"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("\"sfen\":\"{P}\"")), "{out}");
    let o = run_in(&["perft", &txt, "1"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn a_line_that_is_not_utf8_is_answered_not_dropped() {
    let tmp = TempDir::new("tsume-records");
    // Line 2 is `\xff\xfe`: neither UTF-8 nor Shift_JIS.
    let input = [
        format!("a\t{P}\n").as_bytes(),
        b"\xff\xfe\n",
        format!("c\t{P}\n").as_bytes(),
    ]
    .concat();
    let file = tmp.file("bad.sfen", &input);
    for (arg, origin) in [(file.as_str(), file.as_str()), ("-", "<stdin>")] {
        let stdin = if arg == "-" { input.as_slice() } else { b"" };
        let o = run_in(&["tsume", "--json", arg], stdin);
        assert_eq!(o.code, 2, "{arg}: {}", o.stderr);
        let lines = json(&o);
        assert_eq!(lines.len(), 3, "{arg}: every line answered");
        assert_eq!(lines[0]["result"], "mate");
        assert_eq!(lines[1]["id"], "line-2");
        assert_eq!(lines[1]["result"], "error");
        let error = format!("{origin}:2:1: not UTF-8 text");
        assert_eq!(lines[1]["error"], error.as_str());
        assert_eq!(lines[2]["id"], "c");
        assert_eq!(lines[2]["result"], "mate");
        assert_eq!(o.stderr.trim_end(), format!("shogi-lab: {error}"));
        // The text output says it too.
        let o = run_in(&["tsume", arg], stdin);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains(&format!("line-2: bad input: {error}")),
            "{out}"
        );
        assert!(out.contains("c: mate"), "{out}");
    }
}

#[test]
fn startpos_is_a_position() {
    let o = run_in(&["tsume", "--json", "startpos"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(results(&o), [("1".to_string(), "nomate".to_string())]);
}

#[test]
fn ply_with_a_missing_file_says_the_file_is_missing() {
    let tmp = TempDir::new("tsume-records");
    let missing = tmp.join("missing.kif");
    let missing = missing.to_str().unwrap();
    let o = run_in(&["tsume", "--ply", "3", missing], b"");
    assert_eq!(o.code, 2);
    assert_eq!(
        o.stderr.trim_end(),
        format!("shogi-lab: {missing}: no such file (and not a SFEN)")
    );
    // A list is no record.
    let list = tmp.file("list.txt", format!("{P}\n").as_bytes());
    let o = run_in(&["tsume", "--ply", "3", &list], b"");
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("--ply needs a KIF/KI2/CSA record"),
        "{}",
        o.stderr
    );
    // perft and show too.
    let o = run_in(&["perft", "--ply", "3", missing, "1"], b"");
    assert_eq!(
        o.stderr.trim_end(),
        format!("shogi-lab: {missing}: no such file (and not a SFEN)")
    );
}
