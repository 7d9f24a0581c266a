//! One root cause, one diagnostic: recognises edits that make several rules fire at once (a
//! field or message renamed, a type moved to another file, a file deleted) and gives the
//! findings they caused a shared group key. Renderers that want one diagnostic per cause
//! (the text format) use the key and the [`Group`]'s title; the JSON keeps every finding.
//!
//! Grouping never adds or drops a finding; it only labels them.

use std::collections::{BTreeMap, BTreeSet};

// ahash rather than std's SipHash: the maps here are keyed by names and spans of whole
// schemas, and nothing in them comes from a network peer.
use ahash::{AHashMap as HashMap, AHashSet as HashSet};
use rayon::prelude::*;

use crate::diff::{missing_from, Diff, FieldPair, Index, Pair};
use crate::finding::{Finding, Location};
use crate::model::{Enum, File, Message, Service, Span};
use crate::rules::reserved::reserved_name_literal;

/// A recognised root cause.
#[derive(Debug, Clone)]
pub struct Group {
    /// Stable key, e.g. `field-renamed:acme.v1.Order:5`.
    pub key: String,
    /// The cause in words: "field `discount` (5) on `Order` was renamed to `rebate`".
    pub title: String,
    /// What to do about the cause as a whole.
    pub help: String,
    /// Where the cause shows in the new revision (None: gone from it).
    pub location: Option<Location>,
    /// Where it was in the old revision.
    pub previous: Option<Location>,
    /// How many findings carry this key.
    pub members: usize,
}

/// A part of one side that a cause covers: findings of `rules` (all rules when empty) whose
/// location on that side matches it belong to the cause.
struct Region {
    old_side: bool,
    path: String,
    /// None: the whole file.
    span: Option<Span>,
    matching: Match,
    rules: &'static [&'static str],
}

/// How a finding's span must relate to a region's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Match {
    /// Inside it.
    Within,
    /// Equal to it: a deleted type is reported at its own span; a type nested in it is a
    /// different element.
    Exact,
    /// The finding's focus equals it: deletions of several fields of one message share their
    /// location (the message); the focus is the field.
    Focus,
}

struct Candidate {
    group: Group,
    regions: Vec<Region>,
}

const RENAME_RULES: &[&str] = &[
    crate::rules::RuleId::FieldSameName.as_str(),
    crate::rules::RuleId::FieldSameJsonName.as_str(),
];
const ONEOF_RULES: &[&str] = &[
    crate::rules::RuleId::FieldSameOneof.as_str(),
    crate::rules::RuleId::FieldSameCardinality.as_str(),
];
const TYPE_CHANGE_RULES: &[&str] = &[
    crate::rules::RuleId::FieldSameType.as_str(),
    crate::rules::RuleId::FieldWireCompatibleType.as_str(),
    crate::rules::RuleId::FieldWireJsonCompatibleType.as_str(),
    crate::rules::RuleId::RpcSameRequestType.as_str(),
    crate::rules::RuleId::RpcSameResponseType.as_str(),
];
const TYPE_DELETE_RULES: &[&str] = &[
    crate::rules::RuleId::MessageNoDelete.as_str(),
    crate::rules::RuleId::PackageMessageNoDelete.as_str(),
    crate::rules::RuleId::EnumNoDelete.as_str(),
    crate::rules::RuleId::PackageEnumNoDelete.as_str(),
    crate::rules::RuleId::ServiceNoDelete.as_str(),
    crate::rules::RuleId::PackageServiceNoDelete.as_str(),
];
const ANY_RULE: &[&str] = &[];
const FIELD_DELETE_RULES: &[&str] = &[
    crate::rules::RuleId::FieldNoDelete.as_str(),
    crate::rules::RuleId::FieldNoDeleteUnlessNameReserved.as_str(),
    crate::rules::RuleId::FieldNoDeleteUnlessNumberReserved.as_str(),
];
const ENUM_VALUE_DELETE_RULES: &[&str] = &[
    crate::rules::RuleId::EnumValueNoDelete.as_str(),
    crate::rules::RuleId::EnumValueNoDeleteUnlessNameReserved.as_str(),
    crate::rules::RuleId::EnumValueNoDeleteUnlessNumberReserved.as_str(),
];

/// Labels `findings` with group keys and returns the groups found (each with at least one
/// member; renderers treat a group of one as a plain finding with a note).
pub fn assign(findings: &mut [Finding], ctx: &Diff) -> Vec<Group> {
    assign_causes(findings, causes(ctx))
}

/// Every cause the diff shows, whatever the findings: what [`assign_causes`] labels
/// findings with. It reads only the diff, so it can be built while the rules run.
pub struct Causes(Vec<Candidate>);

/// The causes of a diff, each kind found on its own thread; kept in a fixed order (the first
/// cause in that order wins a finding).
pub fn causes(ctx: &Diff) -> Causes {
    type Finder = fn(&Diff) -> Vec<Candidate>;
    const FINDERS: [Finder; 7] = [
        field_renames,
        oneof_moves,
        type_renames,
        type_moves,
        field_deletions,
        enum_value_deletions,
        file_deletions,
    ];
    Causes(FINDERS.par_iter().flat_map_iter(|find| find(ctx)).collect())
}

/// [`assign`] with causes already found.
pub fn assign_causes(findings: &mut [Finding], causes: Causes) -> Vec<Group> {
    let candidates = causes.0;
    let index = RegionIndex::new(&candidates);
    let mut members: BTreeMap<usize, usize> = BTreeMap::new();
    for finding in findings.iter_mut() {
        if let Some(i) = index.first_cause(finding) {
            finding.group = Some(candidates[i].group.key.clone());
            *members.entry(i).or_default() += 1;
        }
    }
    members
        .into_iter()
        .map(|(i, n)| {
            let mut group = candidates[i].group.clone();
            group.members = n;
            group
        })
        .collect()
}

/// The regions of every candidate, indexed so that finding a finding's cause costs a few
/// lookups, not a scan: a message that lost 50,000 fields has 50,000 regions at one span.
#[derive(Default)]
struct RegionIndex<'a> {
    by_file: HashMap<(bool, &'a str), FileRegions<'a>>,
}

/// One side's regions in one file, by how they match a finding's span. Each entry carries its
/// candidate's index: the first cause in candidate order wins.
#[derive(Default)]
struct FileRegions<'a> {
    whole_file: Vec<(usize, &'a Region)>,
    exact: HashMap<Span, Vec<(usize, &'a Region)>>,
    focused: HashMap<Span, Vec<(usize, &'a Region)>>,
    /// Regions containing the finding's span, sorted by start, with the largest end among
    /// each entry and those before it (to stop scanning backwards once nothing can contain).
    containing: Vec<(Span, usize, &'a Region)>,
    max_end: Vec<u32>,
}

impl<'a> RegionIndex<'a> {
    fn new(candidates: &'a [Candidate]) -> Self {
        let mut index = RegionIndex::default();
        for (i, c) in candidates.iter().enumerate() {
            for r in &c.regions {
                let file = index.by_file.entry((r.old_side, &r.path)).or_default();
                match (r.span, r.matching) {
                    (None, _) => file.whole_file.push((i, r)),
                    (Some(span), Match::Exact) => file.exact.entry(span).or_default().push((i, r)),
                    (Some(span), Match::Focus) => {
                        file.focused.entry(span).or_default().push((i, r))
                    }
                    (Some(span), Match::Within) => file.containing.push((span, i, r)),
                }
            }
        }
        for file in index.by_file.values_mut() {
            file.containing.sort_by_key(|(span, i, _)| (span.start, *i));
            let mut max = 0;
            file.max_end = file
                .containing
                .iter()
                .map(|(span, _, _)| {
                    max = max.max(span.end);
                    max
                })
                .collect();
        }
        index
    }

    /// The first candidate (in candidate order) with a region covering the finding on
    /// either side.
    fn first_cause(&self, finding: &Finding) -> Option<usize> {
        let sides = [(false, &finding.location), (true, &finding.previous)];
        sides
            .iter()
            .filter_map(|(old_side, at)| {
                let at = at.as_ref()?;
                let file = self.by_file.get(&(*old_side, at.path.as_str()))?;
                file.first_cause(finding, at.span)
            })
            .min()
    }
}

impl FileRegions<'_> {
    fn first_cause(&self, finding: &Finding, span: Option<Span>) -> Option<usize> {
        let covering = |list: &[(usize, &Region)]| {
            list.iter()
                .filter(|(_, r)| r.covers(finding))
                .map(|(i, _)| *i)
                .min()
        };
        let mut best = covering(&self.whole_file);
        let mut take = |i: Option<usize>| {
            if let Some(i) = i {
                best = Some(best.map_or(i, |b| b.min(i)));
            }
        };
        if let Some(focus) = finding.focus {
            take(self.focused.get(&focus).and_then(|list| covering(list)));
        }
        let Some(span) = span else { return best };
        take(self.exact.get(&span).and_then(|list| covering(list)));
        take(self.containing_cause(finding, span));
        best
    }

    fn containing_cause(&self, finding: &Finding, span: Span) -> Option<usize> {
        let starts_before = self
            .containing
            .partition_point(|(s, _, _)| s.start <= span.start);
        let mut best: Option<usize> = None;
        for k in (0..starts_before).rev() {
            if self.max_end[k] < span.end {
                break;
            }
            let (_, i, region) = self.containing[k];
            if region.covers(finding) {
                best = Some(best.map_or(i, |b| b.min(i)));
            }
        }
        best
    }
}

impl Region {
    fn copy(&self) -> Region {
        Region {
            old_side: self.old_side,
            path: self.path.clone(),
            span: self.span,
            matching: self.matching,
            rules: self.rules,
        }
    }

    fn covers(&self, f: &Finding) -> bool {
        if !self.rules.is_empty() && !self.rules.contains(&f.rule) {
            return false;
        }
        let at = if self.old_side {
            f.previous.as_ref()
        } else {
            f.location.as_ref()
        };
        let Some(at) = at else { return false };
        if at.path != self.path {
            return false;
        }
        // The focus is an old-side span; only old-side regions match on it.
        let inner = match self.matching {
            Match::Focus => f.focus.filter(|_| self.old_side),
            _ => at.span,
        };
        match (self.span, inner) {
            (None, _) => true,
            (Some(outer), Some(inner)) if self.matching == Match::Within => {
                outer.start <= inner.start && inner.end <= outer.end
            }
            (Some(outer), Some(inner)) => outer == inner,
            (Some(_), None) => false,
        }
    }
}

/// `Order.Item` for `acme.v1.Order.Item` in package `acme.v1`.
fn relative<'a>(full_name: &'a str, package: &str) -> &'a str {
    if package.is_empty() {
        return full_name;
    }
    full_name
        .strip_prefix(package)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or(full_name)
}

fn loc(file: &File, span: Span) -> Option<Location> {
    Some(Location::in_file(file, Some(span)))
}

/// A field moved into, out of or between (real) oneofs: FIELD_SAME_ONEOF fires, and
/// FIELD_SAME_CARDINALITY too when its presence changed with it.
fn oneof_moves(ctx: &Diff) -> Vec<Candidate> {
    let mut out = Vec::new();
    for pair in ctx.field_pairs() {
        let (Some(new_msg), Some(old_msg)) = (pair.new.message, pair.old.message) else {
            continue;
        };
        let (new, old) = (pair.new.field, pair.old.field);
        let real =
            |o: Option<&crate::model::Oneof>| o.filter(|o| !o.synthetic).map(|o| o.name.clone());
        let (was, now) = (real(old.oneof(old_msg)), real(new.oneof(new_msg)));
        let movement = match (&was, &now) {
            (None, Some(n)) => format!("moved into oneof `{n}`"),
            (Some(w), None) => format!("moved out of oneof `{w}`"),
            (Some(w), Some(n)) if w != n => format!("moved from oneof `{w}` to oneof `{n}`"),
            _ => continue,
        };
        let package = &pair.new.file.package;
        out.push(Candidate {
            group: Group {
                key: format!("field-oneof:{}:{}", new_msg.full_name, new.number),
                title: format!(
                    "field `{}` ({}) on `{}` {movement}",
                    new.name,
                    new.number,
                    relative(&new_msg.full_name, package)
                ),
                help: format!(
                    "setting one member of a oneof clears the others, and oneof members always \
                     track presence, so old and new code disagree on what `{name}` holds: move \
                     it back. To offer a new choice, add a new field with a new number inside \
                     the oneof",
                    name = new.name
                ),
                location: loc(pair.new.file, new.span),
                previous: loc(pair.old.file, old.span),
                members: 0,
            },
            regions: vec![inside_new_field(pair, ONEOF_RULES)],
        });
    }
    out
}

/// Findings of `rules` located inside the new side of a field pair.
fn inside_new_field(pair: &FieldPair, rules: &'static [&'static str]) -> Region {
    Region {
        old_side: false,
        path: pair.new.file.path.clone(),
        span: Some(pair.new.field.span),
        matching: Match::Within,
        rules,
    }
}

/// What differs between a deleted field and a deleted enum value: the words, the rules, and
/// how their findings point at them.
struct NumberedElement {
    key: &'static str,
    noun: &'static str,
    container: &'static str,
    restore: &'static str,
    rules: &'static [&'static str],
    matching: Match,
}

const DELETED_FIELD: NumberedElement = NumberedElement {
    key: "field-deleted",
    noun: "field",
    container: "message",
    restore: "field",
    rules: FIELD_DELETE_RULES,
    matching: Match::Focus,
};

const DELETED_ENUM_VALUE: NumberedElement = NumberedElement {
    key: "enum-value-deleted",
    noun: "enum value",
    container: "enum",
    restore: "value",
    rules: ENUM_VALUE_DELETE_RULES,
    matching: Match::Exact,
};

/// The cause "a numbered element was deleted" from its old parent (full name, and `owner`:
/// the name relative to the package); `reserved_name` is its name as a `reserved` statement
/// writes it.
fn deleted_number_group(
    what: &NumberedElement,
    (full_name, owner): (&str, &str),
    (name, number): (&str, i64),
    reserved_name: &str,
    previous: Option<Location>,
) -> Group {
    Group {
        key: format!("{}:{full_name}:{number}", what.key),
        title: format!(
            "{} `{name}` ({number}) was deleted from `{owner}`",
            what.noun
        ),
        help: format!(
            "reserve its number and name in {} `{owner}` so neither is ever \
             reused: `reserved {number}; reserved {reserved_name};` (`protocompat check --fix` \
             adds them), or restore the {}",
            what.container, what.restore
        ),
        location: None,
        previous,
        members: 0,
    }
}

/// A field deleted from a message: FIELD_NO_DELETE and its `_UNLESS_..._RESERVED` variants
/// report it once each, at the message, with the field as their focus.
fn field_deletions(ctx: &Diff) -> Vec<Candidate> {
    let mut out = Vec::new();
    for pair in ctx.message_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        if old.is_map_entry {
            continue;
        }
        for field in missing_from(&old.fields, &new.fields, |f| f.number) {
            let element = (field.name.as_str(), field.number, field.span);
            out.push(deletion(&DELETED_FIELD, pair, &old.full_name, element));
        }
    }
    out
}

/// An enum value (number) deleted: ENUM_VALUE_NO_DELETE and its variants report it once
/// each, at the value.
fn enum_value_deletions(ctx: &Diff) -> Vec<Candidate> {
    let mut out = Vec::new();
    for pair in ctx.enum_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let new_numbers: HashSet<i64> = new.values.iter().map(|v| v.number).collect();
        let mut seen = HashSet::new();
        for value in &old.values {
            if !seen.insert(value.number) || new_numbers.contains(&value.number) {
                continue;
            }
            let element = (value.name.as_str(), value.number, value.span);
            out.push(deletion(&DELETED_ENUM_VALUE, pair, &old.full_name, element));
        }
    }
    out
}

/// The cause "`element` (name, number, old span) was deleted from the old side of `pair`".
fn deletion<T>(
    what: &NumberedElement,
    pair: &Pair<T>,
    owner: &str,
    (name, number, span): (&str, i64, Span),
) -> Candidate {
    let file = pair.old.file;
    Candidate {
        group: deleted_number_group(
            what,
            (owner, relative(owner, &file.package)),
            (name, number),
            &reserved_name_literal(&pair.new.file.syntax, name),
            loc(file, span),
        ),
        regions: vec![Region {
            old_side: true,
            path: file.path.clone(),
            span: Some(span),
            matching: what.matching,
            rules: what.rules,
        }],
    }
}

/// A field (or extension) kept its number but changed its name: FIELD_SAME_NAME and
/// FIELD_SAME_JSON_NAME both fire on it.
fn field_renames(ctx: &Diff) -> Vec<Candidate> {
    let mut out = Vec::new();
    for pair in ctx.field_pairs() {
        let (new, old) = (pair.new.field, pair.old.field);
        if new.name == old.name {
            continue;
        }
        let package = &pair.new.file.package;
        let (key, owner) = match (pair.new.message, new.extendee()) {
            (Some(m), None) => (
                format!("field-renamed:{}:{}", m.full_name, new.number),
                format!(
                    "field `{}` ({}) on `{}`",
                    old.name,
                    old.number,
                    relative(&m.full_name, package)
                ),
            ),
            (_, extendee) => {
                let extendee = extendee.unwrap_or_default();
                (
                    format!("extension-renamed:{extendee}:{}", new.number),
                    format!("extension `{}` ({}) of `{extendee}`", old.name, old.number),
                )
            }
        };
        let title = format!("{owner} was renamed to `{}`", new.name);
        let help = format!(
            "the wire format only uses the number, but JSON clients, text format and generated \
             code use the name: rename it back to `{old}`. To change the name anyway, add \
             `{new}` as a new field with a new number, mark `{old}` `[deprecated = true]`, and \
             remove it (reserving its number and name) once no reader uses it",
            old = old.name,
            new = new.name
        );
        out.push(Candidate {
            group: Group {
                key,
                title,
                help,
                location: loc(pair.new.file, new.name_span),
                previous: loc(pair.old.file, old.name_span),
                members: 0,
            },
            regions: vec![inside_new_field(pair, RENAME_RULES)],
        });
    }
    out
}

/// What a message or enum is made of, to recognise it under another name.
/// Types nested in the message itself are written relative to it, so that `Foo.Inner`
/// and `Bar.Inner` match when `Foo` becomes `Bar`.
fn message_signature(m: &Message) -> Vec<String> {
    let own = format!("{}.", m.full_name);
    let mut sig: Vec<String> = m
        .fields
        .iter()
        .map(|f| {
            let type_name = f.type_name.as_deref().unwrap_or_default();
            let type_name = match type_name.strip_prefix(own.as_str()) {
                Some(inner) => format!("Self.{inner}"),
                None => type_name.to_string(),
            };
            format!(
                "{} {} {} {type_name}",
                f.number,
                f.label.name(),
                f.ty.name()
            )
        })
        .collect();
    sig.sort();
    sig
}

fn enum_signature(e: &Enum) -> Vec<String> {
    let mut sig: Vec<String> = e
        .values
        .iter()
        .map(|v| format!("{} {}", v.number, v.name))
        .collect();
    sig.sort();
    sig
}

/// One named type on one side, for rename and move detection.
struct Named<'a> {
    kind: &'static str,
    full_name: &'a str,
    file: &'a File,
    name_span: Span,
    signature: Vec<String>,
}

/// The messages and enums of one side that the other side does not have (by full name): only
/// those can be renamed, so only their signatures are computed.
fn named_types<'a>(index: &'a Index<'a>, other: &Index) -> Vec<Named<'a>> {
    let mut out = Vec::new();
    for (&name, m) in &index.messages {
        if m.item.is_map_entry || m.item.is_group || known(other, name) {
            continue;
        }
        out.push(Named {
            kind: "message",
            full_name: name,
            file: m.file,
            name_span: m.item.name_span,
            signature: match has_package(other, m.file) {
                true => message_signature(m.item),
                false => Vec::new(),
            },
        });
    }
    for (&name, e) in &index.enums {
        if known(other, name) {
            continue;
        }
        out.push(Named {
            kind: "enum",
            full_name: name,
            file: e.file,
            name_span: e.item.name_span,
            signature: match has_package(other, e.file) {
                true => enum_signature(e.item),
                false => Vec::new(),
            },
        });
    }
    out
}

/// Whether the other side has the package of `file` at all. A rename keeps the package
/// ([`matched_renames`] pairs types of one package), so a type whose package the other side
/// lacks is never matched: its signature (a string per field) is left empty, which no
/// match takes, as for a type without fields. Whole packages come and go in large trees
/// (googleapis' `v22` to `v25`), and their types were most of the signatures built.
fn has_package(other: &Index, file: &File) -> bool {
    other.packages.contains_key(file.package.as_str())
}

fn known(index: &Index, name: &str) -> bool {
    index.messages.contains_key(name) || index.enums.contains_key(name)
}

/// A message or enum that disappeared while another with the same package, kind and
/// contents (numbers, labels, types; enum value names) appeared: a rename. Its deletion
/// findings and the type changes of fields and RPCs that followed it form one cause.
fn type_renames(ctx: &Diff) -> Vec<Candidate> {
    let ((old_types, new_types), followers) = rayon::join(
        || {
            rayon::join(
                || named_types(&ctx.old_index, &ctx.new_index),
                || named_types(&ctx.new_index, &ctx.old_index),
            )
        },
        || type_followers(ctx),
    );
    matched_renames(&old_types, &new_types)
        .into_iter()
        .map(|(old, new)| rename_candidate(ctx, old, new, &followers))
        .collect()
}

/// A message or enum renamed, as the cause grouping recognises it (types nested in a renamed
/// message are left out: they were renamed with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRename {
    /// `message` or `enum`.
    pub kind: &'static str,
    pub old: String,
    pub new: String,
}

/// The renamed messages and enums of a diff (what `review` lists as one renamed change).
pub fn renamed_types(ctx: &Diff) -> Vec<TypeRename> {
    let old_types = named_types(&ctx.old_index, &ctx.new_index);
    let new_types = named_types(&ctx.new_index, &ctx.old_index);
    matched_renames(&old_types, &new_types)
        .into_iter()
        .map(|(old, new)| TypeRename {
            kind: old.kind,
            old: old.full_name.to_string(),
            new: new.full_name.to_string(),
        })
        .collect()
}

/// Each old-only type paired with the new-only type of the same kind, package and contents
/// (one in the same file first).
fn matched_renames<'n>(
    old_types: &'n [Named<'n>],
    new_types: &'n [Named<'n>],
) -> Vec<(&'n Named<'n>, &'n Named<'n>)> {
    // New-only types by what they are made of, for linear matching.
    let mut appeared: HashMap<(&str, &str, &[String]), Appeared> = HashMap::new();
    for t in new_types {
        appeared
            .entry((t.kind, t.file.package.as_str(), t.signature.as_slice()))
            .or_default()
            .add(t);
    }
    for list in appeared.values_mut() {
        list.sort();
    }
    let mut taken: HashSet<&str> = HashSet::new();
    let mut renamed: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for old in old_types.iter().filter(|t| !t.signature.is_empty()) {
        // Types nested in a renamed message were renamed with it: one cause.
        let inside_renamed = parents(old.full_name).any(|p| renamed.contains(p));
        if inside_renamed {
            continue;
        }
        let key = (
            old.kind,
            old.file.package.as_str(),
            old.signature.as_slice(),
        );
        let found = appeared
            .get_mut(&key)
            .and_then(|list| list.next(&old.file.path, &taken));
        let Some(new) = found else { continue };
        taken.insert(new.full_name);
        renamed.insert(old.full_name);
        out.push((old, new));
    }
    out
}

/// The new-only types of one signature, handed out as renames prefer them: one in the old
/// type's file first, then any, each by full name. Cursors skip what is taken, so that
/// 100,000 renamed messages of one shape pair in linear time.
#[derive(Default)]
struct Appeared<'n> {
    by_file: HashMap<&'n str, Queue<'n>>,
    all: Queue<'n>,
}

#[derive(Default)]
struct Queue<'n> {
    types: Vec<&'n Named<'n>>,
    cursor: usize,
}

impl<'n> Queue<'n> {
    fn next(&mut self, taken: &HashSet<&str>) -> Option<&'n Named<'n>> {
        while let Some(t) = self.types.get(self.cursor) {
            if !taken.contains(t.full_name) {
                return Some(t);
            }
            self.cursor += 1;
        }
        None
    }
}

impl<'n> Appeared<'n> {
    fn add(&mut self, t: &'n Named<'n>) {
        self.all.types.push(t);
        self.by_file.entry(&t.file.path).or_default().types.push(t);
    }

    fn sort(&mut self) {
        let queues = self
            .by_file
            .values_mut()
            .chain(std::iter::once(&mut self.all));
        for queue in queues {
            queue.types.sort_by_key(|t| t.full_name);
        }
    }

    fn next(&mut self, file: &str, taken: &HashSet<&str>) -> Option<&'n Named<'n>> {
        let same_file = self.by_file.get_mut(file).and_then(|q| q.next(taken));
        same_file.or_else(|| self.all.next(taken))
    }
}

/// `a.b.C.D` -> `a.b.C`, `a.b`, `a`.
fn parents(full_name: &str) -> impl Iterator<Item = &str> {
    full_name
        .char_indices()
        .filter(|(_, c)| *c == '.')
        .map(move |(i, _)| &full_name[..i])
}

/// Where a field's or RPC's type changed from one named type to another, by
/// (old type, new type): the findings there follow a rename of that type.
fn type_followers(ctx: &Diff) -> HashMap<(String, String), Vec<Region>> {
    let mut out: HashMap<(String, String), Vec<Region>> = HashMap::new();
    let mut add = |old: &str, new: &str, path: &str, span: Span| {
        if old != new {
            out.entry((old.to_string(), new.to_string()))
                .or_default()
                .push(Region {
                    old_side: false,
                    path: path.to_string(),
                    span: Some(span),
                    matching: Match::Within,
                    rules: TYPE_CHANGE_RULES,
                });
        }
    };
    for pair in ctx.field_pairs() {
        if let (Some(old), Some(new)) = (&pair.old.field.type_name, &pair.new.field.type_name) {
            add(old, new, &pair.new.file.path, pair.new.field.span);
        }
    }
    for pair in ctx.method_pairs() {
        let path = &pair.new_file.path;
        add(
            &pair.old.input_type,
            &pair.new.input_type,
            path,
            pair.new.span,
        );
        add(
            &pair.old.output_type,
            &pair.new.output_type,
            path,
            pair.new.span,
        );
    }
    out
}

fn rename_candidate(
    ctx: &Diff,
    old: &Named,
    new: &Named,
    followers: &HashMap<(String, String), Vec<Region>>,
) -> Candidate {
    let package = &old.file.package;
    let (was, now) = (
        relative(old.full_name, package),
        relative(new.full_name, package),
    );
    let mut regions = follow(ctx, old.full_name, new.full_name);
    let key = (old.full_name.to_string(), new.full_name.to_string());
    if let Some(follower) = followers.get(&key) {
        regions.extend(follower.iter().map(Region::copy));
    }
    let kind = old.kind;
    Candidate {
        group: Group {
            key: format!("{kind}-renamed:{}:{}", old.full_name, new.full_name),
            title: format!("{kind} `{was}` was renamed to `{now}`"),
            help: format!(
                "`{now}` has the same contents, so binary data is unaffected, but generated \
                 code, `Any` type URLs and reflection use the full name: rename it back to \
                 `{was}`. To introduce `{now}`, keep `{was}` beside it (marked \
                 `option deprecated = true;`) until no one uses it"
            ),
            location: loc(new.file, new.name_span),
            previous: loc(old.file, old.name_span),
            members: 0,
        },
        regions,
    }
}

/// A top-level message, enum or service that now lives in another file (buf pairs FILE
/// category elements per file, so a move reports deletions from the old file).
fn type_moves(ctx: &Diff) -> Vec<Candidate> {
    let mut out = Vec::new();
    for old_file in ctx.old.files.values() {
        let tops = old_file
            .messages
            .iter()
            .map(|m| ("message", &m.full_name, m.name_span))
            .chain(
                old_file
                    .enums
                    .iter()
                    .map(|e| ("enum", &e.full_name, e.name_span)),
            )
            .chain(
                old_file
                    .services
                    .iter()
                    .map(|s| ("service", &s.full_name, s.name_span)),
            );
        for (kind, full_name, old_name_span) in tops {
            let Some((new_file, name_span)) = declared_in(ctx, kind, full_name) else {
                continue;
            };
            if new_file.path == old_file.path {
                continue;
            }
            let name = relative(full_name, &old_file.package);
            out.push(Candidate {
                group: Group {
                    key: format!("{kind}-moved:{full_name}:{}", new_file.path),
                    title: format!(
                        "{kind} `{name}` moved from `{}` to `{}`",
                        old_file.path, new_file.path
                    ),
                    help: format!(
                        "code generated per file (Go packages, Java outer classes, C++ \
                         headers, imports) expects `{name}` in `{}`: move it back. If your \
                         consumers only depend on the package, check with the PACKAGE \
                         category instead of FILE",
                        old_file.path
                    ),
                    location: loc(new_file, name_span),
                    previous: loc(old_file, old_name_span),
                    members: 0,
                },
                regions: follow(ctx, full_name, full_name),
            });
        }
    }
    out
}

/// The deletion reports a rename or move explains: the type itself and each type nested in
/// it that lives on under the new name. A nested type that is really gone stays a finding of
/// its own.
fn follow(ctx: &Diff, old_name: &str, new_name: &str) -> Vec<Region> {
    let region = |file: &File, span: Span| Region {
        old_side: true,
        path: file.path.clone(),
        span: Some(span),
        matching: Match::Exact,
        rules: TYPE_DELETE_RULES,
    };
    let mut out = Vec::new();
    let mut todo = vec![(old_name.to_string(), new_name.to_string())];
    while let Some((old, new)) = todo.pop() {
        if let Some(m) = ctx.old_index.messages.get(old.as_str()) {
            if ctx.new_index.messages.contains_key(new.as_str()) {
                out.push(region(m.file, m.item.span));
            }
            let nested = m.item.messages.iter().map(|n| (&n.full_name, &n.name));
            let enums = m.item.enums.iter().map(|e| (&e.full_name, &e.name));
            for (full, name) in nested.chain(enums) {
                todo.push((full.clone(), format!("{new}.{name}")));
            }
        } else if let Some(e) = ctx.old_index.enums.get(old.as_str()) {
            if ctx.new_index.enums.contains_key(new.as_str()) {
                out.push(region(e.file, e.item.span));
            }
        } else if let Some(s) = ctx.old_index.services.get(old.as_str()) {
            if ctx.new_index.services.contains_key(new.as_str()) {
                out.push(region(s.file, s.item.span));
            }
        }
    }
    out
}

/// The new file declaring a top-level or nested type of this kind, and its name span.
fn declared_in<'a>(ctx: &Diff<'a>, kind: &str, full_name: &str) -> Option<(&'a File, Span)> {
    match kind {
        "message" => ctx
            .new_index
            .messages
            .get(full_name)
            .map(|m| (m.file, m.item.name_span)),
        "enum" => ctx
            .new_index
            .enums
            .get(full_name)
            .map(|e| (e.file, e.item.name_span)),
        _ => ctx
            .new_index
            .services
            .get(full_name)
            .map(|s| (s.file, service_name_span(s.item))),
    }
}

fn service_name_span(s: &Service) -> Span {
    s.name_span
}

/// A file gone from the new revision: FILE_NO_DELETE and every finding about what it held.
fn file_deletions(ctx: &Diff) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (path, old_file) in &ctx.old.files {
        if ctx.new.files.contains_key(path) {
            continue;
        }
        let destinations = destinations(ctx, old_file);
        let title = match destinations.len() {
            0 => format!("file `{path}` was deleted"),
            1 => format!(
                "file `{path}` was deleted; its types now live in `{}`",
                destinations.iter().next().map_or("", |d| d.as_str())
            ),
            _ => format!(
                "file `{path}` was deleted; its types now live in {}",
                destinations
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        out.push(Candidate {
            group: Group {
                key: format!("file-deleted:{path}"),
                title,
                help: format!(
                    "restore `{path}`; to retire its types, keep them and mark them \
                     `option deprecated = true;`. If the file was renamed on purpose, every \
                     importer and every language's generated code must move with it"
                ),
                location: None,
                previous: Some(Location::in_file(old_file, None)),
                members: 0,
            },
            regions: vec![Region {
                old_side: true,
                path: path.clone(),
                span: None,
                matching: Match::Within,
                rules: ANY_RULE,
            }],
        });
    }
    out
}

/// New files now declaring the top-level types of a deleted file.
fn destinations(ctx: &Diff, old_file: &File) -> BTreeSet<String> {
    let messages = old_file.messages.iter().filter_map(|m| {
        ctx.new_index
            .messages
            .get(m.full_name.as_str())
            .map(|n| n.file)
    });
    let enums = old_file.enums.iter().filter_map(|e| {
        ctx.new_index
            .enums
            .get(e.full_name.as_str())
            .map(|n| n.file)
    });
    let services = old_file.services.iter().filter_map(|s| {
        ctx.new_index
            .services
            .get(s.full_name.as_str())
            .map(|n| n.file)
    });
    messages
        .chain(enums)
        .chain(services)
        .map(|f| f.path.clone())
        .collect()
}
