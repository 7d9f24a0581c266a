//! Checks on a declaration as written, made while lowering it.

use crate::model::Syntax;
use crate::syntax::{ast, Span};

/// proto2 fields outside oneofs (map fields aside) must say `optional`, `required` or
/// `repeated`.
pub(in crate::link) fn proto2_label(
    syntax: &Syntax,
    decl: &ast::FieldDecl,
    in_oneof: bool,
) -> Option<(Span, String)> {
    let is_map = matches!(decl.ty, ast::TypeRef::Map { .. });
    let needs_label = *syntax == Syntax::Proto2 && decl.label.is_none() && !in_oneof && !is_map;
    needs_label.then(|| {
        (
            decl.span,
            format!(
                "field `{}` needs a label in proto2: `optional`, `required` or `repeated`",
                decl.name.text
            ),
        )
    })
}

/// A file has at most one `package` statement; `previous` is the span of an earlier one.
pub(in crate::link) fn single_package(
    previous: Option<Span>,
    span: Span,
) -> Option<(Span, String)> {
    previous.map(|_| (span, "a file can declare only one package".into()))
}
