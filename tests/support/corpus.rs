//! Shared by the front-end tests: reading the sides of buf's conformance corpus
//! (`/work/shared/conformance/buf/cases`) as `SourceFile`s.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use protocompat::link::SourceFile;

/// Where the corpus is looked for: `shared/` beside the repository (as CI lays it out), then
/// the workplace's shared folder.
pub const CORPUS: &str = "../shared/conformance/buf/cases | /work/shared/conformance/buf/cases";

fn corpus_dir() -> Option<PathBuf> {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/buf/cases");
    [beside, PathBuf::from("/work/shared/conformance/buf/cases")]
        .into_iter()
        .find(|dir| dir.is_dir())
}

/// The module roots of one side: `build.roots` of a v1 buf.yaml, else the side itself.
pub fn roots(side: &Path) -> Vec<PathBuf> {
    let config = std::fs::read_to_string(side.join("buf.yaml")).unwrap_or_default();
    let mut roots = Vec::new();
    let mut in_roots = false;
    for line in config.lines() {
        let trimmed = line.trim();
        if trimmed == "roots:" {
            in_roots = true;
        } else if in_roots && trimmed.starts_with("- ") {
            roots.push(side.join(trimmed.trim_start_matches("- ")));
        } else {
            in_roots = false;
        }
    }
    if roots.is_empty() {
        roots.push(side.to_path_buf());
    }
    roots
}

fn proto_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            proto_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
}

pub fn side_sources(side: &Path) -> Vec<SourceFile> {
    let mut sources = Vec::new();
    for root in roots(side) {
        let mut files = Vec::new();
        proto_files(&root, &mut files);
        files.sort();
        for file in files {
            let path = file
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&file).unwrap();
            sources.push(SourceFile {
                display_name: file.display().to_string(),
                path,
                text: Arc::from(text),
            });
        }
    }
    sources
}

pub fn sides() -> Vec<PathBuf> {
    let Some(Ok(cases)) = corpus_dir().map(std::fs::read_dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for case in cases.flatten() {
        for side in ["previous", "current"] {
            let dir = case.path().join(side);
            if dir.is_dir() {
                out.push(dir);
            }
        }
    }
    out.sort();
    out
}
