//! Writing a file through a temporary file beside it and a rename, so that a reader
//! sees the old file or the new one, never half of it (certificates of `tsume
//! --certificate`, `show --svg` pictures, the experiments' tables).
//!
//! The file replaced is the one `path` names once symbolic links are followed: a link
//! is written through (the link stays, its target is replaced), and a target that
//! exists but is no regular file (a directory, a FIFO, a socket, a device) is refused,
//! never replaced by a regular file. [`target`] says where a write would land, or why
//! it cannot, before any work is done.

use std::io;
use std::path::{Path, PathBuf};

/// How many symbolic links [`target`] follows before it gives up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Writes `text` to the file `path` names ([`target`]: `path` itself, or the end of the
/// chain of symbolic links it starts): first to `TARGET.tmp-PID` beside it (synced to
/// disk), then renamed over it. On failure the temporary file is removed and the target
/// is left as it was, so a full disk or an interruption leaves the old file (or none),
/// never a truncated one.
///
/// # Errors
/// [`target`]'s refusal (not a regular file, no such directory, a link loop), or the
/// I/O error of the write, the sync or the rename.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let target = target(path)?;
    let tmp = temporary(&target);
    let written = (|| {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The file a write to `path` replaces: `path`, or, when `path` is a symbolic link, the
/// file at the end of its chain of links (relative links read from the link's own
/// directory); that file need not exist yet. Checked, without writing anything: the
/// target is a regular file or absent, and the directory it goes in exists.
///
/// # Errors
/// `InvalidInput` when the target exists and is no regular file (the message names its
/// kind, and the target when a link led there) or when its directory is missing or no
/// directory; the I/O error of reading the links and metadata (a link loop: after
/// 40 links).
pub fn target(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                directory_of(&p, path)?;
                return Ok(p);
            }
            Err(e) => {
                // A file where a directory should be (ENOTDIR) is named as such.
                directory_of(&p, path)?;
                return Err(e);
            }
        };
        if meta.file_type().is_symlink() {
            let to = std::fs::read_link(&p)?;
            // `join` keeps an absolute link as it is.
            p = p.parent().map_or_else(|| to.clone(), |dir| dir.join(&to));
            continue;
        }
        if meta.is_file() {
            return Ok(p);
        }
        return Err(refused(
            &p,
            path,
            &format!("is {}, not a regular file", kind_of(&meta.file_type())),
        ));
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symbolic links (a loop?)"),
    ))
}

/// [`target`], and then that its directory takes a new file: an empty file named like
/// the temporary one (`TARGET.probe-PID`, of the same length) is created and removed
/// (one already there is left alone).
///
/// # Errors
/// As [`target`]; the I/O error of creating the probe (no permission, a read-only file
/// system, a name too long).
pub fn check_writable(path: &Path) -> io::Result<PathBuf> {
    let target = target(path)?;
    let probe = beside(&target, "probe");
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(target)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(target),
        Err(e) => Err(e),
    }
}

/// Checks that the directory `p` (reached from `given`) goes in exists and is one.
fn directory_of(p: &Path, given: &Path) -> io::Result<()> {
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(refused(
            p,
            given,
            &format!("{} is not a directory", dir.display()),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(refused(
            p,
            given,
            &format!("no directory {}", dir.display()),
        )),
        Err(e) => Err(e),
    }
}

/// A refusal of `p`: `why`, after the target's name when a link led from `given` to it.
fn refused(p: &Path, given: &Path, why: &str) -> io::Error {
    let message = if p == given {
        why.to_string()
    } else {
        format!("links to {}, which {why}", p.display())
    };
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// What a file that is not a regular one is, in words.
fn kind_of(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// The temporary file beside `path` (named by this process, so two processes writing
/// the same file do not share one).
fn temporary(path: &Path) -> PathBuf {
    beside(path, "tmp")
}

/// `PATH.WHAT-PID`.
fn beside(path: &Path, what: &str) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{what}-{}", std::process::id()));
    PathBuf::from(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("shogi-lab-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_is_replaced_whole_and_a_failure_leaves_nothing_behind() {
        let dir = temp_dir("whole");
        let path = dir.join("a.jsonl");
        write_atomically(&path, "old").unwrap();
        write_atomically(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(!temporary(&path).exists());
        // A directory in the way: refused, nothing written beside it.
        let blocked = dir.join("sub");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        let e = write_atomically(&blocked, "x").unwrap_err();
        assert_eq!(e.to_string(), "is a directory, not a regular file");
        assert!(!temporary(&blocked).exists());
        assert!(blocked.join("x").is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_refused_naming_it() {
        let dir = temp_dir("nodir");
        let path = dir.join("missing").join("a.jsonl");
        let e = target(&path).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            e.to_string(),
            format!("no directory {}", dir.join("missing").display())
        );
        let file = dir.join("file");
        std::fs::write(&file, "").unwrap();
        let e = write_atomically(&file.join("a.jsonl"), "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{} is not a directory", file.display())
        );
        // A name too long for the file system: refused before anything is written.
        let long = dir.join(format!("{}.jsonl", "x".repeat(245)));
        assert!(target(&long).is_ok() && check_writable(&long).is_err());
        assert!(std::fs::read_dir(&dir).unwrap().count() == 1, "only `file`");
        // A bare file name goes in the working directory, which exists.
        assert_eq!(
            target(Path::new("no-such-file.jsonl")).unwrap(),
            Path::new("no-such-file.jsonl")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through() {
        let dir = temp_dir("link");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/t.jsonl"), "old").unwrap();
        // A relative link, read from the link's directory, and a link to it.
        std::os::unix::fs::symlink("sub/t.jsonl", dir.join("l.jsonl")).unwrap();
        std::os::unix::fs::symlink(dir.join("l.jsonl"), dir.join("ll.jsonl")).unwrap();
        write_atomically(&dir.join("ll.jsonl"), "new").unwrap();
        assert!(std::fs::symlink_metadata(dir.join("ll.jsonl"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::symlink_metadata(dir.join("l.jsonl"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            std::fs::read_to_string(dir.join("sub/t.jsonl")).unwrap(),
            "new"
        );
        // A dangling link: its target is created.
        std::os::unix::fs::symlink("sub/new.jsonl", dir.join("d.jsonl")).unwrap();
        write_atomically(&dir.join("d.jsonl"), "made").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("sub/new.jsonl")).unwrap(),
            "made"
        );
        // A loop.
        std::os::unix::fs::symlink("loop2", dir.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", dir.join("loop2")).unwrap();
        assert!(write_atomically(&dir.join("loop1"), "x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_link_to_one_is_refused_and_kept() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = write_atomically(&fifo, "x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(e.to_string(), "is a FIFO, not a regular file");
        std::os::unix::fs::symlink("fifo", dir.join("l")).unwrap();
        let e = write_atomically(&dir.join("l"), "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "links to {}, which is a FIFO, not a regular file",
                fifo.display()
            )
        );
        let t = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        use std::os::unix::fs::FileTypeExt;
        assert!(t.is_fifo());
        assert!(!temporary(&fifo).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
