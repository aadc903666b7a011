//! A USI engine session for `diff mate`: the handshake, the options, and one `go mate`
//! per problem.
//!
//! The engine gets `usi` (its `option` lines are read until `usiok`), one `setoption` per
//! option asked for (checked against those lines, [`super::usi_option`]), `isready` once,
//! then per problem `usinewgame`, `position sfen …` and `go mate <ms>`, and must answer
//! `checkmate <moves>|nomate|timeout|notimplemented` (USI protocol, 将棋所's `go mate`
//! extension). `usinewgame` opens every problem as a GUI opens a game: shtsume reads
//! `position` and `go` only after it (before it, they are dropped and `go mate` is never
//! answered), and after a `stop` it waits for the next `usinewgame` again.
//!
//! Lines other than the awaited answer (`id`, `info`, blank lines) are read and let go; the
//! last `info string` before `checkmate` is kept (an engine's own remark on its answer:
//! shtsume's `Perpetual check!.` before a `nomate` given at its time limit). Lines are
//! decoded lossily: bytes that are not UTF-8 in an `info string` do not end the session.

use super::engine::read_line_capped_lossy;
use super::engine_process::EngineProcess;
use super::usi_option::{parse_option_line, setoption, OptionDecl, OptionError};
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
    /// An option asked for that the engine does not declare, or a value it does not take.
    #[error("`{command}`: {source}")]
    Option {
        /// The command line.
        command: String,
        /// What is wrong.
        source: OptionError,
    },
    /// It answered `checkmate notimplemented`: it has no mate search to compare.
    #[error("`{command}` answered `{sent}` with `checkmate notimplemented`: it has no mate search to compare")]
    NotImplemented {
        /// The command line.
        command: String,
        /// The `go mate` sent.
        sent: String,
    },
}

/// A USI engine process.
pub struct UsiEngine {
    command: String,
    child: EngineProcess,
    stdin: ChildStdin,
    /// The engine's lines, or the error that ended its output (a line longer than
    /// [`super::engine::MAX_LINE`]); bounded, so that an engine printing without end waits
    /// for us instead of filling the memory.
    lines: Receiver<std::io::Result<String>>,
}

/// The engine's answer to `go mate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateAnswer {
    /// `checkmate <moves>` (USI texts).
    Mate(Vec<String>),
    /// `checkmate nomate`.
    NoMate,
    /// `checkmate timeout` (or a bare `checkmate`).
    Timeout,
}

/// A `go mate` answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MateReply {
    /// The answer.
    pub answer: MateAnswer,
    /// From sending `go mate` to reading `checkmate`.
    pub elapsed: Duration,
    /// The last `info string` text before `checkmate` in this search, if any (at most
    /// 200 characters, then `…`).
    pub info_string: Option<String>,
    /// Whether the answer came only after a `stop` (the engine overran `ms` + 10 s).
    pub after_stop: bool,
}

impl UsiEngine {
    /// Starts `command` (by `sh -c`), waits for `usiok`, sets `options` (name, value) as
    /// checked against the engine's `option` lines, and waits for `readyok`; each answer
    /// may take `handshake`.
    ///
    /// # Errors
    /// [`UsiError`] if it cannot start, does not answer within `handshake`, ends, or
    /// does not have an option asked for or take its value ([`UsiError::Option`]).
    pub fn start(
        command: &str,
        options: &[(String, String)],
        handshake: Duration,
    ) -> Result<UsiEngine, UsiError> {
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
        let mut declared: Vec<OptionDecl> = Vec::new();
        e.wait_for("usi", "usiok", handshake, &mut |l| {
            declared.extend(parse_option_line(l))
        })?;
        for (name, value) in options {
            let line = setoption(&declared, name, value).map_err(|source| UsiError::Option {
                command: command.to_string(),
                source,
            })?;
            e.send(&line, "readyok")?;
        }
        e.send("isready", "readyok")?;
        e.wait_for("isready", "readyok", handshake, &mut |_| {})?;
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

    /// Waits for a line whose first word is `prefix`; returns it. Every other line read
    /// meanwhile is given to `other`.
    fn wait_for(
        &mut self,
        sent: &str,
        prefix: &str,
        wait: Duration,
        other: &mut dyn FnMut(&str),
    ) -> Result<String, UsiError> {
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
                Ok(Ok(l)) => other(&l),
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

    /// `usinewgame`, `position sfen <sfen>` and `go mate <ms>`; waits up to `ms` + 10 s
    /// (then sends `stop` and waits 5 s more).
    ///
    /// # Errors
    /// [`UsiError`] if the engine does not answer in time ([`UsiError::NoAnswer`], the
    /// whole wait counted), ends first ([`UsiError::Exited`]) or answers
    /// `checkmate notimplemented` ([`UsiError::NotImplemented`]).
    pub fn go_mate(&mut self, sfen: &str, ms: u64) -> Result<MateReply, UsiError> {
        self.send("usinewgame", "checkmate")?;
        self.send(&format!("position sfen {sfen}"), "checkmate")?;
        let go = format!("go mate {ms}");
        let t = Instant::now();
        self.send(&go, "checkmate")?;
        let mut info_string = None;
        let mut keep_info = |l: &str| {
            if let Some(text) = info_string_of(l) {
                info_string = Some(cut(text, 200));
            }
        };
        let first = Duration::from_millis(ms.saturating_add(10_000));
        let mut after_stop = false;
        let line = match self.wait_for(&go, "checkmate", first, &mut keep_info) {
            Ok(l) => l,
            Err(UsiError::NoAnswer { .. }) => {
                after_stop = true;
                self.send("stop", "checkmate")?;
                let after = Duration::from_secs(5);
                self.wait_for(&go, "checkmate", after, &mut keep_info)
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
                            secs: first.saturating_add(after).as_secs(),
                        },
                        e => e,
                    })?
            }
            Err(e) => return Err(e),
        };
        let elapsed = t.elapsed();
        let words: Vec<String> = line.split_whitespace().skip(1).map(String::from).collect();
        let answer = match words.first().map(String::as_str) {
            Some("nomate") => MateAnswer::NoMate,
            Some("timeout") | None => MateAnswer::Timeout,
            Some("notimplemented") => {
                return Err(UsiError::NotImplemented {
                    command: self.command.clone(),
                    sent: go,
                })
            }
            _ => MateAnswer::Mate(words),
        };
        Ok(MateReply {
            answer,
            elapsed,
            info_string,
            after_stop,
        })
    }
}

/// The text after `string` in an `info` line (`info string …`, or `info depth 3 string …`:
/// `string` takes the rest of the line).
fn info_string_of(line: &str) -> Option<&str> {
    let mut rest = line.trim_start().strip_prefix("info")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    loop {
        rest = rest.trim_start();
        let (word, after) = rest.split_at(rest.find(char::is_whitespace).unwrap_or(rest.len()));
        match word {
            "" => return None,
            "string" => return Some(after.trim()),
            _ => rest = after,
        }
    }
}

/// `text` cut to `max` characters, `…` appended when cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
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
        while let Some(line) = read_line_capped_lossy(&mut output).transpose() {
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
        // `yes` answers every wait with a line at once: the deadline still ends the wait
        // (without it the wait reads `y` lines forever; no wall-clock bound is asserted).
        let mut e = session("yes");
        let r = e.wait_for("usi", "usiok", Duration::from_millis(200), &mut |_| {});
        assert!(matches!(r, Err(UsiError::NoAnswer { .. })), "{r:?}");
    }

    #[test]
    fn an_endless_line_is_an_error_not_all_the_memory() {
        let mut e = session("exec head -c 3000000 /dev/zero");
        let r = e.wait_for("usi", "usiok", Duration::from_secs(30), &mut |_| {});
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
        let r = e.wait_for("usi", "usiok", Duration::from_millis(u64::MAX), &mut |_| {});
        assert_eq!(r.unwrap(), "usiok");
    }

    /// An `info string` in Shift_JIS (`詰み`: 8B 6C 82 DD) before `usiok` is let go, not
    /// the end of the session (it was: "stream did not contain valid UTF-8").
    #[test]
    fn a_line_that_is_not_utf8_is_read_lossily() {
        let mut e = session(r"printf 'info string \213\154\202\335\nusiok\n'; sleep 5");
        let mut seen = Vec::new();
        let r = e.wait_for("usi", "usiok", Duration::from_secs(30), &mut |l| {
            seen.push(l.to_string())
        });
        assert_eq!(r.unwrap(), "usiok");
        assert_eq!(seen, ["info string \u{fffd}l\u{fffd}\u{fffd}"]);
    }

    #[test]
    fn info_strings_are_found_and_cut() {
        assert_eq!(
            info_string_of("info string Perpetual check!."),
            Some("Perpetual check!.")
        );
        assert_eq!(
            info_string_of("info depth 3 nodes 9 string  a  b "),
            Some("a  b")
        );
        assert_eq!(info_string_of("info currmove G*1b"), None);
        assert_eq!(info_string_of("infostring x"), None);
        assert_eq!(info_string_of("info string"), Some(""));
        assert_eq!(cut("詰みです", 2), "詰み…");
        assert_eq!(cut("詰み", 2), "詰み");
    }
}
