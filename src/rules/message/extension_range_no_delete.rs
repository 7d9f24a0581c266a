//! EXTENSION_MESSAGE_NO_DELETE: an extension range lost numbers.

use super::check_ranges;
use crate::diff::Pair;
use crate::finding::Sink;
use crate::model::Message;

pub(in crate::rules) fn check(pair: &Pair<Message>, out: &mut Sink) {
    check_ranges(
        out,
        pair,
        "extension",
        &pair.old.item.extension_ranges,
        &pair.new.item.extension_ranges,
    );
}
