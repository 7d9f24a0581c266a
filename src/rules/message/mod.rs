//! Rules about messages: deletion, reserved and extension ranges, required fields, JSON format
//! and the descriptor accessor option.

pub(super) mod extension_range_no_delete;
pub(super) mod no_delete;
pub(super) mod no_remove_standard_descriptor_accessor;
pub(super) mod reserved_no_delete;
pub(super) mod same_json_format;
pub(super) mod same_required_fields;

#[cfg(test)]
mod tests;

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::{Message, ReservedRange};
use crate::rules::quote::quote;
use crate::rules::reserved::{
    collapse_ranges, message_max, missing_ranges, range_string, reserved_numbers_literal, NumRange,
};

/// Flags every old range (reserved or extension) that the new ranges no longer cover fully,
/// naming the numbers that are no longer covered.
fn check_ranges(
    out: &mut Sink,
    pair: &Pair<Message>,
    kind: &str,
    old_ranges: &[ReservedRange],
    new_ranges: &[ReservedRange],
) {
    let (new, old): (&Message, &Message) = (pair.new.item, pair.old.item);
    let collapsed = collapse_ranges(new_ranges.iter().map(|r| (r.start, r.end)));
    let max = message_max(new);
    for range in old_ranges {
        let missing: Vec<NumRange> = missing_ranges(range.start, range.end, &collapsed);
        if missing.is_empty() {
            continue;
        }
        let removed = missing
            .iter()
            .map(|&r| range_string(r, max))
            .collect::<Vec<_>>()
            .join(", ");
        out.add(
            Some(Location::in_file(pair.new.file, Some(new.span))),
            Some(Location::in_file(pair.old.file, Some(range.span))),
            format!(
                "Previously present {kind} range {} on message {} is missing values: {removed} \
                 were removed.",
                quote(&range_string((range.start, range.end), message_max(old))),
                quote(&new.name)
            ),
        )
        .help = Some(match kind {
            "reserved" => format!(
                "restore `reserved {};` in message {}",
                reserved_numbers_literal(&missing, max),
                new.name
            ),
            _ => format!(
                "restore `extensions {};` in message {}",
                reserved_numbers_literal(&missing, max),
                new.name
            ),
        });
    }
}
