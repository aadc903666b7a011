//! Another program run as a line-oriented oracle: SFEN-like lines in on stdin,
//! one answer line out per input line. The command is run by `sh -c`, so it may
//! be any shell command line (`python3 adapter.py`, `./movegen --sfen`).
//!
//! Each [`LineEngine::ask`] starts the program, writes all lines from a second
//! thread (so a large batch cannot deadlock on full pipes), closes its stdin and
//! reads its answers: the program needs no flushing, only to answer each line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
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
    /// It answered another number of lines than it was asked.
    #[error("`{command}` answered {answered} lines to {asked} ({status})")]
    WrongCount {
        /// The command line.
        command: String,
        /// Lines asked.
        asked: usize,
        /// Lines answered.
        answered: usize,
        /// Its exit status.
        status: String,
    },
    /// Reading its output failed.
    #[error("reading from `{command}`: {source}")]
    Io {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// A program answering one line per input line.
#[derive(Debug, Clone)]
pub struct LineEngine {
    /// The shell command line.
    pub command: String,
}

impl LineEngine {
    /// An engine run as `sh -c command`.
    pub fn new(command: impl Into<String>) -> LineEngine {
        LineEngine {
            command: command.into(),
        }
    }

    /// Asks every line in one run of the program; returns its answers in order.
    ///
    /// # Errors
    /// [`EngineError`] if the program cannot start, fails to read, or answers another number of lines.
    pub fn ask(&self, lines: &[String]) -> Result<Vec<String>, EngineError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| EngineError::Spawn {
                command: self.command.clone(),
                source,
            })?;
        let mut stdin = child.stdin.take().expect("piped");
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // A program that exits early closes the pipe; its short answer is reported below.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = child.stdout.take().expect("piped");
        let mut answers = Vec::with_capacity(lines.len());
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|source| EngineError::Io {
                command: self.command.clone(),
                source,
            })?;
            answers.push(line);
        }
        let _ = writer.join();
        let status = child.wait().map_err(|source| EngineError::Io {
            command: self.command.clone(),
            source,
        })?;
        if answers.len() != lines.len() {
            return Err(EngineError::WrongCount {
                command: self.command.clone(),
                asked: lines.len(),
                answered: answers.len(),
                status: status.to_string(),
            });
        }
        Ok(answers)
    }
}
