//! A directory on disk: the working tree, or a directory given to `--against`.

use std::cell::RefCell;
use std::io::{ErrorKind, Read as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{miette, Report};
use walkdir::WalkDir;

use super::{decode, too_large, Tree, MAX_FILE_BYTES};

/// errno of "too many levels of symbolic links" (Linux 40, macOS 62).
#[cfg(target_os = "macos")]
const ELOOP: i32 = 62;
#[cfg(not(target_os = "macos"))]
const ELOOP: i32 = 40;

pub struct FsTree {
    base: PathBuf,
    label: String,
}

impl FsTree {
    pub fn new(base: impl Into<PathBuf>, label: impl Into<String>) -> Self {
        FsTree {
            base: base.into(),
            label: label.into(),
        }
    }

    pub fn base(&self) -> &Path {
        &self.base
    }

    fn full(&self, path: &str) -> PathBuf {
        if path.is_empty() {
            self.base.clone()
        } else {
            self.base.join(path)
        }
    }

    /// Reads the file at `full` (`path` in messages) through a thread's buffer, and decodes it.
    fn read_text(
        &self,
        full: &Path,
        path: &str,
        scratch: &mut Vec<u8>,
    ) -> Result<Read<Arc<str>>, ReadError> {
        let text = match read_regular(full, scratch)? {
            Read::Text(len) => decode(&scratch[..len], &self.label, path)
                .map(Read::Text)
                .map_err(ReadError::Decode),
            Read::NotAFile => Ok(Read::NotAFile),
            Read::TooLarge(len) => Ok(Read::TooLarge(len)),
        };
        if scratch.len() > SCRATCH_KEPT {
            *scratch = Vec::new();
        }
        text
    }
}

impl Tree for FsTree {
    fn label(&self) -> &str {
        &self.label
    }

    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report> {
        let full = self.full(path);
        let read = SCRATCH.with(|scratch| self.read_text(&full, path, &mut scratch.borrow_mut()));
        match read {
            Ok(Read::Text(text)) => Ok(Some(text)),
            Ok(Read::NotAFile) => Ok(None),
            Ok(Read::TooLarge(len)) => Err(too_large(len, &self.label, path)),
            Err(ReadError::Decode(report)) => Err(report),
            Err(ReadError::Io(e)) if e.kind() == ErrorKind::NotFound => Ok(None),
            // A path that is no regular file is no file to compare, whatever the reason;
            // `open` refuses some of those (a socket, a symlink loop, a file used as a
            // directory), and they stay so.
            Err(ReadError::Io(_)) if !full.is_file() => Ok(None),
            Err(ReadError::Io(e)) => Err(miette!("{path} @ {}: cannot read file: {e}", self.label)),
        }
    }

    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        let start = self.full(dir);
        if !start.is_dir() {
            return Ok(None);
        }
        let mut out = Vec::new();
        // Symlinks are followed; walkdir detects loops and reports them as errors, which we
        // skip: a loop has no files of its own.
        let walker = WalkDir::new(&start)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| !(e.file_type().is_dir() && e.file_name() == ".git"));
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) if e.loop_ancestor().is_some() => continue,
                // A dangling symlink, or one in a cycle of links (a -> b -> a, which the
                // system reports as ELOOP), is not a schema file.
                Err(e)
                    if e.io_error().is_some_and(|io| {
                        io.kind() == ErrorKind::NotFound || io.raw_os_error() == Some(ELOOP)
                    }) =>
                {
                    continue
                }
                Err(e) => {
                    return Err(miette!(
                        "{} @ {}: cannot list directory: {e}",
                        dir_name(dir),
                        self.label
                    ))
                }
            };
            if !entry.file_type().is_file()
                || entry.path().extension().is_none_or(|ext| ext != "proto")
            {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(&self.base) else {
                continue;
            };
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push(rel);
        }
        out.sort();
        Ok(Some(out))
    }
}

thread_local! {
    /// Each reading thread's buffer, kept from file to file: a file's bytes are copied once
    /// into its shared text anyway, so reading them into fresh memory each time would only
    /// touch (and fault in) more pages.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer grown past this size (for a large file) is freed after the file, so that no
/// thread keeps a large buffer once the files are read.
const SCRATCH_KEPT: usize = 1 << 20;

/// What [`read_regular`] found at a path.
enum Read<T> {
    /// The file's bytes (their count, in the buffer), or its decoded text.
    Text(T),
    /// A directory, a FIFO, a device: no schema file.
    NotAFile,
    /// A file over [`MAX_FILE_BYTES`], of this many bytes.
    TooLarge(u64),
}

enum ReadError {
    Io(std::io::Error),
    Decode(Report),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Reads a regular file into `buf` (from its start), in four system calls when nothing
/// changes under it: open, one status (regular? how large?), one read, close. `fs::read`
/// plus the checks before it took seven (three statuses and a second read to see the end),
/// for each of the ~14,000 files of a large directory pair.
fn read_regular(full: &Path, buf: &mut Vec<u8>) -> Result<Read<usize>, ReadError> {
    let mut file = open_for_reading(full)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(Read::NotAFile);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Ok(Read::TooLarge(meta.len()));
    }
    let len = meta.len() as usize;
    Ok(Read::Text(read_to_end(&mut file, len, buf)?))
}

/// Opens a path for reading without blocking: opening a FIFO named like a schema file must
/// not wait for a writer (its status then says it is no regular file).
fn open_for_reading(full: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(full)
}

/// Reads `file` to its end into `buf`, returning how many bytes it read; `len` is the size
/// its status gave. A read that asked for more than that and stopped exactly there is the
/// end of a regular file, so no second read is needed to see it. A file that grew or shrank
/// meanwhile is read on until a read returns nothing. The buffer's bytes stay initialized
/// from one file to the next, so a read never zeroes memory first.
fn read_to_end(file: &mut std::fs::File, len: usize, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut filled = 0;
    loop {
        if buf.len() <= filled.max(len) {
            let grown = (len + 1).max(filled * 2).max(4096);
            buf.resize(grown, 0);
        }
        let asked = buf.len() - filled;
        match file.read(&mut buf[filled..]) {
            Ok(0) => return Ok(filled),
            Ok(n) => {
                filled += n;
                if filled == len && n < asked {
                    return Ok(filled);
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn dir_name(dir: &str) -> &str {
    if dir.is_empty() {
        "."
    } else {
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_files_whole_and_skips_what_is_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let big = "x".repeat(SCRATCH_KEPT + 10);
        std::fs::write(dir.path().join("a.proto"), "syntax = \"proto3\";\n").unwrap();
        std::fs::write(dir.path().join("empty.proto"), "").unwrap();
        std::fs::write(dir.path().join("big.proto"), &big).unwrap();
        std::fs::create_dir(dir.path().join("d.proto")).unwrap();
        let tree = FsTree::new(dir.path(), "dir");
        // A large file, then a small one through the same thread's buffer.
        assert_eq!(
            tree.read("big.proto").unwrap().as_deref(),
            Some(big.as_str())
        );
        let a = tree.read("a.proto").unwrap();
        assert_eq!(a.as_deref(), Some("syntax = \"proto3\";\n"));
        assert_eq!(tree.read("empty.proto").unwrap().as_deref(), Some(""));
        assert!(tree.read("d.proto").unwrap().is_none());
        assert!(tree.read("missing.proto").unwrap().is_none());
        assert!(tree.read("a.proto/b.proto").unwrap().is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_no_file_and_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f.proto");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        let tree = FsTree::new(dir.path(), "dir");
        assert!(tree.read("f.proto").unwrap().is_none());
    }
}
