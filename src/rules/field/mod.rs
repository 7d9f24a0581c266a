//! Rules about field elements (buf's FIELD_* breaking rules).
//!
//! Fields are paired as buf pairs them (message fields by number inside messages matched by
//! full name, then extensions by extendee and number); each rule sees one pair as
//! [`FieldSides`](crate::rules::pairs::FieldSides), or a deleted field. Each finding points at
//! the new side where buf does, with the old side as `previous`, and buf's message wording.

pub(super) mod cardinality;
pub(super) mod no_delete;
pub(super) mod same_cpp_string_type;
pub(super) mod same_default;
pub(super) mod same_json_name;
pub(super) mod same_jstype;
pub(super) mod same_name;
pub(super) mod same_oneof;
pub(super) mod types;
pub(super) mod utf8_validation;

mod default;
mod side;
mod text;
mod wire;

#[cfg(test)]
mod tests;

pub(super) use side::FieldSide;

use crate::finding::Sink;
use crate::model::Span;
use crate::rules::quote::quote;

/// Adds a finding at `new_span` of the new side, with `old_span` of the old side as previous.
pub(super) fn report(
    out: &mut Sink,
    (new, new_span): (&FieldSide, Span),
    (old, old_span): (&FieldSide, Span),
    message: String,
    help: String,
) {
    let finding = out.add(Some(new.loc(new_span)), Some(old.loc(old_span)), message);
    finding.help = Some(help);
}

/// buf's "<field> changed <what> from <was> to <now>." with both values Go-quoted.
pub(super) fn changed(new: &FieldSide, what: &str, was: &str, now: &str) -> String {
    format!(
        "{} changed {what} from {} to {}.",
        new.description(),
        quote(was),
        quote(now)
    )
}

/// A feature span set directly on the field (map entry fields have no options of their own).
pub(super) fn field_feature_span(side: &FieldSide, span: Option<Span>) -> Option<Span> {
    if side.in_map_entry() {
        None
    } else {
        span
    }
}
