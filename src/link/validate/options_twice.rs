//! An option set twice: protoc refuses it rather than let the last value win.

use crate::syntax::{ast::OptionDecl, Span};

/// Built-in options that are repeated fields of the options messages, which may be set more
/// than once (`FieldOptions.targets` and `edition_defaults`, `ExtensionRangeOptions.declaration`).
const REPEATED_BUILTIN: &[&str] = &[
    "targets",
    "edition_defaults",
    "declaration",
    "uninterpreted_option",
];

/// protoc: `Option "go_package" was already set.` Only built-in options and features are
/// checked: a custom option may be a repeated extension, set once per element, and telling
/// needs its resolved declaration.
pub(in crate::link) fn set_twice(options: &[OptionDecl]) -> Vec<(Span, String)> {
    let mut seen: Vec<String> = Vec::new();
    let mut errors = Vec::new();
    for option in options {
        if option.name.iter().any(|part| part.is_extension) {
            continue;
        }
        let name = option.canonical_name();
        if REPEATED_BUILTIN.contains(&name.as_str()) {
            continue;
        }
        if seen.contains(&name) {
            errors.push((name_span(option), format!("option `{name}` is already set")));
        } else {
            seen.push(name);
        }
    }
    errors
}

/// From the first part of the option's name to its last.
fn name_span(option: &OptionDecl) -> Span {
    match (option.name.first(), option.name.last()) {
        (Some(first), Some(last)) => Span {
            start: first.span.start,
            end: last.span.end,
        },
        _ => option.span,
    }
}
