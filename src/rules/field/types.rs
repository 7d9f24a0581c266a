//! FIELD_SAME_TYPE and its wire and wire+JSON variants, which accept the type changes that
//! keep the encoding.

use super::side::FieldSide;
use super::{changed, report, wire};
use crate::finding::Sink;
use crate::model::FieldType;
use crate::rules::pairs::FieldSides;

/// FIELD_SAME_TYPE: a field keeps its type.
pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if old.kind() != new.kind() {
        report_changed_kind(out, &new, &old, None, wire::wire_group, "");
        return;
    }
    if new.field().ty.is_named() && old.type_name() != new.type_name() {
        report_changed_type_name(out, &new, &old);
    }
}

const WIRE_RULES_NOTE: &str =
    "See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules.";

/// FIELD_WIRE_COMPATIBLE_TYPE: a field's type changes only to a wire-compatible one.
pub(in crate::rules) fn wire_compatible(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    let (was, now) = (old.kind(), new.kind());
    if wire::wire_group(was) != wire::wire_group(now) {
        let extra = match (was, now) {
            // Every valid string is valid bytes.
            (FieldType::String, FieldType::Bytes) => return,
            (FieldType::Bytes, FieldType::String) => format!(
                "{WIRE_RULES_NOTE} Note that while string and bytes are compatible if the \
                 data is valid UTF-8, there is no way to enforce that a bytes field is \
                 UTF-8, so these fields may be incompatible."
            ),
            _ => WIRE_RULES_NOTE.to_string(),
        };
        report_changed_kind(out, &new, &old, Some(&extra), wire::wire_group, "wire-");
        return;
    }
    match new.field().ty {
        FieldType::Enum if old.type_name() != new.type_name() => {
            check_enum_wire_compatible(out, &new, &old)
        }
        FieldType::Message | FieldType::Group if old.type_name() != new.type_name() => {
            report_changed_type_name(out, &new, &old)
        }
        _ => {}
    }
}

/// FIELD_WIRE_JSON_COMPATIBLE_TYPE: a field's type changes only to one compatible on the wire
/// and in JSON.
pub(in crate::rules) fn wire_json_compatible(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    let (was, now) = (old.kind(), new.kind());
    if wire::wire_json_group(was) != wire::wire_json_group(now) {
        let extra = "See https://developers.google.com/protocol-buffers/docs/proto3#updating \
                     for wire compatibility rules and \
                     https://developers.google.com/protocol-buffers/docs/proto3#json for \
                     JSON compatibility rules.";
        report_changed_kind(
            out,
            &new,
            &old,
            Some(extra),
            wire::wire_json_group,
            "wire- and JSON-",
        );
        return;
    }
    match now {
        FieldType::Enum if old.type_name() != new.type_name() => {
            check_enum_wire_compatible(out, &new, &old)
        }
        FieldType::Message | FieldType::Group if old.type_name() != new.type_name() => {
            report_changed_type_name(out, &new, &old)
        }
        _ => {}
    }
}

/// Another enum is acceptable when it has the same short name and keeps every old value (by
/// name and number): buf treats that as the same enum moved, possibly with values added.
fn check_enum_wire_compatible(out: &mut Sink, new: &FieldSide, old: &FieldSide) {
    let compatible = match (old.enum_type(), new.enum_type()) {
        (Some(was), Some(now)) => {
            was.name == now.name
                && was.values.iter().all(|old_value| {
                    now.values
                        .iter()
                        .find(|v| v.name == old_value.name)
                        .is_some_and(|v| v.number == old_value.number)
                })
        }
        _ => false,
    };
    if !compatible {
        report_changed_type_name(out, new, old);
    }
}

/// A change of kind (`int32` -> `string`, message -> delimited message...), pointing at the
/// types.
fn report_changed_kind(
    out: &mut Sink,
    new: &FieldSide,
    old: &FieldSide,
    extra: Option<&str>,
    group: fn(FieldType) -> u8,
    compat_word: &str,
) {
    let mut message = changed(new, "type", old.kind_display(), new.kind_display());
    if let Some(extra) = extra.map(str::trim).filter(|e| !e.is_empty()) {
        message.push(' ');
        message.push_str(extra);
    }
    let mut help = format!(
        "keep the type `{}`; to store another type add a new field with a new number and \
         reserve this one",
        old_type_as_written(old)
    );
    if compat_word.is_empty() {
        let note = same_type_compatibility_note(old.kind(), new.kind());
        help.push_str(note);
        // A wire-incompatible change: name the types that would have kept the encoding.
        let alternatives = wire::compatible_alternatives(old.kind(), group);
        if note.is_empty() && !alternatives.is_empty() {
            help.push_str(&format!(
                "; the encodings differ, so readers built from the old schema misread or drop \
                 the values. {} share the wire encoding of `{}`, if only binary clients matter \
                 (WIRE category)",
                join_code(&alternatives),
                old.kind().name()
            ));
        }
    }
    let alternatives = wire::compatible_alternatives(old.kind(), group);
    if !alternatives.is_empty() && !compat_word.is_empty() {
        help.push_str(&format!(
            "; {} are {compat_word}compatible with `{}`",
            join_code(&alternatives),
            old.kind().name()
        ));
    }
    report(
        out,
        (new, new.type_span()),
        (old, old.type_span()),
        message,
        help,
    );
}

/// For FIELD_SAME_TYPE, says when the change is only a source-level break.
fn same_type_compatibility_note(was: FieldType, now: FieldType) -> &'static str {
    if wire::wire_json_group(was) == wire::wire_json_group(now) {
        " (this change keeps the wire and JSON formats, but generated code changes)"
    } else if wire::wire_group(was) == wire::wire_group(now) {
        " (this change keeps the wire format, but JSON and generated code change)"
    } else {
        ""
    }
}

/// A change of the message or enum a field refers to.
fn report_changed_type_name(out: &mut Sink, new: &FieldSide, old: &FieldSide) {
    let message = changed(new, "type", old.type_name(), new.type_name());
    let help = format!(
        "keep the type `{}`; to refer to another type add a new field with a new number and \
         reserve this one",
        old.type_name()
    );
    report(
        out,
        (new, new.type_span()),
        (old, old.type_span()),
        message,
        help,
    );
}

fn old_type_as_written(old: &FieldSide) -> String {
    if old.field().ty.is_named() {
        old.type_name().to_string()
    } else {
        old.kind().name().to_string()
    }
}

fn join_code(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}
