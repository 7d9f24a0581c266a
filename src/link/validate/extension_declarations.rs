//! Extension declarations (`extensions 1 to 10 [declaration = { number: 1 full_name: ".p.e"
//! type: "int32" }, verification = DECLARATION]`), checked as protoc checks them: each
//! declaration on its own (`ValidateExtensionDeclaration`), and each extension against the
//! declaration of its number in its extendee (`CheckExtensionDeclaration`).

use std::collections::HashSet;

use crate::model::{
    Field, FieldType, Label, Message, OptionValue, Options, ReservedRange, Span, FIELD_MAX,
    MESSAGE_SET_FIELD_MAX,
};
use crate::parse::literal::parse_literal;
use crate::syntax::literal::{LiteralField, LiteralName, LiteralValue};

type Errors = Vec<(Span, String)>;

/// The scalar type names a declaration's `type` may give without a leading dot.
const SCALARS: &[&str] = &[
    "double", "float", "int64", "uint64", "int32", "fixed64", "fixed32", "bool", "string", "bytes",
    "uint32", "sfixed32", "sfixed64", "sint32", "sint64",
];

/// One `declaration = { ... }` of an extension range, as written.
#[derive(Debug, Default)]
struct Declaration {
    /// 0 when not written, as protoc reads it.
    number: i128,
    full_name: Option<String>,
    type_name: Option<String>,
    reserved: bool,
    repeated: bool,
    span: Span,
}

/// The declarations of an extension range that read as declarations.
fn declarations(options: &Options) -> Vec<Declaration> {
    let mut out = Vec::new();
    for entry in options.entries.iter().filter(|e| e.name == "declaration") {
        let OptionValue::Aggregate(text) = &entry.value else {
            continue; // a value of the wrong kind is reported with the option values
        };
        // Range options are compact (`[declaration = {...}]`): the value ends the span.
        let value_start = entry.span.end.saturating_sub(text.len() as u32);
        // A literal that does not parse, or sets a field with a value of the wrong type, is
        // reported by the checker of option values (`custom_options`).
        if let Ok(literal) = parse_literal(text, value_start) {
            out.extend(declaration(&literal.fields, entry.span));
        }
    }
    out
}

fn declaration(fields: &[LiteralField], span: Span) -> Option<Declaration> {
    let mut out = Declaration {
        span,
        ..Declaration::default()
    };
    for field in fields {
        let LiteralName::Field(name) = &field.name else {
            continue;
        };
        let LiteralValue::Scalar(value, _) = &field.value else {
            if matches!(name.as_str(), "number" | "full_name" | "type") {
                return None;
            }
            continue;
        };
        match (name.as_str(), value) {
            ("number", OptionValue::Int(n)) => out.number = *n,
            ("full_name", OptionValue::String(s)) => {
                out.full_name = Some(String::from_utf8_lossy(s).into_owned())
            }
            ("type", OptionValue::String(s)) => {
                out.type_name = Some(String::from_utf8_lossy(s).into_owned())
            }
            ("reserved", v) => out.reserved = is_true(v),
            ("repeated", v) => out.repeated = is_true(v),
            ("number" | "full_name" | "type", _) => return None,
            _ => {}
        }
    }
    Some(out)
}

fn is_true(value: &OptionValue) -> bool {
    matches!(value, OptionValue::Ident(v) if v == "true" || v == "True" || v == "t")
        || *value == OptionValue::Int(1)
}

/// `verification = ...` of an extension range, when written.
fn verification(options: &Options) -> Option<&str> {
    match options.value("verification")? {
        OptionValue::Ident(v) => Some(v),
        _ => None,
    }
}

/// Every problem with the extension declarations of `message`'s ranges.
pub(super) fn check_message(message: &Message) -> Errors {
    let mut errors = Vec::new();
    // Full names are unique across the message's ranges.
    let mut names = HashSet::new();
    for range in &message.extension_ranges {
        let declarations = declarations(&range.options);
        if declarations.is_empty() {
            continue;
        }
        if let Some(error) = unverified_with_declarations(range) {
            errors.push(error);
            continue;
        }
        let mut numbers = HashSet::new();
        let end = range_end(message, range);
        for (index, declaration) in declarations.iter().enumerate() {
            errors.extend(number_outside_range(declaration, range.start, end));
            errors.extend(number_declared_twice(declaration, &mut numbers));
            match name_and_type(declaration, index) {
                Err(error) => errors.push(error),
                Ok(None) => {}
                Ok(Some((full_name, type_name))) => {
                    errors.extend(name_declared_twice(declaration, full_name, &mut names));
                    errors.extend(invalid_full_name(declaration, full_name));
                    errors.extend(invalid_type(declaration, type_name));
                }
            }
        }
    }
    errors
}

/// protoc: `Cannot mark the extension range as UNVERIFIED when it has extension(s)
/// declared.`
fn unverified_with_declarations(range: &ReservedRange) -> Option<(Span, String)> {
    (verification(&range.options)? == "UNVERIFIED").then(|| {
        let span = range.options.span("verification").unwrap_or(range.span);
        (
            span,
            "an extension range with declarations cannot be `verification = UNVERIFIED`".into(),
        )
    })
}

/// The last number of an extension range: `max` goes up to the int32 maximum in a message
/// set (protoc's `AdjustExtensionRangesWithMaxEndNumber`).
fn range_end(message: &Message, range: &ReservedRange) -> i64 {
    let message_set = message.options.bool("message_set_wire_format") == Some(true);
    if message_set && range.end == FIELD_MAX {
        MESSAGE_SET_FIELD_MAX
    } else {
        range.end
    }
}

/// protoc: `Extension declaration number 2 is not in the extension range.`
fn number_outside_range(declaration: &Declaration, start: i64, end: i64) -> Option<(Span, String)> {
    let inside = (i128::from(start)..=i128::from(end)).contains(&declaration.number);
    (!inside).then(|| {
        (
            declaration.span,
            format!(
                "extension declaration number {} is not in the extension range {start} to {end}",
                declaration.number
            ),
        )
    })
}

/// protoc: `Extension declaration number 1 is declared multiple times.`
fn number_declared_twice(
    declaration: &Declaration,
    numbers: &mut HashSet<i128>,
) -> Option<(Span, String)> {
    (!numbers.insert(declaration.number)).then(|| {
        (
            declaration.span,
            format!(
                "extension declaration number {} is declared more than once",
                declaration.number
            ),
        )
    })
}

/// The declared full name and type; none for a reserved declaration without them. protoc:
/// `Extension declaration #1 should have both "full_name" and "type" set.`
fn name_and_type(
    declaration: &Declaration,
    index: usize,
) -> Result<Option<(&str, &str)>, (Span, String)> {
    match (&declaration.full_name, &declaration.type_name) {
        (Some(name), Some(ty)) => Ok(Some((name, ty))),
        (None, None) if declaration.reserved => Ok(None),
        _ => Err((
            declaration.span,
            format!(
                "extension declaration #{} (number {}) must set both `full_name` and `type` (a `reserved` one may set neither)",
                index + 1,
                declaration.number
            ),
        )),
    }
}

/// protoc: `Extension field name ".p.e" is declared multiple times.`
fn name_declared_twice(
    declaration: &Declaration,
    full_name: &str,
    names: &mut HashSet<String>,
) -> Option<(Span, String)> {
    (!names.insert(full_name.to_string())).then(|| {
        (
            declaration.span,
            format!("extension `{full_name}` is declared more than once"),
        )
    })
}

/// protoc: `"foo.bar" must have a leading dot to indicate the fully-qualified scope.` and
/// `".123.5-7.Foobar" contains invalid identifiers.`
fn invalid_full_name(declaration: &Declaration, full_name: &str) -> Option<(Span, String)> {
    qualified_name_problem(full_name).map(|problem| {
        (
            declaration.span,
            format!("extension declaration: full name \"{full_name}\" {problem}"),
        )
    })
}

/// A declared type is a scalar name or a qualified name with a leading dot.
fn invalid_type(declaration: &Declaration, type_name: &str) -> Option<(Span, String)> {
    if SCALARS.contains(&type_name) {
        return None;
    }
    qualified_name_problem(type_name).map(|problem| {
        (
            declaration.span,
            format!("extension declaration: type \"{type_name}\" {problem}"),
        )
    })
}

/// What is wrong with a name that must be `.a.b.c` (protoc's `ValidateQualifiedName`: parts
/// of letters, digits and `_`).
fn qualified_name_problem(name: &str) -> Option<&'static str> {
    let Some(rest) = name.strip_prefix('.') else {
        return Some("must start with a dot (it is fully qualified)");
    };
    let valid = rest.split('.').all(|part| {
        !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    });
    (!valid).then_some("is not a dotted name of identifiers")
}

/// An extension checked against the declarations of the range of `extendee` it is in.
/// protoc: `Cannot use number 1 for extension field foo.s, as it is reserved in the extension
/// declarations for message foo.A.`, `Missing extension declaration for field foo.bar with
/// number 3 in extendee message foo.A. ...`, and the mismatches of `mismatches`.
pub(super) fn check_extension(extension: &Field, extendee: &Message) -> Errors {
    let number = extension.number;
    let Some(range) = extendee
        .extension_ranges
        .iter()
        .find(|r| (r.start..=range_end(extendee, r)).contains(&number))
    else {
        return Vec::new();
    };
    let declarations = declarations(&range.options);
    let span = extension.name_span;
    let name = &extension.full_name;
    let extendee_name = &extendee.full_name;
    match declarations.iter().find(|d| d.number == i128::from(number)) {
        Some(d) if d.reserved => vec![(
            span,
            format!("extension `{name}` cannot use number {number}: it is reserved in the extension declarations of `{extendee_name}`"),
        )],
        Some(d) => mismatches(extension, d, extendee_name),
        None if !declarations.is_empty() || verification(&range.options) == Some("DECLARATION") => vec![(
            span,
            format!("extension `{name}` (number {number}) is not declared: the extension range of `{extendee_name}` it is in requires a declaration for each extension"),
        )],
        None => Vec::new(),
    }
}

/// protoc: `"foo.A" extension field 1 is expected to have field name ".foo.bar", not
/// ".foo.s".`, `... is expected to be repeated.` and `... is expected to be type "string",
/// not "uint32".`
fn mismatches(extension: &Field, declaration: &Declaration, extendee: &str) -> Errors {
    let mut errors = Vec::new();
    let number = extension.number;
    let what = format!("extension {number} of `{extendee}`");
    let actual_name = format!(".{}", extension.full_name);
    if let Some(declared) = &declaration.full_name {
        if *declared != actual_name {
            errors.push((
                extension.name_span,
                format!("{what} is declared as \"{declared}\", not \"{actual_name}\""),
            ));
        }
    }
    let repeated = extension.label == Label::Repeated;
    if repeated != declaration.repeated {
        let expected = if declaration.repeated {
            "repeated"
        } else {
            "optional"
        };
        errors.push((
            extension.label_span.unwrap_or(extension.name_span),
            format!("{what} is declared {expected}"),
        ));
    }
    if let Some(declared) = &declaration.type_name {
        let actual = match extension.ty {
            FieldType::Message | FieldType::Enum | FieldType::Group => {
                format!(".{}", extension.type_name.as_deref().unwrap_or_default())
            }
            scalar => scalar.name().to_string(),
        };
        if *declared != actual {
            errors.push((
                extension.type_span,
                format!("{what} is declared of type \"{declared}\", not \"{actual}\""),
            ));
        }
    }
    errors
}
