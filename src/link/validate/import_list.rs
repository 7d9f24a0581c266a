//! The import statements of a file, as written.

use crate::syntax::{ast::ImportDecl, Span};

/// protoc: `Import "a.proto" was listed twice.`
pub(in crate::link) fn imported_once(imports: &[&ImportDecl]) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    for (i, import) in imports.iter().enumerate() {
        if imports[..i]
            .iter()
            .any(|earlier| earlier.path == import.path)
        {
            errors.push((
                import.path_span,
                format!("\"{}\" is imported more than once", import.path),
            ));
        }
    }
    errors
}
