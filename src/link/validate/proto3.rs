//! What proto3 leaves out of proto2: groups, required fields, extension ranges, and
//! extensions of anything but the options messages.

use crate::model::{Label, Syntax};
use crate::syntax::{ast, Span};

/// protoc: `Groups are not supported in proto3 syntax.`
pub(in crate::link) fn no_groups(
    syntax: &Syntax,
    field: &ast::FieldDecl,
) -> Option<(Span, String)> {
    (*syntax == Syntax::Proto3 && field.ty == ast::TypeRef::Group).then(|| {
        (
            field.type_span,
            "groups are not supported in proto3".to_string(),
        )
    })
}

/// protoc: `Required fields are not allowed in proto3.`
pub(in crate::link) fn no_required(
    syntax: &Syntax,
    field: &ast::FieldDecl,
) -> Option<(Span, String)> {
    match field.label {
        Some((Label::Required, span)) if *syntax == Syntax::Proto3 => Some((
            span,
            format!(
                "field `{}`: required fields are not allowed in proto3",
                field.name.text
            ),
        )),
        _ => None,
    }
}

/// protoc: `Extension ranges are not allowed in proto3.`
pub(in crate::link) fn no_extension_ranges(
    syntax: &Syntax,
    decl: &ast::ExtensionsDecl,
) -> Option<(Span, String)> {
    (*syntax == Syntax::Proto3).then(|| {
        (
            decl.span,
            "extension ranges are not allowed in proto3".to_string(),
        )
    })
}

/// protoc: `Extensions in proto3 are only allowed for defining options.` (the extendee is
/// one of descriptor.proto's `*Options` messages).
pub(in crate::link) fn extends_options_only(
    syntax: &Syntax,
    extendee: &str,
    span: Span,
) -> Option<(Span, String)> {
    let options = extendee
        .strip_prefix("google.protobuf.")
        .is_some_and(|name| name.ends_with("Options") && !name.contains('.'));
    (*syntax == Syntax::Proto3 && !options).then(|| {
        (
            span,
            format!("`{extendee}` cannot be extended in proto3: extensions in proto3 are only allowed for defining options"),
        )
    })
}
