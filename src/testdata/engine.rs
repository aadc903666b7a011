//! Another program run as a line-oriented oracle: SFEN-like lines in on stdin,
//! one answer line out per input line. The command is run by `sh -c`, so it may
//! be any shell command line (`python3 adapter.py`, `./movegen --sfen`).
//!
//! Each [`LineEngine::ask`] starts the program, writes all lines from a second
//! thread (so a large batch cannot deadlock on full pipes), closes its stdin and
//! reads its answers: the program needs no flushing, only to answer each line. The
//! program and what it starts are killed when the batch ends and when shogi-lab ends
//! ([`super::engine_process`]).

use super::engine_process::EngineProcess;
use std::io::{self, BufRead, BufReader, Read, Write};
use thiserror::Error;

/// Why an engine gave no usable answer.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
    /// It ended before answering every line it was asked (it crashed, or exited early):
    /// the first line it left unanswered is the input to try it on.
    #[error("`{command}` answered {answered} lines to {asked} ({status}); no answer to line {} of its input: {unanswered}", answered + 1)]
    WrongCount {
        /// The command line.
        command: String,
        /// Lines asked.
        asked: usize,
        /// Lines answered.
        answered: usize,
        /// Its exit status.
        status: String,
        /// The first input line it did not answer (line `answered + 1`).
        unanswered: String,
    },
    /// It answered more lines than it was asked (`yes`): it is stopped, not read to its end.
    #[error("`{command}` answered more than {asked} lines (stopped)")]
    TooManyLines {
        /// The command line.
        command: String,
        /// Lines asked.
        asked: usize,
    },
    /// It had not answered a batch within its time limit ([`LineEngine::timeout`]): it is
    /// killed.
    #[error("`{command}` gave no complete answer to {asked} lines within {secs} s (killed)")]
    Timeout {
        /// The command line.
        command: String,
        /// Lines asked.
        asked: usize,
        /// The limit, seconds.
        secs: u64,
    },
    /// Reading its output failed (or a line was longer than [`MAX_LINE`] bytes).
    #[error("reading from `{command}`: {source}")]
    Io {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// The longest line read from another program (its answers are at most a few
/// kilobytes: a list of legal moves, a count, a USI line); a longer one is an error, so
/// that a program printing without end (`cat /dev/zero`) cannot take all the memory.
pub const MAX_LINE: usize = 1 << 20;

/// One line of `r` without its end (`\n` or `\r\n`), `None` at the end of input.
///
/// # Errors
/// The read's error, [`io::ErrorKind::InvalidData`] for a line longer than [`MAX_LINE`]
/// bytes or one that is not UTF-8.
pub fn read_line_capped(r: &mut impl BufRead) -> io::Result<Option<String>> {
    read_bytes_capped(r)?
        .map(|buf| {
            String::from_utf8(buf).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                )
            })
        })
        .transpose()
}

/// As [`read_line_capped`], but bytes that are not UTF-8 become U+FFFD instead of an
/// error: for a USI engine's lines, whose `info string` text may be in another encoding
/// (Shift_JIS) while the lines read for their meaning are ASCII.
///
/// # Errors
/// The read's error, [`io::ErrorKind::InvalidData`] for a line longer than [`MAX_LINE`]
/// bytes.
pub fn read_line_capped_lossy(r: &mut impl BufRead) -> io::Result<Option<String>> {
    Ok(
        read_bytes_capped(r)?.map(|buf| match String::from_utf8(buf) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }),
    )
}

/// One line's bytes without its end, at most [`MAX_LINE`] of them.
fn read_bytes_capped(r: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    if r.take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf)? == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > MAX_LINE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a line longer than {MAX_LINE} bytes"),
        ));
    }
    Ok(Some(buf))
}

/// A program answering one line per input line.
#[derive(Debug, Clone)]
pub struct LineEngine {
    /// The shell command line.
    pub command: String,
    /// How long one [`LineEngine::ask`] may take (`None`: no limit); a program that has
    /// not answered by then is killed, so that one hanging on some input cannot stall
    /// the run.
    pub timeout: Option<std::time::Duration>,
}

impl LineEngine {
    /// An engine run as `sh -c command`, without a time limit.
    pub fn new(command: impl Into<String>) -> LineEngine {
        LineEngine {
            command: command.into(),
            timeout: None,
        }
    }

    /// The same engine, each batch limited to `timeout`.
    #[must_use]
    pub fn with_timeout(self, timeout: Option<std::time::Duration>) -> LineEngine {
        LineEngine { timeout, ..self }
    }

    /// Asks every line in one run of the program; returns its answers in order.
    ///
    /// # Errors
    /// [`EngineError`] if the program cannot start, fails to read, or answers another number of lines.
    pub fn ask(&self, lines: &[String]) -> Result<Vec<String>, EngineError> {
        // In a guarded process group of its own: killed, with all it started, when the
        // batch is answered, given up on, or shogi-lab ends ([`EngineProcess`]).
        let mut child =
            EngineProcess::spawn(&self.command).map_err(|source| EngineError::Spawn {
                command: self.command.clone(),
                source,
            })?;
        let mut stdin = child.take_stdin().expect("piped");
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // A program that exits early closes the pipe; its short answer is reported below.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = BufReader::new(child.take_stdout().expect("piped"));
        // Read on a thread of its own, so that a time limit can end the wait.
        let (asked, command) = (lines.len(), self.command.clone());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(read_answers(stdout, asked, &command));
        });
        let got = match self.timeout {
            None => rx.recv().ok(),
            Some(t) => rx.recv_timeout(t).ok(),
        };
        let Some((answers, read)) = got else {
            // Out of time: killed with every process it started (its process group), so
            // that its pipes close and the reading threads end.
            child.kill();
            let _ = child.wait();
            return Err(EngineError::Timeout {
                command: self.command.clone(),
                asked: lines.len(),
                secs: self.timeout.map_or(0, |t| t.as_secs()),
            });
        };
        if read.is_err() {
            child.kill();
        }
        let _ = writer.join();
        let status = child.wait().map_err(|source| EngineError::Io {
            command: self.command.clone(),
            source,
        })?;
        read?;
        if answers.len() != lines.len() {
            return Err(EngineError::WrongCount {
                command: self.command.clone(),
                asked: lines.len(),
                answered: answers.len(),
                status: status.to_string(),
                unanswered: lines[answers.len()].clone(),
            });
        }
        Ok(answers)
    }
}

/// The answer lines of a program asked `asked` lines, read from `stdout` to its end. At
/// most one line more than asked is read, each at most [`MAX_LINE`] bytes: a program
/// that prints without end is stopped, not read to its end.
fn read_answers(
    mut stdout: impl BufRead,
    asked: usize,
    command: &str,
) -> (Vec<String>, Result<(), EngineError>) {
    let mut answers = Vec::with_capacity(asked);
    let read = loop {
        match read_line_capped(&mut stdout) {
            Ok(None) => break Ok(()),
            Ok(Some(_)) if answers.len() == asked => {
                break Err(EngineError::TooManyLines {
                    command: command.to_string(),
                    asked,
                })
            }
            Ok(Some(line)) => answers.push(line),
            Err(source) => {
                break Err(EngineError::Io {
                    command: command.to_string(),
                    source,
                })
            }
        }
    };
    (answers, read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_without_their_end_and_capped() {
        let mut r = io::Cursor::new(b"a b\r\nc\nlast".to_vec());
        assert_eq!(read_line_capped(&mut r).unwrap().as_deref(), Some("a b"));
        assert_eq!(read_line_capped(&mut r).unwrap().as_deref(), Some("c"));
        assert_eq!(read_line_capped(&mut r).unwrap().as_deref(), Some("last"));
        assert_eq!(read_line_capped(&mut r).unwrap(), None);
        let mut long = io::Cursor::new(vec![b'x'; MAX_LINE + 10]);
        let e = read_line_capped(&mut long).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        let mut exact = io::Cursor::new(vec![b'x'; MAX_LINE]);
        assert_eq!(
            read_line_capped(&mut exact).unwrap().unwrap().len(),
            MAX_LINE
        );
    }

    #[test]
    fn a_program_answering_without_end_is_stopped() {
        let asked = vec!["startpos".to_string(); 3];
        let e = LineEngine::new("yes").ask(&asked).unwrap_err();
        assert!(
            matches!(e, EngineError::TooManyLines { asked: 3, .. }),
            "{e}"
        );
        let e = LineEngine::new("cat /dev/zero").ask(&asked).unwrap_err();
        assert!(e.to_string().contains("longer than"), "{e}");
    }

    #[test]
    fn a_program_that_does_not_answer_in_time_is_killed() {
        let asked = vec!["startpos".to_string(); 2];
        let slow =
            LineEngine::new("sleep 30").with_timeout(Some(std::time::Duration::from_secs(1)));
        let e = slow.ask(&asked).unwrap_err();
        assert!(
            matches!(
                e,
                EngineError::Timeout {
                    asked: 2,
                    secs: 1,
                    ..
                }
            ),
            "{e}"
        );
        // Within its limit a program answers as without one.
        let quick = LineEngine::new("cat").with_timeout(Some(std::time::Duration::from_secs(30)));
        assert_eq!(quick.ask(&asked).unwrap(), asked);
    }
}
