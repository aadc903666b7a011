//! `shogi-lab experiments` as a user drives it: the files in `--out` are the product, so a
//! reader that goes away (`experiments | head`) or a closed stderr must not cut a run
//! short, and options that cannot go together are refused rather than ignored.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_shogi-lab");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "shogi-lab-experiments-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An out directory holding the quantum tables of the paper, for `--figures-only quantum`.
fn out_with_quantum_tables(name: &str) -> PathBuf {
    let out = scratch(name);
    std::fs::copy(
        Path::new(ROOT).join("paper/results/quantum.md"),
        out.join("quantum.md"),
    )
    .unwrap();
    out
}

/// Both figure-drawing experiments: quantum's one figure first, then peers' six.
fn figures_only(out: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.args(["experiments", "--figures-only", "--out"])
        .arg(out)
        .args(["quantum", "peers"])
        .current_dir(ROOT);
    c
}

/// One end of a socket pair whose other end is already closed: every write to it fails
/// with a broken pipe, deterministically (no race with a reader that exits).
#[cfg(unix)]
fn dead_pipe() -> Stdio {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    drop(theirs);
    Stdio::from(std::os::fd::OwnedFd::from(ours))
}

#[cfg(unix)]
#[test]
fn a_reader_that_goes_away_does_not_cut_the_run_short() {
    // Before: the first line printed to a closed stdout ended the process with exit 0, so
    // `experiments quantum peers | head -1` never ran `peers` and said nothing.
    let out = out_with_quantum_tables("stdout");
    let o: Output = figures_only(&out)
        .stdout(dead_pipe())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.join("quantum-converges.svg").is_file());
    assert!(out.join("peers-perft.svg").is_file(), "peers did not run");
    std::fs::remove_dir_all(&out).unwrap();
}

#[cfg(unix)]
#[test]
fn a_closed_stderr_is_not_a_panic() {
    // Before: `eprintln!("wrote …")` panicked on the closed pipe (exit 101) after the
    // first figure, and the error line of a bad input did the same.
    let out = out_with_quantum_tables("stderr");
    let o = figures_only(&out)
        .stdout(Stdio::null())
        .stderr(dead_pipe())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(out.join("peers-perft.svg").is_file(), "peers did not run");
    std::fs::remove_dir_all(&out).unwrap();
    let o = Command::new(BIN)
        .args(["place", "--count", "P0"])
        .stderr(dead_pipe())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "bad input, said or not");
}

#[test]
fn options_that_cannot_go_together_are_refused() {
    // Before: each was accepted and the second option silently ignored (`--json` printed
    // text lines, `--list` ignored the names, an unknown one included).
    for args in [
        &["experiments", "--figures-only", "--json", "quantum"][..],
        &["experiments", "--list", "--json"],
        &["experiments", "--list", "nosuch"],
        &["experiments", "--list", "--full"],
    ] {
        let o = Command::new(BIN).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// A `--data` directory the user names must exist: `peers --data /nonexistent` wrote a
/// "missing data files" table and exited 0 (the default, `paper/results`, may still be
/// missing outside the repository: the table then says what is missing).
#[test]
fn a_named_data_directory_that_does_not_exist_is_refused() {
    let dir = std::env::temp_dir().join(format!("shogi-lab-data-{}", std::process::id()));
    let out = dir.join("out");
    let o = Command::new(BIN)
        .args(["experiments", "peers", "--data"])
        .arg(dir.join("nonexistent"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nonexistent: no such directory"), "{err}");
    assert!(!out.exists(), "--out was created before the refusal");
}
