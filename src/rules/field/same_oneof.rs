//! FIELD_SAME_ONEOF: a field stays in (or out of) the same oneof. Synthetic oneofs of proto3
//! `optional` fields do not count; presence changes are the cardinality rules' business.

use super::report;
use super::side::FieldSide;
use crate::finding::Sink;
use crate::rules::pairs::FieldSides;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    if old.is_extension() {
        return;
    }
    let (was, now) = (real_oneof(&old), real_oneof(&new));
    let (message, help) = match (was, now) {
        (None, None) => return,
        (Some(a), Some(b)) if a == b => return,
        (Some(a), Some(b)) => (
            format!(
                "{} moved from oneof {} to oneof {}.",
                new.description(),
                quote(a),
                quote(b)
            ),
            format!("move `{}` back into oneof `{a}`", new.field().name),
        ),
        (Some(a), None) => (
            format!(
                "{} moved from inside to outside a oneof.",
                new.description()
            ),
            format!("move `{}` back into oneof `{a}`", new.field().name),
        ),
        (None, Some(b)) => (
            format!(
                "{} moved from outside to inside a oneof.",
                new.description()
            ),
            format!(
                "move `{}` out of oneof `{b}`: setting another member of the oneof would \
                 now clear it; add a new field for the oneof instead",
                new.field().name
            ),
        ),
    };
    report(out, (&new, new.span()), (&old, old.span()), message, help);
}

fn real_oneof<'a>(side: &FieldSide<'_, 'a>) -> Option<&'a str> {
    let message = side.at.message?;
    side.field()
        .oneof(message)
        .filter(|o| !o.synthetic)
        .map(|o| o.name.as_str())
}
