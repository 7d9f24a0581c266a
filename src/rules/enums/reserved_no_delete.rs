//! RESERVED_ENUM_NO_DELETE: a reserved range of an enum lost numbers, or a reserved name is
//! gone.

use crate::diff::Pair;
use crate::finding::Sink;
use crate::model::{Enum, ENUM_MAX};
use crate::rules::reserved::{report_deleted_reserved_names, report_lost_ranges, RangeSides};

pub(in crate::rules) fn check(pair: &Pair<Enum>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let sides = RangeSides {
        range_kind: "reserved",
        element_kind: "enum",
        old: &old.reserved_ranges,
        new: &new.reserved_ranges,
        old_max: ENUM_MAX,
        new_max: ENUM_MAX,
    };
    report_lost_ranges(out, pair, (&new.name, new.span), sides);
    report_deleted_reserved_names(out, pair, "enum", |e| (&e.reserved_names, &e.name, e.span));
}
