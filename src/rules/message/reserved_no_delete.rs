//! RESERVED_MESSAGE_NO_DELETE: a reserved number range lost numbers, or a reserved name is
//! gone.

use super::check_ranges;
use crate::diff::Pair;
use crate::finding::Sink;
use crate::model::Message;
use crate::rules::reserved::report_deleted_reserved_names;

pub(in crate::rules) fn check(pair: &Pair<Message>, out: &mut Sink) {
    check_ranges(
        out,
        pair,
        "reserved",
        &pair.old.item.reserved_ranges,
        &pair.new.item.reserved_ranges,
    );
    report_deleted_reserved_names(out, pair, "message", |m| {
        (&m.reserved_names, &m.name, m.span)
    });
}
