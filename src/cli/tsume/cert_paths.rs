//! Where each problem's certificate goes (`--certificate`).

use crate::cli::Failure;
use crate::tsume::problems::Problem;
use std::path::{Path, PathBuf};

/// Where each problem's certificate goes: with one problem `--certificate PATH` itself,
/// with several (or a stream of unknown length) `PATH/<id>.jsonl`, the directory created
/// first; ids must be distinct plain file names. Decided on the whole input before any
/// `--shard`, so every shard writes alike.
pub(super) struct CertificatePaths {
    path: PathBuf,
    single: bool,
    seen: std::collections::HashSet<String>,
}

impl CertificatePaths {
    pub(super) fn new(path: &Path, total: Option<usize>) -> Result<CertificatePaths, Failure> {
        let single = total == Some(1);
        if !single {
            std::fs::create_dir_all(path)
                .map_err(|e| Failure::input(format!("--certificate {}: {e}", path.display())))?;
        }
        Ok(CertificatePaths {
            path: path.to_path_buf(),
            single,
            seen: Default::default(),
        })
    }

    /// Checks the ids of a whole problem file (`problems`, every shard's) before anything
    /// is solved or created, with the errors [`CertificatePaths::path_for`] gives: a bad
    /// or repeated id would otherwise end a long run at its line. (A stream is checked as
    /// it comes.)
    pub(super) fn check_ids(
        path: &Path,
        problems: impl Iterator<Item = Result<Problem, Failure>>,
    ) -> Result<(), Failure> {
        let mut ids = CertificatePaths {
            path: path.to_path_buf(),
            single: false,
            seen: Default::default(),
        };
        for p in problems {
            ids.path_for(&p?)?;
        }
        Ok(())
    }

    pub(super) fn path_for(&mut self, p: &Problem) -> Result<PathBuf, Failure> {
        if self.single {
            return Ok(self.path.clone());
        }
        let plain = !p.id.is_empty()
            && p.id != "."
            && p.id != ".."
            && !p
                .id
                .chars()
                .any(|c| c == '/' || c == '\\' || c.is_control());
        if !plain {
            return Err(Failure::input(format!(
                "line {}: id {:?} is not a plain file name for --certificate",
                p.line, p.id
            )));
        }
        if !self.seen.insert(p.id.clone()) {
            return Err(Failure::input(format!(
                "line {}: id {:?} twice: --certificate needs distinct ids",
                p.line, p.id
            )));
        }
        Ok(self.path.join(format!("{}.jsonl", p.id)))
    }
}
