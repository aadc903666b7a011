//! Helpers shared by the integration tests that write files or run the built binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory under the system temp dir, removed with its contents when dropped
/// (also when a test panics; a crash may leave it). Each guard has its own directory
/// (`shogi-lab-<name>-<pid>-<n>`), so tests running in parallel never share one.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates `shogi-lab-<name>-<pid>-<n>` (an older leftover of that name is emptied).
    ///
    /// # Panics
    /// If the directory cannot be created.
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("shogi-lab-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir { path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` inside the directory (not created).
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }

    /// Writes `bytes` to `name` inside the directory and returns its path as text.
    ///
    /// # Panics
    /// If the file cannot be written.
    pub fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.path.join(name);
        std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", p.display()));
        p.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// What a finished command gave: its exit code (-1: killed by a signal), its standard
/// output as bytes and its standard error as text.
pub struct Finished {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `cmd` from the crate's root with `stdin` written to its standard input, and
/// waits for it.
///
/// # Panics
/// If the command cannot be started or its pipes fail.
pub fn run_command(cmd: &mut std::process::Command, stdin: &[u8]) -> Finished {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run refused before it reads its input may close the pipe first.
    let written = child.stdin.take().unwrap().write_all(stdin);
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "stdin: {e}");
    }
    let o = child.wait_with_output().unwrap();
    Finished {
        code: o.status.code().unwrap_or(-1),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Runs the built `shogi-lab` with `args` (no stdin) and returns its exit code (-1 when
/// killed by a signal), stdout and stderr as text.
///
/// # Panics
/// If the binary cannot be started or its output is not UTF-8.
pub fn run_shogi_lab(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The SFENs of `shogi-lab gen tsume --count COUNT --plies PLIES --seed SEED` (mates in
/// exactly PLIES, specs/schema/gen-tsume.md), in order.
///
/// # Panics
/// If the command fails or prints something else than its JSON lines.
pub fn gen_tsume_sfens(count: u32, plies: u32, seed: u64) -> Vec<String> {
    let (count, plies, seed) = (count.to_string(), plies.to_string(), seed.to_string());
    let (code, out, err) = run_shogi_lab(&[
        "gen", "tsume", "--count", &count, "--plies", &plies, "--seed", &seed,
    ]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["sfen"].as_str().unwrap().to_string()
        })
        .collect()
}

/// Whether this process ignores SIGINT (`SigIgn` in /proc/self/status; false where that
/// cannot be read). A background job of a non-interactive shell does, and its children
/// inherit it: a test that interrupts a child with SIGINT cannot run there (no Ctrl-C can
/// reach such a process either).
pub fn sigint_ignored() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find_map(|l| {
                l.strip_prefix("SigIgn:")
                    .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            })
        })
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

/// The JSON lines of a certificate (or any JSON-lines text), parsed.
///
/// # Panics
/// On a line that is not JSON.
pub fn lines_of(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// JSON lines written back, one value a line (the inverse of [`lines_of`]).
pub fn render(ls: &[serde_json::Value]) -> String {
    ls.iter().map(|v| format!("{v}\n")).collect()
}
