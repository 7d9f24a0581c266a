//! Message literals (`option (f) = { a: 1 b: [1, 2] c < d: 1 > }`) type-checked against the
//! option's message type, as protoc's text-format parser reads them while interpreting the
//! option (its errors start `Error while parsing option value for "f": ...`).

use std::cell::RefCell;
use std::collections::HashMap;

use super::custom_options::{Set, Types};
use crate::link::resolve::Resolver;
use crate::link::symbols::SymKind;
use crate::model::{EnumType, EnumValue, Field, FieldType, Label, Message, OptionValue, Span};
use crate::syntax::literal::{LiteralField, LiteralName, LiteralValue, MessageLiteral};

type Errors = Vec<(Span, String)>;

/// The domains protoc expands an Any from (`[type.googleapis.com/pkg.Msg] { ... }`).
const ANY_DOMAINS: &[&str] = &["type.googleapis.com", "type.googleprod.com"];

/// The key under which an Any literal records its expanded value in a [`Set`].
const ANY_VALUE: &str = "[any]";

pub(super) struct Literals<'a> {
    pub resolver: &'a Resolver<'a>,
    pub types: &'a Types<'a>,
    /// Every field the literals checked so far set, and every enum value they name: the
    /// lifetimes of features are checked on them (`feature_lifetimes`).
    pub set: RefCell<Vec<SetField<'a>>>,
}

/// A field a literal sets (`enum_value` empty, `span` its name), or an enum value it sets
/// a field to (`span` the value).
pub(super) struct SetField<'a> {
    pub field: &'a Field,
    pub enum_value: Option<&'a EnumValue>,
    pub span: Span,
}

impl<'a> Literals<'a> {
    /// Checks every field of `literal` against `message`, recording what it sets in `set`.
    pub(super) fn message(
        &self,
        message: &'a Message,
        literal: &MessageLiteral,
        set: &mut Set,
        errors: &mut Errors,
    ) {
        // The oneof members this literal sets: index -> name.
        let mut oneofs: HashMap<usize, &str> = HashMap::new();
        for entry in &literal.fields {
            if let LiteralName::Any { domain, type_name } = &entry.name {
                self.any(message, entry, domain, type_name, set, errors);
                continue;
            }
            let field = match self.field(message, entry) {
                Ok(field) => field,
                Err(error) => {
                    errors.push(error);
                    continue;
                }
            };
            if let Some(error) = oneof_conflict(message, field, entry, &mut oneofs) {
                errors.push(error);
            }
            self.entry(field, entry, set, errors);
        }
    }

    /// The field an entry names. protoc: `Message type "Opt" has no field named "b".` and
    /// `Extension "c.i" is not defined or is not an extension of "foo.bar.a".`
    pub(super) fn field(
        &self,
        message: &'a Message,
        entry: &LiteralField,
    ) -> Result<&'a Field, (Span, String)> {
        let found = match &entry.name {
            LiteralName::Field(name) => field_named(message, name),
            LiteralName::Extension(name) => self.extension(message, name),
            LiteralName::Any { .. } => None,
        };
        found.ok_or_else(|| {
            let message_name = &message.full_name;
            let text = match &entry.name {
                LiteralName::Field(name) => {
                    format!("message literal: `{message_name}` has no field named `{name}`")
                }
                LiteralName::Extension(name) => format!(
                    "message literal: `[{name}]` is not an extension of `{message_name}` visible here"
                ),
                LiteralName::Any { .. } => unreachable!("handled by the caller"),
            };
            (entry.name_span, text)
        })
    }

    /// An extension named in brackets, looked up as protoc looks it up: from the scope the
    /// literal's message is declared in.
    fn extension(&self, message: &Message, name: &str) -> Option<&'a Field> {
        let scope = message
            .full_name
            .rfind('.')
            .map_or("", |i| &message.full_name[..i]);
        let (full, sym) = self.resolver.resolve_any(name, scope)?;
        if sym.kind != SymKind::Field {
            return None;
        }
        let extension = self.types.extension(&full)?;
        let extends = extension.extendee() == Some(message.full_name.as_str());
        extends.then_some(extension)
    }

    /// One `name: value` entry of a known field.
    fn entry(&self, field: &'a Field, entry: &LiteralField, set: &mut Set, errors: &mut Errors) {
        self.set.borrow_mut().push(SetField {
            field,
            enum_value: None,
            span: entry.name_span,
        });
        let repeated = field.label == Label::Repeated;
        let is_message = matches!(field.ty, FieldType::Message | FieldType::Group);
        if !entry.colon && !is_message {
            // protoc: `Expected ":", found "["`.
            errors.push((
                entry.value.span(),
                format!(
                    "message literal: field `{}` is a {}: write `{}: value`",
                    field.name,
                    field.ty.name(),
                    field.name
                ),
            ));
            return;
        }
        if !repeated {
            // protoc: `Non-repeated field "a" is specified multiple times.`
            if set.fields.contains_key(&field.full_name) {
                errors.push((
                    entry.name_span,
                    format!(
                        "message literal: field `{}` is not repeated and is set more than once",
                        field.name
                    ),
                ));
                return;
            }
        }
        match &entry.value {
            LiteralValue::List(values, span) if !repeated => errors.push((
                *span,
                format!(
                    "message literal: field `{}` is not repeated: it takes one value, not a list",
                    field.name
                ),
            )),
            LiteralValue::List(values, _) => {
                for value in values {
                    self.value(field, value, &mut Set::default(), errors);
                }
            }
            value if repeated => self.value(field, value, &mut Set::default(), errors),
            value => {
                let node = set.fields.entry(field.full_name.clone()).or_default();
                self.value(field, value, node, errors);
            }
        }
        if repeated {
            set.fields.entry(field.full_name.clone()).or_default();
        }
    }

    /// One value of a field: a message literal for a message, else a scalar of its type.
    fn value(&self, field: &'a Field, value: &LiteralValue, node: &mut Set, errors: &mut Errors) {
        if matches!(field.ty, FieldType::Message | FieldType::Group) {
            let LiteralValue::Message(literal) = value else {
                // protoc: `Expected "{", found "123".`
                errors.push((
                    value.span(),
                    format!(
                        "message literal: field `{}` is a message: its value is written `{{ ... }}`",
                        field.name
                    ),
                ));
                return;
            };
            if let Some(message) = self.types.message_of(field) {
                self.message(message, literal, node, errors);
                if field.label == Label::Repeated {
                    errors.extend(missing_required(message, node, literal.span, self.types));
                }
            }
            return;
        }
        match self.scalar_problem(field, value) {
            Some(problem) => errors.push((value.span(), problem)),
            None => {
                let enum_value = match value {
                    LiteralValue::Scalar(written, _) => self.types.enum_value(field, written),
                    _ => None,
                };
                if let Some(enum_value) = enum_value {
                    self.set.borrow_mut().push(SetField {
                        field,
                        enum_value: Some(enum_value),
                        span: value.span(),
                    });
                }
            }
        }
    }

    /// A scalar or enum value as the text format reads it (unlike an option's value, `t`,
    /// `1` and an enum number are accepted).
    fn scalar_problem(&self, field: &Field, value: &LiteralValue) -> Option<String> {
        use FieldType::*;
        let name = &field.name;
        let scalar = match value {
            LiteralValue::Scalar(v, _) => Some(v),
            LiteralValue::BigInt(..) => None,
            LiteralValue::Message(_) | LiteralValue::List(..) => {
                return Some(format!(
                    "message literal: field `{name}` is a {}: its value is not a message",
                    field.ty.name()
                ))
            }
        };
        let range: Option<(i128, i128)> = match field.ty {
            Int32 | Sint32 | Sfixed32 | Enum => Some((i32::MIN.into(), i32::MAX.into())),
            Int64 | Sint64 | Sfixed64 => Some((i64::MIN.into(), i64::MAX.into())),
            Uint32 | Fixed32 => Some((0, u32::MAX.into())),
            Uint64 | Fixed64 => Some((0, u64::MAX.into())),
            _ => None,
        };
        let type_name = field.ty.name();
        match (field.ty, scalar) {
            (Enum, Some(OptionValue::Ident(v))) => self.enum_value_problem(field, v),
            (_, Some(OptionValue::Int(n))) if range.is_some() => {
                let (min, max) = range.unwrap_or_default();
                if !(min..=max).contains(n) {
                    // protoc: `Integer out of range (2147483648)`.
                    return Some(format!(
                        "message literal: field `{name}`: {n} is out of range for {type_name} ({min} to {max})"
                    ));
                }
                if field.ty == Enum {
                    return self.enum_number_problem(field, *n);
                }
                None
            }
            (Enum, _) => Some(format!(
                "message literal: field `{name}` is an enum: its value must be a value name or number"
            )),
            (_, _) if range.is_some() => Some(format!(
                "message literal: field `{name}` is an {type_name}: its value must be an integer"
            )),
            (Bool, Some(OptionValue::Ident(v)))
                if matches!(v.as_str(), "true" | "false" | "True" | "False" | "t" | "f") =>
            {
                None
            }
            (Bool, Some(OptionValue::Int(0 | 1))) => None,
            (Bool, _) => Some(format!(
                "message literal: field `{name}` is a bool: its value must be `true` or `false`"
            )),
            (String | Bytes, Some(OptionValue::String(_))) => None,
            (String | Bytes, _) => Some(format!(
                "message literal: field `{name}` is a {type_name}: its value must be a quoted string"
            )),
            (Float | Double, None | Some(OptionValue::Int(_) | OptionValue::Float(_))) => None,
            (Float | Double, Some(OptionValue::Ident(v)))
                if matches!(v.to_ascii_lowercase().as_str(), "inf" | "infinity" | "nan") =>
            {
                None
            }
            // protoc: `Expected double, got: +`.
            (Float | Double, _) => Some(format!(
                "message literal: field `{name}` is a {type_name}: its value must be a number"
            )),
            _ => None,
        }
    }

    /// protoc: `Unknown enumeration value of "X" for field "f".`
    fn enum_value_problem(&self, field: &Field, value: &str) -> Option<String> {
        let full = field.type_name.as_deref()?;
        let enumeration = self.types.enumeration(full)?;
        if enumeration.values.iter().any(|v| v.name == value) {
            return None;
        }
        Some(format!(
            "message literal: field `{}`: enum `{full}` has no value named `{value}`",
            field.name
        ))
    }

    /// A closed enum takes only the numbers of its values (protoc: `Unknown enumeration value
    /// of "5" for field "f".`); an open one any int32.
    fn enum_number_problem(&self, field: &Field, number: i128) -> Option<String> {
        let full = field.type_name.as_deref()?;
        let enumeration = self.types.enumeration(full)?;
        let closed = enumeration.features.enum_type.value == EnumType::Closed;
        if !closed
            || enumeration
                .values
                .iter()
                .any(|v| i128::from(v.number) == number)
        {
            return None;
        }
        Some(format!(
            "message literal: field `{}`: closed enum `{full}` has no value numbered {number}",
            field.name
        ))
    }

    /// `[type.googleapis.com/pkg.Msg] { ... }` in a `google.protobuf.Any`. protoc: `Could not
    /// find type "x/y" stored in google.protobuf.Any.`, `Non-repeated Any specified multiple
    /// times.`, and (outside an Any) an unknown extension name containing `/`.
    fn any(
        &self,
        message: &'a Message,
        entry: &LiteralField,
        domain: &str,
        type_name: &str,
        set: &mut Set,
        errors: &mut Errors,
    ) {
        let url = format!("{domain}/{type_name}");
        if message.full_name != "google.protobuf.Any" {
            errors.push((
                entry.name_span,
                format!(
                    "message literal: `[{url}]` expands a google.protobuf.Any, but this is a `{}`",
                    message.full_name
                ),
            ));
            return;
        }
        let stored = ANY_DOMAINS
            .contains(&domain)
            .then(|| self.resolver.resolve_any(&format!(".{type_name}"), ""))
            .flatten()
            .filter(|(_, sym)| sym.kind == SymKind::Message)
            .and_then(|(full, _)| self.types.message(&full));
        let Some(stored) = stored else {
            errors.push((
                entry.name_span,
                format!(
                    "message literal: no message type `{url}` can be stored in this google.protobuf.Any (the domain must be {}, the type fully qualified and visible)",
                    ANY_DOMAINS.join(" or ")
                ),
            ));
            return;
        };
        if set.fields.contains_key(ANY_VALUE) {
            errors.push((
                entry.name_span,
                "message literal: a google.protobuf.Any holds one message: it is expanded more than once".into(),
            ));
            return;
        }
        let node = set.fields.entry(ANY_VALUE.to_string()).or_default();
        match &entry.value {
            LiteralValue::Message(literal) => {
                self.message(stored, literal, node, errors);
                errors.extend(missing_required(stored, node, literal.span, self.types));
            }
            other => errors.push((
                other.span(),
                format!(
                    "message literal: `[{url}]` is a message: its value is written `{{ ... }}`"
                ),
            )),
        }
    }
}

/// A field by the name a literal writes: its own name, or for a group-like field its type's
/// name (`Bar { ... }` for `group Bar`), as protoc's text format finds them.
fn field_named<'m>(message: &'m Message, name: &str) -> Option<&'m Field> {
    message.fields.iter().find(|f| f.name == name).or_else(|| {
        let lower = name.to_ascii_lowercase();
        message
            .fields
            .iter()
            .find(|f| f.name == lower && is_group_like(f))
    })
}

/// A group, or in editions a delimited field that reads like one: its type is declared
/// beside it and named as the field, capitalized (protobuf's `IsGroupLike`).
fn is_group_like(field: &Field) -> bool {
    if field.ty != FieldType::Group {
        return false;
    }
    let Some(type_name) = field.type_name.as_deref() else {
        return false;
    };
    let parent = |full: &str| full.rfind('.').map(|i| full[..i].to_string());
    type_simple_name(field).is_some_and(|simple| simple.to_ascii_lowercase() == field.name)
        && parent(type_name) == parent(&field.full_name)
}

fn type_simple_name(field: &Field) -> Option<&str> {
    let full = field.type_name.as_deref()?;
    Some(full.rsplit('.').next().unwrap_or(full))
}

/// protoc: `Field "buzz" is specified along with field "baz", another member of oneof
/// "bar".`
fn oneof_conflict<'e>(
    message: &Message,
    field: &'e Field,
    entry: &LiteralField,
    oneofs: &mut HashMap<usize, &'e str>,
) -> Option<(Span, String)> {
    let index = field.oneof_index? as usize;
    let oneof = message.oneofs.get(index)?;
    if oneof.synthetic {
        return None;
    }
    match oneofs.get(&index) {
        Some(other) if *other != field.name => Some((
            entry.name_span,
            format!(
                "message literal: field `{}` and field `{other}` are both members of oneof `{}`: only one may be set",
                field.name, oneof.name
            ),
        )),
        Some(_) => None,
        None => {
            oneofs.insert(index, &field.name);
            None
        }
    }
}

/// The required fields of `message` that `set` leaves unset, and so on inside the messages
/// it sets. buf: `required field foo.b not set`; protoc: `Message missing required fields:
/// b`.
pub(super) fn missing_required(message: &Message, set: &Set, span: Span, types: &Types) -> Errors {
    let mut errors = Vec::new();
    for field in &message.fields {
        match set.fields.get(&field.full_name) {
            None if field.label == Label::Required => errors.push((
                span,
                format!(
                    "required field `{}` of `{}` is not set",
                    field.name, message.full_name
                ),
            )),
            Some(node) if field.label != Label::Repeated => {
                if let Some(inner) = types.message_of(field) {
                    errors.extend(missing_required(inner, node, span, types));
                }
            }
            _ => {}
        }
    }
    errors
}
