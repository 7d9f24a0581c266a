//! FIELD_NUMBER_TAG_SIZE: a field added with a number of 16 or more while 1–15 still has free
//! numbers. Tags of fields 1–15 take one byte on the wire, 16–2047 two: a hint, not a break.

use super::added::added_fields;
use crate::diff::Ctx;
use crate::finding::Sink;
use crate::model::{File, Message};
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
            .get(message.full_name.as_str())
            .map(|m| m.item);
        let mut free = free_small_numbers(message, old);
        free.retain(|n| !taken_in_another_version(ctx, field.at.file, message, *n));
        if only_gaps(&free, message) {
            continue;
        }
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

/// Whether every free number lies below a one-byte number the message uses: the author went
/// through the range and skipped those on purpose (googleapis: fields 5 and 7-15 added with
/// 6 left out, then 16), rather than jumping past its free top.
fn only_gaps(free: &[i64], message: &Message) -> bool {
    let highest_small = message
        .fields
        .iter()
        .map(|f| f.number)
        .filter(|n| *n <= 15)
        .max()
        .unwrap_or(0);
    free.iter().all(|n| *n < highest_small)
}

/// Whether the same message in another version of the package (`acme.v1beta` beside
/// `acme.v1`) uses the number: APIs keep numbers in step across versions, so a number taken
/// there is not free here (googleapis: workstations v1 skips 15, which v1beta uses).
fn taken_in_another_version(ctx: &Ctx, file: &File, message: &Message, number: i64) -> bool {
    let package = file.package.as_str();
    let Some((parent, last)) = package.rsplit_once('.') else {
        return false;
    };
    if !is_version(last) {
        return false;
    }
    let relative = message
        .full_name
        .strip_prefix(package)
        .unwrap_or(&message.full_name);
    let prefix = format!("{parent}.");
    ctx.new_index
        .packages
        .range(prefix.as_str()..)
        .take_while(|(p, _)| p.starts_with(&prefix))
        .filter(|(p, _)| **p != package && is_version(&p[prefix.len()..]))
        .filter_map(|(p, _)| {
            ctx.new_index
                .messages
                .get(format!("{p}{relative}").as_str())
        })
        .any(|other| other.item.fields.iter().any(|f| f.number == number))
}

/// `v1`, `v1beta`, `v2alpha1`, `v1p1beta1`: a version component of a package.
fn is_version(component: &str) -> bool {
    component
        .strip_prefix('v')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        && !component.contains('.')
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
