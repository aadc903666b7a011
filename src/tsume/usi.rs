//! A USI engine front end for mate search: `usi`, `isready`, `setoption name
//! USI_Hash value <MiB>`, `usinewgame`, `position …`, `go mate <ms|infinite>`
//! → `checkmate <moves>` / `checkmate nomate` / `checkmate timeout`, with an
//! `info nodes … nps … time …` line; `stop` is accepted between searches (a
//! search runs to its limit), `quit` ends.

use super::{load_problem, solve, DefenderHand, Outcome, SolverOptions};
use crate::notation::sfen::{parse_usi_position, write_sfen};
use crate::rules::{Position, Rules};
use std::io::{BufRead, Write};
use std::time::Duration;

/// Runs the USI loop until `quit` or end of input.
///
/// # Errors
/// I/O errors from `input` or `output`.
pub fn run_usi(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut hash_mib = 256usize;
    let mut position: Option<Position> = None;
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("usi") => {
                writeln!(
                    output,
                    "id name shogi-lab tsume {}",
                    env!("CARGO_PKG_VERSION")
                )?;
                writeln!(output, "id author shogi-lab")?;
                writeln!(
                    output,
                    "option name USI_Hash type spin default 256 min 1 max 65536"
                )?;
                writeln!(output, "usiok")?;
            }
            Some("isready") => writeln!(output, "readyok")?,
            Some("setoption") => {
                // setoption name USI_Hash value N
                if let (Some(n), Some(v)) = (
                    words.iter().position(|&w| w == "name"),
                    words.iter().position(|&w| w == "value"),
                ) {
                    if words.get(n + 1) == Some(&"USI_Hash") {
                        if let Some(x) = words.get(v + 1).and_then(|x| x.parse::<usize>().ok()) {
                            hash_mib = x.max(1);
                        }
                    }
                }
            }
            Some("position") => match parse_usi_position(&line, Rules::TSUME) {
                // The side to move attacks; the defender's hand is as given (USI positions are complete).
                Ok(p) => {
                    position = load_problem(&write_sfen(&p.position), DefenderHand::AsGiven).ok()
                }
                Err(e) => {
                    writeln!(output, "info string bad position: {e}")?;
                    position = None;
                }
            },
            Some("go") => {
                let Some(pos) = &position else {
                    writeln!(output, "info string no position")?;
                    writeln!(output, "checkmate nomate")?;
                    continue;
                };
                let time = match (words.get(1), words.get(2)) {
                    (Some(&"mate"), Some(&"infinite")) | (Some(&"mate"), None) => None,
                    (Some(&"mate"), Some(ms)) => ms.parse::<u64>().ok().map(Duration::from_millis),
                    _ => None,
                };
                let opts = SolverOptions {
                    time,
                    memory_mib: hash_mib,
                    ..SolverOptions::default()
                };
                let r = solve(pos, &opts);
                let ms = r.stats.time.as_millis().max(1) as u64;
                writeln!(
                    output,
                    "info nodes {} nps {} time {}",
                    r.stats.nodes,
                    r.stats.nodes * 1000 / ms,
                    ms
                )?;
                match r.outcome {
                    Outcome::Mate => writeln!(output, "checkmate {}", r.line_usi())?,
                    Outcome::NoMate => writeln!(output, "checkmate nomate")?,
                    Outcome::Unknown => writeln!(output, "checkmate timeout")?,
                }
            }
            Some("quit") => break,
            _ => {}
        }
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_go_mate() {
        let input = "usi\nsetoption name USI_Hash value 16\nisready\nposition sfen 8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\ngo mate 1000\nposition sfen 8k/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1\ngo mate infinite\nquit\n";
        let mut out = Vec::new();
        run_usi(input.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("usiok") && out.contains("readyok"));
        assert!(out.contains("\ncheckmate G*1b\n"), "{out}");
        assert!(out.contains("\ncheckmate nomate\n"), "{out}");
        assert!(out.contains("info nodes "));
    }
}
