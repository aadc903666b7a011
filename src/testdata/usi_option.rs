//! The options a USI engine declares in its answer to `usi` (`option name <id> type <t>
//! [default <x>] [min <x>] [max <x>] [var <x>]…`, the USI protocol's `option` command) and
//! the check of a value the user wants set against that declaration, so that `diff mate
//! --option NAME=VALUE` refuses a name the engine does not have, or a value it does not
//! take, instead of sending a `setoption` the engine would silently ignore (shtsume
//! compares option names byte for byte and ignores the rest; YaneuraOu-based engines such
//! as KomoringHeights ignore unknown names too).
//!
//! Names are matched exactly, else without regard to case when that picks one declared
//! option (YaneuraOu compares them so; shtsume does not): the engine's spelling is sent.
//! `USI_Hash` and `USI_Ponder` may be set without being declared: the protocol has the
//! GUI send them whether or not the engine lists them.

use thiserror::Error;

/// The kind of a declared option and what values it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check`: `true` or `false`.
    Check,
    /// `type spin`: an integer from `min` to `max`.
    Spin {
        /// Smallest value.
        min: i128,
        /// Largest value.
        max: i128,
    },
    /// `type combo`: one of its `var`s.
    Combo(Vec<String>),
    /// `type button`: no value.
    Button,
    /// `type string` or `type filename`: any text.
    Text,
}

/// One `option name …` line of an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    /// The name as the engine spells it.
    pub name: String,
    /// Its kind.
    pub kind: OptionKind,
}

/// Why an option the user gave cannot be set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OptionError {
    /// The engine declares no option of that name.
    #[error("the engine has no option `{name}` (it declares: {declared})")]
    Unknown {
        /// The name given.
        name: String,
        /// The declared names, space-separated (`none` if none).
        declared: String,
    },
    /// A value outside the declared kind.
    #[error("option {name}: `{value}` is not {expected}")]
    Value {
        /// The name as the engine spells it.
        name: String,
        /// The value given.
        value: String,
        /// What the declaration takes: `an integer from 1 to 127`, `true or false`,
        /// `one of None UpperBound MinLength`.
        expected: String,
    },
    /// A button takes no value and is not something to set before a run.
    #[error("option {0} is a button (it takes no value)")]
    Button(String),
}

/// Reads an `option name <id> type <t> …` line; `None` for any other line, or one whose
/// type is missing or unknown. A name may have spaces (the words before ` type `).
pub fn parse_option_line(line: &str) -> Option<OptionDecl> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let t = words.iter().position(|w| *w == "type")?;
    if t <= 2 {
        return None;
    }
    let name = words[2..t].join(" ");
    let rest = &words[t + 1..];
    // The value after `key`, if any (the first occurrence).
    let after = |key: &str| {
        rest.iter()
            .position(|w| *w == key)
            .and_then(|i| rest.get(i + 1))
            .copied()
    };
    let kind = match *rest.first()? {
        "check" => OptionKind::Check,
        "spin" => OptionKind::Spin {
            min: after("min")
                .and_then(|v| v.parse().ok())
                .unwrap_or(i128::MIN),
            max: after("max")
                .and_then(|v| v.parse().ok())
                .unwrap_or(i128::MAX),
        },
        "combo" => OptionKind::Combo(
            rest.windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect(),
        ),
        "button" => OptionKind::Button,
        "string" | "filename" => OptionKind::Text,
        _ => return None,
    };
    Some(OptionDecl { name, kind })
}

/// The `setoption` line for `name` = `value`, checked against `declared`.
///
/// # Errors
/// [`OptionError`] for a name the engine does not declare (the undeclared `USI_Hash` and
/// `USI_Ponder` excepted, checked as a positive integer and as `true`/`false`) or a value
/// its declaration does not take.
pub fn setoption(declared: &[OptionDecl], name: &str, value: &str) -> Result<String, OptionError> {
    let found = declared.iter().find(|d| d.name == name).or_else(|| {
        let mut same = declared
            .iter()
            .filter(|d| d.name.eq_ignore_ascii_case(name));
        match (same.next(), same.next()) {
            (Some(d), None) => Some(d),
            _ => None,
        }
    });
    let reserved;
    let decl = match found {
        Some(d) => d,
        None => {
            reserved = OptionDecl {
                name: name.to_string(),
                kind: match name {
                    "USI_Hash" => OptionKind::Spin {
                        min: 1,
                        max: i128::MAX,
                    },
                    "USI_Ponder" => OptionKind::Check,
                    _ => {
                        return Err(OptionError::Unknown {
                            name: name.to_string(),
                            declared: if declared.is_empty() {
                                "none".to_string()
                            } else {
                                declared
                                    .iter()
                                    .map(|d| d.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            },
                        })
                    }
                },
            };
            &reserved
        }
    };
    let bad = |expected: String| OptionError::Value {
        name: decl.name.clone(),
        value: value.to_string(),
        expected,
    };
    match &decl.kind {
        OptionKind::Check if value != "true" && value != "false" => {
            return Err(bad("true or false".to_string()))
        }
        OptionKind::Spin { min, max } => {
            let range = || match (*min == i128::MIN, *max == i128::MAX) {
                (false, false) => format!("an integer from {min} to {max}"),
                (false, true) => format!("an integer from {min} on"),
                (true, false) => format!("an integer up to {max}"),
                (true, true) => "an integer".to_string(),
            };
            match value.parse::<i128>() {
                Ok(v) if (*min..=*max).contains(&v) => {}
                _ => return Err(bad(range())),
            }
        }
        OptionKind::Combo(vars) if !vars.iter().any(|v| v == value) => {
            return Err(bad(format!("one of {}", vars.join(" "))))
        }
        OptionKind::Button => return Err(OptionError::Button(decl.name.clone())),
        OptionKind::Text if value.contains(['\n', '\r']) => {
            return Err(bad("one line of text".to_string()))
        }
        _ => {}
    }
    Ok(format!("setoption name {} value {value}", decl.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KomoringHeights 1.1.0's declarations and lines around them (copied from its answer
    /// to `usi`), and shtsume v1.2.7e's string option below.
    fn kh() -> Vec<OptionDecl> {
        [
            "option name Threads type spin default 4 min 1 max 127",
            "option name USI_Hash type spin default 4096 min 1 max 33554432",
            "option name WriteDebugLog type string default ",
            "option name GenerateAllLegalMoves type check default true",
            "option name NodesLimit type spin default 0 min 0 max 9223372036854775807",
            "option name PostSearchLevel type combo default MinLength var None var UpperBound var MinLength",
            "id name KomoringHeights  1.1.0 64AVX2",
            "usiok",
        ]
        .iter()
        .filter_map(|l| parse_option_line(l))
        .collect()
    }

    #[test]
    fn declarations_are_read() {
        let d = kh();
        assert_eq!(d.len(), 6);
        assert_eq!(d[0].kind, OptionKind::Spin { min: 1, max: 127 });
        assert_eq!(d[2].kind, OptionKind::Text);
        assert_eq!(d[3].kind, OptionKind::Check);
        assert_eq!(
            d[5].kind,
            OptionKind::Combo(vec![
                "None".to_string(),
                "UpperBound".to_string(),
                "MinLength".to_string()
            ])
        );
        assert_eq!(
            parse_option_line("option name user_path type string default <empty>")
                .unwrap()
                .name,
            "user_path"
        );
        assert_eq!(
            parse_option_line("option name Two Words type check default false")
                .unwrap()
                .name,
            "Two Words"
        );
        assert_eq!(parse_option_line("option name X type nonsense"), None);
        assert_eq!(parse_option_line("option name type check"), None);
    }

    #[test]
    fn values_are_checked_against_the_declaration() {
        let d = kh();
        assert_eq!(
            setoption(&d, "threads", "1").unwrap(),
            "setoption name Threads value 1"
        );
        assert_eq!(
            setoption(&d, "NodesLimit", "9223372036854775807").unwrap(),
            "setoption name NodesLimit value 9223372036854775807"
        );
        assert_eq!(
            setoption(&d, "Threads", "0").unwrap_err().to_string(),
            "option Threads: `0` is not an integer from 1 to 127"
        );
        assert_eq!(
            setoption(&d, "Threads", "one").unwrap_err().to_string(),
            "option Threads: `one` is not an integer from 1 to 127"
        );
        assert_eq!(
            setoption(&d, "PostSearchLevel", "minlength")
                .unwrap_err()
                .to_string(),
            "option PostSearchLevel: `minlength` is not one of None UpperBound MinLength"
        );
        assert!(matches!(
            setoption(&d, "GenerateAllLegalMoves", "yes"),
            Err(OptionError::Value { .. })
        ));
        let e = setoption(&d, "Thread", "1").unwrap_err().to_string();
        assert!(
            e.starts_with("the engine has no option `Thread` (it declares: Threads USI_Hash"),
            "{e}"
        );
        // USI_Hash and USI_Ponder need no declaration.
        assert_eq!(
            setoption(&[], "USI_Hash", "64").unwrap(),
            "setoption name USI_Hash value 64"
        );
        assert!(setoption(&[], "USI_Hash", "0").is_err());
        assert_eq!(
            setoption(&[], "Threads", "1").unwrap_err().to_string(),
            "the engine has no option `Threads` (it declares: none)"
        );
    }
}
