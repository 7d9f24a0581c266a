//! An option's value typed by the field it sets (`model::TypedValue`), once its name and
//! value are checked: numbers by their declared type, an enum value by number (with its
//! name), a message literal as a tree of fields by full name. Anything not fully known here
//! (an `Any` expansion, an enum number no value has) gives no typed value, and comparisons
//! fall back to the text.

use std::collections::BTreeMap;

use super::message_literals::Literals;
use crate::model::{Field, FieldType, Message, OptionValue, TypedValue};
use crate::syntax::literal::{LiteralName, LiteralValue, MessageLiteral};

/// The value of an option that sets `field` (`literal`: a message literal value parsed).
pub(super) fn option_value<'a>(
    value: &OptionValue,
    literal: Option<&MessageLiteral>,
    field: &'a Field,
    literals: &Literals<'a>,
) -> Option<TypedValue> {
    match value {
        OptionValue::Aggregate(_) => {
            let message = literals.types.message_of(field)?;
            message_value(message, literal?, literals)
        }
        scalar => scalar_value(field, scalar, literals),
    }
}

fn message_value<'a>(
    message: &'a Message,
    literal: &MessageLiteral,
    literals: &Literals<'a>,
) -> Option<TypedValue> {
    let mut fields: BTreeMap<String, Vec<TypedValue>> = BTreeMap::new();
    for entry in &literal.fields {
        if matches!(entry.name, LiteralName::Any { .. }) {
            return None; // an `Any` expansion: compared as written
        }
        let field = literals.field(message, entry).ok()?;
        let values = fields.entry(field.full_name.clone()).or_default();
        match &entry.value {
            LiteralValue::List(list, _) => {
                for value in list {
                    values.push(literal_value(field, value, literals)?);
                }
            }
            value => values.push(literal_value(field, value, literals)?),
        }
    }
    // A map of a few entries in the model would cost a whole B-tree node (about 600 bytes)
    // each; the same entries in key order, in a vector of their size, compare alike.
    let fields = fields
        .into_iter()
        .map(|(name, mut values)| {
            values.shrink_to_fit();
            (name, values)
        })
        .collect();
    Some(TypedValue::Message(fields))
}

fn literal_value<'a>(
    field: &'a Field,
    value: &LiteralValue,
    literals: &Literals<'a>,
) -> Option<TypedValue> {
    match value {
        LiteralValue::Message(literal) => {
            message_value(literals.types.message_of(field)?, literal, literals)
        }
        LiteralValue::Scalar(scalar, _) => scalar_value(field, scalar, literals),
        LiteralValue::BigInt(f, _) => float(field.ty, *f),
        LiteralValue::List(..) => None,
    }
}

/// A scalar or enum value (the spellings the text format accepts in a literal; an option's
/// own value was checked to be one of the stricter ones before).
fn scalar_value(field: &Field, value: &OptionValue, literals: &Literals) -> Option<TypedValue> {
    use FieldType::*;
    match (field.ty, value) {
        (Bool, OptionValue::Ident(v)) => match v.as_str() {
            "true" | "True" | "t" => Some(TypedValue::Bool(true)),
            "false" | "False" | "f" => Some(TypedValue::Bool(false)),
            _ => None,
        },
        (Bool, OptionValue::Int(n @ (0 | 1))) => Some(TypedValue::Bool(*n == 1)),
        (Float | Double, OptionValue::Int(n)) => float(field.ty, *n as f64),
        (Float | Double, OptionValue::Float(f)) => float(field.ty, *f),
        (Float | Double, OptionValue::Ident(v)) => match v.to_ascii_lowercase().as_str() {
            "inf" | "infinity" => float(field.ty, f64::INFINITY),
            "nan" => float(field.ty, f64::NAN),
            _ => None,
        },
        (String | Bytes, OptionValue::String(bytes)) => Some(TypedValue::Bytes(bytes.clone())),
        (Enum, written) => {
            let value = literals.types.enum_value(field, written)?;
            Some(TypedValue::Enum {
                number: value.number,
                name: value.name.clone(),
            })
        }
        (Message | Group, _) => None,
        (_, OptionValue::Int(n)) => Some(TypedValue::Int(*n)),
        _ => None,
    }
}

/// A `float` is stored as an `f32`: `0.1` and `0.10000000149` are one value there.
fn float(ty: FieldType, value: f64) -> Option<TypedValue> {
    match ty {
        FieldType::Float => Some(TypedValue::Float(f64::from(value as f32))),
        FieldType::Double => Some(TypedValue::Float(value)),
        _ => None,
    }
}
