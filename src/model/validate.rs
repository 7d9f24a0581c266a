//! The checks protoc (and buf's compiler) make that decide whether a schema is valid at all,
//! limited to the ones that are certain and cheap: field number range, duplicate field
//! numbers and names, fields using reserved numbers or names, duplicate enum numbers without
//! `allow_alias`, and the zero first value of open enums. A schema failing them would make
//! buf stop with a compile error, so we stop too rather than compare nonsense.

use std::collections::HashMap;

use super::{Enum, EnumType, File, Message, Span};

/// Largest field number.
const FIELD_MAX: i64 = 536_870_911;
/// Numbers reserved for the protobuf implementation.
const IMPLEMENTATION_RESERVED: std::ops::RangeInclusive<i64> = 19_000..=19_999;

/// Every problem found in `file`, as (span, message).
pub fn validate(file: &File) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    for message in file.all_messages() {
        check_message(message, &mut errors);
    }
    for field in file.all_extensions() {
        // Message-set extensions may go up to the int32 maximum.
        if !(1..=i64::from(i32::MAX)).contains(&field.number) {
            errors.push((
                field.number_span,
                format!(
                    "extension `{}`: number {} is out of range",
                    field.name, field.number
                ),
            ));
        }
    }
    for enumeration in file.all_enums() {
        check_enum(enumeration, &mut errors);
    }
    errors
}

fn check_number(number: i64, span: Span, name: &str, errors: &mut Vec<(Span, String)>) {
    if !(1..=FIELD_MAX).contains(&number) {
        errors.push((
            span,
            format!("field `{name}`: number {number} is out of range (1 to {FIELD_MAX})"),
        ));
    } else if IMPLEMENTATION_RESERVED.contains(&number) {
        errors.push((
            span,
            format!(
                "field `{name}`: numbers 19000 to 19999 are reserved for the protobuf implementation"
            ),
        ));
    }
}

fn check_message(message: &Message, errors: &mut Vec<(Span, String)>) {
    let mut numbers: HashMap<i64, &str> = HashMap::new();
    let mut names: HashMap<&str, ()> = HashMap::new();
    for field in &message.fields {
        check_number(field.number, field.number_span, &field.name, errors);
        if let Some(other) = numbers.insert(field.number, &field.name) {
            errors.push((
                field.number_span,
                format!(
                    "field `{}` of `{}` uses number {}, already used by field `{other}`",
                    field.name, message.full_name, field.number
                ),
            ));
        }
        if names.insert(&field.name, ()).is_some() {
            errors.push((
                field.name_span,
                format!(
                    "field `{}` is defined twice in `{}`",
                    field.name, message.full_name
                ),
            ));
        }
        if let Some(range) = message
            .reserved_ranges
            .iter()
            .find(|r| (r.start..=r.end).contains(&field.number))
        {
            errors.push((
                field.number_span,
                format!(
                    "field `{}` uses number {}, which is reserved ({} to {})",
                    field.name, field.number, range.start, range.end
                ),
            ));
        }
        if message.reserved_names.iter().any(|r| r.name == field.name) {
            errors.push((
                field.name_span,
                format!("field name `{}` is reserved", field.name),
            ));
        }
    }
}

fn check_enum(enumeration: &Enum, errors: &mut Vec<(Span, String)>) {
    if let Some(first) = enumeration.values.first() {
        if enumeration.features.enum_type.value == EnumType::Open && first.number != 0 {
            errors.push((
                first.number_span,
                format!(
                    "the first value of open enum `{}` must be zero",
                    enumeration.full_name
                ),
            ));
        }
    }
    let allow_alias = enumeration.options.bool("allow_alias") == Some(true);
    let mut numbers: HashMap<i64, &str> = HashMap::new();
    for value in &enumeration.values {
        if let Some(other) = numbers.insert(value.number, &value.name) {
            if !allow_alias {
                errors.push((
                    value.number_span,
                    format!(
                        "enum value `{}` uses number {}, already used by `{other}` (set `option allow_alias = true;` to allow aliases)",
                        value.name, value.number
                    ),
                ));
            }
        }
        if enumeration
            .reserved_ranges
            .iter()
            .any(|r| (r.start..=r.end).contains(&value.number))
        {
            errors.push((
                value.number_span,
                format!(
                    "enum value `{}` uses reserved number {}",
                    value.name, value.number
                ),
            ));
        }
        if enumeration
            .reserved_names
            .iter()
            .any(|r| r.name == value.name)
        {
            errors.push((
                value.name_span,
                format!("enum value name `{}` is reserved", value.name),
            ));
        }
    }
}
