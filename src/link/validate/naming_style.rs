//! Edition 2024's naming style: `features.enforce_naming_style` is `STYLE2024` by default,
//! and protoc then refuses names that break the style guide (protoc's
//! `DescriptorBuilder::ValidateNamingStyle` and `naming_style.cc`).

use super::features::spelled_out;
use crate::model::{Enum, Field, File, Message, OptionValue, Options, Span, Syntax};

type Errors = Vec<(Span, String)>;

/// The name styles protoc checks.
#[derive(Clone, Copy)]
enum Style {
    /// Message, enum, service and method names: letters and digits, a capital first.
    Title,
    /// Package, field and oneof names.
    LowerSnake,
    /// Enum value names.
    UpperSnake,
}

/// Every name of `file` that breaks the style while `enforce_naming_style` is STYLE2024
/// (from edition 2024 on; `STYLE_LEGACY` opts an element and what it contains out).
pub(super) fn naming_style(file: &File) -> Errors {
    let Syntax::Editions(edition) = &file.syntax else {
        return Vec::new();
    };
    // Edition names of one length compare as numbers.
    if edition.as_str() < "2024" {
        return Vec::new();
    }
    let mut errors = Vec::new();
    let Some(enforced) = style_enforced(&file.options, true) else {
        return errors;
    };
    if enforced && !file.package.is_empty() {
        let span = file.package_span.unwrap_or_default();
        check(
            &mut errors,
            "package",
            &file.package,
            span,
            Style::LowerSnake,
        );
    }
    for message in &file.messages {
        message_names(message, enforced, &mut errors);
    }
    for field in &file.extensions {
        field_name(field, enforced, &mut errors);
    }
    for enumeration in &file.enums {
        enum_names(enumeration, enforced, &mut errors);
    }
    for service in &file.services {
        let Some(enforced) = style_enforced(&service.options, enforced) else {
            continue;
        };
        if enforced {
            let style = Style::Title;
            check(
                &mut errors,
                "service",
                &service.name,
                service.name_span,
                style,
            );
        }
        for method in &service.methods {
            if enforced_here(&method.options, enforced) {
                let style = Style::Title;
                check(&mut errors, "method", &method.name, method.name_span, style);
            }
        }
    }
    errors
}

/// Whether the style is enforced on an element, from its own options and its parent's;
/// `None` when its `enforce_naming_style` is a value this check does not know.
fn style_enforced(options: &Options, parent: bool) -> Option<bool> {
    let set = spelled_out(options)
        .into_iter()
        .rev()
        .find(|entry| entry.name == "features.enforce_naming_style");
    let Some(entry) = set else {
        return Some(parent);
    };
    match &entry.value {
        OptionValue::Ident(v) if v == "STYLE_LEGACY" => Some(false),
        OptionValue::Ident(v) if v == "STYLE2024" || v == "STYLE2026" => Some(true),
        _ => None,
    }
}

fn enforced_here(options: &Options, parent: bool) -> bool {
    style_enforced(options, parent).unwrap_or(false)
}

fn message_names(message: &Message, parent: bool, errors: &mut Errors) {
    let Some(enforced) = style_enforced(&message.options, parent) else {
        return;
    };
    if enforced {
        let style = Style::Title;
        check(errors, "message", &message.name, message.name_span, style);
    }
    for field in message.fields.iter().chain(&message.extensions) {
        field_name(field, enforced, errors);
    }
    for oneof in message.oneofs.iter().filter(|o| !o.synthetic) {
        if enforced_here(&oneof.options, enforced) {
            let style = Style::LowerSnake;
            check(errors, "oneof", &oneof.name, oneof.name_span, style);
        }
    }
    for nested in &message.messages {
        message_names(nested, enforced, errors);
    }
    for enumeration in &message.enums {
        enum_names(enumeration, enforced, errors);
    }
}

fn field_name(field: &Field, parent: bool, errors: &mut Errors) {
    if enforced_here(&field.options, parent) {
        let style = Style::LowerSnake;
        check(errors, "field", &field.name, field.name_span, style);
    }
}

fn enum_names(enumeration: &Enum, parent: bool, errors: &mut Errors) {
    let Some(enforced) = style_enforced(&enumeration.options, parent) else {
        return;
    };
    if enforced {
        let style = Style::Title;
        check(
            errors,
            "enum",
            &enumeration.name,
            enumeration.name_span,
            style,
        );
    }
    for value in &enumeration.values {
        if enforced_here(&value.options, enforced) {
            let style = Style::UpperSnake;
            check(errors, "enum value", &value.name, value.name_span, style);
        }
    }
}

/// protoc: `Message name foo_bar should be TitleCase (features.enforce_naming_style =
/// STYLE_LEGACY can be used to opt out of this check)`, and the same for each kind.
fn check(errors: &mut Errors, kind: &str, name: &str, span: Span, style: Style) {
    if let Some(problem) = style_problem(name, style) {
        errors.push((
            span,
            format!(
                "{kind} name `{name}` {problem} (edition 2024's naming style; `features.enforce_naming_style = STYLE_LEGACY` opts out)"
            ),
        ));
    }
}

/// What is wrong with `name` in `style`, in protoc's order of checks.
fn style_problem(name: &str, style: Style) -> Option<&'static str> {
    let first = name.bytes().next()?;
    let (allowed, first_ok, what, begin): (fn(u8) -> bool, bool, _, _) = match style {
        Style::Title => (
            |c: u8| c.is_ascii_alphanumeric(),
            first.is_ascii_uppercase(),
            "should be TitleCase",
            "should begin with a capital letter",
        ),
        Style::LowerSnake => (
            |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'.',
            first.is_ascii_lowercase(),
            "should be lower_snake_case",
            "should begin with a lower case letter",
        ),
        Style::UpperSnake => (
            |c: u8| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_',
            first.is_ascii_uppercase(),
            "should be UPPER_SNAKE_CASE",
            "should begin with an upper case letter",
        ),
    };
    if !name.bytes().all(allowed) {
        return Some(what);
    }
    if !first_ok {
        return Some(begin);
    }
    let snake = !matches!(style, Style::Title);
    (snake && bad_underscores(name)).then_some("contains style violating underscores")
}

/// protoc's `ContainsBadUnderscores`: a leading or trailing underscore, or one followed by
/// anything but a letter.
fn bad_underscores(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first() == Some(&b'_')
        || bytes.last() == Some(&b'_')
        || bytes
            .windows(2)
            .any(|pair| pair[0] == b'_' && !pair[1].is_ascii_alphabetic())
}
