//! FIELD_SAME_CARDINALITY and its wire and wire+JSON variants, which accept the changes that
//! keep the encoding.

use super::side::{Cardinality, FieldSide};
use super::{changed, report, wire};
use crate::finding::Sink;
use crate::rules::pairs::FieldSides;

/// FIELD_SAME_CARDINALITY: a field keeps its cardinality (label and presence).
pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    check_cardinality(sides, out, |a, b| a == b);
}

/// FIELD_WIRE_COMPATIBLE_CARDINALITY: cardinality changes only within wire-compatible groups.
pub(in crate::rules) fn wire_compatible(sides: &FieldSides, out: &mut Sink) {
    check_cardinality(sides, out, |a, b| {
        wire::cardinality_wire_group(a) == wire::cardinality_wire_group(b)
    });
}

/// FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY: as above, also keeping the JSON shape.
pub(in crate::rules) fn wire_json_compatible(sides: &FieldSides, out: &mut Sink) {
    check_cardinality(sides, out, |a, b| {
        wire::cardinality_wire_json_group(a) == wire::cardinality_wire_json_group(b)
    });
}

fn check_cardinality(
    sides: &FieldSides,
    out: &mut Sink,
    compatible: fn(Cardinality, Cardinality) -> bool,
) {
    let (new, old) = (sides.new, sides.old);
    // Map entry fields are generated; their apparent presence means nothing.
    if new.in_map_entry() && old.in_map_entry() {
        return;
    }
    let (was, now) = (old.cardinality(), new.cardinality());
    if compatible(was, now) {
        return;
    }
    let message = changed(&new, "cardinality", was.name(), now.name());
    report(
        out,
        (&new, new.span()),
        (&old, old.span()),
        message,
        cardinality_help(&new, was),
    );
}

fn cardinality_help(new: &FieldSide, was: Cardinality) -> String {
    let name = new.field().name.as_str();
    let keep = match was {
        Cardinality::OptionalImplicit => format!(
            "keep `{name}` with implicit presence (a zero value such as 0, \"\" or false is not \
             sent, so adding presence changes what readers see for zero values)"
        ),
        Cardinality::OptionalExplicit => format!(
            "keep `{name}` with explicit presence (without it a zero value is not sent and \
             reads as unset)"
        ),
        Cardinality::Required => format!("keep `{name}` required"),
        Cardinality::Repeated => format!("keep `{name}` repeated"),
        Cardinality::Map => format!("keep `{name}` a map"),
    };
    format!(
        "{keep}; for a different cardinality add a new field with a new number and reserve \
         this one"
    )
}
