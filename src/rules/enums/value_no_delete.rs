//! ENUM_VALUE_NO_DELETE and its two variants that accept a deletion when the number, or
//! every name of it, is reserved.

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::Enum;
use crate::rules::pairs::RemovedEnumValue;
use crate::rules::quote::{quote, quote_list};
use crate::rules::reserved::reserved_name_literal;

/// Which reservation makes deleting an enum value acceptable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unless {
    Never,
    NumberReserved,
    NameReserved,
}

/// ENUM_VALUE_NO_DELETE: a number of an enum has no value any more.
pub(in crate::rules) fn check(value: &RemovedEnumValue, out: &mut Sink) {
    report_unless(value, out, Unless::Never);
}

/// ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED: as ENUM_VALUE_NO_DELETE, but fine when every
/// old name of that number is reserved.
pub(in crate::rules) fn unless_name_reserved(value: &RemovedEnumValue, out: &mut Sink) {
    report_unless(value, out, Unless::NameReserved);
}

/// ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED: as ENUM_VALUE_NO_DELETE, but fine when the
/// number is reserved.
pub(in crate::rules) fn unless_number_reserved(value: &RemovedEnumValue, out: &mut Sink) {
    report_unless(value, out, Unless::NumberReserved);
}

fn report_unless(value: &RemovedEnumValue, out: &mut Sink, unless: Unless) {
    let RemovedEnumValue {
        number,
        names,
        old_span,
        enums: pair,
        new_reserved: reserved,
    } = value;
    let number = *number;
    let allowed = match unless {
        Unless::Never => false,
        Unless::NumberReserved => reserved.number(number),
        Unless::NameReserved => names.iter().all(|n| reserved.name(n)),
    };
    if allowed {
        return;
    }
    let suffix = match unless {
        Unless::Never => String::new(),
        Unless::NumberReserved => format!(" without reserving the number \"{number}\""),
        Unless::NameReserved => format!(
            " without reserving the name{} {}",
            if names.len() > 1 { "s" } else { "" },
            quote_list(names)
        ),
    };
    out.add(
        Some(Location::in_file(pair.new.file, Some(pair.new.item.span))),
        Some(Location::in_file(pair.old.file, Some(*old_span))),
        format!(
            "Previously present enum value \"{number}\" on enum {} was deleted{suffix}.",
            quote(&pair.new.item.name)
        ),
    )
    .help = Some(reserve_value_help(pair, number, names, unless));
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
