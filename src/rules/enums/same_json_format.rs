//! ENUM_SAME_JSON_FORMAT: the effective `json_format` feature of an enum went from ALLOW to
//! something else.

use crate::diff::Pair;
use crate::finding::Sink;
use crate::model::Enum;
use crate::rules::json_format::report_json_format_loss;

pub(in crate::rules) fn check(pair: &Pair<Enum>, out: &mut Sink) {
    report_json_format_loss(out, pair, ("Enum", "enum"), |e| {
        (&e.features, e.span, &e.name)
    });
}
