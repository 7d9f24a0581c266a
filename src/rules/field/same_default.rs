//! FIELD_SAME_DEFAULT: singular scalar fields keep their default value (explicit or implied).

use super::{default, report};
use crate::finding::Sink;
use crate::model::FieldType;
use crate::rules::pairs::FieldSides;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if !default::can_have_default(&old) || !default::can_have_default(&new) {
        return;
    }
    let (was, now) = (default::field_default(&old), default::field_default(&new));
    if was.is_zero() && now.is_zero() {
        return;
    }
    if default::defaults_equal(&was.value, &now.value) {
        return;
    }
    let message = format!(
        "{} changed default value from {} to {}.",
        new.description(),
        was.printable,
        now.printable
    );
    let effect = format!(
        "unset fields would read as {} instead of {}",
        now.printable, was.printable
    );
    let help = if let Some(written) = old.field().default_value() {
        let literal = match old.kind() {
            FieldType::String => quote(written),
            FieldType::Bytes => format!("\"{written}\""),
            _ => written.to_string(),
        };
        format!("restore `[default = {literal}]`: {effect}")
    } else if new.field().default_value().is_some() {
        format!("remove the explicit default: {effect}")
    } else {
        format!("keep the previous implied default: {effect}")
    };
    report(
        out,
        (&new, new.option_span("default").unwrap_or(new.span())),
        (&old, old.option_span("default").unwrap_or(old.span())),
        message,
        help,
    );
}
