//! The pair adapters, as buf's: what each kind of rule is shown, and the one loop per kind
//! that shows it. A pair handler judges one matched pair (new side first, as buf's handlers
//! take them); a `Removed*` handler judges an element that only the old side has, inside a
//! matched parent. The pairs come from [`Ctx`]'s pairings, computed once per schema pair.

use std::collections::{BTreeMap, BTreeSet};

// ahash: these sets are built per message pair, and SipHash was a visible part of the rules.
use ahash::{AHashMap as HashMap, AHashSet as HashSet};

use super::field::FieldSide;
use super::reserved::Reservations;
use crate::diff::{Ctx, EnumValuePair, Index, Judged, MethodPair, Pair};
use crate::finding::Sink;
use crate::model::{Enum, File, Message, Method, Oneof, Service, Span};

/// How a rule runs: the elements its handler judges, one call each.
#[derive(Clone, Copy)]
pub enum Check {
    /// Both schemas whole: the package rules, which compare per-package tables built across
    /// files.
    Schemas(fn(&Ctx, &mut Sink)),
    /// A file of the old schema whose path the new schema lacks.
    RemovedFile(fn(&File, &mut Sink)),
    /// A package that no new file declares.
    RemovedPackage(fn(&RemovedPackage, &mut Sink)),
    /// Files matched by path.
    Files(fn(FilePair, &mut Sink)),
    /// Messages matched by full name.
    Messages(fn(&Pair<Message>, &mut Sink)),
    /// A oneof of a matched message that the new message has no oneof of that name for.
    RemovedOneof(fn(&Removed<Oneof, Message>, &mut Sink)),
    /// A field of a matched message that the new message has no field of that number for.
    RemovedField(fn(&RemovedField, &mut Sink)),
    /// Fields matched by number in matched messages, then extensions by extendee and number.
    Fields(fn(&FieldSides, &mut Sink)),
    /// Enums matched by full name.
    Enums(fn(&Pair<Enum>, &mut Sink)),
    /// A number of a matched enum that no new value has.
    RemovedEnumValue(fn(&RemovedEnumValue, &mut Sink)),
    /// Enum values matched by number (aliases together) in matched enums.
    EnumValues(fn(&EnumValuePair, &mut Sink)),
    /// Services matched by full name.
    Services(fn(&Pair<Service>, &mut Sink)),
    /// An RPC of a matched service that the new service has no RPC of that name for.
    RemovedRpc(fn(&Removed<Method, Service>, &mut Sink)),
    /// RPCs matched by name in matched services.
    Rpcs(fn(&MethodPair, &mut Sink)),
}

/// A file present at both sides.
#[derive(Clone, Copy)]
pub struct FilePair<'a> {
    pub new: &'a File,
    pub old: &'a File,
}

/// A package gone from the new schema, with the old files that declared it.
pub struct RemovedPackage<'a> {
    pub name: &'a str,
    pub old_files: &'a [&'a File],
}

/// An element only the old side has, and the matched pair of its parents.
pub struct Removed<'p, 'a, T, P> {
    pub old: &'a T,
    pub parents: &'p Pair<'a, P>,
}

/// Both sides of a matched field, each with its revision's index, new first.
pub struct FieldSides<'c, 'a> {
    pub new: FieldSide<'c, 'a>,
    pub old: FieldSide<'c, 'a>,
}

/// A field deleted from a matched message.
pub struct RemovedField<'c, 'a> {
    /// The deleted field, in the old message and revision.
    pub old: FieldSide<'c, 'a>,
    pub messages: &'c Pair<'a, Message>,
    pub new_index: &'c Index<'a>,
    /// What the new message reserves.
    pub new_reserved: &'c Reservations<'a>,
}

/// A number of a matched enum that lost all its values.
pub struct RemovedEnumValue<'c, 'a> {
    pub number: i64,
    /// Every old name of the number (aliases), sorted.
    pub names: Vec<&'a str>,
    /// The first old value of the number.
    pub old_span: Span,
    pub enums: &'c Pair<'a, Enum>,
    /// What the new enum reserves.
    pub new_reserved: &'c Reservations<'a>,
}

impl Check {
    /// Calls the handler once per element of its kind, in a fixed order (pairs sorted by key,
    /// children in declaration order). Pairs inside unchanged files are not shown: no rule
    /// can find anything there (see `diff::unchanged_files`).
    pub fn run(self, ctx: &Ctx, out: &mut Sink) {
        let judged = ctx.judged();
        match self {
            Check::Schemas(check) => check(ctx, out),
            Check::RemovedFile(check) => removed_files(ctx).for_each(|old| check(old, out)),
            Check::RemovedPackage(check) => {
                for (name, old_files) in &ctx.old_index.packages {
                    if !ctx.new_index.packages.contains_key(*name) {
                        check(&RemovedPackage { name, old_files }, out);
                    }
                }
            }
            Check::Files(check) => {
                for (new, old) in judged.file_pairs() {
                    check(FilePair { new, old }, out);
                }
            }
            Check::Messages(check) => judged.message_pairs().iter().for_each(|p| check(p, out)),
            Check::RemovedOneof(check) => {
                for parents in judged.message_pairs() {
                    let kept = names(parents.new.item.oneofs.iter().map(|o| o.name.as_str()));
                    for old in &parents.old.item.oneofs {
                        if !kept.contains(old.name.as_str()) {
                            check(&Removed { old, parents }, out);
                        }
                    }
                }
            }
            Check::RemovedField(check) => removed_fields(ctx, judged, |field| check(field, out)),
            Check::Fields(check) => {
                for pair in judged.field_pairs() {
                    let sides = FieldSides {
                        new: FieldSide::new(pair.new, &ctx.new_index),
                        old: FieldSide::new(pair.old, &ctx.old_index),
                    };
                    check(&sides, out);
                }
            }
            Check::Enums(check) => judged.enum_pairs().iter().for_each(|p| check(p, out)),
            Check::RemovedEnumValue(check) => {
                removed_enum_values(judged, |value| check(value, out))
            }
            Check::EnumValues(check) => {
                judged.enum_value_pairs().iter().for_each(|p| check(p, out))
            }
            Check::Services(check) => judged.service_pairs().iter().for_each(|p| check(p, out)),
            Check::RemovedRpc(check) => {
                for parents in judged.service_pairs() {
                    let kept = names(parents.new.item.methods.iter().map(|m| m.name.as_str()));
                    for old in &parents.old.item.methods {
                        if !kept.contains(old.name.as_str()) {
                            check(&Removed { old, parents }, out);
                        }
                    }
                }
            }
            Check::Rpcs(check) => judged.method_pairs().iter().for_each(|p| check(p, out)),
        }
    }
}

fn names<'a>(names: impl Iterator<Item = &'a str>) -> HashSet<&'a str> {
    names.collect()
}

fn removed_files<'c, 'a>(ctx: &'c Ctx<'a>) -> impl Iterator<Item = &'a File> + 'c {
    ctx.old
        .files
        .iter()
        .filter(|(path, _)| !ctx.new.files.contains_key(*path))
        .map(|(_, old)| &**old)
}

fn removed_fields(ctx: &Ctx, judged: Judged, mut check: impl FnMut(&RemovedField)) {
    for messages in judged.message_pairs() {
        let (new, old) = (messages.new.item, messages.old.item);
        let removed = crate::diff::missing_from(&old.fields, &new.fields, |f| f.number);
        if removed.is_empty() {
            continue;
        }
        let new_reserved = Reservations::of_message(new);
        for field in removed {
            let at = crate::diff::FieldIn {
                file: messages.old.file,
                message: Some(old),
                field,
            };
            check(&RemovedField {
                old: FieldSide::new(at, &ctx.old_index),
                messages,
                new_index: &ctx.new_index,
                new_reserved: &new_reserved,
            });
        }
    }
}

fn removed_enum_values(judged: Judged, mut check: impl FnMut(&RemovedEnumValue)) {
    for enums in judged.enum_pairs() {
        let (new, old) = (enums.new.item, enums.old.item);
        let new_numbers = values_by_number(new);
        let new_reserved = Reservations::of_enum(new);
        let mut first_span: HashMap<i64, Span> = HashMap::new();
        for v in &old.values {
            first_span.entry(v.number).or_insert(v.span);
        }
        for (number, names) in values_by_number(old) {
            if new_numbers.contains_key(&number) {
                continue;
            }
            check(&RemovedEnumValue {
                number,
                names: names.into_iter().collect(),
                old_span: first_span.get(&number).copied().unwrap_or(old.span),
                enums,
                new_reserved: &new_reserved,
            });
        }
    }
}

/// Values grouped by number (aliases share a number), names sorted.
fn values_by_number(e: &Enum) -> BTreeMap<i64, BTreeSet<&str>> {
    let mut out: BTreeMap<i64, BTreeSet<&str>> = BTreeMap::new();
    for v in &e.values {
        out.entry(v.number).or_default().insert(&v.name);
    }
    out
}
