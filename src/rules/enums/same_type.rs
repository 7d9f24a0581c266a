//! ENUM_SAME_TYPE: an enum changed between open and closed (proto2 enums are closed, proto3
//! open; editions set it with `features.enum_type`).

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::{Enum, EnumType};
use crate::rules::quote::quote;
use crate::rules::Direction;

pub(in crate::rules) fn check(pair: &Pair<Enum>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let was = old.features.enum_type;
    let is = new.features.enum_type;
    if was.value == is.value {
        return;
    }
    // The closed side moves numbers it does not know to unknown fields: new readers of old
    // data when the enum became closed, old readers of new data when it became open.
    let (was_name, is_name, keep, direction) = match was.value {
        EnumType::Closed => ("closed", "open", "CLOSED", Direction::Forward),
        EnumType::Open => ("open", "closed", "OPEN", Direction::Backward),
    };
    let finding = out.add(
        Some(Location::in_file(pair.new.file, is.span.or(Some(new.span)))),
        Some(Location::in_file(
            pair.old.file,
            was.span.or(Some(old.span)),
        )),
        format!(
            "Enum {} changed from {was_name} to {is_name}.",
            quote(&new.name)
        ),
    );
    finding.help = Some(format!(
        "keep enum {} {was_name}: set `option features.enum_type = {keep};` on it",
        new.name
    ));
    finding.direction = direction;
}
