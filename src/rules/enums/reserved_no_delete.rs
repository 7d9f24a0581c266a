//! RESERVED_ENUM_NO_DELETE: a reserved range of an enum lost numbers, or a reserved name is
//! gone.

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::Enum;
use crate::rules::quote::quote;
use crate::rules::reserved::{
    collapse_ranges, missing_ranges, range_string, report_deleted_reserved_names,
    reserved_numbers_literal, ENUM_MAX,
};

pub(in crate::rules) fn check(pair: &Pair<Enum>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let collapsed = collapse_ranges(new.reserved_ranges.iter().map(|r| (r.start, r.end)));
    for range in &old.reserved_ranges {
        let missing = missing_ranges(range.start, range.end, &collapsed);
        if missing.is_empty() {
            continue;
        }
        let removed = missing
            .iter()
            .map(|&r| range_string(r, ENUM_MAX))
            .collect::<Vec<_>>()
            .join(", ");
        out.add(
            Some(Location::in_file(pair.new.file, Some(new.span))),
            Some(Location::in_file(pair.old.file, Some(range.span))),
            format!(
                "Previously present reserved range {} on enum {} is missing values: \
                 {removed} were removed.",
                quote(&range_string((range.start, range.end), ENUM_MAX)),
                quote(&new.name)
            ),
        )
        .help = Some(format!(
            "restore `reserved {};` in enum {}",
            reserved_numbers_literal(&missing, ENUM_MAX),
            new.name
        ));
    }
    report_deleted_reserved_names(out, pair, "enum", |e| (&e.reserved_names, &e.name, e.span));
}
