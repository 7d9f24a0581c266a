//! FIELD_SAME_JSTYPE: 64-bit integer fields keep their `jstype`.

use super::{changed, report};
use crate::finding::Sink;
use crate::model::{Field, FieldType, OptionValue};
use crate::rules::pairs::FieldSides;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if !is_64bit_integer(old.field().ty) || !is_64bit_integer(new.field().ty) {
        return;
    }
    let (was, now) = (jstype(old.field()), jstype(new.field()));
    if was == now {
        return;
    }
    let message = changed(&new, "option \"jstype\"", &was, &now);
    let help = if was == "JS_NORMAL" {
        "remove the `jstype` option: JavaScript code reads this field as a different type"
            .to_string()
    } else {
        format!("restore `[jstype = {was}]`: JavaScript code reads this field as a different type")
    };
    report(
        out,
        (&new, new.option_span("jstype").unwrap_or(new.span())),
        (&old, old.option_span("jstype").unwrap_or(old.span())),
        message,
        help,
    );
}

fn is_64bit_integer(ty: FieldType) -> bool {
    matches!(
        ty,
        FieldType::Int64
            | FieldType::Sint64
            | FieldType::Uint64
            | FieldType::Fixed64
            | FieldType::Sfixed64
    )
}

fn jstype(field: &Field) -> String {
    match field.options.value("jstype") {
        Some(OptionValue::Ident(name)) => name.clone(),
        Some(OptionValue::Int(1)) => "JS_STRING".into(),
        Some(OptionValue::Int(2)) => "JS_NUMBER".into(),
        _ => "JS_NORMAL".into(),
    }
}
