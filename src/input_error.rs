//! One bad input, rendered as one line by every front end (the CLI's stderr, the
//! Python binding's `ShogiLabError`). The parsers keep their own typed errors with
//! their locations (a byte span, a line, a token); [`InputError`] places one in its
//! input and renders every one of them the same way:
//!
//! ```text
//! PATH:LINE:COL: message     (COL where the parser knows it)
//! PATH:LINE: message         (a line but no column)
//! PATH: message              (no place in the text: an unreadable file, an empty record)
//! ```
//!
//! `PATH` is the file as the user named it, `<stdin>` for `-`, `<argument>` for a text
//! given as an argument (a SFEN, a quantum world, a piece set: line 1). `LINE` and
//! `COL` are 1-based; `COL` counts characters, or bytes where the text could not be
//! decoded (a binary file, bytes that are neither UTF-8 nor Shift_JIS). The same format
//! as compilers (`file:line:col: message`), so editors jump to it.
//!
//! ```
//! use shogi_lab::input_error::{InputError, Origin};
//!
//! let e = InputError::at(Origin::File("game.kif".into()), 3, None, "unrecognised line");
//! assert_eq!(e.to_string(), "game.kif:3: unrecognised line");
//! ```

use std::fmt;

/// Where an input came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A file, by the path the user gave.
    File(String),
    /// Standard input (`-`).
    Stdin,
    /// A text given as an argument (on the command line, to a Python function).
    Argument,
}

impl Origin {
    /// The origin of a file argument: `-` is stdin.
    pub fn file(name: &str) -> Origin {
        if name == "-" {
            Origin::Stdin
        } else {
            Origin::File(name.to_string())
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File(p) => f.write_str(p),
            Origin::Stdin => f.write_str("<stdin>"),
            Origin::Argument => f.write_str("<argument>"),
        }
    }
}

/// A place in a text: 1-based line and column, each `None` when unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Location {
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column (characters; bytes in undecodable text).
    pub col: Option<usize>,
}

impl Location {
    /// The line and character column of byte `offset` of `text` (clamped to the text;
    /// a column inside a character is that character's).
    pub fn of_byte(text: &str, offset: usize) -> Location {
        let mut at = offset.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &text[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            line: Some(before.matches('\n').count() + 1),
            col: Some(before[line_start..].chars().count() + 1),
        }
    }
}

/// A parser error that can be placed: its message without location, and where it is
/// in the text the parser read.
pub trait Located {
    /// What is wrong, without the location.
    fn message(&self) -> String;
    /// Where in `text` (the text given to the parser).
    fn location(&self, text: &str) -> Location;
}

/// One bad input, rendered as one line (module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The input.
    pub origin: Origin,
    /// Where in it.
    pub location: Location,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error about the input as a whole (`PATH: message`).
    pub fn new(origin: Origin, message: impl fmt::Display) -> InputError {
        InputError {
            origin,
            location: Location::default(),
            message: message.to_string(),
        }
    }

    /// An error at `line` (and `col`) of the input.
    pub fn at(
        origin: Origin,
        line: usize,
        col: Option<usize>,
        message: impl fmt::Display,
    ) -> InputError {
        InputError {
            origin,
            location: Location {
                line: Some(line),
                col,
            },
            message: message.to_string(),
        }
    }

    /// A parser's error `e` on a whole input `text` (a record file): the place is
    /// the one the parser reports.
    pub fn in_text(origin: Origin, text: &str, e: &(impl Located + ?Sized)) -> InputError {
        InputError {
            origin,
            location: e.location(text),
            message: e.message(),
        }
    }

    /// A parser's error `e` on `text`, a piece of the input that starts at `line`,
    /// column `col` (a SFEN after an id column, an argument: line 1, column 1). The
    /// line is known even where the parser gives no place.
    pub fn in_line(
        origin: Origin,
        line: usize,
        col: usize,
        text: &str,
        e: &(impl Located + ?Sized),
    ) -> InputError {
        let l = e.location(text);
        let location = match l.line {
            Some(n) if n > 1 => Location {
                line: Some(line + n - 1),
                col: l.col,
            },
            _ => Location {
                line: Some(line),
                col: l.col.map(|c| col + c - 1),
            },
        };
        InputError {
            origin,
            location,
            message: e.message(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.origin)?;
        if let Some(line) = self.location.line {
            write!(f, "{line}:")?;
            if let Some(col) = self.location.col {
                write!(f, "{col}:")?;
            }
        }
        write!(f, " {}", self.message)
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_path_line_col() {
        let f = |l: Option<usize>, c: Option<usize>| InputError {
            origin: Origin::File("a.kif".into()),
            location: Location { line: l, col: c },
            message: "bad".into(),
        };
        assert_eq!(f(Some(3), Some(7)).to_string(), "a.kif:3:7: bad");
        assert_eq!(f(Some(3), None).to_string(), "a.kif:3: bad");
        assert_eq!(f(None, None).to_string(), "a.kif: bad");
        assert_eq!(
            InputError::new(Origin::file("-"), "x").to_string(),
            "<stdin>: x"
        );
        assert_eq!(
            InputError::at(Origin::Argument, 1, Some(2), "x").to_string(),
            "<argument>:1:2: x"
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(
            Location::of_byte("ab\n歩歩x", "ab\n歩歩".len()),
            Location {
                line: Some(2),
                col: Some(3)
            }
        );
        // Inside a character, past the end: clamped.
        assert_eq!(Location::of_byte("歩", 1).col, Some(1));
        assert_eq!(Location::of_byte("ab", 99).col, Some(3));
    }
}
