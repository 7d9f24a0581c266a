//! `.proto` text -> syntax tree with byte spans: our own lexer and recursive-descent parser
//! (proto2, proto3, editions 2023/2024). Errors become miette diagnostics, several per file.

pub use crate::syntax::ast;
pub mod lexer;
pub mod literal;
pub mod parser;

use std::sync::Arc;

use miette::{NamedSource, SourceSpan};

use crate::syntax::Span;

/// One syntax (or front-end) error, rendered by miette with the file's source.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
#[diagnostic(code(protocompat::syntax))]
pub struct SyntaxError {
    pub message: String,
    #[source_code]
    pub src: NamedSource<Arc<str>>,
    #[label("{label}")]
    pub span: SourceSpan,
    pub label: String,
}

/// A diagnostic about `span` in a file; `label` is the short text under the highlight.
pub fn diagnostic(
    display_name: &str,
    text: &Arc<str>,
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
) -> SyntaxError {
    SyntaxError {
        message: message.into(),
        src: NamedSource::new(display_name, Arc::clone(text)),
        span: SourceSpan::new(
            (span.start as usize).into(),
            (span.end - span.start) as usize,
        ),
        label: label.into(),
    }
}

/// The short text under the highlighted span: what was expected, or "here".
pub fn label_for(message: &str) -> String {
    match message.split_once(", found ") {
        Some((expected, _)) if expected.starts_with("expected ") => expected.to_string(),
        _ if message.starts_with("cannot resolve type") => "not found".to_string(),
        _ if message.contains("already used by") || message.contains("already defined") => {
            "duplicate".to_string()
        }
        _ if message.contains("reserved") => "reserved".to_string(),
        _ => "here".to_string(),
    }
}

/// A parsed file: the tree, its comments, and every lexical or syntax error (empty when the
/// file is well-formed).
#[derive(Debug)]
pub struct ParsedFile {
    pub ast: ast::FileAst,
    pub comments: Vec<lexer::LexComment>,
    /// (span, message), in source order.
    pub errors: Vec<(Span, String)>,
}

/// Lexes and parses one file's text.
pub fn parse(text: &str) -> ParsedFile {
    let lexed = lexer::lex(text);
    let (ast, parse_errors) = parser::parse_tokens(text, &lexed.tokens);
    let mut errors: Vec<(Span, String)> = lexed
        .errors
        .into_iter()
        .map(|e| (e.span, e.message))
        .chain(parse_errors.into_iter().map(|e| (e.span, e.message)))
        .collect();
    errors.sort_by_key(|(span, _)| *span);
    ParsedFile {
        ast,
        comments: lexed.comments,
        errors,
    }
}

#[cfg(test)]
mod legacy_lexer;
#[cfg(test)]
mod lexer_differential;
#[cfg(test)]
mod tests;
