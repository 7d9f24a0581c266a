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
        let old = ctx
            .old_index
            .messages
            .get(&message.full_name)
            .map(|m| m.item);
        let free = free_small_numbers(message, old);
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

/// Numbers 1–15 that no field, reservation or extension range of the message takes, above
/// the highest number the old message used: a gap below it was most likely left by a deleted
/// field (reserved or not), and the hint must never suggest reusing one (googleapis renumbers
/// messages this way: fields 5 and 35-47, then a new 65).
fn free_small_numbers(message: &Message, old: Option<&Message>) -> Vec<i64> {
    let reserved = Reservations::of_message(message);
    let highest_old = old.map_or(0, highest_number);
    (highest_old + 1..=15)
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

/// The highest number a message's fields and reserved ranges take.
fn highest_number(message: &Message) -> i64 {
    let fields = message.fields.iter().map(|f| f.number);
    let reserved = message
        .reserved_ranges
        .iter()
        .map(|r| r.end.min(crate::model::FIELD_MAX));
    fields.chain(reserved).max().unwrap_or(0)
}
