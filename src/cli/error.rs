//! The CLI's side of [`crate::input_error`]: an [`InputError`] is a [`Failure`] with
//! exit 2 and its one line; the parsers' errors are placed ([`Located`]) here.

use super::Failure;
pub use crate::input_error::{InputError, Located, Location, Origin};

impl From<InputError> for Failure {
    fn from(e: InputError) -> Failure {
        Failure::input(e)
    }
}

/// The 1-based character column where `part` (a subslice of `line`) starts in `line`
/// (1 if `part` is not a subslice of it).
pub fn column_of(line: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize)
        .checked_sub(line.as_ptr() as usize)
        .filter(|&o| o + part.len() <= line.len())
        .unwrap_or(0);
    Location::of_byte(line, offset).col.unwrap_or(1)
}

/// `why` without serde_json's trailing ` at line N column M` (the place is rendered in front).
fn without_json_place(why: &str) -> &str {
    match why.rsplit_once(" at line ") {
        Some((head, place))
            if place.split_once(" column ").is_some_and(|(l, c)| {
                [l, c].iter().all(|n| n.bytes().all(|b| b.is_ascii_digit()))
            }) =>
        {
            head
        }
        _ => why,
    }
}

// ------------------------------------------------------------ the parsers' errors

use crate::notation::detect::ReadError;
use crate::notation::record::RecordError;
use crate::notation::sfen::{SfenError, UsiPositionError};

impl Located for SfenError {
    fn message(&self) -> String {
        self.kind.to_string()
    }
    fn location(&self, text: &str) -> Location {
        Location::of_byte(text, self.span.start)
    }
}

impl Located for UsiPositionError {
    fn message(&self) -> String {
        match self {
            UsiPositionError::Sfen(e) => e.message(),
            UsiPositionError::Move { index, error, .. } => format!("move {}: {error}", index + 1),
        }
    }
    fn location(&self, text: &str) -> Location {
        match self {
            UsiPositionError::Sfen(e) => e.location(text),
            UsiPositionError::Move { span, .. } => Location::of_byte(text, span.start),
        }
    }
}

impl Located for RecordError {
    fn message(&self) -> String {
        self.kind.to_string()
    }
    fn location(&self, _: &str) -> Location {
        Location {
            line: Some(self.line),
            col: self.column(),
        }
    }
}

impl Located for ReadError {
    fn message(&self) -> String {
        self.kind.to_string()
    }
    fn location(&self, _: &str) -> Location {
        Location {
            line: Some(self.line),
            col: self.column,
        }
    }
}

impl Located for crate::tsume::ProblemError {
    fn message(&self) -> String {
        match self {
            crate::tsume::ProblemError::Sfen(e) => e.message(),
            e => e.to_string(),
        }
    }
    fn location(&self, text: &str) -> Location {
        match self {
            crate::tsume::ProblemError::Sfen(e) => e.location(text),
            crate::tsume::ProblemError::Move { span, .. } => Location::of_byte(text, span.start),
            _ => Location::default(),
        }
    }
}

impl Located for crate::placement::PieceSetError {
    fn message(&self) -> String {
        let text = self.to_string();
        // The byte offset becomes the column.
        match text.split_once(": ") {
            Some((head, rest)) if head.starts_with("byte ") => rest.to_string(),
            _ => text,
        }
    }
    fn location(&self, text: &str) -> Location {
        use crate::placement::PieceSetError as E;
        match *self {
            E::UnknownLetter { at, .. }
            | E::NotPromotable { at, .. }
            | E::DanglingPlus { at }
            | E::BadCount { at } => Location::of_byte(text, at),
            _ => Location::default(),
        }
    }
}

impl Located for crate::quantum::ParseError {
    fn message(&self) -> String {
        self.to_string()
    }
    fn location(&self, text: &str) -> Location {
        use crate::quantum::ParseError as E;
        let (token, bad): (usize, fn(&str) -> Option<usize>) = match *self {
            // The offending character: the first that is no kind, the second of a repeated
            // kind, the `*` or `-` among letters.
            E::BadKind { token, .. } => (token, first_bad_kind),
            E::Repeated { token, .. } => (token, first_repeat),
            E::Mixed { token, .. } => (token, |t| t.find(['*', '-'])),
            _ => return Location::default(),
        };
        let start = text.split_whitespace().nth(token).map_or(0, |t| {
            t.as_ptr() as usize - text.as_ptr() as usize + bad(t).unwrap_or(0)
        });
        Location::of_byte(text, start)
    }
}

/// Byte offset of the first character of `t` that is not a kind letter.
fn first_bad_kind(t: &str) -> Option<usize> {
    t.char_indices()
        .find(|&(_, c)| crate::quantum::Kind::from_char(c).is_none())
        .map(|(i, _)| i)
}

/// Byte offset of the first character of `t` that repeats an earlier one.
fn first_repeat(t: &str) -> Option<usize> {
    t.char_indices()
        .find(|&(i, c)| {
            t[..i].chars().any(|d| {
                crate::quantum::Kind::from_char(d).is_some()
                    && crate::quantum::Kind::from_char(d) == crate::quantum::Kind::from_char(c)
            })
        })
        .map(|(i, _)| i)
}

impl Located for crate::quantum::record::RecordError {
    fn message(&self) -> String {
        self.what.clone()
    }
    fn location(&self, _: &str) -> Location {
        Location {
            // Line 0: the text as a whole (no moves).
            line: Some(self.line).filter(|&l| l > 0),
            col: None,
        }
    }
}

impl Located for crate::quantum::shogitter::ImportError {
    fn message(&self) -> String {
        use crate::quantum::shogitter::ImportError as E;
        match self {
            E::Json { what, .. } => format!("not JSON: {what}"),
            e => e.to_string(),
        }
    }
    fn location(&self, _: &str) -> Location {
        use crate::quantum::shogitter::ImportError as E;
        match *self {
            E::Json { line, column, .. } => Location {
                line: Some(line),
                col: (column > 0).then_some(column),
            },
            _ => Location::default(),
        }
    }
}

impl Located for crate::certificate::CheckError {
    fn message(&self) -> String {
        use crate::certificate::CheckError as E;
        match self {
            E::Unreadable { why, .. } => without_json_place(why).to_string(),
            e => e.to_string(),
        }
    }
    fn location(&self, _: &str) -> Location {
        use crate::certificate::CheckError as E;
        match *self {
            E::Unreadable { line, col, .. } => Location {
                line: Some(line),
                col: (col > 0).then_some(col),
            },
            _ => Location::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::{parse_position, parse_usi_position};
    use crate::rules::Rules;

    #[test]
    fn columns_of_parts_count_characters() {
        let line = "id\t歩 sfen";
        assert_eq!(column_of(line, &line[3..]), 4);
        assert_eq!(column_of(line, &line[6..]), 5);
        assert_eq!(column_of(line, "elsewhere"), 1);
    }

    #[test]
    fn a_sfen_error_is_placed_in_its_line() {
        let line = "z-1\tlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1";
        let sfen = &line[4..];
        let e = parse_position(sfen, Rules::STANDARD).unwrap_err();
        let got = InputError::in_line(
            Origin::File("p.sfen".into()),
            5,
            column_of(line, sfen),
            sfen,
            &e,
        );
        // The X is character 61 of the line.
        assert_eq!(line.find('X'), Some(60));
        assert_eq!(
            got.to_string(),
            "p.sfen:5:61: unexpected character 'X' in the board"
        );
        let e = parse_usi_position("startpos moves 7g7f 7g7f", Rules::STANDARD).unwrap_err();
        assert_eq!(
            InputError::in_line(Origin::Argument, 1, 1, "startpos moves 7g7f 7g7f", &e).to_string(),
            "<argument>:1:21: move 2: illegal move 7g7f"
        );
    }

    #[test]
    fn record_errors_keep_their_line() {
        let e = crate::notation::kif::read_kif("手合割：平手\nこれは何\n").unwrap_err();
        assert_eq!(
            InputError::in_text(Origin::File("u.kif".into()), "", &e).to_string(),
            "u.kif:2: unrecognised line \"これは何\""
        );
        let e = crate::notation::record::decode(b"ab\ncd\0").unwrap_err();
        assert_eq!(
            InputError::in_text(Origin::Stdin, "", &e).to_string(),
            "<stdin>:2:3: not a text record: a binary file (NUL byte at byte 3 of the line)"
        );
    }

    #[test]
    fn json_places_are_not_repeated() {
        assert_eq!(
            without_json_place("expected value at line 1 column 1"),
            "expected value"
        );
        assert_eq!(without_json_place("at line 3"), "at line 3");
        let e = crate::certificate::check_text("{", None).unwrap_err();
        let got = InputError::in_text(Origin::File("c.jsonl".into()), "{", &e).to_string();
        assert!(got.starts_with("c.jsonl:1:"), "{got}");
        assert!(!got.contains(" at line "), "{got}");
    }

    #[test]
    fn arguments_are_placed_by_column() {
        let e = crate::placement::PieceSet::parse("P3X").unwrap_err();
        assert_eq!(
            InputError::in_line(Origin::Argument, 1, 1, "P3X", &e).to_string(),
            "<argument>:1:3: 'X' is not a piece letter (P L N S G B R K, optionally after +; Q)"
        );
        let w = "K R  Z";
        let e =
            crate::quantum::World::parse_exact(&format!("{w} * * * * * * * * * * * * * * * * *"))
                .unwrap_err();
        let got = InputError::in_line(Origin::Argument, 1, 1, w, &e).to_string();
        assert!(got.starts_with("<argument>:1:6: token 2 (\"Z\")"), "{got}");
    }
}
