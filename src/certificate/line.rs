//! One node line of a certificate (`specs/certificate.md`), read into a typed
//! [`NodeLine`]. The plain form the extractor writes (no whitespace, strings without
//! escapes, members `budget`, `by_checker`, `covered_by`, `id`, `moves`, `sfen` each at most once in
//! any order, unsigned integers without leading zeros) is read by a strict
//! allocation-light pass; anything else (version 3's witnesses too) goes to
//! `serde_json`, which decides and reports the error with its column. Where the plain
//! pass answers it answers as `serde_json` (compared on mutated lines in the tests).

use std::borrow::Cow;

/// A futility witness as written: `[reply, recapture, node]`.
pub type FutileWitness<'a> = (Cow<'a, str>, Cow<'a, str>, u64);

/// One node line as written; other members are ignored.
#[derive(Debug, PartialEq, Eq, serde::Deserialize)]
pub struct NodeLine<'a> {
    /// The node's id.
    pub id: u64,
    /// Its position.
    #[serde(borrow)]
    pub sfen: Cow<'a, str>,
    /// `[USI move, child id]` pairs.
    #[serde(default, borrow)]
    pub moves: Option<Vec<(Cow<'a, str>, u64)>>,
    /// The covering node.
    #[serde(default)]
    pub covered_by: Option<u64>,
    /// Version 2: the budget of a node of the bounded no-mate graph.
    #[serde(default)]
    pub budget: Option<u32>,
    /// Version 4: an attacker node of the bounded no-mate graph, one ply from its end,
    /// whose claim the checker decides itself (no `moves`).
    #[serde(default)]
    pub by_checker: bool,
    /// Version 3: a mate defender node's futility witnesses `[reply, recapture, node]`.
    #[serde(default, borrow)]
    pub futile: Option<Vec<FutileWitness<'a>>>,
    /// Version 3: a no-mate defender node's non-futility witnesses `[recapture, node]`.
    #[serde(default, borrow)]
    pub nonfutile: Option<Vec<(Cow<'a, str>, u64)>>,
}

/// Reads a node line.
///
/// # Errors
/// `serde_json`'s error for a line that is not a node line.
pub fn read(line: &str) -> Result<NodeLine<'_>, serde_json::Error> {
    match Plain(line.as_bytes(), 0).node(line) {
        Some(n) => Ok(n),
        None => serde_json::from_str(line),
    }
}

/// The plain reader: the bytes and the position in them.
struct Plain<'b>(&'b [u8], usize);

impl Plain<'_> {
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.0.get(self.1) == Some(&c)).then(|| self.1 += 1)
    }

    fn peek(&self) -> Option<u8> {
        self.0.get(self.1).copied()
    }

    /// An unsigned integer without leading zero (serde_json's grammar), then `,` `]` or `}`.
    fn uint(&mut self) -> Option<u64> {
        let start = self.1;
        let mut n: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            n = n.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            self.1 += 1;
        }
        let len = self.1 - start;
        if len == 0 || (len > 1 && self.0[start] == b'0') {
            return None;
        }
        matches!(self.peek(), Some(b',' | b']' | b'}')).then_some(n)
    }

    /// `true` or `false`, then `,` `]` or `}`.
    fn boolean(&mut self) -> Option<bool> {
        let rest = &self.0[self.1..];
        let (b, len) = if rest.starts_with(b"true") {
            (true, 4)
        } else if rest.starts_with(b"false") {
            (false, 5)
        } else {
            return None;
        };
        self.1 += len;
        matches!(self.peek(), Some(b',' | b']' | b'}')).then_some(b)
    }

    /// A string without escapes or control characters; its bytes' range.
    fn string(&mut self) -> Option<(usize, usize)> {
        self.eat(b'"')?;
        let start = self.1;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => self.1 += 1,
            }
        }
        self.1 += 1;
        Some((start, self.1 - 1))
    }

    fn node<'a>(&mut self, text: &'a str) -> Option<NodeLine<'a>> {
        let s = |(a, b): (usize, usize)| text.get(a..b).map(Cow::Borrowed);
        let (mut id, mut sfen, mut moves, mut covered_by, mut budget, mut by_checker) =
            (None, None, None, None, None, None);
        self.eat(b'{')?;
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            let fresh = match &self.0[key.0..key.1] {
                b"id" => id.replace(self.uint()?).is_none(),
                b"covered_by" => covered_by.replace(self.uint()?).is_none(),
                b"budget" => budget.replace(u32::try_from(self.uint()?).ok()?).is_none(),
                b"by_checker" => by_checker.replace(self.boolean()?).is_none(),
                b"sfen" => sfen.replace(s(self.string()?)?).is_none(),
                b"moves" => moves.replace(self.moves(&s)?).is_none(),
                _ => return None,
            };
            if !fresh {
                return None;
            }
            if self.eat(b',').is_none() {
                break;
            }
        }
        self.eat(b'}')?;
        (self.1 == self.0.len()).then_some(())?;
        Some(NodeLine {
            id: id?,
            sfen: sfen?,
            moves,
            covered_by,
            budget,
            by_checker: by_checker.unwrap_or(false),
            futile: None,
            nonfutile: None,
        })
    }

    fn moves<'a>(
        &mut self,
        s: &impl Fn((usize, usize)) -> Option<Cow<'a, str>>,
    ) -> Option<Vec<(Cow<'a, str>, u64)>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        if self.eat(b']').is_some() {
            return Some(out);
        }
        loop {
            self.eat(b'[')?;
            let m = s(self.string()?)?;
            self.eat(b',')?;
            let c = self.uint()?;
            self.eat(b']')?;
            out.push((m, c));
            if self.eat(b',').is_none() {
                break;
            }
        }
        self.eat(b']')?;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    const LINES: [&str; 7] = [
        r#"{"id":5,"moves":[["G*1b",6],["2c2b+",7]],"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1"}"#,
        r#"{"covered_by":3,"id":8,"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1"}"#,
        r#"{"budget":1,"id":19,"moves":[],"sfen":"4k4/9/9/9/9/9/9/9/9 w - 2"}"#,
        r#"{"sfen":"x","id":0,"moves":[["1a1b",18446744073709551615]]}"#,
        r#"{"budget":4294967295,"covered_by":0,"id":10,"sfen":""}"#,
        r#"{"budget":1,"by_checker":true,"id":7,"sfen":"4k4/9/9/9/9/9/9/9/9 b G 1"}"#,
        r#"{"by_checker":false,"id":7,"sfen":"x"}"#,
    ];

    fn serde(line: &str) -> Result<NodeLine<'_>, serde_json::Error> {
        serde_json::from_str(line)
    }

    #[test]
    fn plain_lines_are_read_as_serde_reads_them() {
        for l in LINES {
            let plain = Plain(l.as_bytes(), 0).node(l);
            assert!(plain.is_some(), "{l}");
            assert_eq!(plain, Some(serde(l).unwrap()), "{l}");
        }
    }

    #[test]
    fn other_lines_are_left_to_serde() {
        for l in [
            r#"{"id":1,"id":2,"sfen":"x"}"#,
            r#"{"id":01,"sfen":"x"}"#,
            r#"{"id":1,"sfen":"x","other":[1]}"#,
            r#"{"id":1,"sfen":"a\"b"}"#,
            r#"{"id":1,"sfen":"x","moves":null}"#,
            r#"{"id":1,"sfen":"x","budget":4294967296}"#,
            r#"{"id":1,"sfen":"x","by_checker":1}"#,
            r#"{"id":1,"sfen":"x","by_checker":tru}"#,
            r#"{"id":1,"sfen":"x","by_checker":true,"by_checker":true}"#,
            r#"{"id":1,"sfen":"x","by_checker":truee}"#,
            r#"{"id":18446744073709551616,"sfen":"x"}"#,
            r#"{"id":1.0,"sfen":"x"}"#,
            r#"{"id":-1,"sfen":"x"}"#,
            r#"{ "id":1,"sfen":"x"}"#,
            r#"{"id":1,"sfen":"x"} "#,
            r#"{"id":1}"#,
            r#"{"id":1,"sfen":"x"}{"#,
            "",
        ] {
            assert_eq!(Plain(l.as_bytes(), 0).node(l), None, "{l}");
            assert_eq!(
                read(l).map_err(|e| e.to_string()),
                serde(l).map_err(|e| e.to_string()),
                "{l}"
            );
        }
    }

    /// Random byte edits of node lines: wherever the plain reader answers, serde_json
    /// reads the same node line.
    #[test]
    fn mutated_lines_agree_with_serde() {
        let alphabet = br#"{}[]",:0123456789 abdeimnosv_\-.eftrul"#;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (mut answered, mut rejected) = (0, 0);
        for _ in 0..40_000 {
            let base = LINES[rng.gen_range(0..LINES.len())];
            let l = super::super::mutate::mutate(&mut rng, base, alphabet, 2);
            match Plain(l.as_bytes(), 0).node(&l) {
                Some(n) => {
                    answered += 1;
                    assert_eq!(Some(n), serde(&l).ok(), "{l}");
                }
                None => rejected += 1,
            }
        }
        assert!(answered > 1000 && rejected > 1000, "{answered} {rejected}");
    }
}
