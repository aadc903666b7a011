//! Writing a file through a temporary file beside it and a rename, so that a reader
//! sees the old file or the new one, never half of it (certificates of `tsume
//! --certificate`, `show --svg` pictures).

use std::io;
use std::path::{Path, PathBuf};

/// Writes `text` to `path`: first to `PATH.tmp`, then renamed over `path`. On failure
/// the temporary file is removed and `path` is left as it was.
///
/// # Errors
/// The I/O error of the write or the rename.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_a_failure_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("shogi-lab-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.jsonl");
        write_atomically(&path, "old").unwrap();
        write_atomically(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(!dir.join("a.jsonl.tmp").exists());
        // A directory in the way: the rename fails, the temporary file is removed.
        let blocked = dir.join("sub");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomically(&blocked, "x").is_err());
        assert!(!dir.join("sub.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
