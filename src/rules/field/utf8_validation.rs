//! FIELD_SAME_UTF8_VALIDATION and FIELD_SAME_JAVA_UTF8_VALIDATION: string fields keep how
//! parsers (and generated Java code) treat invalid UTF-8.

use super::side::FieldSide;
use super::{changed, field_feature_span, report};
use crate::finding::Sink;
use crate::model::{FieldType, JavaUtf8Validation, Span, Syntax, Utf8Validation};
use crate::rules::pairs::FieldSides;

/// FIELD_SAME_JAVA_UTF8_VALIDATION: string fields keep Java's UTF-8 validation, from the
/// `java_string_check_utf8` file option or the `(pb.java).utf8_validation` feature.
pub(in crate::rules) fn java(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if old.kind() != FieldType::String || new.kind() != FieldType::String {
        return;
    }
    let (was, now) = (java_utf8_validation(&old), java_utf8_validation(&new));
    if was == now {
        return;
    }
    let message = changed(
        &new,
        "Java string UTF8 validation",
        utf8_name(was),
        utf8_name(now),
    );
    let help = format!(
        "restore Java UTF-8 validation {}: generated Java code would start {} invalid UTF-8",
        utf8_name(was),
        if now == Utf8Validation::Verify {
            "rejecting"
        } else {
            "accepting"
        }
    );
    report(
        out,
        (&new, java_utf8_span(&new)),
        (&old, java_utf8_span(&old)),
        message,
        help,
    );
}

/// Java validates when `java_string_check_utf8` is true (outside editions, or when the option
/// is set) or when the Java feature says VERIFY; otherwise the standard feature applies.
fn java_utf8_validation(side: &FieldSide) -> Utf8Validation {
    let standard = side.field().features.utf8_validation.value;
    let file = side.file();
    let is_editions = matches!(file.syntax, Syntax::Editions(_));
    let check_utf8 = file.options.get("java_string_check_utf8");
    if !is_editions || check_utf8.is_some() {
        if check_utf8.and_then(|o| o.value.as_bool()) == Some(true) {
            return Utf8Validation::Verify;
        }
        return standard;
    }
    if side.field().features.java_utf8_validation.value == JavaUtf8Validation::Verify {
        return Utf8Validation::Verify;
    }
    standard
}

fn java_utf8_span(side: &FieldSide) -> Span {
    side.file()
        .options
        .span("java_string_check_utf8")
        .or_else(|| field_feature_span(side, side.field().features.java_utf8_validation.span))
        .unwrap_or(side.span())
}

fn utf8_name(v: Utf8Validation) -> &'static str {
    match v {
        Utf8Validation::Verify => "VERIFY",
        Utf8Validation::None => "NONE",
    }
}

/// FIELD_SAME_UTF8_VALIDATION: string fields keep the `utf8_validation` feature.
pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if old.kind() != FieldType::String || new.kind() != FieldType::String {
        return;
    }
    let (was, now) = (
        old.field().features.utf8_validation.value,
        new.field().features.utf8_validation.value,
    );
    if was == now {
        return;
    }
    let message = format!(
        "{} changed UTF8 validation from {} to {}.",
        new.description(),
        utf8_name(was),
        utf8_name(now)
    );
    let help = format!(
        "restore `features.utf8_validation = {}`: parsers would start {} invalid UTF-8",
        utf8_name(was),
        if now == Utf8Validation::Verify {
            "rejecting"
        } else {
            "accepting"
        }
    );
    let span = |s: &FieldSide| {
        field_feature_span(s, s.field().features.utf8_validation.span).unwrap_or(s.span())
    };
    report(out, (&new, span(&new)), (&old, span(&old)), message, help);
}
