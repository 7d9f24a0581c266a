//! MESSAGE_SAME_JSON_FORMAT: the effective `json_format` feature went from ALLOW to
//! something else.

use crate::diff::Pair;
use crate::finding::Sink;
use crate::model::Message;
use crate::rules::json_format::report_json_format_loss;

pub(in crate::rules) fn check(pair: &Pair<Message>, out: &mut Sink) {
    report_json_format_loss(out, pair, ("Message", "message"), |m| {
        (&m.features, m.span, &m.name)
    });
}
