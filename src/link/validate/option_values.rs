//! Option values are type-checked as protoc's `OptionInterpreter::SetOptionValue` checks
//! them: a bool option takes `true` or `false`, a string option a quoted string, an integer
//! option an integer within its type's range, an enum option one of its enum's value names,
//! a message option a message literal. The types of the built-in options (and of the
//! `features.*` fields) are those of the bundled descriptor.proto, listed in `option_types`
//! (generated from it by a test, so that no check parses descriptor.proto for them); a custom
//! option is typed by its extension when that is a scalar (custom enum and message values,
//! and the parts of a name after a custom option, are not checked yet).

use super::option_types::MESSAGES;
use crate::syntax::ast::OptionDecl;
use crate::syntax::{FieldType, OptionValue, Span};

/// The type of an option's value.
#[derive(Debug)]
pub(super) enum Kind {
    Scalar(FieldType),
    /// An enum: full name and value names (empty when they are not known: any name passes).
    Enum(String, Vec<String>),
    /// A message.
    Message,
}

/// The type of a field of a descriptor.proto message, as [`MESSAGES`] lists it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Typed {
    Scalar(FieldType),
    /// An enum: full name and value names.
    Enum(&'static str, &'static [&'static str]),
    /// A message: full name (empty when the name does not resolve in descriptor.proto).
    Message(&'static str),
}

impl Typed {
    fn kind(self) -> Kind {
        match self {
            Typed::Scalar(scalar) => Kind::Scalar(scalar),
            Typed::Enum(name, values) => Kind::Enum(
                name.to_string(),
                values.iter().map(|v| v.to_string()).collect(),
            ),
            Typed::Message(_) => Kind::Message,
        }
    }
}

/// The fields of the descriptor.proto message `full_name` (sorted by name).
fn fields_of(full_name: &str) -> Option<&'static [(&'static str, Typed)]> {
    let at = MESSAGES.binary_search_by(|(name, _)| (*name).cmp(full_name));
    at.ok().map(|i| MESSAGES[i].1)
}

/// The type of the field `name` among `fields` (sorted by name).
fn field_of(fields: &[(&str, Typed)], name: &str) -> Option<Typed> {
    let at = fields.binary_search_by(|(field, _)| (*field).cmp(name));
    at.ok().map(|i| fields[i].1)
}

/// The problem with the value of a built-in option (`java_package`, `features.enum_type`)
/// set on an element whose options message is `options_message` (its full name,
/// `google.protobuf.FileOptions`), if any.
/// Names that do not resolve are reported elsewhere; a name with a custom part is skipped.
pub(super) fn builtin_value_problem(
    option: &OptionDecl,
    options_message: &str,
) -> Option<(Span, String)> {
    if option.name.iter().any(|part| part.is_extension) {
        return None;
    }
    let first = option.name.first()?.name.as_str();
    if options_message == "google.protobuf.FieldOptions" && matches!(first, "default" | "json_name")
    {
        return None; // not options: checked with the field
    }
    let mut fields = fields_of(options_message)?;
    let mut parts = option.name.iter().peekable();
    loop {
        let field = field_of(fields, parts.next()?.name.as_str())?;
        if parts.peek().is_none() {
            // The name only words the message: built when there is one (most values are
            // fine, and googleapis sets tens of thousands of built-in options).
            let kind = field.kind();
            value_problem(&kind, &option.value, "")?;
            let name = option.canonical_name();
            return value_problem(&kind, &option.value, &name)
                .map(|message| (option.value_span, message));
        }
        match field {
            Typed::Message(next) => fields = fields_of(next)?,
            _ => return None, // a part after a scalar: reported elsewhere
        }
    }
}

/// The problem with `value` for an option of this kind, in our words; protoc's are
/// `Value must be "true" or "false" for boolean option "x".`, `Value must be identifier for
/// boolean option "x".`, `Value must be quoted string for string option "x".`, `Value must be
/// integer, from -2147483648 to 2147483647, for int32 option "x".`, `Value out of range,
/// -2147483648 to 2147483647, for int32 option "x".`, `Value must be number for double option
/// "x".`, `Value must be identifier for enum-valued option "x".`, `Enum type "E" has no value
/// named "V" for option "x".` and `Option "x" is a message. To set the entire message, use
/// syntax like "x = { <proto text format> }". ...`.
pub(super) fn value_problem(kind: &Kind, value: &OptionValue, name: &str) -> Option<String> {
    match kind {
        Kind::Scalar(scalar) => scalar_problem(*scalar, value, name),
        Kind::Enum(full, values) => match value {
            OptionValue::Ident(v) if values.is_empty() || values.contains(v) => None,
            OptionValue::Ident(v) => Some(format!(
                "option `{name}`: enum `{full}` has no value named `{v}` (its values: {})",
                values.join(", ")
            )),
            _ => Some(format!(
                "option `{name}` is an enum (`{full}`): its value must be one of its value names"
            )),
        },
        Kind::Message => match value {
            OptionValue::Aggregate(_) => None,
            _ => Some(format!(
                "option `{name}` is a message: set it whole with `{name} = {{ ... }}`, or one field with `{name}.field = value`"
            )),
        },
    }
}

fn scalar_problem(scalar: FieldType, value: &OptionValue, name: &str) -> Option<String> {
    use FieldType::*;
    let type_name = scalar.name();
    let range: Option<(i128, i128)> = match scalar {
        Int32 | Sint32 | Sfixed32 => Some((i32::MIN.into(), i32::MAX.into())),
        Int64 | Sint64 | Sfixed64 => Some((i64::MIN.into(), i64::MAX.into())),
        Uint32 | Fixed32 => Some((0, u32::MAX.into())),
        Uint64 | Fixed64 => Some((0, u64::MAX.into())),
        _ => None,
    };
    if let Some((min, max)) = range {
        return match value {
            OptionValue::Int(n) if (min..=max).contains(n) => None,
            OptionValue::Int(n) => Some(format!(
                "option `{name}`: value {n} is out of range for {type_name} ({min} to {max})"
            )),
            _ => Some(format!(
                "option `{name}` is an {type_name}: its value must be an integer from {min} to {max}"
            )),
        };
    }
    match (scalar, value) {
        (Bool, OptionValue::Ident(v)) if v == "true" || v == "false" => None,
        (Bool, _) => Some(format!(
            "option `{name}` is a bool: its value must be `true` or `false`"
        )),
        (String | Bytes, OptionValue::String(_)) => None,
        (String | Bytes, _) => Some(format!(
            "option `{name}` is a {type_name}: its value must be a quoted string"
        )),
        (Float | Double, OptionValue::Int(_) | OptionValue::Float(_)) => None,
        (Float | Double, OptionValue::Ident(v)) if v == "inf" || v == "nan" => None,
        (Float | Double, _) => Some(format!(
            "option `{name}` is a {type_name}: its value must be a number"
        )),
        _ => None,
    }
}
