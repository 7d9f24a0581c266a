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
use crate::finding::Sink;
use crate::model::{Message, ReservedRange};
use crate::rules::reserved::{message_max, report_lost_ranges, RangeSides};

/// Flags every old range (reserved or extension) that the new ranges no longer cover fully.
fn check_ranges(
    out: &mut Sink,
    pair: &Pair<Message>,
    range_kind: &'static str,
    old: &[ReservedRange],
    new: &[ReservedRange],
) {
    let (old_message, new_message) = (pair.old.item, pair.new.item);
    let sides = RangeSides {
        range_kind,
        element_kind: "message",
        old,
        new,
        old_max: message_max(old_message),
        new_max: message_max(new_message),
    };
    report_lost_ranges(out, pair, (&new_message.name, new_message.span), sides);
}
