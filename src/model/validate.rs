//! The checks protoc (and buf's compiler) make that decide whether a schema is valid at all,
//! limited to the ones that are certain and cheap: field number range, duplicate field
//! numbers and names, fields using reserved numbers or names, duplicate enum numbers without
//! `allow_alias`, and the zero first value of open enums. A schema failing them would make
//! buf stop with a compile error, so we stop too rather than compare nonsense.

use std::collections::HashMap;

use super::{Enum, EnumType, File, Message, Options, Span, Syntax};

/// Largest field number.
const FIELD_MAX: i64 = 536_870_911;
/// Numbers reserved for the protobuf implementation.
const IMPLEMENTATION_RESERVED: std::ops::RangeInclusive<i64> = 19_000..=19_999;

/// Where an option is written, for the `targets` of features.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::File => "a file",
            Target::Message => "a message",
            Target::Field => "a field",
            Target::Oneof => "a oneof",
            Target::Enum => "an enum",
            Target::EnumValue => "an enum value",
            Target::Service => "a service",
            Target::Method => "a method",
        }
    }
}

/// The targets descriptor.proto allows for each standard feature.
fn feature_targets(feature: &str) -> Option<&'static [Target]> {
    use Target::*;
    Some(match feature {
        "field_presence" | "repeated_field_encoding" | "utf8_validation" | "message_encoding" => {
            &[Field, File]
        }
        "enum_type" => &[Enum, File],
        "json_format" => &[Message, Enum, File],
        _ => return None,
    })
}

/// Features only exist in editions, only the known ones, only where their `targets` allow;
/// `packed` does not exist in editions.
fn check_options(
    options: &Options,
    target: Target,
    syntax: &Syntax,
    errors: &mut Vec<(Span, String)>,
) {
    let editions = matches!(syntax, Syntax::Editions(_));
    for entry in &options.entries {
        let name = entry.name.as_str();
        if !editions && (name == "features" || name.starts_with("features.")) {
            errors.push((
                entry.span,
                "features are only valid under editions".to_string(),
            ));
            continue;
        }
        if editions && name == "packed" {
            errors.push((
                entry.span,
                "the `packed` option is not allowed under editions; use `features.repeated_field_encoding`"
                    .to_string(),
            ));
            continue;
        }
        let Some(feature) = name.strip_prefix("features.") else {
            continue;
        };
        if feature.starts_with('(') {
            continue; // language features: not checked here
        }
        let standard = feature.split('.').next().unwrap_or(feature);
        match feature_targets(standard) {
            None => errors.push((entry.span, format!("unknown feature `{standard}`"))),
            Some(targets) if !targets.contains(&target) => errors.push((
                entry.span,
                format!("feature `{standard}` cannot be set on {}", target.name()),
            )),
            Some(_) => {}
        }
    }
}

/// Every problem found in `file`, as (span, message).
pub fn validate(file: &File) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    check_all_options(file, &mut errors);
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

fn check_all_options(file: &File, errors: &mut Vec<(Span, String)>) {
    let syntax = &file.syntax;
    check_options(&file.options, Target::File, syntax, errors);
    for message in file.all_messages() {
        check_options(&message.options, Target::Message, syntax, errors);
        for field in message.fields.iter().chain(&message.extensions) {
            check_options(&field.options, Target::Field, syntax, errors);
        }
        for oneof in &message.oneofs {
            check_options(&oneof.options, Target::Oneof, syntax, errors);
        }
    }
    for field in &file.extensions {
        check_options(&field.options, Target::Field, syntax, errors);
    }
    for enumeration in file.all_enums() {
        check_options(&enumeration.options, Target::Enum, syntax, errors);
        for value in &enumeration.values {
            check_options(&value.options, Target::EnumValue, syntax, errors);
        }
    }
    for service in &file.services {
        check_options(&service.options, Target::Service, syntax, errors);
        for method in &service.methods {
            check_options(&method.options, Target::Method, syntax, errors);
        }
    }
}
