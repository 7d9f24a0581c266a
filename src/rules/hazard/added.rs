//! Elements only the new side has, inside matched parents: the fields added to a message and
//! the values added to an enum. (Fields of a message that is new as a whole are designed
//! together with it and are left alone.)

use crate::diff::{Ctx, Pair};
use crate::model::{Enum, EnumType, EnumValue};
use crate::rules::field::FieldSide;

/// Fields added to paired messages (map entries and extensions excepted), from the diff.
pub fn added_fields<'c, 'a>(ctx: &'c Ctx<'a>) -> Vec<FieldSide<'c, 'a>> {
    ctx.added()
        .fields
        .iter()
        .filter(|at| at.message.is_some_and(|m| !m.is_map_entry))
        .map(|at| FieldSide::new(*at, &ctx.new_index))
        .collect()
}

/// Values of a matched enum whose number the old enum lacks (the first of aliases).
pub fn added_values<'a>(pair: &Pair<'a, Enum>) -> Vec<&'a EnumValue> {
    let (new, old) = (pair.new.item, pair.old.item);
    let mut seen = Vec::new();
    new.values
        .iter()
        .filter(|v| !old.values.iter().any(|o| o.number == v.number))
        .filter(|v| {
            let first = !seen.contains(&v.number);
            seen.push(v.number);
            first
        })
        .collect()
}

/// The value an unset field of this enum reads as: the one numbered 0 for an open enum, the
/// first declared for a closed one.
pub fn default_value(e: &Enum) -> Option<&EnumValue> {
    match e.features.enum_type.value {
        EnumType::Open => e.values.iter().find(|v| v.number == 0),
        EnumType::Closed => e.values.first(),
    }
}

/// The name of the zero value of an enum-typed field's enum, if it resolves.
pub fn zero_value_name(side: &FieldSide) -> Option<String> {
    let e = side.enum_type()?;
    e.values
        .iter()
        .find(|v| v.number == 0)
        .map(|v| v.name.clone())
}
