//! Where schemas come from: a git revision, the index, the working tree, a directory.
//!
//! Every source is a [`Tree`]: a read-only view of one directory (the compared ROOT, or an
//! include root) at one revision. Git trees and the index are read straight from the object
//! database: no checkout, no temporary files.

mod fs;
mod git;
mod image;
mod open;
mod text;

pub use fs::FsTree;
pub use git::{GitTree, IndexTree, Repo};
pub use image::{image_warning, is_image, positions_warning, ImageTree};
pub use open::{open_sides, shown, NewSide, Request, Snapshot};
pub use text::{IndexedText, SourceText};

use std::sync::Arc;

use miette::{miette, Report};

use crate::link::{ImportResolver, SourceFile};

/// A read-only directory at one revision. Paths are `/`-separated and relative to the tree's
/// base directory; `""` is the base itself.
pub trait Tree: Send + Sync {
    /// What diagnostics call this revision: `main`, `working tree`, `index`, `../previous`.
    fn label(&self) -> &str;
    /// The text of the file at `path`; `Ok(None)` when there is no such file. Shared: the
    /// snapshot's file, its parse cache and every diagnostic hold this one copy.
    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report>;
    /// Every `.proto` file under directory `dir`, as paths relative to the base, sorted.
    /// `Ok(None)` when `dir` does not exist.
    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report>;
    /// The git blob id of the file at `path`, when the tree knows it without reading the
    /// file (git trees, from the listing or a tree lookup; the index): equal ids mean equal
    /// bytes, so a cache keyed by it can skip reading and parsing. `None` when there is no
    /// such file or the id is unknown (directories on disk).
    fn blob_id(&self, _path: &str) -> Option<BlobId> {
        None
    }
    /// [`Tree::read`] of a file whose blob id [`Tree::blob_id`] gave: a git tree reads the
    /// blob without looking the path up again.
    fn read_blob(&self, path: &str, _blob: BlobId) -> Result<Option<Arc<str>>, Report> {
        self.read(path)
    }
    /// Whether positions in this tree's texts are the user's (false for an image, whose
    /// texts are reconstructed from descriptors).
    fn positions(&self) -> bool {
        true
    }
    /// `path` (relative to the base) as the user names the file: from the working
    /// directory, as findings show paths (see [`Shown`]).
    fn shown(&self, path: &str) -> String {
        path.to_string()
    }
    /// When positions are not the user's ([`Tree::positions`] is false): where what
    /// `start`..`end` (1-based line, column) of `path`'s text shows lies in the user's file,
    /// if the tree knows (an image with source info), as 1-based (start line, start column,
    /// end line, end column exclusive).
    fn original_span(&self, _path: &str, _start: (u32, u32), _end: (u32, u32)) -> Option<[u32; 4]> {
        None
    }
    /// How many `.proto` files the tree holds, when it knows without listing them (the
    /// index): how large a check of it can be, before anything is read.
    fn proto_count(&self) -> Option<usize> {
        None
    }
}

/// A tree whose paths diagnostics show from the working directory: `prefix` is where its
/// base lies as the user gave it (`proto/`, `../old/`), so a parse error in `acme/a.proto`
/// names `proto/acme/a.proto`, as the findings do.
pub struct Shown {
    inner: Arc<dyn Tree>,
    prefix: String,
}

impl Shown {
    /// `tree`, whose base is the directory `dir` (relative to the working directory).
    pub fn wrap(tree: Arc<dyn Tree>, dir: &std::path::Path) -> Arc<dyn Tree> {
        Arc::new(Shown {
            inner: tree,
            prefix: path_prefix(dir),
        })
    }
}

impl Tree for Shown {
    fn label(&self) -> &str {
        self.inner.label()
    }
    fn read(&self, path: &str) -> Result<Option<Arc<str>>, Report> {
        self.inner.read(path)
    }
    fn list_protos(&self, dir: &str) -> Result<Option<Vec<String>>, Report> {
        self.inner.list_protos(dir)
    }
    fn blob_id(&self, path: &str) -> Option<BlobId> {
        self.inner.blob_id(path)
    }
    fn read_blob(&self, path: &str, blob: BlobId) -> Result<Option<Arc<str>>, Report> {
        self.inner.read_blob(path, blob)
    }
    fn positions(&self) -> bool {
        self.inner.positions()
    }
    fn shown(&self, path: &str) -> String {
        format!("{}{}", self.prefix, self.inner.shown(path))
    }
    fn original_span(&self, path: &str, start: (u32, u32), end: (u32, u32)) -> Option<[u32; 4]> {
        self.inner.original_span(path, start, end)
    }
    fn proto_count(&self) -> Option<usize> {
        self.inner.proto_count()
    }
}

/// A directory as a prefix of the paths under it: `proto/` for `proto` or `./proto/`,
/// empty for `.`.
pub fn path_prefix(dir: &std::path::Path) -> String {
    let text = dir.to_string_lossy().replace('\\', "/");
    let mut text = text
        .trim_start_matches("./")
        .trim_end_matches('/')
        .to_string();
    if text.is_empty() || text == "." {
        return String::new();
    }
    text.push('/');
    text
}

/// A git object id (SHA-1) naming a file's bytes.
pub type BlobId = git2::Oid;

/// Joins two relative `/`-separated paths, treating `""` and `"."` as the base.
pub fn join(dir: &str, path: &str) -> String {
    match (dir, path) {
        ("" | ".", p) => p.to_string(),
        (d, "" | ".") => d.to_string(),
        (d, p) => format!("{}/{}", d.trim_end_matches('/'), p),
    }
}

/// Normalizes a relative path written by a user or a config: `./a//b/` -> `a/b`,
/// `.` -> ``. `..` components are kept where they cannot be folded.
pub fn normalize(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|p| *p != "..") => {
                out.pop();
            }
            p => out.push(p),
        }
    }
    out.join("/")
}

/// True when `path` equals `prefix` or lies under the directory `prefix` (`""` contains all).
pub fn is_within(path: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || path == prefix
        || (path.len() > prefix.len()
            && path.starts_with(prefix)
            && path.as_bytes()[prefix.len()] == b'/')
}

/// Largest `.proto` file read, in bytes. Memory grows with the number of declarations (about
/// 100 bytes per byte of a file dense with fields, for both revisions together), and the
/// largest real schema files are a few MB; past this a check fails fast instead of swapping.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The error for a file over [`MAX_FILE_BYTES`].
pub fn too_large(len: u64, label: &str, path: &str) -> Report {
    miette!(
        help = "protocompat reads .proto files of up to 16 MiB; split the file",
        "{path} @ {label}: file is too large ({len} bytes; the limit is {MAX_FILE_BYTES} bytes)"
    )
}

/// Decodes a file's bytes, naming revision and path when they are not UTF-8. A leading
/// UTF-8 byte order mark is dropped (buf ignores it: columns on line 1 count from after it).
/// A Git LFS pointer stored in place of the file is an error of its own, not a syntax error.
/// The bytes are checked where they lie (a git blob's are libgit2's buffer) and copied once,
/// into the shared text.
pub fn decode(bytes: &[u8], label: &str, path: &str) -> Result<Arc<str>, Report> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64, label, path));
    }
    if is_lfs_pointer(bytes) {
        return Err(miette!(
            help = "fetch the real content first (`git lfs pull`), or keep .proto files out of LFS",
            "{path} @ {label}: file is a Git LFS pointer, not the schema itself"
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        miette!(
            help = "protobuf source files must be UTF-8",
            "{path} @ {label}: file is not valid UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        )
    })?;
    Ok(Arc::from(text.strip_prefix('\u{feff}').unwrap_or(text)))
}

/// A Git LFS pointer file: a small text starting with the spec's version line.
fn is_lfs_pointer(bytes: &[u8]) -> bool {
    bytes.len() < 1024 && bytes.starts_with(b"version https://git-lfs.github.com/spec/")
}

/// One directory of a tree whose files are looked up by import path.
pub struct SearchRoot {
    pub tree: Arc<dyn Tree>,
    /// Directory within `tree` that import paths are relative to.
    pub dir: String,
}

/// Resolves imports against the compared roots of one revision (all files, including those
/// that `--path` left out), then the `-I` include roots of the same revision.
pub struct TreeResolver {
    pub roots: Vec<SearchRoot>,
}

impl ImportResolver for TreeResolver {
    fn open(&self, import_path: &str) -> Result<Option<SourceFile>, Report> {
        for root in &self.roots {
            if let Some(text) = root.tree.read(&join(&root.dir, import_path))? {
                return Ok(Some(SourceFile {
                    path: import_path.to_string(),
                    display_name: format!(
                        "{} @ {}",
                        root.tree.shown(&join(&root.dir, import_path)),
                        root.tree.label()
                    ),
                    text,
                }));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_drops_a_bom_and_refuses_lfs_pointers() {
        let text = decode(b"\xef\xbb\xbfsyntax", "HEAD", "a.proto");
        assert_eq!(text.ok().as_deref(), Some("syntax"));
        let pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12\n";
        let err = decode(pointer, "HEAD", "a.proto").map(|_| ()).unwrap_err();
        assert!(format!("{err}").contains("Git LFS pointer"), "{err}");
    }

    #[test]
    fn normalizes_user_paths() {
        assert_eq!(normalize("./a//b/"), "a/b");
        assert_eq!(normalize("."), "");
        assert_eq!(normalize("a/../b"), "b");
        assert_eq!(normalize("../x"), "../x");
    }

    #[test]
    fn containment_is_by_whole_components() {
        assert!(is_within("a/b/c.proto", "a/b"));
        assert!(is_within("a/b", "a/b"));
        assert!(!is_within("a/bc/d.proto", "a/b"));
        assert!(is_within("x.proto", ""));
    }
}
