//! `diff mate`: a USI engine's `go mate` answers against our solver on the same
//! positions. Verdicts are compared; every mate line the engine gives is
//! replayed by the independent checker ([`crate::tsume::checker`]).
//!
//! The engine gets `usi`/`isready` once, then per problem `position sfen …` and
//! `go mate <ms>`, and must answer `checkmate <moves>|nomate|timeout|notimplemented`
//! (USI protocol, 将棋所's `go mate` extension).

use super::engine::read_line_capped;
use super::engine_process::EngineProcess;
use crate::notation::sfen::{resolve_usi_move, write_sfen};
use crate::rules::{Move, Position};
use crate::tsume::{checker, Outcome, SolveResult};
use std::io::{BufReader, Write};
use std::process::ChildStdin;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a USI session failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum UsiError {
    /// The program could not be started or written to.
    #[error("`{command}`: {source}")]
    Io {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
    /// It did not answer in time: it is killed.
    #[error("`{command}` did not answer `{sent}` with `{expected}` within {secs} s (killed)")]
    NoAnswer {
        /// The command line.
        command: String,
        /// What was sent.
        sent: String,
        /// The answer expected.
        expected: String,
        /// Seconds waited in all (after a `go mate`, the 5 s after `stop` included).
        secs: u64,
    },
    /// It ended (crashed, or quit) — or closed its output — before answering.
    #[error("`{command}` {ended} without answering `{sent}` with `{expected}`")]
    Exited {
        /// The command line.
        command: String,
        /// What was sent.
        sent: String,
        /// The answer expected.
        expected: String,
        /// How it ended: `exited (exit status: 1)`, or `closed its output` if it still runs.
        ended: String,
    },
}

/// A USI engine process.
pub struct UsiEngine {
    command: String,
    child: EngineProcess,
    stdin: ChildStdin,
    /// The engine's lines, or the error that ended its output (a line longer than
    /// [`super::engine::MAX_LINE`], not UTF-8); bounded, so that an engine printing
    /// without end waits for us instead of filling the memory.
    lines: Receiver<std::io::Result<String>>,
}

/// The engine's answer to `go mate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateAnswer {
    /// `checkmate <moves>` (USI texts).
    Mate(Vec<String>),
    /// `checkmate nomate`.
    NoMate,
    /// `checkmate timeout`.
    Timeout,
    /// `checkmate notimplemented`.
    NotImplemented,
}

impl UsiEngine {
    /// Starts `command` (by `sh -c`) and waits for `usiok` and `readyok`.
    ///
    /// # Errors
    /// [`UsiError`] if it cannot start or does not answer within 30 s.
    pub fn start(command: &str) -> Result<UsiEngine, UsiError> {
        let io = |source| UsiError::Io {
            command: command.to_string(),
            source,
        };
        // In a guarded process group of its own: killed with everything `sh -c` started
        // when the session ends or gives up on it, and when shogi-lab ends, however it
        // ends ([`EngineProcess`]).
        let mut child = EngineProcess::spawn(command).map_err(io)?;
        let stdin = child.take_stdin().expect("piped");
        let stdout = child.take_stdout().expect("piped");
        let mut e = UsiEngine {
            command: command.to_string(),
            child,
            stdin,
            lines: spawn_line_reader(stdout),
        };
        e.send("usi", "usiok")?;
        e.wait_for("usi", "usiok", Duration::from_secs(30))?;
        e.send("isready", "readyok")?;
        e.wait_for("isready", "readyok", Duration::from_secs(30))?;
        Ok(e)
    }

    /// Writes `line`; `expected` is the answer it is sent for (an engine that has
    /// ended is reported as [`UsiError::Exited`], not as a broken pipe).
    fn send(&mut self, line: &str, expected: &str) -> Result<(), UsiError> {
        match writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(self.ended(line, expected)),
            Err(source) => Err(UsiError::Io {
                command: self.command.clone(),
                source,
            }),
        }
    }

    /// The error for an engine whose output or input has closed: how it ended (its exit
    /// status, waited for up to a second), or that it still runs with its output closed.
    fn ended(&mut self, sent: &str, expected: &str) -> UsiError {
        let mut ended = "closed its output".to_string();
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                ended = format!("exited ({status})");
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        UsiError::Exited {
            command: self.command.clone(),
            sent: sent.to_string(),
            expected: expected.to_string(),
            ended,
        }
    }

    /// Waits for a line starting with `prefix`; returns it.
    fn wait_for(&mut self, sent: &str, prefix: &str, wait: Duration) -> Result<String, UsiError> {
        // No deadline for a wait beyond the clock's range (`--time-ms` near u64::MAX).
        let deadline = Instant::now().checked_add(wait);
        let no_answer = || UsiError::NoAnswer {
            command: self.command.clone(),
            sent: sent.to_string(),
            expected: prefix.to_string(),
            secs: wait.as_secs(),
        };
        loop {
            // Checked before each line: an engine printing other lines without end
            // (`yes`) must not keep the wait going past its deadline.
            let line = match deadline {
                Some(d) if Instant::now() >= d => return Err(no_answer()),
                Some(d) => self
                    .lines
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self
                    .lines
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match line {
                Ok(Ok(l)) if l.split_whitespace().next() == Some(prefix) => return Ok(l),
                Ok(Ok(_)) => {}
                Ok(Err(source)) => {
                    return Err(UsiError::Io {
                        command: self.command.clone(),
                        source,
                    })
                }
                Err(RecvTimeoutError::Timeout) => return Err(no_answer()),
                Err(RecvTimeoutError::Disconnected) => return Err(self.ended(sent, prefix)),
            }
        }
    }

    /// `position sfen <sfen>` + `go mate <ms>`; waits up to `ms` + 10 s (then sends `stop`
    /// and waits 5 s more).
    ///
    /// # Errors
    /// [`UsiError`] if the engine does not answer in time ([`UsiError::NoAnswer`], the
    /// whole wait counted) or ends first ([`UsiError::Exited`]).
    pub fn go_mate(&mut self, sfen: &str, ms: u64) -> Result<MateAnswer, UsiError> {
        self.send(&format!("position sfen {sfen}"), "checkmate")?;
        let go = format!("go mate {ms}");
        self.send(&go, "checkmate")?;
        let first = Duration::from_millis(ms.saturating_add(10_000));
        let line = match self.wait_for(&go, "checkmate", first) {
            Ok(l) => l,
            Err(UsiError::NoAnswer { .. }) => {
                self.send("stop", "checkmate")?;
                let after_stop = Duration::from_secs(5);
                self.wait_for(&go, "checkmate", after_stop)
                    .map_err(|e| match e {
                        UsiError::NoAnswer {
                            command,
                            sent,
                            expected,
                            ..
                        } => UsiError::NoAnswer {
                            command,
                            sent,
                            expected,
                            secs: first.saturating_add(after_stop).as_secs(),
                        },
                        e => e,
                    })?
            }
            Err(e) => return Err(e),
        };
        let words: Vec<String> = line.split_whitespace().skip(1).map(String::from).collect();
        Ok(match words.first().map(String::as_str) {
            Some("nomate") => MateAnswer::NoMate,
            Some("timeout") | None => MateAnswer::Timeout,
            Some("notimplemented") => MateAnswer::NotImplemented,
            _ => MateAnswer::Mate(words),
        })
    }
}

/// The lines of `output` read on a thread of their own, into a bounded channel: at
/// most [`super::engine::MAX_LINE`] bytes each, the error that ended them last.
fn spawn_line_reader(
    output: impl std::io::Read + Send + 'static,
) -> Receiver<std::io::Result<String>> {
    let (tx, lines) = sync_channel(1024);
    std::thread::spawn(move || {
        let mut output = BufReader::new(output);
        while let Some(line) = read_line_capped(&mut output).transpose() {
            let last = line.is_err();
            if tx.send(line).is_err() || last {
                break;
            }
        }
    });
    lines
}

impl Drop for UsiEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to quit; then dropping `child` kills whatever `sh -c` started
        // and still runs (the shell may have forked the engine: killing the shell alone
        // would leave a hung engine running).
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// One problem compared.
#[derive(Debug, Clone)]
pub struct MateComparison {
    /// The position both solved (the defender's hand as given to the engine).
    pub sfen: String,
    /// Our verdict and line.
    pub ours: SolveResult<Move>,
    /// The engine's answer.
    pub theirs: MateAnswer,
    /// For an engine mate: `Ok` if the checker accepts its line, else why not.
    pub line_check: Option<Result<(), String>>,
}

impl MateComparison {
    /// Compares our result with the engine's answer on `root`.
    pub fn new(root: &Position, ours: SolveResult<Move>, theirs: MateAnswer) -> MateComparison {
        let line_check = match &theirs {
            MateAnswer::Mate(usi) => Some(check_line(root, usi)),
            _ => None,
        };
        MateComparison {
            sfen: write_sfen(root),
            ours,
            theirs,
            line_check,
        }
    }

    /// Whether the two agree: no contradicting verdicts (a timeout or `unknown` contradicts
    /// nothing), and every engine mate line is a checked mate.
    pub fn agree(&self) -> bool {
        let line_ok = !matches!(self.line_check, Some(Err(_)));
        let verdicts = !matches!(
            (self.ours.outcome, &self.theirs),
            (Outcome::Mate, MateAnswer::NoMate) | (Outcome::NoMate, MateAnswer::Mate(_))
        );
        line_ok && verdicts
    }
}

fn check_line(root: &Position, usi: &[String]) -> Result<(), String> {
    let mut pos = root.clone();
    let mut line = Vec::new();
    for (i, u) in usi.iter().enumerate() {
        let m = resolve_usi_move(&pos, u).map_err(|e| format!("ply {}: {u}: {e}", i + 1))?;
        pos.play_unchecked(m);
        line.push(m);
    }
    checker::verify_mate_line(root, &line).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session with `sh -c command`, without the handshake.
    fn session(command: &str) -> UsiEngine {
        let mut child = EngineProcess::spawn(command).unwrap();
        let stdin = child.take_stdin().unwrap();
        let lines = spawn_line_reader(child.take_stdout().unwrap());
        UsiEngine {
            command: command.to_string(),
            child,
            stdin,
            lines,
        }
    }

    #[test]
    fn an_engine_printing_other_lines_without_end_times_out() {
        // `yes` answers every wait with a line at once: the deadline still ends the wait.
        let mut e = session("yes");
        let t = Instant::now();
        let r = e.wait_for("usi", "usiok", Duration::from_millis(200));
        assert!(matches!(r, Err(UsiError::NoAnswer { .. })), "{r:?}");
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }

    #[test]
    fn an_endless_line_is_an_error_not_all_the_memory() {
        let mut e = session("exec head -c 3000000 /dev/zero");
        let r = e.wait_for("usi", "usiok", Duration::from_secs(30));
        match r {
            Err(UsiError::Io { source, .. }) => {
                assert!(source.to_string().contains("longer than"), "{source}")
            }
            r => panic!("{r:?}"),
        }
    }

    #[test]
    fn a_wait_beyond_the_clock_range_does_not_overflow() {
        let mut e = session("echo usiok");
        let r = e.wait_for("usi", "usiok", Duration::from_millis(u64::MAX));
        assert_eq!(r.unwrap(), "usiok");
    }
}
