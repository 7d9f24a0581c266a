//! ENUM_SAME_TYPE: an enum changed between open and closed (proto2 enums are closed, proto3
//! open; editions set it with `features.enum_type`).

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::{Enum, EnumType};
use crate::rules::quote::quote;

pub(in crate::rules) fn check(pair: &Pair<Enum>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let was = old.features.enum_type;
    let is = new.features.enum_type;
    if was.value == is.value {
        return;
    }
    let (was_name, is_name, keep) = match was.value {
        EnumType::Closed => ("closed", "open", "CLOSED"),
        EnumType::Open => ("open", "closed", "OPEN"),
    };
    out.add(
        Some(Location::in_file(pair.new.file, is.span.or(Some(new.span)))),
        Some(Location::in_file(
            pair.old.file,
            was.span.or(Some(old.span)),
        )),
        format!(
            "Enum {} changed from {was_name} to {is_name}.",
            quote(&new.name)
        ),
    )
    .help = Some(format!(
        "keep enum {} {was_name}: set `option features.enum_type = {keep};` on it",
        new.name
    ));
}
