//! The engine's USI options: `USI_Hash` (checked against what the machine can
//! give), `NodesLimit`, `MateLength` (proof only / proven shortest, like
//! KomoringHeights' `PostSearchLevel`), `CountFutile` (無駄合 counted as plies, the
//! convention of KomoringHeights' MinLength) and `YozumeNodes` (余詰 check).

use crate::resources::{check_memory_request, MemoryError};
use crate::tsume::SolverOptions;

/// Largest `USI_Hash` advertised (MiB); a request is also checked against the machine.
pub const MAX_HASH_MIB: u64 = 1 << 20;
/// Largest node count advertised (2^53 − 1: exact in every GUI, JavaScript ones included).
pub const MAX_NODES: u64 = (1 << 53) - 1;

/// Which mate line to answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MateLength {
    /// The proven shortest mate (攻方最短・玉方最長, `specs/tsume.md`).
    Shortest,
    /// The first proof found (faster; its length is not proven minimal).
    Proof,
}

/// The options a GUI can set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size (MiB).
    pub hash_mib: u64,
    /// Node limit of one search (0: none).
    pub nodes_limit: u64,
    /// Proof only or proven shortest.
    pub length: MateLength,
    /// Count 無駄合 as replies and plies (`--count-futile`).
    pub count_futile: bool,
    /// Nodes per other first move when checking for 余詰 (0: off).
    pub yozume_nodes: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: 256,
            nodes_limit: 0,
            length: MateLength::Shortest,
            count_futile: false,
            yozume_nodes: 0,
        }
    }
}

/// Why a `setoption` was refused (the previous value stays).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionError {
    /// Not one of this engine's options.
    #[error("setoption: unknown option \"{0}\" (see the reply to `usi`)")]
    Unknown(String),
    /// `value` is missing.
    #[error("setoption {0}: a value is needed")]
    NoValue(&'static str),
    /// A spin value that is not an integer in range.
    #[error("setoption {name}: \"{value}\" is not a whole number from {min} to {max}")]
    Spin {
        /// The option.
        name: &'static str,
        /// What was sent.
        value: String,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A combo value that is not one of its choices.
    #[error("setoption {name}: \"{value}\" is not one of {choices}")]
    Combo {
        /// The option.
        name: &'static str,
        /// What was sent.
        value: String,
        /// The choices, space-separated.
        choices: &'static str,
    },
    /// A check value that is not `true` or `false`.
    #[error("setoption {name}: \"{value}\" is not true or false")]
    Check {
        /// The option.
        name: &'static str,
        /// What was sent.
        value: String,
    },
    /// The machine cannot give that much memory.
    #[error("setoption {0}")]
    Memory(MemoryError),
}

fn spin(name: &'static str, value: Option<&str>, min: u64, max: u64) -> Result<u64, OptionError> {
    let v = value.ok_or(OptionError::NoValue(name))?;
    match v.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(OptionError::Spin {
            name,
            value: v.to_string(),
            min,
            max,
        }),
    }
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.ok_or(OptionError::NoValue(name))? {
        "true" => Ok(true),
        "false" => Ok(false),
        v => Err(OptionError::Check {
            name,
            value: v.to_string(),
        }),
    }
}

impl EngineOptions {
    /// The `option …` lines of the reply to `usi`.
    pub fn usi_lines(&self) -> Vec<String> {
        let d = EngineOptions::default();
        vec![
            format!(
                "option name USI_Hash type spin default {} min 1 max {MAX_HASH_MIB}",
                d.hash_mib
            ),
            format!(
                "option name NodesLimit type spin default {} min 0 max {MAX_NODES}",
                d.nodes_limit
            ),
            "option name MateLength type combo default Shortest var Shortest var Proof".to_string(),
            format!(
                "option name CountFutile type check default {}",
                d.count_futile
            ),
            format!(
                "option name YozumeNodes type spin default {} min 0 max {MAX_NODES}",
                d.yozume_nodes
            ),
        ]
    }

    /// Applies `setoption name <name> value <value>` (names are case-insensitive);
    /// `USI_Ponder` is accepted and ignored (GUIs send it to every engine).
    ///
    /// # Errors
    /// [`OptionError`]; the option keeps its previous value.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" => {
                let mib = spin("USI_Hash", value, 1, MAX_HASH_MIB)?;
                check_memory_request(mib << 20, "USI_Hash").map_err(OptionError::Memory)?;
                self.hash_mib = mib;
            }
            "nodeslimit" => self.nodes_limit = spin("NodesLimit", value, 0, MAX_NODES)?,
            "yozumenodes" => self.yozume_nodes = spin("YozumeNodes", value, 0, MAX_NODES)?,
            "matelength" => {
                let v = value.ok_or(OptionError::NoValue("MateLength"))?;
                self.length = match v {
                    "Shortest" => MateLength::Shortest,
                    "Proof" => MateLength::Proof,
                    _ => {
                        return Err(OptionError::Combo {
                            name: "MateLength",
                            value: v.to_string(),
                            choices: "Shortest Proof",
                        })
                    }
                };
            }
            "countfutile" => self.count_futile = check("CountFutile", value)?,
            "usi_ponder" => {
                check("USI_Ponder", value)?;
            }
            _ => return Err(OptionError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// The solver's options for one search (time and stop control are added by the caller).
    pub fn solver_options(&self) -> SolverOptions {
        SolverOptions {
            nodes: (self.nodes_limit > 0).then_some(self.nodes_limit),
            memory_mib: usize::try_from(self.hash_mib).unwrap_or(usize::MAX),
            shortest: self.length == MateLength::Shortest,
            alt_nodes: self.yozume_nodes,
            count_futile: self.count_futile,
            ..SolverOptions::default()
        }
    }

    /// One line describing the settings, for `info string`.
    pub fn summary(&self) -> String {
        format!(
            "USI_Hash {} MiB, NodesLimit {}, MateLength {}, CountFutile {}, YozumeNodes {}",
            self.hash_mib,
            self.nodes_limit,
            match self.length {
                MateLength::Shortest => "Shortest",
                MateLength::Proof => "Proof",
            },
            self.count_futile,
            self.yozume_nodes
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_and_bad_ones_keep_the_old_value() {
        let mut o = EngineOptions::default();
        o.set("usi_hash", Some("16")).unwrap();
        o.set("NodesLimit", Some("5000")).unwrap();
        o.set("MateLength", Some("Proof")).unwrap();
        o.set("YozumeNodes", Some("100")).unwrap();
        o.set("USI_Ponder", Some("true")).unwrap();
        o.set("countfutile", Some("true")).unwrap();
        let good = o.clone();
        for (n, v) in [
            ("USI_Hash", Some("0")),
            ("USI_Hash", Some("abc")),
            ("USI_Hash", Some("-1")),
            ("USI_Hash", None),
            ("NodesLimit", Some("9007199254740992")),
            ("MateLength", Some("shortest")),
            ("USI_Ponder", Some("yes")),
            ("CountFutile", Some("1")),
            ("CountFutile", None),
            ("Threads", Some("4")),
        ] {
            let e = o.set(n, v).unwrap_err();
            assert!(!e.to_string().contains('\n'));
            assert_eq!(o, good, "{n} {v:?}");
        }
        let s = o.solver_options();
        assert_eq!(
            (
                s.memory_mib,
                s.nodes,
                s.shortest,
                s.alt_nodes,
                s.count_futile
            ),
            (16, Some(5000), false, 100, true)
        );
    }

    #[test]
    fn the_largest_hash_is_refused_with_one_line_unless_the_machine_has_it() {
        let mut o = EngineOptions::default();
        match o.set("USI_Hash", Some(&MAX_HASH_MIB.to_string())) {
            Ok(()) => assert_eq!(o.hash_mib, MAX_HASH_MIB),
            Err(e) => {
                assert!(matches!(e, OptionError::Memory(_)));
                assert!(e.to_string().starts_with("setoption USI_Hash: "), "{e}");
                assert_eq!(o.hash_mib, 256);
            }
        }
    }
}
