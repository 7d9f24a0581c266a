//! A directory on disk: the working tree, or a directory given to `--against`.

use std::io::ErrorKind;
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
}

impl Tree for FsTree {
    fn label(&self) -> &str {
        &self.label
    }

    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report> {
        let full = self.full(path);
        if !full.is_file() {
            return Ok(None);
        }
        // Refuse an oversized file before reading it into memory.
        if let Ok(meta) = full.metadata() {
            if meta.len() > MAX_FILE_BYTES {
                return Err(too_large(meta.len(), &self.label, path));
            }
        }
        match std::fs::read(&full) {
            Ok(bytes) => decode(&bytes, &self.label, path).map(Some),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(miette!("{path} @ {}: cannot read file: {e}", self.label)),
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

fn dir_name(dir: &str) -> &str {
    if dir.is_empty() {
        "."
    } else {
        dir
    }
}
