//! ENUM_ZERO_VALUE_CHANGED and ENUM_CLOSED_VALUE_ADDED: an enum's default, and values that
//! old readers of a closed enum cannot keep.

use super::added::{added_values, default_value};
use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::{Enum, EnumType, EnumValue};
use crate::rules::quote::quote;
use crate::rules::Direction;

/// What changed about an enum's default, if anything: old and new default values.
pub fn default_change<'a>(old: &'a Enum, new: &'a Enum) -> Option<(&'a EnumValue, &'a EnumValue)> {
    let (was, is) = (default_value(old)?, default_value(new)?);
    (was.name != is.name || was.number != is.number).then_some((was, is))
}

/// ENUM_ZERO_VALUE_CHANGED: unset fields of the enum read as another value.
pub(in crate::rules) fn zero_value_changed(pair: &Pair<Enum>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let Some((was, is)) = default_change(old, new) else {
        return;
    };
    let which = match new.features.enum_type.value {
        EnumType::Open => "the value numbered 0",
        EnumType::Closed => "the first declared value (the enum is closed)",
    };
    // With implicit presence (open enums in proto3) the default is also never sent.
    let and_back = match new.features.enum_type.value {
        EnumType::Open => format!(
            ", and fields with implicit presence that new code sets to {} are not sent, so old \
             code reads {}",
            is.name, was.name
        ),
        EnumType::Closed => format!(", while old code reads them as {}", was.name),
    };
    let finding = out.add(
        Some(Location::in_file(pair.new.file, Some(is.span))),
        Some(Location::in_file(pair.old.file, Some(was.span))),
        format!(
            "Enum {}'s default value changed from {} ({}) to {} ({}), {which}: unset fields \
             of every old message now read as {} in new code{and_back}.",
            quote(&new.name),
            was.name,
            was.number,
            is.name,
            is.number,
            is.name,
        ),
    );
    finding.help = Some(match new.features.enum_type.value {
        EnumType::Open => format!(
            "keep {} numbered 0 in enum {}, and give {} a number of its own",
            was.name, new.name, is.name
        ),
        EnumType::Closed => format!(
            "declare {} first again in enum {} (a closed enum's default is its first value)",
            was.name, new.name
        ),
    });
    finding.direction = Direction::Both;
}

/// ENUM_CLOSED_VALUE_ADDED: old readers of a closed enum do not know the new number.
pub(in crate::rules) fn closed_value_added(pair: &Pair<Enum>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    if old.features.enum_type.value != EnumType::Closed {
        return;
    }
    let default = default_value(old).map_or("its default".to_string(), |v| v.name.clone());
    for value in added_values(pair) {
        let finding = out.add(
            Some(Location::in_file(pair.new.file, Some(value.span))),
            None,
            format!(
                "Enum value {} ({}) was added to closed enum {}: old readers put it in unknown \
                 fields, so a singular field reads as {default}, a repeated field loses the \
                 element, and a message where the field is `required` fails to parse.",
                quote(&value.name),
                value.number,
                quote(&new.name)
            ),
        );
        finding.help = Some(format!(
            "deploy readers of the new schema before any writer sends {}; or make the enum \
             open (`option features.enum_type = OPEN;` in editions) so old readers keep the number",
            value.name
        ));
        finding.direction = Direction::Forward;
    }
}
