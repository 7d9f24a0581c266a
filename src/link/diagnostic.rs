//! Front-end errors as miette reports, with the file's source and the span highlighted.

use super::input::SourceFile;
use crate::parse;
use crate::syntax::Span;

/// An error at `span` of `source`; `label` is the short text under the highlight.
pub(super) fn report(
    source: &SourceFile,
    span: Span,
    message: &str,
    label: &str,
) -> miette::Report {
    miette::Report::new(parse::diagnostic(
        &source.display_name,
        &source.text,
        span,
        message,
        label,
    ))
}
