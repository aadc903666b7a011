//! The input thread: reads the GUI's lines as bytes so that a non-UTF-8 line or an
//! over-long one becomes an error event instead of ending the engine, and reports
//! the end of input (KomoringHeights reads input on its own thread the same way).

use super::engine::Event;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::Sender;

/// Longest line accepted (a `position` with thousands of moves fits easily).
pub const MAX_LINE: usize = 1 << 20;

/// Starts the thread; it sends [`Event::Line`], [`Event::BadLine`] and finally [`Event::Eof`].
pub fn spawn_reader(input: impl Read + Send + 'static, tx: Sender<Event>) {
    std::thread::Builder::new()
        .name("usi-input".into())
        .spawn(move || read_lines(input, &tx))
        .expect("cannot start the USI input thread");
}

fn read_lines(input: impl Read, tx: &Sender<Event>) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    let mut number = 0usize;
    loop {
        buf.clear();
        number += 1;
        let n = match (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Event::BadLine(format!("cannot read input: {e}")));
                break;
            }
        };
        if n == 0 {
            break;
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // Skip the rest of the line.
            loop {
                buf.clear();
                match (&mut reader).take(1 << 16).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buf.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            let msg = format!("input line {number}: longer than {MAX_LINE} bytes, ignored");
            if tx.send(Event::BadLine(msg)).is_err() {
                return;
            }
            continue;
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        let ev = match String::from_utf8(std::mem::take(&mut buf)) {
            Ok(s) => Event::Line(s),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let bytes = e.as_bytes();
                let column = String::from_utf8_lossy(&bytes[..at]).chars().count() + 1;
                Event::BadLine(format!(
                    "input line {number}: not UTF-8 (byte 0x{:02x} at column {column}), ignored",
                    bytes[at]
                ))
            }
        };
        if tx.send(ev).is_err() {
            return;
        }
    }
    let _ = tx.send(Event::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_and_long_lines_become_errors_and_reading_goes_on() {
        let mut input = b"usi\r\nis\xffready\n".to_vec();
        input.extend(std::iter::repeat(b'x').take(MAX_LINE + 10));
        input.extend(b"\nquit");
        let (tx, rx) = std::sync::mpsc::channel();
        read_lines(&input[..], &tx);
        let got: Vec<String> = rx
            .try_iter()
            .map(|e| match e {
                Event::Line(s) => format!("line {s}"),
                Event::BadLine(s) => format!("bad {s}"),
                Event::Eof => "eof".into(),
                Event::Done { .. } | Event::Proven { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(
            got,
            [
                "line usi",
                "bad input line 2: not UTF-8 (byte 0xff at column 3), ignored",
                "bad input line 3: longer than 1048576 bytes, ignored",
                "line quit",
                "eof"
            ]
        );
    }
}
