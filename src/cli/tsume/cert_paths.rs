//! Where each problem's certificate goes (`--certificate`), checked before solving.

use crate::atomic_write::{check_writable, target};
use crate::cli::Failure;
use crate::tsume::certificate::length_path;
use crate::tsume::problems::Problem;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where each problem's certificate goes: with one problem `--certificate PATH` itself,
/// with several (or a stream, whose length is unknown) `PATH/<id>.jsonl`, the directory
/// created first; ids must be distinct plain file names, and no problem's files may be
/// another's (`<id>.length.jsonl`, the length certificate, is `a.length`'s `<id>.jsonl`
/// when `<id>` is `a`). Decided on the whole input before any `--shard`, so every shard
/// writes alike. Every file must be a regular file or absent, in a directory that
/// exists ([`target`]; a symbolic link is written through): checked before anything is
/// solved (in a directory, before each problem is solved; for a problem file, those
/// already there before the first).
pub(super) struct CertificatePaths {
    path: PathBuf,
    single: bool,
    /// Whether a length certificate may go beside each certificate (the default mode's
    /// proven-shortest mates: `<file>.length.jsonl`).
    length: bool,
    /// The file names taken so far, each with the id and line of its problem.
    taken: HashMap<String, (String, usize)>,
}

impl CertificatePaths {
    /// The certificate paths of a run of `total` problems (`None`: a stream) with
    /// `--certificate path`; `length` when length certificates go beside the others.
    /// With one problem `path` and its length file are checked; else `path` is made a
    /// directory (a stream's `path` must not end in `.jsonl`, which would read as one
    /// file: the number of its problems is not known when the first is answered).
    ///
    /// # Errors
    /// Exit 2, naming `--certificate`: a file that is no regular file, a missing
    /// directory; a stream's `.jsonl` path; a directory that cannot be created.
    pub(super) fn new(
        path: &Path,
        total: Option<usize>,
        length: bool,
    ) -> Result<CertificatePaths, Failure> {
        let single = total == Some(1);
        let paths = CertificatePaths {
            path: path.to_path_buf(),
            single,
            length,
            taken: HashMap::new(),
        };
        if single {
            paths.check_files(
                path,
                true,
                "; with one problem --certificate names the file",
            )?;
            return Ok(paths);
        }
        if total.is_none() && path.extension().is_some_and(|x| x == "jsonl") {
            return Err(Failure::input(format!(
                "--certificate {}: problems read from a stream go to a directory, \
                 PATH/<id>.jsonl (their number is not known in advance): name a directory, \
                 not a .jsonl file",
                path.display()
            )));
        }
        if path.exists() && !path.is_dir() {
            return Err(Failure::input(format!(
                "--certificate {}: not a directory; with several problems (or a stream) \
                 PATH is the directory of their <id>.jsonl files",
                path.display()
            )));
        }
        std::fs::create_dir_all(path)
            .map_err(|e| Failure::input(format!("--certificate {}: {e}", path.display())))?;
        Ok(paths)
    }

    /// Checks the ids of a whole problem file (`problems`, every shard's) before anything
    /// is solved or created, with the errors [`CertificatePaths::path_for`] gives: a bad
    /// or repeated id, or one whose file another's takes, would otherwise end a long run
    /// at its line; in a directory that exists, so are the files already there. (A
    /// stream is checked as it comes.)
    pub(super) fn check_ids(
        path: &Path,
        length: bool,
        problems: impl Iterator<Item = Result<Problem, Failure>>,
    ) -> Result<(), Failure> {
        let mut ids = CertificatePaths {
            path: path.to_path_buf(),
            single: false,
            length,
            taken: HashMap::new(),
        };
        let existing = path.is_dir();
        for p in problems {
            let file = ids.name_for(&p?)?;
            if existing {
                ids.check_files(&file, false, "")?;
            }
        }
        Ok(())
    }

    /// The certificate file of problem `p`, checked: the problem's id (in a directory),
    /// then the file and its length file.
    ///
    /// # Errors
    /// Exit 2: as [`CertificatePaths::check_ids`] and [`CertificatePaths::new`].
    pub(super) fn path_for(&mut self, p: &Problem) -> Result<PathBuf, Failure> {
        if self.single {
            return Ok(self.path.clone());
        }
        let file = self.name_for(p)?;
        self.check_files(&file, true, "")?;
        Ok(file)
    }

    /// The file of problem `p` in the directory, its id checked and its file names taken.
    fn name_for(&mut self, p: &Problem) -> Result<PathBuf, Failure> {
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
        let file = format!("{}.jsonl", p.id);
        let mut names = vec![file.clone()];
        if self.length {
            names.push(format!("{}.length.jsonl", p.id));
        }
        for name in &names {
            if let Some((id, line)) = self.taken.get(name) {
                if *id == p.id {
                    return Err(Failure::input(format!(
                        "line {}: id {:?} twice: --certificate needs distinct ids",
                        p.line, p.id
                    )));
                }
                return Err(Failure::input(format!(
                    "line {}: ids {id:?} (line {line}) and {:?} both need the file {name}: \
                     --certificate needs ids whose files differ",
                    p.line, p.id
                )));
            }
        }
        for name in names {
            self.taken.insert(name, (p.id.clone(), p.line));
        }
        Ok(self.path.join(file))
    }

    /// Checks that `file` and (in the default mode) its length file can be written where
    /// they are ([`target`]; with `probe` [`check_writable`], which creates and removes a
    /// file beside each); `hint` follows the message of a directory in the way.
    fn check_files(&self, file: &Path, probe: bool, hint: &str) -> Result<(), Failure> {
        let check = if probe { check_writable } else { target };
        let bad = |f: &Path, e: std::io::Error| {
            let what = if f == self.path {
                String::new()
            } else {
                format!("{}: ", f.display())
            };
            let hint = if f.is_dir() { hint } else { "" };
            Failure::input(format!(
                "--certificate {}: {what}{e}{hint}",
                self.path.display()
            ))
        };
        check(file).map_err(|e| bad(file, e))?;
        if self.length {
            let l = length_path(file);
            check(&l).map_err(|e| bad(&l, e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(id: &str, line: usize) -> Problem {
        Problem {
            id: id.into(),
            sfen: "8k/9/8P/9/9/9/9/9/9 b G 1".into(),
            extra: Vec::new(),
            line,
            column: 1,
        }
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "shogi-lab-cert-paths-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn ids_whose_files_collide_are_refused() {
        let d = dir("collide");
        let ids = |ps: Vec<Problem>, length: bool| {
            CertificatePaths::check_ids(&d, length, ps.into_iter().map(Ok)).map_err(|f| f.message)
        };
        // `a`'s length certificate is `a.length`'s certificate, in either order.
        let want = "line 2: ids \"a.length\" (line 1) and \"a\" both need the file \
                    a.length.jsonl: --certificate needs ids whose files differ";
        assert_eq!(
            ids(vec![problem("a.length", 1), problem("a", 2)], true),
            Err(want.to_string())
        );
        assert_eq!(
            ids(vec![problem("a", 1), problem("a.length", 2)], true),
            Err(
                "line 2: ids \"a\" (line 1) and \"a.length\" both need the file \
                 a.length.jsonl: --certificate needs ids whose files differ"
                    .to_string()
            )
        );
        // Counting every reply no file goes beside the certificate: no collision.
        assert_eq!(
            ids(vec![problem("a.length", 1), problem("a", 2)], false),
            Ok(())
        );
        assert_eq!(
            ids(vec![problem("a", 1), problem("a", 2)], true),
            Err("line 2: id \"a\" twice: --certificate needs distinct ids".to_string())
        );
        assert!(ids(
            vec![problem("a", 1), problem("b.length", 2), problem("b", 3)],
            true
        )
        .is_err());
        assert!(!d.exists(), "nothing is created by the check");
    }
}
