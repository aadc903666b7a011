//! Where `shogi-lab tsume --certificate PATH` writes, checked before solving: one
//! problem's PATH is a regular file (or none yet) in a directory that exists, written
//! through a symbolic link, never over a FIFO, a directory or another special file;
//! several problems' PATH is a directory whose `<id>.jsonl` and `<id>.length.jsonl`
//! files must all differ; a stream's PATH is a directory. A certificate that still
//! cannot be written after the solve: the answer is printed, exit 3.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use support::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_shogi-lab");
/// A 1-ply mate (▲1二金).
const ONE_PLY: &str = "8k/9/8P/9/9/9/9/9/9 b G 1";

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_with(args: &[&str], stdin: &str) -> Out {
    let f = support::run_command(Command::new(BIN).args(args), stdin.as_bytes());
    Out {
        code: f.code,
        stdout: String::from_utf8_lossy(&f.stdout).into_owned(),
        stderr: f.stderr,
    }
}

fn run(args: &[&str]) -> Out {
    run_with(args, "")
}

/// Exit 2 with `line` the only line on stderr, and nothing solved (no answer printed).
#[track_caller]
fn refused(o: &Out, line: &str) {
    assert_eq!(o.code, 2, "stdout: {} stderr: {}", o.stdout, o.stderr);
    assert_eq!(
        o.stderr.lines().collect::<Vec<_>>(),
        [format!("shogi-lab: {line}")]
    );
    assert_eq!(o.stdout, "", "refused before solving");
}

fn s(p: &std::path::Path) -> String {
    p.display().to_string()
}

#[test]
fn a_missing_directory_is_refused_before_solving_naming_the_option() {
    let tmp = TempDir::new("certpath-nodir");
    let path = tmp.join("nodir").join("x.jsonl");
    let o = run(&["tsume", "--json", "--certificate", &s(&path), ONE_PLY]);
    refused(
        &o,
        &format!(
            "--certificate {}: no directory {}",
            path.display(),
            tmp.join("nodir").display()
        ),
    );
    // With --count-futile too (one certificate, PATH itself).
    let o = run(&[
        "tsume",
        "--count-futile",
        "--certificate",
        &s(&path),
        ONE_PLY,
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(!tmp.join("nodir").exists());
}

#[test]
fn one_problems_path_that_is_a_directory_is_refused_and_nothing_written_beside() {
    let tmp = TempDir::new("certpath-dir");
    let dir = tmp.join("d");
    std::fs::create_dir(&dir).unwrap();
    let o = run(&["tsume", "--certificate", &s(&dir), ONE_PLY]);
    refused(
        &o,
        &format!(
            "--certificate {}: is a directory, not a regular file; with one problem \
             --certificate names the file",
            dir.display()
        ),
    );
    assert!(!tmp.join("d.length.jsonl").exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_and_a_symbolic_link_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let tmp = TempDir::new("certpath-special");
    let fifo = tmp.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let o = run(&["tsume", "--certificate", &s(&fifo), ONE_PLY]);
    refused(
        &o,
        &format!(
            "--certificate {}: is a FIFO, not a regular file",
            fifo.display()
        ),
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // The length certificate's file beside PATH is checked too.
    let path = tmp.join("x.jsonl");
    std::os::unix::fs::symlink("fifo", tmp.join("x.length.jsonl")).unwrap();
    let o = run(&["tsume", "--certificate", &s(&path), ONE_PLY]);
    refused(
        &o,
        &format!(
            "--certificate {}: {}: links to {}, which is a FIFO, not a regular file",
            path.display(),
            tmp.join("x.length.jsonl").display(),
            fifo.display()
        ),
    );
    assert!(!path.exists());

    // A link: the file it names is replaced, the link stays.
    std::fs::write(tmp.join("target.jsonl"), "old").unwrap();
    let link = tmp.join("link.jsonl");
    std::os::unix::fs::symlink("target.jsonl", &link).unwrap();
    let o = run(&["tsume", "--certificate", &s(&link), ONE_PLY]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(tmp.join("target.jsonl")).unwrap();
    assert!(text.starts_with("{\"format\":\"shogi-lab/tsume-certificate\""));
    let ok = Command::new(BIN)
        .args(["check-certificate", &s(&link), "--problem", ONE_PLY])
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0));
    // The length certificate goes beside the path as given.
    assert!(tmp.join("link.length.jsonl").is_file());
}

#[test]
fn ids_whose_files_collide_are_refused_before_solving() {
    let tmp = TempDir::new("certpath-collide");
    let file = tmp.file(
        "p.sfen",
        format!("a.length\t{ONE_PLY}\na\t{ONE_PLY}\n").as_bytes(),
    );
    let dir = tmp.join("certs");
    let o = run(&["tsume", &file, "--certificate", &s(&dir)]);
    refused(
        &o,
        "line 2: ids \"a.length\" (line 1) and \"a\" both need the file a.length.jsonl: \
         --certificate needs ids whose files differ",
    );
    assert!(!dir.exists());
    // Counting every reply, no length certificate goes beside: both are written.
    let o = run(&["tsume", &file, "--count-futile", "--certificate", &s(&dir)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(dir.join("a.jsonl").is_file() && dir.join("a.length.jsonl").is_file());
    // A file in the way inside the directory is refused before the first solve.
    let fine = tmp.file("q.sfen", format!("b\t{ONE_PLY}\nc\t{ONE_PLY}\n").as_bytes());
    std::fs::create_dir(dir.join("c.jsonl")).unwrap();
    let o = run(&["tsume", &fine, "--certificate", &s(&dir)]);
    refused(
        &o,
        &format!(
            "--certificate {}: {}: is a directory, not a regular file",
            dir.display(),
            dir.join("c.jsonl").display()
        ),
    );
    assert!(!dir.join("b.jsonl").exists());
}

#[test]
fn several_problems_need_a_directory() {
    let tmp = TempDir::new("certpath-several");
    let file = tmp.file("p.sfen", format!("a\t{ONE_PLY}\nb\t{ONE_PLY}\n").as_bytes());
    let plain = tmp.file("plain.jsonl", b"");
    let o = run(&["tsume", &file, "--certificate", &plain]);
    refused(
        &o,
        &format!(
            "--certificate {plain}: not a directory; with several problems (or a stream) \
             PATH is the directory of their <id>.jsonl files"
        ),
    );
}

#[test]
fn a_streams_path_is_a_directory_and_a_jsonl_name_is_refused() {
    let tmp = TempDir::new("certpath-stream");
    let one = tmp.join("one.jsonl");
    let o = run_with(&["tsume", "--certificate", &s(&one), "-"], ONE_PLY);
    refused(
        &o,
        &format!(
            "--certificate {}: problems read from a stream go to a directory, \
             PATH/<id>.jsonl (their number is not known in advance): name a directory, \
             not a .jsonl file",
            one.display()
        ),
    );
    assert!(!one.exists());
    let dir = tmp.join("certs");
    let o = run_with(&["tsume", "--certificate", &s(&dir), "-"], ONE_PLY);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(dir.join("line-1.jsonl").is_file());
    // A sharded stream is read whole: one problem, PATH is the file.
    let o = run_with(
        &["tsume", "--shard", "0/1", "--certificate", &s(&one), "-"],
        ONE_PLY,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(one.is_file());
}

#[test]
fn a_certificate_not_written_after_the_solve_keeps_the_answer_and_is_exit_3() {
    // A stream into a directory: the problem's files pass the check before the solve;
    // a directory where the length certificate's temporary file goes (named by the
    // process, made once its id is known) makes that write fail after the solve.
    let tmp = TempDir::new("certpath-late");
    let dir = tmp.join("certs");
    std::fs::create_dir(&dir).unwrap();
    let mut child = Command::new(BIN)
        .args(["tsume", "--json", "--certificate", &s(&dir), "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let blocked = dir.join(format!("a.length.jsonl.tmp-{}", child.id()));
    std::fs::create_dir_all(blocked.join("x")).unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("a\t{ONE_PLY}\n").as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    let answer: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the answer");
    assert_eq!(
        (&answer["result"], &answer["usi"], &answer["certified"]),
        (&"mate".into(), &"G*1b".into(), &true.into())
    );
    let why = std::fs::File::create(&blocked).unwrap_err();
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [format!(
            "shogi-lab: --certificate {}: cannot write {}: {why}",
            dir.display(),
            dir.join("a.length.jsonl").display()
        )]
    );
    // The plain certificate was still written.
    assert!(dir.join("a.jsonl").is_file());
    assert!(!dir.join("a.length.jsonl").exists());
}
