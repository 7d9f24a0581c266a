//! Reserved and extension ranges: bounds, order and overlaps, as protoc checks them.

use crate::syntax::{ast::RangeDecl, Span, FIELD_MAX};

/// Which statement a range comes from, for the messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::link) enum RangeKind {
    Reserved,
    Extensions,
}

impl RangeKind {
    fn what(self) -> &'static str {
        match self {
            RangeKind::Reserved => "reserved range",
            RangeKind::Extensions => "extension range",
        }
    }
}

/// protoc's parser reads range bounds as int32: `Integer out of range.`
fn int32_bounds(range: &RangeDecl) -> Option<(Span, String)> {
    let int32 = i64::from(i32::MIN)..=i64::from(i32::MAX);
    (!int32.contains(&range.start) || !int32.contains(&range.end)).then(|| {
        (
            range.span,
            "range bound is out of range for int32".to_string(),
        )
    })
}

/// protoc: `Reserved range end number must be greater than start number.` (and the same for
/// extension ranges).
fn ordered(kind: RangeKind, range: &RangeDecl) -> Option<(Span, String)> {
    (range.start > range.end).then(|| {
        (
            range.span,
            format!(
                "{} {} to {}: the end must not be less than the start",
                kind.what(),
                range.start,
                range.end
            ),
        )
    })
}

/// protoc: `Reserved numbers must be positive integers.` / `Extension numbers must be positive
/// integers.`, and `Extension numbers cannot be greater than 536870911.` (a message set's
/// extensions may go up to the int32 maximum).
fn message_bounds(kind: RangeKind, range: &RangeDecl, message_set: bool) -> Option<(Span, String)> {
    let what = kind.what();
    if range.start <= 0 {
        return Some((
            range.span,
            format!(
                "{what} {} to {}: numbers must be positive",
                range.start, range.end
            ),
        ));
    }
    let too_big = kind == RangeKind::Extensions && !message_set && range.end > FIELD_MAX;
    too_big.then(|| {
        (
            range.span,
            format!(
                "{what} {} to {}: extension numbers cannot be greater than {FIELD_MAX}",
                range.start, range.end
            ),
        )
    })
}

/// The problems of a message's own `reserved` and `extensions` ranges, in declaration order:
/// each range alone, then overlaps with the ranges before it. protoc: `Reserved range 10 to 12
/// overlaps with already-defined range 1 to 10.`, `Extension range 10 to 12 overlaps with
/// reserved range 1 to 10.`
pub(in crate::link) fn message_ranges(
    ranges: &[(RangeKind, &RangeDecl)],
    message_set: bool,
) -> Vec<(Span, String)> {
    ranges_in_order(ranges.iter().copied(), |kind, range| {
        int32_bounds(range)
            .or_else(|| ordered(kind, range))
            .or_else(|| message_bounds(kind, range, message_set))
    })
}

/// The problems of an enum's reserved ranges: int32 bounds, order, overlaps.
pub(in crate::link) fn enum_ranges(ranges: &[&RangeDecl]) -> Vec<(Span, String)> {
    let reserved = ranges.iter().map(|&range| (RangeKind::Reserved, range));
    ranges_in_order(reserved, |kind, range| {
        int32_bounds(range).or_else(|| ordered(kind, range))
    })
}

/// Each range's own problem (`alone`), or else its overlap with a valid range before it.
fn ranges_in_order<'a>(
    ranges: impl Iterator<Item = (RangeKind, &'a RangeDecl)>,
    alone: impl Fn(RangeKind, &RangeDecl) -> Option<(Span, String)>,
) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    let mut valid: Vec<(RangeKind, &RangeDecl)> = Vec::new();
    for (kind, range) in ranges {
        if let Some(error) = alone(kind, range) {
            errors.push(error);
            continue;
        }
        if let Some(error) = overlap(kind, range, &valid) {
            errors.push(error);
        }
        valid.push((kind, range));
    }
    errors
}

fn overlap(
    kind: RangeKind,
    range: &RangeDecl,
    before: &[(RangeKind, &RangeDecl)],
) -> Option<(Span, String)> {
    let (other_kind, other) = before
        .iter()
        .find(|(_, other)| range.start <= other.end && other.start <= range.end)?;
    let other_what = if *other_kind == kind {
        "an earlier range"
    } else {
        other_kind.what()
    };
    Some((
        range.span,
        format!(
            "{} {} to {} overlaps with {other_what} {} to {}",
            kind.what(),
            range.start,
            range.end,
            other.start,
            other.end
        ),
    ))
}
