//! Reserved numbers and names: membership tests, the numbers a range lost, and the text buf
//! prints for ranges and that help texts suggest for `reserved` statements.

use std::collections::BTreeMap;

// ahash: these sets are built per message pair, and SipHash was a visible part of the rules.
use ahash::AHashSet as HashSet;

use super::quote::quote;
use crate::diff::Pair;
use crate::finding::{Location, Sink};
pub use crate::model::ranges::{collapse_ranges, NumRange, NumberSet};
use crate::model::{Enum, Message, ReservedName, ReservedRange, Span, Syntax};
use crate::model::{FIELD_MAX, MESSAGE_SET_FIELD_MAX};

/// The reserved numbers and names of one message or enum, for membership tests that stay
/// fast when a message reserves (or deletes) tens of thousands of them.
pub struct Reservations<'a> {
    numbers: NumberSet,
    names: HashSet<&'a str>,
}

impl<'a> Reservations<'a> {
    pub fn new(ranges: &[ReservedRange], names: &'a [ReservedName]) -> Self {
        Reservations {
            numbers: NumberSet::of(ranges),
            names: names.iter().map(|n| n.name.as_str()).collect(),
        }
    }

    pub fn of_message(m: &'a Message) -> Self {
        Self::new(&m.reserved_ranges, &m.reserved_names)
    }

    pub fn of_enum(e: &'a Enum) -> Self {
        Self::new(&e.reserved_ranges, &e.reserved_names)
    }

    pub fn number(&self, number: i64) -> bool {
        self.numbers.contains(number)
    }

    pub fn name(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// RESERVED_MESSAGE_NO_DELETE and RESERVED_ENUM_NO_DELETE: each reserved name of the old
/// element that the new one no longer reserves. `kind` is "message" or "enum".
pub fn report_deleted_reserved_names<T>(
    out: &mut Sink,
    pair: &Pair<T>,
    kind: &str,
    parts: impl Fn(&T) -> (&[ReservedName], &str, Span),
) {
    let (old_names, _, _) = parts(pair.old.item);
    let (new_names, new_name, new_span) = parts(pair.new.item);
    let still: HashSet<&str> = new_names.iter().map(|n| n.name.as_str()).collect();
    let names: BTreeMap<&str, Span> = old_names.iter().map(|n| (&*n.name, n.span)).collect();
    for (name, old_span) in names {
        if still.contains(name) {
            continue;
        }
        out.add(
            Some(Location::in_file(pair.new.file, Some(new_span))),
            Some(Location::in_file(pair.old.file, Some(old_span))),
            format!(
                "Previously present reserved name {} on {kind} {} was deleted.",
                quote(name),
                quote(new_name)
            ),
        )
        .help = Some(format!(
            "restore `reserved {};` in {kind} {new_name}",
            reserved_name_literal(&pair.new.file.syntax, name),
        ));
    }
}

/// The ranges of one message or enum that RESERVED_*_NO_DELETE or EXTENSION_MESSAGE_NO_DELETE
/// compares, and how to print them.
pub struct RangeSides<'a> {
    /// "reserved" or "extension", as the message names the range.
    pub range_kind: &'static str,
    /// "message" or "enum".
    pub element_kind: &'static str,
    pub old: &'a [ReservedRange],
    pub new: &'a [ReservedRange],
    /// The highest number of each side (`max` in the printed ranges).
    pub old_max: i64,
    pub new_max: i64,
}

/// Flags every old range that the new ranges no longer cover fully, naming the numbers that
/// are no longer covered; `name` and `span` are the new element's.
pub fn report_lost_ranges<T>(
    out: &mut Sink,
    pair: &Pair<T>,
    (name, span): (&str, Span),
    sides: RangeSides,
) {
    let collapsed = collapse_ranges(sides.new.iter().map(|r| (r.start, r.end)));
    let statement = match sides.range_kind {
        "extension" => "extensions",
        other => other,
    };
    for range in sides.old {
        let missing = missing_ranges(range.start, range.end, &collapsed);
        if missing.is_empty() {
            continue;
        }
        let removed = missing
            .iter()
            .map(|&r| range_string(r, sides.new_max))
            .collect::<Vec<_>>()
            .join(", ");
        out.add(
            Some(Location::in_file(pair.new.file, Some(span))),
            Some(Location::in_file(pair.old.file, Some(range.span))),
            format!(
                "Previously present {} range {} on {} {} is missing values: {removed} were \
                 removed.",
                sides.range_kind,
                quote(&range_string((range.start, range.end), sides.old_max)),
                sides.element_kind,
                quote(name)
            ),
        )
        .help = Some(format!(
            "restore `{statement} {};` in {} {name}",
            reserved_numbers_literal(&missing, sides.new_max),
            sides.element_kind,
        ));
    }
}

/// How to write `reserved` for names in a file of this syntax: editions use identifiers,
/// proto2/proto3 use string literals.
pub fn reserved_name_literal(syntax: &Syntax, name: &str) -> String {
    match syntax {
        Syntax::Editions(_) => name.to_string(),
        _ => quote(name),
    }
}

/// The parts of `[start, end]` not covered by `collapsed` (the output of [`collapse_ranges`]).
pub fn missing_ranges(start: i64, end: i64, collapsed: &[NumRange]) -> Vec<NumRange> {
    let mut missing = Vec::new();
    let mut next = start;
    for &(s, e) in collapsed {
        if e < next {
            continue;
        }
        if s > end {
            break;
        }
        if s > next {
            missing.push((next, s - 1));
        }
        next = e.saturating_add(1);
        if next > end {
            return missing;
        }
    }
    if next <= end {
        missing.push((next, end));
    }
    missing
}

/// `[5]`, `[4,5]` or `[1000,max]`, as buf prints ranges.
pub fn range_string((start, end): NumRange, max: i64) -> String {
    if start == end {
        format!("[{start}]")
    } else if end == max {
        format!("[{start},max]")
    } else {
        format!("[{start},{end}]")
    }
}

/// The highest field number of this message (`max`).
pub fn message_max(message: &Message) -> i64 {
    if message.options.bool("message_set_wire_format") == Some(true) {
        MESSAGE_SET_FIELD_MAX
    } else {
        FIELD_MAX
    }
}

/// `reserved 4 to 5, 301;` style text for a set of ranges (for help texts).
pub fn reserved_numbers_literal(ranges: &[NumRange], max: i64) -> String {
    ranges
        .iter()
        .map(|&(s, e)| {
            if s == e {
                s.to_string()
            } else if e == max {
                format!("{s} to max")
            } else {
                format!("{s} to {e}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ENUM_MAX;

    #[test]
    fn collapse_merges_overlapping_and_adjacent() {
        assert_eq!(
            collapse_ranges([(10, 20), (1, 3), (4, 5), (15, 25), (30, 30)]),
            vec![(1, 5), (10, 25), (30, 30)]
        );
    }

    #[test]
    fn missing_when_nothing_covers() {
        assert_eq!(missing_ranges(4, 5, &[]), vec![(4, 5)]);
        assert_eq!(missing_ranges(4, 5, &[(10, 20)]), vec![(4, 5)]);
        assert_eq!(missing_ranges(40, 50, &[(10, 20)]), vec![(40, 50)]);
    }

    #[test]
    fn missing_when_fully_covered() {
        assert!(missing_ranges(4, 5, &[(1, 10)]).is_empty());
        assert!(missing_ranges(4, 5, &collapse_ranges([(4, 4), (5, 5)])).is_empty());
    }

    #[test]
    fn missing_holes_in_the_middle_and_ends() {
        // buf's own example: [1,max] against 1-1000, 2000-5000, 10000-50000, 100000-max.
        let covered =
            collapse_ranges([(1, 1000), (2000, 5000), (10000, 50000), (100000, FIELD_MAX)]);
        assert_eq!(
            missing_ranges(1, FIELD_MAX, &covered),
            vec![(1001, 1999), (5001, 9999), (50001, 99999)]
        );
        assert_eq!(
            missing_ranges(0, 12, &[(2, 3), (5, 6)]),
            vec![(0, 1), (4, 4), (7, 12)]
        );
    }

    #[test]
    fn range_strings() {
        assert_eq!(range_string((301, 301), FIELD_MAX), "[301]");
        assert_eq!(range_string((4, 5), FIELD_MAX), "[4,5]");
        assert_eq!(range_string((1000, FIELD_MAX), FIELD_MAX), "[1000,max]");
        assert_eq!(range_string((1000, ENUM_MAX), ENUM_MAX), "[1000,max]");
    }
}
