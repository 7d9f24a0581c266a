//! Rules about field elements (buf's FIELD_* breaking rules).
//!
//! Fields are paired as buf pairs them (`Ctx::field_pairs`: message fields by number inside
//! messages matched by full name, then extensions by extendee and number). Each finding points
//! at the new side where buf does, with the old side as `previous`, and buf's message wording.

mod default;
mod side;
mod text;
mod wire;

#[cfg(test)]
mod tests;

use std::collections::HashSet;

use super::util::Reservations;
use crate::compare::{Ctx, FieldIn, Sink};
use crate::model::{
    CppStringType, Field, FieldType, File, JavaUtf8Validation, Message, OptionValue, Span, Syntax,
    Utf8Validation,
};

use super::util::quote;
use side::{message_span, Cardinality, FieldSide};

/// Both sides of every field pair, new first.
fn field_sides<'c, 'a>(ctx: &'c Ctx<'a>) -> Vec<(FieldSide<'c, 'a>, FieldSide<'c, 'a>)> {
    ctx.field_pairs()
        .iter()
        .map(|pair| {
            (
                FieldSide::new(pair.new, &ctx.new_index),
                FieldSide::new(pair.old, &ctx.old_index),
            )
        })
        .collect()
}

/// Adds a finding at `new_span` of the new side, with `old_span` of the old side as previous.
fn report(
    out: &mut Sink,
    (new, new_span): (&FieldSide, Span),
    (old, old_span): (&FieldSide, Span),
    message: String,
    help: String,
) {
    let finding = out.add(Some(new.loc(new_span)), Some(old.loc(old_span)), message);
    finding.help = Some(help);
}

/// buf's "<field> changed <what> from <was> to <now>." with both values Go-quoted.
fn changed(new: &FieldSide, what: &str, was: &str, now: &str) -> String {
    format!(
        "{} changed {what} from {} to {}.",
        new.description(),
        quote(was),
        quote(now)
    )
}

// ---------------------------------------------------------------------------------------------
// Deletion

/// FIELD_NO_DELETE: a message keeps every field it had.
pub fn field_no_delete(ctx: &Ctx, out: &mut Sink) {
    check_deleted_fields(ctx, out, Allowance::None);
}

/// FIELD_NO_DELETE_UNLESS_NAME_RESERVED: a field may go only if its name is reserved.
pub fn field_no_delete_unless_name_reserved(ctx: &Ctx, out: &mut Sink) {
    check_deleted_fields(ctx, out, Allowance::NameReserved);
}

/// FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED: a field may go only if its number is reserved.
pub fn field_no_delete_unless_number_reserved(ctx: &Ctx, out: &mut Sink) {
    check_deleted_fields(ctx, out, Allowance::NumberReserved);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowance {
    None,
    NameReserved,
    NumberReserved,
}

fn check_deleted_fields(ctx: &Ctx, out: &mut Sink, allowance: Allowance) {
    for pair in ctx.message_pairs() {
        let (new_msg, old_msg) = (pair.new.item, pair.old.item);
        let kept: HashSet<i64> = new_msg.fields.iter().map(|f| f.number).collect();
        let reserved = Reservations::of_message(new_msg);
        for old_field in &old_msg.fields {
            if kept.contains(&old_field.number) {
                continue;
            }
            let allowed = match allowance {
                Allowance::None => false,
                Allowance::NameReserved => reserved.name(&old_field.name),
                Allowance::NumberReserved => reserved.number(old_field.number),
            };
            if allowed {
                continue;
            }
            let old_side = FieldSide::new(
                FieldIn {
                    file: pair.old.file,
                    message: Some(old_msg),
                    field: old_field,
                },
                &ctx.old_index,
            );
            let suffix = match allowance {
                Allowance::None => String::new(),
                Allowance::NameReserved => {
                    format!(" without reserving the name {}", quote(&old_field.name))
                }
                Allowance::NumberReserved => format!(
                    " without reserving the number {}",
                    quote(&old_field.number.to_string())
                ),
            };
            let message = format!(
                "Previously present {} was deleted{suffix}.",
                lower_first(&old_side.description())
            );
            let new_loc = crate::compare::Location::in_file(
                pair.new.file,
                Some(message_span(&ctx.new_index, new_msg)),
            );
            let old_loc = crate::compare::Location::in_file(
                pair.old.file,
                Some(message_span(&ctx.old_index, old_msg)),
            );
            let help = deletion_help(pair.new.file, new_msg, old_field, allowance);
            let finding = out.add(Some(new_loc), Some(old_loc), message);
            finding.help = Some(help);
            finding.focus = Some(old_field.span);
        }
    }
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The `reserved` statements that would make the deletion safe, in the file's syntax
/// (editions write reserved names as identifiers).
fn deletion_help(file: &File, message: &Message, field: &Field, allowance: Allowance) -> String {
    let number = format!("reserved {};", field.number);
    let name = match file.syntax {
        Syntax::Editions(_) => format!("reserved {};", field.name),
        _ => format!("reserved \"{}\";", field.name),
    };
    let within = format!("in message `{}`", message.name);
    match allowance {
        Allowance::None => format!(
            "restore the field, or if it is really gone reserve its number and name {within} \
             so they are never reused: `{number} {name}` (old readers would decode a future \
             field that reuses number {} as `{}`)",
            field.number, field.name
        ),
        Allowance::NameReserved => format!(
            "reserve the name {within}: `{name}`; reserving the number too (`{number}`) keeps \
             it from being reused with another type"
        ),
        Allowance::NumberReserved => format!(
            "reserve the number {within}: `{number}`, so it is never reused with another type; \
             reserve the name too (`{name}`) to keep JSON and text formats safe"
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Cardinality

/// FIELD_SAME_CARDINALITY: a field keeps its cardinality (label and presence).
pub fn field_same_cardinality(ctx: &Ctx, out: &mut Sink) {
    check_cardinality(ctx, out, |a, b| a == b);
}

/// FIELD_WIRE_COMPATIBLE_CARDINALITY: cardinality changes only within wire-compatible groups.
pub fn field_wire_compatible_cardinality(ctx: &Ctx, out: &mut Sink) {
    check_cardinality(ctx, out, |a, b| {
        wire::cardinality_wire_group(a) == wire::cardinality_wire_group(b)
    });
}

/// FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY: as above, also keeping the JSON shape.
pub fn field_wire_json_compatible_cardinality(ctx: &Ctx, out: &mut Sink) {
    check_cardinality(ctx, out, |a, b| {
        wire::cardinality_wire_json_group(a) == wire::cardinality_wire_json_group(b)
    });
}

fn check_cardinality(ctx: &Ctx, out: &mut Sink, compatible: fn(Cardinality, Cardinality) -> bool) {
    for (new, old) in field_sides(ctx) {
        // Map entry fields are generated; their apparent presence means nothing.
        if new.in_map_entry() && old.in_map_entry() {
            continue;
        }
        let (was, now) = (old.cardinality(), new.cardinality());
        if compatible(was, now) {
            continue;
        }
        let message = changed(&new, "cardinality", was.name(), now.name());
        report(
            out,
            (&new, new.span()),
            (&old, old.span()),
            message,
            cardinality_help(&new, was),
        );
    }
}

fn cardinality_help(new: &FieldSide, was: Cardinality) -> String {
    let name = new.field().name.as_str();
    let keep = match was {
        Cardinality::OptionalImplicit => format!(
            "keep `{name}` with implicit presence (a zero value such as 0, \"\" or false is not \
             sent, so adding presence changes what readers see for zero values)"
        ),
        Cardinality::OptionalExplicit => format!(
            "keep `{name}` with explicit presence (without it a zero value is not sent and \
             reads as unset)"
        ),
        Cardinality::Required => format!("keep `{name}` required"),
        Cardinality::Repeated => format!("keep `{name}` repeated"),
        Cardinality::Map => format!("keep `{name}` a map"),
    };
    format!(
        "{keep}; for a different cardinality add a new field with a new number and reserve \
         this one"
    )
}

// ---------------------------------------------------------------------------------------------
// Types

/// FIELD_SAME_TYPE: a field keeps its type.
pub fn field_same_type(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if old.kind() != new.kind() {
            report_changed_kind(out, &new, &old, None, wire::wire_group, "");
            continue;
        }
        if new.field().ty.is_named() && old.type_name() != new.type_name() {
            report_changed_type_name(out, &new, &old);
        }
    }
}

const WIRE_RULES_NOTE: &str =
    "See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules.";

/// FIELD_WIRE_COMPATIBLE_TYPE: a field's type changes only to a wire-compatible one.
pub fn field_wire_compatible_type(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        let (was, now) = (old.kind(), new.kind());
        if wire::wire_group(was) != wire::wire_group(now) {
            let extra = match (was, now) {
                // Every valid string is valid bytes.
                (FieldType::String, FieldType::Bytes) => continue,
                (FieldType::Bytes, FieldType::String) => format!(
                    "{WIRE_RULES_NOTE} Note that while string and bytes are compatible if the \
                     data is valid UTF-8, there is no way to enforce that a bytes field is \
                     UTF-8, so these fields may be incompatible."
                ),
                _ => WIRE_RULES_NOTE.to_string(),
            };
            report_changed_kind(out, &new, &old, Some(&extra), wire::wire_group, "wire-");
            continue;
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
}

/// FIELD_WIRE_JSON_COMPATIBLE_TYPE: a field's type changes only to one compatible on the wire
/// and in JSON.
pub fn field_wire_json_compatible_type(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
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
            continue;
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

// ---------------------------------------------------------------------------------------------
// Names, oneofs, JSON names

/// FIELD_SAME_NAME: a field keeps its name (extensions: their full name).
pub fn field_same_name(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        let (was, now) = (old.display_name(), new.display_name());
        if was == now {
            continue;
        }
        let message = format!(
            "{} changed name from {} to {}.",
            new.description_with_name(None),
            quote(was),
            quote(now)
        );
        let help = format!(
            "keep the name `{}`: generated code and the JSON and text formats use it",
            old.field().name
        );
        report(
            out,
            (&new, new.name_span()),
            (&old, old.name_span()),
            message,
            help,
        );
    }
}

/// FIELD_SAME_ONEOF: a field stays in (or out of) the same oneof. Synthetic oneofs of proto3
/// `optional` fields do not count; presence changes are the cardinality rules' business.
pub fn field_same_oneof(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if old.is_extension() {
            continue;
        }
        let (was, now) = (real_oneof(&old), real_oneof(&new));
        let (message, help) = match (was, now) {
            (None, None) => continue,
            (Some(a), Some(b)) if a == b => continue,
            (Some(a), Some(b)) => (
                format!(
                    "{} moved from oneof {} to oneof {}.",
                    new.description(),
                    quote(a),
                    quote(b)
                ),
                format!("move `{}` back into oneof `{a}`", new.field().name),
            ),
            (Some(a), None) => (
                format!(
                    "{} moved from inside to outside a oneof.",
                    new.description()
                ),
                format!("move `{}` back into oneof `{a}`", new.field().name),
            ),
            (None, Some(b)) => (
                format!(
                    "{} moved from outside to inside a oneof.",
                    new.description()
                ),
                format!(
                    "move `{}` out of oneof `{b}`: setting another member of the oneof would \
                     now clear it; add a new field for the oneof instead",
                    new.field().name
                ),
            ),
        };
        report(out, (&new, new.span()), (&old, old.span()), message, help);
    }
}

fn real_oneof<'a>(side: &FieldSide<'_, 'a>) -> Option<&'a str> {
    let message = side.at.message?;
    side.field()
        .oneof(message)
        .filter(|o| !o.synthetic)
        .map(|o| o.name.as_str())
}

/// FIELD_SAME_JSON_NAME: a field keeps its JSON name.
pub fn field_same_json_name(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if old.is_extension() {
            continue;
        }
        let (was, now) = (&old.field().json_name, &new.field().json_name);
        if was == now {
            continue;
        }
        let message = changed(&new, "option \"json_name\"", was, now);
        let help = format!(
            "keep the JSON name {}: `[json_name = {}]`; JSON clients key the field by it",
            quote(was),
            quote(was)
        );
        report(
            out,
            (&new, new.option_span("json_name").unwrap_or(new.span())),
            (&old, old.option_span("json_name").unwrap_or(old.span())),
            message,
            help,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Options and features that change generated code or validation

/// FIELD_SAME_JSTYPE: 64-bit integer fields keep their `jstype`.
pub fn field_same_jstype(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if !is_64bit_integer(old.field().ty) || !is_64bit_integer(new.field().ty) {
            continue;
        }
        let (was, now) = (jstype(old.field()), jstype(new.field()));
        if was == now {
            continue;
        }
        let message = changed(&new, "option \"jstype\"", &was, &now);
        let help = if was == "JS_NORMAL" {
            "remove the `jstype` option: JavaScript code reads this field as a different type"
                .to_string()
        } else {
            format!(
                "restore `[jstype = {was}]`: JavaScript code reads this field as a different type"
            )
        };
        report(
            out,
            (&new, new.option_span("jstype").unwrap_or(new.span())),
            (&old, old.option_span("jstype").unwrap_or(old.span())),
            message,
            help,
        );
    }
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

/// FIELD_SAME_CPP_STRING_TYPE: string and bytes fields keep their C++ string type, from the
/// `ctype` option or the `(pb.cpp).string_type` feature. STRING_PIECE -> STRING is allowed.
pub fn field_same_cpp_string_type(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        // Map entries cannot configure a string type.
        if new.in_map_entry() && old.in_map_entry() {
            continue;
        }
        let is_text = |s: &FieldSide| matches!(s.kind(), FieldType::String | FieldType::Bytes);
        if !is_text(&old) || !is_text(&new) {
            continue;
        }
        let (was, now) = (cpp_string_type(&old), cpp_string_type(&new));
        let piece_to_string = was.piece && now.ty == CppStringType::String && !now.piece;
        if was == now || piece_to_string {
            continue;
        }
        let message = changed(&new, "C++ string type", was.name(), now.name());
        let help = format!(
            "restore the C++ string type {} (generated C++ accessors change type otherwise)",
            was.name()
        );
        report(
            out,
            (&new, cpp_string_type_span(&new)),
            (&old, cpp_string_type_span(&old)),
            message,
            help,
        );
    }
}

#[derive(PartialEq, Eq)]
struct CppString {
    ty: CppStringType,
    /// `ctype = STRING_PIECE`, which has no feature equivalent.
    piece: bool,
}

impl CppString {
    fn name(&self) -> &'static str {
        if self.piece {
            return "STRING_PIECE";
        }
        match self.ty {
            CppStringType::String => "STRING",
            CppStringType::Cord => "CORD",
            CppStringType::View => "VIEW",
        }
    }
}

/// Before edition 2024 an explicit `ctype` wins; otherwise the resolved feature.
fn cpp_string_type(side: &FieldSide) -> CppString {
    if edition_before_2024(side.file()) {
        let ctype = side.field().options.value("ctype");
        let from_ctype = match ctype {
            Some(OptionValue::Ident(v)) => Some(v.as_str()),
            Some(OptionValue::Int(0)) => Some("STRING"),
            Some(OptionValue::Int(1)) => Some("CORD"),
            Some(OptionValue::Int(2)) => Some("STRING_PIECE"),
            _ => None,
        };
        match from_ctype {
            Some("CORD") => {
                return CppString {
                    ty: CppStringType::Cord,
                    piece: false,
                }
            }
            Some("STRING_PIECE") => {
                return CppString {
                    ty: CppStringType::String,
                    piece: true,
                }
            }
            Some("STRING") => {
                return CppString {
                    ty: CppStringType::String,
                    piece: false,
                }
            }
            _ => {}
        }
    }
    CppString {
        ty: side.field().features.cpp_string_type.value,
        piece: false,
    }
}

fn edition_before_2024(file: &File) -> bool {
    match &file.syntax {
        Syntax::Editions(e) => e.parse::<u32>().is_ok_and(|year| year < 2024),
        _ => true,
    }
}

/// The `ctype` option, else the `(pb.cpp).string_type` feature on the field, else the field.
fn cpp_string_type_span(side: &FieldSide) -> Span {
    side.option_span("ctype")
        .or_else(|| field_feature_span(side, side.field().features.cpp_string_type.span))
        .unwrap_or(side.span())
}

/// A feature span set directly on the field (map entry fields have no options of their own).
fn field_feature_span(side: &FieldSide, span: Option<Span>) -> Option<Span> {
    if side.in_map_entry() {
        None
    } else {
        span
    }
}

/// FIELD_SAME_JAVA_UTF8_VALIDATION: string fields keep Java's UTF-8 validation, from the
/// `java_string_check_utf8` file option or the `(pb.java).utf8_validation` feature.
pub fn field_same_java_utf8_validation(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if old.kind() != FieldType::String || new.kind() != FieldType::String {
            continue;
        }
        let (was, now) = (java_utf8_validation(&old), java_utf8_validation(&new));
        if was == now {
            continue;
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
pub fn field_same_utf8_validation(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if old.kind() != FieldType::String || new.kind() != FieldType::String {
            continue;
        }
        let (was, now) = (
            old.field().features.utf8_validation.value,
            new.field().features.utf8_validation.value,
        );
        if was == now {
            continue;
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
}

// ---------------------------------------------------------------------------------------------
// Defaults

/// FIELD_SAME_DEFAULT: singular scalar fields keep their default value (explicit or implied).
pub fn field_same_default(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in field_sides(ctx) {
        if !default::can_have_default(&old) || !default::can_have_default(&new) {
            continue;
        }
        let (was, now) = (default::field_default(&old), default::field_default(&new));
        if was.is_zero() && now.is_zero() {
            continue;
        }
        if default::defaults_equal(&was.value, &now.value) {
            continue;
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
        let help = if let Some(written) = old.field().default_value.as_deref() {
            let literal = match old.kind() {
                FieldType::String => quote(written),
                FieldType::Bytes => format!("\"{written}\""),
                _ => written.to_string(),
            };
            format!("restore `[default = {literal}]`: {effect}")
        } else if new.field().default_value.is_some() {
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
}
