//! FIELD_NO_DELETE and its two variants that accept a deletion when the field's name, or its
//! number, is reserved.

use super::side::message_span;
use crate::finding::{Location, Sink};
use crate::model::{Field, File, Message, Syntax};
use crate::rules::pairs::RemovedField;
use crate::rules::quote::quote;

/// FIELD_NO_DELETE: a message keeps every field it had.
pub(in crate::rules) fn check(removed: &RemovedField, out: &mut Sink) {
    report_unless(removed, out, Allowance::None);
}

/// FIELD_NO_DELETE_UNLESS_NAME_RESERVED: a field may go only if its name is reserved.
pub(in crate::rules) fn unless_name_reserved(removed: &RemovedField, out: &mut Sink) {
    report_unless(removed, out, Allowance::NameReserved);
}

/// FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED: a field may go only if its number is reserved.
pub(in crate::rules) fn unless_number_reserved(removed: &RemovedField, out: &mut Sink) {
    report_unless(removed, out, Allowance::NumberReserved);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowance {
    None,
    NameReserved,
    NumberReserved,
}

fn report_unless(removed: &RemovedField, out: &mut Sink, allowance: Allowance) {
    let RemovedField {
        old: old_side,
        messages: pair,
        new_index,
        new_reserved: reserved,
    } = removed;
    let (new_msg, old_msg) = (pair.new.item, pair.old.item);
    let old_field = old_side.field();
    let allowed = match allowance {
        Allowance::None => false,
        Allowance::NameReserved => reserved.name(&old_field.name),
        Allowance::NumberReserved => reserved.number(old_field.number),
    };
    if allowed {
        return;
    }
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
    let new_loc = Location::in_file(pair.new.file, Some(message_span(new_index, new_msg)));
    let old_loc = Location::in_file(pair.old.file, Some(message_span(old_side.index, old_msg)));
    let help = deletion_help(pair.new.file, new_msg, old_field, allowance);
    let finding = out.add(Some(new_loc), Some(old_loc), message);
    finding.help = Some(help);
    finding.focus = Some(old_field.span);
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
