//! Builds the schema model from source files: parse, resolve imports, resolve names,
//! compute effective features. (Owned by the front-end work; this is the interface.)

use std::sync::Arc;

use super::Schema;

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
}

/// A resolver that finds nothing (beyond what `build_schema` bundles itself).
pub struct NoImports;
impl ImportResolver for NoImports {
    fn open(&self, _import_path: &str) -> Result<Option<SourceFile>, miette::Report> {
        Ok(None)
    }
}

pub struct BuildOutput {
    /// Only the compared files, keyed by path.
    pub schema: Schema,
    /// Non-fatal diagnostics (an unresolved import, ...).
    pub warnings: Vec<miette::Report>,
}

/// The files could not be built: every syntax or resolution error found, each a diagnostic
/// with its source and span.
#[derive(Debug)]
pub struct BuildError {
    pub diagnostics: Vec<miette::Report>,
}

pub fn build_schema(
    _files: Vec<SourceFile>,
    _resolver: &dyn ImportResolver,
) -> Result<BuildOutput, BuildError> {
    unimplemented!("front-end")
}
