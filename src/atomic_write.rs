//! Writing a file through a temporary file beside it and a rename, so that a reader
//! sees the old file or the new one, never half of it (certificates of `tsume
//! --certificate`, `show --svg` pictures, the experiments' tables).

use std::io;
use std::path::{Path, PathBuf};

/// Writes `text` to `path`: first to `PATH.tmp-PID` (synced to disk), then renamed over
/// `path`. On failure the temporary file is removed and `path` is left as it was, so a
/// full disk or an interruption leaves the old file (or none), never a truncated one.
///
/// # Errors
/// The I/O error of the write, the sync or the rename.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let tmp = temporary(path);
    let written = (|| {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The temporary file beside `path` (named by this process, so two processes writing
/// the same file do not share one).
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    PathBuf::from(tmp)
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
        assert!(!temporary(&path).exists());
        // A directory in the way: the rename fails, the temporary file is removed.
        let blocked = dir.join("sub");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomically(&blocked, "x").is_err());
        assert!(!dir.join("sub.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
