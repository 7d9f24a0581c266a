//! FIELD_SAME_JSON_NAME: a field keeps its JSON name.

use super::{changed, report};
use crate::finding::Sink;
use crate::rules::pairs::FieldSides;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if old.is_extension() {
        return;
    }
    let (was, now) = (&old.field().json_name, &new.field().json_name);
    if was == now {
        return;
    }
    let message = changed(&new, "option \"json_name\"", was, now);
    let help = format!(
        "keep the JSON name {}: `[json_name = {}]`; JSON clients key the field by it",
        quote(was),
        quote(was)
    );
    report(
        out,
        (&new, new.option_span("json_name").unwrap_or(new.span())),
        (&old, old.option_span("json_name").unwrap_or(old.span())),
        message,
        help,
    );
}
