//! Checks on what a resolved reference points at, made while lowering: they need the symbol
//! table (closed enums and extension ranges of every file in the build), read through the
//! file's `Resolver` so that `link::replay` records each fact.

use crate::link::resolve::Resolver;
use crate::link::symbols::Symbols;
use crate::model::{Field, FieldType, Label, MessageEncoding, Syntax};
use crate::syntax::{ast, Span};

/// An extension's number must lie in one of the extendee's extension ranges.
pub(in crate::link) fn extension_number(
    resolver: &Resolver,
    extendee: &str,
    field: &ast::FieldDecl,
) -> Option<(Span, String)> {
    let inside = resolver
        .extension_ranges(extendee)
        .iter()
        .any(|&(a, b)| (a..=b).contains(&field.number));
    (!inside).then(|| {
        (
            field.number_span,
            format!(
                "extension `{}`: number {} is not in an extension range of `{extendee}`",
                field.name.text, field.number
            ),
        )
    })
}

/// A map's value may be an enum only if its first value is zero (protobuf's descriptor
/// validation, which buf runs: a closed enum may start elsewhere).
pub(in crate::link) fn map_value_enum(
    resolver: &Resolver,
    type_name: Option<&str>,
) -> Option<String> {
    let name = type_name?;
    let first = resolver.closed_enum(name)?;
    (first != 0).then(|| {
        format!("enum `{name}` cannot be a map value: its first value must be zero, not {first}")
    })
}

/// buf's rule: a closed (proto2-style) enum cannot be used at all in a proto3 message,
/// nor by a singular field with implicit presence in editions.
pub(in crate::link) fn closed_enum(
    resolver: &Resolver,
    syntax: &Syntax,
    type_name: Option<&str>,
    implicit_singular: bool,
) -> Option<String> {
    let name = type_name?;
    resolver.closed_enum(name)?;
    match syntax {
        Syntax::Proto3 => Some(format!(
            "closed enum `{name}` cannot be used in a proto3 message"
        )),
        Syntax::Editions(_) if implicit_singular => Some(format!(
            "closed enum `{name}` cannot be used in a field with implicit presence"
        )),
        _ => None,
    }
}

/// protoc: `map_entry should not be set explicitly. Use map<KeyType, ValueType> instead.`,
/// also for a field that names the entry message of a map (protoc's `ValidateMapEntry`: only
/// the map field itself may use it).
pub(in crate::link) fn map_entry_use(resolver: &Resolver, type_name: &str) -> Option<String> {
    resolver.is_map_entry(type_name).then(|| {
        format!("`{type_name}` is the entry message of a map field; write a `map<KeyType, ValueType>` field instead")
    })
}

/// protoc: `Extensions of MessageSets must be optional messages.` (a group, or a message
/// encoded DELIMITED, is not one).
pub(in crate::link) fn message_set_extension(
    resolver: &Resolver,
    extendee: &str,
    field: &Field,
) -> Option<(Span, String)> {
    let optional_message = field.label != Label::Repeated
        && field.ty == FieldType::Message
        && field.features.message_encoding.value != MessageEncoding::Delimited;
    (resolver.is_message_set(extendee) && !optional_message).then(|| {
        (
            field.type_span,
            format!(
                "extension `{}`: `{extendee}` is a message set, whose extensions must be optional messages",
                field.name
            ),
        )
    })
}

/// protoc: `Files that do not use optimize_for = LITE_RUNTIME cannot import files which do
/// use this option.` `imports` are (file index, span of the import statement). `link::replay`
/// compares the flag of each import itself (`Trace::import_lite`).
pub(in crate::link) fn lite_imports(
    symbols: &Symbols,
    file: usize,
    imports: impl Iterator<Item = (usize, Span)>,
) -> Vec<(Span, String)> {
    if symbols.lite.get(file).copied().unwrap_or(true) {
        return Vec::new();
    }
    imports
        .filter(|&(imported, _)| symbols.lite.get(imported).copied().unwrap_or(false))
        .map(|(imported, span)| {
            (
                span,
                format!(
                    "\"{}\" uses `optimize_for = LITE_RUNTIME`: only a file that uses it too can import it",
                    symbols.paths.get(imported).map_or("?", String::as_str)
                ),
            )
        })
        .collect()
}

/// protoc: `Extensions to non-lite types can only be declared in non-lite files.` (a lite
/// file may extend only lite types; buf does not check this).
pub(in crate::link) fn lite_extendee(
    resolver: &Resolver,
    extendee: &str,
    span: Span,
) -> Option<(Span, String)> {
    let symbols = resolver.symbols;
    let own_lite = symbols.lite.get(resolver.file).copied().unwrap_or(false);
    let extendee_lite = resolver.lite_of_declaring(extendee)?;
    (own_lite && !extendee_lite).then(|| {
        (
            span,
            format!(
                "`{extendee}` is not declared in a file with `optimize_for = LITE_RUNTIME`: a lite file can only extend lite types"
            ),
        )
    })
}
