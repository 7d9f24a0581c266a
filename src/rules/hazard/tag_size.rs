//! FIELD_NUMBER_TAG_SIZE: a field added with a number of 16 or more while 1–15 still has free
//! numbers. Tags of fields 1–15 take one byte on the wire, 16–2047 two: a hint, not a break.

use super::added::added_fields;
use crate::diff::Ctx;
use crate::finding::Sink;
use crate::model::Message;
use crate::rules::reserved::Reservations;

pub(in crate::rules) fn check(ctx: &Ctx, out: &mut Sink) {
    for field in added_fields(ctx) {
        let number = field.field().number;
        if !(16..=2047).contains(&number) || field.is_extension() {
            continue;
        }
        let Some(message) = field.at.message else {
            continue;
        };
        let free = free_small_numbers(message);
        let Some(first) = free.first() else {
            continue;
        };
        let finding = out.add(
            Some(field.loc(field.field().number_span)),
            None,
            format!(
                "{} was added with number {number}, whose tag takes two bytes on the wire, \
                 while {} of the one-byte numbers 1-15 {} free.",
                field.description(),
                free.len(),
                if free.len() == 1 { "is" } else { "are" }
            ),
        );
        finding.help = Some(format!(
            "if this field is set often (or repeated), number it {first} instead: numbers 1-15 \
             save a byte per occurrence"
        ));
    }
}

/// Numbers 1–15 that no field, reservation or extension range of the message takes.
fn free_small_numbers(message: &Message) -> Vec<i64> {
    let reserved = Reservations::of_message(message);
    (1..=15)
        .filter(|n| !message.fields.iter().any(|f| f.number == *n))
        .filter(|n| !reserved.number(*n))
        .filter(|n| {
            !message
                .extension_ranges
                .iter()
                .any(|r| (r.start..=r.end).contains(n))
        })
        .collect()
}
