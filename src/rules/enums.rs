//! Rules about enums and enum values.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::message::report_json_format_loss;
use super::util::{
    collapse_ranges, enums_by_nested_name, missing_ranges, quote, quote_list, range_string,
    report_deleted_from_file, report_deleted_reserved_names, reserved_name_literal,
    reserved_numbers_literal, Reservations, ENUM_MAX,
};
use crate::compare::{Ctx, Pair, Sink};
use crate::model::{Enum, EnumType, EnumValue, Span};

/// ENUM_NO_DELETE: an enum (top-level or nested) is missing from a file that still exists.
pub fn enum_no_delete(ctx: &Ctx, out: &mut Sink) {
    report_deleted_from_file(ctx, out, "enum", enums_by_nested_name, |e| e.span);
}

/// ENUM_SAME_TYPE: an enum changed between open and closed (proto2 enums are closed, proto3
/// open; editions set it with `features.enum_type`).
pub fn enum_same_type(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.enum_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let was = old.features.enum_type;
        let is = new.features.enum_type;
        if was.value == is.value {
            continue;
        }
        let (was_name, is_name, keep) = match was.value {
            EnumType::Closed => ("closed", "open", "CLOSED"),
            EnumType::Open => ("open", "closed", "OPEN"),
        };
        out.add(
            ctx.new_loc(pair.new.file, is.span.or(Some(new.span))),
            ctx.old_loc(pair.old.file, was.span.or(Some(old.span))),
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
}

/// ENUM_SAME_JSON_FORMAT: the effective `json_format` feature of an enum went from ALLOW to
/// something else.
pub fn enum_same_json_format(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.enum_pairs() {
        report_json_format_loss(ctx, out, pair, ("Enum", "enum"), |e| {
            (&e.features, e.span, &e.name)
        });
    }
}

/// Which reservation makes deleting an enum value acceptable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unless {
    Never,
    NumberReserved,
    NameReserved,
}

/// ENUM_VALUE_NO_DELETE: a number of an enum has no value any more.
pub fn enum_value_no_delete(ctx: &Ctx, out: &mut Sink) {
    check_enum_value_deletions(ctx, out, Unless::Never);
}

/// ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED: as ENUM_VALUE_NO_DELETE, but fine when every
/// old name of that number is reserved.
pub fn enum_value_no_delete_unless_name_reserved(ctx: &Ctx, out: &mut Sink) {
    check_enum_value_deletions(ctx, out, Unless::NameReserved);
}

/// ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED: as ENUM_VALUE_NO_DELETE, but fine when the
/// number is reserved.
pub fn enum_value_no_delete_unless_number_reserved(ctx: &Ctx, out: &mut Sink) {
    check_enum_value_deletions(ctx, out, Unless::NumberReserved);
}

/// Old values grouped by number (aliases share a number), names sorted.
fn values_by_number(e: &Enum) -> BTreeMap<i64, BTreeSet<&str>> {
    let mut out: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
    for v in &e.values {
        out.entry(v.number).or_default().insert(&v.name);
    }
    out
}

fn check_enum_value_deletions(ctx: &Ctx, out: &mut Sink, unless: Unless) {
    for pair in ctx.enum_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let new_numbers = values_by_number(new);
        let reserved = Reservations::of_enum(new);
        let mut first_span: HashMap<i64, Span> = HashMap::new();
        for v in &old.values {
            first_span.entry(v.number).or_insert(v.span);
        }
        for (number, names) in values_by_number(old) {
            if new_numbers.contains_key(&number) {
                continue;
            }
            let names: Vec<&str> = names.into_iter().collect();
            let allowed = match unless {
                Unless::Never => false,
                Unless::NumberReserved => reserved.number(number),
                Unless::NameReserved => names.iter().all(|n| reserved.name(n)),
            };
            if allowed {
                continue;
            }
            let suffix = match unless {
                Unless::Never => String::new(),
                Unless::NumberReserved => format!(" without reserving the number \"{number}\""),
                Unless::NameReserved => format!(
                    " without reserving the name{} {}",
                    if names.len() > 1 { "s" } else { "" },
                    quote_list(&names)
                ),
            };
            let previous = first_span.get(&number).copied().unwrap_or(old.span);
            out.add(
                ctx.new_loc(pair.new.file, Some(new.span)),
                ctx.old_loc(pair.old.file, Some(previous)),
                format!(
                    "Previously present enum value \"{number}\" on enum {} was deleted{suffix}.",
                    quote(&new.name)
                ),
            )
            .help = Some(reserve_value_help(pair, number, &names, unless));
        }
    }
}

/// `reserve it: reserved 3; reserved "FOO";` — only the reservation the rule asks for when it
/// asks for one.
fn reserve_value_help(pair: &Pair<Enum>, number: i64, names: &[&str], unless: Unless) -> String {
    let syntax = &pair.new.file.syntax;
    let names = names
        .iter()
        .map(|n| reserved_name_literal(syntax, n))
        .collect::<Vec<_>>()
        .join(", ");
    let enum_name = &pair.new.item.name;
    match unless {
        Unless::NumberReserved => {
            format!("reserve the number in enum {enum_name}: reserved {number};")
        }
        Unless::NameReserved => format!("reserve the name in enum {enum_name}: reserved {names};"),
        Unless::Never => format!(
            "restore the value, or deprecate it instead of deleting it; if it must go, reserve \
             it in enum {enum_name}: reserved {number}; reserved {names};"
        ),
    }
}

/// ENUM_VALUE_SAME_NAME: a number kept its value but lost a name (for aliases: every old name
/// of the number must still be there; adding aliases is fine).
pub fn enum_value_same_name(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.enum_value_pairs() {
        let old_names: BTreeSet<&str> = pair.old.iter().map(|v| &*v.name).collect();
        let new_names: BTreeSet<&str> = pair.new.iter().map(|v| &*v.name).collect();
        if old_names.is_subset(&new_names) {
            continue;
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
                ctx.new_loc(pair.new_file, Some(value.number_span)),
                previous.and_then(|span| ctx.old_loc(pair.old_file, Some(span))),
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
}

/// RESERVED_ENUM_NO_DELETE: a reserved range of an enum lost numbers, or a reserved name is
/// gone.
pub fn reserved_enum_no_delete(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.enum_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let collapsed = collapse_ranges(new.reserved_ranges.iter().map(|r| (r.start, r.end)));
        for range in &old.reserved_ranges {
            let missing = missing_ranges(range.start, range.end, &collapsed);
            if missing.is_empty() {
                continue;
            }
            let removed = missing
                .iter()
                .map(|&r| range_string(r, ENUM_MAX))
                .collect::<Vec<_>>()
                .join(", ");
            out.add(
                ctx.new_loc(pair.new.file, Some(new.span)),
                ctx.old_loc(pair.old.file, Some(range.span)),
                format!(
                    "Previously present reserved range {} on enum {} is missing values: \
                     {removed} were removed.",
                    quote(&range_string((range.start, range.end), ENUM_MAX)),
                    quote(&new.name)
                ),
            )
            .help = Some(format!(
                "restore `reserved {};` in enum {}",
                reserved_numbers_literal(&missing, ENUM_MAX),
                new.name
            ));
        }
        report_deleted_reserved_names(ctx, out, pair, "enum", |e| {
            (&e.reserved_names, &e.name, e.span)
        });
    }
}
