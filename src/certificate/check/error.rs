//! Why a certificate was not accepted: unreadable text (line, column) or the first
//! node that breaks a rule.

/// Why a certificate was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The text is not a certificate (exit 2).
    #[error("{line}:{col}: {why}")]
    Unreadable {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        why: String,
    },
    /// A node breaks a rule (exit 1).
    #[error("node {node}: {why}")]
    Invalid {
        /// The first failing node's id.
        node: usize,
        /// Which rule.
        why: String,
    },
}

impl CheckError {
    /// The exit code: 1 invalid, 2 unreadable.
    pub fn exit_code(&self) -> i32 {
        match self {
            CheckError::Unreadable { .. } => 2,
            CheckError::Invalid { .. } => 1,
        }
    }
}

/// [`CheckError::Unreadable`] at `line`:`col`.
pub(super) fn unreadable(line: usize, col: usize, why: impl Into<String>) -> CheckError {
    CheckError::Unreadable {
        line,
        col,
        why: why.into(),
    }
}

/// [`CheckError::Invalid`] naming node `node`.
pub(super) fn invalid(node: u64, why: impl Into<String>) -> CheckError {
    CheckError::Invalid {
        node: node as usize,
        why: why.into(),
    }
}
