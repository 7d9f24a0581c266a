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

/// The most components a package name may have (protoc's parser, and buf's compiler).
const MAX_PACKAGE_DEPTH: usize = 101;

/// protoc: `Exceeds Maximum Package Depth`.
pub(in crate::link) fn package_depth(decl: &ast::PackageDecl) -> Option<(Span, String)> {
    let depth = decl.name.text.split('.').count();
    (depth > MAX_PACKAGE_DEPTH).then(|| {
        (
            decl.name.span,
            format!(
                "the package name has {depth} components; at most {MAX_PACKAGE_DEPTH} are allowed"
            ),
        )
    })
}

/// The longest package name protoc accepts, in bytes (`NameLimits::kPackageName`).
const MAX_PACKAGE_NAME: usize = 511;

/// protoc: `Package name is too long` (buf has no limit).
pub(in crate::link) fn package_length(decl: &ast::PackageDecl) -> Option<(Span, String)> {
    let length = decl.name.text.len();
    (length > MAX_PACKAGE_NAME).then(|| {
        (
            decl.name.span,
            format!("the package name is {length} characters long; at most {MAX_PACKAGE_NAME} are allowed"),
        )
    })
}

/// protoc accepts `edition = "UNSTABLE"` (the edition in the making, with the newest
/// edition's defaults) only in its own files, under `google/protobuf/` and `upb/`; anywhere
/// else: `is a file using edition UNSTABLE, which is later than the protoc maximum supported
/// edition 2024.` (buf refuses it everywhere).
pub(in crate::link) fn unstable_edition(
    path: &str,
    decl: Option<&ast::SyntaxDecl>,
) -> Option<(Span, String)> {
    let decl = decl.filter(|d| d.kind == ast::SyntaxKind::Edition && d.value == "UNSTABLE")?;
    let protobuf_own = path.starts_with("google/protobuf/") || path.starts_with("upb/");
    (!protobuf_own).then(|| {
        (
            decl.value_span,
            "edition \"UNSTABLE\" is only allowed in protobuf's own files (under `google/protobuf/` or `upb/`); use \"2023\" or \"2024\"".to_string(),
        )
    })
}

/// protoc: `Enums must contain at least one value.`
pub(in crate::link) fn enum_has_values(decl: &ast::EnumDecl) -> Option<(Span, String)> {
    let empty = !decl
        .body
        .iter()
        .any(|item| matches!(item, ast::EnumItem::Value(_)));
    empty.then(|| {
        (
            decl.name.span,
            format!("enum `{}` must contain at least one value", decl.name.text),
        )
    })
}

/// protoc's parser wants a field in every oneof (`Expected type name.`).
pub(in crate::link) fn oneof_has_fields(decl: &ast::OneofDecl) -> Option<(Span, String)> {
    decl.fields.is_empty().then(|| {
        (
            decl.name.span,
            format!("oneof `{}` must contain at least one field", decl.name.text),
        )
    })
}

/// protoc's parser wants a field in every `extend` block (`Expected "required", "optional",
/// or "repeated".`).
pub(in crate::link) fn extend_has_fields(decl: &ast::ExtendDecl) -> Option<(Span, String)> {
    decl.fields.is_empty().then(|| {
        (
            decl.extendee.span,
            format!(
                "`extend {}` must declare at least one field",
                decl.extendee.text
            ),
        )
    })
}

/// protoc: `Map fields are not allowed in oneofs.`
pub(in crate::link) fn no_map_in_oneof(field: &ast::FieldDecl) -> Option<(Span, String)> {
    is_map(field).then(|| {
        (
            field.type_span,
            format!("map field `{}` cannot be in a oneof", field.name.text),
        )
    })
}

/// protoc: `Map fields are not allowed to be extensions.`
pub(in crate::link) fn no_map_extension(field: &ast::FieldDecl) -> Option<(Span, String)> {
    is_map(field).then(|| {
        (
            field.type_span,
            format!("extension `{}` cannot be a map", field.name.text),
        )
    })
}

/// protoc: `The extension sss cannot be required.`
pub(in crate::link) fn extension_not_required(field: &ast::FieldDecl) -> Option<(Span, String)> {
    match field.label {
        Some((crate::syntax::Label::Required, span)) => Some((
            span,
            format!("extension `{}` cannot be required", field.name.text),
        )),
        _ => None,
    }
}

/// protoc: `option json_name is not allowed on extension fields.` (unless it is the name
/// protoc would derive anyway).
pub(in crate::link) fn no_json_name_on_extension(field: &ast::FieldDecl) -> Option<(Span, String)> {
    let default = crate::model::default_json_name(&field.name.text);
    let option = field.options.iter().find(|o| {
        o.canonical_name() == "json_name" && o.value.as_str().as_deref() != Some(default.as_str())
    })?;
    Some((
        option.span,
        format!(
            "extension `{}`: option `json_name` is not allowed on extensions",
            field.name.text
        ),
    ))
}

/// protoc: `map_entry should not be set explicitly. Use map<KeyType, ValueType> instead.`
pub(in crate::link) fn no_explicit_map_entry(
    options: &[ast::OptionDecl],
) -> Option<(Span, String)> {
    let option = options.iter().find(|o| o.canonical_name() == "map_entry")?;
    Some((
        option.span,
        "`map_entry` cannot be set explicitly; write a `map<KeyType, ValueType>` field instead"
            .to_string(),
    ))
}

/// protoc: `Field name "foo" is reserved multiple times.`
pub(in crate::link) fn reserved_names_once(names: &[&ast::Name]) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if names[..i].iter().any(|earlier| earlier.text == name.text) {
            errors.push((
                name.span,
                format!("name `{}` is reserved more than once", name.text),
            ));
        }
    }
    errors
}

fn is_map(field: &ast::FieldDecl) -> bool {
    matches!(field.ty, ast::TypeRef::Map { .. })
}
