//! `--fix`: reserve the numbers and names of deleted fields and enum values.
//!
//! Three steps, kept apart:
//! 1. the deletion rules report *what* was deleted (their findings, located on the message or
//!    enum of the new revision that lost the field or value);
//! 2. [`attach_edits`] turns those findings into text edits ([`Finding::edits`]) computed from
//!    the new revision's model: which numbers and names are still unreserved, where the
//!    element's `reserved` statements and body are ([`reserve`]);
//! 3. [`plan_files`] groups the edits by file, sorts them, refuses overlapping ones and
//!    produces the new texts, which the CLI writes or shows as a unified diff.
//!
//! All deletion findings of one element carry the same edits (they are one fix: one
//! `reserved` statement per kind); applying them deduplicates identical edits.

mod apply;
mod reserve;

use std::collections::{BTreeMap, BTreeSet};

use ahash::AHashSet as HashSet;
use std::sync::Arc;

use crate::diff::Diff;
use crate::finding::{Edit, Finding};
use crate::model::ranges::NumberSet;
use crate::model::{Enum, Message, ReservedName, ReservedRange, Span};
use crate::rules::reserved::Reservations;

pub use apply::{apply_edits, plan_files, unified_diff, write_files, FileFix};

/// Rules whose findings `--fix` acts on: field deletions, then enum value deletions. Each
/// triple is (any deletion, deletion unless the name is reserved, unless the number is).
const FIELD_RULES: [&str; 3] = [
    crate::rules::RuleId::FieldNoDelete.as_str(),
    crate::rules::RuleId::FieldNoDeleteUnlessNameReserved.as_str(),
    crate::rules::RuleId::FieldNoDeleteUnlessNumberReserved.as_str(),
];
const ENUM_VALUE_RULES: [&str; 3] = [
    crate::rules::RuleId::EnumValueNoDelete.as_str(),
    crate::rules::RuleId::EnumValueNoDeleteUnlessNameReserved.as_str(),
    crate::rules::RuleId::EnumValueNoDeleteUnlessNumberReserved.as_str(),
];

/// Whether `--fix` can act on findings of this rule.
pub fn is_fixable(rule: &str) -> bool {
    FIELD_RULES.contains(&rule) || ENUM_VALUE_RULES.contains(&rule)
}

/// What one message or enum must newly reserve.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub numbers: BTreeSet<i64>,
    pub names: BTreeSet<String>,
}

impl Wanted {
    fn is_empty(&self) -> bool {
        self.numbers.is_empty() && self.names.is_empty()
    }
}

/// Which of the three deletion rules reported deletions on one element (not ignored).
/// A rule reports every deletion of the element that its condition covers, so knowing
/// which rules spoke on the element tells exactly which deletions were reported.
#[derive(Debug, Default)]
struct Reported {
    any: bool,
    unless_name: bool,
    unless_number: bool,
}

impl Reported {
    fn from_rules<'a>(rules: impl Iterator<Item = &'a str>, family: &[&str; 3]) -> Self {
        let mut out = Reported::default();
        for rule in rules {
            out.any |= rule == family[0];
            out.unless_name |= rule == family[1];
            out.unless_number |= rule == family[2];
        }
        out
    }

    fn covers(&self, number_reserved: bool, names_reserved: bool) -> bool {
        self.any
            || (self.unless_name && !names_reserved)
            || (self.unless_number && !number_reserved)
    }
}

/// The syntactic facts about a message or enum body that edits need.
pub(crate) struct Body<'a> {
    /// The whole declaration.
    pub span: Span,
    /// Where to start looking for the opening `{` (the end of the name).
    pub after_name: u32,
    pub ranges: &'a [ReservedRange],
    pub names: &'a [ReservedName],
}

impl<'a> Body<'a> {
    fn of_message(m: &'a Message) -> Self {
        Body {
            span: m.span,
            after_name: m.name_span.end,
            ranges: &m.reserved_ranges,
            names: &m.reserved_names,
        }
    }
    fn of_enum(e: &'a Enum) -> Self {
        Body {
            span: e.span,
            after_name: e.name_span.end,
            ranges: &e.reserved_ranges,
            names: &e.reserved_names,
        }
    }
}

/// Sets [`Finding::edits`] on every deletion finding that a `reserved` statement fixes.
/// `findings` are those still reported (ignored ones already removed), with paths as in the
/// schemas; `edit_path` names each edited file as the user sees it.
pub fn attach_edits(ctx: &Diff, findings: &mut [Finding], edit_path: &dyn Fn(&str) -> String) {
    let mut by_element: BTreeMap<(&str, Span), Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if let (true, Some(loc)) = (is_fixable(f.rule), &f.location) {
            if let Some(span) = loc.span {
                by_element.entry((&loc.path, span)).or_default().push(i);
            }
        }
    }
    if by_element.is_empty() {
        return;
    }
    let mut planned: Vec<(Vec<usize>, Arc<[Edit]>)> = Vec::new();
    let shared = |mut edits: Vec<Edit>| -> Arc<[Edit]> {
        for edit in &mut edits {
            edit.path = edit_path(&edit.path);
        }
        edits.into()
    };
    for pair in ctx.message_pairs() {
        let (new_msg, file) = (pair.new.item, pair.new.file);
        let Some(indices) = by_element.get(&(file.path.as_str(), new_msg.span)) else {
            continue;
        };
        let reported =
            Reported::from_rules(indices.iter().map(|&i| findings[i].rule), &FIELD_RULES);
        let wanted = deleted_fields(pair.old.item, new_msg, &reported);
        let edits = reserve::edits(file, &Body::of_message(new_msg), &wanted);
        planned.push((indices.clone(), shared(edits)));
    }
    for pair in ctx.enum_pairs() {
        let (new_enum, file) = (pair.new.item, pair.new.file);
        let Some(indices) = by_element.get(&(file.path.as_str(), new_enum.span)) else {
            continue;
        };
        let reported =
            Reported::from_rules(indices.iter().map(|&i| findings[i].rule), &ENUM_VALUE_RULES);
        let wanted = deleted_values(pair.old.item, new_enum, &reported);
        let edits = reserve::edits(file, &Body::of_enum(new_enum), &wanted);
        planned.push((indices.clone(), shared(edits)));
    }
    for (indices, edits) in planned {
        for i in indices {
            let family = if FIELD_RULES.contains(&findings[i].rule) {
                &FIELD_RULES
            } else {
                &ENUM_VALUE_RULES
            };
            // Only the family that matches the element kind: a message and an enum never
            // share a span, but a rule of the other family must not borrow these edits.
            if family.iter().any(|r| *r == findings[i].rule) {
                findings[i].edits = Arc::clone(&edits);
            }
        }
    }
}

/// The numbers and names of reported deleted fields that the new message does not reserve
/// yet. A name still used by a field, or a number inside an extension range, cannot be
/// reserved (protoc would reject the file), so it is left out.
fn deleted_fields(old: &Message, new: &Message, reported: &Reported) -> Wanted {
    let mut wanted = Wanted::default();
    let numbers: HashSet<i64> = new.fields.iter().map(|f| f.number).collect();
    let names: HashSet<&str> = new.fields.iter().map(|f| f.name.as_str()).collect();
    let reserved = Reservations::of_message(new);
    let extensions = NumberSet::of(&new.extension_ranges);
    for field in &old.fields {
        if numbers.contains(&field.number) {
            continue;
        }
        let has_number = reserved.number(field.number);
        let has_name = reserved.name(&field.name);
        if !reported.covers(has_number, has_name) {
            continue;
        }
        if !has_number && !extensions.contains(field.number) {
            wanted.numbers.insert(field.number);
        }
        if !has_name && !names.contains(field.name.as_str()) {
            wanted.names.insert(field.name.clone());
        }
    }
    wanted
}

/// As [`deleted_fields`] for enum values; aliases share a number, so all names of a deleted
/// number are reserved with it.
fn deleted_values(old: &Enum, new: &Enum, reported: &Reported) -> Wanted {
    let mut by_number: BTreeMap<i64, Vec<&str>> = BTreeMap::new();
    for v in &old.values {
        by_number.entry(v.number).or_default().push(&v.name);
    }
    let mut wanted = Wanted::default();
    let numbers: HashSet<i64> = new.values.iter().map(|v| v.number).collect();
    let in_use: HashSet<&str> = new.values.iter().map(|v| v.name.as_str()).collect();
    let reserved = Reservations::of_enum(new);
    for (number, names) in by_number {
        if numbers.contains(&number) {
            continue;
        }
        let has_number = reserved.number(number);
        let has_names = names.iter().all(|n| reserved.name(n));
        if !reported.covers(has_number, has_names) {
            continue;
        }
        if !has_number {
            wanted.numbers.insert(number);
        }
        for name in names {
            let free = !reserved.name(name) && !in_use.contains(name);
            if free {
                wanted.names.insert(name.to_string());
            }
        }
    }
    wanted
}

/// What `audit --fix` does to one message or enum: the edits, and which of the requested
/// numbers and names are settled once they apply (reserved, newly or already; a name also
/// when a member still uses it).
#[derive(Debug, Default)]
pub struct ElementFix {
    pub edits: Vec<Edit>,
    pub numbers: BTreeSet<i64>,
    pub names: BTreeSet<String>,
}

/// `audit --fix`: the edits that reserve `numbers` and `names` in the message or enum
/// `full_name` of `file`, leaving out what it already reserves and what protoc would reject
/// (a number or name still in use, a field number inside an extension range). `None` when
/// the file declares no such element.
pub fn reserve_in(
    file: &crate::model::File,
    full_name: &str,
    numbers: &BTreeSet<i64>,
    names: &BTreeSet<String>,
) -> Option<ElementFix> {
    // (body, reservations, numbers and names in use, numbers in extension ranges)
    let (body, reserved, used_numbers, used_names, extensions) =
        match find_message(&file.messages, full_name) {
            Some(m) => (
                Body::of_message(m),
                Reservations::of_message(m),
                m.fields.iter().map(|f| f.number).collect::<HashSet<i64>>(),
                m.fields
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<HashSet<&str>>(),
                NumberSet::of(&m.extension_ranges),
            ),
            None => {
                let e = find_enum(file, full_name)?;
                (
                    Body::of_enum(e),
                    Reservations::of_enum(e),
                    e.values.iter().map(|v| v.number).collect(),
                    e.values.iter().map(|v| v.name.as_str()).collect(),
                    NumberSet::of(&[]),
                )
            }
        };
    let free_number = |n: i64| !used_numbers.contains(&n) && !extensions.contains(n);
    let free_name = |n: &str| !used_names.contains(n);
    let mut fix = ElementFix::default();
    let mut wanted = Wanted::default();
    for &n in numbers {
        if reserved.number(n) {
            fix.numbers.insert(n);
        } else if free_number(n) {
            wanted.numbers.insert(n);
            fix.numbers.insert(n);
        }
    }
    for n in names {
        // A name still in use cannot be reserved, and a reader of the old name meets the
        // live field: settled either way.
        if reserved.name(n) || !free_name(n) {
            fix.names.insert(n.clone());
        } else {
            wanted.names.insert(n.clone());
            fix.names.insert(n.clone());
        }
    }
    fix.edits = reserve::edits(file, &body, &wanted);
    Some(fix)
}

fn find_message<'a>(messages: &'a [Message], full_name: &str) -> Option<&'a Message> {
    messages.iter().find_map(|m| {
        if m.full_name == full_name {
            Some(m)
        } else {
            find_message(&m.messages, full_name)
        }
    })
}

fn find_enum<'a>(file: &'a crate::model::File, full_name: &str) -> Option<&'a Enum> {
    fn in_messages<'a>(messages: &'a [Message], full_name: &str) -> Option<&'a Enum> {
        messages.iter().find_map(|m| {
            m.enums
                .iter()
                .find(|e| e.full_name == full_name)
                .or_else(|| in_messages(&m.messages, full_name))
        })
    }
    file.enums
        .iter()
        .find(|e| e.full_name == full_name)
        .or_else(|| in_messages(&file.messages, full_name))
}

#[cfg(test)]
mod tests;
