//! What edition 2024 removed (options replaced by features), and what its
//! `default_symbol_visibility = STRICT` forbids.

use crate::link::symbols::{default_visibility, file_package, join};
use crate::model::{Syntax, FIELD_MAX};
use crate::syntax::ast::{self, MessageItem, OptionDecl, TopItem, Visibility};
use crate::syntax::Span;

/// protoc: `ctype option is not allowed under edition 2024 and beyond. Use the feature
/// string_type = VIEW|CORD|STRING|... instead.` and `google.protobuf.FileOptions.
/// java_multiple_files has been removed in edition 2024: ...`.
pub(super) fn no_removed_option(syntax: &Syntax, option: &OptionDecl) -> Option<(Span, String)> {
    let Syntax::Editions(edition) = syntax else {
        return None;
    };
    // Edition names of one length compare as numbers.
    if edition.as_str() < "2024" || option.name.len() != 1 || option.name[0].is_extension {
        return None;
    }
    let instead = match option.name[0].name.as_str() {
        "ctype" => "the feature `features.(pb.cpp).string_type`",
        "java_multiple_files" => "the feature `features.(pb.java).nest_in_file_class`",
        _ => return None,
    };
    Some((
        option.name[0].span,
        format!(
            "option `{}` was removed in edition 2024: use {instead}",
            option.name[0].name
        ),
    ))
}

/// protoc: `"Outer.Inner" is a nested message and cannot be `export` with STRICT
/// default_symbol_visibility. It must be moved to top-level, ...`, and the same for a nested
/// enum, except in a message that reserves every field number (`local message Outer { export
/// enum Inner { ... } reserved 1 to max; }`: a namespace for C++).
pub(super) fn strict_nested_exports(file: &ast::FileAst) -> Vec<(Span, String)> {
    if default_visibility(file) != Some("STRICT") {
        return Vec::new();
    }
    let package = file_package(file);
    let mut errors = Vec::new();
    for item in &file.items {
        if let TopItem::Message(m) = item {
            nested_exports(m, package, &mut errors);
        }
    }
    errors
}

fn nested_exports(message: &ast::MessageDecl, scope: &str, errors: &mut Vec<(Span, String)>) {
    let name = join(scope, &message.name.text);
    let namespace = message.body.iter().any(|item| {
        matches!(item, MessageItem::Reserved(r)
            if r.ranges.iter().any(|r| r.start == 1 && (r.end_is_max || r.end == FIELD_MAX)))
    });
    for item in &message.body {
        match item {
            MessageItem::Message(nested) => {
                if nested.visibility == Some(Visibility::Export) {
                    errors.push((
                        nested.name.span,
                        format!(
                            "nested message `{}` cannot be `export` under `default_symbol_visibility = STRICT`: move it to the top level (ideally to a file of its own) to export it",
                            join(&name, &nested.name.text)
                        ),
                    ));
                }
                nested_exports(nested, &name, errors);
            }
            MessageItem::Enum(nested)
                if nested.visibility == Some(Visibility::Export) && !namespace =>
            {
                errors.push((
                    nested.name.span,
                    format!(
                        "nested enum `{}` cannot be `export` under `default_symbol_visibility = STRICT`: move it to the top level, or into a message that only namespaces it (`local message {} {{ export enum {} {{ ... }} reserved 1 to max; }}`)",
                        join(&name, &nested.name.text),
                        message.name.text,
                        nested.name.text
                    ),
                ));
            }
            _ => {}
        }
    }
}
