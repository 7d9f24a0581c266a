//! ENUM_VALUE_SAME_NAME: a number kept its value but lost a name (for aliases: every old name
//! of the number must still be there; adding aliases is fine).

use std::collections::BTreeSet;

use crate::diff::EnumValuePair;
use crate::finding::{Location, Sink};
use crate::model::EnumValue;
use crate::rules::quote::{quote, quote_list};

pub(in crate::rules) fn check(pair: &EnumValuePair, out: &mut Sink) {
    let old_names: BTreeSet<&str> = pair.old.iter().map(|v| &*v.name).collect();
    let new_names: BTreeSet<&str> = pair.new.iter().map(|v| &*v.name).collect();
    if old_names.is_subset(&new_names) {
        return;
    }
    let old_list: Vec<&str> = old_names.iter().copied().collect();
    let new_list: Vec<&str> = new_names.iter().copied().collect();
    let plural = if old_list.len() > 1 && new_list.len() > 1 {
        "s"
    } else {
        ""
    };
    let message = format!(
        "Enum value \"{}\" on enum {} changed name{plural} from {} to {}.",
        pair.number,
        quote(&pair.new_enum.name),
        quote_list(&old_list),
        quote_list(&new_list)
    );
    let lost: Vec<&str> = old_names.difference(&new_names).copied().collect();
    let mut new_values: Vec<&EnumValue> = pair.new.clone();
    new_values.sort_by(|a, b| a.name.cmp(&b.name));
    for value in new_values {
        let previous = pair
            .old
            .iter()
            .find(|v| v.name == value.name)
            .or_else(|| pair.old.iter().min_by(|a, b| a.name.cmp(&b.name)))
            .map(|v| v.number_span);
        let finding = out.add(
            Some(Location::in_file(pair.new_file, Some(value.number_span))),
            previous.map(|span| Location::in_file(pair.old_file, Some(span))),
            message.clone(),
        );
        finding.help = Some(format!(
            "keep the name{} {} for number {} (JSON and text formats use names); add new \
             names as aliases with `option allow_alias = true;`",
            if lost.len() > 1 { "s" } else { "" },
            quote_list(&lost),
            pair.number
        ));
        finding.group = Some(format!("{}={}", pair.new_enum.full_name, pair.number));
    }
}
