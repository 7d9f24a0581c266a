//! Option values are type-checked as protoc's `OptionInterpreter::SetOptionValue` checks
//! them: a bool option takes `true` or `false`, a string option a quoted string, an integer
//! option an integer within its type's range, an enum option one of its enum's value names,
//! a message option a message literal. The types of the built-in options (and of the
//! `features.*` fields) are read from the bundled descriptor.proto; a custom option is typed
//! by its extension when that is a scalar (custom enum and message values, and the parts of
//! a name after a custom option, are not checked yet).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::syntax::ast::{self, MessageItem, OptionDecl, TopItem, TypeRef};
use crate::syntax::{FieldType, OptionValue, Span};

/// A field of a descriptor.proto message.
#[derive(Debug)]
struct DescriptorField {
    kind: Kind,
}

/// The type of an option's value.
#[derive(Debug)]
pub(super) enum Kind {
    Scalar(FieldType),
    /// An enum: full name and value names (empty when they are not known: any name passes).
    Enum(String, Vec<String>),
    /// A message: full name (empty when not known).
    Message(String),
}

/// The messages of descriptor.proto by full name, each with its fields by name.
type Table = HashMap<String, HashMap<String, DescriptorField>>;

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The parse every build that imports descriptor.proto shares, not a second one.
        let (_, parsed) = crate::link::wkt::bundled_parsed("google/protobuf/descriptor.proto")
            .expect("descriptor.proto is bundled");
        let mut enums = HashMap::new();
        let mut messages: Vec<(String, Fields)> = Vec::new();
        collect(
            "google.protobuf",
            &mut parsed.ast.items.iter().filter_map(|item| match item {
                TopItem::Message(m) => Some(m),
                _ => None,
            }),
            &mut enums,
            &mut messages,
        );
        for item in &parsed.ast.items {
            if let TopItem::Enum(e) = item {
                enums.insert(format!("google.protobuf.{}", e.name.text), enum_values(e));
            }
        }
        let names: HashSet<String> = messages.iter().map(|(name, _)| name.clone()).collect();
        messages
            .into_iter()
            .map(|(scope, fields)| {
                let typed = fields
                    .into_iter()
                    .map(|(name, ty)| {
                        let kind = kind_of(&ty, &scope, &enums, &names);
                        (name, DescriptorField { kind })
                    })
                    .collect();
                (scope, typed)
            })
            .collect()
    })
}

type Fields = Vec<(String, TypeRef)>;

fn collect(
    scope: &str,
    decls: &mut dyn Iterator<Item = &ast::MessageDecl>,
    enums: &mut HashMap<String, Vec<String>>,
    messages: &mut Vec<(String, Fields)>,
) {
    for decl in decls {
        let name = format!("{scope}.{}", decl.name.text);
        let mut fields = Vec::new();
        for item in &decl.body {
            match item {
                MessageItem::Field(f) => fields.push((f.name.text.to_string(), f.ty.clone())),
                MessageItem::Enum(e) => {
                    enums.insert(format!("{name}.{}", e.name.text), enum_values(e));
                }
                _ => {}
            }
        }
        let mut nested = decl.body.iter().filter_map(|item| match item {
            MessageItem::Message(m) => Some(m),
            _ => None,
        });
        collect(&name, &mut nested, enums, messages);
        messages.push((name, fields));
    }
}

fn enum_values(decl: &ast::EnumDecl) -> Vec<String> {
    decl.body
        .iter()
        .filter_map(|item| match item {
            ast::EnumItem::Value(v) => Some(v.name.text.to_string()),
            _ => None,
        })
        .collect()
}

/// A field's type, its name resolved from the message's scope outwards.
fn kind_of(
    ty: &TypeRef,
    scope: &str,
    enums: &HashMap<String, Vec<String>>,
    messages: &HashSet<String>,
) -> Kind {
    let TypeRef::Named(written) = ty else {
        return match ty {
            TypeRef::Scalar(scalar) => Kind::Scalar(*scalar),
            _ => Kind::Message(String::new()),
        };
    };
    let mut scope = scope;
    loop {
        let full = format!("{scope}.{written}");
        if let Some(values) = enums.get(&full) {
            return Kind::Enum(full, values.clone());
        }
        if messages.contains(&full) {
            return Kind::Message(full);
        }
        match scope.rfind('.') {
            Some(i) if scope[..i].starts_with("google.protobuf") => scope = &scope[..i],
            _ => return Kind::Message(String::new()),
        }
    }
}

/// The problem with the value of a built-in option (`java_package`, `features.enum_type`)
/// set on an element whose options message is `options_message` (`FileOptions`), if any.
/// Names that do not resolve are reported elsewhere; a name with a custom part is skipped.
pub(super) fn builtin_value_problem(
    option: &OptionDecl,
    options_message: &str,
) -> Option<(Span, String)> {
    if option.name.iter().any(|part| part.is_extension) {
        return None;
    }
    let first = option.name.first()?.name.as_str();
    if options_message == "FieldOptions" && matches!(first, "default" | "json_name") {
        return None; // not options: checked with the field
    }
    let mut fields = table().get(&format!("google.protobuf.{options_message}"))?;
    let mut parts = option.name.iter().peekable();
    loop {
        let field = fields.get(parts.next()?.name.as_str())?;
        if parts.peek().is_none() {
            let name = option.canonical_name();
            return value_problem(&field.kind, &option.value, &name)
                .map(|message| (option.value_span, message));
        }
        match &field.kind {
            Kind::Message(next) => fields = table().get(next)?,
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
        Kind::Message(_) => match value {
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
