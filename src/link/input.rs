//! What the linker reads: source files, and the resolver that finds imported files outside
//! the compared set.

use std::sync::Arc;

use crate::parse::{self, ParsedFile};

/// One `.proto` file's text as read from a revision.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path relative to the compared root (or include root), `/`-separated.
    pub path: String,
    /// What diagnostics call the file, e.g. `acme/v1/order.proto @ main`.
    pub display_name: String,
    pub text: Arc<str>,
}

/// Finds files named by `import` that are not among the compared files: include roots of the
/// same revision, then the bundled well-known types.
pub trait ImportResolver: Sync {
    /// `Ok(None)`: not found anywhere.
    fn open(&self, import_path: &str) -> Result<Option<SourceFile>, miette::Report>;

    /// The file and its syntax tree. A resolver that has parsed the same bytes before
    /// (a parse cache keyed by git blob id) returns that tree instead of parsing again; the
    /// tree must be what `parse::parse` gives for the returned text.
    fn open_parsed(
        &self,
        import_path: &str,
    ) -> Result<Option<(SourceFile, Arc<ParsedFile>)>, miette::Report> {
        Ok(self.open(import_path)?.map(|source| {
            let parsed = Arc::new(parse::parse(&source.text));
            (source, parsed)
        }))
    }
}

/// A resolver that finds nothing (beyond what `build_schema` bundles itself).
pub struct NoImports;
impl ImportResolver for NoImports {
    fn open(&self, _import_path: &str) -> Result<Option<SourceFile>, miette::Report> {
        Ok(None)
    }
}
