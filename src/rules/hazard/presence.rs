//! FIELD_PRESENCE_CHANGED and FIELD_IMPLICIT_ZERO: the proto3 zero-default trap. A field with
//! implicit presence never sends its zero value, so "set to zero" and "unset" are one state.

use super::added::{added_fields, zero_value_name};
use crate::diff::Ctx;
use crate::finding::Sink;
use crate::model::{doc_comment, FieldPresence, FieldType, Syntax};
use crate::rules::field::{Cardinality, FieldSide};
use crate::rules::pairs::FieldSides;
use crate::rules::quote::quote;
use crate::rules::Direction;

/// The wrapper messages of `google/protobuf/wrappers.proto` and the scalar each wraps.
const WRAPPERS: &[(&str, &str)] = &[
    ("google.protobuf.DoubleValue", "double"),
    ("google.protobuf.FloatValue", "float"),
    ("google.protobuf.Int64Value", "int64"),
    ("google.protobuf.UInt64Value", "uint64"),
    ("google.protobuf.Int32Value", "int32"),
    ("google.protobuf.UInt32Value", "uint32"),
    ("google.protobuf.BoolValue", "bool"),
    ("google.protobuf.StringValue", "string"),
    ("google.protobuf.BytesValue", "bytes"),
];

/// Explicit (a `has_` state of its own) or implicit presence; None for repeated, map and
/// required fields, which have no presence to change.
pub fn presence(side: &FieldSide) -> Option<bool> {
    match side.cardinality() {
        Cardinality::OptionalExplicit => Some(true),
        Cardinality::OptionalImplicit => Some(false),
        _ => None,
    }
}

/// FIELD_PRESENCE_CHANGED: a singular field moved between explicit and implicit presence.
pub(in crate::rules) fn changed(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (&sides.new, &sides.old);
    let (Some(was), Some(is)) = (presence(old), presence(new)) else {
        return;
    };
    if was == is || !zero_is_data(if is { old } else { new }) {
        return;
    }
    let how = how_it_changed(old, new);
    let zero = zero_of(if is { old } else { new });
    let (message, help, direction) = if was {
        (
            format!(
                "{} changed from explicit to implicit presence ({how}): a value explicitly set \
                 to {zero} is no longer sent; readers cannot tell it from unset.",
                new.description()
            ),
            format!(
                "old readers that test presence (has_{name}(), a nil check) now see \"unset\" \
                 where a writer set {zero}. If {zero} is a real value, keep explicit presence: \
                 `optional`, a wrapper type, or `features.field_presence = EXPLICIT`",
                name = old.field().name
            ),
            Direction::Forward,
        )
    } else {
        (
            format!(
                "{} changed from implicit to explicit presence ({how}): old writers never sent \
                 {zero}, so new readers see \"unset\" where the old data meant {zero}.",
                new.description()
            ),
            format!(
                "new code must treat an unset {name} in old data as {zero}: has_{name}() is \
                 false for messages written before this change",
                name = new.field().name
            ),
            Direction::Backward,
        )
    };
    let finding = out.add(
        Some(new.loc(new.span())),
        Some(old.loc(old.span())),
        message,
    );
    finding.help = Some(help);
    finding.direction = direction;
}

/// What moved the field, in words: `optional` added or removed, a feature, a wrapper or a
/// message type replaced by a scalar.
fn how_it_changed(old: &FieldSide, new: &FieldSide) -> String {
    let message_like = |s: &FieldSide| matches!(s.kind(), FieldType::Message | FieldType::Group);
    match (message_like(old), message_like(new)) {
        (true, false) => {
            return format!("{} replaced by {}", describe_type(old), describe_type(new))
        }
        (false, true) => {
            return format!("{} replaced by {}", describe_type(old), describe_type(new))
        }
        _ => {}
    }
    let in_oneof = |s: &FieldSide| s.field().oneof_index.is_some() && !s.field().proto3_optional;
    match (in_oneof(old), in_oneof(new)) {
        (false, true) => return "moved into a oneof".to_string(),
        (true, false) => return "moved out of a oneof".to_string(),
        _ => {}
    }
    match (old.field().proto3_optional, new.field().proto3_optional) {
        (true, false) => return "`optional` removed".to_string(),
        (false, true) => return "`optional` added".to_string(),
        _ => {}
    }
    let is_editions = |s: &FieldSide| matches!(s.file().syntax, Syntax::Editions(_));
    if is_editions(old) || is_editions(new) {
        let name = |s: &FieldSide| match s.field().features.field_presence.value {
            FieldPresence::Explicit => "EXPLICIT",
            FieldPresence::Implicit => "IMPLICIT",
            FieldPresence::LegacyRequired => "LEGACY_REQUIRED",
        };
        return format!("field_presence {} to {}", name(old), name(new));
    }
    if old.file().syntax != new.file().syntax {
        return "the file's syntax changed".to_string();
    }
    "presence changed".to_string()
}

fn describe_type(side: &FieldSide) -> String {
    match side.kind() {
        FieldType::Message | FieldType::Group => {
            let name = side.type_name();
            match WRAPPERS.iter().find(|(w, _)| *w == name) {
                Some(_) => format!("wrapper {name}"),
                None => format!("message {name}"),
            }
        }
        kind => kind.name().to_string(),
    }
}

/// The zero value of a scalar side, as a reader sees it: `0`, `false`, `""`, empty bytes, or
/// the enum's zero value. For a wrapper or message side, the zero of the scalar it stands for.
fn zero_of(side: &FieldSide) -> String {
    let kind = match side.kind() {
        FieldType::Message | FieldType::Group => {
            let name = side.type_name();
            match WRAPPERS.iter().find(|(w, _)| *w == name) {
                Some((_, scalar)) => FieldType::from_keyword(scalar).unwrap_or(FieldType::Int32),
                None => return "an empty message".to_string(),
            }
        }
        kind => kind,
    };
    match kind {
        FieldType::Bool => "false".to_string(),
        FieldType::String => "\"\"".to_string(),
        FieldType::Bytes => "empty bytes".to_string(),
        FieldType::Enum => match zero_value_name(side) {
            Some(name) => format!("{name} (0)"),
            None => "0".to_string(),
        },
        _ => "0".to_string(),
    }
}

/// Whether the side's zero value can be data that presence would tell from unset. Not for a
/// string or bytes field (an empty string is rarely data), nor for an enum whose zero value
/// is a dedicated `*_UNSPECIFIED` / `*_UNKNOWN` (it says "unset" itself). Wrappers and
/// messages count: replacing them changes what a reader can tell.
fn zero_is_data(side: &FieldSide) -> bool {
    match side.kind() {
        FieldType::String | FieldType::Bytes => false,
        FieldType::Enum => !zero_value_name(side).is_some_and(|n| means_unset(&n)),
        _ => true,
    }
}

/// Whether the field's doc comment says what unset (or zero) means: "If not specified, ...",
/// "Defaults to ...", "must be > 0", "0 means ...". Its author designed the field around
/// implicit presence, so the hint has nothing to add (12 of googleapis' 43 findings on
/// HEAD~500..HEAD were such fields). A range that includes 0 ("in [0, 1]") says nothing
/// of unset and is still reported.
fn says_what_unset_means(side: &FieldSide) -> bool {
    const PHRASES: &[&str] = &[
        "if not specified",
        "if unspecified",
        "if not set",
        "if unset",
        "if absent",
        "if omitted",
        "if not provided",
        "when not specified",
        "when not set",
        "when unset",
        "defaults to",
        "default value is",
        "by default",
        "must be > 0",
        "must be >0",
        "greater than 0",
        "greater than zero",
        "must be positive",
        " 0 means",
        " zero means",
        "`0` means",
        " 0 indicates",
        "`0`, which",
    ];
    let doc = doc_comment(side.at.file, side.field().span).to_lowercase();
    let doc = format!(" {} ", doc.split_whitespace().collect::<Vec<_>>().join(" "));
    PHRASES.iter().any(|p| doc.contains(p))
}

/// `UNSPECIFIED`, `UNKNOWN`, or a name ending in `_UNSPECIFIED` / `_UNKNOWN`.
fn means_unset(name: &str) -> bool {
    ["UNSPECIFIED", "UNKNOWN"]
        .iter()
        .any(|word| name == *word || name.ends_with(&format!("_{word}")))
}

/// FIELD_IMPLICIT_ZERO: a field added to a message, scalar or enum, with implicit presence.
pub(in crate::rules) fn implicit_zero(ctx: &Ctx, out: &mut Sink) {
    for field in added_fields(ctx) {
        if presence(&field) != Some(false) {
            continue;
        }
        let kind = field.kind();
        // A new flag reads false when unset, which is what a flag added later means by
        // design (88 of googleapis' 132 findings on HEAD~500..HEAD were such flags).
        if kind == FieldType::Bool || !zero_is_data(&field) || says_what_unset_means(&field) {
            continue;
        }
        let f = field.field();
        let zero = zero_of(&field);
        let help = if kind == FieldType::Enum {
            format!(
                "give enum {} a dedicated `{}_UNSPECIFIED = 0` value, or declare the field \
                 `optional` so {zero} can be told from unset",
                quote(field.type_name()),
                enum_prefix(field.type_name())
            )
        } else {
            format!(
                "if {zero} is a real value, declare it `optional {} {} = {};` or use a wrapper \
                 type (google.protobuf.{}Value)",
                kind.name(),
                f.name,
                f.number,
                wrapper_stem(kind)
            )
        };
        let finding = out.add(
            Some(field.loc(field.span())),
            None,
            format!(
                "{} was added with implicit presence: its zero value {zero} is never sent, so \
                 readers cannot tell {zero} from unset.",
                field.description()
            ),
        );
        finding.help = Some(help);
    }
}

/// `acme.v1.OrderStatus` → `ORDER_STATUS`.
fn enum_prefix(full_name: &str) -> String {
    let name = full_name.rsplit('.').next().unwrap_or(full_name);
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn wrapper_stem(kind: FieldType) -> &'static str {
    match kind {
        FieldType::Double => "Double",
        FieldType::Float => "Float",
        FieldType::Int64 | FieldType::Sint64 | FieldType::Sfixed64 => "Int64",
        FieldType::Uint64 | FieldType::Fixed64 => "UInt64",
        FieldType::Uint32 | FieldType::Fixed32 => "UInt32",
        FieldType::Bool => "Bool",
        _ => "Int32",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedicated_zero_names_mean_unset() {
        for name in [
            "UNSPECIFIED",
            "UNKNOWN",
            "STATUS_UNSPECIFIED",
            "SEVERITY_UNKNOWN",
        ] {
            assert!(means_unset(name), "{name}");
        }
        for name in ["CHANNEL_WEB", "NONE", "UNSPECIFIED_X", "XUNKNOWN"] {
            assert!(!means_unset(name), "{name}");
        }
    }

    #[test]
    fn enum_prefixes_are_screaming_snake_case() {
        assert_eq!(enum_prefix("acme.v1.OrderStatus"), "ORDER_STATUS");
        assert_eq!(enum_prefix("Color"), "COLOR");
    }
}
