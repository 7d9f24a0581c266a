//! FIELD_SAME_NAME: a field keeps its name (extensions: their full name).

use super::report;
use crate::finding::Sink;
use crate::rules::pairs::FieldSides;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    let (was, now) = (old.display_name(), new.display_name());
    if was == now {
        return;
    }
    let message = format!(
        "{} changed name from {} to {}.",
        new.description_with_name(None),
        quote(was),
        quote(now)
    );
    let help = format!(
        "keep the name `{}`: generated code and the JSON and text formats use it",
        old.field().name
    );
    report(
        out,
        (&new, new.name_span()),
        (&old, old.name_span()),
        message,
        help,
    );
}
